// The Building Cities board on real positions dumped from the rules crate
// (test/fixtures/buildingcities-*.json, with the handbook as the server serves
// it), served as files: the city drawn, the palette, a building's legal spots
// asked for and highlighted with the preview of each, roads block by block, the
// face-down hand for its owner only, the Task Force prompt, the auction, a demand,
// the end, the other mayors' cities, French, and a phone.

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

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * @param {string} fixture
 * @param {{as?: 'player' | 'spectator', seat?: number, lang?: 'fr', options?: object}} [o]
 */
async function open(fixture, o = {}) {
  const p = await browser.person(o.lang === 'fr' ? { locale: 'fr-FR', ...o.options } : o.options);
  if (o.lang === 'fr') await p.ctx.addInitScript(() => localStorage.setItem('citytable.lang', 'fr'));
  const seat = o.seat === undefined ? '' : `&seat=${o.seat}`;
  await p.page.goto(`${web.url}/test/buildingcities-fixture.html?f=buildingcities-${fixture}&as=${o.as ?? 'player'}${seat}`);
  await p.page.waitForSelector('body[data-ready=yes]');
  await p.page.waitForSelector('.bci .bci-city');
  /** @type {any} */
  const data = await p.page.evaluate(() => /** @type {any} */ (window).data);
  return { ...p, data };
}

/** @param {import('playwright-core').Page} page */
const sent = (page) => page.evaluate(() => /** @type {any} */ (window).sent);
/** @param {import('playwright-core').Page} page */
const asked = (page) => page.evaluate(() => /** @type {any} */ (window).asked);
/** @param {{x: number, y: number}} b */
const key = (b) => `${b.x},${b.y}`;

test('solo start: the map, the palette, roads block by block from the junction', async () => {
  const { page, errors, ctx, data } = await open('solo-start');
  const city = data.view.players[0].city;
  assert.equal(await page.locator('#bci-scroll .bci-district').count(), 6);
  assert.equal(await page.locator('#bci-scroll .bci-district.owned').count(), city.districts.length);
  assert.equal(await page.locator('#bci-scroll .bci-sea').count(), 7);
  assert.equal(await page.locator('#bci-scroll .bci-highway .ramp').count(), 1, 'the motorway junction');
  // The districts not owned, greyed with what they would cost: 300 next to D1, more farther.
  assert.equal(await page.getAttribute('#bci-scroll [data-district=D2] .bci-district-price', 'data-price'), '300');
  assert.ok(Number(await page.getAttribute('#bci-scroll [data-district=D6] .bci-district-price', 'data-price')) > 300);
  assert.equal(Number(await page.getAttribute('#bci-bank', 'data-bank')), data.view.players[0].bank);
  assert.equal(Number(await page.getAttribute('#bci-moves', 'data-moves')), data.view.players[0].moves_left);
  assert.deepEqual(await asked(page), ['other'], 'the building phase asks every move but the tiles');
  // Every ground building in the palette, grouped by colour.
  const buildings = await page.$$eval('#bci-palette [data-building]', (els) => els.map((e) => e.getAttribute('data-building')));
  for (const id of ['power_grid', 'water_grid', 'house', 'grocery', 'park', 'factory', 'green_factory', 'police_station', 'elementary_school', 'bus_stop', 'airport', 'building', 'hotel', 'office']) assert.ok(buildings.includes(id), id);
  assert.ok(await page.locator('#bci-palette .bci-family[data-family=blue]').isVisible());
  // The road tool highlights exactly the legal road blocks; a click sends one.
  await page.click('#bci-tool-road');
  const roads = data.legal.filter((/** @type {any} */ m) => m.type === 'road').map((/** @type {any} */ m) => key(m.block));
  assert.deepEqual(await page.$$eval('#bci-scroll .bci-road-spot', (els) => els.map((e) => e.getAttribute('data-block'))), roads);
  assert.deepEqual(roads, ['3,0'], 'the first road block is the junction');
  await shot(page, 'buildingcities-start');
  await page.click('#bci-scroll .bci-road-spot[data-block="3,0"]');
  assert.deepEqual(await sent(page), [{ type: 'road', block: { x: 3, y: 0 } }]);
  // One move per version: nothing more to click until the next view.
  assert.equal(await page.locator('#bci-end-turn').count(), 0);
  assert.equal(await page.locator('#bci-scroll .bci-road-spot').count(), 0);
  assert.equal(await page.textContent('#bci-note'), 'Sent…');
  // The road stays in hand: the next view asks its part again and shows the blocks.
  assert.equal(await page.getAttribute('#bci-tool', 'data-tool'), 'road');
  await page.evaluate(() => /** @type {any} */ (window).show(/** @type {any} */ (window).data.view));
  await page.waitForSelector('#bci-scroll .bci-road-spot');
  assert.deepEqual(await asked(page), ['other', 'other']);
  // A refused move leaves the decision open: the blocks come back, not "Sent…".
  await page.click('#bci-scroll .bci-road-spot[data-block="3,0"]');
  assert.equal(await page.textContent('#bci-note'), 'Sent…');
  await page.evaluate(() => /** @type {any} */ (window).refuse());
  await page.waitForSelector('#bci-scroll .bci-road-spot[data-block="3,0"]');
  assert.notEqual(await page.textContent('#bci-note'), 'Sent…');
  assert.equal(await page.getAttribute('.bci', 'data-sent'), 'no');
  await ctx.close();
});

