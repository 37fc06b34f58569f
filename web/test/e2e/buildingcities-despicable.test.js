// Building Cities in Despicable Annihilation, through the real server: a host
// sets up a short game in the lobby (the rulebook's custom rules: a 100,000
// Maya starting bank, the pre-built first district, prices ×10), a friend joins
// on a phone through the invite link, a bot takes the third seat and a
// spectator watches. The two people buy their second district, then lay a
// road block a turn; the host plays his first challenge on the friend, who
// answers the Task Force prompt; a person bids in the first legendary auction
// he may bid in, and wins or loses it. The spectator never receives a
// face-down challenge card.
//
// `examples/despicable_rounds.rs` of the rules crate plays these moves for
// 5,000 seeds: the host may first play a challenge by round 20 and a person
// may first bid by round 35 at the latest, hence the round bound below.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shot } from '../harness.js';
import { giveName, waitPlaying, recordFrames, eventsIn } from './helpers.js';
import { usesTouch, press, boardState, settle, waitActions, layRoad, endTurn, dropTool, answerDecision } from './buildingcities-play.js';

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

/** The latest round `despicable_rounds` saw both events by (5,000 seeds), with a margin. */
const ROUND_BOUND = 45;
/** The Task Force and auction windows, in seconds: long enough for a person on a slow machine. */
const WINDOW_SECONDS = 60;

/**
 * Sets a number option of the lobby form.
 * @param {Page} page
 * @param {string} key
 * @param {number} value
 */
async function setNumber(page, key, value) {
  const input = page.locator(`[data-option="${key}"]`);
  await input.fill(String(value));
  await input.press('Tab');
  await page.waitForFunction(([k, v]) => /** @type {HTMLInputElement | null} */ (document.querySelector(`[data-option="${k}"]`))?.value === v, [key, String(value)]);
}

/**
 * One building phase as the example plays it: the second district bought
 * (road blocks until it is for sale), then a road block a turn, then the end
 * of the turn.
 * @param {Page} page
 */
async function playTurn(page) {
  await waitActions(page);
  let road = false;
  for (let step = 0; step < 30; step++) {
    const s = await boardState(page);
    if (!s.mine || s.phase !== 'building') return;
    await waitActions(page);
    const owned = await page.locator('#bci-scroll .bci-district.owned').count();
    if (owned < 2 && (await page.locator('#bci-actions button[data-action=buy_district]').count())) {
      await press(page, '#bci-actions button[data-action=buy_district]');
      await settle(page);
      continue;
    }
    if ((owned < 2 || !road) && (await layRoad(page))) {
      await dropTool(page);
      road = true;
      if (owned < 2) continue;
    }
    await dropTool(page);
    if (await endTurn(page)) return;
    if (!(await layRoad(page))) throw new Error(`round ${s.round}: the turn may not end and no road block is left`);
    await dropTool(page);
  }
}

/**
 * Whether the hand on `page` holds a card it may play on Bruno now (a hand of
 * Task Forces only is asked too, and keeps).
 * @param {Page} page
 */
async function playable(page) {
  await page.waitForSelector('#bci-decision.mine #bci-hand', { state: 'attached' });
  return (await page.locator('#bci-decision.mine [data-play]:not([disabled])').count()) > 0 && (await page.locator('#bci-decision.mine [data-target="1"]').count()) > 0;
}

