// Tic-tac-toe against the real server: two players and a spectator in separate
// browser contexts, chat, an illegal move, a reload, the end of the game and replay.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shot, serverBin } from '../harness.js';
import { giveName, createTable, createTableThroughApi, waitPlaying, pageToPlay, errorToast, fairChecks, takeSeatFromInvite, downloadAndVerifyRecord, watchRecordFile, startWebhookReceiver } from './helpers.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;

before(async () => {
  // A player gone on his turn gets a stand-in bot after 1.5 s (30 s by default).
  server = await startServer({ LEFT_GRACE_MS: '1500', WEBHOOK_ALLOW_LOCAL: '1' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** @param {import('playwright-core').Page} page */
async function cells(page) {
  return page.$$eval('.ttt-cell', (els) => els.map((e) => e.getAttribute('data-owner') ?? ''));
}

test('two players and a spectator play a whole game of tic-tac-toe', async () => {
  const ana = await browser.person();
  const bruno = await browser.person();
  const cleo = await browser.person();

  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  await shot(ana.page, 'home');
  const links = await createTable(ana.page, { game: 'tic-tac-toe' });
  assert.match(links.invite, /\/t\/[A-Za-z0-9_-]+$/);
  assert.ok(links.spectate, 'a spectator link is offered');

  // Bruno pastes the invite link on the home page.
  await bruno.page.goto(server.url);
  await giveName(bruno.page, 'Bruno');
  await bruno.page.fill('#join-code', links.invite);
  await bruno.page.click('#join button[type="submit"]');
  await bruno.page.waitForURL(links.invite);
  await bruno.page.click('[data-action="take-seat"]');
  await bruno.page.waitForSelector('.seat.me[data-seat="1"]');

  // The invite link says who invites whom to what; a spectator link needs no name.
  const guest = await browser.person();
  await guest.page.goto(links.invite);
  await guest.page.waitForSelector('#invitation:has-text("Ana invited you to Tic-tac-toe: 2 of 2 seats taken")');
  await guest.ctx.close();
  await cleo.page.goto(/** @type {string} */ (links.spectate));
  await cleo.page.waitForSelector('#lobby');
  assert.equal(await cleo.page.locator('#name-input').count(), 0, 'no name asked of a spectator');
  await ana.page.waitForSelector('.seat[data-seat="1"] .presence.online');
  await shot(ana.page, 'ttt-lobby');

  // Chat reaches everyone, spectators included.
  await bruno.page.fill('#chat-input', 'hello table');
  await bruno.page.press('#chat-input', 'Enter');
  for (const p of [ana.page, cleo.page]) await p.waitForSelector('#chat-lines li:has-text("hello table")');

  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page, cleo.page]) await waitPlaying(p);
  assert.equal(await cleo.page.locator('#spectator-badge').count(), 1);
  // Everyone is shown the same seal of the game's shuffles, and nothing it hides.
  await cleo.page.click('#fair summary');
  const sealedAtStart = (await cleo.page.textContent('#fair-commitment-shown')) ?? '';
  assert.match(sealedAtStart, /^[0-9a-f]{64}$/);
  assert.equal(await ana.page.getAttribute('#fair', 'data-commitment'), sealedAtStart);

  // The player not on turn is refused; nothing changes.
  const first = await pageToPlay([ana.page, bruno.page]);
  const second = first === ana.page ? bruno.page : ana.page;
  assert.match(await first.title(), /Your turn/);
  assert.doesNotMatch(await second.title(), /Your turn/);
  await second.click('.ttt-cell[data-cell="4"]');
  assert.match(await errorToast(second), /not your turn/i);
  assert.deepEqual(await cells(first), ['', '', '', '', '', '', '', '', '']);

  // First player takes the centre; marking it again is refused with the rule's words.
  await first.click('.ttt-cell[data-cell="4"]');
  await second.waitForSelector('.ttt-cell[data-cell="4"][data-owner]:not([data-owner=""])');
  await second.click('.ttt-cell[data-cell="4"]');
  assert.match(await errorToast(second, /already marked/i), /already marked/i);
  const afterIllegal = await cells(second);
  assert.equal(afterIllegal.filter((c) => c !== '').length, 1, 'the refused move changed nothing');

  // A player who leaves is shown plainly as disconnected, with how long.
  const secondSeat = await second.locator('.seat.me').getAttribute('data-seat');
  const tableUrl = second.url();
  await second.goto('about:blank');
  const gone = first.locator(`.seat[data-seat="${secondSeat}"] .badge.gone`);
  await gone.waitFor();
  assert.match((await gone.textContent()) ?? '', /disconnected just now/);
  await second.goto(tableUrl);
  await gone.waitFor({ state: 'detached' });

  // A reload puts the second player back in his seat, and it is still his turn.
  await second.reload();
  await waitPlaying(second);
  await second.waitForSelector('#turn-banner.mine');
  assert.equal(await second.locator('.seat.me').count(), 1);

  // Play on to a win for the first player: 4, 0, 3, 1, 5.
  await second.click('.ttt-cell[data-cell="0"]');
  await first.waitForSelector('#turn-banner.mine');

  // The server restarts: every page says the connection is lost, comes back by
  // itself to the same seats and the same game, and play goes on.
  const restarting = server.restart();
  await cleo.page.waitForSelector('#conn-status[data-state="lost"]');
  await restarting;
  for (const p of [ana.page, bruno.page, cleo.page]) {
    await p.waitForSelector('#conn-status[data-state="open"]', { timeout: 20_000 });
    await p.waitForFunction(() => document.querySelectorAll('.ttt-cell:not([data-owner=""])').length === 2);
  }
  await first.waitForSelector('#turn-banner.mine');
  await first.click('.ttt-cell[data-cell="3"]');
  await second.waitForSelector('#turn-banner.mine');
  await second.click('.ttt-cell[data-cell="1"]');
  await first.waitForSelector('#turn-banner.mine');
  await first.click('.ttt-cell[data-cell="5"]');

  for (const p of [ana.page, bruno.page, cleo.page]) {
    await p.waitForSelector('#game-result');
    await p.waitForSelector('#log-lines li');
  }
  const winnerName = first === ana.page ? 'Ana' : 'Bruno';
  assert.match((await cleo.page.textContent('#game-result h2')) ?? '', new RegExp(`${winnerName} wins`));
  await shot(ana.page, 'ttt-end');

  // Someone who opens the link only now reads the same game log as those who watched.
  const dana = await browser.person();
  await dana.page.goto(/** @type {string} */ (links.spectate));
  await dana.page.waitForSelector('#game-result');
  const logLines = (/** @type {import('playwright-core').Page} */ p) => p.$$eval('#log-lines li', (els) => els.map((e) => e.textContent));
  const watched = await logLines(cleo.page);
  assert.equal(watched.length, 5, 'one line per move');
  assert.deepEqual(await logLines(dana.page), watched);
  assert.deepEqual(dana.errors, [], 'no script errors');
  await dana.ctx.close();

  // Step-by-step replay from the game record.
  await cleo.page.click('#replay-button');
  await cleo.page.waitForSelector('#replay');
  assert.match((await cleo.page.textContent('#replay-counter')) ?? '', /5 of 5/);
  await cleo.page.click('#replay-first');
  const replayCells = await cleo.page.$$eval('#replay .ttt-cell', (els) => els.filter((e) => e.getAttribute('data-owner')).length);
  assert.equal(replayCells, 0, 'the first step is the empty board');
  await cleo.page.click('#replay-next');
  const oneMark = await cleo.page.$$eval('#replay .ttt-cell', (els) => els.filter((e) => e.getAttribute('data-owner')).length);
  assert.equal(oneMark, 1);

  // The replay proves the shuffles: the revealed seed is the one sealed at the
  // start, which this browser was shown, and it replays into this very game.
  const checks = await fairChecks(cleo.page);
  assert.deepEqual([checks.commitment, checks.seen, checks.replay], ['matches', true, 'matches'], checks.text);
  assert.match(checks.text, /5 moves deals exactly/);
  await shot(cleo.page, 'ttt-replay-fair');

  // The record downloads as one JSON file: the setup with its seed, salt and
  // commitment, every move, the outcome; the command line verifies it, and
  // fails a copy whose seed was changed.
  const { record, path: recordPath, forgedPath } = await downloadAndVerifyRecord(cleo.page, serverBin(), 'tic-tac-toe', sealedAtStart);
  assert.equal(record.entries.length, 5, 'every move');
  await cleo.page.click('#replay-close');

  // Someone else watches it from the file, on the home page; a file that is not a
  // record is refused in words.
  const erin = await browser.person();
  await erin.page.goto(server.url);
  await erin.page.setInputFiles('#record-file', { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"game":"tic-tac-toe"}') });
  assert.match(await errorToast(erin.page), /not a CityTable game record/);
  assert.equal(await erin.page.locator('#replay').count(), 0);
  const erinChecks = await watchRecordFile(erin.page, recordPath);
  assert.match((await erin.page.textContent('#replay-counter')) ?? '', /5 of 5/);
  assert.deepEqual([erinChecks.commitment, erinChecks.seen, erinChecks.replay], ['matches', false, 'matches'], 'Erin never saw the game start');
  const finalMarks = await erin.page.$$eval('#replay .ttt-cell', (els) => els.filter((e) => e.getAttribute('data-owner')).length);
  assert.equal(finalMarks, 5, 'the last step is the final board');
  await erin.page.click('#replay-first');
  await erin.page.click('#replay-close');
  await erin.page.waitForSelector('#replay', { state: 'detached' });
  await erin.page.waitForSelector('#record-file');
  const forgedChecks = await watchRecordFile(erin.page, forgedPath);
  // (Tic-tac-toe's seed only picks who starts, so the forged seed may well replay
  // into the same game; the seal is what gives it away. server/tests/fairness.rs
  // shows Big City's and My City's replays parting from a forged seed.)
  assert.equal(forgedChecks.commitment, 'differs', forgedChecks.text);
  assert.match(forgedChecks.text, /✗ The revealed seed is not the one sealed/);
  await erin.page.click('#replay-close');
  assert.deepEqual(erin.errors, [], 'no script errors');
  await erin.ctx.close();

  // Play again: the host starts a new game with the same seats.
  await ana.page.click('#play-again');
  for (const p of [ana.page, bruno.page]) {
    await p.waitForFunction(() => document.querySelectorAll('.ttt-cell[data-owner]:not([data-owner=""])').length === 0 && !document.querySelector('#game-result h2'));
  }
  // The new game's first move, then a reload: the log holds that move alone.
  const opener = await Promise.race([ana.page, bruno.page].map((p) => p.waitForSelector('#turn-banner.mine').then(() => p)));
  await opener.click('.ttt-cell[data-cell="0"]');
  await cleo.page.waitForFunction(() => document.querySelectorAll('.ttt-cell:not([data-owner=""])').length === 1);
  await cleo.page.reload();
  await cleo.page.waitForFunction(() => document.querySelectorAll('.ttt-cell:not([data-owner=""])').length === 1);
  await cleo.page.waitForSelector('#log-lines li');
  assert.equal((await logLines(cleo.page)).length, 1, 'only the new game in the log');

  for (const p of [ana, bruno, cleo]) assert.deepEqual(p.errors, [], 'no script errors');
  for (const p of [ana, bruno, cleo]) await p.ctx.close();
});

/**
 * Clicks the lowest free cell on `page`, once its turn has come.
 * @param {import('playwright-core').Page} page
 */
async function playLowest(page) {
  await page.waitForSelector('#turn-banner.mine');
  const free = await page.$$eval('.ttt-cell', (els) => els.filter((e) => !e.getAttribute('data-owner')).map((e) => e.getAttribute('data-cell')));
  const before = 9 - free.length;
  await page.click(`.ttt-cell[data-cell="${free[0]}"]`);
  await page.waitForFunction((n) => document.querySelectorAll('.ttt-cell:not([data-owner=""])').length > n, before);
}

/**
 * Opens the finished game's replay on `page` and returns the caption of every
 * move, first to last; closes it again.
 * @param {import('playwright-core').Page} page
 */
async function replayCaptions(page) {
  await page.click('#replay-button');
  await page.waitForSelector('#replay');
  const steps = Number(await page.getAttribute('#replay-slider', 'max'));
  await page.click('#replay-first');
  const captions = [];
  for (let step = 0; step < steps; step++) {
    await page.click('#replay-next');
    captions.push((await page.textContent('#replay-caption')) ?? '');
  }
  await page.click('#replay-close');
  return captions;
}

test('a bot stands in for a player who leaves on his turn, until he comes back', async () => {
  const ana = await browser.person();
  const bruno = await browser.person();
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  const links = await createTable(ana.page, { game: 'tic-tac-toe' });
  // The host chooses a stand-in in the settings; everyone sees it.
  await ana.page.click('#settings summary');
  await ana.page.selectOption('#settings-stand-in', '2');
  await ana.page.selectOption('#settings-stand-in-level', 'random');
  await ana.page.click('#apply-settings');
  await takeSeatFromInvite(bruno.page, links.invite, 'Bruno');
  assert.match((await bruno.page.textContent('#stand-in-summary')) ?? '', /Bot stand-in \(easy\): after 2 missed turns in a row, or once gone/);
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page]) await waitPlaying(p);

  // Ana plays until it is Bruno's turn; then Bruno closes his page.
  if ((await pageToPlay([ana.page, bruno.page])) === ana.page) await playLowest(ana.page);
  await bruno.page.waitForSelector('#turn-banner.mine');
  const marks = () => ana.page.$$eval('.ttt-cell', (els) => els.filter((e) => e.getAttribute('data-owner')).length);
  const before = await marks();
  await bruno.page.close();
  // A bot plays for him, and his seat says so.
  await ana.page.waitForSelector('.seat[data-seat="1"] .badge.stand-in', { timeout: 10_000 });
  await ana.page.waitForFunction((n) => document.querySelectorAll('.ttt-cell:not([data-owner=""])').length > n, before, { timeout: 10_000 });
  assert.match((await ana.page.textContent('.seat[data-seat="1"]')) ?? '', /a bot plays for now/);
  await shot(ana.page, 'ttt-stand-in');

  // He opens the invite link again (while Ana thinks): his seat is his, and he
  // plays his next turn himself.
  const back = await bruno.ctx.newPage();
  await back.goto(links.invite);
  await back.waitForSelector('.seat.me[data-seat="1"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(:has(.badge.stand-in))');
  for (let i = 0; i < 9; i++) {
    const next = await Promise.race([
      ana.page.waitForSelector('#game-result h2').then(() => null),
      pageToPlay([ana.page, back]).catch(() => null),
    ]);
    if (!next) break;
    await playLowest(next);
  }
  for (const p of [ana.page, back]) await p.waitForSelector('#game-result h2');

  // The replay says which move the bot made for him, in English and French.
  const captions = await replayCaptions(ana.page);
  const byBot = captions.filter((c) => c.includes('(a bot, for Bruno)'));
  assert.equal(byBot.length, 1, captions.join(' | '));
  assert.ok(captions.some((c) => c.startsWith('Bruno') && !c.includes('a bot')), 'and his own moves are his');
  await ana.page.click('#lang-switch');
  await ana.page.waitForSelector('#game-result');
  const french = await replayCaptions(ana.page);
  assert.ok(french.some((c) => /\(un robot, pour Bruno\)/.test(c)), french.join(' | '));
  assert.deepEqual(ana.errors, [], 'no script errors');
  assert.deepEqual(bruno.errors, [], 'no script errors');
  await ana.ctx.close();
  await bruno.ctx.close();
});

test('a player who misses his turn gets a stand-in until he says he is back', async () => {
  const ana = await browser.person();
  const bruno = await browser.person();
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  // An 8 s turn timer (the page offers 30 s and more).
  const invite = await createTableThroughApi(ana.page, 'Ana', 'tic-tac-toe', {
    seats: 2,
    options: {},
    turn_seconds: 8,
    spectators_allowed: true,
    public: false,
    stand_in: { level: 'greedy', after_misses: 1 },
  });
  await takeSeatFromInvite(bruno.page, server.url + invite, 'Bruno');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page]) await waitPlaying(p);

  // Ana plays her turns; Bruno lets his run out once: from then on a bot plays
  // for him, and his page offers to take his seat back.
  const done = () => ana.page.locator('#game-result h2').count();
  while (!(await bruno.page.locator('[data-action="back"]').count()) && !(await done())) {
    if (await ana.page.locator('#turn-banner.mine').count()) await playLowest(ana.page);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(await done(), 0, 'the game goes on');
  await bruno.page.waitForSelector('.seat.me .badge.stand-in');
  await bruno.page.click('[data-action="back"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(:has(.badge))');
  await bruno.page.waitForSelector('[data-action="back"]', { state: 'detached' });
  // His next turn is his own: the board waits for his click (unless Ana wins first).
  let brunoPlayed = false;
  while (!brunoPlayed && !(await done())) {
    const next = await pageToPlay([ana.page, bruno.page]).catch(() => null);
    if (!next) break;
    await playLowest(next);
    brunoPlayed = next === bruno.page;
  }
  assert.ok(brunoPlayed || (await done()), 'Bruno played his next turn himself');
  assert.deepEqual([ana.errors, bruno.errors], [[], []], 'no script errors');
  await ana.ctx.close();
  await bruno.ctx.close();
});