test('mid-game: tiles drawn, a building in hand asks its spots; every spot highlighted, previewed, then built', async () => {
  const { page, errors, ctx, data } = await open('solo-mid');
  const me = data.view.players[0];
  assert.equal(await page.locator('#bci-scroll .bci-tile').count(), me.city.tiles.length);
  assert.equal(await page.locator('#bci-scroll .bci-road').count(), me.city.roads.length);
  assert.equal(await page.locator('#bci-scroll .bci-protected').count(), me.city.protected.length);
  for (const t of me.city.tiles.slice(0, 5)) {
    const id = t.kind === 'building' ? t.building : t.kind;
    assert.equal(await page.getAttribute(`#bci-scroll [data-tile="${t.id}"]`, 'data-building'), id);
  }
  const trucks = me.city.trucks.filter((/** @type {string} */ d) => d === 'D1').length;
  if (trucks) assert.equal(Number(await page.getAttribute('#bci-scroll .bci-badges[data-district=D1] .bci-trucks', 'data-trucks')), trucks);
  // A building with spots in both rotations.
  const tiles = data.legal.filter((/** @type {any} */ m) => m.type === 'tile');
  const both = tiles.find((/** @type {any} */ m) => m.rotation === 'R90' && tiles.some((/** @type {any} */ o) => o.building === m.building && o.rotation === 'R0'));
  assert.ok(both, 'the fixture has a building with spots in both rotations');
  const id = both.building;
  await page.click(`#bci-palette [data-building="${id}"]`);
  await page.waitForSelector('#bci-scroll .bci-spot');
  assert.deepEqual(await asked(page), ['other', id], 'only that building’s spots are asked for');
  const spotsOf = (/** @type {string} */ r) => tiles.filter((/** @type {any} */ m) => m.building === id && m.rotation === r).map((/** @type {any} */ m) => key(m.origin)).sort();
  const shown = async () => (await page.$$eval('#bci-scroll .bci-spot', (els) => els.map((e) => e.getAttribute('data-origin')))).sort();
  assert.deepEqual(await shown(), spotsOf('R0'));
  await page.click('#bci-rotate');
  assert.deepEqual(await shown(), spotsOf('R90'));
  await page.keyboard.press('r');
  assert.deepEqual(await shown(), spotsOf('R0'), 'R rotates too');
  // Pointing at a spot previews it: the building on the map, its Maya, moves and value.
  const target = tiles.find((/** @type {any} */ m) => m.building === id && m.rotation === 'R0');
  const spot = `#bci-scroll .bci-spot[data-origin="${key(target.origin)}"]`;
  await page.hover(spot);
  await page.waitForSelector('#bci-ghost');
  assert.equal(await page.getAttribute('#bci-ghost', 'data-origin'), key(target.origin));
  const cost = Number(await page.getAttribute('#bci-preview', 'data-cost'));
  const moves = Number(await page.getAttribute('#bci-preview', 'data-moves'));
  if (target.preview) {
    assert.deepEqual({ cost, moves, value: Number(await page.getAttribute('#bci-preview', 'data-value')) }, target.preview, 'the preview is the one the rules list');
    assert.equal(await page.getAttribute('#bci-preview', 'data-source'), 'server');
  } else {
    assert.ok(cost > 0 && moves > 0);
  }
  assert.equal(await page.locator('#bci-confirm').count(), 0, 'pointing does not build');
  await shot(page, 'buildingcities-mid');
  await page.click(spot);
  await page.waitForSelector('#bci-confirm');
  await shot(page, 'buildingcities-preview');
  // The other moves: purchases, tokens, upgrades, end of turn, from the `other` part.
  const upgrades = data.legal.filter((/** @type {any} */ m) => m.type === 'upgrade').length;
  assert.equal(await page.locator('#bci-actions [data-action=upgrade]').count(), upgrades);
  assert.equal(await page.isDisabled('#bci-end-turn'), !data.legal.some((/** @type {any} */ m) => m.type === 'end_turn'));
  await page.click('#bci-confirm');
  assert.deepEqual(await sent(page), [{ type: 'tile', building: id, rotation: 'R0', origin: target.origin }]);
  assert.equal(await page.locator('#bci-palette').count(), 0, 'nothing more until the move is answered');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the palette: what may be built now, why the rest may not, and their numbers', async () => {
  const { page, errors, ctx, data } = await open('solo-mid');
  const item = page.locator('#bci-palette [data-building="stadium"]');
  assert.match((await item.textContent()) ?? '', /1,000 Maya · 10 moves · \+160/);
  // Buildable exactly when the rules list a spot for it (the seat's private palette).
  const listed = [...new Set(data.legal.filter((/** @type {any} */ m) => m.type === 'tile').map((/** @type {any} */ m) => m.building))].sort();
  const can = await page.$$eval('#bci-palette [data-can=yes]', (els) => els.map((e) => e.getAttribute('data-building')));
  assert.deepEqual(can.sort(), listed);
  const cannot = await page.$$eval('#bci-palette [data-can=no]', (els) => els.map((e) => [e.getAttribute('data-building'), e.querySelector('.why')?.textContent ?? '']));
  assert.ok(cannot.length > 10, 'most buildings wait for something');
  for (const [id, why] of cannot) assert.ok(why.length > 0 && !/bci\.|_/.test(why), `${id} says why: ${why}`);
  assert.equal(await page.locator('#bci-palette [data-can=""]').count(), 0, 'the palette names every building');
  // A building that cannot be built says so to assistive technology and is
  // not taken in hand, even when pressed.
  assert.equal(await page.getAttribute(`#bci-palette [data-building="${cannot[0][0]}"]`, 'aria-disabled'), 'true');
  await page.click(`#bci-palette [data-building="${cannot[0][0]}"]`, { force: true });
  assert.equal(await page.locator('#bci-tool').count(), 0);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('Despicable: the hand face up for its owner, counts only for the others and spectators; "play on…"', async () => {
  const owner = await open('despicable-hand');
  const hand = owner.data.views[0].hand;
  assert.ok(hand.length >= 2);
  assert.equal(await owner.page.getAttribute('#bci-decision', 'data-kind'), 'play_challenge');
  assert.deepEqual(await owner.page.$$eval('#bci-hand li', (els) => els.map((e) => e.getAttribute('data-card'))), hand);
  const play = owner.data.legal.find((/** @type {any} */ m) => m.type === 'play_challenge');
  assert.equal(await owner.page.isDisabled('#bci-play'), true, 'a card and a mayor first');
  await owner.page.click(`[data-play="${play.card}"]`);
  await owner.page.click(`#bci-targets [data-target="${play.target}"]`);
  await shot(owner.page, 'buildingcities-hand');
  await owner.page.click('#bci-play');
  assert.deepEqual(await sent(owner.page), [play]);
  assert.deepEqual(owner.errors, []);
  await owner.ctx.close();

  const names = await (async () => {
    const p = await open('despicable-hand');
    const n = await p.page.$$eval('#bci-hand li strong', (els) => els.map((e) => e.textContent ?? ''));
    await p.ctx.close();
    return n;
  })();
  for (const as of /** @type {const} */ ([{ as: 'player', seat: 1 }, { as: 'spectator' }])) {
    const other = await open('despicable-hand', as);
    assert.equal(await other.page.locator('#bci-hand').count(), 0);
    assert.equal(await other.page.locator('#bci-play').count(), 0);
    const counts = await other.page.$$eval('#bci-players li', (els) => els.map((e) => Number(e.getAttribute('data-hand'))));
    assert.deepEqual(counts, other.data.view.players.map((/** @type {any} */ p) => p.hand));
    assert.match((await other.page.textContent('#bci-players li[data-seat="0"]')) ?? '', new RegExp(`${hand.length} challenges face down`));
    const text = (await other.page.textContent('.bci')) ?? '';
    const visible = [other.data.view.last_event, other.data.view.last_challenge];
    for (const [i, name] of names.entries()) if (!visible.includes(hand[i])) assert.ok(!text.includes(name), `${as.as}: no face of seat 0's hand (${name})`);
    assert.match((await other.page.textContent('#bci-decision')) ?? '', /Ana may play one of 2 face-down challenges/);
    if (as.as === 'spectator') await shot(other.page, 'buildingcities-spectator');
    assert.deepEqual(other.errors, []);
    await other.ctx.close();
  }
});

test('Task Force prompt: the played card face up, the countdown, the two answers', async () => {
  const { page, errors, ctx, data } = await open('taskforce');
  const phase = data.view.phase;
  assert.equal(await page.getAttribute('#bci-decision', 'data-kind'), 'task_force_prompt');
  assert.equal(await page.getAttribute('#bci-decision [data-card]', 'data-card'), phase.card);
  await page.waitForFunction(() => Number(document.querySelector('#bci-countdown')?.getAttribute('data-seconds')) > 0);
  const secs = Number(await page.getAttribute('#bci-countdown', 'data-seconds'));
  assert.ok(secs > 0 && secs <= data.window_ms / 1000, `countdown ${secs} s`);
  await shot(page, 'buildingcities-taskforce');
  await page.click('#bci-use-task-force');
  assert.deepEqual(await sent(page), [{ type: 'use_task_force' }]);
  assert.deepEqual(errors, []);
  await ctx.close();
  // The player who played it sees who may answer, and no buttons.
  const by = await open('taskforce', { seat: phase.by });
  assert.equal(await by.page.locator('#bci-use-task-force').count(), 0);
  assert.match((await by.page.textContent('#bci-decision')) ?? '', /Task Force/);
  await by.ctx.close();
});

test('auction: the high bid live, a bid of at least the minimum, pass', async () => {
  const { page, errors, ctx, data } = await open('auction');
  const phase = data.view.phase;
  const min = data.legal.find((/** @type {any} */ m) => m.type === 'bid').amount;
  assert.equal(Number(await page.getAttribute('#bci-high-bid', 'data-amount')), phase.high_bid);
  assert.equal(Number(await page.getAttribute('#bci-bid-amount', 'min')), min);
  assert.equal(Number(await page.inputValue('#bci-bid-amount')), min);
  await page.fill('#bci-bid-amount', String(min + 150));
  await page.dispatchEvent('#bci-bid-amount', 'input');
  await shot(page, 'buildingcities-auction');
  await page.click('#bci-bid');
  assert.deepEqual(await sent(page), [{ type: 'bid', amount: min + 150 }]);
  // A new high bid arrives: the page shows it.
  await page.evaluate((/** @type {any} */ d) => {
    const view = structuredClone(d.view);
    view.phase.high_bid = 900;
    view.phase.high_bidder = 2;
    /** @type {any} */ (window).show(view);
  }, data);
  assert.match((await page.textContent('#bci-high-bid')) ?? '', /900 Maya by Chloé/);
  await page.click('#bci-pass');
  assert.deepEqual((await sent(page))[1], { type: 'pass_auction' });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a demand: accept it as a priority or refuse it for its price', async () => {
  const { page, errors, ctx, data } = await open('demand');
  assert.equal(await page.getAttribute('#bci-decision', 'data-kind'), 'demand');
  assert.match((await page.textContent('#bci-refuse-demand')) ?? '', new RegExp(`${data.view.phase.refused.toLocaleString('en-US')} Maya`));
  await page.click('#bci-accept-demand');
  assert.deepEqual(await sent(page), [{ type: 'accept_demand' }]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the other decisions: forced purchase, trade partner, the building a challenge removes', async () => {
  const { page, errors, ctx, data } = await open('despicable-hand');
  /**
   * Shows seat 0's view in another phase, with these legal moves.
   * @param {any} phase
   * @param {any[]} legal
   */
  const decide = (phase, legal) =>
    page.evaluate(
      ([phase, legal]) => {
        const w = /** @type {any} */ (window);
        w.data.legal = legal;
        w.show({ ...w.data.view, phase }, undefined, [0]);
      },
      [phase, legal],
    );
  const buys = [{ type: 'buy_district', district: 'D3' }, { type: 'buy_district', district: 'D5' }];
  await decide({ kind: 'forced_purchase', seat: 0 }, buys);
  await page.waitForSelector('#bci-decision[data-kind=forced_purchase] [data-action=buy_district]');
  assert.deepEqual(await page.$$eval('#bci-decision [data-action=buy_district]', (els) => els.map((e) => e.getAttribute('data-district'))), ['D3', 'D5']);
  await page.click('#bci-decision [data-district=D5]');
  assert.deepEqual((await sent(page)).at(-1), buys[1]);

  await decide({ kind: 'trade_partner', seat: 0, partners: [1, 2] }, [{ type: 'trade_partner', seat: 1 }, { type: 'trade_partner', seat: 2 }]);
  await page.waitForSelector('#bci-decision[data-kind=trade_partner] button[data-partner]');
  assert.match((await page.textContent('#bci-decision [data-partner="2"]')) ?? '', /Chloé/);
  await page.click('#bci-decision [data-partner="2"]');
  assert.deepEqual((await sent(page)).at(-1), { type: 'trade_partner', seat: 2 });

  const tiles = data.view.players[1].city.tiles.slice(0, 3).map((/** @type {any} */ t) => t.id);
  await decide({ kind: 'choose_destroyed', seat: 0, target: 1, tiles }, tiles.map((/** @type {number} */ tile) => ({ type: 'destroy_building', tile })));
  await page.waitForSelector('#bci-scroll .bci-tile.destroyable');
  assert.equal(await page.getAttribute('#bci-scroll .bci-city', 'data-seat'), '1', "the target's city is shown");
  assert.deepEqual((await page.$$eval('#bci-scroll .bci-tile.destroyable', (els) => els.map((e) => Number(e.getAttribute('data-tile'))))).sort(), [...tiles].sort());
  await page.click(`#bci-scroll .bci-tile[data-tile="${tiles[1]}"]`);
  assert.deepEqual((await sent(page)).at(-1), { type: 'destroy_building', tile: tiles[1] });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the end: who completed the objective, the banks, every city; the other mayors open full size', async () => {
  const { page, errors, ctx, data } = await open('end');
  const view = data.view;
  assert.equal(await page.getAttribute('#bci-winners', 'data-winners'), view.winners.join(','));
  assert.match((await page.textContent('#bci-winners')) ?? '', /Winner: Ana/);
  assert.match((await page.textContent('#bci-completed')) ?? '', /Completed the objective: Ana/);
  assert.equal(await page.locator('.bci-final-cities li .bci-city').count(), view.players.length);
  const banks = await page.$$eval('.bci-final-cities li', (els) => els.map((e) => [Number(e.getAttribute('data-seat')), Number(e.getAttribute('data-bank'))]));
  for (const [seat, bank] of banks) assert.equal(bank, view.players[seat].bank);
  await shot(page, 'buildingcities-end');
  // Another mayor's city, full size from its thumbnail.
  await page.click('#bci-players [data-thumb="1"]');
  assert.equal(await page.getAttribute('#bci-scroll .bci-city', 'data-seat'), '1');
  assert.equal(await page.locator('#bci-scroll .bci-tile').count(), view.players[1].city.tiles.length);
  await page.click('#bci-back');
  assert.equal(await page.getAttribute('#bci-scroll .bci-city', 'data-seat'), '0');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('French: names and card texts from the handbook, the board’s words', async () => {
  const { page, errors, ctx, data } = await open('solo-mid', { lang: 'fr' });
  assert.match((await page.textContent('#bci-palette [data-building="house"]')) ?? '', /Maisons/);
  assert.match((await page.textContent('#bci-status')) ?? '', /Banque/);
  assert.match((await page.textContent('#bci-objective')) ?? '', /Quartier d'affaires/);
  assert.match((await page.textContent('#bci-track')) ?? '', new RegExp(`Tour ${data.view.round}`));
  await shot(page, 'buildingcities-fr');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a phone, 390 px: no sideways page; the map zooms inside its own scroller; a tap previews, "build here" builds', async () => {
  const { page, errors, ctx, data } = await open('solo-mid', { options: PHONE });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(await overflow(), 0);
  const tile = data.legal.find((/** @type {any} */ m) => m.type === 'tile');
  await page.tap(`#bci-palette [data-building="${tile.building}"]`);
  await page.waitForSelector('#bci-scroll .bci-spot');
  // Taking a building zooms the map in: a spot is big enough for a finger.
  const box = await page.locator('#bci-scroll .bci-spot').first().boundingBox();
  assert.ok(box && box.width >= 24 && box.height >= 24, `a spot a finger can touch: ${JSON.stringify(box)}`);
  await page.tap('#bci-zoom button >> nth=1');
  assert.equal(await overflow(), 0, 'zooming keeps the page in its width');
  const scroller = await page.$eval('#bci-scroll', (el) => [el.scrollWidth, el.clientWidth]);
  assert.ok(scroller[0] > scroller[1] * 1.5, `the map scrolls in its box: ${scroller}`);
  if (tile.rotation === 'R90') await page.tap('#bci-rotate');
  const spot = `#bci-scroll .bci-spot[data-origin="${key(tile.origin)}"]`;
  await page.locator(spot).scrollIntoViewIfNeeded();
  await page.tap(spot);
  await page.waitForSelector('#bci-confirm');
  assert.equal(await page.getAttribute('#bci-ghost', 'data-origin'), key(tile.origin));
  await shot(page, 'buildingcities-phone', false);
  await page.tap('#bci-confirm');
  assert.deepEqual(await sent(page), [{ type: 'tile', building: tile.building, rotation: tile.rotation, origin: tile.origin }]);
  assert.equal(await overflow(), 0);
  assert.deepEqual(errors, []);
  await ctx.close();
});
