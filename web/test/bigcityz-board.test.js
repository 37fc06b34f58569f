// The Big Cityz board on real views dumped from the rules crate, served as files:
// the ring with exactly the legal squares clickable, replacing a board, the
// objection window for each kind of viewer, a judgment's facts in English and
// French, "no free square", the end, and a phone without horizontal scrolling.

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
 * @param {{as?: 'player' | 'spectator', seat?: number, lang?: 'fr', options?: object}} [o]
 */
async function open(fixture, o = {}) {
  const p = await browser.person(o.lang === 'fr' ? { locale: 'fr-FR', ...o.options } : o.options);
  if (o.lang === 'fr') await p.ctx.addInitScript(() => localStorage.setItem('citytable.lang', 'fr'));
  const seat = o.seat === undefined ? '' : `&seat=${o.seat}`;
  await p.page.goto(`${web.url}/test/bigcityz-fixture.html?f=${fixture}&as=${o.as ?? 'player'}${seat}`);
  await p.page.waitForSelector('body[data-ready=yes]');
  await p.page.waitForSelector('.bcz #bcz-ring');
  /** @type {any} */
  const data = await p.page.evaluate(() => /** @type {any} */ (window).data);
  return { ...p, data };
}

/**
 * A legal move's square as the page names it.
 * @param {any} sq
 */
const key = (sq) => (sq.type === 'board' ? `b${sq.board}-${sq.slot}` : `r${sq.pair}-${sq.color}`);

/** @param {import('playwright-core').Page} page */
const sent = (page) => page.evaluate(() => /** @type {any} */ (window).sent);

