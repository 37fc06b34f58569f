// The My City board on real views dumped from the rules crate, served as files:
// the card, the blocked card and the deck; placing with R and Enter; what a
// spectator sees; the final scoring category by category and a tiebreak.

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
  await p.page.goto(`${web.url}/test/mycity-fixture.html?f=${fixture}&as=${as}`);
  await p.page.waitForSelector('body[data-ready=yes]');
  await p.page.waitForSelector('.mc');
  return p;
}

test('a player: card, blocked card, deck, own map with the legal spaces, the other cities', async () => {
  const { page, errors, ctx } = await open('mycity-mid', 'player');
  const data = await page.evaluate(() => /** @type {any} */ (window).data);
  assert.equal(await page.getAttribute('#mc-card', 'data-piece'), String(data.view.card.piece));
  assert.equal(await page.getAttribute('#mc-blocked .mc-cardface', 'data-piece'), String(data.view.blocked.piece));
  assert.equal(Number(await page.getAttribute('#mc-deck', 'data-count')), data.view.deck_count);
  assert.equal(await page.locator('#mc-board .building').count(), data.view.players[0].placements.length);
  assert.equal(await page.locator('#mc-others .mc-other').count(), 2);
  assert.equal(await page.locator('.mc-who[data-state="deciding"]').count(), 3);
  // The highlighted spaces are exactly those the legal placements of rotation 0 cover.
  const piece = data.view.pieces.find((/** @type {any} */ p) => p.id === data.view.card.piece);
  const expected = new Set();
  for (const m of data.legal) {
    if (m.type !== 'place' || m.rotation !== 0) continue;
    for (const c of piece.cells) expected.add(`${c.x + m.x},${c.y + m.y}`);
  }
  const shown = await page.$$eval('#mc-board .reach-cell', (els) => els.map((e) => `${e.getAttribute('data-x')},${e.getAttribute('data-y')}`));
  assert.deepEqual(new Set(shown), expected);
  assert.equal(await page.isEnabled('#mc-pass'), data.view.can_pass);
  assert.equal(await page.isEnabled('#mc-build'), false, 'nothing chosen yet');
  await shot(page, 'fixture-mycity-player');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('placing: R turns the building, a click chooses, Enter sends a legal placement', async () => {
  const { page, errors, ctx } = await open('mycity-mid', 'player');
  const data = await page.evaluate(() => /** @type {any} */ (window).data);
  const rotations = new Set(data.legal.filter((/** @type {any} */ m) => m.type === 'place').map((/** @type {any} */ m) => m.rotation));
  if (rotations.has(1)) {
    await page.keyboard.press('r');
    await page.waitForFunction(() => document.querySelectorAll('#mc-board .reach-cell').length > 0);
  }
  const cell = page.locator('#mc-board .reach-cell').first();
  const box = await cell.boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForSelector('#mc-ghost.ok.chosen');
  assert.equal(await page.isEnabled('#mc-build'), true);
  await page.keyboard.press('Enter');
  const sent = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.equal(sent.length, 1);
  assert.ok(
    data.legal.some((/** @type {any} */ m) => m.type === 'place' && m.x === sent[0].x && m.y === sent[0].y && m.rotation === sent[0].rotation),
    `the placement sent is legal: ${JSON.stringify(sent[0])}`,
  );
  assert.equal(sent[0].rotation, rotations.has(1) ? 1 : 0, 'with the rotation shown');
  // Another seat's decision landed first (a new version, mine not in the view):
  // mine was refused as stale and goes again, unchanged.
  await page.evaluate(() => /** @type {any} */ (window).show(/** @type {any} */ (window).data.view, 2));
  const again = await page.evaluate(() => /** @type {any} */ (window).sent);
  assert.equal(again.length, 2);
  assert.deepEqual(again[1], again[0]);
  // Next round: a click on a space no placement covers shows a refused ghost and sends nothing.
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.show({ ...w.data.view, round: w.data.view.round + 1 }, 3);
  });
  const mountain = await page.locator('#mc-board .terrain.mountain rect').first().boundingBox();
  assert.ok(mountain);
  await page.mouse.click(mountain.x + mountain.width / 2, mountain.y + mountain.height / 2);
  await page.waitForSelector('#mc-ghost.bad');
  assert.match((await page.textContent('#mc-prompt')) ?? '', /cannot go there/);
  assert.equal((await page.evaluate(() => /** @type {any} */ (window).sent)).length, 2);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('end participation asks twice; pass sends at once', async () => {
  const { page, errors, ctx } = await open('mycity-mid', 'player');
  await page.click('#mc-end');
  assert.equal((await page.evaluate(() => /** @type {any} */ (window).sent)).length, 0, 'the first tap only arms it');
  await page.waitForSelector('#mc-end.armed');
  await page.click('#mc-end');
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).sent), [{ type: 'end_participation' }]);
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.show({ ...w.data.view, round: w.data.view.round + 1 }, 2);
  });
  await page.click('#mc-pass');
  assert.deepEqual((await page.evaluate(() => /** @type {any} */ (window).sent))[1], { type: 'pass' });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a spectator sees every city and who decides, nothing to play', async () => {
  const { page, errors, ctx } = await open('mycity-mid', 'spectator');
  assert.equal(await page.locator('#mc-board').count(), 0);
  assert.equal(await page.locator('#mc-actions').count(), 0);
  assert.equal(await page.locator('#mc-others .mc-other').count(), 3);
  assert.equal(await page.locator('#mc-scores tbody tr').count(), 12, 'live scores of every city');
  assert.match((await page.textContent('.mc')) ?? '', /decisions stay hidden/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a phone shows the board without horizontal scrolling', async () => {
  const { page, errors, ctx } = await open('mycity-mid', 'player', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${overflow}px too wide`);
  const box = await page.locator('#mc-board .reach-cell').first().boundingBox();
  assert.ok(box && box.width >= 18, 'spaces are big enough to tap');
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForSelector('#mc-ghost.ok.chosen');
  await shot(page, 'fixture-mycity-phone');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('final scoring: every category for every player, winners, no tie', async () => {
  const { page, errors, ctx } = await open('mycity-end', 'spectator');
  const data = await page.evaluate(() => /** @type {any} */ (window).data);
  await page.waitForSelector('#mc-final');
  assert.equal(await page.locator('#mc-card').count(), 0, 'no card once the game is over');
  for (const [seat, score] of data.spectator.final_scores.entries()) {
    const values = await page.$$eval(`#mc-final-table tbody td[data-seat="${seat}"]`, (tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
    assert.deepEqual(values, [score.start, score.passes, score.gold, score.trees, score.rocks, score.empty, score.residential, score.public, score.industrial, score.churches, score.wells, score.total]);
  }
  const winner = data.spectator.winners[0];
  assert.match((await page.textContent(`#mc-final-table thead th[data-seat="${winner}"]`)) ?? '', /★/);
  assert.equal(await page.getAttribute('#mc-tiebreak', 'data-tied'), '1');
  assert.match((await page.textContent('#mc-final')) ?? '', /The last card was played/);
  await shot(page, 'fixture-mycity-final');
  assert.deepEqual(errors, []);
  await ctx.close();
});

