// What the player is choosing on the Big City board (a mode, a piece, a tile
// and its rotation, a selected move, cards picked...) as one value, and the one
// function that changes it: `reduceUI(ui, action, ctx)`, for each action on the
// board and each new state from the table. It is pure: what it needs of the
// table (the view, my legal moves grouped, my seat, a replay) comes in `ctx`,
// the clock in the action; what must happen outside (send a move, warn, start
// or stop the pass button's timer) is listed in the new value's `effects`,
// which the board carries out after each action.

import { tileSize, segKey, pieceKind } from './rules.js';
import { groupLegal } from './legal.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Piece} Piece
 * @typedef {import('./legal.js').Legal} Legal
 * @typedef {import('./legal.js').Placement} Placement
 * @typedef {import('../index.js').BoardState} BoardState
 *
 * @typedef {'build' | 'tile' | 'streetcar' | 'exchange' | 'trade_offer' | 'trade_answer' | 'trade_accept' | 'trade_exchange' | null} Mode
 *
 * @typedef {{type: 'send', mv: Move}
 *   | {type: 'warn', key: string, args?: Record<string, string | number>}
 *   | {type: 'pass_timer', start: boolean}} UIEffect
 *   `pass_timer`: stop the pass button's timer, and start it again if `start`
 *   (when it runs out, the board dispatches `disarm_pass`)
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
 * @property {string} phaseKey the decision last drawn: a new one resets the choices
 * @property {number | null} hoverProp
 * @property {number} zoom
 * @property {{buildings: number, streetcars: number, tiles: number, hand: Set<number> | null}} seen
 *   what was on the table at the previous version
 * @property {{buildings: number, streetcars: number, tiles: number, hand: Set<number>}} fresh
 *   what is new since (highlighted for a moment)
 * @property {number} freshAt the clock (ms) when `fresh` was marked
 * @property {UIEffect[]} effects what the last action asks of the board
 *
 * @typedef {object} ChoiceCtx what the choices depend on in the table's state
 * @property {View} view
 * @property {number} version
 * @property {number | undefined} mySeat
 * @property {boolean} replay
 * @property {boolean} mine it is my decision (and not a replay)
 * @property {Legal} legal my legal moves, grouped (none when it is not my decision)
 *
 * @typedef {{type: 'arrived', prev: number | null, now: number}
 *   | {type: 'set_mode', mode: Mode}
 *   | {type: 'pick_piece', piece: Piece}
 *   | {type: 'pick_tile', n: number}
 *   | {type: 'rotate'}
 *   | {type: 'click_prop', prop: number}
 *   | {type: 'click_segment', key: string}
 *   | {type: 'click_tile_spot', gx: number, gy: number}
 *   | {type: 'hover', prop: number | null}
 *   | {type: 'zoom', by: number}
 *   | {type: 'confirm'}
 *   | {type: 'unselect'}
 *   | {type: 'cancel'}
 *   | {type: 'press_pass'}
 *   | {type: 'disarm_pass'}
 *   | {type: 'toggle_card', card: number}
 *   | {type: 'toggle_wanted', n: number}
 *   | {type: 'toggle_pick', seat: number, index: number}
 *   | {type: 'send_exchange'}
 *   | {type: 'send_offer'}
 *   | {type: 'send_answer', decline: boolean}
 *   | {type: 'send_accept', none: boolean}} UIAction
 *   `arrived`: a new state came from the table (`prev`: the version shown before,
 *   null for the first; `now`: the clock, ms)
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
    phaseKey: '',
    hoverProp: null,
    zoom: 1,
    seen: { buildings: -1, streetcars: -1, tiles: -1, hand: null },
    fresh: { buildings: Infinity, streetcars: Infinity, tiles: Infinity, hand: new Set() },
    freshAt: 0,
    effects: [],
  };
}

/**
 * What the choices depend on in the board's state.
 * @param {BoardState} st
 * @returns {ChoiceCtx}
 */
export function choiceCtx(st) {
  const mine = Boolean(st && !st.replay && st.mySeat !== undefined && st.awaiting.seats.includes(st.mySeat));
  return {
    view: /** @type {View} */ (st.view),
    version: st.version,
    mySeat: st.mySeat,
    replay: st.replay,
    mine,
    legal: groupLegal(mine && st.legal ? st.legal.moves : null),
  };
}