test('a public table with a turn timer, listed on the home page; the host plays a bot', async () => {
  const ana = await browser.person();
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  const links = await createTable(ana.page, { game: 'tic-tac-toe', publicTable: true, timer: 30 });
  const code = links.invite.split('/t/')[1];

  const dev = await browser.person();
  await dev.page.goto(server.url);
  await giveName(dev.page, 'Dev');
  const listed = dev.page.locator(`#public-tables li[data-code="${code}"]`);
  await listed.waitFor();
  assert.match((await listed.textContent()) ?? '', /host: Ana/);
  assert.match((await listed.textContent()) ?? '', /1\/2 seats/);
  await dev.ctx.close();

  assert.equal(await ana.page.isDisabled('#start-button'), true, 'an empty seat: no start yet');
  await ana.page.click('.seat[data-seat="1"] [data-action="add-bot"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(.empty)');
  await ana.page.click('.seat[data-seat="1"] [data-action="kick"]');
  await ana.page.waitForSelector('.seat[data-seat="1"].empty');
  await ana.page.selectOption('.seat[data-seat="1"] .bot-adder select', 'random');
  await ana.page.click('.seat[data-seat="1"] [data-action="add-bot"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(.empty)');
  assert.match((await ana.page.textContent('.seat[data-seat="1"] .name')) ?? '', /Bot \(easy\)/);
  await ana.page.click('#start-button');
  await waitPlaying(ana.page);
  await ana.page.waitForFunction(() => /^◷ 0:[0-3]\d$/.test(document.querySelector('#timer')?.textContent ?? ''));
  // Ana plays the lowest free cell whenever it is her turn, until the game ends.
  for (let i = 0; i < 9; i++) {
    await ana.page.waitForSelector('#turn-banner.mine, #game-result h2');
    if (await ana.page.locator('#game-result h2').count()) break;
    const free = await ana.page.$$eval('.ttt-cell', (els) => els.filter((e) => !e.getAttribute('data-owner')).map((e) => e.getAttribute('data-cell')));
    await ana.page.click(`.ttt-cell[data-cell="${free[0]}"]`);
    await ana.page.waitForFunction((n) => document.querySelectorAll('.ttt-cell:not([data-owner=""])').length > n || document.querySelector('#game-result h2'), 9 - free.length);
  }
  await ana.page.waitForSelector('#game-result h2');
  // The replay names the bot as the table does, and a focused slider's arrow key
  // moves one step, not two.
  await ana.page.click('#replay-button');
  await ana.page.waitForSelector('#replay-slider');
  await ana.page.click('#replay-first');
  await ana.page.focus('#replay-slider');
  const captions = [];
  for (const step of ['1', '2']) {
    await ana.page.keyboard.press('ArrowRight');
    assert.equal(await ana.page.inputValue('#replay-slider'), step);
    assert.match((await ana.page.textContent('#replay-counter')) ?? '', new RegExp(`\\b${step}\\b`));
    captions.push((await ana.page.textContent('#replay-caption')) ?? '');
  }
  assert.ok(captions.some((c) => /Bot \(easy\) 2/.test(c)), `the bot's move is named: ${captions}`);
  await ana.page.click('#replay-close');
  // Back to the lobby: seats can change before the next game.
  await ana.page.click('#back-to-lobby');
  await ana.page.waitForSelector('#lobby');
  await ana.page.click('.seat[data-seat="1"] [data-action="kick"]');
  await ana.page.waitForSelector('.seat[data-seat="1"].empty');
  await ana.page.click('.seat[data-seat="1"] [data-action="add-bot"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(.empty)');
  await ana.page.click('#start-button');
  await waitPlaying(ana.page);
  assert.deepEqual(ana.errors, []);
  await ana.ctx.close();
});

