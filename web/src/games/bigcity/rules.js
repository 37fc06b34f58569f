// Big City geometry and scoring the board needs for previews (rulings G2, G7, V1-V3).
// Pure functions: unit-tested under node.

/**
 * @typedef {import('./types').Piece} Piece
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Segment} Segment
 */

/** @param {number} n */
export function tileBaseSize(n) {
  return n % 2 === 1 ? [3, 3] : [4, 2];
}

/**
 * @param {number} n
 * @param {number} rotation
 */
export function tileSize(n, rotation) {
  const [w, h] = tileBaseSize(n);
  return rotation % 180 === 90 ? [h, w] : [w, h];
}

/**
 * Cells of a tile placed with its rotated top-left at (x, y), with property numbers.
 * @param {number} n
 * @param {number} x
 * @param {number} y
 * @param {number} rotation clockwise degrees
 * @returns {{x: number, y: number, property: number}[]}
 */
export function tileCells(n, x, y, rotation) {
  const [w, h] = tileBaseSize(n);
  const out = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const index = r * w + c + 1;
      let dx = c;
      let dy = r;
      if (rotation === 90) [dx, dy] = [h - 1 - r, c];
      else if (rotation === 180) [dx, dy] = [w - 1 - c, h - 1 - r];
      else if (rotation === 270) [dx, dy] = [r, w - 1 - c];
      out.push({ x: x + dx, y: y + dy, property: n * 10 + index });
    }
  }
  return out;
}

/** Special cards: park/factory pieces by card number. */
export const SPECIAL_CARDS = /** @type {Record<number, Piece>} */ ({
  29: 'lincoln_park',
  49: 'central_park',
  69: 'stanford_corporation',
  89: 'rockwell_industries',
});

/** @param {number} card */
export function isSpecialCard(card) {
  return card in SPECIAL_CARDS;
}

/** @param {Piece} piece */
export function pieceKind(piece) {
  if (piece.startsWith('residence')) return 'residence';
  if (piece.startsWith('business')) return 'business';
  if (piece === 'lincoln_park' || piece === 'central_park') return 'park';
  if (piece === 'stanford_corporation' || piece === 'rockwell_industries') return 'factory';
  return piece;
}

/** @param {Piece} piece */
export function isSpecialBuilding(piece) {
  return ['city_hall', 'church', 'cinema', 'post_office', 'bank', 'shopping_center'].includes(piece);
}

/**
 * Segment key independent of end order.
 * @param {Segment} s
 */
export function segKey(s) {
  const a = `${s.x1},${s.y1}`;
  const b = `${s.x2},${s.y2}`;
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/**
 * The score a building would get if placed now (V1-V3), from public information.
 * @param {View} view
 * @param {Piece} piece
 * @param {number[]} props property numbers of the footprint
 * @returns {number}
 */
export function previewScore(view, piece, props) {
  const kind = pieceKind(piece);
  if (kind === 'park' || kind === 'factory' || piece === 'city_hall') return 0;
  if (piece === 'church') return 15;
  if (piece === 'shopping_center') return 30;
  const byProp = new Map(view.cells.map((c) => [c.property, c]));
  const byXY = new Map(view.cells.map((c) => [`${c.x},${c.y}`, c]));
  const cells = props.map((p) => byProp.get(p)).filter((c) => c !== undefined);
  const inside = new Set(cells.map((c) => `${c.x},${c.y}`));
  const streetcars = new Set(view.streetcars.map(segKey));
  let park = false;
  let factory = false;
  let cityHall = false;
  let streetcar = false;
  const outskirts = cells.some((c) => c.outskirts);
  for (const c of cells) {
    /** @type {[number, number, Segment][]} */
    const around = [
      [c.x, c.y - 1, { x1: c.x, y1: c.y, x2: c.x + 1, y2: c.y }],
      [c.x + 1, c.y, { x1: c.x + 1, y1: c.y, x2: c.x + 1, y2: c.y + 1 }],
      [c.x, c.y + 1, { x1: c.x, y1: c.y + 1, x2: c.x + 1, y2: c.y + 1 }],
      [c.x - 1, c.y, { x1: c.x, y1: c.y, x2: c.x, y2: c.y + 1 }],
    ];
    for (const [nx, ny, seg] of around) {
      if (inside.has(`${nx},${ny}`)) continue;
      if (streetcars.has(segKey(seg))) streetcar = true;
      const n = byXY.get(`${nx},${ny}`);
      if (!n || n.building === null || n.building === undefined) continue;
      const b = view.buildings[n.building];
      if (!b) continue;
      const k = pieceKind(b.piece);
      if (k === 'park') park = true;
      if (k === 'factory') factory = true;
      if (b.piece === 'city_hall') cityHall = true;
    }
  }
  const both = streetcar && cityHall ? 3 : streetcar || cityHall ? 2 : 1;
  if (kind === 'cinema' || kind === 'post_office' || kind === 'bank') return 5 * both;
  const base = piece.endsWith('single') ? 2 : piece.endsWith('double') ? 6 : 10;
  let sum = base + (park ? 1 : 0) - (factory ? 2 : 0);
  if (kind === 'residence' && outskirts) sum += 1;
  if (kind === 'business' && !outskirts) sum += 1;
  if (sum <= 0) return 1;
  if (kind === 'residence') return streetcar ? sum * 2 : sum;
  return sum * both;
}
