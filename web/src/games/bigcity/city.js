// The city of the Big City board: tiles, lots, buildings and streetcars in SVG,
// the legal spots of the move being chosen, its preview, and the clicks on it.

import { h, s } from '../../dom.js';
import { t } from '../../i18n.js';
import { HOOD_COLORS } from './icons.js';
import { tileCells, tileSize, segKey } from './rules.js';
import { U, INSET, drawBuilding, drawStreetcar, ghostTile } from './draw.js';
import { buildPoints } from './legal.js';
import { view, legal, mine, myHand, seatColor, freshNow } from './ui.js';
import { candidatesAt, nearestPlacement } from './choices.js';

/**
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Segment} Segment
 * @typedef {import('./ui.js').B} B
 */


/** Bounds of what is drawn, in cells. */
function bounds(b) {
  const ui = b.ui;
  const v = view(b);
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
  if (ui.mode === 'tile') {
    for (const p of legal(b).tiles) {
      if (p.neighborhood !== ui.tileN) continue;
      for (const c of tileCells(p.neighborhood, p.x, p.y, p.rotation)) add(c.x, c.y);
    }
  }
  if (!Number.isFinite(minX)) return { minX: 0, minY: 0, maxX: 3, maxY: 3 };
  return { minX, minY, maxX, maxY };
}

/**
 * The city in SVG: tiles, lots, buildings, streetcars, and what I may choose.
 * @param {B} b
 */
