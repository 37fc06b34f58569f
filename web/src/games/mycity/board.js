// My City's board in the browser: each player's map drawn like the printed game
// (mountains, forest, the river along cell edges, trees, rocks, wells, gold), the
// revealed card and the deck, placing with a legal preview and rotation, pass and
// end participation, who has decided (never what), the other cities, the live
// score and the final scoring category by category with its tiebreak.

import { h, s } from '../../dom.js';
import { t, joinNames } from '../../i18n.js';
import { covered, distinctRotations, outline, rotated, spotAt } from './geometry.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').PlayerView} PlayerView
 * @typedef {import('./types').Placement} Placement
 * @typedef {import('./types').Card} Card
 * @typedef {import('./types').Cell} Cell
 * @typedef {import('./types').Color} Color
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').ScoreBreakdown} ScoreBreakdown
 * @typedef {import('./geometry.js').Spot} Spot
 * @typedef {import('../index.js').BoardCtx} BoardCtx
 * @typedef {import('../index.js').BoardState} BoardState
 * @typedef {import('../index.js').Board} Board
 * @typedef {import('../index.js').SeatLook} SeatLook
 */

/** Cell size in SVG units. */
const S = 10;

/** Building colors, as printed. */
export const COLORS = {
  residential: '#f0c330',
  public: '#d8473b',
  industrial: '#3a78c9',
  church: '#8a56b8',
};
const EDGE = { residential: '#8a6a05', public: '#7d1d15', industrial: '#1b3f70', church: '#45235f' };

/** Piece sizes by id (ruling P1), for words when no catalogue is at hand. */
const SIZES = [2, 3, 3, 4, 4, 4, 4, 5, 3, 3, 4, 4, 4, 5, 5, 5, 3, 4, 4, 4, 5, 5, 5, 5, 1, 1, 1];

/** Score categories in the order of the scoring. */
export const CATEGORIES = /** @type {const} */ ([
  'start', 'passes', 'gold', 'trees', 'rocks', 'empty', 'residential', 'public', 'industrial', 'churches', 'wells', 'total',
]);

/**
 * A cell's name as on the board's margins: column letter, row number ("F3").
 * @param {Cell} c
 */
export function cellName(c) {
  return `${String.fromCharCode(65 + c.x)}${c.y + 1}`;
}

/**
 * A card in words.
 * @param {Card | null | undefined} card
 */
export function cardText(card) {
  if (!card) return '';
  if (card.type === 'blocking') return t('mc.blocking');
  if (card.color === 'church') return t('mc.church');
  return t('mc.building', { color: t(`mc.color.${card.color}`), n: SIZES[card.piece] ?? '?' });
}

// ---------------------------------------------------------------------------
// Drawing the map.

/** Seeded jitter so decorations look hand-placed but never move between renders. */
function jitter(/** @type {number} */ i, /** @type {number} */ k) {
  const v = Math.sin(i * 12.9898 + k * 78.233) * 43758.5453;
  return v - Math.floor(v);
}

/**
 * One small tree (canopy and trunk) centred at (cx, cy).
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @param {string} fill
 */
function tree(cx, cy, r, fill) {
  return s(
    'g',
    null,
    s('rect', { x: cx - r * 0.18, y: cy + r * 0.4, width: r * 0.36, height: r * 0.8, fill: '#6b4a2b' }),
    s('circle', { cx, cy, r, fill, stroke: 'rgba(0,0,0,0.35)', 'stroke-width': 0.35 }),
  );
}

/**
 * Terrain of one cell with its decoration.
 * @param {string} terrain
 * @param {number} x
 * @param {number} y
 * @param {number} i cell index
 */
