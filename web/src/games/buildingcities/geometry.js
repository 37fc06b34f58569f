// Building Cities' map as the browser draws it (rulings M1-M3): blocks, the six
// districts of 8 × 8 blocks (D1 D2 D3 over D4 D5 D6), the seven sea areas along
// their outer sides, footprints, the "cross" of bonuses, and the prices and
// countdowns the view leaves to the handbook. Pure functions, tested in Node.

/**
 * @typedef {import('./types').Block} Block
 * @typedef {import('./types').District} District
 * @typedef {import('./types').Sea} Sea
 * @typedef {import('./types').Footprint} Footprint
 * @typedef {import('./types').Rotation} Rotation
 * @typedef {import('./types').Tile} Tile
 * @typedef {import('./types').City} City
 * @typedef {import('./types').Economy} Economy
 * @typedef {import('./types').Variant} Variant
 * @typedef {import('./types').View} View
 */

/** Blocks per district side (M1). */
export const SIDE = 8;
/** City-wide columns and rows. */
export const COLS = 3 * SIDE;
export const ROWS = 2 * SIDE;
/** @type {District[]} */
export const DISTRICTS = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6'];
/** @type {Sea[]} */
export const SEAS = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7'];
/** M3: the motorway junction, block (3, 0) of D1. */
export const JUNCTION = { x: 3, y: 0 };

/**
 * M2: the district each sea area borders, and on which side.
 * @type {Record<Sea, {district: District, side: 'west' | 'south' | 'east'}>}
 */
export const SEA_SIDE = {
  S1: { district: 'D1', side: 'west' },
  S2: { district: 'D4', side: 'west' },
  S3: { district: 'D4', side: 'south' },
  S4: { district: 'D5', side: 'south' },
  S5: { district: 'D6', side: 'south' },
  S6: { district: 'D6', side: 'east' },
  S7: { district: 'D3', side: 'east' },
};

/** @param {District} d */
export const districtIndex = (d) => DISTRICTS.indexOf(d);

/**
 * The district's north-west block.
 * @param {District} d
 * @returns {Block}
 */
export function districtOrigin(d) {
  const i = districtIndex(d);
  return { x: (i % 3) * SIDE, y: Math.floor(i / 3) * SIDE };
}

/**
 * @param {Block} b
 * @returns {District | null}
 */
export function districtOf(b) {
  if (b.x < 0 || b.y < 0 || b.x >= COLS || b.y >= ROWS) return null;
  return DISTRICTS[Math.floor(b.y / SIDE) * 3 + Math.floor(b.x / SIDE)];
}

/**
 * M1 "think in a cross": districts sharing a side.
 * @param {District} a
 * @param {District} b
 */
export function adjacent(a, b) {
  const i = districtIndex(a);
  const j = districtIndex(b);
  return Math.abs((i % 3) - (j % 3)) + Math.abs(Math.floor(i / 3) - Math.floor(j / 3)) === 1;
}

/** @param {Block} b */
export const blockKey = (b) => `${b.x},${b.y}`;

/**
 * A block as a player reads it: its district, then column and row inside it (1-8).
 * @param {Block} b
 * @returns {{district: District | null, col: number, row: number}}
 */
export function localBlock(b) {
  return { district: districtOf(b), col: (b.x % SIDE) + 1, row: (b.y % SIDE) + 1 };
}

/**
 * Width and height in blocks once turned.
 * @param {Footprint | null | undefined} fp
 * @param {Rotation} rotation
 * @returns {[number, number]}
 */
export function footprintSize(fp, rotation) {
  const [w, h] = (fp ?? '1x1').split('x').map(Number);
  return rotation === 'R90' ? [h, w] : [w, h];
}

/** @param {Footprint | null | undefined} fp */
export const isSquare = (fp) => {
  const [w, h] = footprintSize(fp, 'R0');
  return w === h;
};

/**
 * The blocks a footprint covers from its north-west `origin`.
 * @param {Footprint | null | undefined} fp
 * @param {Rotation} rotation
 * @param {Block} origin
 * @returns {Block[]}
 */
export function footprintBlocks(fp, rotation, origin) {
  const [w, h] = footprintSize(fp, rotation);
  /** @type {Block[]} */
  const out = [];
  for (let y = origin.y; y < origin.y + h; y++) for (let x = origin.x; x < origin.x + w; x++) out.push({ x, y });
  return out;
}

