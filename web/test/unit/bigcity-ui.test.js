// The Big City board's choices and how each action changes them (choices.js),
// on real positions (test/fixtures).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  initialUI,
  choiceCtx,
  reduceUI,
  differs,
  autoMode,
  tileChoices,
  candidatesAt,
  nearestPlacement,
  tileCenter,
} from '../../src/games/bigcity/choices.js';
import { segKey } from '../../src/games/bigcity/rules.js';

/**
 * @typedef {import('../../src/games/bigcity/choices.js').UI} UI
 * @typedef {import('../../src/games/bigcity/choices.js').UIAction} UIAction
 * @typedef {import('../../src/games/bigcity/choices.js').ChoiceCtx} ChoiceCtx
 */

/** @param {string} name */
const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8'));

/**
 * The board's state showing a fixture's position to its seat.
 * @param {any} data
 * @param {{spectator?: boolean, replay?: boolean, view?: any, version?: number, legal?: any[]}} [o]
 */
function boardState(data, o = {}) {
  const version = o.version ?? 1;
  return {
    view: o.view ?? (o.spectator ? data.spectator : data.view),
    version,
    awaiting: { seats: data.awaiting },
    outcome: undefined,
    mySeat: o.spectator ? undefined : data.seat,
    legal: o.spectator ? null : { version, moves: o.legal ?? data.legal },
    seats: [],
    replay: Boolean(o.replay),
  };
}

/**
 * The choices after the first state of a fixture arrived, and its context.
 * @param {any} data
 * @param {Parameters<typeof boardState>[1]} [o]
 * @returns {{ui: UI, c: ChoiceCtx}}
 */
function first(data, o) {
  const c = choiceCtx(boardState(data, o));
  return { ui: reduceUI(initialUI(), { type: 'arrived', prev: null, now: 1000 }, c), c };
}

/**
 * The choices after a series of actions.
 * @param {UI} ui
 * @param {ChoiceCtx} c
 * @param {UIAction[]} actions
 */
function run(ui, c, ...actions) {
  return actions.reduce((u, a) => reduceUI(u, a, c), ui);
}

test('the starting city: placing a tile is the mode, the first tile I may place is chosen', () => {
  const data = fixture('bigcity-start');
  const { ui, c } = first(data);
  assert.ok(c.mine);
  assert.equal(autoMode(c), 'tile');
  assert.equal(ui.mode, 'tile');
  const choices = tileChoices(c);
  assert.ok(choices.length > 0);
  assert.equal(ui.tileN, choices[0]);
  assert.deepEqual(ui.effects, []);
  // A legal spot is found from its own center, not far from it.
  const spot = data.legal.find((/** @type {any} */ m) => m.type === 'place_neighborhood' && m.neighborhood === ui.tileN && m.rotation === 0);
  const [cx, cy] = tileCenter(spot);
  assert.deepEqual(nearestPlacement(ui, c, cx, cy), { neighborhood: spot.neighborhood, x: spot.x, y: spot.y, rotation: 0 });
  assert.equal(nearestPlacement(ui, c, cx + 50, cy + 50), null);
});

test('a spectator or a replay gets no choices: no mode, no legal moves, clicks do nothing', () => {
  const data = fixture('bigcity-start');
  for (const o of [{ spectator: true }, { replay: true }]) {
    const { ui, c } = first(data, o);
    assert.equal(c.mine, false);
    assert.equal(ui.mode, null);
    assert.equal(c.legal.tiles.length, 0);
    assert.equal(autoMode(c), null);
    const after = run(ui, c, { type: 'set_mode', mode: 'tile' }, { type: 'click_tile_spot', gx: 0, gy: 0 });
    assert.equal(after.selected, null);
    assert.deepEqual(after.effects, []);
  }
  const mid = fixture('bigcity-mid');
  const { ui, c } = first(mid, { replay: true });
  const after = run(ui, c, { type: 'pick_piece', piece: 'residence_single' }, { type: 'click_prop', prop: 61 });
  assert.equal(after.selected, null);
  assert.deepEqual(after.effects, []);
});