test('placing: the clickable squares are exactly the legal ones; a click sends that square', async () => {
  const { page, errors, ctx, data } = await open('bigcityz-placing');
  const view = data.view;
  const legal = data.legal.filter((/** @type {any} */ m) => m.type === 'place').map((/** @type {any} */ m) => key(m.square));
  const shown = await page.$$eval('#bcz-ring .bcz-sq.legal', (els) => els.map((e) => e.getAttribute('data-square')));
  assert.deepEqual(new Set(shown), new Set(legal));
  assert.equal(await page.locator('#bcz-ring button.bcz-sq').count(), legal.length, 'only legal squares are buttons');
  assert.equal(await page.locator('#bcz-ring .bcz-sq').count(), 24, 'four boards of four squares and eight risk fields');
  // Taken squares show their city; the card in play shows its name and country large.
  const taken = view.boards.flatMap((/** @type {any} */ b) => b.squares).concat(view.risks.flatMap((/** @type {any} */ r) => [r.green, r.red])).filter(Boolean);
  assert.equal(await page.locator('#bcz-ring .bcz-sq.taken').count(), taken.length);
  assert.equal(await page.textContent('#bcz-card .name'), view.current.name_en);
  assert.equal(Number(await page.getAttribute('#bcz-deck', 'data-count')), view.deck_count);
  // Scores on the track to 36 and vetoes left, per player.
  for (const [seat, score] of view.scores.entries()) {
    const row = page.locator(`#bcz-players li[data-seat="${seat}"]`);
    assert.equal(Number(await row.getAttribute('data-score')), score);
    assert.equal(Number(await row.getAttribute('data-vetoes')), view.vetoes_left[seat]);
  }
  // Green and red, 4 and 2: the wager is in the square's title.
  const first = data.legal.find((/** @type {any} */ m) => m.type === 'place' && m.square.type === 'board');
  const title = (await page.getAttribute(`[data-square="${key(first.square)}"]`, 'title')) ?? '';
  assert.match(title, new RegExp(`^(Green|Red) ${first.square.slot.endsWith('4') ? '\\+4' : '\\+2'}: ${view.current.name_en}`));
  await shot(page, 'fixture-bigcityz-placing');
  await page.click(`[data-square="${key(first.square)}"]`);
  assert.deepEqual(await sent(page), [{ type: 'place', square: first.square }]);
  // One move per version: a second click waits for the answer.
  assert.equal(await page.locator('#bcz-ring .bcz-sq.legal').count(), 0);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('replacing a board is a button on each board that may be replaced', async () => {
  const { page, errors, ctx, data } = await open('bigcityz-placing');
  const boards = data.legal.filter((/** @type {any} */ m) => m.type === 'replace').map((/** @type {any} */ m) => String(m.board));
  assert.ok(boards.length > 0, 'the fixture has a replaceable board');
  assert.deepEqual(await page.$$eval('.bcz-replace', (els) => els.map((e) => e.getAttribute('data-replace'))), boards);
  assert.equal(await page.locator('#bcz-no-free').count(), 0, '"no free square" only when legal');
  await page.click(`.bcz-replace[data-replace="${boards[0]}"]`);
  assert.deepEqual(await sent(page), [{ type: 'replace', board: Number(boards[0]) }]);
  // "No free square" when it is legal.
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.data.legal = [{ type: 'no_free_square' }];
    w.show(w.data.view, 2);
  });
  await page.click('#bcz-no-free');
  assert.deepEqual((await sent(page))[1], { type: 'no_free_square' });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('objections: an awaited other player gets the buttons with the countdown; objectors are shown', async () => {
  const { page, errors, ctx, data } = await open('bigcityz-objections');
  const phase = data.view.phase;
  assert.ok(phase.waiting.includes(0) && phase.seat !== 0);
  await page.waitForSelector('#bcz-object');
  assert.match((await page.textContent('#bcz-object')) ?? '', new RegExp(`Objection!.*${data.view.vetoes_left[0]} vetoes left`));
  assert.ok(await page.isVisible('#bcz-decline'));
  assert.match((await page.textContent('#bcz-decline')) ?? '', /Let it stand/);
  const secs = Number(await page.getAttribute('#bcz-countdown', 'data-seconds'));
  assert.ok(secs > 0 && secs <= phase.window_ms / 1000, `countdown ${secs} s`);
  const objectors = await page.$$eval('#bcz-objectors li[data-seat]', (els) => els.map((e) => Number(e.getAttribute('data-seat'))));
  assert.deepEqual(objectors, phase.objectors);
  assert.match((await page.textContent('#bcz-objectors')) ?? '', /Objection by Dev!/);
  assert.equal(await page.locator(`[data-square="${key(phase.square)}"].pending`).count(), 1, 'the card lies on its square');
  await shot(page, 'fixture-bigcityz-objections');
  await page.click('#bcz-object');
  assert.deepEqual(await sent(page), [{ type: 'object' }]);
  await page.waitForSelector('#bcz-object', { state: 'detached' });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('objections: not for the placer, nor a spectator, nor someone not awaited', async () => {
  const base = await open('bigcityz-objections');
  const phase = base.data.view.phase;
  await base.ctx.close();
  const viewers = [
    { as: /** @type {const} */ ('player'), seat: phase.seat, note: /may object to your card/ },
    { as: /** @type {const} */ ('player'), seat: phase.objectors[0], note: /You have decided/ },
    { as: /** @type {const} */ ('spectator'), seat: undefined, note: null },
  ];
  for (const v of viewers) {
    const { page, errors, ctx } = await open('bigcityz-objections', v);
    await page.waitForSelector('#bcz-objections');
    assert.equal(await page.locator('#bcz-object, #bcz-decline').count(), 0, `no buttons for ${v.as} ${v.seat}`);
    if (v.note) assert.match((await page.textContent('#bcz-obj-note')) ?? '', v.note);
    assert.match((await page.textContent('#bcz-objectors')) ?? '', /Objection by/);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('a judgment turns the card over: the facts with their numbers, sources and points', async () => {
  const { page, errors, ctx, data } = await open('bigcityz-judged', { as: 'spectator' });
  const j = data.spectator.last_judgment;
  assert.equal(j.facts.length, 2, 'a risk field is judged on both statements');
  const facts = await page.$$eval('#bcz-facts li', (els) => els.map((e) => e.textContent ?? ''));
  assert.equal(facts.length, 2);
  assert.match(facts.join('\n'), /Baku: in Asia — lies in Europe or Asia: yes/);
  assert.match(facts.join('\n'), /Baku: 2\.3 million inhabitants \(2023\) — has 1,000,000 or more inhabitants: yes/);
  assert.match(facts.join('\n'), /Source: State Statistical Committee of Azerbaijan/);
  const verdict = (await page.textContent('#bcz-judgment .verdict')) ?? '';
  assert.match(verdict, /Dev was right with Baku\. On the green risk field between boards 1 and 2\./);
  const changes = await page.$$eval('#bcz-changes li', (els) => els.map((e) => e.textContent));
  assert.deepEqual(changes, ['Dev +8 → 16', 'Chloé −3 → 13']);
  // A new judgment turns the card over.
  assert.equal(await page.locator('#bcz-judgment.turning').count(), 0, 'not on first sight');
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const view = structuredClone(w.data.spectator);
    view.last_judgment.changes[0].score += 8;
    w.show(view, 2);
  });
  await page.waitForSelector('#bcz-judgment.turning');
  await shot(page, 'fixture-bigcityz-judged');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('"no free square": every fact listed, and the squares that would have been right', async () => {
  const { page, errors, ctx, data } = await open('bigcityz-nofree', { as: 'spectator' });
  const j = data.spectator.last_judgment;
  assert.equal(j.square, null);
  assert.equal(await page.locator('#bcz-facts li').count(), j.facts.length);
  assert.match((await page.textContent('#bcz-judgment .verdict')) ?? '', /“No free square” declared/);
  assert.match((await page.textContent('#bcz-facts')) ?? '', /Zakopane: founded in 1605 — was founded before 1700: yes/);
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const view = structuredClone(w.data.spectator);
    view.last_judgment.right = false;
    view.last_judgment.right_squares = [{ type: 'board', board: 2, slot: 'red4' }, { type: 'risk', pair: 3, color: 'green' }];
    w.show(view, 2);
  });
  assert.match(
    (await page.textContent('#bcz-right-squares')) ?? '',
    /Squares that would have been right: board 3, red 4; the green risk field between boards 4 and 1\./,
  );
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the end: the reason, the winner and every score', async () => {
  const { page, errors, ctx, data } = await open('bigcityz-end', { as: 'spectator' });
  const view = data.spectator;
  await page.waitForSelector('#bcz-final');
  assert.equal(view.winners.length, 1);
  const winner = ['Ana', 'Bruno', 'Chloé', 'Dev'][view.winners[0]];
  assert.equal(await page.textContent('#bcz-winner'), `★ ${winner} won with ${view.scores[view.winners[0]]} points.`);
  assert.match((await page.textContent('#bcz-final')) ?? '', /Someone reached 36/);
  assert.equal(await page.locator('#bcz-final li').count(), 4);
  assert.equal(await page.locator('#bcz-card').count(), 0, 'no card once the game is over');
  await shot(page, 'fixture-bigcityz-end');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('in French: statements, facts with French numbers, French city names', async () => {
  const { page, errors, ctx, data } = await open('bigcityz-judged', { lang: 'fr' });
  const text = (await page.textContent('.bcz')) ?? '';
  assert.match(text, /Panneau 1/);
  assert.match(text, /La ville…/);
  assert.match(text, /compte 1 000 000 d’habitants ou plus/);
  const facts = (await page.textContent('#bcz-facts')) ?? '';
  assert.match(facts, /Bakou : 2,3 millions d’habitants \(2023\) — compte 1 000 000 d’habitants ou plus : oui/);
  assert.match(facts, /Bakou : en Asie — est en Europe ou en Asie : oui/);
  assert.match((await page.textContent('#bcz-judgment .verdict')) ?? '', /Dev avait raison avec Bakou/);
  const current = data.view.current;
  assert.equal(await page.textContent('#bcz-card .name'), current.name_fr);
  await shot(page, 'fixture-bigcityz-fr');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a phone shows the ring without horizontal scrolling, squares big enough to tap', async () => {
  for (const f of ['bigcityz-placing', 'bigcityz-objections', 'bigcityz-nofree']) {
    const { page, errors, ctx } = await open(f, { options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${f}: ${overflow}px too wide`);
    const box = await page.locator('#bcz-ring .bcz-sq').first().boundingBox();
    assert.ok(box && box.width >= 40 && box.height >= 40, `${f}: squares are big enough to tap`);
    const spilling = await page.$$eval('.bcz-sq, .bcz-card .face', (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    assert.deepEqual(spilling, [], `${f}: every city name fits its square`);
    if (f === 'bigcityz-placing') {
      await page.locator('#bcz-ring .bcz-sq.legal').first().tap();
      assert.equal((await sent(page)).length, 1);
    }
    await shot(page, `fixture-${f}-phone`);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});
