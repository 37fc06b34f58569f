// A long Big City game against a bot, played through the board: many patches in a
// row, parks, factories and streetcars from the bot. At the end the view the page
// patched together must equal a fresh snapshot.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shot } from '../harness.js';
import { giveName, createTable, waitPlaying } from './helpers.js';

/** @typedef {import('playwright-core').Page} Page */

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
 * One decision for Ana through the board, whatever the phase.
 * @param {Page} page
 */
async function playOnce(page) {
  const phase = await page.getAttribute('.bc', 'data-phase');
  if (process.env.TRACE) console.log('decision', phase);
  if (phase === 'starting_city') {
    const box = await page.locator('svg.city .tile-spot .spot-area').last().boundingBox();
    if (!box) return;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.click('#act-confirm');
  } else if (phase === 'drawing') {
    await page.locator('button.stack.drawable').first().click();
  } else if (phase === 'second_streetcar') {
    await page.click('#act-done');
  } else if (phase === 'action') {
    if (await page.isEnabled('#act-build')) {
      await page.click('#act-build');
      const pieces = await page.$$eval('#piece-chooser [data-choose-piece]', (els) => els.map((e) => e.getAttribute('data-choose-piece')));
      const pick = pieces.includes('city_hall') ? 'city_hall' : pieces[pieces.length - 1];
      await page.click(`#piece-chooser [data-choose-piece="${pick}"]`);
      await page.locator('svg.city .lot.legal').first().click();
      await page.click('#act-confirm');
    } else if (await page.isEnabled('#act-streetcar')) {
      await page.click('#act-streetcar');
      await page.locator('svg.city .seg-target .seg-hit').first().click({ force: true });
      await page.click('#act-confirm');
    } else {
      await page.click('#act-pass');
      await page.click('#act-pass');
    }
  }
}

test('a long game against a bot keeps the patched view equal to a fresh snapshot', async () => {
  const ana = await browser.person();
  ana.page.setDefaultTimeout(8000);
  if (process.env.TRACE) ana.page.on('websocket', (ws) => ws.on('framesent', (f) => console.log('>>', String(f.payload).slice(0, 200))));
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  await createTable(ana.page, { game: 'big-city', seats: 2 });
  await ana.page.selectOption('.seat[data-seat="1"] .bot-adder select', 'random');
  await ana.page.click('.seat[data-seat="1"] [data-action="add-bot"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(.empty)');
  await ana.page.click('#start-button');
  await waitPlaying(ana.page);

  let decisions = 0;
  for (let i = 0; i < 60; i++) {
    await ana.page.waitForSelector('#turn-banner.mine, #game-result h2', { timeout: 20_000 });
    if (await ana.page.locator('#game-result h2').count()) break;
    // Wait until the board knows its legal moves for this version.
    await ana.page.waitForSelector('.bc[data-mine="yes"]');
    const version = await ana.page.evaluate(() => /** @type {any} */ (window).citytable.version());
    await playOnce(ana.page);
    decisions++;
    await ana.page.waitForFunction((v) => /** @type {any} */ (window).citytable.version() > v, version, { timeout: 20_000 });
  }
  assert.ok(decisions >= 20, `Ana made ${decisions} decisions`);
  const built = await ana.page.locator('svg.city .building').count();
  assert.ok(built >= 5, `${built} buildings in the city`);
  await shot(ana.page, 'board-long-game');

  // A quiet moment: Ana's turn (the bot waits for her) or the end.
  await ana.page.waitForSelector('#turn-banner.mine, #game-result h2', { timeout: 20_000 });
  const patched = await ana.page.evaluate(() => JSON.stringify(/** @type {any} */ (window).citytable.game().view));
  const version = await ana.page.evaluate(() => /** @type {any} */ (window).citytable.version());
  await ana.page.reload();
  await ana.page.waitForFunction((v) => /** @type {any} */ (window).citytable?.version?.() >= v, version);
  const fresh = await ana.page.evaluate(() => JSON.stringify(/** @type {any} */ (window).citytable.game().view));
  const freshVersion = await ana.page.evaluate(() => /** @type {any} */ (window).citytable.version());
  assert.equal(freshVersion, version);
  assert.deepEqual(JSON.parse(fresh), JSON.parse(patched), 'the patched view equals the snapshot');
  assert.deepEqual(ana.errors, []);
  await ana.ctx.close();
});