test('placing a tile: a click selects the nearest legal spot; a click on it turns the tile; confirm sends it', () => {
  const data = fixture('bigcity-start');
  const { ui, c } = first(data);
  const spot = /** @type {any} */ (c.legal.tiles.find((p) => p.neighborhood === ui.tileN && p.rotation === 0));
  const [cx, cy] = tileCenter(spot);
  const picked = reduceUI(ui, { type: 'click_tile_spot', gx: cx, gy: cy }, c);
  assert.deepEqual(picked.selected, { type: 'place_neighborhood', ...spot });
  // On the selected tile, a click turns it; the spot follows if the turned tile fits there.
  const turned = reduceUI(picked, { type: 'click_tile_spot', gx: cx, gy: cy }, c);
  assert.equal(turned.rotation, 90);
  const fits = nearestPlacement(turned, c, cx, cy);
  assert.deepEqual(turned.selected, fits ? { type: 'place_neighborhood', ...fits } : null);
  // Far from any spot: a warning, nothing selected.
  const miss = reduceUI(ui, { type: 'click_tile_spot', gx: cx + 50, gy: cy + 50 }, c);
  assert.equal(miss.selected, null);
  assert.deepEqual(miss.effects, [{ type: 'warn', key: 'act.no_tile_spot' }]);
  // Confirm sends the move and leaves placing.
  const sent = reduceUI(picked, { type: 'confirm' }, c);
  assert.deepEqual(sent.effects, [{ type: 'send', mv: picked.selected }]);
  assert.equal(sent.selected, null);
  assert.equal(sent.mode, null);
  // Without a selection, confirm does nothing.
  assert.deepEqual(reduceUI(ui, { type: 'confirm' }, c).effects, []);
});

test('choosing a tile and turning it: rotation goes round, a new tile drops the selection', () => {
  const { ui, c } = first(fixture('bigcity-start'));
  const turned = run(ui, c, { type: 'rotate' }, { type: 'rotate' }, { type: 'rotate' }, { type: 'rotate' }, { type: 'rotate' });
  assert.equal(turned.rotation, 90);
  const spot = /** @type {any} */ (c.legal.tiles.find((p) => p.neighborhood === ui.tileN && p.rotation === 0));
  const [cx, cy] = tileCenter(spot);
  const other = tileChoices(c)[1];
  const next = run(ui, c, { type: 'click_tile_spot', gx: cx, gy: cy }, { type: 'pick_tile', n: other });
  assert.equal(next.tileN, other);
  assert.equal(next.selected, null);
});

test('building: pick a piece, a click on a property selects its footprint, a second click cycles the candidates', () => {
  const data = fixture('bigcity-mid');
  // Two footprints of a double residence over 61, beside the position's own moves.
  const moves = [...data.legal, { type: 'build', piece: 'residence_double', cells: [61, 62], points: 4 }, { type: 'build', piece: 'residence_double', cells: [61, 65], points: 5 }];
  const { ui, c } = first(data, { legal: moves });
  assert.equal(ui.mode, null, 'an action: no mode until one is chosen');
  const building = run(ui, c, { type: 'set_mode', mode: 'build' }, { type: 'pick_piece', piece: 'residence_double' });
  assert.equal(building.mode, 'build');
  assert.equal(building.piece, 'residence_double');
  assert.deepEqual(candidatesAt(building, c, 61), [[61, 62], [61, 65]]);
  const one = reduceUI(building, { type: 'click_prop', prop: 61 }, c);
  assert.deepEqual(one.selected, { type: 'build', piece: 'residence_double', cells: [61, 62] });
  assert.equal(one.anchorProp, 61);
  const two = reduceUI(one, { type: 'click_prop', prop: 61 }, c);
  assert.deepEqual(two.selected, { type: 'build', piece: 'residence_double', cells: [61, 65] });
  const three = reduceUI(two, { type: 'click_prop', prop: 61 }, c);
  assert.deepEqual(three.selected, one.selected, 'round again');
  // Rotating cycles the same candidates.
  assert.deepEqual(reduceUI(one, { type: 'rotate' }, c).selected, two.selected);
  // A click on a property covered by the other footprint starts there.
  const other = reduceUI(two, { type: 'click_prop', prop: 65 }, c);
  assert.deepEqual(other.selected, { type: 'build', piece: 'residence_double', cells: [61, 65] });
  assert.equal(other.anchorProp, 65);
  assert.equal(other.cycle, 0);
  // Confirm sends the build and leaves building.
  const sent = reduceUI(two, { type: 'confirm' }, c);
  assert.deepEqual(sent.effects, [{ type: 'send', mv: two.selected }]);
  assert.equal(sent.mode, null);
  assert.equal(sent.piece, null);
  assert.equal(sent.selected, null);
});