/**
 * Shows the final view with Ana and Bruno on equal points and these first rows
 * of empty spaces; Ana wins the tiebreak.
 * @param {import('playwright-core').Page} page
 * @param {number[]} anaRows
 * @param {number[]} brunoRows
 */
async function showTie(page, anaRows, brunoRows) {
  await page.evaluate(
    ([ana, bruno]) => {
      const w = /** @type {any} */ (window);
      const view = structuredClone(w.data.spectator);
      const best = Math.max(...view.final_scores.map((/** @type {any} */ s) => s.total)) + 5;
      for (const seat of [0, 1]) {
        view.final_scores[seat] = { ...view.final_scores[seat], start: view.final_scores[seat].start + best - view.final_scores[seat].total, total: best };
        view.players[seat].score = view.final_scores[seat];
      }
      view.players[0].empty_by_row = [...ana, ...view.players[0].empty_by_row.slice(ana.length)];
      view.players[1].empty_by_row = [...bruno, ...view.players[1].empty_by_row.slice(bruno.length)];
      view.winners = [0];
      w.show(view);
    },
    [anaRows, brunoRows],
  );
}

test('final scoring: a tie is broken row by row (fewer empty spaces on top)', async () => {
  const { page, errors, ctx } = await open('mycity-end', 'spectator');
  // Ana and Bruno on equal points, equal on row 1, Ana fewer on row 2.
  await showTie(page, [3, 2], [3, 4]);
  assert.equal(await page.getAttribute('#mc-tiebreak', 'data-tied'), '2');
  const text = (await page.textContent('#mc-tiebreak')) ?? '';
  assert.match(text, /Tie on \d+ points between Ana and Bruno: fewer empty spaces \(plain, well or gold, −1 each\)/);
  assert.match(text, /Row 1: Ana 3, Bruno 3\./);
  assert.match(text, /Row 2: Ana 2, Bruno 4\./);
  assert.equal(await page.locator('#mc-tiebreak p[data-row]').count(), 2, 'stops at the deciding row');
  await shot(page, 'fixture-mycity-tiebreak');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('final scoring in French: wells need four different buildings, the tie counts empty spaces', async () => {
  const p = await browser.person({ locale: 'fr-FR' });
  await p.ctx.addInitScript(() => localStorage.setItem('citytable.lang', 'fr'));
  await p.page.goto(`${web.url}/test/mycity-fixture.html?f=mycity-end&as=spectator`);
  await p.page.waitForSelector('#mc-final');
  const data = await p.page.evaluate(() => /** @type {any} */ (window).data);
  const table = (await p.page.textContent('#mc-final-table')) ?? '';
  assert.match(table, /Puits \(\+4 : quatre bâtiments différents autour\)/);
  assert.match(table, /Cases vides \(−1 chacune\)/);
  for (const [seat, score] of data.spectator.final_scores.entries()) {
    const values = await p.page.$$eval(`#mc-final-table tbody td[data-seat="${seat}"]`, (tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
    assert.equal(values[10], score.wells, `wells of seat ${seat}`);
    assert.equal(values[11], score.total, `total of seat ${seat}`);
  }
  assert.ok(data.spectator.final_scores.some((/** @type {any} */ s) => s.wells > 0), 'the fixture has a well bonus');
  await showTie(p.page, [2], [3]);
  const tie = (await p.page.textContent('#mc-tiebreak')) ?? '';
  assert.match(tie, /le moins de cases vides \(plaine, puits ou or, −1 chacune\) sur la rangée du haut gagne/);
  assert.match(tie, /Rangée 1 : Ana 2, Bruno 3\./);
  await shot(p.page, 'fixture-mycity-final-fr');
  assert.deepEqual(p.errors, []);
  await p.ctx.close();
});

test('the board speaks French', async () => {
  const p = await browser.person({ locale: 'fr-FR' });
  await p.ctx.addInitScript(() => localStorage.setItem('citytable.lang', 'fr'));
  await p.page.goto(`${web.url}/test/mycity-fixture.html?f=mycity-mid&as=player`);
  await p.page.waitForSelector('.mc');
  const text = (await p.page.textContent('.mc')) ?? '';
  assert.match(text, /Manche \d+/);
  assert.match(text, /Votre ville/);
  assert.match(text, /Passer \(−1 point\)/);
  assert.match(text, /Arrêter de jouer/);
  assert.match(text, /bloquée/);
  assert.deepEqual(p.errors, []);
  await p.ctx.close();
});