test('the language follows the browser and the switch changes it', async () => {
  const fr = await browser.person({ locale: 'fr-FR' });
  await fr.page.goto(server.url);
  await fr.page.waitForSelector('#name-input');
  assert.match((await fr.page.textContent('#create h2')) ?? '', /Créer une table/);
  await giveName(fr.page, 'Zoé');
  await fr.page.waitForSelector('#game-select option[value="big-city"]', { state: 'attached' });
  await shot(fr.page, 'home-fr');
  await fr.page.click('#lang-switch');
  assert.match((await fr.page.textContent('#create h2')) ?? '', /Create a table/);
  await fr.page.reload();
  assert.match((await fr.page.textContent('#create h2')) ?? '', /Create a table/, 'the choice is remembered');
  assert.deepEqual(fr.errors, []);
  await fr.ctx.close();
});

test('a name typed but not saved is used to create a table', async () => {
  const p = await browser.person();
  await p.page.goto(server.url);
  await p.page.locator('#name-input').fill('Zoé');
  await createTable(p.page, { game: 'tic-tac-toe' });
  assert.match((await p.page.textContent('#lobby')) ?? '', /Zoé/);
  assert.equal(await p.page.locator('.toast').count(), 0, 'no "choose a name" message');
  assert.deepEqual(p.errors, []);
  await p.ctx.close();
});

