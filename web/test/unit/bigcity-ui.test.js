// The Big City board's own state and questions, on real positions (test/fixtures).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initialUI, arrived, mine, autoMode, tileChoices, candidatesAt, nearestPlacement, tileCenter } from '../../src/games/bigcity/ui.js';

/** @param {string} name */
const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8'));

/**
 * A board as ui.js sees it, showing a fixture's position to its seat.
 * @param {any} data
 * @param {{spectator?: boolean, replay?: boolean}} [o]
 */
function board(data, o = {}) {
  const state = {
    view: o.spectator ? data.spectator : data.view,
    version: 1,
    awaiting: { seats: data.awaiting },
    outcome: undefined,
    mySeat: o.spectator ? undefined : data.seat,
    legal: o.spectator ? null : { version: 1, moves: data.legal },
    seats: [],
    replay: Boolean(o.replay),
  };
  const b = /** @type {any} */ ({ state, ui: initialUI() });
  arrived(b, null, state);
  return b;
}

test('the starting city: my decision, placing a tile is the mode, the tiles I may place', () => {
  const data = fixture('bigcity-start');
  const b = board(data);
  assert.ok(mine(b));
  assert.equal(autoMode(b), 'tile');
  assert.equal(b.ui.mode, 'tile');
  const choices = tileChoices(b);
  assert.ok(choices.length > 0);
  assert.equal(b.ui.tileN, choices[0], 'the first tile is chosen');
  // A legal spot is found from its own center, not far from it.
  const spot = data.legal.find((/** @type {any} */ m) => m.type === 'place_neighborhood' && m.neighborhood === b.ui.tileN && m.rotation === 0);
  const [cx, cy] = tileCenter(spot);
  assert.deepEqual(nearestPlacement(b, cx, cy), { neighborhood: spot.neighborhood, x: spot.x, y: spot.y, rotation: 0 });
  assert.equal(nearestPlacement(b, cx + 50, cy + 50), null);
  // A spectator or a replay decides nothing.
  assert.equal(mine(board(data, { spectator: true })), false);
  assert.equal(board(data, { replay: true }).ui.mode, null);
});

test('an action: no mode until one is chosen; a piece\'s footprints under a property', () => {
  const b = board(fixture('bigcity-mid'));
  assert.equal(b.ui.mode, null);
  b.ui.mode = 'build';
  b.ui.piece = 'residence_single';
  assert.deepEqual(candidatesAt(b, 61), [[61]]);
  assert.deepEqual(candidatesAt(b, 11), []);
  b.ui.piece = null;
  assert.deepEqual(candidatesAt(b, 61), []);
});

test('a new version keeps the choice within the decision; a new decision resets it; new things are marked', () => {
  const data = fixture('bigcity-mid');
  const b = board(data);
  assert.equal(b.ui.fresh.buildings, Infinity, 'nothing is new on the first view');
  b.ui.mode = 'build';
  b.ui.piece = 'residence_single';
  b.ui.selected = { type: 'build', piece: 'residence_single', cells: [61] };
  const prev = b.state;
  const view = structuredClone(data.view);
  view.buildings.push({ piece: 'business_single', cells: [11], owner: 1, points: 2 });
  b.state = { ...prev, version: 2, view };
  arrived(b, prev, b.state);
  assert.equal(b.ui.mode, 'build', 'same decision: the mode stays');
  assert.equal(b.ui.selected, null, 'but the selection is dropped');
  assert.equal(b.ui.fresh.buildings, data.view.buildings.length, 'the new building is fresh');
  const next = structuredClone(view);
  next.turn_number += 1;
  const before = b.state;
  b.state = { ...before, version: 3, view: next };
  arrived(b, before, b.state);
  assert.equal(b.ui.mode, null);
  assert.equal(b.ui.piece, null);
});
