// The Big City board as its parts see it (the table's state, the player's
// choices, its elements, `dispatch`) and the questions every part asks of them.
// The choices themselves and how each action changes them are in choices.js.

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Move} Move
 * @typedef {import('./choices.js').Mode} Mode
 * @typedef {import('./choices.js').UI} UI
 * @typedef {import('./choices.js').UIAction} UIAction
 * @typedef {import('./choices.js').ChoiceCtx} ChoiceCtx
 * @typedef {import('../index.js').BoardState} BoardState
 * @typedef {import('../index.js').BoardCtx} BoardCtx
 *
 * @typedef {object} Els
 * @property {HTMLElement} root
 * @property {HTMLElement} status
 * @property {HTMLElement} city
 * @property {HTMLElement} actions
 * @property {HTMLElement} hand
 * @property {HTMLElement} stacks
 * @property {HTMLElement} supply
 * @property {HTMLElement} others
 * @property {HTMLElement} trade
 * @property {HTMLElement} final
 * @property {HTMLDetailsElement} help
 *
 * @typedef {object} B the board: the table's state, the choices, its elements and its actions
 * @property {BoardCtx} ctx
 * @property {BoardState} state
 * @property {ChoiceCtx} c what the choices depend on in `state` (my legal moves grouped...)
 * @property {Readonly<UI>} ui the player's choices: changed only by `dispatch`
 * @property {Els} els
 * @property {SVGSVGElement | null} svg
 * @property {SVGGElement | null} previewLayer
 * @property {(action: UIAction) => void} dispatch changes the choices, does what they ask and redraws
 * @property {(mv: Move) => void} send plays a move that leaves the choices as they are
 * @property {() => void} renderAll
 * @property {() => void} renderActions
 * @property {() => void} renderTrade
 * @property {() => void} renderHand
 * @property {() => void} renderCity
 * @property {(mv: Move | null, miss?: {gx: number, gy: number} | null) => void} drawPreview
 */

/** @param {B} b */
export function view(b) {
  return /** @type {View} */ (b.state.view);
}

/**
 * Is it my decision (and not a replay)?
 * @param {B} b
 */
export function mine(b) {
  return b.c.mine;
}

/**
 * My legal moves, grouped (none when it is not my decision).
 * @param {B} b
 */
export function legal(b) {
  return b.c.legal;
}

/** @param {B} b */
export function myHand(b) {
  const seat = b.state.mySeat;
  if (seat === undefined) return null;
  return view(b).hands.find((hd) => hd.seat === seat)?.cards ?? null;
}

/**
 * @param {B} b
 * @param {number} seat
 */
export function seatColor(b, seat) {
  return b.state.seats[seat]?.color ?? '#777';
}

/**
 * @param {B} b
 * @param {number} seat
 */
export function seatName(b, seat) {
  return b.state.seats[seat]?.name ?? `#${seat + 1}`;
}

/**
 * Highlights only right after the change, not on every later redraw.
 * @param {Readonly<UI>} ui
 */
export function freshNow(ui) {
  return performance.now() - ui.freshAt < 1500;
}
