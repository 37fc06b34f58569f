// What a building would bring where it is about to go: the rules crate lists it
// with each tile move (`preview`: Maya, moves, change of district value); the
// board adds, for the eye, the neighbours in the "cross" whose bonuses and
// maluses link to it (the building's own on them, theirs on it), as the
// handbook defines them.

import { building } from './handbook.js';
import { footprintBlocks, neighboursWithin, tileBuilding, price } from './geometry.js';

/**
 * @typedef {import('./types').Tile} Tile
 * @typedef {import('./types').Target} Target
 * @typedef {import('./types').Building} Building
 * @typedef {import('./types').City} City
 * @typedef {import('./types').TileMove} TileMove
 * @typedef {import('./types').Variant} Variant
 * @typedef {import('./choices.js').Spot} Spot
 * @typedef {{tile: Tile, amount: number}} Mark
 */

/**
 * Whether a building is what a target names.
 * @param {Building | undefined} b
 * @param {Target} target
 */
export function matches(b, target) {
  if (!b) return false;
  if ('building' in target) return b.id === target.building;
  if ('colour' in target) return b.colour === target.colour;
  return b.category === target.category;
}

/**
 * A bonus's worth for one neighbour: its value plus its percent of the owner's value.
 * @param {{value: number, percent: number}} bonus
 * @param {Building} owner
 */
const worth = (bonus, owner) => bonus.value + Math.trunc((bonus.percent * owner.value) / 100);

/**
 * The neighbours whose bonuses and maluses link to `id` placed at `spot`, each
 * with what the link is worth (the sum of both ways).
 * @param {City} city
 * @param {string} id
 * @param {Spot} spot
 * @returns {Mark[]}
 */
export function crossMarks(city, id, spot) {
  const b = building(id);
  if (!b) return [];
  const blocks = footprintBlocks(b.size, spot.rotation, spot.origin);
  /** @type {Map<number, Mark>} */
  const marks = new Map();
  const add = (/** @type {Tile} */ tile, /** @type {number} */ amount) => {
    if (!amount) return;
    const had = marks.get(tile.id);
    marks.set(tile.id, { tile, amount: (had?.amount ?? 0) + amount });
  };
  // Its own bonuses, counted once for each neighbour of their target.
  for (const bonus of b.bonuses) {
    const target = bonus.target;
    if (!target) continue;
    for (const tile of neighboursWithin(city.tiles, blocks, bonus.range)) {
      if (matches(building(tileBuilding(tile)), target)) add(tile, worth(bonus, b));
    }
  }
  // The neighbours' bonuses that count it.
  for (const tile of city.tiles) {
    const owner = building(tileBuilding(tile));
    if (!owner) continue;
    for (const bonus of owner.bonuses) {
      if (!bonus.target || !matches(b, bonus.target)) continue;
      const near = neighboursWithin([{ ...tile, id: -1 }], blocks, bonus.range).length > 0;
      if (near) add(tile, worth(bonus, owner));
    }
  }
  return [...marks.values()];
}

/**
 * The preview of a tile move: the server's when it lists one, else the
 * handbook's price, moves and value with the marks' sum (the bonuses without a
 * target count for the building itself).
 * @param {TileMove | undefined} mv
 * @param {string} id
 * @param {Mark[]} marks
 * @param {Variant | undefined} variant
 * @param {number} owned land districts owned (the price variant's steps)
 * @returns {{cost: number, moves: number, value: number, fromServer: boolean}}
 */
export function previewOf(mv, id, marks, variant, owned) {
  if (mv?.preview) return { ...mv.preview, fromServer: true };
  const b = building(id);
  if (!b) return { cost: 0, moves: 0, value: 0, fromServer: false };
  const own = b.bonuses.filter((x) => !x.target).reduce((a, x) => a + worth(x, b), 0);
  const value = b.value + own + marks.reduce((a, m) => a + m.amount, 0);
  return { cost: price(b.cost, variant, owned), moves: b.moves, value, fromServer: false };
}
