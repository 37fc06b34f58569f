// My City geometry in the browser: piece rotation exactly as the rules crate
// turns pieces (quarter turns clockwise, shape moved back to the top-left of its
// bounding box), and the choice of a legal placement under the pointer.

/**
 * @typedef {{x: number, y: number}} Cell
 * @typedef {{x: number, y: number, rotation: number}} Spot
 */

/**
 * Moves cells so their bounding box starts at (0, 0), sorted row by row.
 * @param {Cell[]} cells
 * @returns {Cell[]}
 */
export function normalize(cells) {
  const minX = Math.min(...cells.map((c) => c.x));
  const minY = Math.min(...cells.map((c) => c.y));
  return cells.map((c) => ({ x: c.x - minX, y: c.y - minY })).sort((a, b) => a.y - b.y || a.x - b.x);
}

/**
 * One quarter turn clockwise: (x, y) → (height − y, x), as `pieces.rs` does.
 * @param {Cell[]} cells normalized
 * @returns {Cell[]}
 */
function turn(cells) {
  const height = Math.max(...cells.map((c) => c.y));
  return normalize(cells.map((c) => ({ x: height - c.y, y: c.x })));
}

/**
 * The cells of a printed shape turned `rotation` quarter turns clockwise.
 * @param {Cell[]} printed
 * @param {number} rotation 0-3
 * @returns {Cell[]}
 */
export function rotated(printed, rotation) {
  let cells = normalize(printed);
  for (let i = 0; i < ((rotation % 4) + 4) % 4; i++) cells = turn(cells);
  return cells;
}

/**
 * The board cells a placement covers.
 * @param {Cell[]} printed
 * @param {Spot} spot
 * @returns {Cell[]}
 */
export function covered(printed, spot) {
  return rotated(printed, spot.rotation).map((c) => ({ x: c.x + spot.x, y: c.y + spot.y }));
}

/**
 * The cell of a shape the pointer holds: the shape's cell nearest the middle of
 * its bounding box (so the piece sits around the finger, not beside it).
 * @param {Cell[]} shape normalized
 * @returns {Cell}
 */
export function grip(shape) {
  const w = Math.max(...shape.map((c) => c.x));
  const h = Math.max(...shape.map((c) => c.y));
  let best = shape[0];
  let bestD = Infinity;
  for (const c of shape) {
    const d = (c.x - w / 2) ** 2 + (c.y - h / 2) ** 2;
    if (d < bestD - 1e-9) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/**
 * The placement to show when the pointer is over `cell` with `rotation`: among the
 * legal spots of that rotation covering the cell, the one whose grip is nearest
 * the cell (an exact fit wins). When none covers it, the spot under the pointer
 * as is, marked illegal.
 * @param {Cell[]} printed the piece in printed orientation
 * @param {Spot[]} legal legal placements (any rotation)
 * @param {Cell} cell
 * @param {number} rotation
 * @returns {{spot: Spot, legal: boolean}}
 */
export function spotAt(printed, legal, cell, rotation) {
  const shape = rotated(printed, rotation);
  const g = grip(shape);
  const raw = { x: cell.x - g.x, y: cell.y - g.y, rotation };
  let best = null;
  let bestD = Infinity;
  for (const spot of legal) {
    if (spot.rotation !== rotation) continue;
    const covers = shape.some((c) => c.x + spot.x === cell.x && c.y + spot.y === cell.y);
    if (!covers) continue;
    const d = (spot.x - raw.x) ** 2 + (spot.y - raw.y) ** 2;
    if (d < bestD) {
      best = spot;
      bestD = d;
    }
  }
  return best ? { spot: best, legal: true } : { spot: raw, legal: false };
}

/**
 * Distinct rotations of a shape (a square has one, a bar two): the rotation
 * button skips turns that look the same.
 * @param {Cell[]} printed
 * @returns {number[]}
 */
export function distinctRotations(printed) {
  /** @type {string[]} */
  const seen = [];
  /** @type {number[]} */
  const out = [];
  for (let r = 0; r < 4; r++) {
    const key = rotated(printed, r).map((c) => `${c.x},${c.y}`).join(' ');
    if (!seen.includes(key)) {
      seen.push(key);
      out.push(r);
    }
  }
  return out;
}

/**
 * The outline of a set of cells as SVG path data (unit cells scaled by `size`):
 * every cell side that does not touch another cell of the set.
 * @param {Cell[]} cells
 * @param {number} size
 * @returns {string}
 */
export function outline(cells, size) {
  const has = new Set(cells.map((c) => `${c.x},${c.y}`));
  /** @type {string[]} */
  const parts = [];
  for (const { x, y } of cells) {
    const X = x * size;
    const Y = y * size;
    if (!has.has(`${x},${y - 1}`)) parts.push(`M${X} ${Y}H${X + size}`);
    if (!has.has(`${x + 1},${y}`)) parts.push(`M${X + size} ${Y}V${Y + size}`);
    if (!has.has(`${x},${y + 1}`)) parts.push(`M${X} ${Y + size}H${X + size}`);
    if (!has.has(`${x - 1},${y}`)) parts.push(`M${X} ${Y}V${Y + size}`);
  }
  return parts.join('');
}
