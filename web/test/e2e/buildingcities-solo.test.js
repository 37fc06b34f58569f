// Building Cities alone against the events, through the real server: a new
// player picks the game on the home page, hosts a solo table with the tutorial
// objective ("1,000 Maya in 14 turns") and plays it in the browser: the grids,
// then buildings from the palette on the highlighted spots (the best preview of
// a few), road blocks from the junction when the buildings need room, the end
// of each turn, until the game is over. Halfway he leaves the table, the
// server restarts while he is away, he comes back and reloads it, and goes on
// with the same game. The end says why it
// ended and shows the bank.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shot } from '../harness.js';
import { giveName, waitPlaying } from './helpers.js';
import { boardState, waitActions, paletteItems, takeBuilding, previewSpots, buildAt, layRoad, endTurn, dropTool, answerDecision, spendAnyhow } from './buildingcities-play.js';

/** @typedef {import('playwright-core').Page} Page */

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The tutorial's limit (objectives.json: `obj_tutorial`, 1,000 Maya in 14 turns). */
const TURN_LIMIT = 14;
const GOAL = 1000;
/** What the player builds: the grids first (B3), then what pays back best. */
const WISHES = ['power_grid', 'water_grid', 'factory', 'grocery', 'clothing_store', 'gym', 'house', 'taxi_rank', 'bus_stop', 'tennis_court', 'police_station', 'elementary_school', 'post_office'];

/**
 * One building phase: the grids of each owned district first (B3), then,
 * while he can pay one of the buildings he wishes for, the best of a few
 * previewed spots of it (when it adds district value); a road block when what
 * he could pay has no spot; then the end of the turn, or (B7: he must spend
 * more) whatever he can still build.
 * @param {Page} page
 */
async function playTurn(page) {
  await waitActions(page);
  /** Buildings without a spot worth it this turn (until a road opens new ones). */
  const passed = new Set();
  let roads = 0;
  for (let step = 0; step < 40; step++) {
    const s = await boardState(page);
    if (!s.mine || s.phase !== 'building' || s.bank === null || s.moves === null) return;
    const { bank, moves } = /** @type {{bank: number, moves: number}} */ (s);
    const items = await paletteItems(page);
    const built = await page.$$eval('#bci-scroll .bci-tile', (els) => els.map((e) => e.getAttribute('data-building')));
    const districts = await page.locator('#bci-scroll .bci-district.owned').count();
    const count = (/** @type {string} */ id) => built.filter((b) => b === id).length;
    const gridsFirst = count('power_grid') < districts || count('water_grid') < districts;
    // Before the first district's grids nothing else has a spot.
    const wishes = WISHES.filter((id) => (id.endsWith('_grid') ? count(id) < districts : !gridsFirst || districts > 1));
    const affordable = wishes.map((id) => items.find((i) => i.id === id)).filter((i) => i !== undefined && i.cost <= bank && i.moves <= moves);
    // The palette says which have no spot now: a road may open some.
    for (const i of affordable) if (i.why === 'no_spot') passed.add(i.id);
    const wish = affordable.find((i) => !passed.has(i.id) && i.can !== 'no');
    if (wish) {
      if (await takeBuilding(page, wish.id)) {
        const seen = await previewSpots(page, 3);
        const best = seen.reduce((a, b) => (b.value > a.value ? b : a));
        if (best.value > 0 || wish.id.endsWith('_grid')) {
          await buildAt(page, best);
          continue;
        }
      }
      passed.add(wish.id);
      continue;
    }
    await dropTool(page);
    if (passed.size && roads < 2 && bank >= 10 && moves > 0 && (await layRoad(page))) {
      await dropTool(page);
      roads += 1;
      passed.clear();
      continue;
    }
    if (await endTurn(page)) return;
    if (!(await spendAnyhow(page, items, bank, moves, passed))) throw new Error(`round ${s.round}: the turn may not end and nothing can be built`);
  }
}

/**
 * What the page shows of the game: the city's tiles and roads, the round and the bank.
 * @param {Page} page
 */
async function snapshot(page) {
  return {
    tiles: await page.$$eval('#bci-scroll .bci-tile', (els) => els.map((e) => `${e.getAttribute('data-tile')}:${e.getAttribute('data-building')}`)),
    roads: await page.$$eval('#bci-scroll .bci-road', (els) => els.map((e) => e.getAttribute('data-block'))),
    round: (await boardState(page)).round,
    bank: (await boardState(page)).bank,
  };
}

