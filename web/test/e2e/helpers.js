// Steps a person takes in the browser, shared by the end-to-end scenarios.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';

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

/**
 * A webhook receiver on this machine, as a Discord or Slack channel would be:
 * every post's JSON body, in order.
 */
export async function startWebhookReceiver() {
  /** @type {any[]} */
  const posts = [];
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      posts.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => hook.listen(0, '127.0.0.1', () => r(null)));
  const port = /** @type {import('node:net').AddressInfo} */ (hook.address()).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    posts,
    /** Waits until `n` posts came (10 s at most) and returns them. */
    async waitPosts(/** @type {number} */ n) {
      const deadline = Date.now() + 10_000;
      while (posts.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return posts;
    },
    close: () => hook.close(),
  };
}

/**
 * Downloads the record from the open replay and checks it as anyone would,
 * with `citytable verify`: the file's name, its commitment (the one shown when
 * the game started), and a copy whose seed was changed, which must fail.
 * Returns the record and the paths of the file and its forged copy.
 * @param {Page} page with the replay open
 * @param {string} bin the citytable binary
 * @param {string} game the game's id
 * @param {string} commitment the seal shown when the game started
 */
export async function downloadAndVerifyRecord(page, bin, game, commitment) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#replay-download')]);
  assert.match(download.suggestedFilename(), new RegExp(`^citytable-${game}-.+\\.json$`));
  const path = await download.path();
  const record = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(record.game, game);
  assert.match(record.seed, /^[0-9a-f]{16}$/);
  assert.equal(record.commitment, commitment, 'the commitment the players were shown');
  assert.ok(record.outcome, 'the outcome');
  const verified = verifyRecordFile(bin, path);
  assert.equal(verified.code, 0, verified.out);
  assert.match(verified.out, /commitment: matches/);
  const forgedPath = join(dirname(path), `forged-${game}.json`);
  writeFileSync(forgedPath, JSON.stringify({ ...record, seed: (BigInt(`0x${record.seed}`) ^ 1n).toString(16).padStart(16, '0') }));
  const forged = verifyRecordFile(bin, forgedPath);
  assert.equal(forged.code, 1, forged.out);
  return { record, path, forgedPath };
}

/**
 * From the home page: opens a record file in the replay ("Watch a game
 * record") and returns its fairness checks.
 * @param {Page} page on the home page
 * @param {string} path
 */
export async function watchRecordFile(page, path) {
  await page.setInputFiles('#record-file', path);
  await page.waitForSelector('#replay');
  return fairChecks(page);
}

/**
 * Lets what the server says to `page` be held back, as on a slow network: set
 * `wire.hold`, and what arrives waits until the page sends an `undo` (then it
 * comes 100 ms later). Call before the page opens its table.
 * @param {Page} page
 */
export async function holdBackFromServer(page) {
  /** @type {{hold: boolean, held: (string | Buffer)[], flush: () => void}} */
  const wire = { hold: false, held: [], flush: () => {} };
  await page.routeWebSocket(/\/ws\//, (ws) => {
    const upstream = ws.connectToServer();
    wire.flush = () => {
      wire.hold = false;
      for (const m of wire.held.splice(0)) ws.send(m);
    };
    upstream.onMessage((m) => (wire.hold ? wire.held.push(m) : ws.send(m)));
    ws.onMessage((m) => {
      upstream.send(m);
      // Its undo has left: what the server said meanwhile arrives now.
      if (wire.hold && /"type":"undo"/.test(String(m))) setTimeout(() => wire.flush(), 100);
    });
  });
  return wire;
}

/**
 * Someone who never saw the game opens its record file on the home page: the
 * page checks it (the seal matches, the replay matches, this browser was not
 * shown the seal at the start), then the forged copy, whose seal and replay
 * both differ. `whileOpen` looks at the genuine record's replay before it closes.
 * @param {Page} page a new visitor's page on the home page
 * @param {string} recordPath
 * @param {string} forgedPath
 * @param {() => Promise<void>} [whileOpen]
 */
export async function checkRecordFilesAsNewcomer(page, recordPath, forgedPath, whileOpen) {
  const fromFile = await watchRecordFile(page, recordPath);
  assert.deepEqual([fromFile.commitment, fromFile.seen, fromFile.replay], ['matches', false, 'matches'], fromFile.text);
  await whileOpen?.();
  await page.click('#replay-close');
  await page.waitForSelector('#replay', { state: 'detached' });
  const forged = await watchRecordFile(page, forgedPath);
  assert.deepEqual([forged.commitment, forged.replay], ['differs', 'differs'], forged.text);
}