function terrainCell(terrain, x, y, i) {
  const X = x * S;
  const Y = y * S;
  const g = s('g', { class: `terrain ${terrain}`, 'data-terrain': terrain });
  const base = terrain === 'mountain' ? '#a79a86' : terrain === 'forest' ? '#3f7a3a' : '#bcdc8c';
  g.append(s('rect', { x: X, y: Y, width: S, height: S, fill: base }));
  if (terrain === 'mountain') {
    const dx = (jitter(i, 1) - 0.5) * 2;
    g.append(
      s('path', { d: `M${X + 1 + dx} ${Y + 8.5}L${X + 4.5 + dx} ${Y + 2}L${X + 8 + dx} ${Y + 8.5}Z`, fill: '#7b6f60', stroke: '#5a5045', 'stroke-width': 0.4 }),
      s('path', { d: `M${X + 3.4 + dx} ${Y + 4}L${X + 4.5 + dx} ${Y + 2}L${X + 5.6 + dx} ${Y + 4}Z`, fill: '#f4f1ea' }),
      s('path', { d: `M${X + 5.5} ${Y + 9}L${X + 7.6} ${Y + 5.2}L${X + 9.7} ${Y + 9}Z`, fill: '#8c8070', stroke: '#5a5045', 'stroke-width': 0.3 }),
    );
  } else if (terrain === 'forest') {
    g.append(
      tree(X + 3 + jitter(i, 2), Y + 3.2, 2.4, '#2a5e2a'),
      tree(X + 7 - jitter(i, 3), Y + 4.6, 2.2, '#23521f'),
      tree(X + 4 + jitter(i, 4) * 2, Y + 7.2, 2.1, '#2f6a2c'),
    );
  } else if (terrain === 'trees') {
    g.append(tree(X + 3.3, Y + 4, 2.4, '#3f9a3a'), tree(X + 6.8, Y + 5.6, 2.4, '#358a31'));
  } else if (terrain === 'rocks') {
    g.append(
      s('ellipse', { cx: X + 3.5, cy: Y + 6, rx: 2.6, ry: 1.9, fill: '#8d8d88', stroke: '#55554f', 'stroke-width': 0.4 }),
      s('ellipse', { cx: X + 6.8, cy: Y + 4.2, rx: 2.2, ry: 1.7, fill: '#a3a39d', stroke: '#55554f', 'stroke-width': 0.4 }),
      s('path', { d: `M${X + 2.4} ${Y + 5.4}q1 -0.8 2 0`, stroke: '#d6d6d0', 'stroke-width': 0.35, fill: 'none' }),
    );
  } else if (terrain === 'well') {
    g.append(
      s('circle', { cx: X + 5, cy: Y + 5, r: 3.4, fill: '#9b8f7d', stroke: '#5e5446', 'stroke-width': 0.5 }),
      s('circle', { cx: X + 5, cy: Y + 5, r: 2.1, fill: '#3c8bd0' }),
      s('path', { d: `M${X + 1.6} ${Y + 5}H${X + 8.4}`, stroke: '#5e5446', 'stroke-width': 0.3, 'stroke-dasharray': '0.6 0.6' }),
    );
  } else if (terrain === 'gold') {
    g.append(
      s('path', { d: `M${X + 2} ${Y + 7}L${X + 3.5} ${Y + 3.5}L${X + 6} ${Y + 3}L${X + 8} ${Y + 6}L${X + 6.5} ${Y + 8}Z`, fill: '#e8b923', stroke: '#8f6a06', 'stroke-width': 0.45 }),
      s('path', { d: `M${X + 3.6} ${Y + 4.6}L${X + 5.4} ${Y + 4.3}`, stroke: '#fff3b0', 'stroke-width': 0.5 }),
      s('circle', { cx: X + 7.8, cy: Y + 2.4, r: 0.5, fill: '#fff6c4' }),
    );
  }
  return g;
}

/** Static map layers, built once per board info and cloned after. */
const mapCache = new Map();

/**
 * Terrain and grid of the board (everything that never changes).
 * @param {View['board']} board
 */
function staticMap(board) {
  const key = JSON.stringify(board.terrain);
  const cached = mapCache.get(key);
  if (cached) return /** @type {SVGElement} */ (cached.cloneNode(true));
  const g = s('g', { class: 'map' });
  board.terrain.forEach((terrain, i) => g.append(terrainCell(terrain, i % board.width, Math.floor(i / board.width), i)));
  // A light grid over the buildable cells.
  const grid = [];
  for (let i = 0; i < board.terrain.length; i++) {
    const terrain = board.terrain[i];
    if (terrain === 'mountain' || terrain === 'forest') continue;
    const x = (i % board.width) * S;
    const y = Math.floor(i / board.width) * S;
    grid.push(`M${x} ${y}h${S}v${S}h${-S}Z`);
  }
  g.append(s('path', { d: grid.join(''), fill: 'none', stroke: 'rgba(60,90,40,0.35)', 'stroke-width': 0.3 }));
  mapCache.set(key, g.cloneNode(true));
  return g;
}

/**
 * The river along cell edges.
 * @param {View['board']} board
 */
