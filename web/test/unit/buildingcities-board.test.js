// The Building Cities board's pure parts: the map's geometry and prices, the
// legal moves kept per part and version, the player's choices, and the preview
// of a building's neighbours in the cross, on real positions of the rules crate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/** @type {any} */ (globalThis).document = { documentElement: {} };
const { provideHandbook } = await import('../../src/games/buildingcities/handbook.js');
const geo = await import('../../src/games/buildingcities/geometry.js');
const legal = await import('../../src/games/buildingcities/legal.js');
const { initialChoices, reduceChoices } = await import('../../src/games/buildingcities/choices.js');
const { crossMarks, previewOf } = await import('../../src/games/buildingcities/preview.js');
const { paletteBuildings } = await import('../../src/games/buildingcities/palette.js');
const { seatRange } = await import('../../src/home.js');

const fixture = (/** @type {string} */ name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8'));
const handbook = fixture('buildingcities-handbook');
const book = provideHandbook(handbook);

/**
 * @param {number} id
 * @param {string} building
 * @param {number} x
 * @param {number} y
 * @param {string} [footprint]
 */
const tile = (id, building, x, y, footprint = '1x1') => ({ id, kind: 'building', building, footprint, rotation: 'R0', origin: { x, y } });

test('blocks, districts and footprints (M1-M3)', () => {
  assert.equal(geo.districtOf({ x: 3, y: 0 }), 'D1');
  assert.equal(geo.districtOf({ x: 8, y: 7 }), 'D2');
  assert.equal(geo.districtOf({ x: 23, y: 15 }), 'D6');
  assert.equal(geo.districtOf({ x: 24, y: 0 }), null);
  assert.deepEqual(geo.localBlock({ x: 11, y: 9 }), { district: 'D5', col: 4, row: 2 });
  assert.ok(geo.adjacent('D1', 'D2') && geo.adjacent('D2', 'D5') && !geo.adjacent('D1', 'D5') && !geo.adjacent('D3', 'D4'));
  assert.deepEqual(geo.footprintSize('3x2', 'R90'), [2, 3]);
  assert.deepEqual(geo.footprintBlocks('2x1', 'R90', { x: 5, y: 6 }), [{ x: 5, y: 6 }, { x: 5, y: 7 }]);
  assert.ok(geo.isSquare('2x2') && !geo.isSquare('3x1'));
  // Every sea area borders the district the rulings name.
  assert.deepEqual(geo.SEAS.map((s) => geo.SEA_SIDE[s].district), ['D1', 'D4', 'D4', 'D5', 'D6', 'D6', 'D3']);
});

test('the cross: side steps inside one district, a diamond, never a square', () => {
  const tiles = [tile(1, 'house', 2, 2), tile(2, 'house', 3, 3), tile(3, 'house', 4, 2), tile(4, 'house', 8, 2), tile(5, 'waste_area', 5, 5, '2x1')];
  const at = [{ x: 3, y: 2 }];
  assert.deepEqual(geo.neighboursWithin(tiles, at, 1).map((t) => t.id).sort(), [1, 2, 3]);
  // (7, 2) lies in D1 and (8, 2) in D2: a bonus never crosses a border.
  assert.deepEqual(geo.neighboursWithin(tiles, [{ x: 7, y: 2 }], 1), []);
  // Two steps reach (5, 4)'s neighbour below it but not the corner two columns and two rows away.
  assert.deepEqual(geo.neighboursWithin(tiles, [{ x: 5, y: 3 }], 2).map((t) => t.id).sort(), [2, 3, 5]);
  assert.deepEqual(geo.neighboursWithin(tiles, [{ x: 3, y: 3 }], 1, 2).map((t) => t.id), [], 'the tile itself is left out');
});

test('prices follow the room variant; the next district follows the handbook steps (E3)', () => {
  const eco = handbook.economy;
  assert.equal(geo.price(300, undefined, 1), 300);
  const variant = { start_bank: null, prebuilt_first_district: false, price_percent: 150, price_steps: [{ from_districts: 3, percent: 200 }, { from_districts: 5, percent: 300 }] };
  assert.equal(geo.price(100, variant, 2), 150);
  assert.equal(geo.price(100, variant, 3), 300);
  assert.equal(geo.price(100, variant, 6), 450);
  const second = geo.nextDistrict(eco, undefined, 1);
  const step = eco.district_steps.find((/** @type {any} */ s) => s.nth === 2);
  assert.deepEqual(second, { nth: 2, bank_more_than: step.bank_more_than, tiles_more_than: step.tiles_more_than, price: step.price });
  // A sea area once all six are owned costs the sixth district's price.
  assert.equal(geo.nextDistrict(eco, undefined, 6)?.nth, 6);
  // A district farther away costs, at the soonest, the step of the purchase it can be.
  const prices = geo.districtPrices(eco, undefined, ['D1']);
  const at = (/** @type {number} */ nth) => eco.district_steps.find((/** @type {any} */ s) => s.nth === nth).price;
  assert.deepEqual(Object.fromEntries(prices), { D2: { nth: 2, price: at(2) }, D4: { nth: 2, price: at(2) }, D3: { nth: 3, price: at(3) }, D5: { nth: 3, price: at(3) }, D6: { nth: 4, price: at(4) } });
  assert.equal(geo.districtPrices(eco, undefined, ['D1', 'D2', 'D3', 'D4', 'D5', 'D6']).size, 0);
  const mid = fixture('buildingcities-solo-mid').view.players[0];
  assert.equal(geo.tilesBuilt(mid.city), mid.city.roads.length + mid.city.tiles.length);
});

test('the five rounds after the first completion (W2)', () => {
  const view = fixture('buildingcities-end').view;
  const finalRounds = handbook.economy.final_rounds;
  const frozen = view.players.map((/** @type {any} */ p) => p.frozen_round).filter((/** @type {any} */ r) => r !== null);
  assert.equal(geo.lastRound(view, finalRounds), frozen.length ? Math.min(...frozen) + finalRounds : null);
  const playing = structuredClone(view);
  for (const p of playing.players) p.frozen_round = null;
  assert.equal(geo.lastRound(playing, finalRounds), null);
  playing.players[1].frozen_round = 9;
  playing.players[0].frozen_round = 7;
  assert.equal(geo.lastRound(playing, finalRounds), 7 + finalRounds);
});

test('legal moves by part: a part answers itself, a full list answers every part, a newer version none', () => {
  const data = fixture('buildingcities-solo-mid');
  const full = data.legal;
  const tiles = full.filter((/** @type {any} */ m) => m.type === 'tile');
  const building = tiles[0].building;
  let cache = legal.remember(new Map(), { version: 4, moves: full });
  assert.deepEqual(legal.movesOf(cache, legal.OTHER, 4), full.filter((/** @type {any} */ m) => m.type !== 'tile'));
  assert.deepEqual(legal.movesOf(cache, building, 4), tiles.filter((/** @type {any} */ m) => m.building === building));
  assert.equal(legal.movesOf(cache, legal.OTHER, 5), null, 'a newer version asks again');
  cache = legal.remember(cache, { version: 5, of: 'other', moves: [{ type: 'end_turn' }] });
  assert.deepEqual(legal.movesOf(cache, legal.OTHER, 5), [{ type: 'end_turn' }]);
  assert.equal(legal.movesOf(cache, building, 5), null, 'a part answers only itself');
  assert.equal(cache.get(legal.ALL), undefined, 'older answers go');
  const spots = legal.spotsOf(tiles, building, 'R0');
  assert.equal(spots.size, tiles.filter((/** @type {any} */ m) => m.building === building && m.rotation === 'R0').length);
  for (const [key, mv] of spots) assert.equal(key, `${mv.origin.x},${mv.origin.y}`);
  assert.deepEqual(legal.rotationsOf(tiles, building), [...new Set(tiles.filter((/** @type {any} */ m) => m.building === building).map((/** @type {any} */ m) => m.rotation))].sort());
  assert.equal(legal.roadBlocks(full).size, full.filter((/** @type {any} */ m) => m.type === 'road').length);
});

test('choices: the tool in hand, its rotation, the spot picked, the zoom', () => {
  let ui = initialChoices();
  ui = reduceChoices(ui, { type: 'tool', tool: 'villas' });
  assert.equal(ui.tool, 'villas');
  ui = reduceChoices(ui, { type: 'rotate', rotations: ['R0', 'R90'] });
  assert.equal(ui.rotation, 'R90');
  assert.equal(reduceChoices(ui, { type: 'rotate', rotations: ['R90'] }), ui, 'no rotation without spots');
  const spot = { origin: { x: 4, y: 1 }, rotation: /** @type {const} */ ('R0') };
  ui = reduceChoices(ui, { type: 'pick', spot });
  assert.deepEqual([ui.picked, ui.rotation], [spot, 'R0']);
  ui = reduceChoices(ui, { type: 'moved' });
  assert.deepEqual([ui.tool, ui.picked], ['villas', null], 'the building stays in hand, its spot is taken now');
  assert.equal(reduceChoices(ui, { type: 'tool', tool: 'villas' }).tool, null, 'choosing it again puts it down');
  assert.equal(reduceChoices(ui, { type: 'hover', spot: null }), ui, 'nothing new: the same value');
  assert.equal(reduceChoices(ui, { type: 'tool', tool: 'house', minZoom: 2.25 }).zoom, 2.25, 'a tool taken on a phone zooms in');
  assert.equal(reduceChoices(ui, { type: 'tool', tool: 'villas', minZoom: 2.25 }).zoom, ui.zoom, 'not when it puts the tool down');
  ui = reduceChoices(ui, { type: 'zoom', by: 100 });
  assert.equal(ui.zoom, 4);
  assert.equal(reduceChoices(reduceChoices(ui, { type: 'tool', tool: null }), { type: 'tool', tool: 'house', minZoom: 2.25 }).zoom, 4, 'nor out when it is zoomed in further');
  assert.equal(reduceChoices(ui, { type: 'zoom', by: 0.001 }).zoom, 1);
});

test('the preview: neighbours in the cross with what each link is worth, the handbook numbers until the server lists them', () => {
  const city = { ...fixture('buildingcities-solo-start').view.players[0].city, tiles: [tile(1, 'park', 0, 3), tile(2, 'waste_area', 2, 2, '2x1'), tile(3, 'park', 8, 3)] };
  const park = book.buildings.get('park');
  const waste = book.buildings.get('waste_area');
  const parkBonus = park?.bonuses.find((b) => b.target)?.value ?? 0;
  const wasteMalus = waste?.bonuses.find((b) => b.target)?.value ?? 0;
  assert.ok(parkBonus > 0 && wasteMalus < 0, 'a park counts blue tiles, a waste area costs them');
  assert.deepEqual(crossMarks(city, 'house', { origin: { x: 1, y: 3 }, rotation: 'R0' }).map((m) => [m.tile.id, m.amount]), [[1, parkBonus]]);
  assert.deepEqual(crossMarks(city, 'house', { origin: { x: 2, y: 3 }, rotation: 'R0' }).map((m) => [m.tile.id, m.amount]), [[2, wasteMalus]]);
  assert.deepEqual(crossMarks(city, 'house', { origin: { x: 7, y: 3 }, rotation: 'R0' }), [], 'the park of D2 is across the border');
  // A park placed next to houses counts them for itself.
  const houses = { ...city, tiles: [tile(4, 'house', 5, 5), tile(5, 'house', 6, 6)] };
  assert.deepEqual(crossMarks(houses, 'park', { origin: { x: 5, y: 6 }, rotation: 'R0' }).map((m) => [m.tile.id, m.amount]).sort(), [[4, parkBonus], [5, parkBonus]]);
  const house = book.buildings.get('house');
  const marks = crossMarks(city, 'house', { origin: { x: 1, y: 3 }, rotation: 'R0' });
  assert.deepEqual(previewOf(undefined, 'house', marks, undefined, 1), { cost: house?.cost, moves: house?.moves, value: (house?.value ?? 0) + parkBonus, fromServer: false });
  const listed = { type: 'tile', building: 'house', rotation: 'R0', origin: { x: 1, y: 3 }, preview: { cost: 10, moves: 5, value: 9 } };
  assert.deepEqual(previewOf(/** @type {any} */ (listed), 'house', marks, undefined, 1), { cost: 10, moves: 5, value: 9, fromServer: true });
});

test('the palette offers the ground buildings, and a legendary one only when offered', () => {
  const ids = paletteBuildings(book, null).map((b) => b.id);
  assert.ok(ids.includes('power_grid') && ids.includes('house') && ids.includes('office') && ids.includes('airport'));
  assert.ok(!ids.includes('road') && !ids.includes('truck') && !ids.includes('protected_area') && !ids.includes('symbol_of_freedom'));
  assert.ok(paletteBuildings(book, 'symbol_of_freedom').some((b) => b.id === 'symbol_of_freedom'));
});

test('the seat count follows the mode: solo one seat, the others two to four', () => {
  const info = { id: 'building-cities', name: 'Building Cities', min_seats: 1, max_seats: 4, default_options: {} };
  assert.deepEqual(seatRange(info, { mode: 'solo' }), { min: 1, max: 1 });
  assert.deepEqual(seatRange(info, { mode: 'fair_play' }), { min: 2, max: 4 });
  assert.deepEqual(seatRange({ ...info, id: 'tic-tac-toe', min_seats: 2, max_seats: 2 }, {}), { min: 2, max: 2 });
});