test('a new player plays the tutorial objective alone to its end, leaving and coming back', { timeout: 150_000 }, async () => {
  const started = Date.now();
  const ana = await browser.person();
  const { page } = ana;
  await page.goto(server.url);
  await giveName(page, 'Ana');
  await page.waitForSelector('#game-select option[value="building-cities"]', { state: 'attached' });
  await page.selectOption('#game-select', 'building-cities');
  await page.waitForSelector('[data-option="objective"] option[value="obj_tutorial"]', { state: 'attached' });
  assert.equal(await page.inputValue('[data-option="mode"]'), 'solo', 'Player vs Events is the default');
  assert.deepEqual(await page.$$eval('#seats-select option', (els) => els.map((e) => e.getAttribute('value'))), ['1'], 'a solo table has one seat');
  await page.selectOption('[data-option="objective"]', 'obj_tutorial');
  await page.click('#create-button');
  await page.waitForSelector('#lobby');
  const tableUrl = page.url();
  await page.click('#start-button');
  await waitPlaying(page);
  await page.waitForSelector('.bci .bci-city');
  assert.equal(await page.getAttribute('#bci-objective', 'data-objective'), 'obj_tutorial');

  let cameBack = false;
  const rounds = new Set();
  const deadline = Date.now() + 130_000;
  for (;;) {
    assert.ok(Date.now() < deadline, `the game is over in time (rounds played: ${[...rounds]})`);
    const s = await boardState(page);
    if (s.over) break;
    if (s.mine && s.phase === 'building') {
      rounds.add(s.round);
      if (s.round >= 3 && !cameBack) {
        // Under way (a lucky or unlucky game may be over by round 6): a
        // building's spot previewed, then he leaves, comes back and reloads; the
        // same game goes on.
        await waitActions(page);
        const shown = (await paletteItems(page)).find((i) => i.can === 'yes' && !i.id.endsWith('_grid') && i.cost <= (s.bank ?? 0));
        if (shown && (await takeBuilding(page, shown.id))) {
          const [spot] = await previewSpots(page, 1);
          await page.hover(`#bci-scroll .bci-spot[data-origin="${spot.origin}"]`);
          assert.equal(await page.getAttribute('#bci-preview', 'data-source'), 'server', 'the preview is the one the rules list');
        }
        await shot(page, 'buildingcities-solo-mid');
        const before = await snapshot(page);
        await page.goto(server.url);
        await page.waitForSelector('#create-form');
        // While he is away the server restarts: the table is kept.
        await server.restart();
        await page.goto(tableUrl);
        await waitPlaying(page);
        await page.waitForSelector('.bci .bci-city');
        await waitActions(page);
        assert.deepEqual(await snapshot(page), before, 'the same game after leaving, a restart and coming back');
        await page.reload();
        await page.waitForSelector('.bci[data-phase=building][data-mine=yes] #bci-palette');
        assert.deepEqual(await snapshot(page), before, 'the same game after a reload');
        cameBack = true;
      }
      await playTurn(page);
    } else if (s.mine && s.decision) {
      await answerDecision(page, s.decision);
    } else {
      await page.waitForTimeout(50);
    }
  }
  assert.ok(cameBack, `he left and came back while the game was on (rounds played: ${[...rounds]})`);

  // The end says why and shows the bank: the objective reached, or its 14
  // turns passed; or, by the events' bad luck, a bankruptcy (E4).
  await shot(page, 'buildingcities-solo-end');
  const reason = await page.getAttribute('#bci-end-reason', 'data-reason');
  const endText = (await page.textContent('#bci-end-reason')) ?? '';
  const bank = Number(await page.getAttribute('#bci-final li[data-seat="0"]', 'data-bank'));
  assert.equal(Number(await page.getAttribute('#bci-bank', 'data-bank')), bank);
  assert.ok(((await page.textContent('#bci-final li[data-seat="0"]')) ?? '').includes(`${bank.toLocaleString('en-US')} Maya`), 'the end shows the bank');
  const status = await page.getAttribute('#bci-players li[data-seat="0"]', 'data-status');
  const round = (await boardState(page)).round;
  const heading = (await page.textContent('#game-result h2')) ?? '';
  if (reason === 'objective') {
    assert.ok(bank >= GOAL, `the objective is ${GOAL} Maya: ${bank}`);
    assert.equal(status, 'won');
    assert.equal(endText, 'The game is over: the objective is completed.');
    assert.equal(heading, 'Ana wins!');
  } else if (reason === 'turn_limit') {
    assert.equal(round, TURN_LIMIT);
    assert.ok(bank < GOAL, `${bank} Maya: the objective was not reached`);
    assert.equal(status, 'lost');
    assert.equal(endText, 'The game is over: the objective’s turn limit has passed.');
    assert.equal(heading, 'Nobody wins.');
  } else {
    assert.equal(reason, 'bankruptcy', `the game ended by ${reason}`);
    assert.equal(status, 'bankrupt');
    assert.ok(bank < 0, `bankrupt with ${bank} Maya`);
    assert.equal(heading, 'Nobody wins.');
  }
  assert.deepEqual(ana.errors, [], 'no script errors');
  console.log(`# Building Cities solo: ${reason} in round ${round}, ${bank} Maya, ${Math.round((Date.now() - started) / 1000)} s`);
});