export function renderCity(b) {
  const ui = b.ui;
  const piece = ui.piece;
  const v = view(b);
  const lg = legal(b);
  const bx = bounds(b);
  const pad = 0.35;
  const vb = [(bx.minX - pad) * U, (bx.minY - pad) * U, (bx.maxX - bx.minX + 2 * pad) * U, (bx.maxY - bx.minY + 2 * pad) * U];
  const root = /** @type {SVGSVGElement} */ (
    s('svg', {
      viewBox: vb.join(' '),
      class: 'city',
      id: 'city',
      role: 'img',
      'aria-label': t('ui.city_label'),
      style: ui.zoom > 1 ? { width: `${Math.round(ui.zoom * 100)}%`, 'max-height': 'none' } : { 'max-width': `${Math.round(vb[2] * 1.05 * ui.zoom)}px` },
    })
  );
  const byProp = new Map(v.cells.map((c) => [c.property, c]));
  const hand = new Set(myHand(b) ?? []);

  // Tiles: asphalt under each neighborhood, lots on top.
  const tilesG = s('g', { class: 'tiles' });
  v.tiles.forEach((tile, i) => {
    const [w, hh] = tileSize(tile.neighborhood, tile.rotation);
    tilesG.append(
      s('rect', { x: tile.x * U, y: tile.y * U, width: w * U, height: hh * U, rx: 10, class: { asphalt: true, fresh: i >= ui.fresh.tiles && freshNow(ui) }, 'data-tile': tile.neighborhood }),
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
  if (ui.mode === 'build' && piece) for (const cells of lg.build.get(piece) ?? []) for (const p of cells) highlight.add(p);
  for (const c of v.cells) {
    const hood = Math.floor(c.property / 10);
    const covered = c.building !== null && c.building !== undefined;
    const lot = s(
      'g',
      {
        class: { lot: true, legal: highlight.has(c.property), held: hand.has(c.property) && !covered, hovered: ui.hoverProp === c.property },
        'data-prop': c.property,
        'data-outskirts': c.outskirts ? 'yes' : 'no',
      },
      s('rect', { x: c.x * U + INSET, y: c.y * U + INSET, width: U - 2 * INSET, height: U - 2 * INSET, rx: 6, fill: HOOD_COLORS[hood] }),
      covered ? null : s('text', { x: c.x * U + U / 2, y: c.y * U + U / 2 + 11, class: 'prop-no', 'text-anchor': 'middle' }, String(c.property)),
      hand.has(c.property) && !covered ? s('circle', { cx: c.x * U + U - 22, cy: c.y * U + 22, r: 7, class: 'held-dot', fill: seatColor(b, b.state?.mySeat ?? 0) }) : null,
    );
    lotsG.append(lot);
  }

  // Buildings.
  const buildG = s('g', { class: 'buildings' });
  v.buildings.forEach((bld, i) => {
    const g = drawBuilding((seat) => seatColor(b, seat), bld, byProp, 1, i);
    if (i >= ui.fresh.buildings && freshNow(ui)) g.classList.add('fresh');
    buildG.append(g);
  });

  // Streetcars.
  const carsG = s('g', { class: 'streetcars' });
  v.streetcars.forEach((seg, i) => {
    const g = drawStreetcar(seg, 1);
    if (i >= ui.fresh.streetcars && freshNow(ui)) g.classList.add('fresh');
    carsG.append(g);
  });

  // Legal streetcar segments.
  const segG = s('g', { class: 'legal-segments' });
  if (ui.mode === 'streetcar') {
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

  // Legal tile spots for the chosen tile and ui.rotation.
  const spotsG = s('g', { class: 'tile-spots' });
  if (ui.mode === 'tile') {
    for (const p of lg.tiles) {
      if (p.neighborhood !== ui.tileN || p.rotation !== ui.rotation) continue;
      const [w, hh] = tileSize(p.neighborhood, p.rotation);
      spotsG.append(
        s('g', { class: 'tile-spot', 'data-spot': `${p.x},${p.y}` },
          s('rect', { x: p.x * U, y: p.y * U, width: w * U, height: hh * U, class: 'spot-area' }),
          s('circle', { cx: (p.x + w / 2) * U, cy: (p.y + hh / 2) * U, r: 16, class: 'spot-dot' }),
        ),
      );
    }
  }

  b.previewLayer = /** @type {SVGGElement} */ (s('g', { class: 'preview' }));
  root.append(tilesG, streetG, lotsG, spotsG, buildG, carsG, segG, b.previewLayer);
  root.addEventListener('pointermove', (e) => onPointerMove(b, e));
  root.addEventListener('pointerleave', () => {
    b.dispatch({ type: 'hover', prop: null });
    drawPreview(b, null);
  });
  root.addEventListener('click', (e) => onClick(b, e));
  b.svg = root;
  const zoomBar = h(
    'div',
    { class: 'zoom', id: 'zoom' },
    h('button', { class: 'small', 'aria-label': t('ui.zoom_out'), title: t('ui.zoom_out'), onclick: () => b.dispatch({ type: 'zoom', by: 1 / 1.25 }) }, '−'),
    h('button', { class: 'small', 'aria-label': t('ui.zoom_in'), title: t('ui.zoom_in'), onclick: () => b.dispatch({ type: 'zoom', by: 1.25 }) }, '+'),
  );
  const scroller = h('div', { class: 'city-scroll' }, root);
  b.els.city.replaceChildren(zoomBar, scroller);
  drawPreview(b, null);
}

/**
 * @param {B} b
 * @param {PointerEvent | MouseEvent} e
 */
function toGrid(b, e) {
  if (!b.svg) return null;
  const ctm = b.svg.getScreenCTM();
  if (!ctm) return null;
  const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
  return { gx: pt.x / U, gy: pt.y / U };
}

/** @param {B} b @param {number} gx @param {number} gy */
function propAt(b, gx, gy) {
  const cx = Math.floor(gx);
  const cy = Math.floor(gy);
  return view(b).cells.find((c) => c.x === cx && c.y === cy)?.property ?? null;
}

/**
 * @param {B} b
 * @param {PointerEvent} e
 */
function onPointerMove(b, e) {
  const ui = b.ui;
  if (e.pointerType === 'touch') return;
  const g = toGrid(b, e);
  if (!g) return;
  const prop = propAt(b, g.gx, g.gy);
  if (prop !== ui.hoverProp) b.dispatch({ type: 'hover', prop });
  if (ui.mode === 'tile') {
    const p = nearestPlacement(ui, b.c, g.gx, g.gy);
    drawPreview(b, p ? { type: 'place_neighborhood', ...p } : null, p ? null : g);
  } else if (ui.mode === 'build' && ui.piece && !ui.selected) {
    const cands = prop !== null ? candidatesAt(ui, b.c, prop) : [];
    drawPreview(b, cands.length ? { type: 'build', piece: ui.piece, cells: cands[0] } : null);
  } else if (!ui.selected) {
    drawPreview(b, null);
  }
}

/**
 * A click on the city: a property (building), a street (streetcar) or a spot
 * (tile), as the mode asks.
 * @param {B} b
 * @param {MouseEvent} e
 */
function onClick(b, e) {
  const ui = b.ui;
  if (!b.state || b.state.replay || !mine(b)) return;
  const target = /** @type {Element} */ (e.target);
  const g = toGrid(b, e);
  if (!g) return;
  if (ui.mode === 'streetcar') {
    const key = target.closest('[data-seg]')?.getAttribute('data-seg');
    if (key) b.dispatch({ type: 'click_segment', key });
  } else if (ui.mode === 'tile') {
    b.dispatch({ type: 'click_tile_spot', gx: g.gx, gy: g.gy });
  } else if (ui.mode === 'build' && ui.piece) {
    const prop = propAt(b, g.gx, g.gy);
    if (prop !== null) b.dispatch({ type: 'click_prop', prop });
  }
}

/**
 * The move being chosen, drawn faint over the city; a building with the points
 * the server says it would score.
 * @param {B} b
 * @param {Move | null} mv
 * @param {{gx: number, gy: number} | null} [miss] pointer position with no legal tile spot
 */
export function drawPreview(b, mv, miss) {
  const ui = b.ui;
  if (!b.previewLayer || !b.state) return;
  const show = ui.selected ?? mv;
  b.previewLayer.replaceChildren();
  const v = view(b);
  const byProp = new Map(v.cells.map((c) => [c.property, c]));
  const me = b.state.mySeat ?? 0;
  if (show && show.type === 'build') {
    const bld = { piece: show.piece, cells: show.cells, owner: me, points: 0 };
    b.previewLayer.append(drawBuilding((seat) => seatColor(b, seat), bld, byProp, 0.72));
    const score = buildPoints(legal(b), show.piece, show.cells);
    const cells = show.cells.map((p) => byProp.get(p)).filter((c) => c !== undefined);
    if (cells.length && score !== undefined) {
      const maxX = Math.max(...cells.map((c) => c.x));
      const minY = Math.min(...cells.map((c) => c.y));
      b.previewLayer.append(
        s(
          'g',
          { class: 'score-bubble', id: 'score-preview', 'data-score': score },
          s('rect', { x: (maxX + 1) * U - 70, y: minY * U - 36, width: 90, height: 44, rx: 22 }),
          s('text', { x: (maxX + 1) * U - 25, y: minY * U - 6, 'text-anchor': 'middle' }, `+${score}`),
        ),
      );
    }
    for (const c of cells) {
      b.previewLayer.append(s('rect', { x: c.x * U + 5, y: c.y * U + 5, width: U - 10, height: U - 10, rx: 10, class: ui.selected ? 'sel-outline' : 'hover-outline' }));
    }
  } else if (show && show.type === 'place_neighborhood') {
    b.previewLayer.append(ghostTile(show.neighborhood, show.x, show.y, show.rotation, true));
  } else if (show && show.type === 'streetcar') {
    b.previewLayer.append(drawStreetcar(show.segment, 0.8));
  } else if (!show && miss && ui.mode === 'tile' && ui.tileN) {
    const [w, hh] = tileSize(ui.tileN, ui.rotation);
    b.previewLayer.append(ghostTile(ui.tileN, Math.floor(miss.gx - w / 2 + 0.5), Math.floor(miss.gy - hh / 2 + 0.5), ui.rotation, false));
  }
}
