// My City against the real server: two people and a bot at a 3-seat table, and a
// spectator. Rounds are played through the map (tap to choose, tap again or
// "Build here" to confirm); before each reveal neither the other player nor the
// spectator sees a pending decision (in the page or in any message received); a
// round with a disconnected player ends by the turn timer; a reload and a
// reconnection keep the seat and the hidden decision; the game ends with the
// scoring category by category.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shot, serverBin } from '../harness.js';
import { giveName, createTable, createTableThroughApi, waitPlaying, recordFrames, fairChecks, errorToast, takeSeatFromInvite, holdBackFromServer, downloadAndVerifyRecord, checkRecordFilesAsNewcomer, startWebhookReceiver } from './helpers.js';

/** @typedef {import('playwright-core').Page} Page */

/**
 * Turn timer of the test table, in seconds: short, so a timed-out round is quick,
 * yet long enough for a player to come back and act within one round.
 */
const TIMER_S = 20;

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
 * The round the page shows.
 * @param {Page} page
 */
async function roundOf(page) {
  return Number(await page.getAttribute('.mc', 'data-round'));
}

/**
 * Waits until the page shows round `n` (or the end of the game).
 * @param {Page} page
 * @param {number} n
 * @param {number} [timeout]
 */
async function waitRound(page, n, timeout = 15_000) {
  await page.waitForFunction(
    (r) => {
      const mc = document.querySelector('.mc');
      return mc && (Number(mc.getAttribute('data-round')) >= r || mc.getAttribute('data-over') === 'yes');
    },
    n,
    { timeout },
  ).catch(async (err) => {
    await shot(page, 'mycity-failed-round');
    throw err;
  });
}

/**
 * Chooses a legal spot on the player's own map and confirms it: tap (or click)
 * a highlighted space, then tap the same space again (`twice`) or press
 * "Build here". Returns the placement sent.
 * @param {Page} page
 * @param {{touch?: boolean, twice?: boolean, rotate?: number}} [o]
 */
async function placeBuilding(page, o = {}) {
  await page.waitForSelector('.mc[data-mine="yes"] #mc-board .reach-cell', { timeout: 10_000 });
  const round = await roundOf(page);
  // Turning is offered only for pieces that look different when turned.
  for (let i = 0; i < (o.rotate ?? 0) && (await page.isEnabled('#mc-rotate')); i++) {
    await page.click('#mc-rotate');
    await page.waitForSelector('#mc-board .reach-cell');
  }
  // The board redraws when another seat decides, and a message may cover the map
  // for a moment: clear messages, measure again and tap again until a spot is chosen.
  let x = 0;
  let y = 0;
  let chosen = false;
  for (let attempt = 0; attempt < 5 && !chosen; attempt++) {
    await page.evaluate(() => document.querySelectorAll('.toast').forEach((t) => t.remove()));
    const cells = page.locator('#mc-board .reach-cell');
    const n = await cells.count();
    if (!n) {
      await page.waitForTimeout(200);
      continue;
    }
    const cell = cells.nth(Math.floor(n / 2));
    await cell.scrollIntoViewIfNeeded({ timeout: 1000 }).catch(() => {});
    const box = await cell.boundingBox({ timeout: 1000 }).catch(() => null);
    if (!box) continue;
    x = box.x + box.width / 2;
    y = box.y + box.height / 2;
    if (o.touch) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
    chosen = await page
      .waitForSelector('#mc-ghost.ok.chosen', { timeout: 3000 })
      .then(() => true)
      .catch(() => false);
  }
  assert.ok(chosen, 'a highlighted space was chosen');
  const spot = {
    x: Number(await page.getAttribute('#mc-ghost', 'data-x')),
    y: Number(await page.getAttribute('#mc-ghost', 'data-y')),
    rotation: Number(await page.getAttribute('#mc-ghost', 'data-rotation')),
  };
  assert.equal(await page.isEnabled('#mc-build'), true, 'a chosen spot can be built');
  if (o.twice) {
    if (o.touch) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
  } else {
    await page.click('#mc-build');
  }
  // Accepted: the decision shows as pending, or the round was already revealed.
  await page.waitForFunction(
    (r) => document.querySelector('#mc-pending') || Number(document.querySelector('.mc')?.getAttribute('data-round')) > r || document.querySelector('.mc[data-over="yes"]'),
    round,
  ).catch(async (err) => {
    await shot(page, 'mycity-failed-placing');
    throw err;
  });
  return spot;
}

