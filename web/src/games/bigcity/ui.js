// The Big City board's own state (what the player is choosing: a mode, a
// piece, a tile and its rotation, a selected move, cards picked...) and the
// questions every part of the board asks of it and of the table's state.

import { tileSize } from './rules.js';
import { groupLegal } from './legal.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Piece} Piece
 * @typedef {import('./legal.js').Legal} Legal
 * @typedef {import('./legal.js').Placement} Placement
 * @typedef {import('../index.js').BoardState} BoardState
 * @typedef {import('../index.js').BoardCtx} BoardCtx
 *
 * @typedef {'build' | 'tile' | 'streetcar' | 'exchange' | 'trade_offer' | 'trade_answer' | 'trade_accept' | 'trade_exchange' | null} Mode
 *
 * @typedef {object} UI
 * @property {Mode} mode
 * @property {Piece | null} piece the piece to build
 * @property {number} tileN the tile to place
 * @property {number} rotation its rotation, clockwise degrees
 * @property {Move | null} selected the move shown for confirmation
 * @property {number | null} anchorProp the property last clicked (cycles candidates)
 * @property {number} cycle
 * @property {number[]} cardSel cards picked in the hand
 * @property {number[]} wanted neighborhoods wanted in a trade offer
 * @property {{seat: number, index: number}[]} picks answers picked in a trade
 * @property {boolean} passArmed the pass button asks for confirmation
 * @property {ReturnType<typeof setTimeout> | undefined} passTimer
 * @property {string} phaseKey the decision last drawn: a new one resets the choices
 * @property {number | null} hoverProp
 * @property {number} zoom
 * @property {{buildings: number, streetcars: number, tiles: number, hand: Set<number> | null}} seen
 *   what was on the table at the previous version
 * @property {{buildings: number, streetcars: number, tiles: number, hand: Set<number>}} fresh
 *   what is new since (highlighted for a moment)
 * @property {number} freshAt
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
 * @typedef {object} B the board: the table's state, its own, its elements and its actions
 * @property {BoardCtx} ctx
 * @property {BoardState} state
 * @property {UI} ui
 * @property {Els} els
 * @property {SVGSVGElement | null} svg
 * @property {SVGGElement | null} previewLayer
 * @property {(mv: Move) => void} send
 * @property {() => void} renderAll
 * @property {() => void} renderActions
 * @property {() => void} renderTrade
 * @property {() => void} renderHand
 * @property {() => void} renderCity
 * @property {(mv: Move | null, miss?: {gx: number, gy: number} | null) => void} drawPreview
 * @property {(mode: Mode) => void} setMode
 * @property {() => void} cancel
 * @property {() => void} rotate
 * @property {() => void} confirm
 * @property {() => void} resetSelection
 */

/** @returns {UI} */
export function initialUI() {
  return {
    mode: null,
    piece: null,
    tileN: 0,
    rotation: 0,
    selected: null,
    anchorProp: null,
    cycle: 0,
    cardSel: [],
    wanted: [],
    picks: [],
    passArmed: false,
    passTimer: undefined,
    phaseKey: '',
    hoverProp: null,
    zoom: 1,
    seen: { buildings: -1, streetcars: -1, tiles: -1, hand: null },
    fresh: { buildings: Infinity, streetcars: Infinity, tiles: Infinity, hand: new Set() },
    freshAt: 0,
  };
}

/** @param {B} b */
export function view(b) {
  return /** @type {View} */ (b.state.view);
}

/**
 * Is it my decision (and not a replay)?
 * @param {B} b
 */
export function mine(b) {
  const st = b.state;
  return Boolean(st && !st.replay && st.mySeat !== undefined && st.awaiting.seats.includes(st.mySeat));
}

