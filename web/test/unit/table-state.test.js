// The table page's state: each server message and page action, without a browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialState, reduce, myTurn, currentLegal, canUndo, MAX_CHAT } from '../../src/table/state.js';

/**
 * @typedef {import('../../src/table/state.js').TableState} TableState
 * @typedef {import('../../src/table/state.js').Action} Action
 * @typedef {import('../../src/wire').ServerMsg} ServerMsg
 * @typedef {import('../../src/wire').TableInfo} TableInfo
 */

/** @param {Partial<TableInfo>} [over] @returns {TableInfo} */
function tableInfo(over = {}) {
  return {
    game: 'tic-tac-toe',
    status: 'playing',
    settings: { seats: 2, options: {}, spectators_allowed: true, public: false },
    seats: [
      { seat: 0, occupant: { kind: 'human', name: 'Ana', connected: true, away: false } },
      { seat: 1, occupant: { kind: 'human', name: 'Bo', connected: true, away: false } },
    ],
    host_seat: 0,
    spectators: 0,
    invite_code: 'INVITE',
    spectator_code: 'WATCH',
    ...over,
  };
}

const welcome = /** @type {ServerMsg} */ ({ type: 'welcome', you: { token: 'tok', seat: 0, is_host: true, name: 'Ana' }, table: tableInfo() });

/**
 * @param {number} version
 * @param {any} view
 * @param {any[]} [recent]
 * @param {number} [number]
 * @returns {ServerMsg}
 */
function snapshot(version, view, recent = [], number = 1) {
  return /** @type {ServerMsg} */ ({ type: 'snapshot', game: { number, version, view, awaiting: { seats: [0] }, recent_events: recent } });
}

/**
 * @param {number} version
 * @param {any[]} patch
 * @param {any[]} [events]
 * @returns {ServerMsg}
 */
function update(version, patch, events = []) {
  return { type: 'update', version, events, patch, awaiting: { seats: [version % 2] } };
}

/** Events in words: each event is its own sentence. */
const env = { describe: (/** @type {unknown} */ ev) => String(ev) };

/**
 * Runs messages and actions in order from a fresh state (a server message is given as is).
 * @param {(ServerMsg | Action)[]} steps
 * @param {TableState} [from]
 */
function run(steps, from = initialState('INVITE')) {
  let s = from;
  for (const step of steps) {
    /** @type {Action} */
    const action = 'msg' in step || !isServerMsg(step) ? /** @type {Action} */ (step) : { type: 'server', msg: /** @type {ServerMsg} */ (step), at: 1000 };
    s = reduce(s, action, env);
  }
  return s;
}

/** @param {any} m */
function isServerMsg(m) {
  return ['welcome', 'table', 'snapshot', 'update', 'move_ok', 'legal_moves', 'chat', 'error'].includes(m.type);
}

/** @param {TableState} s */
const sent = (s) => s.effects.filter((e) => e.type === 'send').map((e) => /** @type {any} */ (e).msg);

test('welcome: who I am, the table, and my token kept for both codes', () => {
  const s = run([welcome]);
  assert.equal(s.you?.seat, 0);
  assert.equal(s.table?.status, 'playing');
  assert.deepEqual(s.effects, [{ type: 'keep_token', token: 'tok', codes: ['INVITE', 'INVITE'] }]);
  const spectator = run([{ type: 'welcome', you: { is_host: false, name: 'Eve' }, table: tableInfo() }], initialState('WATCH'));
  assert.deepEqual(spectator.effects, [], 'no token, nothing to keep');
  assert.equal(spectator.you?.seat, undefined);
});

test('table: a changed status or settings drops the host\'s draft; play again clears the game and its log', () => {
  let s = run([welcome, { type: 'draft', settings: { ...tableInfo().settings, seats: 3 } }]);
  assert.equal(s.draft?.seats, 3);
  s = run([{ type: 'table', table: tableInfo({ spectators: 2 }) }], s);
  assert.equal(s.draft?.seats, 3, 'a spectator coming keeps the draft');
  assert.equal(s.table?.spectators, 2);
  s = run([{ type: 'table', table: tableInfo({ settings: { ...tableInfo().settings, public: true } }) }], s);
  assert.equal(s.draft, null);

  s = run([snapshot(3, { cells: [] }, [{ version: 3, events: ['x won'] }]), { type: 'legal_moves', version: 3, moves: [] }], s);
  assert.equal(s.log.lines.length, 1);
  s = run([{ type: 'table', table: tableInfo({ status: 'finished' }) }, { type: 'table', table: tableInfo({ status: 'lobby' }) }], s);
  assert.equal(s.game, null, 'back to the lobby: no game');
  assert.equal(s.legal, null);
  assert.deepEqual(s.log, { game: -1, lines: [] });
  assert.ok(s.effects.some((e) => e.type === 'save_log'));
});

