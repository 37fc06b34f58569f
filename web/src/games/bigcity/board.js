// The Big City table: the city in SVG (tiles, properties, buildings, streetcars),
// direct placing with highlights from the server's legal moves and a preview of
// the footprint and its score, the hand, the stacks, the supply and opponents' backs.

import { h, s } from '../../dom.js';
import { t, joinNames, labelled } from '../../i18n.js';
import { pieceIcon, HOOD_COLORS, HOOD_DARK, PARK_FILL, FACTORY_FILL } from './icons.js';
import { tileCells, tileSize, SPECIAL_CARDS, isSpecialCard, pieceKind, segKey, previewScore } from './rules.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Piece} Piece
 * @typedef {import('./types').Segment} Segment
 * @typedef {import('./types').BuildingView} BuildingView
 * @typedef {import('../index.js').BoardState} BoardState
 * @typedef {import('../index.js').BoardCtx} BoardCtx
 * @typedef {import('../index.js').Board} Board
 * @typedef {import('../index.js').SeatLook} SeatLook
 *
 * @typedef {{neighborhood: number, x: number, y: number, rotation: number}} Placement
 * @typedef {object} Legal
 * @property {Map<Piece, number[][]>} build
 * @property {Placement[]} tiles
 * @property {Segment[]} streetcars
 * @property {boolean} exchange
 * @property {boolean} pass
 * @property {boolean} done
 * @property {Set<number>} discard
 * @property {Set<number>} draw
 * @property {boolean} tradeOffer
 * @property {boolean} tradeAnswer
 * @property {boolean} tradeAccept
 *
 * @typedef {'build' | 'tile' | 'streetcar' | 'exchange' | 'trade_offer' | 'trade_answer' | 'trade_accept' | 'trade_exchange' | null} Mode
 */

export const PIECE_GROUPS = /** @type {[string, Piece[]][]} */ ([
  ['ui.residences', ['residence_single', 'residence_double', 'residence_triple']],
  ['ui.businesses', ['business_single', 'business_double', 'business_triple']],
  ['ui.specials', ['city_hall', 'church', 'cinema', 'post_office', 'bank', 'shopping_center']],
  ['ui.parks_factories', ['lincoln_park', 'central_park', 'stanford_corporation', 'rockwell_industries']],
]);

const U = 100; // SVG units per property
const INSET = 9; // half a street

/**
 * @param {any[] | null} moves
 * @returns {Legal}
 */
function groupLegal(moves) {
  /** @type {Legal} */
  const g = {
    build: new Map(),
    tiles: [],
    streetcars: [],
    exchange: false,
    pass: false,
    done: false,
    discard: new Set(),
    draw: new Set(),
    tradeOffer: false,
    tradeAnswer: false,
    tradeAccept: false,
  };
  for (const m of /** @type {Move[]} */ (moves ?? [])) {
    switch (m.type) {
      case 'build': {
        const list = g.build.get(m.piece) ?? [];
        list.push(m.cells);
        g.build.set(m.piece, list);
        break;
      }
      case 'place_neighborhood':
        g.tiles.push({ neighborhood: m.neighborhood, x: m.x, y: m.y, rotation: m.rotation });
        break;
      case 'streetcar':
        g.streetcars.push(m.segment);
        break;
      case 'exchange':
        g.exchange = true;
        break;
      case 'pass':
        g.pass = true;
        break;
      case 'done':
        g.done = true;
        break;
      case 'discard_useless':
        g.discard.add(m.card);
        break;
      case 'draw':
        g.draw.add(m.stack);
        break;
      case 'trade_offer':
        g.tradeOffer = true;
        break;
      case 'trade_answer':
        g.tradeAnswer = true;
        break;
      case 'trade_accept':
        g.tradeAccept = true;
        break;
      default:
        break;
    }
  }
  return g;
}

/** @param {number[]} cells */
export function cellsText(cells) {
  return [...cells].sort((a, b) => a - b).join('-');
}

/**
 * @param {BoardCtx} ctx
 * @returns {Board}
 */