/**
 * Nothing the page received since `from` tells what seat `seat` decided.
 * @param {string[]} frames
 * @param {number} from
 * @param {number} seat
 * @param {string} who
 */
function assertNoDecisionLeak(frames, from, seat, who) {
  for (const raw of frames.slice(from)) {
    const msg = JSON.parse(raw);
    if (msg.type === 'legal_moves') continue; // the receiver's own options
    assert.ok(!raw.includes('"decisions_revealed"'), `${who} got no reveal yet`);
    assert.ok(!/"type":"(place|pass|end_participation)"/.test(raw), `${who} got no move of anyone: ${raw.slice(0, 300)}`);
    if (msg.type === 'update') {
      for (const op of msg.patch ?? []) {
        assert.ok(!String(op.path).startsWith(`/players/${seat}/placements`), `${who} sees no building of seat ${seat} before the reveal`);
        assert.ok(!String(op.path).startsWith('/my_decision') || op.value === null, `${who} gets no decision in its view`);
      }
      for (const ev of msg.events ?? []) {
        if (ev.type === 'decided') assert.deepEqual(Object.keys(ev).sort(), ['seat', 'type'], 'a decided event names the seat only');
      }
    }
    if (msg.type === 'snapshot') assert.equal(msg.game.view.my_decision ?? null, null, `${who}'s snapshot holds no decision of another`);
  }
}

/**
 * Buildings shown on seat `seat`'s small map on `page`.
 * @param {Page} page
 * @param {number} seat
 */
function buildingsOf(page, seat) {
  return page.locator(`#mc-others .mc-other[data-seat="${seat}"] .building`).count();
}