test('snapshot: the game, its timer base and the latest moves\' events in the log', () => {
  const s = reduce(run([welcome]), { type: 'server', msg: snapshot(5, { board: [1] }, [{ version: 4, events: ['four'] }, { version: 5, events: ['five'] }]), at: 777 }, env);
  assert.deepEqual(s.game, { number: 1, version: 5, view: { board: [1] }, awaiting: { seats: [0] }, outcome: undefined, awaitingAt: 777, commitment: undefined });
  assert.ok(!s.effects.some((e) => e.type === 'keep_commitment'), 'no commitment, nothing to keep');
  assert.deepEqual(
    s.log.lines.map((l) => l.text),
    ['five', 'four'],
  );
  assert.ok(myTurn(s));
  // A log kept from another game of the table is dropped.
  const other = reduce(initialState('INVITE', { game: 7, lines: [{ text: 'old', version: 1 }] }), { type: 'server', msg: snapshot(0, {}, [], 8), at: 0 }, env);
  assert.deepEqual(other.log, { game: 8, lines: [] });
});

test('snapshot: the shuffle commitment is kept with the game and remembered by the page', () => {
  const msg = snapshot(0, {});
  const commitment = 'ab'.repeat(32);
  /** @type {any} */ (msg).game.commitment = commitment;
  const s = run([welcome, msg]);
  assert.equal(s.game?.commitment, commitment);
  assert.deepEqual(
    s.effects.filter((e) => e.type === 'keep_commitment'),
    [{ type: 'keep_commitment', commitment, game: 'tic-tac-toe' }],
  );
});

test('snapshot: an outcome finishes the table', () => {
  const msg = snapshot(9, {});
  /** @type {any} */ (msg).game.outcome = { winners: [1], scores: [0, 1] };
  const s = run([welcome, msg]);
  assert.equal(s.table?.status, 'finished');
  assert.equal(myTurn(s), false);
});

test('update: one without `awaiting` keeps whose decision it is and the timer\'s base', () => {
  const before = reduce(run([welcome]), { type: 'server', msg: snapshot(1, { board: [] }), at: 100 }, env);
  const { awaiting: _, ...quiet } = update(2, [], []);
  const s = reduce(before, { type: 'server', msg: /** @type {ServerMsg} */ (quiet), at: 900 }, env);
  assert.equal(s.game?.version, 2);
  assert.deepEqual(s.game?.awaiting, { seats: [0] });
  assert.equal(s.game?.awaitingAt, 100);
  const next = reduce(s, { type: 'server', msg: update(3, [], []), at: 1500 }, env);
  assert.deepEqual(next.game?.awaiting, { seats: [1] });
  assert.equal(next.game?.awaitingAt, 1500);
});

test('update: the next version patches the view and logs its events; the old view is left as it was', () => {
  const before = run([welcome, snapshot(1, { board: [null, null], turn: 0 })]);
  const view = before.game?.view;
  const s = run([update(2, [{ op: 'replace', path: '/board/1', value: 'x' }, { op: 'replace', path: '/turn', value: 1 }], ['x at 1'])], before);
  assert.deepEqual(s.game?.view, { board: [null, 'x'], turn: 1 });
  assert.equal(s.game?.version, 2);
  assert.deepEqual(s.game?.awaiting, { seats: [0] });
  assert.deepEqual(view, { board: [null, null], turn: 0 }, 'the previous state is not changed');
  assert.equal(s.log.lines[0].text, 'x at 1');
  assert.deepEqual(sent(s), []);
});