test('building where the piece may not go: why, or the server says the rule for a held card', () => {
  const { ui, c } = first(fixture('bigcity-mid'));
  const single = run(ui, c, { type: 'pick_piece', piece: 'residence_single' });
  assert.equal(single.mode, 'build', 'a piece from the supply opens building');
  assert.deepEqual(candidatesAt(single, c, 61), [[61]]);
  assert.deepEqual(candidatesAt(single, c, 11), []);
  // Not my card.
  const notHeld = reduceUI(single, { type: 'click_prop', prop: 11 }, c);
  assert.equal(notHeld.selected, null);
  assert.deepEqual(notHeld.effects, [{ type: 'warn', key: 'act.not_held', args: { p: 11 } }]);
  assert.equal(differs(single, notHeld), false, 'nothing to redraw');
  // My card, but not legal for this piece: the server explains.
  const held = run(ui, c, { type: 'pick_piece', piece: 'city_hall' }, { type: 'click_prop', prop: 89 });
  assert.deepEqual(held.effects, [{ type: 'send', mv: { type: 'build', piece: 'city_hall', cells: [89] } }]);
  // A piece of several properties: no spot.
  const double = run(ui, c, { type: 'pick_piece', piece: 'residence_double' }, { type: 'click_prop', prop: 61 });
  assert.deepEqual(double.effects, [{ type: 'warn', key: 'act.no_spot' }]);
  // Without a piece, a click does nothing.
  const none = run(ui, c, { type: 'set_mode', mode: 'build' }, { type: 'click_prop', prop: 61 });
  assert.equal(none.selected, null);
  assert.deepEqual(none.effects, []);
});

test('streetcar: a click on a legal street selects it; an unknown one does nothing', () => {
  const { ui, c } = first(fixture('bigcity-mid'));
  const street = run(ui, c, { type: 'set_mode', mode: 'streetcar' });
  const seg = c.legal.streetcars[0];
  const key = segKey(seg);
  const picked = reduceUI(street, { type: 'click_segment', key }, c);
  assert.deepEqual(picked.selected, { type: 'streetcar', segment: seg });
  assert.equal(reduceUI(street, { type: 'click_segment', key: '99,99|99,100' }, c).selected, null);
  // Not in streetcar mode: the click is not a choice.
  assert.equal(reduceUI(ui, { type: 'click_segment', key }, c).selected, null);
  // Unselect keeps the mode; cancel returns to the phase's.
  assert.equal(reduceUI(picked, { type: 'unselect' }, c).mode, 'streetcar');
  assert.equal(reduceUI(picked, { type: 'unselect' }, c).selected, null);
});

test('cancel forgets the half-made choices and returns to the mode the phase imposes', () => {
  const mid = first(fixture('bigcity-mid'));
  const half = run(mid.ui, mid.c, { type: 'pick_piece', piece: 'residence_single' }, { type: 'click_prop', prop: 61 }, { type: 'press_pass' });
  const cancelled = reduceUI(half, { type: 'cancel' }, mid.c);
  assert.equal(cancelled.mode, null);
  assert.equal(cancelled.piece, null);
  assert.equal(cancelled.selected, null);
  assert.equal(cancelled.passArmed, false);
  const start = first(fixture('bigcity-start'));
  assert.equal(run(start.ui, start.c, { type: 'set_mode', mode: null }, { type: 'cancel' }).mode, 'tile');
  const answer = first(fixture('bigcity-trade-answer'));
  const picked = run(answer.ui, answer.c, { type: 'toggle_card', card: 19 }, { type: 'cancel' });
  assert.equal(picked.mode, 'trade_answer');
  assert.deepEqual(picked.cardSel, []);
});

test('pass: a first press arms the button and its timer; a second one passes; the timer disarms it', () => {
  const { ui, c } = first(fixture('bigcity-mid'));
  const armed = reduceUI(ui, { type: 'press_pass' }, c);
  assert.equal(armed.passArmed, true);
  assert.deepEqual(armed.effects, [{ type: 'pass_timer', start: true }]);
  const passed = reduceUI(armed, { type: 'press_pass' }, c);
  assert.equal(passed.passArmed, false);
  assert.deepEqual(passed.effects, [{ type: 'pass_timer', start: false }, { type: 'send', mv: { type: 'pass' } }]);
  assert.equal(reduceUI(armed, { type: 'disarm_pass' }, c).passArmed, false);
  // Choosing another action disarms it too.
  assert.equal(reduceUI(armed, { type: 'set_mode', mode: 'build' }, c).passArmed, false);
});