test('a 3-seat My City table: hidden decisions, timer, reconnection, final scoring', { timeout: 240_000 }, async () => {
  const ana = await browser.person();
  const bruno = await browser.person({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const cleo = await browser.person();
  const brunoFrames = recordFrames(bruno.page);
  const cleoFrames = recordFrames(cleo.page);

  // Ana creates the table with a short turn timer; Bruno takes a seat, a bot the last.
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  await ana.page.waitForSelector('#game-select option[value="my-city"]', { state: 'attached' });
  await ana.page.selectOption('#game-select', 'my-city');
  await ana.page.selectOption('#seats-select', '3');
  // The form offers 30 s and more; the server allows 5 s and more.
  await ana.page.$eval('#timer-select', (sel, s) => sel.append(new Option(`${s} s`, String(s))), TIMER_S);
  await ana.page.selectOption('#timer-select', String(TIMER_S));
  await ana.page.click('#create-button');
  await ana.page.waitForSelector('#lobby');
  await ana.page.waitForSelector('#invite-url');
  const links = { invite: await ana.page.inputValue('#invite-url'), spectate: await ana.page.inputValue('#spectate-url') };
  await takeSeatFromInvite(bruno.page, links.invite, 'Bruno');
  await ana.page.locator('.seat[data-seat="2"] [data-action="add-bot"]').click();
  await ana.page.waitForSelector('.seat[data-seat="2"]:not(.empty)');
  await cleo.page.goto(/** @type {string} */ (links.spectate));
  await ana.page.waitForSelector('#spectator-count');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page, cleo.page]) {
    await waitPlaying(p);
    await p.waitForSelector('.mc #mc-card');
  }
  await ana.page.waitForSelector('#timer:not(:empty)');
  // Everyone is shown the same seal of the game's shuffles.
  const sealed = (await cleo.page.getAttribute('#fair', 'data-commitment')) ?? '';
  assert.match(sealed, /^[0-9a-f]{64}$/);
  assert.equal(await bruno.page.getAttribute('#fair', 'data-commitment'), sealed);
  assert.equal(await cleo.page.locator('#mc-board').count(), 0, 'a spectator has no map of his own');
  assert.equal(await cleo.page.locator('#mc-others .mc-other').count(), 3, 'a spectator sees the three cities');
  assert.equal(await bruno.page.locator('#mc-others .mc-other').count(), 2, 'a player sees the two other cities');
  const deck0 = Number(await ana.page.getAttribute('#mc-deck', 'data-count'));
  assert.ok(deck0 >= 25 && deck0 <= 27, `deck count ${deck0}`);
  // The map is drawn like the printed board.
  assert.ok(await ana.page.locator('#mc-board .terrain.mountain').count() > 10);
  assert.ok(await ana.page.locator('#mc-board .terrain.forest').count() > 10);
  assert.equal(await ana.page.getAttribute('#mc-board .river', 'data-edges'), '14');
  for (const kind of ['trees', 'rocks', 'well', 'gold']) assert.ok(await ana.page.locator(`#mc-board .terrain.${kind}`).count() >= 2, kind);

  // Rounds 1-3: Ana places first (mouse, "Build here"), then Bruno (touch, tap twice).
  for (let round = 1; round <= 3; round++) {
    await waitRound(ana.page, round);
    await waitRound(bruno.page, round);
    const anaBefore = await buildingsOf(bruno.page, 0);
    const fromB = brunoFrames.length;
    const fromC = cleoFrames.length;
    await placeBuilding(ana.page, { rotate: round === 2 ? 1 : 0 });
    for (const p of [bruno.page, cleo.page]) await p.waitForSelector('.mc-who[data-seat="0"][data-state="decided"]');
    assert.equal(await buildingsOf(bruno.page, 0), anaBefore, "Bruno does not see Ana's building before the reveal");
    assert.equal(await buildingsOf(cleo.page, 0), anaBefore, "the spectator does not see Ana's building before the reveal");
    assert.equal(await cleo.page.locator('#mc-pending, #mc-ghost').count(), 0);
    assertNoDecisionLeak(brunoFrames, fromB, 0, 'Bruno');
    assertNoDecisionLeak(cleoFrames, fromC, 0, 'the spectator');
    if (round === 2) {
      // Ana reloads while waiting: her seat and her hidden decision are still hers.
      await ana.page.reload();
      await waitPlaying(ana.page);
      await ana.page.waitForSelector('#mc-pending');
      assert.match((await ana.page.textContent('#mc-prompt')) ?? '', /Your decision: build at/);
      await shot(bruno.page, 'mycity-phone-deciding');
    }
    await placeBuilding(bruno.page, { touch: true, twice: true });
    for (const p of [ana.page, bruno.page, cleo.page]) await waitRound(p, round + 1);
    assert.equal(await buildingsOf(cleo.page, 0), anaBefore + 1, "after the reveal everyone sees Ana's building");
    assert.equal(await buildingsOf(ana.page, 1), round, "and Ana sees Bruno's");
    assert.ok(cleoFrames.slice(fromC).some((f) => f.includes('"decisions_revealed"')), 'the reveal came');
  }
  assert.equal(await ana.page.locator('#mc-board .building').count(), 3);
  const live = Number(await ana.page.getAttribute('#mc-score tr[data-cat="total"] td', 'data-value'));
  const chip = Number(await cleo.page.getAttribute('.mc-who[data-seat="0"] .pts', 'data-points'));
  assert.equal(live, chip, "Ana's live total is the one everyone sees");
  await shot(ana.page, 'mycity-in-progress');
  await shot(cleo.page, 'mycity-spectator');

  // Round 4: Bruno is gone; Ana decides; the timer decides for Bruno.
  const round4 = await roundOf(ana.page);
  const brunoPoints = Number(await ana.page.getAttribute('.mc-who[data-seat="1"] .pts', 'data-points'));
  const brunoBuildings = await buildingsOf(ana.page, 1);
  await bruno.page.close();
  await placeBuilding(ana.page);
  const t0 = Date.now();
  await waitRound(ana.page, round4 + 1, (TIMER_S + 10) * 1000);
  const waited = Date.now() - t0;
  assert.ok(waited > 1000, `the round waited for the timer (${waited} ms)`);
  await ana.page.waitForFunction(() => /\(timer\)/.test(document.querySelector('#log-lines')?.textContent ?? ''));
  assert.equal(await buildingsOf(ana.page, 1), brunoBuildings, 'Bruno built nothing');
  const after = Number(await ana.page.getAttribute('.mc-who[data-seat="1"] .pts', 'data-points'));
  assert.ok(after < brunoPoints || after === brunoPoints - 1 || after <= brunoPoints, 'passing cost Bruno');

  // Bruno comes back (same browser storage): his seat, his city.
  const brunoAgain = await bruno.ctx.newPage();
  await brunoAgain.goto(links.invite);
  await waitPlaying(brunoAgain);
  await brunoAgain.waitForSelector('.seat.me[data-seat="1"]');
  await brunoAgain.waitForSelector('#mc-board');
  assert.equal(await brunoAgain.locator('#mc-board .building').count(), brunoBuildings);
  const overflow = await brunoAgain.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the phone page is ${overflow}px too wide`);

  // Both humans end their participation (two taps: it cannot be undone); the bot plays on alone.
  // The round's timer runs meanwhile: where passing is not allowed, a timeout ends a
  // participation (ruling R7), and the page says so.
  let tapped = 0;
  for (const p of [ana.page, brunoAgain]) {
    const state = await p
      .waitForFunction(() => {
        if (document.querySelector('.mc[data-mine="yes"] #mc-end:not([disabled])')) return 'can_end';
        return /ended your participation/.test(document.querySelector('#mc-prompt')?.textContent ?? '') && 'ended';
      })
      .then((handle) => handle.jsonValue());
    if (state === 'ended') continue;
    await p.click('#mc-end');
    await p.waitForSelector('#mc-end.armed');
    await p.click('#mc-end');
    await p.waitForSelector('#mc-pending, .mc[data-mine="no"]');
    tapped += 1;
  }
  assert.ok(tapped > 0, 'a player ended his participation with the button');
  for (const p of [ana.page, brunoAgain, cleo.page]) await p.waitForSelector('#mc-final', { timeout: 90_000 });

  // Final scoring: every category for every player, totals as in the result.
  for (const p of [ana.page, cleo.page]) {
    assert.equal(await p.locator('#mc-final-table tbody tr').count(), 12);
    assert.equal(await p.locator('#mc-final-table thead th[data-seat]').count(), 3);
  }
  for (let seat = 0; seat < 3; seat++) {
    const cells = await cleo.page.$$eval(`#mc-final-table tbody td[data-seat="${seat}"]`, (tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
    const total = cells.pop();
    assert.equal(cells.reduce((a, b) => a + b, 0), total, `seat ${seat}: the categories add up to the total`);
    const seatScore = Number(await cleo.page.getAttribute(`#seats .seat[data-seat="${seat}"] .score`, 'data-score'));
    assert.equal(seatScore, total, `seat ${seat}: the table's result agrees`);
  }
  assert.ok(await cleo.page.locator('#mc-tiebreak p').count() >= 1, 'the tiebreak is explained');
  assert.ok(await cleo.page.locator('#game-result h2').count());
  await shot(ana.page, 'mycity-final');
  await shot(brunoAgain, 'mycity-phone-final');

  // The replay steps through the game from the empty maps.
  await ana.page.click('#replay-button');
  await ana.page.waitForSelector('#replay .mc');
  const checks = await fairChecks(ana.page);
  assert.deepEqual([checks.commitment, checks.seen, checks.replay], ['matches', true, 'matches'], checks.text);
  const finalBuildings = await ana.page.locator('#replay .mc-other .building').count();
  assert.ok(finalBuildings >= 4, `the replay ends with the final cities (${finalBuildings} buildings)`);
  await ana.page.click('#replay-first');
  await ana.page.waitForFunction(() => document.querySelectorAll('#replay .mc-other .building').length === 0);
  assert.equal(await ana.page.locator('#replay .mc-other').count(), 3, 'the replay shows the three cities');
  assert.equal(await ana.page.locator('#replay #mc-board, #replay #mc-actions').count(), 0, 'nothing to play in a replay');
  // The record downloads as one file that the command line verifies, and a
  // copy whose seed was changed fails; from the file, the home page replays it.
  const { record, path: recordPath, forgedPath } = await downloadAndVerifyRecord(ana.page, serverBin(), 'my-city', sealed);
  assert.equal(record.seat_views.length, 3, "every seat's views");
  await ana.page.click('#replay-close');
  const dana = await browser.person();
  await dana.page.goto(server.url);
  await checkRecordFilesAsNewcomer(dana.page, recordPath, forgedPath, async () => {
    assert.equal(await dana.page.locator('#replay .mc-other').count(), 3);
  });
  assert.deepEqual(dana.errors, [], 'no script errors');
  await dana.ctx.close();

  // In French.
  await cleo.page.click('#lang-switch');
  await cleo.page.waitForSelector('#mc-final');
  assert.match((await cleo.page.textContent('#mc-final h2')) ?? '', /Décompte final/);
  assert.match((await cleo.page.textContent('#mc-final-table')) ?? '', /Plus grand groupe résidentiel/);
  await shot(cleo.page, 'mycity-final-fr');
  assert.match((await cleo.page.textContent('#fair summary')) ?? '', /Tirages scellés/);
  await cleo.page.click('#replay-button');
  const fr = await fairChecks(cleo.page);
  assert.deepEqual([fr.commitment, fr.replay], ['matches', 'matches'], fr.text);
  assert.match(fr.text, /Rejouer la graine avec les \d+ coups donne exactement/);
  await cleo.page.click('#replay-close');

  for (const p of [ana, cleo]) assert.deepEqual(p.errors, [], 'no script errors');
  for (const p of [ana, bruno, cleo]) await p.ctx.close();
});

