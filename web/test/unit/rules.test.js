import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tileCells, segKey } from '../../src/games/bigcity/rules.js';
import { groupLegal, buildPoints } from '../../src/games/bigcity/legal.js';

test('tile cells follow the rotation numbering of ruling G2', () => {
  const r0 = tileCells(2, 0, 0, 0).map((c) => `${c.property}@${c.x},${c.y}`);
  assert.deepEqual(r0.slice(0, 4), ['21@0,0', '22@1,0', '23@2,0', '24@3,0']);
  const r90 = tileCells(2, 0, 0, 90);
  assert.deepEqual(r90.find((c) => c.property === 21), { x: 1, y: 0, property: 21 });
  assert.deepEqual(r90.find((c) => c.property === 25), { x: 0, y: 0, property: 25 });
  const r180 = tileCells(1, 5, 5, 180);
  assert.deepEqual(r180.find((c) => c.property === 11), { x: 7, y: 7, property: 11 });
  assert.equal(segKey({ x1: 1, y1: 0, x2: 0, y2: 0 }), segKey({ x1: 0, y1: 0, x2: 1, y2: 0 }));
});

test('legal moves grouped for the board: footprints by piece with the server\'s points, and the simple moves', () => {
  const lg = groupLegal([
    { type: 'discard_useless', card: 34 },
    { type: 'build', piece: 'residence_double', cells: [12, 11], points: 14 },
    { type: 'build', piece: 'residence_double', cells: [12, 13], points: 6 },
    { type: 'build', piece: 'lincoln_park', cells: [21, 22, 23, 24], points: 0 },
    { type: 'streetcar', segment: { x1: 0, y1: 0, x2: 1, y2: 0 } },
    { type: 'exchange', cards: [34] },
    { type: 'pass' },
  ]);
  assert.deepEqual(lg.build.get('residence_double'), [[12, 11], [12, 13]]);
  assert.equal(buildPoints(lg, 'residence_double', [11, 12]), 14, 'the order of the cells does not matter');
  assert.equal(buildPoints(lg, 'residence_double', [13, 12]), 6);
  assert.equal(buildPoints(lg, 'lincoln_park', [21, 22, 23, 24]), 0);
  assert.equal(buildPoints(lg, 'business_double', [11, 12]), undefined, 'not listed: no points');
  assert.deepEqual([...lg.discard], [34]);
  assert.equal(lg.streetcars.length, 1);
  assert.ok(lg.exchange && lg.pass && !lg.done && !lg.tradeOffer);
  assert.equal(groupLegal(null).build.size, 0);
});