test('a host, a friend on a phone, a bot and a spectator: a challenge played on the friend and an auction', { timeout: 240_000 }, async () => {
  const started = Date.now();
  const ana = await browser.person();
  const bruno = await browser.person({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  usesTouch(bruno.page);
  const anaFrames = recordFrames(ana.page);

  // Ana sets up the table: Despicable Annihilation, three seats, a short game.
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  await ana.page.waitForSelector('#game-select option[value="building-cities"]', { state: 'attached' });
  await ana.page.selectOption('#game-select', 'building-cities');
  await ana.page.waitForSelector('[data-option="objective"] option[value="obj_labor_city"]', { state: 'attached' });
  await ana.page.selectOption('[data-option="mode"]', 'despicable');
  await ana.page.waitForSelector('#seats-select option[value="3"]', { state: 'attached' });
  assert.deepEqual(await ana.page.$$eval('#seats-select option', (els) => els.map((e) => e.getAttribute('value'))), ['2', '3', '4'], 'Despicable Annihilation seats 2-4 mayors');
  await ana.page.selectOption('#seats-select', '3');
  await ana.page.selectOption('[data-option="objective"]', 'obj_labor_city');
  await setNumber(ana.page, 'variant.start_bank', 100_000);
  await ana.page.check('[data-option="variant.prebuilt_first_district"]');
  await setNumber(ana.page, 'variant.price_percent', 1000);
  await setNumber(ana.page, 'task_force_ms', WINDOW_SECONDS);
  await setNumber(ana.page, 'auction_ms', WINDOW_SECONDS);
  await ana.page.click('#create-button');
  await ana.page.waitForSelector('#lobby');
  const invite = await ana.page.inputValue('#invite-url');
  const spectate = await ana.page.inputValue('#spectate-url');

  // Bruno joins on his phone; Ana adds a bot; Cleo watches.
  await bruno.page.goto(invite);
  await giveName(bruno.page, 'Bruno');
  await bruno.page.locator('[data-action="take-seat"]').first().tap();
  await bruno.page.waitForSelector('.seat.me[data-seat="1"]');
  await ana.page.locator('.seat[data-seat="2"] [data-action="add-bot"]').click();
  await ana.page.waitForSelector('.seat[data-seat="2"]:not(.empty)');
  const cleo = await browser.person();
  const cleoFrames = recordFrames(cleo.page);
  await cleo.page.goto(spectate);
  await ana.page.waitForSelector('#spectator-count');
  await shot(ana.page, 'buildingcities-despicable-lobby');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page, cleo.page]) {
    await waitPlaying(p);
    await p.waitForSelector('.bci .bci-city');
  }
  assert.equal(Number(await ana.page.getAttribute('#bci-bank', 'data-bank')), 100_000, 'the starting bank of the lobby');
  assert.equal(await ana.page.locator('#bci-scroll .bci-district.owned').count(), 1, 'the first district is there');
  assert.ok((await ana.page.locator('#bci-scroll .bci-tile').count()) > 0, 'with its buildings pre-built');
  // The phone shows the board without scrolling sideways.
  assert.ok(await bruno.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll on the phone');

  const people = [
    { name: 'Ana', seat: 0, page: ana.page },
    { name: 'Bruno', seat: 1, page: bruno.page },
  ];
  /** @type {{by: string, card: string} | null} */
  let played = null;
  let taskForceAnswered = false;
  /** @type {{by: string, amount: number, building: string} | null} */
  let bid = null;
  const deadline = Date.now() + 200_000;
  for (;;) {
    assert.ok(Date.now() < deadline, 'both happen in time');
    const round = (await boardState(ana.page)).round ?? 0;
    assert.ok(round <= ROUND_BOUND, `both happen by round ${ROUND_BOUND}: challenge ${Boolean(played)}, bid ${Boolean(bid)}`);
    assert.ok(!(await ana.page.locator('#bci-final').count()), 'the game goes on');
    if (played && taskForceAnswered && bid) break;
    let acted = false;
    for (const p of people) {
      const s = await boardState(p.page);
      if (s.mine && s.phase === 'building') {
        await playTurn(p.page);
        acted = true;
      } else if (s.mine && s.decision === 'play_challenge' && p.seat === 0 && !played && (await playable(p.page))) {
        // Ana plays the first card she may play, on Bruno.
        const d = '#bci-decision.mine';
        await p.page.locator(`${d} [data-play]:not([disabled])`).first().click();
        await p.page.click(`${d} [data-target="1"]`);
        const index = Number(await p.page.getAttribute(`${d} [data-play][aria-pressed=true]`, 'data-play'));
        const card = (await p.page.getAttribute(`${d} #bci-hand li:nth-child(${index + 1})`, 'data-card')) ?? '';
        assert.match((await p.page.textContent(`${d} #bci-play`)) ?? '', /Bruno/, 'the button says on whom');
        await shot(p.page, 'buildingcities-despicable-challenge');
        await p.page.click(`${d} #bci-play`);
        await settle(p.page);
        played = { by: p.name, card };
        // Every page's log says who played what on whom (while the log, which
        // keeps the latest lines, still holds it).
        for (const page of [ana.page, bruno.page, cleo.page]) {
          await page.locator('#log', { hasText: /Ana plays .+ on Bruno\./ }).waitFor({ state: 'attached' });
        }
        acted = true;
      } else if (s.mine && s.decision === 'task_force_prompt' && p.seat === 1 && played && !taskForceAnswered) {
        // Bruno is asked, on his phone, whether he answers with a Task Force.
        const card = await p.page.getAttribute('#bci-decision [data-card]', 'data-card');
        assert.equal(card, played.card, 'the prompt shows the card played on him');
        assert.ok(Number((await p.page.getAttribute('#bci-countdown', 'data-seconds')) ?? 0) > 0, 'with its countdown');
        await shot(p.page, 'buildingcities-despicable-task-force');
        await answerDecision(p.page, 'task_force_prompt');
        taskForceAnswered = true;
        acted = true;
      } else if (s.mine && s.decision === 'auction' && !bid && (await p.page.locator('#bci-decision.mine #bci-bid').count())) {
        // The first auction a person may bid in: the least allowed bid.
        const d = '#bci-decision.mine';
        const building = (await p.page.getAttribute('#bci-auction', 'data-building')) ?? '';
        const amount = Number(await p.page.getAttribute(`${d} #bci-bid-amount`, 'min'));
        assert.ok(amount > 0 && amount <= (s.bank ?? 0), `a bid within the bank: ${amount}`);
        await shot(p.page, `buildingcities-despicable-auction-${p.name.toLowerCase()}`);
        await press(p.page, `${d} #bci-bid`);
        await settle(p.page);
        bid = { by: p.name, amount, building };
        acted = true;
      } else if (s.mine && s.decision) {
        await answerDecision(p.page, s.decision);
        acted = true;
      }
    }
    if (!acted) await ana.page.waitForTimeout(50);
  }
  if (!played || !bid) throw new Error('unreachable');

  // The challenge went to Bruno.
  const challenge = eventsIn(anaFrames, 'challenge_played').find((e) => e.seat === 0);
  assert.deepEqual({ seat: challenge?.seat, target: challenge?.target, card: challenge?.card }, { seat: 0, target: 1, card: played.card });

  // The auction closes (everyone else passes or the window ends): the bidder
  // won it at his bid, or was outbid.
  const bidder = bid.by === 'Ana' ? ana.page : bruno.page;
  const closeBy = Date.now() + (WINDOW_SECONDS + 30) * 1000;
  const wonIt = () => eventsIn(anaFrames, 'auction_won').find((e) => e.building === bid?.building);
  while (!wonIt()) {
    assert.ok(Date.now() < closeBy, 'the auction closes');
    for (const p of people) {
      const s = await boardState(p.page);
      if (s.mine && s.decision === 'auction') await answerDecision(p.page, 'auction');
    }
    await ana.page.waitForTimeout(100);
  }
  const { seat: winnerSeat, price } = wonIt();
  const bidderSeat = bid.by === 'Ana' ? 0 : 1;
  if (winnerSeat === bidderSeat) assert.equal(price, bid.amount, 'the winner pays his bid');
  else assert.ok(price >= bid.amount, `outbid: ${price} against ${bid.amount}`);
  assert.ok(eventsIn(anaFrames, 'auction_bid').some((e) => e.seat === bidderSeat && e.amount === bid?.amount), 'the bid was taken');
  await shot(bidder, 'buildingcities-despicable-auction-closed');

  // Cleo saw the cities and the hand counts, never a face-down card.
  assert.equal(await cleo.page.locator('#bci-hand').count(), 0, 'a spectator has no hand');
  const counts = await cleo.page.$$eval('#bci-players li[data-hand]', (els) => els.map((e) => e.getAttribute('data-hand')));
  assert.equal(counts.length, 3, 'a spectator sees every mayor');
  assert.ok(counts.every((n) => /^\d+$/.test(n ?? '')), `a spectator sees hand counts: ${counts}`);
  // A hand travels as a list in a snapshot or as a patch of `/hand`.
  const handList = /"hand"\s*:\s*\[|"path"\s*:\s*"\/hand/;
  assert.ok(anaFrames.some((f) => handList.test(f)), 'a player receives her own hand');
  assert.ok(cleoFrames.length > 0, 'the spectator received frames');
  for (const f of cleoFrames) {
    assert.ok(!handList.test(f), 'no hand list reaches a spectator');
  }
  await shot(cleo.page, 'buildingcities-despicable-spectator');
  for (const who of [ana, bruno, cleo]) assert.deepEqual(who.errors, [], 'no script errors');
  console.log(
    `# Building Cities Despicable: ${played.by} played ${played.card} on Bruno; ${bid.by} bid ${bid.amount} for ${bid.building}, won by seat ${winnerSeat} at ${price}; round ${(await boardState(ana.page)).round}; ${Math.round((Date.now() - started) / 1000)} s`,
  );
});