test('a decision taken back before the reveal, in French; an undo the reveal crossed is refused', { timeout: 120_000 }, async () => {
  const ana = await browser.person();
  const bruno = await browser.person();
  // Ana's messages from the server can be held back, as a slow network would.
  const wire = await holdBackFromServer(ana.page);

  await ana.page.goto(server.url);
  await ana.page.click('#lang-switch');
  await giveName(ana.page, 'Ana');
  const links = await createTable(ana.page, { game: 'my-city', seats: 2 });
  await takeSeatFromInvite(bruno.page, links.invite, 'Bruno');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page]) {
    await waitPlaying(p);
    await p.waitForSelector('.mc #mc-card');
  }

  // Ana decides, then takes it back with Ctrl+Z: her map is hers to place on again.
  assert.equal(await ana.page.locator('#undo:visible').count(), 0);
  await placeBuilding(ana.page);
  await ana.page.waitForSelector('#mc-pending');
  await ana.page.waitForSelector('#undo:visible');
  assert.match((await ana.page.textContent('#undo')) ?? '', /Annuler/);
  assert.equal(await bruno.page.locator('#undo:visible').count(), 0, 'Bruno has nothing to take back');
  await ana.page.keyboard.press('Control+z');
  await ana.page.waitForSelector('#mc-pending', { state: 'detached' });
  await ana.page.waitForSelector('#undo', { state: 'hidden' });
  await ana.page.waitForFunction(() => /Ana a repris un coup/.test(document.querySelector('#log-lines')?.textContent ?? ''));
  await bruno.page.waitForFunction(() => /Ana took back a move/.test(document.querySelector('#log-lines')?.textContent ?? ''));
  assert.equal(await roundOf(ana.page), 1);

  // She decides again; Bruno's decision reveals the round while her page has
  // not heard of it yet, and her Undo is refused, in her language.
  await placeBuilding(ana.page);
  await ana.page.waitForSelector('#undo:visible');
  wire.hold = true;
  await placeBuilding(bruno.page);
  await waitRound(bruno.page, 2);
  assert.equal(await roundOf(ana.page), 1, "Ana's page has not heard of the reveal");
  await ana.page.click('#undo');
  const refusal = await errorToast(ana.page, /repris/);
  assert.match(refusal, /Aucun de vos coups ne peut plus être repris/);
  await waitRound(ana.page, 2);
  await ana.page.waitForSelector('#undo', { state: 'hidden' });
  const placed = async (/** @type {Page} */ p) => p.locator('.mc-other .building').count();
  assert.equal(await placed(ana.page), await placed(bruno.page), 'both see the same cities after the reveal');

  for (const p of [ana, bruno]) assert.deepEqual(p.errors, [], 'no script errors');
  for (const p of [ana, bruno]) await p.ctx.close();
});

