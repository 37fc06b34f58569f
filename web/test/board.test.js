// The Big City board on real views dumped from the rules crate, served as files:
// what a player and a spectator see, and direct placing without a server.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStatic, launchBrowser, shot } from './harness.js';

/** @type {Awaited<ReturnType<typeof startStatic>>} */
let web;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;

before(async () => {
  web = await startStatic();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await web?.stop();
});

/**
 * @param {string} fixture
 * @param {'player' | 'spectator'} as
 * @param {object} [options]
 */
async function open(fixture, as, options) {
  const p = await browser.person(options);
  await p.page.goto(`${web.url}/test/fixture.html?f=${fixture}&as=${as}`);
  await p.page.waitForSelector('body[data-ready=yes]');
  return p;
}

test('a player sees his card faces, the others only backs by neighborhood', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player');
  const faces = await page.$$eval('#my-hand [data-face]', (els) => els.map((e) => Number(e.getAttribute('data-face'))));
  assert.deepEqual(faces, [61, 71, 86, 88, 89]);
  const backs = await page.$$eval('[data-hand-seat="0"] [data-back]', (els) => els.map((e) => Number(e.getAttribute('data-back'))));
  assert.deepEqual(backs, [6, 7, 7, 7, 8]);
  assert.equal(await page.locator('[data-hand-seat="1"]').count(), 0, 'own hand is not listed among opponents');
  await shot(page, 'fixture-board-player');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a spectator sees no card face at all', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'spectator');
  assert.equal(await page.locator('[data-face]').count(), 0);
  assert.equal(await page.locator('#my-hand').count(), 0);
  assert.equal(await page.locator('[data-hand-seat]').count(), 3);
  await shot(page, 'fixture-board-spectator');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('building: pick a piece, legal properties light up, preview with score, confirm sends the move', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player');
  await page.click('#act-build');
  await page.click('[data-piece="residence_single"].can');
  const legalProps = await page.$$eval('svg.city .lot.legal', (els) => els.map((e) => Number(e.getAttribute('data-prop'))).sort());
  assert.deepEqual(legalProps, [61, 71, 86, 88]);
  await page.click('svg.city [data-prop="86"]');
  const score = Number(await page.getAttribute('#score-preview', 'data-score'));
  assert.ok(score >= 1, `preview score ${score}`);
  const label = await page.textContent('#act-confirm');
  assert.match(label ?? '', /single residence on 86/);
  await shot(page, 'fixture-board-preview');
  await page.click('#act-confirm');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.deepEqual(sent, [{ type: 'build', piece: 'residence_single', cells: [86] }]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('starting city: choose a tile, rotate with R, place it on a legal spot', async () => {
  const { page, errors, ctx } = await open('bigcity-start', 'player');
  assert.ok(await page.locator('svg.city .tile-spot').count() > 0, 'legal spots are shown');
  const before = await page.locator('svg.city .tile-spot .spot-area').first().getAttribute('width');
  await page.keyboard.press('r');
  const after = await page.locator('svg.city .tile-spot .spot-area').first().getAttribute('width');
  assert.ok(before !== null && after !== null);
  // Click the middle of the first legal spot, then confirm.
  const box = await page.locator('svg.city .tile-spot .spot-area').first().boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await page.locator('#ghost-tile.ok').count(), 1);
  await shot(page, 'fixture-board-start');
  await page.click('#act-confirm');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type, 'place_neighborhood');
  assert.equal(sent[0].rotation, 90);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('drawing: only the allowed stacks are clickable and send a draw', async () => {
  const { page, errors, ctx } = await open('bigcity-drawing', 'player');
  const drawable = await page.$$eval('button.stack.drawable', (els) => els.map((e) => Number(e.getAttribute('data-stack'))));
  assert.ok(drawable.length > 0);
  await page.click(`button.stack[data-stack="${drawable[0]}"]`);
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.deepEqual(sent, [{ type: 'draw', stack: drawable[0] }]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('phone-sized viewport shows the board without horizontal scrolling', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
  await shot(page, 'fixture-board-phone');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('streetcar: legal streets are marked; a click previews, confirm sends the segment', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player');
  await page.click('#act-streetcar');
  const marked = await page.locator('svg.city .seg-target').count();
  assert.equal(marked, 6, 'the six legal segments of this position');
  const key = await page.locator('svg.city .seg-target').first().getAttribute('data-seg');
  await page.locator('svg.city .seg-target .seg-hit').first().click({ force: true });
  await page.click('#act-confirm');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type, 'streetcar');
  const s = sent[0].segment;
  const a = `${s.x1},${s.y1}`;
  const b = `${s.x2},${s.y2}`;
  assert.equal(a < b ? `${a}|${b}` : `${b}|${a}`, key);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('exchange: select cards in the hand, confirm sends them', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player');
  await page.click('#act-exchange');
  await page.click('#my-hand [data-card="88"]');
  await page.click('#my-hand [data-card="61"]');
  assert.match((await page.textContent('#act-confirm-exchange')) ?? '', /Exchange 2 card/);
  await page.click('#act-confirm-exchange');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.deepEqual(sent, [{ type: 'exchange', cards: [88, 61] }]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the build chooser lists only pieces with a legal spot', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player');
  await page.click('#act-build');
  const offered = await page.$$eval('#piece-chooser [data-choose-piece]', (els) => els.map((e) => e.getAttribute('data-choose-piece')));
  assert.deepEqual(offered, ['residence_single', 'business_single']);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the board speaks French', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player', { locale: 'fr-FR' });
  assert.match((await page.textContent('#bc-status')) ?? '', /À vous/);
  await page.click('#act-build');
  assert.match((await page.textContent('#piece-chooser')) ?? '', /résidence simple/);
  assert.match((await page.textContent('#bc-supply')) ?? '', /Bâtiments restants/);
  await shot(page, 'fixture-board-fr');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('trade variant: answering an offer with a card from the hand, or declining', async () => {
  const { page, errors, ctx } = await open('bigcity-trade-answer', 'player');
  assert.match((await page.textContent('#bc-trade')) ?? '', /Chloé offers 2 cards from 2 and 5/);
  const card = Number(await page.locator('#my-hand [data-card]').first().getAttribute('data-card'));
  await page.locator('#my-hand [data-card]').first().click();
  await page.click('#trade-answer');
  await page.click('#trade-decline');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.deepEqual(sent, [{ type: 'trade_answer', cards: [card] }, { type: 'trade_answer', cards: [] }]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('trade variant: the offering player picks an answer card', async () => {
  const { page, errors, ctx } = await open('bigcity-trade-accept', 'player');
  assert.equal(await page.locator('#bc-trade [data-pick]').count(), 3);
  await page.click('#bc-trade [data-pick="2:1"]');
  await shot(page, 'fixture-board-trade');
  await page.click('#trade-accept');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.deepEqual(sent, [{ type: 'trade_accept', picks: [{ give: 19, seat: 2, index: 1 }] }]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('trade variant: a declined answer says so; the turn prompt offers a trade; French colons', async () => {
  const { page, errors, ctx } = await open('bigcity-trade-accept', 'player');
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const view = structuredClone(w.data.view);
    view.trade.answers[0].neighborhoods = [];
    w.show(view);
  });
  const answers = await page.$$eval('#bc-trade .answers li', (lis) => lis.map((li) => li.textContent ?? ''));
  assert.match(answers[0], /: declined/);
  assert.equal(await page.locator('#bc-trade [data-pick]').count(), 2, 'only the real answer has cards');
  await ctx.close();
  const mid = await open('bigcity-mid', 'player');
  await mid.page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.show({ ...w.data.view, options: { ...w.data.view.options, trade_cards: true } });
  });
  assert.match((await mid.page.textContent('#bc-status')) ?? '', /offer a trade/);
  await mid.ctx.close();
  const fr = await open('bigcity-mid', 'player', { locale: 'fr-FR' });
  assert.match((await fr.page.textContent('#unplaced')) ?? '', /Quartiers à poser\u202f: /);
  assert.equal(await fr.page.getAttribute('#city', 'aria-label'), 'La ville');
  assert.deepEqual([...errors, ...mid.errors, ...fr.errors], []);
  await fr.ctx.close();
});

test('passing: the count of passes in a row, and a plain warning when a pass ends the game', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player');
  assert.equal(await page.locator('#pass-count').count(), 0, 'nobody has passed');
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.show({ ...w.data.view, passes_in_a_row: 1 }, 2);
  });
  assert.match((await page.textContent('#pass-count')) ?? '', /1 of 3 players has passed/);
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.show({ ...w.data.view, passes_in_a_row: 2 }, 3);
  });
  // Three players, the two others have passed: this pass ends the game.
  assert.match((await page.textContent('#pass-count')) ?? '', /if you pass now, the game ends at once/);
  await page.click('#act-pass');
  assert.match((await page.textContent('#act-pass')) ?? '', /Pass and end the game\? Click again/);
  await shot(page, 'fixture-board-pass-ends');
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).sent), [], 'one click sends nothing');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('an action that is not available says why', async () => {
  const { page, errors, ctx } = await open('bigcity-mid', 'player');
  assert.equal(await page.isDisabled('#act-tile'), true);
  assert.equal(await page.getAttribute('#act-tile', 'title'), 'Every neighborhood is in the city.');
  assert.equal(await page.locator('#action-why').count(), 0, 'the city hall stands');
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const supply = w.data.view.supply.map((/** @type {any} */ x) => (x.piece === 'city_hall' ? { ...x, left: 1 } : x));
    w.show({ ...w.data.view, supply }, 2);
  });
  assert.match((await page.textContent('#action-why')) ?? '', /need the city hall in the city first/);
  assert.equal(await page.getAttribute('#act-tile', 'title'), 'Needs the city hall in the city first.');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the end of the game shows each player\'s points by source, adding up to his score', async () => {
  for (const locale of ['en-US', 'fr-FR']) {
    const { page, errors, ctx } = await open('bigcity-end', 'spectator', { locale });
    const data = await page.evaluate(() => /** @type {any} */ (window).data);
    await page.waitForSelector('#bc-final-table');
    for (const [seat, score] of data.spectator.scores.entries()) {
      const values = await page.$$eval(`#bc-final-table tbody tr:not(.total) td[data-seat="${seat}"]`, (tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
      assert.equal(values.length, 5);
      assert.equal(values.reduce((a, b) => a + b, 0), score, `seat ${seat}: the sources add up to the score`);
      assert.equal(Number(await page.getAttribute(`#bc-final-table tr.total td[data-seat="${seat}"]`, 'data-value')), score);
    }
    assert.match((await page.textContent('#bc-final')) ?? '', locale === 'fr-FR' ? /Points par source/ : /Points by source/);
    await shot(page, `fixture-board-final-${locale}`);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
  const { page, ctx } = await open('bigcity-mid', 'player');
  assert.equal(await page.isHidden('#bc-final'), true, 'nothing of the kind mid-game');
  await ctx.close();
});

test('on a touch screen: tap a spot to preview the tile, tap the preview to rotate it', async () => {
  const { page, errors, ctx } = await open('bigcity-start', 'player', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const box = await page.locator('svg.city .tile-spot .spot-area').first().boundingBox();
  assert.ok(box);
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForSelector('#ghost-tile.ok');
  const label = await page.textContent('#act-confirm');
  assert.match(label ?? '', /Place neighborhood 2 here/);
  const ghost = await page.locator('#ghost-tile .ghost-asphalt').boundingBox();
  assert.ok(ghost);
  await page.touchscreen.tap(ghost.x + ghost.width / 2, ghost.y + ghost.height / 2);
  await page.click('#act-confirm');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].rotation, 90, 'the second tap turned the tile');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a useless card (under a park or factory) can be discarded from the hand', async () => {
  const { page, errors, ctx } = await open('bigcity-useless', 'player');
  assert.equal(await page.locator('#my-hand [data-card="45"] .useless-tag').count(), 1);
  assert.equal(await page.locator('#my-hand [data-discard]').count(), 1, 'only the useless card offers a discard');
  await page.click('#my-hand [data-discard="45"]');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.deepEqual(sent, [{ type: 'discard_useless', card: 45 }]);
  assert.deepEqual(errors, []);
  await ctx.close();
});
