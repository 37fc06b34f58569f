// The game log a page keeps: events replace the lines of their moves, and a log
// kept from another game of the table never mixes in.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withEvents } from '../../src/gamelog.js';

/** @param {unknown} ev */
const describe = (ev) => (typeof ev === 'string' ? ev : undefined);

/** @param {number} from @param {number} to moves `from..=to`, one event each */
const moves = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => ({ version: from + i, events: [`move ${from + i}`] }));

test('a snapshot of a long second game drops every line of the first, even older-versioned ones', () => {
  // The first game ran to version 120; the page was away while play again
  // started a second one, now at version 150, whose snapshot repeats moves 91-150.
  const kept = withEvents({ game: -1, lines: [] }, 1, moves(1, 120), describe);
  const after = withEvents(kept, 2, moves(91, 150), describe);
  assert.equal(after.game, 2);
  assert.deepEqual(
    after.lines.map((l) => l.text),
    moves(91, 150).reverse().map((m) => m.events[0]),
  );
});

test('a snapshot of the same game replaces the lines of its moves and keeps older ones', () => {
  const kept = withEvents({ game: -1, lines: [] }, 1, moves(1, 100), describe);
  const after = withEvents(kept, 1, [...moves(41, 100), { version: 101, events: ['move 101', 'and more'] }], describe);
  assert.equal(after.lines.length, 102);
  assert.deepEqual(after.lines.slice(0, 3).map((l) => l.text), ['and more', 'move 101', 'move 100']);
  assert.equal(after.lines.at(-1)?.text, 'move 1');
  assert.equal(new Set(after.lines.map((l) => l.text)).size, 102, 'no line twice');
});

test('events without a sentence add no line; the log keeps its newest 300 lines', () => {
  const quiet = withEvents({ game: 1, lines: [] }, 1, [{ version: 1, events: [{ hidden: true }] }], describe);
  assert.deepEqual(quiet.lines, []);
  const long = withEvents({ game: -1, lines: [] }, 1, moves(1, 400), describe);
  assert.equal(long.lines.length, 300);
  assert.equal(long.lines[0].text, 'move 400');
});

test('a new game without events yet starts an empty log', () => {
  const kept = withEvents({ game: -1, lines: [] }, 1, moves(1, 9), describe);
  assert.deepEqual(withEvents(kept, 2, [], describe), { game: 2, lines: [] });
});