test('a cue when the turn comes back to a hidden tab; the sound switch is remembered', async () => {
  const ana = await browser.person();
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  await createTable(ana.page, { game: 'tic-tac-toe' });
  await ana.page.click('.seat[data-seat="1"] [data-action="add-bot"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(.empty)');
  await ana.page.click('#start-button');
  await waitPlaying(ana.page);
  await ana.page.waitForSelector('#turn-banner.mine');
  // Ana looks at another tab while the bot answers her move.
  await ana.page.evaluate(() => Object.defineProperty(document, 'hidden', { value: true, configurable: true }));
  const free = await ana.page.$$eval('.ttt-cell', (els) => els.filter((e) => !e.getAttribute('data-owner')).map((e) => e.getAttribute('data-cell')));
  await ana.page.click(`.ttt-cell[data-cell="${free[0]}"]`);
  await ana.page.waitForSelector('body[data-turn-cues="1"]');
  assert.match((await ana.page.textContent('#cue-sound')) ?? '', /Sound on/);
  await ana.page.click('#cue-sound');
  assert.match((await ana.page.textContent('#cue-sound')) ?? '', /Sound off/);
  await ana.page.reload();
  await ana.page.waitForSelector('#cue-sound');
  assert.match((await ana.page.textContent('#cue-sound')) ?? '', /Sound off/, 'the choice is remembered');
  assert.deepEqual(ana.errors, []);
  await ana.ctx.close();
});

