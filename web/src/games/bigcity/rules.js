// Big City geometry the board draws with (rulings G2, G7): tile cells by
// rotation, special cards, piece kinds, street segments. Pure functions,
// unit-tested under node. The points of a building come from the server (its
// legal moves carry them), never from here.

/**
 * @typedef {import('./types').Piece} Piece
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

/**
 * Segment key independent of end order.
 * @param {Segment} s
 */
export function segKey(s) {
  const a = `${s.x1},${s.y1}`;
  const b = `${s.x2},${s.y2}`;
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
