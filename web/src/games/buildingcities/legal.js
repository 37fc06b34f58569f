// The server's legal moves as the board uses them. A building phase may list
// hundreds of tile spots, so the board asks for them in parts: `other` (every
// legal move but tiles: roads, purchases, tokens, upgrades, the loan, end of
// turn) and one building's `tile` moves when that building is chosen. Answers
// are kept per part and per version; a full list (no part named, or an older
// server) answers every part.

/**
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').TileMove} TileMove
 * @typedef {import('./types').Rotation} Rotation
 * @typedef {{version: number, moves: Move[]}} Answer
 * @typedef {Map<string, Answer>} LegalCache answers by part (`*`: the full list)
 */

/** The part of the legal moves that is not tiles. */
export const OTHER = 'other';
/** The key of a full list. */
export const ALL = '*';

/**
 * The cache after an answer: `of` names the part, none the full list.
 * @param {LegalCache} cache
 * @param {{version: number, moves: any[], of?: string | null} | null} legal
 * @returns {LegalCache}
 */
export function remember(cache, legal) {
  if (!legal) return cache;
  const key = legal.of ?? ALL;
  const had = cache.get(key);
  if (had && had.version === legal.version && had.moves === legal.moves) return cache;
  const next = new Map([...cache].filter(([, a]) => a.version >= legal.version));
  next.set(key, { version: legal.version, moves: legal.moves });
  return next;
}

/**
 * The moves of one part at `version`, or null when the board must ask.
 * @param {LegalCache} cache
 * @param {string} part `other`, a building id, or `*` (the full list)
 * @param {number} version
 * @returns {Move[] | null}
 */
export function movesOf(cache, part, version) {
  const own = cache.get(part);
  if (own && own.version === version) return own.moves;
  const all = cache.get(ALL);
  if (!all || all.version !== version) return null;
  if (part === ALL) return all.moves;
  if (part === OTHER) return all.moves.filter((m) => m.type !== 'tile');
  return all.moves.filter((m) => m.type === 'tile' && m.building === part);
}

/**
 * A building's listed spots for one rotation, by origin block (`x,y`).
 * @param {Move[]} moves
 * @param {string} building
 * @param {Rotation} rotation
 * @returns {Map<string, TileMove>}
 */
export function spotsOf(moves, building, rotation) {
  /** @type {Map<string, TileMove>} */
  const out = new Map();
  for (const m of moves) {
    if (m.type === 'tile' && m.building === building && m.rotation === rotation) out.set(`${m.origin.x},${m.origin.y}`, m);
  }
  return out;
}

/**
 * The rotations a building has spots in.
 * @param {Move[]} moves
 * @param {string} building
 * @returns {Rotation[]}
 */
export function rotationsOf(moves, building) {
  /** @type {Set<Rotation>} */
  const seen = new Set();
  for (const m of moves) if (m.type === 'tile' && m.building === building) seen.add(m.rotation);
  return /** @type {Rotation[]} */ (['R0', 'R90']).filter((r) => seen.has(r));
}

/**
 * Legal road blocks, by key.
 * @param {Move[]} moves
 * @returns {Set<string>}
 */
export function roadBlocks(moves) {
  const out = new Set();
  for (const m of moves) if (m.type === 'road') out.add(`${m.block.x},${m.block.y}`);
  return out;
}

/**
 * The listed moves of one type.
 * @template {Move['type']} T
 * @param {Move[]} moves
 * @param {T} type
 * @returns {Extract<Move, {type: T}>[]}
 */
export function ofType(moves, type) {
  return /** @type {any[]} */ (moves.filter((m) => m.type === type));
}