test('a cue when the time to decide runs low in a hidden tab, once per decision, in French', async () => {
  const ana = await browser.person();
  await ana.page.goto(server.url);
  await ana.page.click('#lang-switch');
  await giveName(ana.page, 'Ana');
  await createTableThroughApi(ana.page, 'Ana', 'tic-tac-toe', { seats: 2, options: {}, turn_seconds: 9, spectators_allowed: false, public: false });
  assert.match((await ana.page.textContent('#cue')) ?? '', /que votre temps s’épuise/);
  await ana.page.click('.seat[data-seat="1"] [data-action="add-bot"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(.empty)');
  await ana.page.click('#start-button');
  await waitPlaying(ana.page);
  await ana.page.waitForSelector('#turn-banner.mine');
  const version = await ana.page.evaluate(() => /** @type {any} */ (window).citytable.version());
  // Ana looks at another tab and lets her time run: one cue, a few seconds
  // (a third of the 9 s) before the end.
  await ana.page.evaluate(() => Object.defineProperty(document, 'hidden', { value: true, configurable: true }));
  await ana.page.waitForSelector('body[data-low-time-cues="1"]', { timeout: 12_000 });
  const left = (await ana.page.textContent('#timer')) ?? '';
  assert.match(left, /0:0[1-3]/, `cued with a few seconds left: ${left}`);
  assert.equal(await ana.page.getAttribute('body', 'data-turn-cues'), null, 'her turn had come before she looked away');
  // The timer runs out and the game moves on: that decision was cued once.
  await ana.page.waitForFunction((v) => /** @type {any} */ (window).citytable.version() > v, version, { timeout: 15_000 });
  assert.equal(await ana.page.getAttribute('body', 'data-low-time-cues'), '1', 'once for that decision');
  assert.deepEqual(ana.errors, []);
  await ana.ctx.close();
});