test('exchange: cards are picked only in a mode that picks them; confirm sends them', () => {
  const { ui, c } = first(fixture('bigcity-mid'));
  assert.deepEqual(reduceUI(ui, { type: 'toggle_card', card: 88 }, c).cardSel, [], 'no mode: the hand is not picked');
  const picked = run(ui, c, { type: 'set_mode', mode: 'exchange' }, { type: 'toggle_card', card: 88 }, { type: 'toggle_card', card: 61 }, { type: 'toggle_card', card: 71 }, { type: 'toggle_card', card: 61 });
  assert.deepEqual(picked.cardSel, [88, 71]);
  const sent = reduceUI(picked, { type: 'send_exchange' }, c);
  assert.deepEqual(sent.effects, [{ type: 'send', mv: { type: 'exchange', cards: [88, 71] } }]);
  assert.deepEqual(sent.cardSel, []);
  assert.equal(sent.mode, null);
  // Another mode starts with no cards picked.
  assert.deepEqual(reduceUI(picked, { type: 'set_mode', mode: 'build' }, c).cardSel, []);
});

test('trade offer: two wanted neighborhoods at most, the offer sent sorted', () => {
  const { ui, c } = first(fixture('bigcity-mid'));
  const offer = run(
    ui,
    c,
    { type: 'set_mode', mode: 'trade_offer' },
    { type: 'toggle_card', card: 86 },
    { type: 'toggle_wanted', n: 5 },
    { type: 'toggle_wanted', n: 2 },
    { type: 'toggle_wanted', n: 7 },
  );
  assert.deepEqual(offer.wanted, [2, 7], 'a third replaces the oldest');
  assert.deepEqual(reduceUI(offer, { type: 'toggle_wanted', n: 2 }, c).wanted, [7]);
  const sent = reduceUI(offer, { type: 'send_offer' }, c);
  assert.deepEqual(sent.effects, [{ type: 'send', mv: { type: 'trade_offer', cards: [86], wanted: [2, 7] } }]);
  assert.deepEqual(sent.wanted, []);
  assert.deepEqual(sent.cardSel, []);
  assert.equal(sent.mode, null);
});

test('trade answer: the phase picks cards; answering or declining sends them', () => {
  const { ui, c } = first(fixture('bigcity-trade-answer'));
  assert.equal(ui.mode, 'trade_answer');
  const picked = run(ui, c, { type: 'toggle_card', card: 24 }, { type: 'toggle_card', card: 57 });
  const answered = reduceUI(picked, { type: 'send_answer', decline: false }, c);
  assert.deepEqual(answered.effects, [{ type: 'send', mv: { type: 'trade_answer', cards: [24, 57] } }]);
  assert.deepEqual(answered.cardSel, []);
  const declined = reduceUI(picked, { type: 'send_answer', decline: true }, c);
  assert.deepEqual(declined.effects, [{ type: 'send', mv: { type: 'trade_answer', cards: [] } }]);
});

test('trade accept: as many picks as cards offered, each given for an offered card', () => {
  const { ui, c } = first(fixture('bigcity-trade-accept'));
  assert.equal(ui.mode, 'trade_accept');
  const picked = run(ui, c, { type: 'toggle_pick', seat: 0, index: 0 }, { type: 'toggle_pick', seat: 2, index: 0 }, { type: 'toggle_pick', seat: 2, index: 1 });
  assert.deepEqual(picked.picks, [{ seat: 2, index: 0 }, { seat: 2, index: 1 }], 'two cards offered: a third pick replaces the oldest');
  assert.deepEqual(reduceUI(picked, { type: 'toggle_pick', seat: 2, index: 0 }, c).picks, [{ seat: 2, index: 1 }]);
  const accepted = reduceUI(picked, { type: 'send_accept', none: false }, c);
  assert.deepEqual(accepted.effects, [{ type: 'send', mv: { type: 'trade_accept', picks: [{ give: 19, seat: 2, index: 0 }, { give: 36, seat: 2, index: 1 }] } }]);
  assert.deepEqual(accepted.picks, []);
  const none = reduceUI(picked, { type: 'send_accept', none: true }, c);
  assert.deepEqual(none.effects, [{ type: 'send', mv: { type: 'trade_accept', picks: [] } }]);
});

