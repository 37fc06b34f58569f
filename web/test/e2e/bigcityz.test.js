// Big Cityz against the real server: a host creates a table with a short
// objection window, a friend on a phone joins through the invite link, two bots
// fill the table, a spectator watches; the humans place on legal squares and
// object or let cards stand through the board until the game is over; then the
// spectator's board equals the players' and the replay starts from the empty ring.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shot } from '../harness.js';
import { giveName, waitPlaying } from './helpers.js';

/** @typedef {import('playwright-core').Page} Page */

/** The objection window, in ms: short, but long enough for a person to click. */
const WINDOW_MS = 4000;

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;

before(async () => {
  server = await startServer({ BOT_DELAY_MS: '20' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * Clicks if the element is still there; the board redraws as the others play.
 * @param {Page} page
 * @param {string} selector
 */
async function tryClick(page, selector) {
  try {
    await page.locator(selector).first().click({ timeout: 1500 });
    return true;
  } catch {
    return false;
  }
}

test('two people and two bots play Big Cityz to the end', { timeout: 240_000 }, async () => {
  const started = Date.now();
  const ana = await browser.person();
  const bruno = await browser.person({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  // Ana creates a 4-seat table with a 4 s objection window.
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  await ana.page.waitForSelector('#game-select option[value="big-cityz"]', { state: 'attached' });
  await ana.page.selectOption('#game-select', 'big-cityz');
  await ana.page.selectOption('#seats-select', '4');
  const option = ana.page.locator('[data-option="objection_ms"]');
  assert.equal(await option.getAttribute('min'), '1000');
  assert.equal(await option.getAttribute('max'), '120000');
  await option.fill(String(WINDOW_MS));
  await option.press('Tab');
  await ana.page.click('#create-button');
  await ana.page.waitForSelector('#lobby');
  const invite = await ana.page.inputValue('#invite-url');
  const spectate = await ana.page.inputValue('#spectate-url');

  // Bruno joins through the link; Ana adds two bots.
  await bruno.page.goto(invite);
  await giveName(bruno.page, 'Bruno');
  await bruno.page.click('[data-action="take-seat"]');
  await bruno.page.waitForSelector('.seat.me[data-seat="1"]');
  for (const seat of [2, 3]) {
    await ana.page.locator(`.seat[data-seat="${seat}"] [data-action="add-bot"]`).click();
    await ana.page.waitForSelector(`.seat[data-seat="${seat}"]:not(.empty)`);
  }
  await bruno.page.waitForSelector(`#settings-summary li:has-text("${WINDOW_MS}")`);
  const cleo = await browser.person();
  await cleo.page.goto(spectate);
  await ana.page.waitForSelector('#spectator-count');
  await shot(ana.page, 'bigcityz-lobby');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page, cleo.page]) {
    await waitPlaying(p);
    await p.waitForSelector('.bcz #bcz-ring');
  }

  // Play until the end: each human places on a legal square when it is his turn,
  // objects at his first two chances after the first, and lets the others stand.
  const humans = [
    { page: ana.page, name: 'Ana', chances: 0, objected: 0, placed: 0 },
    { page: bruno.page, name: 'Bruno', chances: 0, objected: 0, placed: 0 },
  ];
  let judgments = 0;
  let objectionsShown = 0;
  let lastJudgment = '';
  const shots = new Set();
  const deadline = Date.now() + 200_000;
  while (!(await ana.page.locator('#bcz-final').count())) {
    assert.ok(Date.now() < deadline, 'the game ends in time');
    let acted = false;
    for (const h of humans) {
      const page = h.page;
      const legal = page.locator('.bcz[data-mine="yes"] #bcz-ring .bcz-sq.legal');
      const n = await legal.count();
      if (n > 0) {
        if (!shots.has('placing')) {
          shots.add('placing');
          await shot(page, 'bigcityz-placing');
        }
        if (await tryClick(page, `.bcz[data-mine="yes"] #bcz-ring .bcz-sq.legal >> nth=${(h.placed * 7) % n}`)) {
          h.placed += 1;
          acted = true;
        }
        continue;
      }
      if (await page.locator('#bcz-object').count()) {
        h.chances += 1;
        const object = h.chances >= 2 && h.objected < 2;
        if (object && !shots.has(`objection-${h.name}`)) {
          shots.add(`objection-${h.name}`);
          await shot(page, `bigcityz-objection-${h.name.toLowerCase()}`);
        }
        if (await tryClick(page, object ? '#bcz-object' : '#bcz-decline')) {
          acted = true;
          if (object) {
            h.objected += 1;
            // Everyone sees it: the other human's log says so.
            const other = humans.find((x) => x !== h)?.page ?? page;
            await other.waitForFunction((name) => (document.querySelector('#log-lines')?.textContent ?? '').includes(`${name}: objection!`), h.name, { timeout: 5000 });
            objectionsShown += 1;
          }
        }
      }
    }
    const j = (await ana.page.locator('#bcz-judgment').getAttribute('data-card').catch(() => null)) ?? '';
    const verdict = j ? ((await ana.page.textContent('#bcz-judgment .verdict').catch(() => '')) ?? '') : '';
    if (j && `${j}:${verdict}` !== lastJudgment) {
      lastJudgment = `${j}:${verdict}`;
      judgments += 1;
      if (judgments === 3) await shot(bruno.page, 'bigcityz-phone-judgment');
    }
    if (!acted) await new Promise((r) => setTimeout(r, 60));
  }

  // Both saw the end: the winner is the best score.
  for (const p of [ana.page, bruno.page]) await p.waitForSelector('#bcz-final');
  const scores = await ana.page.$$eval('#bcz-players li', (els) => els.map((e) => ({ score: Number(e.getAttribute('data-score')), name: e.querySelector('.name')?.textContent?.replace('★ ', '') ?? '' })));
  const best = Math.max(...scores.map((s) => s.score));
  const winnerLine = (await ana.page.textContent('#bcz-winner')) ?? '';
  for (const s of scores.filter((x) => x.score === best)) assert.ok(winnerLine.includes(s.name), `${winnerLine} names ${s.name}`);
  assert.match(winnerLine, new RegExp(`won with ${best} points`));
  const reason = (await ana.page.textContent('#bcz-final')) ?? '';
  assert.ok(best >= 36 || /ran out/.test(reason), `the game ended by the rules: ${best} points; ${reason}`);
  assert.ok(await ana.page.locator('#game-result').count(), 'the table shows the result');

  // A human's objection and judgments were shown, in the log and on the board.
  assert.ok(humans.every((h) => h.placed > 0), 'both humans placed cards');
  assert.ok(objectionsShown > 0, "a human's objection was shown to the other");
  assert.ok(judgments >= 1, `judgments shown: ${judgments}`);
  const log = (await ana.page.textContent('#log-lines')) ?? '';
  assert.match(log, /was (right|wrong) with/);
  const overflow = await bruno.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the phone page is ${overflow}px too wide`);
  await shot(ana.page, 'bigcityz-final');
  await shot(bruno.page, 'bigcityz-phone-final');

  // The spectator sees what the players see, with nothing to click.
  await cleo.page.waitForSelector('#bcz-final');
  const ringOf = (/** @type {Page} */ page) => page.$$eval('#bcz-ring section', (els) => els.map((e) => /** @type {HTMLElement} */ (e).innerText));
  assert.deepEqual(await ringOf(cleo.page), await ringOf(ana.page));
  assert.equal(await cleo.page.innerText('#bcz-final'), await ana.page.innerText('#bcz-final'));
  assert.equal(await cleo.page.locator('#bcz-ring button, #bcz-object, #bcz-decline').count(), 0);

  // The replay starts from the empty ring, with nothing to play.
  await ana.page.click('#replay-button');
  await ana.page.waitForSelector('#replay .bcz');
  await ana.page.click('#replay-first');
  await ana.page.waitForFunction(() => document.querySelectorAll('#replay .bcz-sq.taken').length === 0);
  assert.equal(await ana.page.locator('#replay .bcz-sq.legal, #replay #bcz-object').count(), 0, 'nothing to play in a replay');
  await ana.page.click('#replay-close');

  for (const p of [ana, bruno, cleo]) assert.deepEqual(p.errors, [], 'no script errors');
  for (const p of [ana, bruno, cleo]) await p.ctx.close();
  console.log(`# Big Cityz e2e: ${judgments} judgments, placed ${humans.map((h) => h.placed)}, objected ${humans.map((h) => h.objected)}, ${Math.round((Date.now() - started) / 1000)} s`);
});