test('a bot stands in for a player who leaves, round after round, until he opens the table again, in French', { timeout: 120_000 }, async () => {
  const ana = await browser.person();
  const bruno = await browser.person();
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  const invite = await createTableThroughApi(ana.page, 'Ana', 'my-city', {
    seats: 2,
    options: {},
    spectators_allowed: true,
    public: false,
    stand_in: { level: 'greedy', after_misses: 2 },
  });
  await bruno.page.goto(server.url);
  await bruno.page.click('#lang-switch');
  await takeSeatFromInvite(bruno.page, server.url + invite, 'Bruno');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page]) {
    await waitPlaying(p);
    await p.waitForSelector('.mc #mc-card');
  }

  // Bruno closes his page: the bot decides for him, round after round, and
  // his seat says so; the game goes on for Ana.
  await bruno.page.close();
  for (const round of [1, 2]) {
    await placeBuilding(ana.page);
    await waitRound(ana.page, round + 1);
  }
  await ana.page.waitForSelector('.seat[data-seat="1"] .badge.stand-in');
  assert.match((await ana.page.textContent('.seat[data-seat="1"] .badge.stand-in')) ?? '', /a bot plays for now/);
  const brunoCity = () => ana.page.locator('.mc-other[data-seat="1"] .building').count();
  const builtForHim = await brunoCity();

  // He opens the table again: his seat is his, and the round waits for him.
  const again = await bruno.ctx.newPage();
  await again.goto(server.url + invite);
  await waitPlaying(again);
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(:has(.badge.stand-in))');
  assert.equal(await again.locator('.seat.me .badge.stand-in').count(), 0);
  assert.match((await again.textContent('#cue')) ?? '', /Quand c’est à vous/);
  // The bot may have decided this round for him before he came back: then it
  // goes by, and the next one waits for him.
  await again.waitForSelector('.mc[data-round]');
  if ((await again.getAttribute('.mc', 'data-mine')) !== 'yes') {
    const r = await roundOf(ana.page);
    await placeBuilding(ana.page);
    await waitRound(ana.page, r + 1);
  }
  await again.waitForSelector('.mc[data-mine="yes"]');
  const round = await roundOf(again);
  await placeBuilding(ana.page);
  await again.waitForTimeout(2500);
  assert.equal(await roundOf(again), round, 'no bot decides for him now');
  await placeBuilding(again);
  await waitRound(ana.page, round + 1);
  assert.ok((await brunoCity()) >= builtForHim);
  assert.deepEqual(ana.errors, [], 'no script errors');
  await ana.ctx.close();
  await bruno.ctx.close();
});

