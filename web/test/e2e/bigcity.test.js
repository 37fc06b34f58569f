// Big City against the real server: two players and a spectator place the
// starting city, build and score, take a building back before the draw, draw
// cards; the spectator never sees a card face; a reload and a phone keep the
// player's seat; passing ends the game.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shot, serverBin } from '../harness.js';
import { giveName, createTable, waitPlaying, pageToPlay, fairChecks, takeSeatFromInvite, holdBackFromServer, errorToast, downloadAndVerifyRecord, checkRecordFilesAsNewcomer, startWebhookReceiver } from './helpers.js';

/** @typedef {import('playwright-core').Page} Page */

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;

before(async () => {
  // A player gone on his decision gets the table's stand-in after 1.5 s (30 s by default).
  // Webhooks may post to this machine, where the tests' receiver listens.
  server = await startServer({ LEFT_GRACE_MS: '1500', WEBHOOK_ALLOW_LOCAL: '1' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * No card face anywhere on a spectator's page.
 * @param {Page} page
 */
async function assertNoFaces(page) {
  assert.equal(await page.locator('[data-face]').count(), 0, 'a spectator sees no card face');
  assert.equal(await page.locator('#my-hand').count(), 0);
}

/**
 * Waits for the board of the given version of play: a status line is shown.
 * @param {Page} page
 * @param {string} phase
 */
async function waitPhase(page, phase) {
  await page.waitForSelector(`.bc[data-phase="${phase}"]`, { timeout: 15_000 });
}

/**
 * Places a neighborhood on the first legal spot, through the board.
 * @param {Page} page
 */
async function placeNeighborhood(page) {
  await page.waitForSelector('.bc[data-mine="yes"] svg.city .tile-spot .spot-area');
  const box = await page.locator('svg.city .tile-spot .spot-area').first().boundingBox();
  assert.ok(box, 'a legal spot is shown');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForSelector('#ghost-tile.ok');
  await page.click('#act-confirm');
}

test('two players and a spectator play Big City', async () => {
  const ana = await browser.person();
  const bruno = await browser.person();
  if (process.env.DEBUG_WS) {
    for (const [who, p] of [['ana', ana], ['bruno', bruno]]) {
      p.page.on('websocket', (ws) => {
        ws.on('framesent', (f) => console.log(who, '>>', String(f.payload).slice(0, 300)));
        ws.on('framereceived', (f) => console.log(who, '<<', String(f.payload).slice(0, 300)));
      });
    }
  }
  const cleo = await browser.person({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  await ana.page.waitForSelector('#game-select option[value="big-city"]', { state: 'attached' });
  assert.ok(await ana.page.locator('[data-option="single_streetcar_line"]').count(), 'variants are offered');
  const links = await createTable(ana.page, { game: 'big-city', seats: 2 });

  await takeSeatFromInvite(bruno.page, links.invite, 'Bruno');
  await cleo.page.goto(/** @type {string} */ (links.spectate));
  await ana.page.waitForSelector('#spectator-count');

  // The host turns a variant on; the others see it in the table's settings.
  await ana.page.click('#settings summary');
  await ana.page.check('#settings [data-option="single_streetcar_line"]');
  await ana.page.click('#apply-settings');
  await bruno.page.waitForSelector('#settings-summary li:has-text("A single streetcar line")');
  await ana.page.waitForSelector('#settings-summary li:has-text("A single streetcar line")');
  await shot(ana.page, 'lobby');

  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page, cleo.page]) await waitPlaying(p);
  for (const p of [ana.page, bruno.page]) await p.waitForSelector('#my-hand [data-face]');
  // Everyone is shown the same seal of the game's shuffles.
  const sealed = (await cleo.page.getAttribute('#fair', 'data-commitment')) ?? '';
  assert.match(sealed, /^[0-9a-f]{64}$/);
  assert.equal(await ana.page.getAttribute('#fair', 'data-commitment'), sealed);
  assert.equal(await ana.page.locator('#my-hand [data-face]').count(), 5);
  assert.equal(await ana.page.locator('[data-hand-seat] [data-face]').count(), 0, "no opponent's face");
  assert.equal(await ana.page.locator('[data-hand-seat="1"] [data-back]').count(), 5, "the opponent's backs");
  await assertNoFaces(cleo.page);

  // Starting city: neighborhoods 2 to 5, two each, alternating.
  for (let i = 0; i < 4; i++) {
    const p = await pageToPlay([ana.page, bruno.page]);
    await placeNeighborhood(p);
    await cleo.page.waitForFunction((n) => document.querySelectorAll('svg.city .asphalt').length === n, i + 2);
  }
  for (const p of [ana.page, bruno.page, cleo.page]) await waitPhase(p, 'action');
  await assertNoFaces(cleo.page);

  // Build a single residence with the preview's score, take it back, build it
  // again, then draw the replacement.
  const builder = await pageToPlay([ana.page, bruno.page]);
  const builderName = builder === ana.page ? 'Ana' : 'Bruno';
  const builderScore = `#score-track .track-row[data-seat="${builder === ana.page ? 0 : 1}"] .track-score`;
  const scoreBefore = Number(await cleo.page.getAttribute(builderScore, 'data-score'));
  const cardsBefore = await builder.$$eval('#my-hand [data-face]', (els) => els.map((e) => e.getAttribute('data-face')));
  assert.equal(await builder.locator('#undo:visible').count(), 0, 'nothing to take back yet');
  const build = async () => {
    await builder.click('#act-build');
    await builder.click('[data-piece="residence_single"].can');
    const target = builder.locator('svg.city .lot.legal').first();
    const prop = await target.getAttribute('data-prop');
    await target.click();
    const preview = Number(await builder.getAttribute('#score-preview', 'data-score'));
    assert.ok(preview >= 2, `a single residence scores at least 2, preview ${preview}`);
    await builder.click('#act-confirm');
    await waitPhase(builder, 'drawing');
    return { prop, preview };
  };
  const first = await build();
  for (const p of [ana.page, bruno.page, cleo.page]) await p.waitForSelector(`svg.city .building[data-piece="residence_single"]`);
  await builder.waitForSelector('#undo:visible');
  await shot(builder, 'undo');
  assert.equal(await (ana.page === builder ? bruno : ana).page.locator('#undo:visible').count(), 0, 'only the builder may take it back');
  await builder.click('#undo');
  for (const p of [ana.page, bruno.page, cleo.page]) {
    await p.waitForFunction(() => !document.querySelector('svg.city .building[data-piece="residence_single"]'));
    await p.waitForFunction((said) => (document.querySelector('#log-lines')?.textContent ?? '').includes(said), `${builderName} took back a move`);
  }
  await waitPhase(builder, 'action');
  assert.deepEqual(await builder.$$eval('#my-hand [data-face]', (els) => els.map((e) => e.getAttribute('data-face'))), cardsBefore, 'the cards are back in hand');
  assert.equal(Number(await cleo.page.getAttribute(builderScore, 'data-score')), scoreBefore, 'and the points gone');
  await builder.waitForSelector('#undo', { state: 'hidden' });
  const { prop, preview } = await build();
  assert.deepEqual([prop, preview], [first.prop, first.preview]);
  const expected = new RegExp(`${builderName} built a single residence on ${prop} for ${preview} points`);
  for (const p of [ana.page, bruno.page, cleo.page]) {
    await p.waitForSelector(`svg.city .building[data-piece="residence_single"]`);
    await p.waitForFunction((re) => new RegExp(re).test(document.querySelector('#log-lines')?.textContent ?? ''), expected.source);
  }
  assert.equal(Number(await cleo.page.getAttribute(builderScore, 'data-score')), scoreBefore + preview);
  assert.equal(await builder.locator('#my-hand [data-face]').count(), 4);
  // The builder has the table open on a second screen too, on a slow network:
  // what the server says to it can be held back.
  const second = await builder.context().newPage();
  const wire = await holdBackFromServer(second);
  await second.goto(links.invite);
  await waitPlaying(second);
  await second.waitForSelector('#undo:visible');
  wire.hold = true;
  // A card drawn is never taken back: the second screen, which has not heard of
  // the draw yet, offers Undo, and the server refuses it.
  const stack = builder.locator('button.stack.drawable').first();
  const stackNo = await stack.getAttribute('data-stack');
  const before = Number(await stack.getAttribute('data-count'));
  await stack.click();
  await builder.waitForFunction(() => document.querySelectorAll('#my-hand [data-face]').length === 5);
  await cleo.page.waitForSelector(`button.stack[data-stack="${stackNo}"][data-count="${before - 1}"]`);
  await assertNoFaces(cleo.page);
  await builder.waitForSelector('#undo', { state: 'hidden' });
  await second.click('#undo');
  assert.match(await errorToast(second, /taken back/), /No move of yours can be taken back now/);
  await second.waitForFunction(() => document.querySelectorAll('#my-hand [data-face]').length === 5);
  await second.waitForSelector('#undo', { state: 'hidden' });
  assert.equal(await builder.locator('#my-hand [data-face]').count(), 5, 'the drawn card stays');
  await second.close();

  // Mid-game screens for a player and for spectators (one arriving now, on a desktop).
  await shot(ana.page, 'board-player');
  // On a laptop screen the city, the actions and the hand fit without scrolling.
  await ana.page.setViewportSize({ width: 1280, height: 800 });
  await ana.page.evaluate(() => window.scrollTo(0, 0));
  const hand = await ana.page.locator('#my-hand').boundingBox();
  assert.ok(hand && hand.y + Math.min(hand.height, 120) <= 800, `the hand is on screen at 1280×800 (top ${hand?.y})`);
  await shot(ana.page, 'board-player-laptop', false);
  await ana.page.setViewportSize({ width: 1400, height: 950 });
  await shot(cleo.page, 'board-spectator-phone');
  const dana = await browser.person();
  await dana.page.goto(/** @type {string} */ (links.spectate));
  await waitPlaying(dana.page);
  await dana.page.waitForSelector('svg.city .building');
  await assertNoFaces(dana.page);
  assert.equal(await dana.page.locator('[data-hand-seat] [data-back]').count(), 10, 'both hands as backs');
  await shot(dana.page, 'board-spectator');
  await dana.ctx.close();

  // A click on a property the player does not hold says so and sends nothing.
  const player = await pageToPlay([ana.page, bruno.page]);
  const held = await player.$$eval('#my-hand [data-face]', (els) => els.map((e) => e.getAttribute('data-face')));
  await player.click('#act-build');
  await player.click('#piece-chooser [data-choose-piece="residence_single"]');
  const notHeld = await player.$$eval('svg.city .lot:not(.legal):has(.prop-no)', (els, h) => els.map((e) => e.getAttribute('data-prop')).find((p) => !h.includes(p)), held);
  await player.locator(`svg.city .lot[data-prop="${notHeld}"]`).click();
  const warning = await player.locator('.toast.error').last().textContent();
  assert.match(warning ?? '', new RegExp(`do not hold the card of property ${notHeld}`));

  // City hall on a property of the outskirts: the server refuses with the rule, nothing changes.
  await player.click('[data-piece="city_hall"]');
  const outskirts = await player.$$eval('svg.city .lot.held[data-outskirts="yes"]:not(.legal)', (els) => els.map((e) => e.getAttribute('data-prop')));
  assert.ok(outskirts.length > 0, 'the player holds a property on the outskirts');
  const buildingsBefore = await player.locator('svg.city .building').count();
  const toastsBefore = await player.locator('.toast.error').count();
  await player.locator(`svg.city .lot[data-prop="${outskirts[0]}"]`).click();
  await player.waitForFunction((n) => document.querySelectorAll('.toast.error').length > n, toastsBefore);
  const refusal = (await player.locator('.toast.error').last().textContent()) ?? '';
  assert.match(refusal, /cent(er|re)/i, `the rule is explained: ${refusal}`);
  assert.equal(await player.locator('svg.city .building').count(), buildingsBefore);
  assert.equal(await player.locator('#turn-banner.mine').count(), 1, 'still this player\'s turn');
  assert.deepEqual(await player.$$eval('#my-hand [data-face]', (els) => els.map((e) => e.getAttribute('data-face'))), held);
  await player.click('#act-cancel');

  // A reload puts Bruno back in his seat with his hand.
  const handBefore = await bruno.page.$$eval('#my-hand [data-face]', (els) => els.map((e) => e.getAttribute('data-face')));
  await bruno.page.reload();
  await waitPlaying(bruno.page);
  await bruno.page.waitForSelector('#my-hand [data-face]');
  assert.deepEqual(await bruno.page.$$eval('#my-hand [data-face]', (els) => els.map((e) => e.getAttribute('data-face'))), handBefore);
  assert.equal(await bruno.page.locator('.seat.me[data-seat="1"]').count(), 1);

  // The same player on a phone (his saved seat copied over) sees his hand.
  const saved = await bruno.page.evaluate(() => JSON.stringify({ ...localStorage }));
  const phone = await browser.person({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.ctx.addInitScript((s) => {
    for (const [k, v] of Object.entries(JSON.parse(s))) localStorage.setItem(k, /** @type {string} */ (v));
  }, saved);
  await phone.page.goto(links.invite);
  await waitPlaying(phone.page);
  await phone.page.waitForSelector('#my-hand [data-face]');
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the phone page is ${overflow}px too wide`);
  await shot(phone.page, 'board-phone');
  await phone.ctx.close();

  // Both pass in a row: the game ends; final scores, replay, play again.
  for (let i = 0; i < 2; i++) {
    const p = await pageToPlay([ana.page, bruno.page]);
    await p.click('#act-pass');
    await p.click('#act-pass');
    if (i === 0) await p.waitForSelector('#turn-banner:not(.mine)');
  }
  for (const p of [ana.page, bruno.page, cleo.page]) await p.waitForSelector('#game-result h2');
  // The result comes into view, wherever the page was scrolled.
  await ana.page.waitForFunction(() => {
    const r = document.querySelector('#game-result')?.getBoundingClientRect();
    return r && r.top >= 0 && r.top < window.innerHeight;
  });
  await shot(ana.page, 'end');
  await ana.page.click('#replay-button');
  await ana.page.waitForSelector('#replay svg.city');
  // The draws were the ones sealed when the game started.
  const checks = await fairChecks(ana.page);
  assert.deepEqual([checks.commitment, checks.seen, checks.replay], ['matches', true, 'matches'], checks.text);
  // The record downloads as one file that the command line verifies.
  const { record, path: recordPath, forgedPath } = await downloadAndVerifyRecord(ana.page, serverBin(), 'big-city', sealed);
  assert.ok(record.entries.some((/** @type {any} */ e) => 'undo' in e), 'the undo is in the record');
  // Seen by a player, the replay shows the hand he was dealt; seen by everyone, none.
  await ana.page.click('#replay-first');
  await ana.page.selectOption('#replay-seen-by', '1');
  await ana.page.waitForFunction(() => document.querySelectorAll('#replay [data-face]').length === 5);
  await shot(ana.page, 'replay-seen-by', false);
  await ana.page.selectOption('#replay-seen-by', '');
  assert.equal(await ana.page.locator('#replay svg.city .asphalt').count(), 1, 'the replay starts from neighborhood 1 alone');
  assert.equal(await ana.page.locator('#replay [data-face]').count(), 0);
  await ana.page.click('#replay-next');
  await ana.page.waitForFunction(() => document.querySelectorAll('#replay svg.city .asphalt').length === 2);
  await shot(ana.page, 'replay', false);
  await ana.page.click('#replay-close');
  // Someone who never saw the game replays it from the file, checked in her
  // browser; a copy whose seed was changed is caught.
  const erin = await browser.person();
  await erin.page.goto(server.url);
  await checkRecordFilesAsNewcomer(erin.page, recordPath, forgedPath);
  assert.deepEqual(erin.errors, [], 'no script errors');
  await erin.ctx.close();
  await ana.page.click('#play-again');
  for (const p of [ana.page, bruno.page]) await p.waitForFunction(() => document.querySelectorAll('svg.city .asphalt').length === 1 && !document.querySelector('#game-result h2'));

  for (const p of [ana, bruno, cleo]) assert.deepEqual(p.errors, [], 'no script errors');
  for (const p of [ana, bruno, cleo]) await p.ctx.close();
});

test('a turn-based Big City table in French: a bot stands in for a player who leaves, his webhook hears of his turn, the reserves survive a restart, My tables', { timeout: 120_000 }, async () => {
  const hook = await startWebhookReceiver();
  const ana = await browser.person();
  const bruno = await browser.person();
  await ana.page.goto(server.url);
  await ana.page.click('#lang-switch');
  await giveName(ana.page, 'Ana');
  const links = await createTable(ana.page, { game: 'big-city', seats: 2 });
  // A day per move with a two-day reserve, and a stand-in, from the lobby.
  await ana.page.click('#settings summary');
  await ana.page.selectOption('#settings-timer', '86400');
  await ana.page.selectOption('#settings-stand-in', '2');
  await ana.page.click('#apply-settings');
  await ana.page.waitForSelector('#timer-summary:has-text("1 j par coup")');
  assert.match((await ana.page.textContent('#timer-summary')) ?? '', /une réserve de 2 j 0 h chacun/);
  await takeSeatFromInvite(bruno.page, links.invite, 'Bruno');
  // Bruno gives his webhook, in English, from the lobby.
  await bruno.page.fill('#webhook-url', hook.url);
  await bruno.page.click('#webhook-save');
  await bruno.page.waitForSelector('#webhook-state');
  assert.equal(await ana.page.locator('#webhook-state').count(), 0, 'only he sees it');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page]) await waitPlaying(p);
  for (const p of [ana.page, bruno.page]) await p.waitForSelector('.seat[data-seat="1"] .badge.bank[data-bank-ms="172800000"]');

  // Bruno leaves the table on his first placement: the stand-in places his
  // neighborhoods of the starting city, and his seat says so.
  if ((await pageToPlay([ana.page, bruno.page])) === ana.page) await placeNeighborhood(ana.page);
  await bruno.page.waitForSelector('.bc[data-mine="yes"]');
  await bruno.page.close();
  await ana.page.waitForSelector('.seat[data-seat="1"] .badge.stand-in', { timeout: 10_000 });
  assert.match((await ana.page.textContent('.seat[data-seat="1"] .badge.stand-in')) ?? '', /un robot joue pour l’instant/);
  while (!(await ana.page.locator('.bc[data-phase="action"]').count())) {
    if (await ana.page.locator('.bc[data-mine="yes"] svg.city .tile-spot').count()) await placeNeighborhood(ana.page);
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(await ana.page.locator('svg.city .asphalt').count(), 5, 'the starting city: neighborhoods 1 to 5');
  // When the table came to wait for him again, his webhook was told: which
  // table, his seat, the time left and the link, and nothing of the cards.
  // Later turns in the hour go together into the next post.
  const code = links.invite.split('/t/')[1];
  const [post] = await hook.waitPosts(1);
  assert.ok(post, 'a post came');
  assert.match(post.content, new RegExp(`^Your turn at the Big City table \\((3 d 0 h|2 d 23 h) left\\): /t/${code}$`));
  assert.equal(post.text, post.content, 'Slack reads the same line');
  assert.deepEqual(Object.keys(post.citytable[0]).sort(), ['event', 'game', 'link', 'seat', 'table', 'time_left_ms']);
  assert.deepEqual([post.citytable[0].event, post.citytable[0].game, post.citytable[0].seat, post.citytable[0].table], ['your_turn', 'big-city', 1, code]);
  const version = await ana.page.evaluate(() => /** @type {any} */ (window).citytable.version());

  // The server restarts: the game and the reserves are as they were.
  await server.restart();
  await ana.page.waitForFunction((v) => document.body.dataset.conn === 'open' && /** @type {any} */ (window).citytable.version() === v, version, { timeout: 20_000 });
  for (const seat of [0, 1]) await ana.page.waitForSelector(`.seat[data-seat="${seat}"] .badge.bank`);
  assert.match((await ana.page.textContent('.seat[data-seat="0"] .badge.bank')) ?? '', /réserve (2 j 0 h|1 j 23 h)/);

  // Bruno opens the table again: his seat is his.
  const again = await bruno.ctx.newPage();
  await again.goto(server.url + post.citytable[0].link);
  await waitPlaying(again);
  await again.waitForSelector('#my-hand [data-face]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(:has(.badge.stand-in))');
  // My tables lists it for Ana, in French.
  await ana.page.click('.home-link');
  await ana.page.click('#my-tables-link');
  const row = ana.page.locator(`#my-tables-list .my-table[data-code="${links.invite.split('/t/')[1]}"]`);
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /Big City avec Bruno.*(À vous de jouer|En attente des autres) · encore \d j \d+ h/);
  assert.deepEqual([ana.errors, bruno.errors], [[], []], 'no script errors');
  await ana.ctx.close();
  await bruno.ctx.close();
  hook.close();
});