function river(board) {
  const d = board.river
    .map((e) =>
      e.side === 'east'
        ? `M${(e.x + 1) * S} ${e.y * S}V${(e.y + 1) * S}`
        : `M${e.x * S} ${(e.y + 1) * S}H${(e.x + 1) * S}`,
    )
    .join('');
  return s(
    'g',
    { class: 'river', 'data-edges': board.river.length },
    s('path', { d, stroke: '#1f5f9c', 'stroke-width': 3.2, 'stroke-linecap': 'round', fill: 'none' }),
    s('path', { d, stroke: '#58a8e8', 'stroke-width': 2.2, 'stroke-linecap': 'round', fill: 'none' }),
    s('path', { d, stroke: '#bfe2ff', 'stroke-width': 0.5, 'stroke-dasharray': '1.5 2.5', fill: 'none' }),
  );
}

/**
 * A building on the map.
 * @param {{color: Color, cells: Cell[]}} b
 * @param {Record<string, any>} attrs
 */
function building(b, attrs) {
  const g = s('g', { class: `building ${b.color}`, 'data-color': b.color, ...attrs });
  for (const c of b.cells) {
    g.append(s('rect', { x: c.x * S + 0.3, y: c.y * S + 0.3, width: S - 0.6, height: S - 0.6, fill: COLORS[b.color], rx: 0.8 }));
  }
  for (const c of b.cells) {
    // A roof line on every space, as on the printed tiles.
    g.append(s('path', { d: `M${c.x * S + 2.5} ${c.y * S + 5.2}L${c.x * S + 5} ${c.y * S + 3}L${c.x * S + 7.5} ${c.y * S + 5.2}`, fill: 'none', stroke: 'rgba(255,255,255,0.55)', 'stroke-width': 0.7 }));
  }
  if (b.color === 'church' && b.cells[0]) {
    const c = b.cells[0];
    g.append(s('path', { d: `M${c.x * S + 5} ${c.y * S + 2}V${c.y * S + 8.5}M${c.x * S + 3} ${c.y * S + 4}H${c.x * S + 7}`, stroke: '#fff', 'stroke-width': 1.1 }));
  }
  g.append(s('path', { d: outline(b.cells, S), stroke: EDGE[b.color], 'stroke-width': 0.9, fill: 'none', 'stroke-linecap': 'square' }));
  return g;
}

/**
 * One player's map as an SVG.
 * @param {View} view
 * @param {PlayerView | undefined} player
 * @param {{labels?: boolean, id?: string, label?: string}} opts
 */
function mapSvg(view, player, opts) {
  const board = view.board;
  const m = opts.labels ? 5 : 1.5;
  const svg = s('svg', {
    viewBox: `${-m} ${-m} ${board.width * S + 2 * m} ${board.height * S + 2 * m}`,
    class: 'mc-map',
    role: 'img',
    id: opts.id,
    'aria-label': opts.label,
    'data-seat': player?.seat,
  });
  svg.append(s('rect', { x: -m, y: -m, width: board.width * S + 2 * m, height: board.height * S + 2 * m, fill: '#efe4c8', rx: 2 }));
  svg.append(staticMap(board));
  const buildings = s('g', { class: 'buildings' });
  for (const p of player?.placements ?? []) {
    buildings.append(building(p, { 'data-piece': p.piece, 'data-round': p.round }));
  }
  svg.append(buildings);
  svg.append(river(board));
  if (opts.labels) {
    const labels = s('g', { class: 'labels', 'font-size': 3.2, fill: '#6b5a3a', 'text-anchor': 'middle' });
    for (let x = 0; x < board.width; x++) {
      labels.append(s('text', { x: x * S + S / 2, y: -1.4 }, String.fromCharCode(65 + x)));
      labels.append(s('text', { x: x * S + S / 2, y: board.height * S + 4 }, String.fromCharCode(65 + x)));
    }
    for (let y = 0; y < board.height; y++) {
      labels.append(s('text', { x: -2.6, y: y * S + S / 2 + 1.1 }, String(y + 1)));
      labels.append(s('text', { x: board.width * S + 2.6, y: y * S + S / 2 + 1.1 }, String(y + 1)));
    }
    svg.append(labels);
  }
  return svg;
}

/**
 * A card face: the building's shape in its color, or the blocking card.
 * @param {Card | null} card
 * @param {View} view
 * @param {Record<string, any>} attrs
 */
