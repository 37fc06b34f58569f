// Building Cities, Despicable Annihilation, through the real server: a host sets
// up the table on the home page with the rulebook's custom rules (a large
// starting bank, prices ×10 so that one road block is a turn's spending, the
// first district pre-built), a friend joins by the invite link on a phone, a
// bot takes the third seat, a spectator watches. Each human buys his second
// district in the first round (challenges start with it, E5), then lays a road
// block a turn. Rounds go on until the host has played a face-down challenge on
// the friend ("play on…") and the friend saw it hit (or answered it with a Task
// Force), and a human has bid in a legendary auction and won or lost it; the
// decks decide when, so the rounds are bounded (see MAX_ROUNDS). The spectator
// sees how many challenges each mayor holds, never which.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shot } from '../harness.js';
import { giveName, waitPlaying } from './helpers.js';
import { attrNow, boardState, settle, waitActions, layRoad, endTurn, dropTool, answerDecision, paletteItems, spendAnyhow, usesTouch, press } from './buildingcities-play.js';

/** @typedef {import('playwright-core').Page} Page */

/**
 * The rounds the test may play. Played by the rules crate with this test's
 * moves and a greedy bot (`cargo run --release -p building-cities --example
 * despicable_rounds -- 5000`), the host may first play a challenge in round 4
 * of the median game (round 20 at the latest in 5,000 games) and a human may
 * first bid in an auction in round 7 (99 % by round 26, the last in round 35).
 * A round takes under 2 s here.
 */
const MAX_ROUNDS = 45;

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

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * Records every WebSocket message the page receives, from now on.
 * @param {Page} page
 */