test('a turn-based My City table in French: the webhook of a player away reminds him after a restart, and its link brings him back', { timeout: 120_000 }, async () => {
  const hook = await startWebhookReceiver();
  const ana = await browser.person();
  const bruno = await browser.person();
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  const links = await createTable(ana.page, { game: 'my-city', seats: 2, timer: 86_400 });
  assert.match((await ana.page.textContent('#timer-summary')) ?? '', /1 d per move \(turn-based\)/);
  await bruno.page.goto(server.url);
  await bruno.page.click('#lang-switch');
  await takeSeatFromInvite(bruno.page, links.invite, 'Bruno');
  // Bruno gives his webhook, in French.
  await bruno.page.fill('#webhook-url', hook.url);
  await bruno.page.click('#webhook-save');
  await bruno.page.waitForSelector('#webhook-state');
  assert.match((await bruno.page.textContent('#webhook-state')) ?? '', /Votre webhook est prévenu/);
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page]) {
    await waitPlaying(p);
    await p.waitForSelector('.mc #mc-card');
  }

  // Bruno closes his page; Ana decides: the round waits for him alone, and
  // his webhook is told, in French.
  await bruno.page.close();
  await ana.page.waitForSelector('.seat[data-seat="1"] .badge.gone');
  assert.equal(hook.posts.length, 0, 'the round began while his page was open: no post yet');
  await placeBuilding(ana.page);
  await ana.page.waitForSelector('#mc-pending');
  const code = links.invite.split('/t/')[1];
  const yourTurn = new RegExp(`^À vous de jouer à la table de My City \\(encore (3 j 0 h|2 j 23 h)\\) : /t/${code}$`);
  const [told] = await hook.waitPosts(1);
  assert.ok(told, 'a post came');
  assert.match(told.content, yourTurn);
  assert.deepEqual([told.citytable[0].event, told.citytable[0].game, told.citytable[0].seat], ['your_turn', 'my-city', 1]);
  const version = await ana.page.evaluate(() => /** @type {any} */ (window).citytable.version());

  // The server restarts: Ana's hidden decision is still hers, the clock is a
  // day and the reserve, and Bruno's webhook is reminded.
  await server.restart();
  await ana.page.waitForFunction((v) => document.body.dataset.conn === 'open' && /** @type {any} */ (window).citytable.version() === v, version, { timeout: 20_000 });
  await ana.page.waitForSelector('#mc-pending');
  await ana.page.waitForFunction(() => /◷ (3 d 0 h|2 d 23 h)/.test(document.querySelector('#timer')?.textContent ?? ''));
  const post = (await hook.waitPosts(2))[1];
  assert.ok(post, 'a reminder came');
  assert.match(post.content, yourTurn);
  assert.deepEqual(Object.keys(post.citytable[0]).sort(), ['event', 'game', 'link', 'seat', 'table', 'time_left_ms'], 'nothing of the decisions');

  // The link in the post brings him back to his seat; his decision reveals the round.
  const again = await bruno.ctx.newPage();
  await again.goto(server.url + post.citytable[0].link);
  await waitPlaying(again);
  await again.waitForSelector('.seat.me[data-seat="1"]');
  await placeBuilding(again);
  for (const p of [ana.page, again]) await waitRound(p, 2);
  assert.equal(await again.locator('.mc-other[data-seat="0"] .building').count(), 1, "after the reveal he sees Ana's building");
  assert.equal(hook.posts.length, 2, 'he was back: no other post');
  assert.deepEqual([ana.errors, bruno.errors], [[], []], 'no script errors');
  await ana.ctx.close();
  await bruno.ctx.close();
  hook.close();
});