function cardFace(card, view, attrs) {
  if (!card) return h('div', { class: 'mc-cardface empty', ...attrs });
  if (card.type === 'blocking') {
    return h(
      'div',
      { class: 'mc-cardface blocking', 'data-card': 'blocking', ...attrs },
      s('svg', { viewBox: '0 0 40 40', class: 'shape' }, s('circle', { cx: 20, cy: 20, r: 14, fill: 'none', stroke: '#b83232', 'stroke-width': 4 }), s('path', { d: 'M10 30L30 10', stroke: '#b83232', 'stroke-width': 4 })),
      h('span', { class: 'label' }, cardText(card)),
    );
  }
  const piece = view.pieces.find((p) => p.id === card.piece);
  const cells = piece ? rotated(piece.cells, 0) : [{ x: 0, y: 0 }];
  const w = Math.max(...cells.map((c) => c.x)) + 1;
  const hgt = Math.max(...cells.map((c) => c.y)) + 1;
  const side = Math.max(w, hgt, 3);
  const shape = s('svg', { viewBox: `${-(side - w) * S / 2 - 2} ${-(side - hgt) * S / 2 - 2} ${side * S + 4} ${side * S + 4}`, class: 'shape' });
  shape.append(building({ color: card.color, cells }, {}));
  return h(
    'div',
    { class: `mc-cardface ${card.color}`, 'data-card': 'building', 'data-piece': card.piece, 'data-color': card.color, style: { '--card': COLORS[card.color] }, ...attrs },
    shape,
    h('span', { class: 'label' }, cardText(card)),
  );
}

// ---------------------------------------------------------------------------
// The board.

/**
 * @param {BoardCtx} ctx
 * @returns {Board}
 */