test('My tables lists the tables this browser holds seats at, waiting-for-you first, in English and French', async () => {
  const ana = await browser.person();
  const bruno = await browser.person();
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  assert.equal(await ana.page.locator('#my-tables-link').count(), 0, 'no tables kept yet');
  const lobby = await createTable(ana.page, { game: 'big-city', seats: 3 });
  await ana.page.goto(server.url);
  const links = await createTable(ana.page, { game: 'tic-tac-toe', timer: 60 });
  await bruno.page.goto(server.url);
  await bruno.page.click('#lang-switch');
  await takeSeatFromInvite(bruno.page, links.invite, 'Bruno');
  await ana.page.click('#start-button');
  for (const p of [ana.page, bruno.page]) await waitPlaying(p);
  const first = await pageToPlay([ana.page, bruno.page]);

  // From the home page, each opens his list.
  for (const [p, says] of /** @type {[Page, RegExp][]} */ ([
    [ana.page, /My tables \(2\)/],
    [bruno.page, /Mes tables \(1\)/],
  ])) {
    await p.click('.home-link');
    assert.match((await p.textContent('#my-tables-link')) ?? '', says);
    await p.click('#my-tables-link');
    await p.waitForSelector('#my-tables-list .my-table');
  }
  const rows = (/** @type {Page} */ p) =>
    p.$$eval('#my-tables-list .my-table', (els) => els.map((e) => ({ code: e.getAttribute('data-code'), mine: e.getAttribute('data-your-turn'), text: e.textContent ?? '' })));
  const anaRows = await rows(ana.page);
  assert.equal(anaRows.length, 2, JSON.stringify(anaRows));
  const invite = (/** @type {string} */ url) => url.split('/t/')[1];
  assert.equal(anaRows[0].code, invite(links.invite), 'the game in play comes before the lobby');
  assert.equal(anaRows[1].code, invite(lobby.invite));
  assert.match(anaRows[1].text, /Big City.*In the lobby/);
  const [brunoRow] = await rows(bruno.page);
  assert.equal(brunoRow.code, invite(links.invite));
  if (first === ana.page) {
    assert.equal(anaRows[0].mine, 'yes');
    assert.match(anaRows[0].text, /with Bruno.*Your turn · [01]:\d\d left/);
    assert.match(brunoRow.text, /avec Ana.*En attente des autres · encore [01]:\d\d/);
  } else {
    assert.equal(brunoRow.mine, 'yes');
    assert.match(brunoRow.text, /avec Ana.*À vous de jouer · encore [01]:\d\d/);
    assert.match(anaRows[0].text, /with Bruno.*Waiting for the others/);
  }
  await shot(ana.page, 'my-tables');
  // A row opens its table.
  await ana.page.click(`#my-tables-list .my-table[data-code="${invite(links.invite)}"] a`);
  await waitPlaying(ana.page);
  for (const p of [ana, bruno]) assert.deepEqual(p.errors, [], 'no script errors');
  for (const p of [ana, bruno]) await p.ctx.close();
});