test('a new version keeps the choice within the decision; a new decision resets it; new things are marked fresh', () => {
  const data = fixture('bigcity-mid');
  const { ui, c } = first(data);
  assert.equal(ui.fresh.buildings, Infinity, 'nothing is new on the first view');
  assert.equal(ui.freshAt, 1000);
  const chosen = run(ui, c, { type: 'pick_piece', piece: 'residence_single' }, { type: 'click_prop', prop: 61 }, { type: 'toggle_wanted', n: 3 });
  assert.ok(chosen.selected);
  // Version 2, same decision: a building and a card more.
  const view = structuredClone(data.view);
  view.buildings.push({ piece: 'business_single', cells: [11], owner: 0, points: 2 });
  view.streetcars.push({ x1: 0, y1: -2, x2: 1, y2: -2 });
  view.hands.find((/** @type {any} */ hd) => hd.seat === data.seat).cards.push(12);
  const c2 = choiceCtx(boardState(data, { view, version: 2 }));
  const same = reduceUI(chosen, { type: 'arrived', prev: 1, now: 2000 }, c2);
  assert.equal(same.mode, 'build', 'same decision: the mode stays');
  assert.equal(same.piece, 'residence_single');
  assert.deepEqual(same.wanted, [3]);
  assert.equal(same.selected, null, 'but the selection is dropped');
  assert.equal(same.anchorProp, null);
  assert.equal(same.fresh.buildings, data.view.buildings.length, 'the new building is fresh');
  assert.equal(same.fresh.streetcars, data.view.streetcars.length, 'the new streetcar is fresh');
  assert.equal(same.fresh.tiles, data.view.tiles.length, 'no new tile');
  assert.deepEqual([...same.fresh.hand], [12], 'the new card is fresh');
  assert.equal(same.freshAt, 2000);
  // The same version again (a redraw): nothing changes.
  const again = reduceUI(same, { type: 'arrived', prev: 2, now: 3000 }, c2);
  assert.equal(differs(same, again), false);
  // A new decision (the next turn): the half-made choices go.
  const next = structuredClone(view);
  next.turn_number += 1;
  const c3 = choiceCtx(boardState(data, { view: next, version: 3 }));
  const reset = reduceUI(same, { type: 'arrived', prev: 2, now: 4000 }, c3);
  assert.equal(reset.mode, null);
  assert.equal(reset.piece, null);
  assert.deepEqual(reset.wanted, []);
  assert.equal(reset.fresh.buildings, view.buildings.length);
});

test('a replay marks nothing fresh', () => {
  const data = fixture('bigcity-mid');
  const c = choiceCtx(boardState(data, { replay: true }));
  const ui = run(initialUI(), c, { type: 'arrived', prev: null, now: 1 });
  const view = structuredClone(data.view);
  view.buildings.push({ piece: 'business_single', cells: [11], owner: 0, points: 2 });
  const c2 = choiceCtx(boardState(data, { replay: true, view, version: 2 }));
  const after = reduceUI(ui, { type: 'arrived', prev: 1, now: 2 }, c2);
  assert.equal(after.fresh.buildings, Infinity);
});

test('hover and zoom: the pointer\'s property; zoom between 1 and 3', () => {
  const { ui, c } = first(fixture('bigcity-mid'));
  assert.equal(reduceUI(ui, { type: 'hover', prop: 61 }, c).hoverProp, 61);
  assert.equal(differs(ui, reduceUI(ui, { type: 'hover', prop: null }, c)), false);
  const zoomed = run(ui, c, { type: 'zoom', by: 1.25 }, { type: 'zoom', by: 1.25 });
  assert.equal(zoomed.zoom, 1.5625);
  assert.equal(run(ui, c, ...Array.from({ length: 10 }, () => /** @type {UIAction} */ ({ type: 'zoom', by: 1.25 }))).zoom, 3);
  assert.equal(reduceUI(ui, { type: 'zoom', by: 1 / 1.25 }, c).zoom, 1);
});

test('the reducer never changes the value it is given', () => {
  const { ui, c } = first(fixture('bigcity-mid'));
  const frozen = Object.freeze({ ...ui, cardSel: Object.freeze([...ui.cardSel]) });
  const before = JSON.stringify(frozen);
  run(/** @type {UI} */ (frozen), c, { type: 'set_mode', mode: 'exchange' }, { type: 'toggle_card', card: 61 }, { type: 'send_exchange' });
  for (const a of /** @type {UIAction[]} */ ([{ type: 'pick_piece', piece: 'residence_single' }, { type: 'press_pass' }, { type: 'cancel' }, { type: 'arrived', prev: 0, now: 5 }])) {
    const next = reduceUI(/** @type {UI} */ (frozen), a, c);
    assert.notEqual(next, frozen);
  }
  assert.equal(JSON.stringify(frozen), before);
});