export function createMyCityBoard(ctx) {
  ensureStyle();
  const el = h('div', { class: 'mc' });
  /** @type {BoardState | null} */
  let last = null;
  // Placing: the rotation, the cell last pointed at, the spot chosen (awaiting confirmation).
  let rotation = 0;
  /** @type {Cell | null} */
  let pointed = null;
  /** @type {Spot | null} */
  let chosen = null;
  let endArmed = false;
  let roundKey = '';
  /** @type {number | null} */
  let sentVersion = null;
  /**
   * My last decision sent this round. Decisions are simultaneous: when another
   * seat's decision lands first, mine was made on an older version and is refused
   * as stale, so it is sent again on the new version (at most a few times).
   * @type {{mv: Move, round: number, version: number, tries: number} | null}
   */
  let lastSent = null;
  /**
   * The parts of my map that follow the pointer without a full redraw.
   * @type {{svg: SVGSVGElement, ghostLayer: SVGElement, prompt: HTMLElement, piece: import('./types').PieceInfo, view: View} | null}
   */
  let placing = null;

  /** Redraws the ghost building, the prompt and the build button. */
  function refreshPlacing() {
    if (!placing) return;
    const { ghostLayer, prompt, piece } = placing;
    const spots = legalSpots() ?? [];
    ghostLayer.replaceChildren();
    let ok = false;
    /** @type {Spot | null} */
    let spot = null;
    if (chosen) {
      spot = chosen;
      ok = true;
    } else if (pointed) {
      const found = spotAt(piece.cells, spots, pointed, rotation);
      spot = found.spot;
      ok = found.legal;
    }
    if (spot) {
      const cells = covered(piece.cells, spot);
      ghostLayer.append(
        building({ color: piece.color, cells }, { id: 'mc-ghost', class: `ghost ${ok ? 'ok' : 'bad'}${chosen ? ' chosen' : ''}`, 'data-x': spot.x, 'data-y': spot.y, 'data-rotation': spot.rotation }),
      );
    }
    prompt.classList.toggle('warn', spots.length === 0 || Boolean(pointed && !ok));
    prompt.textContent = spots.length === 0 ? t('mc.no_spot') : chosen ? t('mc.spot_ok') : pointed && !ok ? t('mc.spot_bad') : t('mc.pick_spot');
    const build = /** @type {HTMLButtonElement | null} */ (el.querySelector('#mc-build'));
    if (build) build.disabled = !chosen || !myTurn();
  }

  /**
   * My legal moves this round. Other seats' decisions do not change mine, so the
   * list fetched once per round serves until the next card.
   * @type {{round: string, moves: any[]} | null}
   */
  let legalCache = null;

  /** The legal placements this round, if it is my decision and they are known. */
  function legalSpots() {
    const st = last;
    if (!st) return null;
    if (st.legal) legalCache = { round: roundKey, moves: st.legal.moves };
    if (!legalCache || legalCache.round !== roundKey) return null;
    return /** @type {Spot[]} */ (legalCache.moves.filter((m) => m.type === 'place'));
  }

  /**
   * A decision is still among my legal moves of this round (as far as known).
   * @param {Move} mv
   */
  function stillLegal(mv) {
    if (mv.type !== 'place') return true;
    const spots = legalSpots();
    return !spots || spots.some((s) => s.x === mv.x && s.y === mv.y && s.rotation === mv.rotation);
  }

  function myTurn() {
    const st = last;
    return Boolean(st && !st.replay && st.mySeat !== undefined && st.awaiting.seats.includes(st.mySeat) && !st.outcome && sentVersion !== st.version);
  }

  /** @param {Move} mv */
  function send(mv) {
    if (!last || !myTurn()) return;
    sentVersion = last.version;
    lastSent = { mv, round: /** @type {View} */ (last.view).round, version: last.version, tries: 0 };
    chosen = null;
    pointed = null;
    endArmed = false;
    ctx.send(mv);
    redraw();
  }

  function rotate() {
    const view = /** @type {View | undefined} */ (last?.view);
    const piece = currentPiece(view);
    if (!piece || !myTurn()) return;
    const turns = distinctRotations(piece.cells);
    const next = turns[(turns.indexOf(rotation) + 1) % turns.length] ?? 0;
    rotation = next;
    if (chosen) {
      const spots = legalSpots() ?? [];
      const at = pointed ?? { x: chosen.x, y: chosen.y };
      const found = spotAt(piece.cells, spots, at, rotation);
      chosen = found.legal ? found.spot : null;
    }
    redraw();
  }

  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const target = /** @type {HTMLElement | null} */ (e.target instanceof HTMLElement ? e.target : null);
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
    if (!el.isConnected) return;
    if (e.key === 'r' || e.key === 'R') {
      e.preventDefault();
      rotate();
    } else if (e.key === 'Escape' && chosen) {
      chosen = null;
      redraw();
    } else if (e.key === 'Enter' && chosen && myTurn()) {
      send({ type: 'place', x: chosen.x, y: chosen.y, rotation: chosen.rotation });
    }
  };
  document.addEventListener('keydown', onKey);

  /** @param {View | undefined} view */
  function currentPiece(view) {
    const card = view?.card;
    if (!view || !card || card.type !== 'building') return null;
    return view.pieces.find((p) => p.id === card.piece) ?? null;
  }

  /**
   * The cell under a pointer event on my map.
   * @param {SVGSVGElement} svg
   * @param {MouseEvent} e
   * @param {View} view
   */
  function cellOf(svg, e, view) {
    const ctm = svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    const x = Math.floor(p.x / S);
    const y = Math.floor(p.y / S);
    if (x < 0 || y < 0 || x >= view.board.width || y >= view.board.height) return null;
    return { x, y };
  }

  function redraw() {
    if (last) render(last);
  }

  /** @param {BoardState} state */
  function render(state) {
    last = state;
    /** @type {View} */
    const view = state.view;
    const me = state.mySeat;
    const key = `${view.round}:${JSON.stringify(view.card)}`;
    if (key !== roundKey) {
      roundKey = key;
      rotation = 0;
      chosen = null;
      pointed = null;
      endArmed = false;
    }
    // A refused move leaves the decision open: the board takes another.
    if (sentVersion !== null && (sentVersion !== state.version || state.moving === false)) sentVersion = null;
    if (lastSent && (lastSent.round !== view.round || view.my_decision || state.replay || view.game_over)) lastSent = null;
    if (lastSent && state.version > lastSent.version && me !== undefined && state.awaiting.seats.includes(me) && lastSent.tries < 5 && stillLegal(lastSent.mv)) {
      lastSent.version = state.version;
      lastSent.tries += 1;
      sentVersion = state.version;
      ctx.send(lastSent.mv);
    }
    const mine = myTurn();
    if (mine && !legalSpots()) ctx.askLegal();

    el.dataset.round = String(view.round);
    el.dataset.mine = mine ? 'yes' : 'no';
    el.dataset.over = view.game_over ? 'yes' : 'no';
    el.dataset.seat = me === undefined ? '' : String(me);

    placing = null;
    const seated = me !== undefined && !state.replay && view.players.some((p) => p.seat === me);
    /** @type {(HTMLElement | null)[]} */
    const parts = [view.game_over ? null : topBar(view, state)];
    parts.push(decisionsBar(view, state));
    if (view.game_over) parts.push(finalScoring(view, state));
    if (seated && me !== undefined) {
      parts.push(myArea(view, state, me, mine));
    }
    parts.push(othersArea(view, state, seated ? me : undefined));
    el.replaceChildren(...parts.filter((p) => p !== null));
    refreshPlacing();
  }

  /**
   * @param {View} view
   * @param {BoardState} state
   */
  function topBar(view, state) {
    const deck = h(
      'div',
      { class: 'mc-deck', id: 'mc-deck', 'data-count': view.deck_count, title: view.deck_count === 1 ? t('mc.deck_one') : t('mc.deck', { n: view.deck_count }) },
      h('div', { class: 'backs', 'aria-hidden': 'true' }, Array.from({ length: Math.min(4, Math.ceil(view.deck_count / 7)) }, () => h('span', { class: 'back' }))),
      h('span', { class: 'count' }, view.deck_count === 1 ? t('mc.deck_one') : t('mc.deck', { n: view.deck_count })),
    );
    const gold = h('span', { class: { 'mc-gold': true, claimed: view.gold_claimed }, id: 'mc-gold' }, view.gold_claimed ? t('mc.gold_claimed') : t('mc.gold_open'));
    return h(
      'section',
      { class: 'mc-top' },
      view.game_over
        ? null
        : h(
            'div',
            { class: 'mc-card-slot' },
            h('div', { class: 'mc-round', id: 'mc-round' }, t('mc.round', { n: view.round })),
            cardFace(view.card, view, { id: 'mc-card' }),
          ),
      view.blocked
        ? h('div', { class: 'mc-blocked', id: 'mc-blocked' }, cardFace(view.blocked, view, {}), h('span', { class: 'tag' }, t('mc.blocked_short')))
        : null,
      h('div', { class: 'mc-top-info' }, deck, gold, state.mySeat === undefined && !state.replay ? h('p', { class: 'muted small' }, t('mc.spectating')) : null),
    );
  }

  /**
   * Who has decided (never what).
   * @param {View} view
   * @param {BoardState} state
   */
  function decisionsBar(view, state) {
    return h(
      'ul',
      { class: 'mc-decisions', id: 'mc-decisions' },
      view.players.map((p) => {
        const look = state.seats[p.seat];
        const st = !p.active ? 'ended' : view.decided.includes(p.seat) ? 'decided' : view.awaiting.includes(p.seat) ? 'deciding' : 'idle';
        return h(
          'li',
          { class: `mc-who ${st}`, 'data-seat': p.seat, 'data-state': st, style: { '--seat': look?.color ?? '#888' } },
          h('span', { class: 'swatch', 'aria-hidden': 'true' }),
          h('span', { class: 'name' }, look?.name ?? `#${p.seat + 1}`),
          h('span', { class: 'state' }, st === 'ended' ? t('mc.ended') : st === 'decided' ? `✓ ${t('mc.decided')}` : st === 'deciding' ? t('mc.deciding') : ''),
          h('span', { class: 'pts', 'data-points': p.score.total }, t('mc.points', { n: p.score.total })),
        );
      }),
    );
  }

  /**
   * My map, the placing controls and my live score.
   * @param {View} view
   * @param {BoardState} state
   * @param {number} me
   * @param {boolean} mine
   */
  function myArea(view, state, me, mine) {
    const player = view.players.find((p) => p.seat === me);
    const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (mapSvg(view, player, { labels: true, id: 'mc-board', label: t('mc.my_board') })));
    svg.classList.add('mine');
    const piece = currentPiece(view);
    const spots = mine ? legalSpots() : null;
    /** @type {HTMLElement | null} */
    let prompt = null;
    const decision = view.my_decision;

    if (mine && piece && spots) {
      // Where the building can go with this rotation.
      const reach = new Set();
      const shape = rotated(piece.cells, rotation);
      for (const spot of spots) {
        if (spot.rotation !== rotation) continue;
        for (const c of shape) reach.add(`${c.x + spot.x},${c.y + spot.y}`);
      }
      const hint = s('g', { class: 'reach' });
      for (const k of reach) {
        const [x, y] = String(k).split(',').map(Number);
        hint.append(s('rect', { class: 'reach-cell', x: x * S + 0.6, y: y * S + 0.6, width: S - 1.2, height: S - 1.2, 'data-x': x, 'data-y': y }));
      }
      svg.append(hint);
      const ghostLayer = s('g', { class: 'ghost-layer' });
      svg.append(ghostLayer);
      const placingPrompt = h('p', { class: 'mc-prompt', id: 'mc-prompt' });
      prompt = placingPrompt;
      placing = { svg, ghostLayer, prompt: placingPrompt, piece, view };

      const pick = (/** @type {MouseEvent} */ e) => {
        const cell = cellOf(svg, e, view);
        if (!cell || !myTurn()) return;
        pointed = cell;
        const found = spotAt(piece.cells, legalSpots() ?? [], cell, rotation);
        if (found.legal) {
          if (chosen && chosen.x === found.spot.x && chosen.y === found.spot.y && chosen.rotation === found.spot.rotation) {
            send({ type: 'place', x: found.spot.x, y: found.spot.y, rotation: found.spot.rotation });
            return;
          }
          chosen = found.spot;
        } else {
          chosen = null;
        }
        refreshPlacing();
      };
      svg.addEventListener('click', pick);
      svg.addEventListener('pointermove', (e) => {
        if (e.pointerType !== 'mouse' || chosen) return;
        const cell = cellOf(svg, e, view);
        if (cell && (!pointed || cell.x !== pointed.x || cell.y !== pointed.y)) {
          pointed = cell;
          refreshPlacing();
        }
      });
      svg.addEventListener('pointerleave', (e) => {
        if (e.pointerType !== 'mouse' || chosen) return;
        pointed = null;
        refreshPlacing();
      });
      svg.classList.add('placing');
    } else if (decision && decision.type === 'place' && piece) {
      svg.append(building({ color: piece.color, cells: covered(piece.cells, decision) }, { id: 'mc-pending', class: 'ghost pending' }));
    }

    if (!prompt) {
      let text;
      if (!player?.active) text = t('mc.you_ended');
      else if (decision) {
        const what = decision.type === 'place' ? t('mc.your_place', { cell: cellName(decision) }) : decision.type === 'pass' ? t('mc.your_pass') : t('mc.your_end');
        text = t('mc.you_decided', { what });
      } else if (mine && view.card?.type === 'building') {
        text = view.card.color === 'church' ? t('mc.decide_church') : !view.can_pass ? t('mc.decide_no_points') : t('mc.decide');
      } else if (!view.game_over) text = t('mc.waiting_players');
      prompt = text ? h('p', { class: 'mc-prompt', id: 'mc-prompt' }, text) : null;
    }

    const legalLoaded = Boolean(spots);
    const actions = view.game_over || !player?.active
      ? null
      : h(
          'div',
          { class: 'mc-actions', id: 'mc-actions' },
          h('button', { id: 'mc-rotate', title: t('mc.rotate_title'), disabled: !mine || !piece || distinctRotations(piece.cells).length < 2, onclick: () => rotate() }, t('mc.rotate')),
          h(
            'button',
            {
              class: 'primary',
              id: 'mc-build',
              disabled: !mine || !chosen,
                      onclick: () => chosen && send({ type: 'place', x: chosen.x, y: chosen.y, rotation: chosen.rotation }),
            },
            t('mc.build'),
          ),
          h('button', { id: 'mc-pass', disabled: !mine || !legalLoaded || !view.can_pass, onclick: () => send({ type: 'pass' }) }, t('mc.pass')),
          h(
            'button',
            {
              class: { danger: true, armed: endArmed },
              id: 'mc-end',
              disabled: !mine || !legalLoaded,
              onclick: () => {
                if (!endArmed) {
                  endArmed = true;
                  redraw();
                  return;
                }
                send({ type: 'end_participation' });
              },
            },
            endArmed ? t('mc.end_confirm') : t('mc.end'),
          ),
        );

    return h(
      'section',
      { class: 'mc-mine', style: { '--seat': state.seats[me]?.color ?? '#888' } },
      h('h3', null, t('mc.my_board')),
      h(
        'div',
        { class: 'mc-mine-body' },
        h('div', { class: 'mc-mine-play' }, h('div', { class: 'mc-map-wrap' }, svg), prompt, actions),
        player && !view.game_over ? scoreTable(view, state, [player], 'mc-score', t('mc.score_mine'), undefined, view.players.length > 1) : null,
      ),
    );
  }

  /**
   * The other cities, small, side by side (all of them for a spectator).
   * @param {View} view
   * @param {BoardState} state
   * @param {number | undefined} me
   */
  function othersArea(view, state, me) {
    const others = view.players.filter((p) => p.seat !== me);
    if (!others.length) return null;
    return h(
      'section',
      { class: { 'mc-others': true, all: me === undefined }, id: 'mc-others' },
      h('h3', null, me === undefined ? t('mc.cities') : t('mc.others'), me === undefined ? null : h('span', { class: 'muted small' }, ` · ${t('mc.others_hint')}`)),
      h(
        'div',
        { class: 'mc-other-grid' },
        others.map((p) => {
          const look = state.seats[p.seat];
          return h(
            'figure',
            { class: { 'mc-other': true, ended: !p.active, winner: view.winners.includes(p.seat) }, 'data-seat': p.seat, style: { '--seat': look?.color ?? '#888' } },
            h(
              'figcaption',
              null,
              h('span', { class: 'swatch', 'aria-hidden': 'true' }),
              h('span', { class: 'name' }, look?.name ?? `#${p.seat + 1}`),
              h('span', { class: 'pts' }, t('mc.points', { n: p.score.total })),
            ),
            mapSvg(view, p, { labels: false, label: t('mc.board_of', { name: look?.name ?? `#${p.seat + 1}` }) }),
          );
        }),
      ),
      view.game_over || view.players.length < 2 ? null : scoreTable(view, state, view.players, 'mc-scores', t('mc.score_live')),
    );
  }

  return {
    el,
    render,
    destroy() {
      document.removeEventListener('keydown', onKey);
    },
  };
}