test('update: a version gap asks for one resync, old versions are dropped, the snapshot ends the wait', () => {
  let s = run([welcome, snapshot(1, { n: 1 })]);
  s = run([update(3, [{ op: 'replace', path: '/n', value: 3 }])], s);
  assert.deepEqual(sent(s), [{ type: 'resync' }]);
  assert.equal(s.resyncing, true);
  assert.equal(s.game?.version, 1, 'the gap is not applied');
  s = run([update(4, [])], s);
  assert.deepEqual(sent(s), [], 'one resync at a time');
  s = run([update(1, [])], s);
  assert.deepEqual(sent(s), []);
  assert.equal(s.game?.version, 1);
  s = run([snapshot(4, { n: 4 })], s);
  assert.equal(s.resyncing, false);
  s = run([update(5, [{ op: 'replace', path: '/n', value: 5 }]), update(5, [])], s);
  assert.equal(s.game?.view.n, 5);
  assert.deepEqual(sent(s), [], 'a repeated version is dropped');
});

test('update: before any snapshot it asks for one', () => {
  const s = run([welcome, update(1, [])]);
  assert.deepEqual(sent(s), [{ type: 'resync' }]);
  assert.equal(s.game, null);
});

test('undo: offered only to the seat awaiting.undo names; sent as a move is, once per version', () => {
  const open = { type: 'status', conn: 'open' };
  const withUndo = (/** @type {number} */ version, /** @type {number | undefined} */ undo) =>
    /** @type {ServerMsg} */ ({ type: 'snapshot', game: { number: 1, version, view: {}, awaiting: { seats: [0], undo }, recent_events: [] } });
  let s = run([open, welcome, withUndo(4, 1)]);
  assert.equal(canUndo(s), false, 'another seat may undo, not me');
  s = run([withUndo(4, 0)], s);
  assert.equal(canUndo(s), true);
  s = run([{ type: 'undo' }], s);
  assert.deepEqual(sent(s), [{ type: 'undo', id: 1, version: 4 }]);
  assert.equal(canUndo(s), false, 'sent: not offered again on this version');
  s = run([{ type: 'undo' }], s);
  assert.deepEqual(sent(s), []);
  // Refused: offered again (the server's awaiting.undo still says so).
  s = run([{ type: 'error', code: 'illegal_move', id: 1, rule: 'nothing_to_undo' }], s);
  assert.deepEqual(s.pending, {});
  assert.equal(canUndo(s), true);
  // Lost with the connection: sent again, as an undo, on the same version.
  s = run([{ type: 'undo' }, { type: 'status', conn: 'lost' }, open, welcome, withUndo(4, 0)], s);
  assert.deepEqual(
    s.effects.filter((e) => e.type === 'send').map((e) => /** @type {any} */ (e).msg),
    [{ type: 'undo', id: 2, version: 4 }],
  );
});

test('update: a patch that does not apply drops the game and resyncs', () => {
  const s = run([welcome, snapshot(1, { n: 1 }), update(2, [{ op: 'remove', path: '/missing' }])]);
  assert.equal(s.game, null);
  assert.equal(s.resyncing, true);
  assert.deepEqual(sent(s), [{ type: 'resync' }]);
});

test('move: one per version, with its id; move_ok and refusals settle it', () => {
  const open = { type: 'status', conn: 'open' };
  let s = run([open, welcome, snapshot(4, {})]);
  s = run([{ type: 'move', mv: { cell: 2 } }], s);
  assert.deepEqual(sent(s), [{ type: 'move', id: 1, version: 4, mv: { cell: 2 } }]);
  assert.deepEqual(s.pending, { 1: { type: 'move', mv: { cell: 2 } } });
  s = run([{ type: 'move', mv: { cell: 3 } }], s);
  assert.deepEqual(sent(s), [], 'a second click on the same version sends nothing');
  s = run([{ type: 'move_ok', id: 1, version: 5 }], s);
  assert.deepEqual(s.pending, {});

  // A refused move may be played again on the same version.
  s = run([{ type: 'move', mv: { cell: 2 } }, { type: 'error', code: 'illegal_move', message: 'taken', id: 1, rule: 'occupied' }], run([open, welcome, snapshot(4, {})]));
  assert.deepEqual(s.pending, {});
  assert.equal(s.movedAtVersion, -1);
  assert.deepEqual(s.effects, [{ type: 'error', err: { type: 'error', code: 'illegal_move', message: 'taken', id: 1, rule: 'occupied' } }]);
  s = run([{ type: 'move', mv: { cell: 5 } }], s);
  assert.deepEqual(sent(s), [{ type: 'move', id: 2, version: 4, mv: { cell: 5 } }]);
  assert.equal(run([{ type: 'move', mv: {} }]).effects.length, 0, 'no game, no move');
});

