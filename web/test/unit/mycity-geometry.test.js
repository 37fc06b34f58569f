// My City's placing geometry in the browser: rotation as the rules crate turns
// pieces, the spot chosen under the pointer, outlines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rotated, covered, spotAt, distinctRotations, grip, outline } from '../../src/games/mycity/geometry.js';

/** @param {string} text rows separated by "/" as in the rulings (P1) */
function shape(text) {
  const cells = [];
  text.split('/').forEach((row, y) => [...row].forEach((ch, x) => ch === '#' && cells.push({ x, y })));
  return cells;
}

/** @param {{x: number, y: number}[]} cells */
const draw = (cells) => {
  const w = Math.max(...cells.map((c) => c.x)) + 1;
  const h = Math.max(...cells.map((c) => c.y)) + 1;
  const rows = Array.from({ length: h }, () => Array(w).fill('.'));
  for (const c of cells) rows[c.y][c.x] = '#';
  return rows.map((r) => r.join('')).join('/');
};

test('a quarter turn is clockwise, shape back at the top-left', () => {
  const l = shape('#../###');
  assert.equal(draw(rotated(l, 0)), '#../###');
  assert.equal(draw(rotated(l, 1)), '##/#./#.');
  assert.equal(draw(rotated(l, 2)), '###/..#');
  assert.equal(draw(rotated(l, 3)), '.#/.#/##');
  assert.equal(draw(rotated(l, 4)), '#../###');
});

test('placements cover the rotated shape from (x, y)', () => {
  const t = shape('.#./###');
  assert.deepEqual(covered(t, { x: 3, y: 5, rotation: 1 }), [
    { x: 3, y: 5 },
    { x: 3, y: 6 },
    { x: 4, y: 6 },
    { x: 3, y: 7 },
  ]);
});

test('symmetric pieces have fewer distinct rotations', () => {
  assert.deepEqual(distinctRotations(shape('##/##')), [0]);
  assert.deepEqual(distinctRotations(shape('####')), [0, 1]);
  assert.deepEqual(distinctRotations(shape('#')), [0]);
  assert.deepEqual(distinctRotations(shape('.#./###/.#.')), [0]);
  assert.deepEqual(distinctRotations(shape('##./.##')), [0, 1]);
  assert.deepEqual(distinctRotations(shape('#../###')), [0, 1, 2, 3]);
});

test('the pointer holds the cell nearest the middle', () => {
  assert.deepEqual(grip(rotated(shape('###'), 0)), { x: 1, y: 0 });
  assert.deepEqual(grip(rotated(shape('.#./###/.#.'), 0)), { x: 1, y: 1 });
});

test('the spot under the pointer snaps to a legal one covering that cell', () => {
  const bar = shape('###');
  const legal = [
    { x: 5, y: 2, rotation: 0 },
    { x: 6, y: 2, rotation: 0 },
    { x: 5, y: 2, rotation: 1 },
  ];
  // Exact fit: the grip (middle cell) on (7, 2) is the spot at x 6.
  assert.deepEqual(spotAt(bar, legal, { x: 7, y: 2 }, 0), { spot: { x: 6, y: 2, rotation: 0 }, legal: true });
  // (5, 2) is covered only by the spot at x 5.
  assert.deepEqual(spotAt(bar, legal, { x: 5, y: 2 }, 0), { spot: { x: 5, y: 2, rotation: 0 }, legal: true });
  // Nothing legal covers (1, 1): the raw spot, marked illegal.
  assert.deepEqual(spotAt(bar, legal, { x: 1, y: 1 }, 0), { spot: { x: 0, y: 1, rotation: 0 }, legal: false });
  // Another rotation chooses among that rotation's spots only.
  assert.deepEqual(spotAt(bar, legal, { x: 5, y: 4 }, 1), { spot: { x: 5, y: 2, rotation: 1 }, legal: true });
});

test('an outline draws only the sides not shared inside the building', () => {
  const d = outline(shape('##'), 10);
  assert.equal((d.match(/M/g) ?? []).length, 6, 'two cells side by side have six outer sides');
  assert.ok(!d.includes('M10 0V10'), 'the shared side is not drawn');
});