test('a turn-based table: a day per move with a reserve and a webhook, across a server restart, in French too', async () => {
  const hook = await startWebhookReceiver();
  const ana = await browser.person();
  await ana.page.goto(server.url);
  await giveName(ana.page, 'Ana');
  const links = await createTable(ana.page, { game: 'tic-tac-toe', timer: 86_400 });
  assert.match((await ana.page.textContent('#timer-summary')) ?? '', /1 d per move \(turn-based\) · a reserve of 2 d 0 h each/);
  await ana.page.click('.seat[data-seat="1"] [data-action="add-bot"]');
  await ana.page.waitForSelector('.seat[data-seat="1"]:not(.empty)');
  await ana.page.click('#start-button');
  await waitPlaying(ana.page);
  // Each seat shows its reserve; the clock counts the day and the reserve.
  for (const seat of [0, 1]) await ana.page.waitForSelector(`.seat[data-seat="${seat}"] .badge.bank[data-bank-ms="172800000"]`);
  assert.match((await ana.page.textContent('.seat[data-seat="0"] .badge.bank')) ?? '', /reserve 2 d 0 h/);
  await ana.page.waitForFunction(() => /◷ (3 d 0 h|2 d 23 h)/.test(document.querySelector('#timer')?.textContent ?? ''));
  // Her webhook, in French: only https is taken, unless the server allows local webhooks (this one does).
  await ana.page.click('#lang-switch');
  await ana.page.fill('#webhook-url', 'ftp://example.com/x');
  await ana.page.click('#webhook-save');
  assert.match(await errorToast(ana.page, /webhook/), /Un webhook est une adresse https/);
  await ana.page.fill('#webhook-url', hook.url);
  await ana.page.click('#webhook-save');
  await ana.page.waitForSelector('#webhook-state');
  await ana.page.waitForSelector('#turn-banner.mine');
  await playLowest(ana.page);
  await ana.page.waitForSelector('#turn-banner.mine');
  const version = await ana.page.evaluate(() => /** @type {any} */ (window).citytable.version());
  assert.equal(hook.posts.length, 0, 'her page is open: no post');

  // The server restarts while the table waits for her: the game, its clock
  // and the reserves are as they were, and her webhook is reminded.
  await server.restart();
  await ana.page.waitForFunction((v) => document.body.dataset.conn === 'open' && /** @type {any} */ (window).citytable.version() === v, version, { timeout: 20_000 });
  for (const seat of [0, 1]) await ana.page.waitForSelector(`.seat[data-seat="${seat}"] .badge.bank[data-bank-ms="172800000"]`);
  await ana.page.waitForFunction(() => /◷ (3 j 0 h|2 j 23 h)/.test(document.querySelector('#timer')?.textContent ?? ''));
  assert.match((await ana.page.textContent('.seat[data-seat="0"] .badge.bank')) ?? '', /réserve 2 j 0 h/);
  const posts = await hook.waitPosts(1);
  assert.equal(posts.length, 1, 'one reminder');
  const code = links.invite.split('/t/')[1];
  assert.match(posts[0].content, new RegExp(`^À vous de jouer à la table de Tic-tac-toe \\(encore (3 j 0 h|2 j 23 h)\\) : /t/${code}$`));
  assert.equal(posts[0].citytable[0].event, 'your_turn');
  // My tables says it waits for her, with the time she has.
  await ana.page.click('.home-link');
  await ana.page.click('#my-tables-link');
  const row = ana.page.locator(`#my-tables-list .my-table[data-code="${code}"]`);
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /À vous de jouer · encore (3 j 0 h|2 j 23 h)/);
  assert.deepEqual(ana.errors, []);
  await ana.ctx.close();
  hook.close();
});

test('a wrong link says so', async () => {
  const p = await browser.person();
  await p.page.goto(server.url);
  await giveName(p.page, 'Ana');
  await p.page.goto(`${server.url}/t/nosuchcode`);
  await p.page.waitForSelector('#bad-link');
  await p.ctx.close();
});

test('home and lobby fit a phone', async () => {
  const p = await browser.person({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await p.page.goto(server.url);
  await giveName(p.page, 'Ana');
  await p.page.waitForSelector('#game-select option[value="big-city"]', { state: 'attached' });
  const overflow = () => p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok((await overflow()) <= 0, 'home fits');
  await shot(p.page, 'phone-home');
  await createTable(p.page, { game: 'big-city', seats: 3 });
  assert.ok((await overflow()) <= 0, 'lobby fits');
  await shot(p.page, 'phone-lobby');
  assert.deepEqual(p.errors, []);
  await p.ctx.close();
});