/** @param {B} b */
export function legal(b) {
  return groupLegal(mine(b) && b.state.legal ? b.state.legal.moves : null);
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
 * @param {UI} ui
 */
export function freshNow(ui) {
  return performance.now() - ui.freshAt < 1500;
}

/**
 * Forgets the player's half-made choices (piece, cards, wanted cards, picks, an armed
 * pass) and returns to the mode the game's step suggests.
 * @param {B} b
 */
export function clearChoices(b) {
  const ui = b.ui;
  ui.mode = autoMode(b);
  ui.piece = null;
  ui.cardSel = [];
  ui.wanted = [];
  ui.picks = [];
  ui.passArmed = false;
}

/**
 * The mode the phase imposes, if any.
 * @param {B} b
 * @returns {Mode}
 */
export function autoMode(b) {
  if (!mine(b)) return null;
  switch (view(b).phase.type) {
    case 'starting_city':
      return 'tile';
    case 'second_streetcar':
      return 'streetcar';
    case 'trade_answers':
      return 'trade_answer';
    case 'trade_accept':
      return 'trade_accept';
    case 'trade_exchange':
      return 'trade_exchange';
    default:
      return null;
  }
}

/**
 * The tiles I may place, in order.
 * @param {B} b
 */
export function tileChoices(b) {
  return [...new Set(legal(b).tiles.map((p) => p.neighborhood))].sort((a, b2) => a - b2);
}

/** @param {Placement} p */
export function tileCenter(p) {
  const [w, hh] = tileSize(p.neighborhood, p.rotation);
  return [p.x + w / 2, p.y + hh / 2];
}

/**
 * The legal placement of the chosen tile and rotation nearest to a point.
 * @param {B} b
 * @param {number} px
 * @param {number} py
 */
export function nearestPlacement(b, px, py) {
  let best = null;
  let bestD = Infinity;
  for (const p of legal(b).tiles) {
    if (p.neighborhood !== b.ui.tileN || p.rotation !== b.ui.rotation) continue;
    const [cx, cy] = tileCenter(p);
    const d = Math.hypot(cx - px, cy - py);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best && bestD <= 2.2 ? best : null;
}

/**
 * The legal footprints of the chosen piece that cover a property.
 * @param {B} b
 * @param {number} prop
 */
export function candidatesAt(b, prop) {
  const piece = b.ui.piece;
  if (!piece) return [];
  return (legal(b).build.get(piece) ?? []).filter((cells) => cells.includes(prop));
}

/**
 * A new state arrived: a new decision resets the choices; a new version marks
 * what is new on the table.
 * @param {B} b
 * @param {BoardState | null} prev
 * @param {BoardState} next
 */
export function arrived(b, prev, next) {
  const ui = b.ui;
  const v = view(b);
  const key = `${v.phase.type}:${'seat' in v.phase ? v.phase.seat : ''}:${mine(b)}:${v.turn_number}`;
  if (key !== ui.phaseKey || (prev && prev.version !== next.version)) {
    const phaseChanged = key !== ui.phaseKey;
    ui.phaseKey = key;
    if (phaseChanged) clearChoices(b);
    ui.selected = null;
    ui.anchorProp = null;
    ui.cycle = 0;
  }
  if (ui.mode === 'tile' && !tileChoices(b).includes(ui.tileN)) ui.tileN = tileChoices(b)[0] ?? 0;
  if (!prev || prev.version !== next.version) {
    const hand = new Set(myHand(b) ?? []);
    const seen = ui.seen;
    const first = seen.buildings < 0 || next.replay;
    ui.fresh = {
      buildings: first ? Infinity : seen.buildings,
      streetcars: first ? Infinity : seen.streetcars,
      tiles: first ? Infinity : seen.tiles,
      hand: first || !seen.hand ? new Set() : new Set([...hand].filter((c) => !seen.hand?.has(c))),
    };
    ui.seen = { buildings: v.buildings.length, streetcars: v.streetcars.length, tiles: v.tiles.length, hand };
    ui.freshAt = performance.now();
  }
}
