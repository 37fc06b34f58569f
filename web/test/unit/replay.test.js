// A record's views, rebuilt from its first view and patches, in any order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayViews } from '../../src/replay.js';

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
