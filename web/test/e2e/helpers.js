// Steps a person takes in the browser, shared by the end-to-end scenarios.

import { spawnSync } from 'node:child_process';

/** @typedef {import('playwright-core').Page} Page */

/**
 * Fills in the display name if the page asks for it.
 * @param {Page} page
 * @param {string} name
 */
export async function giveName(page, name) {
  const input = page.locator('#name-input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(name);
  await page.click('#name-save');
}

/**
 * From the home page: creates a table and waits for its lobby.
 * @param {Page} page
 * @param {{game: string, seats?: number, publicTable?: boolean, timer?: number}} o
 */
export async function createTable(page, o) {
  await page.waitForSelector(`#game-select option[value="${o.game}"]`, { state: 'attached' });
  await page.selectOption('#game-select', o.game);
  if (o.seats) await page.selectOption('#seats-select', String(o.seats));
  if (o.publicTable) await page.check('#public-check');
  if (o.timer) await page.selectOption('#timer-select', String(o.timer));
  await page.click('#create-button');
  await page.waitForURL(/\/t\/[^/]+$/);
  await page.waitForSelector('#lobby');
  await page.waitForSelector('#invite-url');
  return {
    invite: await page.inputValue('#invite-url'),
    spectate: (await page.locator('#spectate-url').count()) ? await page.inputValue('#spectate-url') : null,
  };
}

/**
 * From a page with a name: creates a table through the API, for settings the
 * home page does not offer (a turn timer under 30 s), keeps its token as the
 * home page does and opens its lobby.
 * @param {Page} page
 * @param {string} name the host's name
 * @param {string} game
 * @param {Record<string, unknown>} settings
 */
export async function createTableThroughApi(page, name, game, settings) {
  const invite = await page.evaluate(
    async ({ name, game, settings }) => {
      const res = await fetch('/api/tables', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game, name, settings }),
      });
      const created = await res.json();
      localStorage.setItem(`citytable.token.${created.invite_code}`, created.token);
      return `/t/${created.invite_code}`;
    },
    { name, game, settings },
  );
  await page.goto(new URL(invite, page.url()).href);
  await page.waitForSelector('#lobby');
  return invite;
}

/**
 * Opens an invite link, gives a name and takes seat `seat`.
 * @param {Page} page
 * @param {string} invite the invite URL
 * @param {string} name
 * @param {number} [seat]
 */
export async function takeSeatFromInvite(page, invite, name, seat = 1) {
  await page.goto(invite);
  await giveName(page, name);
  await page.click('[data-action="take-seat"]');
  await page.waitForSelector(`.seat.me[data-seat="${seat}"]`);
}

/**
 * Waits until `page` shows the game in progress.
 * @param {Page} page
 */
export async function waitPlaying(page) {
  await page.waitForSelector('#table-status[data-status="playing"]', { timeout: 15_000 });
}

/**
 * The page (among `pages`) whose player is to decide now.
 * @param {Page[]} pages
 */
export async function pageToPlay(pages) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    for (const page of pages) {
      if (await page.locator('#turn-banner.mine').count()) return page;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('nobody has the turn');
}

/**
 * The last error toast's text (waits for one). With `text`, waits for a toast that
 * says it, so an earlier toast still on screen is not taken for the new one.
 * @param {Page} page
 * @param {RegExp} [text]
 */
export async function errorToast(page, text) {
  const toast = page.locator('.toast.error', text ? { hasText: text } : {}).last();
  await toast.waitFor({ timeout: 10_000 });
  return (await toast.textContent()) ?? '';
}

/**
 * Records every WebSocket message the page receives, from now on.
 * @param {Page} page
 */
export function recordFrames(page) {
  /** @type {string[]} */
  const frames = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') frames.push(f.payload);
    });
  });
  return frames;
}

/**
 * Every object with `kind` (a game event) anywhere in the recorded frames, in order.
 * @param {string[]} frames
 * @param {string} kind
 * @returns {any[]}
 */
export function eventsIn(frames, kind) {
  /** @type {any[]} */
  const found = [];
  /** @param {unknown} v */
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (/** @type {any} */ (v).kind === kind) found.push(v);
      Object.values(v).forEach(walk);
    }
  };
  for (const f of frames) {
    try {
      walk(JSON.parse(f));
    } catch {
      // not JSON: no event
    }
  }
  return found;
}

/**
 * Waits for the open replay's fairness checks and returns their results:
 * `commitment` and `replay` (`matches`, `differs`, `absent`, `failed`), and
 * whether this browser was shown the commitment when the game started.
 * @param {Page} page
 */
export async function fairChecks(page) {
  await page.waitForSelector('#fair-replay:not([data-result="checking"])', { timeout: 20_000 });
  return {
    commitment: await page.getAttribute('#fair-commitment', 'data-result'),
    replay: await page.getAttribute('#fair-replay', 'data-result'),
    seen: (await page.locator('#fair-seen').count()) > 0,
    text: (await page.textContent('#replay-fair')) ?? '',
  };
}

/**
 * `citytable verify FILE`, as anyone would run it on a downloaded record.
 * @param {string} bin the citytable binary
 * @param {string} file
 * @returns {{code: number | null, out: string}}
 */
export function verifyRecordFile(bin, file) {
  const run = spawnSync(bin, ['verify', file], { encoding: 'utf8' });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}