/**
 * A score table: one column per player, one row per category.
 * @param {View} view
 * @param {BoardState} state
 * @param {PlayerView[]} players
 * @param {string} id
 * @param {string} title
 * @param {ScoreBreakdown[]} [scores] final scores by seat, else the live ones
 * @param {boolean} [repeated] also in the table of every city (shown on wide screens only)
 */
function scoreTable(view, state, players, id, title, scores, repeated = false) {
  const single = players.length === 1;
  return h(
    'section',
    { class: { 'mc-score': true, repeated }, id },
    h('h3', null, title),
    h(
      'table',
      null,
      single
        ? null
        : h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', null, ''),
              players.map((p) =>
                h('th', { 'data-seat': p.seat, class: { winner: view.winners.includes(p.seat) }, style: { '--seat': state.seats[p.seat]?.color ?? '#888' } }, view.winners.includes(p.seat) ? '★ ' : '', state.seats[p.seat]?.name ?? `#${p.seat + 1}`),
              ),
            ),
          ),
      h(
        'tbody',
        null,
        CATEGORIES.map((cat) =>
          h(
            'tr',
            { class: { total: cat === 'total' }, 'data-cat': cat },
            h('th', { scope: 'row' }, t(`mc.cat.${cat}`)),
            players.map((p) => {
              const v = (scores?.[p.seat] ?? p.score)[cat];
              return h('td', { 'data-seat': p.seat, 'data-value': v, class: { neg: v < 0, winner: view.winners.includes(p.seat) } }, cat === 'start' || cat === 'total' || v <= 0 ? String(v) : `+${v}`);
            }),
          ),
        ),
      ),
    ),
  );
}

