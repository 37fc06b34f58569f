import { test } from 'node:test';
import assert from 'node:assert/strict';
import { previewScore, tileCells, segKey } from '../../src/games/bigcity/rules.js';

/**
 * A little city: properties 11,12 on top (outskirts), a factory on 13 below 11 and
 * city hall on 14 below 12, a streetcar on the top edge of 11.
 * @param {{streetcar?: boolean, factory?: boolean, cityHall?: boolean, outskirts?: boolean}} o
 */
function city(o) {
  const out = o.outskirts ?? true;
  /** @type {any[]} */
  const buildings = [];
  const cells = [
    { property: 11, x: 0, y: 0, outskirts: out, building: null },
    { property: 12, x: 1, y: 0, outskirts: out, building: null },
    { property: 13, x: 0, y: 1, outskirts: true, building: null },
    { property: 14, x: 1, y: 1, outskirts: true, building: null },
  ];
  if (o.factory) {
    buildings.push({ piece: 'rockwell_industries', cells: [13], owner: 0, points: 0 });
    cells[2].building = buildings.length - 1;
  }
  if (o.cityHall) {
    buildings.push({ piece: 'city_hall', cells: [14], owner: 1, points: 0 });
    cells[3].building = buildings.length - 1;
  }
  const streetcars = o.streetcar ? [{ x1: 0, y1: 0, x2: 1, y2: 0 }] : [];
  return /** @type {any} */ ({ cells, buildings, streetcars });
}

test('ruling V4: the worked examples', () => {
  assert.equal(previewScore(city({ streetcar: true }), 'residence_double', [11, 12]), 14);
  const busy = city({ streetcar: true, factory: true, cityHall: true });
  assert.equal(previewScore(busy, 'business_double', [11, 12]), 12);
  assert.equal(previewScore(busy, 'residence_double', [11, 12]), 10);
  assert.equal(previewScore(city({ factory: true, outskirts: false }), 'residence_single', [11]), 1);
});

test('specials: fixed values and the city hall / streetcar multipliers', () => {
  assert.equal(previewScore(city({}), 'church', [11]), 15);
  assert.equal(previewScore(city({}), 'shopping_center', [11, 12]), 30);
  assert.equal(previewScore(city({}), 'city_hall', [11]), 0);
  assert.equal(previewScore(city({}), 'bank', [11]), 5);
  assert.equal(previewScore(city({ cityHall: true }), 'bank', [12]), 10);
  assert.equal(previewScore(city({ cityHall: true, streetcar: true }), 'cinema', [12]), 10, 'the streetcar touches 12 only at a corner');
  assert.equal(previewScore(city({ cityHall: true, streetcar: true }), 'cinema', [11, 12].slice(0, 1)), 10, '11 is not next to city hall');
});

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