function recordFrames(page) {
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
 * A human's building phase: in the first round, road blocks until the second
 * district is for sale, and its purchase; then one road block (a turn's
 * spending at these prices), and the end of the turn.
 * @param {Page} page
 */
async function despicableTurn(page) {
  await waitActions(page);
  for (let step = 0; step < 15; step++) {
    const s = await boardState(page);
    if (!s.mine || s.phase !== 'building' || s.bank === null || s.moves === null) return;
    const owned = await page.locator('#bci-scroll .bci-district.owned').count();
    const buy = page.locator('#bci-actions [data-action=buy_district]');
    if (owned < 2 && (await buy.count())) {
      await press(page, '#bci-actions [data-action=buy_district]');
      await settle(page);
      continue;
    }
    const spent = Number(await attrNow(page, '#bci-facts .spent', 'data-spent'));
    if ((owned < 2 || spent === 0) && s.moves > 0) {
      if (await layRoad(page)) {
        await dropTool(page);
        continue;
      }
    }
    if (await endTurn(page)) return;
    if (!(await spendAnyhow(page, await paletteItems(page), s.bank, s.moves, new Set()))) throw new Error(`round ${s.round}: the turn may not end and nothing can be built`);
  }
}

test('Despicable Annihilation: a challenge played on a friend, a legendary auction, a spectator who sees counts only', { timeout: 300_000 }, async () => {
  const started = Date.now();
  const ana = await browser.person();
  const anaFrames = recordFrames(ana.page);
  const bruno = await browser.person(PHONE);
  usesTouch(bruno.page);
  const cleo = await browser.person();

  // Ana sets up the table on the home page.
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  await ana.page.waitForSelector('#game-select option[value="building-cities"]', { state: 'attached' });
  await ana.page.selectOption('#game-select', 'building-cities');
  await ana.page.waitForSelector('[data-option="objective"] option[value="obj_labor_city"]', { state: 'attached' });
  await ana.page.selectOption('[data-option="mode"]', 'despicable');
  await ana.page.selectOption('#seats-select', '3');
  await ana.page.selectOption('[data-option="objective"]', 'obj_labor_city');
  await ana.page.fill('[data-option="variant.start_bank"]', '100000');
  await ana.page.press('[data-option="variant.start_bank"]', 'Tab');
  await ana.page.check('[data-option="variant.prebuilt_first_district"]');
  await ana.page.fill('[data-option="variant.price_percent"]', '1000');
  await ana.page.press('[data-option="variant.price_percent"]', 'Tab');
  await ana.page.click('#create-button');
  await ana.page.waitForSelector('#lobby');
  const invite = await ana.page.inputValue('#invite-url');
  const spectate = await ana.page.inputValue('#spectate-url');

  // Bruno joins by the link on his phone; a bot takes the third seat; Cléo watches.
  await bruno.page.goto(invite);
  await giveName(bruno.page, 'Bruno');
  await bruno.page.click('[data-action="take-seat"]');
  await bruno.page.waitForSelector('.seat.me[data-seat="1"]');
  const summary = (await bruno.page.textContent('#settings-summary')) ?? '';
  assert.match(summary, /Despicable Annihilation/);
  assert.match(summary, /100000|100,000/);
  await ana.page.locator('.seat[data-seat="2"] [data-action="add-bot"]').click();
  await ana.page.waitForSelector('.seat[data-seat="2"]:not(.empty)');
  const frames = recordFrames(cleo.page);
  await cleo.page.goto(spectate);
  await ana.page.waitForSelector('#spectator-count');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page, cleo.page]) {
    await waitPlaying(p);
    await p.waitForSelector('.bci .bci-city');
  }
  // The pre-built first district: roads, grids and a few buildings.
  assert.ok((await ana.page.locator('#bci-scroll .bci-tile').count()) >= 10, 'the first district is pre-built');
  assert.equal(Number(await ana.page.getAttribute('#bci-bank', 'data-bank')), 100000);

  const got = {
    played: /** @type {string | null} */ (null),
    hit: false,
    taskForce: false,
    bid: /** @type {{name: string, amount: number} | null} */ (null),
    /** The log's line on the end of the auction a human bid in. */
    auctionEnd: /** @type {string | null} */ (null),
    phoneShot: false,
    handChecked: false,
  };
  const humans = [
    { page: ana.page, name: 'Ana', seat: 0 },
    { page: bruno.page, name: 'Bruno', seat: 1 },
  ];
  let round = 1;
  const done = () => got.played !== null && (got.hit || got.taskForce) && got.auctionEnd !== null;
  while (!done()) {
    assert.ok(round <= MAX_ROUNDS, `round ${round}: ${JSON.stringify(got)}`);
    let acted = false;
    for (const h of humans) {
      const s = await boardState(h.page);
      if (s.round !== null) round = Math.max(round, s.round);
      if (s.over) throw new Error(`the game ended at round ${s.round} before the test saw it all: ${JSON.stringify(got)}`);
      if (!s.mine) continue;
      acted = true;
      if (s.phase === 'building') {
        if (h.seat === 1 && !got.phoneShot && round >= 2) {
          got.phoneShot = true;
          // On the phone the city fits the width; zoomed in (and kept so), it
          // scrolls inside its frame and the page stays as wide as the screen. The
          // road tool in hand shows its legal blocks, under the sticky bank.
          await waitActions(h.page);
          const width = async () => (await h.page.locator('#bci-scroll .bci-city').boundingBox())?.width ?? 0;
          const fit = await width();
          await press(h.page, '#bci-zoom button[aria-label="Zoom in"]');
          await press(h.page, '#bci-zoom button[aria-label="Zoom in"]');
          assert.ok((await width()) > 2 * fit, `zoomed in: ${fit} px, then ${await width()} px`);
          await press(h.page, '#bci-tool-road');
          await h.page.waitForSelector('#bci-scroll .bci-road-spot');
          await h.page.evaluate(() => {
            const spot = /** @type {Element} */ (document.querySelector('#bci-scroll .bci-road-spot'));
            spot.scrollIntoView({ block: 'center', inline: 'center' });
          });
          await shot(h.page, 'buildingcities-phone', false);
          const overflow = await h.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `the phone page is ${overflow}px too wide`);
        }
        await despicableTurn(h.page);
        continue;
      }
      switch (s.decision) {
        case 'play_challenge':
          if (h.seat === 0 && got.played === null) {
            await playOnFriend(h.page);
          } else {
            await answerDecision(h.page, 'play_challenge');
          }
          break;
        case 'task_force_prompt':
          if (h.seat === 1) {
            const card = await h.page.getAttribute('#bci-decision .bci-card.challenge', 'data-card');
            if (card === got.played) {
              await shot(h.page, 'buildingcities-challenge-hit');
              got.taskForce = (await h.page.locator('#bci-use-task-force').count()) > 0;
            }
          }
          await answerDecision(h.page, 'task_force_prompt');
          break;
        case 'auction':
          await bidOrPass(h.page, h.name);
          break;
        default:
          await answerDecision(h.page, /** @type {string} */ (s.decision));
      }
    }
    if (got.bid && !got.auctionEnd && (await attrNow(ana.page, '.bci', 'data-phase')) !== 'auction') {
      // The auction a human bid in is over: someone won it.
      // Newest first: the latest auction's winner.
      const lines = await ana.page.$$eval('#log-lines li', (els) => els.map((e) => e.textContent ?? ''));
      got.auctionEnd = lines.find((l) => / wins .* for .* Maya\.$/.test(l)) ?? null;
      assert.ok(got.auctionEnd, `the auction has a winner: ${lines.slice(0, 20).join(' | ')}`);
    }
    if (!acted) await new Promise((r) => setTimeout(r, 40));
  }

  /**
   * The host plays the first challenge of his hand on the friend, choosing both.
   * @param {Page} page
   */
  async function playOnFriend(page) {
    const hand = await page.$$eval('#bci-hand li[data-card]', (els) => els.map((e) => e.getAttribute('data-card') ?? ''));
    assert.ok(hand.length > 0, 'the host sees his hand');
    // The spectator sees the host deciding, with the count and no card.
    const watched = await cleo.page.waitForSelector('#bci-decision[data-kind=play_challenge]');
    const watchedText = (await watched.textContent()) ?? '';
    assert.match(watchedText, /Ana may play/);
    assert.equal(await cleo.page.locator('#bci-hand, [data-play]').count(), 0, 'no hand for the spectator');
    assert.equal(Number(await cleo.page.getAttribute('#bci-players li[data-seat="0"]', 'data-hand')), hand.length, 'the spectator sees how many cards');
    for (const id of hand) assert.equal(await cleo.page.locator(`[data-card="${id}"]#bci-decision, #bci-decision [data-card="${id}"]`).count(), 0);
    if (!got.handChecked) {
      got.handChecked = true;
      await shot(page, 'buildingcities-despicable-hand');
    }
    const playable = page.locator('#bci-hand [data-play]:not([disabled])');
    const index = Number(await playable.first().getAttribute('data-play'));
    await playable.first().click();
    await page.click('#bci-targets [data-target="1"]');
    const label = (await page.textContent('#bci-play')) ?? '';
    assert.match(label, /on Bruno/);
    got.played = hand[index];
    await page.click('#bci-play');
    await settle(page);
    // Bruno's page says it: the card face up, hit or waiting for his answer.
    await bruno.page.waitForFunction(
      (card) => document.querySelector(`#bci-decision[data-kind=task_force_prompt] [data-card="${card}"]`) || document.querySelector(`#bci-challenge[data-card="${card}"]`),
      got.played,
    );
    const lines = await bruno.page.$$eval('#log-lines li', (els) => els.map((e) => e.textContent ?? ''));
    assert.ok(lines.some((l) => /^Ana plays .* on Bruno\.$/.test(l)), `Bruno's log says it: ${lines.join(' | ')}`);
    if (await bruno.page.locator(`#bci-challenge[data-card="${got.played}"]`).count()) {
      got.hit = true;
      await shot(bruno.page, 'buildingcities-challenge-hit');
    }
  }

  /**
   * In an auction: the first time a human may bid, he bids the least allowed;
   * afterwards he passes.
   * @param {Page} page
   * @param {string} name
   */
  async function bidOrPass(page, name) {
    if (got.bid === null) {
      await page.waitForSelector('#bci-decision.mine #bci-bid');
      const min = Number(await page.getAttribute('#bci-bid-amount', 'min'));
      assert.equal(Number(await page.inputValue('#bci-bid-amount')), min, 'the least bid allowed is offered');
      await shot(page, 'buildingcities-auction');
      await press(page, '#bci-bid');
      await settle(page);
      got.bid = { name, amount: min };
      await page.waitForFunction((line) => [...document.querySelectorAll('#log-lines li')].some((li) => li.textContent === line), `${name} bids ${min.toLocaleString('en-US')} Maya.`);
    } else {
      await press(page, '#bci-decision.mine #bci-pass');
      await settle(page);
    }
  }

  // The auction went at least as high as the human's bid; he won it or someone outbid him.
  const end = /^(.+) wins .+ for ([\d,]+) Maya\.$/.exec(/** @type {string} */ (got.auctionEnd));
  assert.ok(end && got.bid);
  assert.ok(Number(end[2].replace(/,/g, '')) >= got.bid.amount, `${got.auctionEnd} after a bid of ${got.bid.amount}`);

  // The spectator never received a hand; the host received his own.
  const handInFrame = /"hand":\s*\[|"path":"\/hand/;
  assert.ok(anaFrames.some((f) => handInFrame.test(f)), 'the host receives his hand');
  for (const f of frames) assert.doesNotMatch(f, handInFrame, 'a hand in a spectator frame');
  for (const p of [ana, bruno, cleo]) assert.deepEqual(p.errors, [], 'no script errors');
  console.log(`# Building Cities Despicable: ${got.played} played on Bruno (${got.taskForce ? 'Task Force' : 'hit'}), ${got.bid.name} bid ${got.bid.amount}, "${got.auctionEnd}", by round ${round}, ${Math.round((Date.now() - started) / 1000)} s`);
});