test('legal moves: asked once per version, and only those of the current version count', () => {
  let s = run([welcome, snapshot(2, { n: 0 })]);
  s = run([{ type: 'ask_legal' }], s);
  assert.deepEqual(sent(s), [{ type: 'legal_moves' }]);
  s = run([{ type: 'ask_legal' }], s);
  assert.deepEqual(sent(s), []);
  s = run([{ type: 'legal_moves', version: 2, moves: [{ cell: 1 }] }], s);
  assert.deepEqual(currentLegal(s), { version: 2, moves: [{ cell: 1 }] });
  s = run([update(3, [])], s);
  assert.equal(currentLegal(s), null, 'stale after the next move');
  s = run([{ type: 'ask_legal' }], s);
  assert.deepEqual(sent(s), [{ type: 'legal_moves' }]);
  // A snapshot (a resync or a reconnection) asks again even on the same version.
  s = run([snapshot(3, {}), { type: 'ask_legal' }], s);
  assert.deepEqual(sent(s), [{ type: 'legal_moves' }]);
});

test('legal moves in parts: each part once per version, the answer keeps its part', () => {
  let s = run([welcome, snapshot(2, { n: 0 })]);
  s = run([{ type: 'ask_legal', of: 'other' }], s);
  assert.deepEqual(sent(s), [{ type: 'legal_moves', of: 'other' }]);
  s = run([{ type: 'ask_legal', of: 'house' }], s);
  assert.deepEqual(sent(s), [{ type: 'legal_moves', of: 'house' }], 'another part of the same version');
  s = run([{ type: 'ask_legal', of: 'other' }], s);
  assert.deepEqual(sent(s), [], 'asked already');
  s = run([{ type: 'ask_legal' }], s);
  assert.deepEqual(sent(s), [{ type: 'legal_moves' }], 'the full list is a part of its own');
  s = run([{ type: 'legal_moves', version: 2, of: 'house', moves: [{ cell: 1 }] }], s);
  assert.deepEqual(currentLegal(s), { version: 2, of: 'house', moves: [{ cell: 1 }] });
  s = run([update(3, []), { type: 'ask_legal', of: 'other' }], s);
  assert.deepEqual(sent(s), [{ type: 'legal_moves', of: 'other' }], 'asked again at the next version');
});

test('chat: lines in order, each kept once across reconnections, at most MAX_CHAT', () => {
  const line = (/** @type {number} */ i) => /** @type {ServerMsg} */ ({ type: 'chat', line: { name: 'Ana', seat: 0, text: `hi ${i}`, at_ms: i } });
  let s = run([welcome, line(1), line(2)]);
  const before = s.chat;
  s = run([welcome, line(1), line(2), line(3)], s);
  assert.deepEqual(
    s.chat.map((c) => c.text),
    ['hi 1', 'hi 2', 'hi 3'],
  );
  assert.equal(before.length, 2, 'the previous state keeps its lines');
  s = run(Array.from({ length: MAX_CHAT + 5 }, (_, i) => line(100 + i)), s);
  assert.equal(s.chat.length, MAX_CHAT);
  assert.equal(s.chat[MAX_CHAT - 1].text, `hi ${100 + MAX_CHAT + 4}`);
});

test('errors: shown; stale version resyncs; a bad token is forgotten and the socket reopened; a missing table ends the page', () => {
  let s = run([welcome, snapshot(1, {}), { type: 'error', code: 'stale_version', message: 'stale' }]);
  assert.deepEqual(sent(s), [{ type: 'resync' }]);
  assert.equal(s.effects.at(-1)?.type, 'error');
  s = run([{ type: 'error', code: 'bad_token', message: 'bad token' }], s);
  assert.deepEqual(s.effects, [{ type: 'forget_token' }, { type: 'reconnect' }]);
  s = run([{ type: 'error', code: 'no_such_table', message: 'gone' }], s);
  assert.equal(s.fatal?.code, 'no_such_table');
});

