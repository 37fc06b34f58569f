// A record's views, rebuilt from its first view and patches, in any order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayViews, seatViews, layOver } from '../../src/replay.js';

test('every step of a long record, visited out of order, is the view the patches make', () => {
  const steps = 300;
  const patches = Array.from({ length: steps }, (_, i) => [
    { op: 'replace', path: '/n', value: i + 1 },
    { op: 'add', path: '/log/-', value: i },
  ]);
  const viewAt = replayViews({ first_view: { n: 0, log: [] }, patches });
  for (const step of [300, 0, 129, 64, 63, 1, 299, 128, 200]) {
    const view = viewAt(step);
    assert.equal(view.n, step);
    assert.deepEqual(view.log, Array.from({ length: step }, (_, i) => i));
  }
  // Views handed out are copies: changing one changes no other step.
  viewAt(10).log.push('x');
  assert.equal(viewAt(10).log.length, 10);
});

test("a seat's view is the public one with its private overlay laid over it", () => {
  const record = {
    first_view: { viewer: null, hands: [{ count: 2 }, { count: 2 }], phase: 'start' },
    patches: [[{ op: 'replace', path: '/hands/0/count', value: 3 }, { op: 'replace', path: '/phase', value: 'action' }]],
    seat_views: [
      // Seat 0 draws a 7: its overlay changes; seat 1's does not.
      { first: { viewer: 0, hands: { 0: { cards: [4, 9] } } }, patches: [[{ op: 'replace', path: '/hands/0/cards', value: [4, 7, 9] }]] },
      { first: { viewer: 1, hands: { 1: { cards: [1, 2] } } }, patches: [[]] },
    ],
  };
  const viewAt = replayViews(record);
  const seatAt = seatViews(record);
  assert.ok(seatAt);
  assert.deepEqual(seatAt(0, viewAt(0), 0), { viewer: 0, hands: [{ count: 2, cards: [4, 9] }, { count: 2 }], phase: 'start' });
  assert.deepEqual(seatAt(0, viewAt(1), 1), { viewer: 0, hands: [{ count: 3, cards: [4, 7, 9] }, { count: 2 }], phase: 'action' });
  assert.deepEqual(seatAt(1, viewAt(1), 1), { viewer: 1, hands: [{ count: 3 }, { count: 2, cards: [1, 2] }], phase: 'action' });
  assert.deepEqual(viewAt(1), { viewer: null, hands: [{ count: 3 }, { count: 2 }], phase: 'action' }, 'the public view is untouched');
});

test('an overlay replaces what is not an object or array, and lays arrays over whole', () => {
  assert.deepEqual(layOver({ a: 1, b: [1, 2], c: null }, { a: { x: 1 }, b: [3], c: { y: 2 }, d: 4 }), { a: { x: 1 }, b: [3], c: { y: 2 }, d: 4 });
  assert.deepEqual(layOver({ list: [{ n: 1 }, { n: 2 }] }, { list: { 1: { m: 3 } } }), { list: [{ n: 1 }, { n: 2, m: 3 }] });
});

test('a record from before seat views has none to offer', () => {
  assert.equal(seatViews({ first_view: {}, patches: [] }), null);
});