/**
 * The final scoring, category by category, and the tiebreak (ruling S3).
 * @param {View} view
 * @param {BoardState} state
 */
function finalScoring(view, state) {
  const scores = view.final_scores ?? view.players.map((p) => p.score);
  const players = [...view.players].sort((a, b) => (scores[b.seat]?.total ?? 0) - (scores[a.seat]?.total ?? 0));
  const name = (/** @type {number} */ seat) => state.seats[seat]?.name ?? `#${seat + 1}`;
  const best = Math.max(...players.map((p) => scores[p.seat]?.total ?? -Infinity));
  const tied = players.filter((p) => scores[p.seat]?.total === best);
  /** @type {HTMLElement[]} */
  const tie = [];
  if (tied.length > 1) {
    tie.push(h('p', null, t('mc.tiebreak', { points: best, names: joinNames(tied.map((p) => name(p.seat))) })));
    let left = tied;
    let decided = false;
    for (let row = 0; row < view.board.height && !decided; row++) {
      const counts = left.map((p) => ({ p, n: p.empty_by_row[row] ?? 0 }));
      tie.push(h('p', { class: 'small', 'data-row': row }, t('mc.tiebreak_row', { row: row + 1, counts: counts.map((c) => `${name(c.p.seat)} ${c.n}`).join(', ') })));
      const min = Math.min(...counts.map((c) => c.n));
      left = counts.filter((c) => c.n === min).map((c) => c.p);
      if (left.length === 1) decided = true;
    }
    if (!decided) tie.push(h('p', { class: 'small' }, t('mc.tiebreak_shared')));
  } else {
    tie.push(h('p', { class: 'small muted' }, t('mc.no_tie')));
  }
  return h(
    'section',
    { class: 'mc-final', id: 'mc-final' },
    h('h2', null, t('mc.final')),
    view.end_reason ? h('p', { class: 'muted' }, t(`mc.reason.${view.end_reason}`)) : null,
    scoreTable(view, state, players, 'mc-final-table', t('mc.score'), scores),
    h('div', { class: 'mc-tiebreak', id: 'mc-tiebreak', 'data-tied': tied.length }, tie),
  );
}

function ensureStyle() {
  if (document.getElementById('mc-style')) return;
  document.head.append(h('link', { id: 'mc-style', rel: 'stylesheet', href: new URL('./mycity.css', import.meta.url).href }));
}
