// Drawing Big City's pieces in the city's SVG units: buildings, streetcars,
// and a tile being placed.

import { s } from '../../dom.js';
import { pieceIcon, HOOD_COLORS, PARK_FILL, FACTORY_FILL } from './icons.js';
import { tileCells, tileSize, pieceKind, segKey } from './rules.js';

/**
 * @typedef {import('./types').Segment} Segment
 * @typedef {import('./types').BuildingView} BuildingView
 */

export const U = 100; // SVG units per property
export const INSET = 9; // half a street

/**
 * A building (or park, factory) on its properties, with its points.
 * @param {(seat: number) => string} seatColor
 * @param {BuildingView} bld
 * @param {Map<number, {x: number, y: number}>} byProp
 * @param {number} opacity
 * @param {number} [index]
 * @param {string} [colorOverride]
 */
export function drawBuilding(seatColor, bld, byProp, opacity, index, colorOverride) {
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
export function drawStreetcar(seg, opacity) {
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

/**
 * @param {number} n
 * @param {number} x
 * @param {number} y
 * @param {number} rot
 * @param {boolean} ok
 */
export function ghostTile(n, x, y, rot, ok) {
  const [w, hh] = tileSize(n, rot);
  const g = s('g', { class: `ghost-tile ${ok ? 'ok' : 'bad'}`, id: 'ghost-tile' });
  g.append(s('rect', { x: x * U, y: y * U, width: w * U, height: hh * U, rx: 10, class: 'ghost-asphalt' }));
  for (const c of tileCells(n, x, y, rot)) {
    g.append(s('rect', { x: c.x * U + INSET, y: c.y * U + INSET, width: U - 2 * INSET, height: U - 2 * INSET, rx: 6, fill: HOOD_COLORS[n] }));
    g.append(s('text', { x: c.x * U + U / 2, y: c.y * U + U / 2 + 11, class: 'prop-no', 'text-anchor': 'middle' }, String(c.property)));
  }
  return g;
}