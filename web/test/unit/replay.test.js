// A record's views, rebuilt from its first view and patches, in any order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayViews, seatViews } from '../../src/replay.js';

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

test("a seat's view is the public one with what it saw beyond it patched in", () => {
  const record = {
    first_view: { viewer: null, hands: [{ count: 2 }, { count: 2 }] },
    patches: [[{ op: 'replace', path: '/hands/0/count', value: 3 }]],
    seat_views: [
      {
        first: [{ op: 'replace', path: '/viewer', value: 0 }, { op: 'add', path: '/hands/0/cards', value: [4, 9] }],
        // Seat 0 draws a 7: its own patch changes; seat 1 sees nothing new.
        patches: [[{ op: 'replace', path: '/1/value', value: [4, 7, 9] }]],
      },
      { first: [{ op: 'replace', path: '/viewer', value: 1 }, { op: 'add', path: '/hands/1/cards', value: [1, 2] }], patches: [[]] },
    ],
  };
  const viewAt = replayViews(record);
  const seatAt = seatViews(record);
  assert.ok(seatAt);
  assert.deepEqual(seatAt(0, viewAt(0), 0), { viewer: 0, hands: [{ count: 2, cards: [4, 9] }, { count: 2 }] });
  assert.deepEqual(seatAt(0, viewAt(1), 1), { viewer: 0, hands: [{ count: 3, cards: [4, 7, 9] }, { count: 2 }] });
  assert.deepEqual(seatAt(1, viewAt(1), 1), { viewer: 1, hands: [{ count: 3 }, { count: 2, cards: [1, 2] }] });
  assert.deepEqual(viewAt(1), { viewer: null, hands: [{ count: 3 }, { count: 2 }] }, 'the public view is untouched');
});

test('a record from before seat views has none to offer', () => {
  assert.equal(seatViews({ first_view: {}, patches: [] }), null);
});
