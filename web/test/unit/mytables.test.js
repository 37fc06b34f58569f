// "My tables": the order of the list and the time left as it is written.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortTables, isMyTurn } from '../../src/mytables.js';
import { formatDuration } from '../../src/countdown.js';

/** @typedef {import('../../src/wire').MyTable} MyTable */

/**
 * @param {string} code
 * @param {Partial<MyTable>} over
 * @returns {MyTable}
 */
function table(code, over) {
  return { code, game: 'big-city', status: 'playing', seat: 0, others: ['Bo'], bots: 0, awaiting: [1], changed_ms: 0, ...over };
}

test('my turn first, least time left first; then games in play, lobbies, finished games, latest first', () => {
  const tables = [
    table('done', { status: 'finished', changed_ms: 9 }),
    table('lobby', { status: 'lobby', changed_ms: 5 }),
    table('theirs-old', { changed_ms: 1 }),
    table('mine-no-clock', { awaiting: [0] }),
    table('theirs-new', { changed_ms: 7 }),
    table('mine-late', { awaiting: [0, 1], time_left_ms: 90_000 }),
    table('mine-soon', { awaiting: [0], time_left_ms: 5_000 }),
  ];
  assert.deepEqual(
    sortTables(tables).map((x) => x.code),
    ['mine-soon', 'mine-late', 'mine-no-clock', 'theirs-new', 'theirs-old', 'lobby', 'done'],
  );
  assert.equal(isMyTurn(table('x', { status: 'finished', awaiting: [0] })), false, 'not in a finished game');
});

test('time left: a clock under an hour, hours and minutes under two days, then days', () => {
  assert.equal(formatDuration(0), '0:00');
  assert.equal(formatDuration(61_500), '1:02');
  assert.equal(formatDuration(59 * 60_000 + 59_000), '59:59');
  assert.equal(formatDuration(3 * 3_600_000 + 5 * 60_000), '3 h 5 min');
  assert.equal(formatDuration(3 * 86_400_000 + 2 * 3_600_000), '3 d 2 h');
});