test('a move whose connection was lost before its answer is sent again when the game has not moved on', () => {
  let s = run([{ type: 'status', conn: 'open' }, welcome, snapshot(4, {}), { type: 'move', mv: { cell: 2 } }]);
  assert.deepEqual(sent(s), [{ type: 'move', id: 1, version: 4, mv: { cell: 2 } }]);
  s = run([{ type: 'status', conn: 'lost' }, { type: 'status', conn: 'open' }, welcome, snapshot(4, {})], s);
  assert.deepEqual(sent(s), [{ type: 'move', id: 1, version: 4, mv: { cell: 2 } }], 'sent again');
  assert.equal(s.movedAtVersion, 4, 'still on its way: no second move');
  s = run([{ type: 'move_ok', id: 1, version: 5 }], s);
  assert.deepEqual(s.pending, {});

  // The game moved on while the connection was away: the move is not sent again.
  s = run([{ type: 'move', mv: { cell: 3 } }], run([welcome, snapshot(5, {})], s));
  s = run([{ type: 'status', conn: 'lost' }, { type: 'status', conn: 'open' }, welcome, snapshot(6, {})], s);
  assert.deepEqual(sent(s), []);
  assert.equal(s.movedAtVersion, -1);
  // A move made while the page reconnects waits for the new connection's snapshot.
  s = run([{ type: 'status', conn: 'lost' }, { type: 'status', conn: 'open' }, welcome, { type: 'move', mv: { cell: 7 } }], s);
  assert.deepEqual(sent(s), [], 'not before the server says where the game is');
  s = run([snapshot(6, {})], s);
  assert.deepEqual(sent(s), [{ type: 'move', id: 3, version: 6, mv: { cell: 7 } }]);
  s = run([{ type: 'move_ok', id: 3, version: 7 }], s);
  // A resync on the same connection never sends a move again: its answer comes first.
  s = run([{ type: 'move', mv: { cell: 4 } }, snapshot(7, {})], s);
  assert.deepEqual(sent(s), []);
});

test('try_again: for a move, shown and the move forgotten; before the socket closes, a silent reconnect', () => {
  let s = run([welcome, snapshot(1, {})]);
  s = run([{ type: 'error', code: 'try_again', message: 'reconnect' }], s);
  assert.deepEqual(s.effects, [], 'no message shown to the player');
  assert.equal(s.fatal, null);
  s.pending = { 7: { type: 'move', id: 7 } };
  s = run([{ type: 'error', code: 'try_again', message: 'not saved', id: 7 }], s);
  assert.deepEqual(s.pending, {});
  assert.equal(s.effects.at(-1)?.type, 'error');
});

test('reconnection: a lost socket before any welcome checks the code; the open socket ends a pending resync', () => {
  let s = run([{ type: 'status', conn: 'connecting' }, { type: 'status', conn: 'lost' }]);
  assert.deepEqual(s.effects, [{ type: 'check_code' }]);
  s = run([{ type: 'status', conn: 'open' }, welcome, snapshot(1, {}), update(3, [])], s);
  assert.equal(s.resyncing, true);
  s = run([{ type: 'status', conn: 'lost' }], s);
  assert.deepEqual(s.effects, [], 'known table: just reconnect');
  assert.equal(s.conn, 'lost');
  s = run([{ type: 'status', conn: 'open' }], s);
  assert.equal(s.resyncing, false);
  // The welcome and snapshot of the new connection bring the table back.
  s = run([welcome, snapshot(3, { n: 3 })], s);
  assert.equal(s.game?.version, 3);
  assert.equal(s.conn, 'open');
});

test('games and links: the table\'s game info, and a spectator link', () => {
  const games = /** @type {any[]} */ ([{ id: 'big-city', min_seats: 2, max_seats: 5 }, { id: 'tic-tac-toe', min_seats: 2, max_seats: 2 }]);
  let s = run([{ type: 'games', games }]);
  assert.equal(s.info, undefined, 'no table yet');
  s = run([welcome], s);
  assert.equal(s.info?.id, 'tic-tac-toe');
  s = run([{ type: 'code_info', spectator: true }, { type: 'bad_link' }], s);
  assert.equal(s.spectatorLink, true);
  assert.equal(s.badLink, true);
});

test('replay: opens at the end, steps within the record, playing from the end starts over', () => {
  const record = /** @type {any} */ ({ patches: [[], [], []], entries: [], names: [], first_view: {} });
  let s = run([{ type: 'replay_open', record }]);
  assert.equal(s.replay?.step, 3);
  s = run([{ type: 'replay_show', step: 9 }], s);
  assert.equal(s.replay?.step, 3);
  s = run([{ type: 'replay_show', step: -1 }], s);
  assert.equal(s.replay?.step, 0);
  s = run([{ type: 'replay_show', step: 3 }, { type: 'replay_play', playing: true }], s);
  assert.deepEqual({ step: s.replay?.step, playing: s.replay?.playing }, { step: 0, playing: true });
  s = run([{ type: 'replay_close' }], s);
  assert.equal(s.replay, null);
});