export function createBigCityBoard(ctx) {
  const el = h('div', { class: 'bc' });
  /** @type {BoardState | null} */
  let state = null;
  /** @type {Mode} */
  let mode = null;
  /** @type {Piece | null} */
  let piece = null;
  let tileN = 0;
  let rotation = 0;
  /** @type {Move | null} */
  let selected = null;
  /** @type {number | null} the property last clicked (cycles candidates) */
  let anchorProp = null;
  let cycle = 0;
  /** @type {number[]} */
  let cardSel = [];
  /** @type {number[]} */
  let wanted = [];
  /** @type {{seat: number, index: number}[]} */
  let picks = [];
  let passArmed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let passTimer;
  let phaseKey = '';
  /** @type {number | null} */
  let hoverProp = null;
  let zoom = 1;
  /** What was already on the table at the previous render: newer things get a short highlight. */
  let seen = { buildings: -1, streetcars: -1, tiles: -1, hand: /** @type {Set<number> | null} */ (null) };
  let fresh = { buildings: Infinity, streetcars: Infinity, tiles: Infinity, hand: /** @type {Set<number>} */ (new Set()) };
  let freshAt = 0;
  /** Highlights only right after the change, not on every later redraw. */
  const freshNow = () => performance.now() - freshAt < 1500;

  const statusEl = h('div', { class: 'bc-status', id: 'bc-status' });
  const cityWrap = h('div', { class: 'bc-city', id: 'bc-city' });
  const actionsEl = h('div', { class: 'bc-actions', id: 'bc-actions' });
  const handEl = h('section', { class: 'bc-hand', id: 'bc-hand' });
  const stacksEl = h('section', { class: 'bc-stacks', id: 'bc-stacks' });
  const supplyEl = h('section', { class: 'bc-supply', id: 'bc-supply' });
  const othersEl = h('section', { class: 'bc-others', id: 'bc-others' });
  const tradeEl = h('section', { class: 'bc-trade', id: 'bc-trade' });
  const finalEl = h('section', { class: 'bc-final', id: 'bc-final' });
  const helpEl = /** @type {HTMLDetailsElement} */ (h('details', { class: 'bc-help', id: 'bc-help' }));
  el.append(
    statusEl,
    h('div', { class: 'bc-play' }, finalEl, cityWrap, actionsEl, tradeEl, handEl),
    h('div', { class: 'bc-side' }, stacksEl, othersEl, supplyEl, helpEl),
  );

  /** @type {SVGSVGElement | null} */
  let svg = null;
  /** @type {SVGGElement | null} */
  let previewLayer = null;

  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (!state || !el.isConnected) return;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
    if (e.key === 'r' || e.key === 'R') {
      rotate();
      e.preventDefault();
    } else if (e.key === 'Escape') {
      cancel();
    } else if (e.key === 'Enter' && selected) {
      confirm();
    }
  };
  document.addEventListener('keydown', onKey);

  function view() {
    return /** @type {View} */ (state?.view);
  }

  function mine() {
    return Boolean(state && !state.replay && state.mySeat !== undefined && state.awaiting.seats.includes(state.mySeat));
  }

  function legal() {
    return groupLegal(mine() && state?.legal ? state.legal.moves : null);
  }

  function myHand() {
    const v = view();
    const seat = state?.mySeat;
    if (seat === undefined) return null;
    return v.hands.find((hd) => hd.seat === seat)?.cards ?? null;
  }

  /** @param {number} seat */
  function seatColor(seat) {
    return state?.seats[seat]?.color ?? '#777';
  }

  /** @param {number} seat */
  function seatName(seat) {
    return state?.seats[seat]?.name ?? `#${seat + 1}`;
  }

  function resetSelection() {
    selected = null;
    anchorProp = null;
    cycle = 0;
  }

  function cancel() {
    const v = view();
    const auto = autoMode(v);
    mode = auto;
    piece = null;
    cardSel = [];
    wanted = [];
    picks = [];
    passArmed = false;
    resetSelection();
    renderAll();
  }

  /**
   * The mode the phase imposes, if any.
   * @param {View} v
   * @returns {Mode}
   */
  function autoMode(v) {
    if (!mine()) {
      return null;
    }
    switch (v.phase.type) {
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

  /** @param {Mode} next */
  function setMode(next) {
    mode = next;
    resetSelection();
    cardSel = [];
    passArmed = false;
    if (next === 'tile') {
      const hoods = tileChoices();
      if (!hoods.includes(tileN)) tileN = hoods[0] ?? 0;
    }
    renderAll();
  }

  function tileChoices() {
    const lg = legal();
    return [...new Set(lg.tiles.map((p) => p.neighborhood))].sort((a, b) => a - b);
  }

  function rotate() {
    if (mode === 'tile') {
      const center = selected && selected.type === 'place_neighborhood' ? tileCenter(selected) : null;
      rotation = (rotation + 90) % 360;
      if (center) {
        const next = nearestPlacement(center[0], center[1]);
        selected = next ? { type: 'place_neighborhood', ...next } : null;
      }
      renderAll();
    } else if (mode === 'build' && anchorProp !== null) {
      const cands = candidatesAt(anchorProp);
      if (cands.length > 1) {
        cycle = (cycle + 1) % cands.length;
        selected = { type: 'build', piece: /** @type {Piece} */ (piece), cells: cands[cycle] };
        renderAll();
      }
    }
  }

  /** @param {{neighborhood: number, x: number, y: number, rotation: number}} p */
  function tileCenter(p) {
    const [w, hh] = tileSize(p.neighborhood, p.rotation);
    return [p.x + w / 2, p.y + hh / 2];
  }

  /**
   * The legal placement of the chosen tile and rotation nearest to a point.
   * @param {number} px
   * @param {number} py
   */
  function nearestPlacement(px, py) {
    let best = null;
    let bestD = Infinity;
    for (const p of legal().tiles) {
      if (p.neighborhood !== tileN || p.rotation !== rotation) continue;
      const [cx, cy] = tileCenter(p);
      const d = Math.hypot(cx - px, cy - py);
      if (d < bestD) {
        bestD = d;
        best = p;
      }
    }
    return best && bestD <= 2.2 ? best : null;
  }

  /** @param {number} prop */
  function candidatesAt(prop) {
    if (!piece) return [];
    return (legal().build.get(piece) ?? []).filter((cells) => cells.includes(prop));
  }

  function send(/** @type {Move} */ mv) {
    ctx.send(mv);
  }

  function confirm() {
    if (!selected) return;
    const mv = selected;
    send(mv);
    resetSelection();
    if (mode === 'build' || mode === 'tile') {
      mode = null;
      piece = null;
    }
    renderAll();
  }

  // ---------- rendering ----------

  function renderHelp() {
    const keys = ['residence', 'business', 'min', 'city_hall', 'church', 'cpb', 'shopping', 'parks', 'streetcars', 'draw'];
    const open = helpEl.open;
    helpEl.replaceChildren(h('summary', null, t('help.title')), h('ul', null, keys.map((k) => h('li', null, t(`help.${k}`)))));
    helpEl.open = open;
  }

  /**
   * The end of the game: each player's points by source. Every point comes from
   * a building (V1-V3); streetcars, parks and factories count through the
   * buildings they multiply or spoil.
   */
  function renderFinal() {
    const v = view();
    if (v.phase.type !== 'game_over') {
      finalEl.replaceChildren();
      finalEl.hidden = true;
      return;
    }
    finalEl.hidden = false;
    /** @type {[string, Piece[]][]} */
    const sources = [
      ['residences', ['residence_single', 'residence_double', 'residence_triple']],
      ['businesses', ['business_single', 'business_double', 'business_triple']],
      ['cpb', ['cinema', 'post_office', 'bank']],
      ['church', ['church']],
      ['shopping', ['shopping_center']],
    ];
    const seats = v.scores.map((_, seat) => seat);
    const points = (/** @type {number} */ seat, /** @type {Piece[]} */ pieces) =>
      v.buildings.filter((b) => b.owner === seat && pieces.includes(b.piece)).reduce((sum, b) => sum + b.points, 0);
    finalEl.replaceChildren(
      h('h3', null, t('final.title')),
      h(
        'table',
        { id: 'bc-final-table' },
        h('thead', null, h('tr', null, h('th', null, ''), seats.map((seat) => h('th', { 'data-seat': seat, style: { '--seat': seatColor(seat) } }, seatName(seat))))),
        h(
          'tbody',
          null,
          sources.map(([key, pieces]) =>
            h(
              'tr',
              { 'data-source': key },
              h('th', { scope: 'row' }, t(`final.${key}`)),
              seats.map((seat) => {
                const n = points(seat, pieces);
                return h('td', { 'data-seat': seat, 'data-value': n }, String(n));
              }),
            ),
          ),
          h('tr', { class: 'total', 'data-source': 'total' }, h('th', { scope: 'row' }, t('final.total')), seats.map((seat) => h('td', { 'data-seat': seat, 'data-value': v.scores[seat] }, String(v.scores[seat])))),
        ),
      ),
      h('p', { class: 'muted small' }, t('final.note')),
    );
  }

  function renderAll() {
    if (!state) return;
    renderFinal();
    renderHelp();
    renderStatus();
    renderCity();
    renderActions();
    renderTrade();
    renderHand();
    renderStacks();
    renderOthers();
    renderSupply();
  }

  function renderStatus() {
    const v = view();
    const ph = v.phase;
    const me = mine();
    const hoods = 'neighborhoods' in ph ? joinNames(ph.neighborhoods.map(String)) : '';
    const seat = 'seat' in ph ? ph.seat : (v.turn ?? 0);
    /** @type {string} */
    let text;
    if (ph.type === 'game_over') text = t(`ph.game_over.${ph.reason}`);
    else if (ph.type === 'trade_answers' && me) text = t('ph.trade_answers_me');
    else if (ph.type === 'trade_answers' && state?.mySeat === ph.seat) text = t('ph.trade_answers_wait');
    else {
      // The trade variant's offer is one more choice of the turn: the prompt says so.
      const trade = ph.type === 'action' && me && v.options.trade_cards ? '_trade' : '';
      const key = `ph.${ph.type}${me ? '_me' : ''}${trade}`;
      text = t(key, { name: seatName(seat), hoods, n: 'remaining' in ph ? ph.remaining : 0 });
    }
    el.dataset.phase = ph.type;
    el.dataset.mine = me ? 'yes' : 'no';
    statusEl.className = `bc-status${me ? ' mine' : ''}`;
    statusEl.style.setProperty('--seat', seatColor(seat));
    statusEl.replaceChildren(h('span', { class: 'turn-no muted small' }, t('ui.turn_n', { n: v.turn_number + 1 })), ' ', text);
  }

  /** Bounds of what is drawn, in cells. */
  function bounds() {
    const v = view();
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    const add = (/** @type {number} */ x, /** @type {number} */ y) => {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x + 1);
      maxY = Math.max(maxY, y + 1);
    };
    for (const c of v.cells) add(c.x, c.y);
    if (mode === 'tile') {
      for (const p of legal().tiles) {
        if (p.neighborhood !== tileN) continue;
        for (const c of tileCells(p.neighborhood, p.x, p.y, p.rotation)) add(c.x, c.y);
      }
    }
    if (!Number.isFinite(minX)) return { minX: 0, minY: 0, maxX: 3, maxY: 3 };
    return { minX, minY, maxX, maxY };
  }

  function renderCity() {
    const v = view();
    const lg = legal();
    const b = bounds();
    const pad = 0.35;
    const vb = [(b.minX - pad) * U, (b.minY - pad) * U, (b.maxX - b.minX + 2 * pad) * U, (b.maxY - b.minY + 2 * pad) * U];
    const root = /** @type {SVGSVGElement} */ (
      s('svg', {
        viewBox: vb.join(' '),
        class: 'city',
        id: 'city',
        role: 'img',
        'aria-label': t('ui.city_label'),
        style: zoom > 1 ? { width: `${Math.round(zoom * 100)}%`, 'max-height': 'none' } : { 'max-width': `${Math.round(vb[2] * 1.05 * zoom)}px` },
      })
    );
    const byProp = new Map(v.cells.map((c) => [c.property, c]));
    const hand = new Set(myHand() ?? []);

    // Tiles: asphalt under each neighborhood, lots on top.
    const tilesG = s('g', { class: 'tiles' });
    v.tiles.forEach((tile, i) => {
      const [w, hh] = tileSize(tile.neighborhood, tile.rotation);
      tilesG.append(
        s('rect', { x: tile.x * U, y: tile.y * U, width: w * U, height: hh * U, rx: 10, class: { asphalt: true, fresh: i >= fresh.tiles && freshNow() }, 'data-tile': tile.neighborhood }),
      );
    });
    // Street center lines between neighboring properties.
    const streetG = s('g', { class: 'street-lines' });
    const occupied = new Set(v.cells.map((c) => `${c.x},${c.y}`));
    for (const c of v.cells) {
      if (occupied.has(`${c.x + 1},${c.y}`)) streetG.append(s('line', { x1: (c.x + 1) * U, y1: c.y * U + 22, x2: (c.x + 1) * U, y2: (c.y + 1) * U - 22 }));
      if (occupied.has(`${c.x},${c.y + 1}`)) streetG.append(s('line', { x1: c.x * U + 22, y1: (c.y + 1) * U, x2: (c.x + 1) * U - 22, y2: (c.y + 1) * U }));
    }
    const lotsG = s('g', { class: 'lots' });
    /** @type {Set<number>} */
    const highlight = new Set();
    if (mode === 'build' && piece) for (const cells of lg.build.get(piece) ?? []) for (const p of cells) highlight.add(p);
    for (const c of v.cells) {
      const hood = Math.floor(c.property / 10);
      const covered = c.building !== null && c.building !== undefined;
      const lot = s(
        'g',
        {
          class: { lot: true, legal: highlight.has(c.property), held: hand.has(c.property) && !covered, hovered: hoverProp === c.property },
          'data-prop': c.property,
          'data-outskirts': c.outskirts ? 'yes' : 'no',
        },
        s('rect', { x: c.x * U + INSET, y: c.y * U + INSET, width: U - 2 * INSET, height: U - 2 * INSET, rx: 6, fill: HOOD_COLORS[hood] }),
        covered ? null : s('text', { x: c.x * U + U / 2, y: c.y * U + U / 2 + 11, class: 'prop-no', 'text-anchor': 'middle' }, String(c.property)),
        hand.has(c.property) && !covered ? s('circle', { cx: c.x * U + U - 22, cy: c.y * U + 22, r: 7, class: 'held-dot', fill: seatColor(state?.mySeat ?? 0) }) : null,
      );
      lotsG.append(lot);
    }

    // Buildings.
    const buildG = s('g', { class: 'buildings' });
    v.buildings.forEach((bld, i) => {
      const g = drawBuilding(bld, byProp, 1, i);
      if (i >= fresh.buildings && freshNow()) g.classList.add('fresh');
      buildG.append(g);
    });

    // Streetcars.
    const carsG = s('g', { class: 'streetcars' });
    v.streetcars.forEach((seg, i) => {
      const g = drawStreetcar(seg, 1);
      if (i >= fresh.streetcars && freshNow()) g.classList.add('fresh');
      carsG.append(g);
    });

    // Legal streetcar segments.
    const segG = s('g', { class: 'legal-segments' });
    if (mode === 'streetcar') {
      for (const seg of lg.streetcars) {
        segG.append(
          s(
            'g',
            { class: 'seg-target', 'data-seg': segKey(seg) },
            s('line', { x1: seg.x1 * U, y1: seg.y1 * U, x2: seg.x2 * U, y2: seg.y2 * U, class: 'seg-hit' }),
            s('line', { x1: seg.x1 * U, y1: seg.y1 * U, x2: seg.x2 * U, y2: seg.y2 * U, class: 'seg-mark' }),
          ),
        );
      }
    }

    // Legal tile spots for the chosen tile and rotation.
    const spotsG = s('g', { class: 'tile-spots' });
    if (mode === 'tile') {
      for (const p of lg.tiles) {
        if (p.neighborhood !== tileN || p.rotation !== rotation) continue;
        const [w, hh] = tileSize(p.neighborhood, p.rotation);
        spotsG.append(
          s('g', { class: 'tile-spot', 'data-spot': `${p.x},${p.y}` },
            s('rect', { x: p.x * U, y: p.y * U, width: w * U, height: hh * U, class: 'spot-area' }),
            s('circle', { cx: (p.x + w / 2) * U, cy: (p.y + hh / 2) * U, r: 16, class: 'spot-dot' }),
          ),
        );
      }
    }

    previewLayer = /** @type {SVGGElement} */ (s('g', { class: 'preview' }));
    root.append(tilesG, streetG, lotsG, spotsG, buildG, carsG, segG, previewLayer);
    root.addEventListener('pointermove', onPointerMove);
    root.addEventListener('pointerleave', () => {
      hoverProp = null;
      drawPreview(null);
    });
    root.addEventListener('click', onClick);
    svg = root;
    const zoomBar = h(
      'div',
      { class: 'zoom', id: 'zoom' },
      h('button', { class: 'small', 'aria-label': t('ui.zoom_out'), title: t('ui.zoom_out'), onclick: () => setZoom(zoom / 1.25) }, '−'),
      h('button', { class: 'small', 'aria-label': t('ui.zoom_in'), title: t('ui.zoom_in'), onclick: () => setZoom(zoom * 1.25) }, '+'),
    );
    const scroller = h('div', { class: 'city-scroll' }, root);
    cityWrap.replaceChildren(zoomBar, scroller);
    drawPreview(null);
  }

  /** @param {number} z */
  function setZoom(z) {
    zoom = Math.max(1, Math.min(3, z));
    renderCity();
  }

  /**
   * @param {BuildingView} bld
   * @param {Map<number, {x: number, y: number}>} byProp
   * @param {number} opacity
   * @param {number} [index]
   * @param {string} [colorOverride]
   */
  function drawBuilding(bld, byProp, opacity, index, colorOverride) {
    const kind = pieceKind(bld.piece);
    const color = colorOverride ?? (kind === 'park' ? PARK_FILL : kind === 'factory' ? FACTORY_FILL : seatColor(bld.owner));
    const cells = bld.cells.map((p) => byProp.get(p)).filter((c) => c !== undefined);
    const g = s('g', {
      class: `building ${kind}`,
      'data-piece': bld.piece,
      'data-owner': bld.owner,
      'data-building': index ?? '',
      opacity,
    });
    const m = 13;
    const keys = new Set(cells.map((c) => `${c.x},${c.y}`));
    for (const c of cells) {
      g.append(s('rect', { x: c.x * U + m, y: c.y * U + m, width: U - 2 * m, height: U - 2 * m, rx: 8, fill: color, class: 'foot' }));
      if (keys.has(`${c.x + 1},${c.y}`)) g.append(s('rect', { x: c.x * U + U - m - 8, y: c.y * U + m, width: 2 * m + 16, height: U - 2 * m, fill: color, class: 'bridge' }));
      if (keys.has(`${c.x},${c.y + 1}`)) g.append(s('rect', { x: c.x * U + m, y: c.y * U + U - m - 8, width: U - 2 * m, height: 2 * m + 16, fill: color, class: 'bridge' }));
    }
    if (kind === 'factory') {
      for (const c of cells) g.append(place(pieceIcon(bld.piece), c.x * U + 20, c.y * U + 20, 60));
    } else if (kind === 'park') {
      for (const c of cells) g.append(place(pieceIcon(bld.piece), c.x * U + 18, c.y * U + 18, 64));
    } else if (kind === 'residence' || kind === 'business') {
      for (const c of cells) g.append(place(pieceIcon(bld.piece), c.x * U + 24, c.y * U + 22, 52));
    } else if (cells.length) {
      // One icon, on the cell nearest the middle.
      const mx = cells.reduce((a, c) => a + c.x, 0) / cells.length;
      const my = cells.reduce((a, c) => a + c.y, 0) / cells.length;
      if (cells.length === 2) g.append(place(pieceIcon(bld.piece), mx * U + 18, my * U + 18, 64));
      else g.append(place(pieceIcon(bld.piece), cells[0].x * U + 18, cells[0].y * U + 16, 64));
    }
    if (cells.length && bld.points > 0) {
      const c = cells[0];
      g.append(
        s(
          'g',
          { class: 'points' },
          s('circle', { cx: c.x * U + U - 18, cy: c.y * U + 18, r: 15 }),
          s('text', { x: c.x * U + U - 18, y: c.y * U + 24, 'text-anchor': 'middle' }, String(bld.points)),
        ),
      );
    }
    return g;
  }

  /**
   * @param {Segment} seg
   * @param {number} opacity
   */
  function drawStreetcar(seg, opacity) {
    const vertical = seg.x1 === seg.x2;
    const x1 = seg.x1 * U + (vertical ? 0 : 14);
    const x2 = seg.x2 * U - (vertical ? 0 : 14);
    const y1 = seg.y1 * U + (vertical ? 14 : 0);
    const y2 = seg.y2 * U - (vertical ? 14 : 0);
    return s(
      'g',
      { class: 'streetcar', opacity, 'data-seg': segKey(seg) },
      s('line', { x1, y1, x2, y2, class: 'car-body' }),
      s('line', { x1, y1, x2, y2, class: 'car-windows' }),
    );
  }

  /**
   * @param {SVGElement} icon
   * @param {number} x
   * @param {number} y
   * @param {number} size
   */
  function place(icon, x, y, size) {
    return s('g', { transform: `translate(${x} ${y}) scale(${size / 100})`, class: 'icon' }, icon);
  }

  /** @param {PointerEvent | MouseEvent} e */
  function toGrid(e) {
    if (!svg) return null;
    const ctm = svg.getScreenCTM();
    if (!ctm) return null;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return { gx: pt.x / U, gy: pt.y / U };
  }

  /** @param {number} gx @param {number} gy */
  function propAt(gx, gy) {
    const cx = Math.floor(gx);
    const cy = Math.floor(gy);
    return view().cells.find((c) => c.x === cx && c.y === cy)?.property ?? null;
  }

  /** @param {PointerEvent} e */
  function onPointerMove(e) {
    if (e.pointerType === 'touch') return;
    const g = toGrid(e);
    if (!g) return;
    const prop = propAt(g.gx, g.gy);
    if (prop !== hoverProp) hoverProp = prop;
    if (mode === 'tile') {
      const p = nearestPlacement(g.gx, g.gy);
      drawPreview(p ? { type: 'place_neighborhood', ...p } : null, p ? null : g);
    } else if (mode === 'build' && piece && !selected) {
      const cands = prop !== null ? candidatesAt(prop) : [];
      drawPreview(cands.length ? { type: 'build', piece, cells: cands[0] } : null);
    } else if (!selected) {
      drawPreview(null);
    }
  }

  /** @param {MouseEvent} e */
  function onClick(e) {
    if (!state || state.replay || !mine()) return;
    const target = /** @type {Element} */ (e.target);
    const g = toGrid(e);
    if (!g) return;
    if (mode === 'streetcar') {
      const segEl = target.closest('[data-seg]');
      const key = segEl?.getAttribute('data-seg');
      const seg = legal().streetcars.find((sg) => segKey(sg) === key);
      if (seg) {
        selected = { type: 'streetcar', segment: seg };
        renderActions();
        drawPreview(selected);
      }
      return;
    }
    if (mode === 'tile') {
      if (selected && selected.type === 'place_neighborhood') {
        const [w, hh] = tileSize(selected.neighborhood, selected.rotation);
        const inside = g.gx >= selected.x && g.gx < selected.x + w && g.gy >= selected.y && g.gy < selected.y + hh;
        if (inside) {
          rotate();
          return;
        }
      }
      const p = nearestPlacement(g.gx, g.gy);
      if (!p) {
        ctx.warn(t('act.no_tile_spot'));
        return;
      }
      selected = { type: 'place_neighborhood', ...p };
      renderActions();
      drawPreview(selected);
      return;
    }
    if (mode === 'build' && piece) {
      const prop = propAt(g.gx, g.gy);
      if (prop === null) return;
      const cands = candidatesAt(prop);
      if (!cands.length) {
        tryIllegalBuild(prop);
        return;
      }
      if (anchorProp === prop && selected) {
        cycle = (cycle + 1) % cands.length;
      } else {
        anchorProp = prop;
        cycle = 0;
      }
      selected = { type: 'build', piece, cells: cands[cycle] };
      renderActions();
      drawPreview(selected);
    }
  }

  /**
   * A click on a property that is not highlighted: say why. For a one-property
   * building on a card the player holds, the server explains the rule.
   * @param {number} prop
   */
  function tryIllegalBuild(prop) {
    if (!piece) return;
    const kind = pieceKind(piece);
    const onePiece = ['residence_single', 'business_single', 'city_hall', 'church', 'cinema', 'post_office', 'bank'].includes(piece);
    const hand = myHand() ?? [];
    if (kind === 'park' || kind === 'factory' || !onePiece) {
      ctx.warn(t('act.no_spot'));
      return;
    }
    if (!hand.includes(prop)) {
      ctx.warn(t('act.not_held', { p: prop }));
      return;
    }
    send({ type: 'build', piece, cells: [prop] });
  }

  /**
   * @param {Move | null} mv
   * @param {{gx: number, gy: number} | null} [miss] pointer position with no legal tile spot
   */
  function drawPreview(mv, miss) {
    if (!previewLayer || !state) return;
    const show = selected ?? mv;
    previewLayer.replaceChildren();
    const v = view();
    const byProp = new Map(v.cells.map((c) => [c.property, c]));
    const me = state.mySeat ?? 0;
    if (show && show.type === 'build') {
      const bld = { piece: show.piece, cells: show.cells, owner: me, points: 0 };
      previewLayer.append(drawBuilding(bld, byProp, 0.72));
      const score = previewScore(v, show.piece, show.cells);
      const cells = show.cells.map((p) => byProp.get(p)).filter((c) => c !== undefined);
      if (cells.length) {
        const maxX = Math.max(...cells.map((c) => c.x));
        const minY = Math.min(...cells.map((c) => c.y));
        previewLayer.append(
          s(
            'g',
            { class: 'score-bubble', id: 'score-preview', 'data-score': score },
            s('rect', { x: (maxX + 1) * U - 70, y: minY * U - 36, width: 90, height: 44, rx: 22 }),
            s('text', { x: (maxX + 1) * U - 25, y: minY * U - 6, 'text-anchor': 'middle' }, `+${score}`),
          ),
        );
      }
      for (const c of cells) {
        previewLayer.append(s('rect', { x: c.x * U + 5, y: c.y * U + 5, width: U - 10, height: U - 10, rx: 10, class: selected ? 'sel-outline' : 'hover-outline' }));
      }
    } else if (show && show.type === 'place_neighborhood') {
      previewLayer.append(ghostTile(show.neighborhood, show.x, show.y, show.rotation, true));
    } else if (show && show.type === 'streetcar') {
      previewLayer.append(drawStreetcar(show.segment, 0.8));
    } else if (!show && miss && mode === 'tile' && tileN) {
      const [w, hh] = tileSize(tileN, rotation);
      previewLayer.append(ghostTile(tileN, Math.floor(miss.gx - w / 2 + 0.5), Math.floor(miss.gy - hh / 2 + 0.5), rotation, false));
    }
  }

  /**
   * @param {number} n
   * @param {number} x
   * @param {number} y
   * @param {number} rot
   * @param {boolean} ok
   */
  function ghostTile(n, x, y, rot, ok) {
    const [w, hh] = tileSize(n, rot);
    const g = s('g', { class: `ghost-tile ${ok ? 'ok' : 'bad'}`, id: 'ghost-tile' });
    g.append(s('rect', { x: x * U, y: y * U, width: w * U, height: hh * U, rx: 10, class: 'ghost-asphalt' }));
    for (const c of tileCells(n, x, y, rot)) {
      g.append(s('rect', { x: c.x * U + INSET, y: c.y * U + INSET, width: U - 2 * INSET, height: U - 2 * INSET, rx: 6, fill: HOOD_COLORS[n] }));
      g.append(s('text', { x: c.x * U + U / 2, y: c.y * U + U / 2 + 11, class: 'prop-no', 'text-anchor': 'middle' }, String(c.property)));
    }
    return g;
  }

  function renderActions() {
    if (!state) return;
    const v = view();
    const lg = legal();
    /** @type {(HTMLElement | string | null)[]} */
    const parts = [];
    if (!mine()) {
      actionsEl.replaceChildren();
      actionsEl.hidden = true;
      return;
    }
    actionsEl.hidden = false;
    const ph = v.phase;
    if (ph.type === 'action' && mode !== 'exchange' && mode !== 'trade_offer') {
      const canBuild = lg.build.size > 0;
      const seats = v.scores.length;
      // Why an action is not available: on the button (title) and, for the rule
      // that surprises newcomers (P2), in a line under the actions.
      const hallBuilt = v.supply.some((x) => x.piece === 'city_hall' && x.left === 0);
      const why = {
        build: canBuild ? '' : t('why.build'),
        streetcar: !hallBuilt ? t('why.city_hall') : v.streetcars_left === 0 ? t('why.no_streetcars') : t('why.no_streetcar_spot'),
        tile: !hallBuilt ? t('why.city_hall') : v.unplaced.length === 0 ? t('why.all_placed') : t('why.no_tile_spot'),
      };
      // Everyone else has passed in a row: this seat's pass completes the round.
      const passEnds = v.passes_in_a_row + 1 >= seats;
      parts.push(
        h('div', { class: 'action-row' },
          h('button', { class: { on: mode === 'build' }, id: 'act-build', disabled: !canBuild, title: canBuild ? null : why.build, onclick: () => setMode(mode === 'build' ? null : 'build') }, pieceBadge('residence_single', seatColor(state?.mySeat ?? 0)), t('act.build')),
          h('button', { class: { on: mode === 'streetcar' }, id: 'act-streetcar', disabled: lg.streetcars.length === 0, title: lg.streetcars.length === 0 ? why.streetcar : null, onclick: () => setMode(mode === 'streetcar' ? null : 'streetcar') }, streetcarBadge(), t('act.streetcar')),
          h('button', { class: { on: mode === 'tile' }, id: 'act-tile', disabled: lg.tiles.length === 0, title: lg.tiles.length === 0 ? why.tile : null, onclick: () => setMode(mode === 'tile' ? null : 'tile') }, miniTile(3, 0), t('act.tile')),
          h('button', { id: 'act-exchange', disabled: !lg.exchange, onclick: () => setMode('exchange') }, '⇄ ', t('act.exchange')),
          v.options.trade_cards ? h('button', { id: 'act-trade', disabled: !lg.tradeOffer, onclick: () => setMode('trade_offer') }, '⇆ ', t('act.trade')) : null,
          h(
            'button',
            {
              id: 'act-pass',
              class: { danger: passArmed },
              disabled: !lg.pass,
              onclick: () => {
                clearTimeout(passTimer);
                if (passArmed) {
                  passArmed = false;
                  send({ type: 'pass' });
                } else {
                  passArmed = true;
                  renderActions();
                  passTimer = setTimeout(() => {
                    passArmed = false;
                    renderActions();
                  }, 4000);
                }
              },
            },
            passArmed ? t(passEnds ? 'act.pass_confirm_end' : 'act.pass_confirm') : t('act.pass'),
          ),
        ),
      );
      if (!hallBuilt) parts.push(h('p', { class: 'action-why muted small', id: 'action-why' }, t('why.city_hall_line')));
      // Passing is how the game ends (F2): say how close it is, plainly.
      if (v.passes_in_a_row > 0) {
        parts.push(
          h(
            'p',
            { class: { 'pass-count': true, warn: passEnds }, id: 'pass-count', 'data-passes': v.passes_in_a_row },
            passEnds ? t('ui.pass_ends_game') : t('ui.passes_in_a_row', { n: v.passes_in_a_row, seats }),
          ),
        );
      }
    }
    // What to do now, and the confirm bar.
    /** @type {string} */
    let hint = '';
    /** @type {(HTMLElement | null)[]} */
    const buttons = [];
    if (mode === 'build') {
      hint = !piece
        ? t('act.pick_piece')
        : lg.build.has(piece)
          ? t('act.pick_spot', { piece: t(`piece.${piece}`) })
          : t('act.no_legal_spot', { piece: t(`piece.${piece}`) });
      const order = PIECE_GROUPS.flatMap(([, ps]) => ps);
      const pieces = [...lg.build.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
      buttons.push(
        h(
          'span',
          { class: 'piece-chooser', id: 'piece-chooser' },
          pieces.map((p) =>
            h(
              'button',
              {
                class: { chip: true, on: p === piece },
                'data-choose-piece': p,
                onclick: () => {
                  piece = p;
                  resetSelection();
                  renderAll();
                },
              },
              pieceBadge(p, seatColor(state?.mySeat ?? 0)),
              t(`piece.${p}`),
            ),
          ),
        ),
      );
    } else if (mode === 'tile') {
      hint = t('act.pick_tile_spot', { n: tileN });
      buttons.push(tileChooser());
      buttons.push(h('button', { id: 'act-rotate', onclick: () => rotate() }, '⟳ ', t('act.rotate')));
    } else if (mode === 'streetcar') {
      hint = t('act.pick_segment');
    } else if (mode === 'exchange' || mode === 'trade_exchange') {
      hint = t('act.pick_cards');
      buttons.push(
        h('button', { class: 'primary', id: 'act-confirm-exchange', disabled: cardSel.length === 0 || (mode === 'trade_exchange' && cardSel.length > 2), onclick: () => { send({ type: 'exchange', cards: [...cardSel] }); cardSel = []; mode = null; } }, t('act.confirm_exchange', { n: cardSel.length })),
      );
    } else if (mode === 'trade_offer') {
      hint = t('act.pick_cards');
      buttons.push(
        h('span', { class: 'wanted' }, t('act.wanted'), ' ',
          [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
            h('button', { class: { chip: true, on: wanted.includes(n) }, 'data-wanted': n, onclick: () => { wanted = wanted.includes(n) ? wanted.filter((x) => x !== n) : [...wanted, n].slice(-2); renderActions(); } }, String(n)),
          ),
        ),
        h('button', { class: 'primary', id: 'act-confirm-offer', disabled: cardSel.length === 0 || cardSel.length > 2, onclick: () => { send({ type: 'trade_offer', cards: [...cardSel], wanted: [...wanted].sort((a, b) => a - b) }); cardSel = []; wanted = []; mode = null; } }, t('act.confirm_offer', { n: cardSel.length })),
      );
    }
    if (selected) {
      /** @type {string} */
      let label = '';
      if (selected.type === 'build') {
        label = `${t('act.confirm_build', { piece: t(`piece.${selected.piece}`), cells: cellsText(selected.cells) })} · ${t('act.points', { n: previewScore(v, selected.piece, selected.cells) })}`;
        if (anchorProp !== null && candidatesAt(anchorProp).length > 1) buttons.push(h('button', { id: 'act-rotate', onclick: () => rotate() }, '⟳ ', t('act.rotate')));
      } else if (selected.type === 'place_neighborhood') label = t('act.confirm_tile', { n: selected.neighborhood });
      else if (selected.type === 'streetcar') label = t('act.confirm_streetcar');
      buttons.push(h('button', { class: 'primary', id: 'act-confirm', onclick: () => confirm() }, '✔ ', label));
    }
    if (lg.done && (ph.type === 'second_streetcar' || ph.type === 'trade_exchange')) {
      buttons.push(h('button', { id: 'act-done', onclick: () => send({ type: 'done' }) }, t('act.done')));
    }
    if (mode && mode !== autoMode(v)) buttons.push(h('button', { id: 'act-cancel', onclick: () => cancel() }, t('act.cancel')));
    else if (selected) buttons.push(h('button', { id: 'act-cancel', onclick: () => { resetSelection(); renderAll(); } }, t('act.cancel')));
    if (hint || buttons.length) parts.push(h('div', { class: 'confirm-row' }, hint ? h('span', { class: 'hint-text' }, hint) : null, buttons));
    if (ph.type === 'drawing') parts.push(h('div', { class: 'confirm-row' }, h('span', { class: 'hint-text' }, t('ph.drawing_me', { n: ph.remaining }))));
    const shown = parts.filter((p) => p !== null);
    actionsEl.hidden = shown.length === 0;
    actionsEl.replaceChildren(...shown);
  }

  function tileChooser() {
    return h(
      'span',
      { class: 'tile-chooser' },
      tileChoices().map((n) =>
        h(
          'button',
          {
            class: { chip: true, on: n === tileN },
            'data-tile-choice': n,
            onclick: () => {
              tileN = n;
              resetSelection();
              renderAll();
            },
          },
          miniTile(n, rotation),
          String(n),
        ),
      ),
    );
  }

  function renderTrade() {
    const v = view();
    const tr = v.trade;
    if (!tr || !state) {
      tradeEl.hidden = true;
      return;
    }
    tradeEl.hidden = false;
    const me = state.mySeat;
    const hoods = joinNames(tr.offered.map(String));
    /** @type {(HTMLElement | string | null)[]} */
    const parts = [
      h(
        'p',
        { class: 'trade-title' },
        h('strong', null, t('ui.trade_offer', { name: seatName(tr.seat), n: tr.offered.length, hoods })),
        tr.wanted.length ? h('span', { class: 'muted' }, ` · ${t('ui.trade_wants', { hoods: joinNames(tr.wanted.map(String)) })}`) : null,
      ),
      h('div', { class: 'backs-row' }, tr.offered_cards ? tr.offered_cards.map((c) => cardFace(c, false)) : tr.offered.map((n) => cardBack(n, true))),
    ];
    if (mode === 'trade_answer' && mine()) {
      parts.push(
        h('div', { class: 'row' },
          h('button', { class: 'primary', id: 'trade-answer', disabled: cardSel.length === 0 || cardSel.length > 2, onclick: () => { send({ type: 'trade_answer', cards: [...cardSel] }); cardSel = []; } }, t('act.answer', { n: cardSel.length })),
          h('button', { id: 'trade-decline', onclick: () => { send({ type: 'trade_answer', cards: [] }); cardSel = []; } }, t('act.decline')),
        ),
      );
    }
    if (tr.answers.length) {
      const offeredCards = tr.offered_cards ?? [];
      const maxPicks = Math.min(2, offeredCards.length || tr.offered.length);
      parts.push(
        h('ul', { class: 'answers' },
          tr.answers.map((a) =>
            h('li', null,
              h('span', { class: 'swatch', style: { '--seat': seatColor(a.seat) } }),
              h('span', null, labelled(seatName(a.seat))),
              a.neighborhoods.length === 0 ? h('span', { class: 'muted declined' }, t('ui.trade_declined')) : null,
              a.neighborhoods.map((n, index) => {
                const on = picks.some((p) => p.seat === a.seat && p.index === index);
                const back = cardBack(n, true);
                if (mode === 'trade_accept' && mine()) {
                  return h('button', { class: { 'pick-card': true, on }, 'data-pick': `${a.seat}:${index}`, onclick: () => {
                    picks = on ? picks.filter((p) => !(p.seat === a.seat && p.index === index)) : [...picks, { seat: a.seat, index }].slice(-maxPicks);
                    renderTrade();
                  } }, back);
                }
                return back;
              }),
            ),
          ),
        ),
      );
      if (mode === 'trade_accept' && mine()) {
        const ans = (/** @type {{seat: number, index: number}} */ p) => tr.answers.find((a) => a.seat === p.seat)?.neighborhoods[p.index] ?? 0;
        if (picks.length) {
          parts.push(
            h('p', { class: 'trade-deal', id: 'trade-deal' },
              picks.map((p, i) => h('span', { class: 'deal' }, cardFace(offeredCards[i] ?? 0, false), ' ⇄ ', cardBack(ans(p), true), ` ${seatName(p.seat)}`)),
            ),
          );
        }
        parts.push(
          h('div', { class: 'row' },
            h('button', { class: 'primary', id: 'trade-accept', disabled: picks.length === 0, onclick: () => {
              send({ type: 'trade_accept', picks: picks.map((p, i) => ({ give: offeredCards[i] ?? 0, seat: p.seat, index: p.index })) });
              picks = [];
            } }, t('act.accept')),
            h('button', { id: 'trade-none', onclick: () => { send({ type: 'trade_accept', picks: [] }); picks = []; } }, t('act.no_trade')),
          ),
        );
      }
    } else if (v.phase.type === 'trade_accept') {
      parts.push(h('p', { class: 'muted' }, t('ui.nobody_answered')));
      if (mine()) parts.push(h('button', { id: 'trade-none', onclick: () => send({ type: 'trade_accept', picks: [] }) }, t('act.no_trade')));
    }
    tradeEl.replaceChildren(...parts.filter((p) => p !== null));
  }

  function renderHand() {
    if (!state) return;
    const v = view();
    const seat = state.mySeat;
    if (seat === undefined || state.replay) {
      handEl.hidden = true;
      return;
    }
    const hv = v.hands.find((hd) => hd.seat === seat);
    const cards = hv?.cards ?? [];
    handEl.hidden = false;
    const lg = legal();
    const selectable = mode === 'exchange' || mode === 'trade_offer' || mode === 'trade_answer' || mode === 'trade_exchange';
    const covered = new Set(v.cells.filter((c) => c.building !== null && c.building !== undefined).map((c) => c.property));
    handEl.replaceChildren(
      h('h3', null, t('ui.your_hand'), h('span', { class: 'muted small' }, ` · ${t('ui.cards', { n: cards.length })}`)),
      h(
        'div',
        { class: 'hand-cards', id: 'my-hand' },
        [...cards]
          .sort((a, b) => a - b)
          .map((card) => {
            const useless = covered.has(card);
            const on = cardSel.includes(card);
            const face = cardFace(card, useless);
            return h(
              'div',
              {
                class: { 'hand-card': true, selectable, selected: on, fresh: fresh.hand.has(card) && freshNow() },
                'data-card': card,
                onpointerenter: () => highlightProp(card, true),
                onpointerleave: () => highlightProp(card, false),
                onclick: () => {
                  if (!selectable) return;
                  cardSel = on ? cardSel.filter((c) => c !== card) : [...cardSel, card];
                  renderActions();
                  renderTrade();
                  renderHand();
                },
              },
              face,
              lg.discard.has(card) && mode === null
                ? h('button', { class: 'small discard', 'data-discard': card, onclick: (/** @type {Event} */ e) => { e.stopPropagation(); send({ type: 'discard_useless', card }); } }, t('act.discard'))
                : null,
            );
          }),
      ),
    );
  }

  /**
   * @param {number} card
   * @param {boolean} on
   */
  function highlightProp(card, on) {
    const lot = svg?.querySelector(`[data-prop="${card}"]`);
    lot?.classList.toggle('card-hover', on);
  }

  function renderStacks() {
    const v = view();
    const lg = legal();
    stacksEl.replaceChildren(
      h('h3', null, t('ui.stacks')),
      h(
        'div',
        { class: 'stacks' },
        v.stacks.map((count, i) => {
          const n = i + 1;
          const can = lg.draw.has(n);
          return h(
            'button',
            {
              class: { stack: true, drawable: can, empty: count === 0 },
              'data-stack': n,
              'data-count': count,
              disabled: !can,
              title: t('ui.stack_title', { n, count }),
              'aria-label': t('ui.stack_title', { n, count }),
              onclick: () => can && send({ type: 'draw', stack: n }),
            },
            h('span', { class: 'stack-pile', style: { '--hood': HOOD_COLORS[n], '--hood-dark': HOOD_DARK[n], '--depth': Math.min(count, 9) } }, h('span', { class: 'stack-no' }, String(n))),
            h('span', { class: 'stack-count' }, String(count)),
            v.drawn_this_turn[i] ? h('span', { class: 'drawn-mark', title: `${v.drawn_this_turn[i]}/2` }, '•'.repeat(v.drawn_this_turn[i])) : null,
          );
        }),
      ),
    );
  }

  function renderOthers() {
    if (!state) return;
    const v = view();
    const me = state.replay ? undefined : state.mySeat;
    othersEl.replaceChildren(
      h('h3', null, t('ui.score_track')),
      scoreTrack(v),
      ...v.hands
        .filter((hd) => hd.seat !== me)
        .map((hd) =>
          h(
            'div',
            { class: { 'other-hand': true, turn: v.turn === hd.seat }, 'data-hand-seat': hd.seat, style: { '--seat': seatColor(hd.seat) } },
            h('div', { class: 'other-name' }, h('span', { class: 'swatch' }), h('strong', null, seatName(hd.seat)), h('span', { class: 'muted small' }, ` · ${t('ui.cards', { n: hd.count })}`)),
            h('div', { class: 'backs-row' }, hd.backs.flatMap((count, i) => Array.from({ length: count }, () => cardBack(i + 1, true)))),
          ),
        ),
    );
  }

  /** @param {View} v */
  function scoreTrack(v) {
    const top = Math.max(50, ...v.scores.map((x) => x + 5));
    return h(
      'div',
      { class: 'score-track', id: 'score-track' },
      v.scores.map((score, seat) =>
        h(
          'div',
          { class: 'track-row', 'data-seat': seat, style: { '--seat': seatColor(seat) } },
          h('span', { class: 'track-name' }, seatName(seat)),
          h('span', { class: 'track-bar' }, h('span', { class: 'track-fill', style: { width: `${Math.max(2, (100 * score) / top)}%` } })),
          h('span', { class: 'track-score', 'data-score': score }, String(score)),
        ),
      ),
    );
  }

  function renderSupply() {
    if (!state) return;
    const v = view();
    const lg = legal();
    const left = new Map(v.supply.map((x) => [x.piece, x.left]));
    const color = state.mySeat !== undefined && !state.replay ? seatColor(state.mySeat) : '#8a8176';
    const canPick = mine() && (v.phase.type === 'action');
    supplyEl.replaceChildren(
      h('h3', null, t('ui.supply')),
      ...PIECE_GROUPS.map(([label, pieces]) =>
        h(
          'div',
          { class: 'supply-group' },
          h('div', { class: 'muted small' }, t(label)),
          h(
            'div',
            { class: 'supply-row' },
            pieces.map((p) => {
              const n = left.get(p) ?? 0;
              const can = canPick && lg.build.has(p);
              return h(
                'button',
                {
                  class: { piece: true, on: mode === 'build' && piece === p, can },
                  'data-piece': p,
                  'data-left': n,
                  // A piece without a legal spot can still be picked: a click on a
                  // property then says why it cannot go there.
                  disabled: !canPick || n === 0,
                  title: `${t(`piece.${p}`)} ×${n}`,
                  onclick: () => {
                    if (mode !== 'build') setMode('build');
                    piece = p;
                    resetSelection();
                    renderAll();
                  },
                },
                pieceBadge(p, color),
                h('span', { class: 'piece-left' }, `×${n}`),
              );
            }),
          ),
        ),
      ),
      h('div', { class: 'supply-line', id: 'streetcars-left', 'data-left': v.streetcars_left }, streetcarBadge(), ' ', t('ui.streetcars_left', { n: v.streetcars_left })),
      h(
        'div',
        { class: 'supply-line', id: 'unplaced' },
        h('span', { class: 'muted small' }, labelled(t('ui.unplaced'))),
        v.unplaced.length ? v.unplaced.map((n) => h('span', { class: 'mini-tile-wrap', title: String(n) }, miniTile(n, 0), String(n))) : t('ui.none'),
      ),
    );
  }

  return {
    el,
    render(next) {
      const prev = state;
      state = next;
      const v = view();
      const key = `${v.phase.type}:${'seat' in v.phase ? v.phase.seat : ''}:${mine()}:${v.turn_number}`;
      if (key !== phaseKey || (prev && prev.version !== next.version)) {
        const phaseChanged = key !== phaseKey;
        phaseKey = key;
        if (phaseChanged) {
          mode = autoMode(v);
          piece = null;
          cardSel = [];
          wanted = [];
          picks = [];
          passArmed = false;
        }
        resetSelection();
      }
      if (mine() && !next.replay && (!next.legal || next.legal.version !== next.version)) ctx.askLegal();
      if (mode === 'tile' && !tileChoices().includes(tileN)) tileN = tileChoices()[0] ?? 0;
      if (!prev || prev.version !== next.version) {
        const hand = new Set(myHand() ?? []);
        const first = seen.buildings < 0 || next.replay;
        fresh = {
          buildings: first ? Infinity : seen.buildings,
          streetcars: first ? Infinity : seen.streetcars,
          tiles: first ? Infinity : seen.tiles,
          hand: first || !seen.hand ? new Set() : new Set([...hand].filter((c) => !seen.hand?.has(c))),
        };
        seen = { buildings: v.buildings.length, streetcars: v.streetcars.length, tiles: v.tiles.length, hand };
        freshAt = performance.now();
      }
      renderAll();
    },
    destroy() {
      document.removeEventListener('keydown', onKey);
    },
  };
}

/**
 * A small colored badge with a piece icon.
 * @param {Piece} piece
 * @param {string} color
 */
export function pieceBadge(piece, color) {
  const kind = pieceKind(piece);
  const fill = kind === 'park' ? PARK_FILL : kind === 'factory' ? FACTORY_FILL : color;
  return s('svg', { viewBox: '0 0 100 100', class: 'piece-badge', 'aria-hidden': 'true' }, s('rect', { x: 4, y: 4, width: 92, height: 92, rx: 14, fill }), s('g', { transform: 'translate(12 12) scale(0.76)' }, pieceIcon(piece)));
}

function streetcarBadge() {
  return s('svg', { viewBox: '0 0 100 40', class: 'car-badge', 'aria-hidden': 'true' }, s('line', { x1: 8, y1: 20, x2: 92, y2: 20, class: 'car-body' }), s('line', { x1: 8, y1: 20, x2: 92, y2: 20, class: 'car-windows' }));
}

/**
 * A tiny picture of a neighborhood tile.
 * @param {number} n
 * @param {number} rot
 */
export function miniTile(n, rot) {
  const [w, hh] = tileSize(n, rot);
  return s(
    'svg',
    { viewBox: `0 0 ${w * 10 + 2} ${hh * 10 + 2}`, class: 'mini-tile', 'aria-hidden': 'true' },
    tileCells(n, 0, 0, rot).map((c) => s('rect', { x: c.x * 10 + 1.5, y: c.y * 10 + 1.5, width: 9, height: 9, rx: 1.5, fill: HOOD_COLORS[n], stroke: HOOD_DARK[n], 'stroke-width': 0.6 })),
  );
}

/**
 * A card face: property number with the spot it names on its neighborhood, or a
 * park/factory card.
 * @param {number} card
 * @param {boolean} useless
 */
export function cardFace(card, useless) {
  const hood = Math.floor(card / 10);
  if (isSpecialCard(card)) {
    const piece = SPECIAL_CARDS[card];
    return h(
      'div',
      { class: `card-face special ${pieceKind(piece)}`, 'data-face': card, style: { '--hood': HOOD_COLORS[hood], '--hood-dark': HOOD_DARK[hood] } },
      h('span', { class: 'card-band' }, String(hood)),
      pieceBadge(piece, '#888'),
      h('span', { class: 'card-title' }, t(`piece.${piece}`)),
    );
  }
  const [w, hh] = tileSize(hood, 0);
  const map = s(
    'svg',
    { viewBox: `0 0 ${w * 10} ${hh * 10}`, class: 'card-map', 'aria-hidden': 'true' },
    tileCells(hood, 0, 0, 0).map((c) =>
      s('rect', { x: c.x * 10 + 1, y: c.y * 10 + 1, width: 8, height: 8, rx: 1.5, fill: c.property === card ? HOOD_DARK[hood] : '#fff', stroke: HOOD_DARK[hood], 'stroke-width': 0.7 }),
    ),
  );
  return h(
    'div',
    { class: { 'card-face': true, useless }, 'data-face': card, style: { '--hood': HOOD_COLORS[hood], '--hood-dark': HOOD_DARK[hood] }, title: String(card) },
    h('span', { class: 'card-band' }, String(hood)),
    h('span', { class: 'card-number' }, String(card)),
    map,
    useless ? h('span', { class: 'useless-tag' }, t('ui.useless')) : null,
  );
}

/**
 * A card back: only the neighborhood is visible.
 * @param {number} hood
 * @param {boolean} small
 */
export function cardBack(hood, small) {
  return h(
    'span',
    { class: { 'card-back': true, small }, 'data-back': hood, style: { '--hood': HOOD_COLORS[hood], '--hood-dark': HOOD_DARK[hood] }, title: String(hood) },
    h('span', null, String(hood)),
  );
}