/**
 * My cards, if I have a seat.
 * @param {ChoiceCtx} c
 */
export function handOf(c) {
  if (c.mySeat === undefined) return null;
  return c.view.hands.find((hd) => hd.seat === c.mySeat)?.cards ?? null;
}

/**
 * The mode the phase imposes, if any.
 * @param {ChoiceCtx} c
 * @returns {Mode}
 */
export function autoMode(c) {
  if (!c.mine) return null;
  switch (c.view.phase.type) {
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
 * @param {ChoiceCtx} c
 */
export function tileChoices(c) {
  return [...new Set(c.legal.tiles.map((p) => p.neighborhood))].sort((a, b) => a - b);
}

/** @param {Placement} p */
export function tileCenter(p) {
  const [w, hh] = tileSize(p.neighborhood, p.rotation);
  return [p.x + w / 2, p.y + hh / 2];
}

/**
 * The legal placement of the chosen tile and rotation nearest to a point.
 * @param {Readonly<UI>} ui
 * @param {ChoiceCtx} c
 * @param {number} px
 * @param {number} py
 */
export function nearestPlacement(ui, c, px, py) {
  let best = null;
  let bestD = Infinity;
  for (const p of c.legal.tiles) {
    if (p.neighborhood !== ui.tileN || p.rotation !== ui.rotation) continue;
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
 * @param {Readonly<UI>} ui
 * @param {ChoiceCtx} c
 * @param {number} prop
 */
export function candidatesAt(ui, c, prop) {
  const piece = ui.piece;
  if (!piece) return [];
  return (c.legal.build.get(piece) ?? []).filter((cells) => cells.includes(prop));
}

/** The modes in which cards of the hand are picked. */
const CARD_MODES = ['exchange', 'trade_offer', 'trade_answer', 'trade_exchange'];

/** @param {Mode} mode */
export function picksCards(mode) {
  return CARD_MODES.includes(/** @type {string} */ (mode));
}

/**
 * The choices after `action`; their `effects` list what the board must do for it.
 * @param {Readonly<UI>} ui
 * @param {UIAction} action
 * @param {ChoiceCtx} c
 * @returns {UI}
 */
export function reduceUI(ui, action, c) {
  /** @type {UI} */
  const u = { ...ui, effects: [] };
  switch (action.type) {
    case 'arrived':
      return arrived(u, action.prev, action.now, c);
    case 'set_mode':
      return setMode(u, action.mode, c);
    case 'pick_piece':
      // From the supply, the piece also opens building.
      if (u.mode !== 'build') setMode(u, 'build', c);
      u.piece = action.piece;
      return unselect(u);
    case 'pick_tile':
      u.tileN = action.n;
      return unselect(u);
    case 'rotate':
      rotate(u, c);
      return u;
    case 'click_prop':
      if (!c.mine || u.mode !== 'build' || !u.piece) return u;
      return clickProp(u, action.prop, c);
    case 'click_segment': {
      if (!c.mine || u.mode !== 'streetcar') return u;
      const seg = c.legal.streetcars.find((sg) => segKey(sg) === action.key);
      if (!seg) return u;
      u.selected = { type: 'streetcar', segment: seg };
      return u;
    }
    case 'click_tile_spot':
      if (!c.mine || u.mode !== 'tile') return u;
      return clickTileSpot(u, action.gx, action.gy, c);
    case 'hover':
      u.hoverProp = action.prop;
      return u;
    case 'zoom':
      u.zoom = Math.max(1, Math.min(3, u.zoom * action.by));
      return u;
    case 'confirm': {
      const mv = u.selected;
      if (!mv) return u;
      u.effects.push({ type: 'send', mv });
      unselect(u);
      if (u.mode === 'build' || u.mode === 'tile') {
        u.mode = null;
        u.piece = null;
      }
      return u;
    }
    case 'unselect':
      return unselect(u);
    case 'cancel':
      clearChoices(u, c);
      return unselect(u);
    case 'press_pass':
      // A first press arms the button for a moment; a second one passes.
      if (u.passArmed) {
        u.passArmed = false;
        u.effects.push({ type: 'pass_timer', start: false }, { type: 'send', mv: { type: 'pass' } });
      } else {
        u.passArmed = true;
        u.effects.push({ type: 'pass_timer', start: true });
      }
      return u;
    case 'disarm_pass':
      u.passArmed = false;
      return u;
    case 'toggle_card': {
      if (!picksCards(u.mode)) return u;
      const card = action.card;
      u.cardSel = u.cardSel.includes(card) ? u.cardSel.filter((x) => x !== card) : [...u.cardSel, card];
      return u;
    }
    case 'toggle_wanted': {
      // At most two neighborhoods: a third replaces the oldest.
      const n = action.n;
      u.wanted = u.wanted.includes(n) ? u.wanted.filter((x) => x !== n) : [...u.wanted, n].slice(-2);
      return u;
    }
    case 'toggle_pick': {
      const tr = c.view.trade;
      if (!tr) return u;
      // As many picks as cards offered, two at most: a new one replaces the oldest.
      const max = Math.min(2, (tr.offered_cards ?? []).length || tr.offered.length);
      const { seat, index } = action;
      const on = u.picks.some((p) => p.seat === seat && p.index === index);
      u.picks = on ? u.picks.filter((p) => !(p.seat === seat && p.index === index)) : [...u.picks, { seat, index }].slice(-max);
      return u;
    }
    case 'send_exchange':
      u.effects.push({ type: 'send', mv: { type: 'exchange', cards: [...u.cardSel] } });
      u.cardSel = [];
      u.mode = null;
      return u;
    case 'send_offer':
      u.effects.push({ type: 'send', mv: { type: 'trade_offer', cards: [...u.cardSel], wanted: [...u.wanted].sort((x, y) => x - y) } });
      u.cardSel = [];
      u.wanted = [];
      u.mode = null;
      return u;
    case 'send_answer':
      u.effects.push({ type: 'send', mv: { type: 'trade_answer', cards: action.decline ? [] : [...u.cardSel] } });
      u.cardSel = [];
      return u;
    case 'send_accept': {
      const offered = c.view.trade?.offered_cards ?? [];
      const picks = action.none ? [] : u.picks.map((p, i) => ({ give: offered[i] ?? 0, seat: p.seat, index: p.index }));
      u.effects.push({ type: 'send', mv: { type: 'trade_accept', picks } });
      u.picks = [];
      return u;
    }
    default:
      return u;
  }
}

/**
 * Drops the move shown for confirmation.
 * @param {UI} u a fresh copy, changed in place
 */
function unselect(u) {
  u.selected = null;
  u.anchorProp = null;
  u.cycle = 0;
  return u;
}

/**
 * Forgets the player's half-made choices (piece, cards, wanted cards, picks, an
 * armed pass) and returns to the mode the game's step suggests.
 * @param {UI} u a fresh copy, changed in place
 * @param {ChoiceCtx} c
 */
function clearChoices(u, c) {
  u.mode = autoMode(c);
  u.piece = null;
  u.cardSel = [];
  u.wanted = [];
  u.picks = [];
  u.passArmed = false;
  return u;
}

/**
 * The chosen tile, if it may still be placed; else the first that may.
 * @param {UI} u a fresh copy, changed in place
 * @param {ChoiceCtx} c
 */
function keepTile(u, c) {
  const hoods = tileChoices(c);
  if (!hoods.includes(u.tileN)) u.tileN = hoods[0] ?? 0;
}

/**
 * @param {UI} u a fresh copy, changed in place
 * @param {Mode} mode
 * @param {ChoiceCtx} c
 */
function setMode(u, mode, c) {
  u.mode = mode;
  unselect(u);
  u.cardSel = [];
  u.passArmed = false;
  if (mode === 'tile') keepTile(u, c);
  return u;
}

/**
 * Turns the tile being placed (the selected spot follows, if the turned tile fits
 * there), or shows the next footprint under the property last clicked.
 * @param {UI} u a fresh copy, changed in place
 * @param {ChoiceCtx} c
 */
function rotate(u, c) {
  if (u.mode === 'tile') {
    const sel = u.selected;
    const center = sel && sel.type === 'place_neighborhood' ? tileCenter(sel) : null;
    u.rotation = (u.rotation + 90) % 360;
    if (center) {
      const next = nearestPlacement(u, c, center[0], center[1]);
      u.selected = next ? { type: 'place_neighborhood', ...next } : null;
    }
    return u;
  }
  if (u.mode === 'build' && u.anchorProp !== null && u.piece) {
    const cands = candidatesAt(u, c, u.anchorProp);
    if (cands.length > 1) {
      u.cycle = (u.cycle + 1) % cands.length;
      u.selected = { type: 'build', piece: u.piece, cells: cands[u.cycle] };
    }
  }
  return u;
}

/**
 * A click on a property while building: selects a footprint of the piece over
 * it, the next one on a second click. On a property that is not highlighted, says
 * why; a one-property building on a card I hold goes to the server, which says
 * the rule.
 * @param {UI} u a fresh copy, changed in place
 * @param {number} prop
 * @param {ChoiceCtx} c
 */
function clickProp(u, prop, c) {
  const piece = /** @type {Piece} */ (u.piece);
  const cands = candidatesAt(u, c, prop);
  if (!cands.length) {
    const kind = pieceKind(piece);
    const onePiece = ['residence_single', 'business_single', 'city_hall', 'church', 'cinema', 'post_office', 'bank'].includes(piece);
    if (kind === 'park' || kind === 'factory' || !onePiece) u.effects.push({ type: 'warn', key: 'act.no_spot' });
    else if (!(handOf(c) ?? []).includes(prop)) u.effects.push({ type: 'warn', key: 'act.not_held', args: { p: prop } });
    else u.effects.push({ type: 'send', mv: { type: 'build', piece, cells: [prop] } });
    return u;
  }
  if (u.anchorProp === prop && u.selected) {
    u.cycle = (u.cycle + 1) % cands.length;
  } else {
    u.anchorProp = prop;
    u.cycle = 0;
  }
  u.selected = { type: 'build', piece, cells: cands[u.cycle] };
  return u;
}

/**
 * A click on the city while placing a tile: on the selected spot it turns the
 * tile; elsewhere it selects the nearest legal spot, if there is one near.
 * @param {UI} u a fresh copy, changed in place
 * @param {number} gx
 * @param {number} gy
 * @param {ChoiceCtx} c
 */
function clickTileSpot(u, gx, gy, c) {
  const sel = u.selected;
  if (sel && sel.type === 'place_neighborhood') {
    const [w, hh] = tileSize(sel.neighborhood, sel.rotation);
    if (gx >= sel.x && gx < sel.x + w && gy >= sel.y && gy < sel.y + hh) {
      rotate(u, c);
      return u;
    }
  }
  const p = nearestPlacement(u, c, gx, gy);
  if (!p) {
    u.effects.push({ type: 'warn', key: 'act.no_tile_spot' });
    return u;
  }
  u.selected = { type: 'place_neighborhood', ...p };
  return u;
}

/**
 * A new state arrived: a new decision resets the choices; a new version marks
 * what is new on the table.
 * @param {UI} u a fresh copy, changed in place
 * @param {number | null} prev the version shown before (null: none)
 * @param {number} now
 * @param {ChoiceCtx} c
 */
function arrived(u, prev, now, c) {
  const v = c.view;
  const key = `${v.phase.type}:${'seat' in v.phase ? v.phase.seat : ''}:${c.mine}:${v.turn_number}`;
  const newVersion = prev === null || prev !== c.version;
  if (key !== u.phaseKey || (prev !== null && newVersion)) {
    if (key !== u.phaseKey) clearChoices(u, c);
    u.phaseKey = key;
    unselect(u);
  }
  if (u.mode === 'tile') keepTile(u, c);
  if (newVersion) {
    const hand = new Set(handOf(c) ?? []);
    const seen = u.seen;
    const first = seen.buildings < 0 || c.replay;
    u.fresh = {
      buildings: first ? Infinity : seen.buildings,
      streetcars: first ? Infinity : seen.streetcars,
      tiles: first ? Infinity : seen.tiles,
      hand: first || !seen.hand ? new Set() : new Set([...hand].filter((x) => !seen.hand?.has(x))),
    };
    u.seen = { buildings: v.buildings.length, streetcars: v.streetcars.length, tiles: v.tiles.length, hand };
    u.freshAt = now;
  }
  return u;
}

/**
 * Whether two choices differ, their effects aside: after an action that changed
 * nothing, the board has nothing to redraw.
 * @param {Readonly<UI>} a
 * @param {Readonly<UI>} b
 */
export function differs(a, b) {
  const x = /** @type {Record<string, unknown>} */ (a);
  const y = /** @type {Record<string, unknown>} */ (b);
  return Object.keys(x).some((k) => k !== 'effects' && x[k] !== y[k]);
}