/** @param {Tile} tile */
export const tileBlocks = (tile) => footprintBlocks(tile.footprint, tile.rotation, tile.origin);

/**
 * The handbook id a tile stands for (grids have their own kinds).
 * @param {Tile} tile
 */
export function tileBuilding(tile) {
  if (tile.kind === 'building') return tile.building;
  if (tile.kind === 'power_grid') return 'power_grid';
  if (tile.kind === 'water_grid') return 'water_grid';
  return 'road';
}

/**
 * The tiles of the same district within `range` side steps of `blocks` (the
 * "cross" of bonuses and maluses: a diamond, never a square; never across a
 * district border), as the rules crate counts them.
 * @param {Tile[]} tiles
 * @param {Block[]} blocks
 * @param {number} range
 * @param {number} [except] a tile id left out (the tile itself)
 * @returns {Tile[]}
 */
export function neighboursWithin(tiles, blocks, range, except) {
  const district = blocks.length ? districtOf(blocks[0]) : null;
  if (!district || range < 1) return [];
  const near = (/** @type {Block} */ b) => districtOf(b) === district && blocks.some((o) => Math.abs(o.x - b.x) + Math.abs(o.y - b.y) <= range);
  const own = new Set(blocks.map(blockKey));
  return tiles.filter((t) => t.id !== except && tileBlocks(t).some((b) => !own.has(blockKey(b)) && near(b)));
}

/**
 * The percent applied to a price paid with `owned` land districts (the room's
 * variant: `price_percent`, then the step reached).
 * @param {Variant | undefined} variant
 * @param {number} owned
 */
export function pricePercent(variant, owned) {
  const base = variant?.price_percent ?? 100;
  const steps = (variant?.price_steps ?? []).filter((s) => s.from_districts <= owned);
  const step = steps.length ? steps.reduce((a, b) => (b.from_districts > a.from_districts ? b : a)).percent : 100;
  return Math.floor((base * step) / 100);
}

/**
 * A handbook price as paid with `owned` districts.
 * @param {number} base
 * @param {Variant | undefined} variant
 * @param {number} owned
 */
export const price = (base, variant, owned) => Math.floor((base * pricePercent(variant, owned)) / 100);

/**
 * E3: the conditions and price of the next land district; a sea area costs the
 * same (the 6th district's once all six are owned).
 * @param {Economy} economy
 * @param {Variant | undefined} variant
 * @param {number} owned
 * @returns {{nth: number, bank_more_than: number, tiles_more_than: number, price: number} | null}
 */
export function nextDistrict(economy, variant, owned) {
  const nth = Math.min(owned + 1, economy.land_districts);
  const step = economy.district_steps.find((s) => s.nth === nth);
  if (!step) return null;
  return { nth, bank_more_than: step.bank_more_than, tiles_more_than: step.tiles_more_than, price: price(step.price, variant, owned) };
}

/**
 * What each district not owned would cost at the soonest: the next step's price
 * for one next to the city, a later step's for one farther away (it can only be
 * bought once the districts between are), with which purchase it would be.
 * @param {Economy} economy
 * @param {Variant | undefined} variant
 * @param {District[]} owned
 * @returns {Map<District, {nth: number, price: number}>}
 */
export function districtPrices(economy, variant, owned) {
  /** @type {Map<District, {nth: number, price: number}>} */
  const out = new Map();
  let reached = new Set(owned);
  for (let away = 1; reached.size < DISTRICTS.length; away++) {
    const ring = DISTRICTS.filter((d) => !reached.has(d) && [...reached].some((r) => adjacent(r, d)));
    if (!ring.length) break;
    const next = nextDistrict(economy, variant, owned.length + away - 1);
    for (const d of ring) if (next) out.set(d, { nth: next.nth, price: next.price });
    reached = new Set([...reached, ...ring]);
  }
  return out;
}

/**
 * E3 "tiles built (streets and buildings)" in the owned districts.
 * @param {City} city
 */
export const tilesBuilt = (city) => city.roads.length + city.tiles.length;

/**
 * W2: the round after which the game ends, five rounds after the first
 * completion; null while nobody has completed the objective.
 * @param {View} view
 * @param {number} finalRounds
 */
export function lastRound(view, finalRounds) {
  const rounds = view.players.map((p) => p.frozen_round).filter((r) => r !== null && r !== undefined);
  return rounds.length ? Math.min(.../** @type {number[]} */ (rounds)) + finalRounds : null;
}
