// How a Building Cities tile looks: the colour of its family (the rulebook's
// nine frame colours; standees, legendary buildings and roads have none and are
// told apart by their category) and a short label from its name in the page's
// language.

import { building, buildingName } from './handbook.js';

/**
 * @typedef {import('./types').Colour} Colour
 * @typedef {import('./types').Building} Building
 */

/** Fill colours of the nine families. */
export const COLOURS = {
  blue: '#4a7fd4',
  orange: '#ee8a2c',
  yellow: '#efc232',
  grey: '#8d8f94',
  green: '#3e9f4f',
  red: '#d4453f',
  purple: '#8c5cc2',
  pink: '#e46fab',
  yellow_blue: '#efc232',
};

/** Families in the palette's order. */
export const FAMILY_ORDER = ['blue', 'orange', 'yellow', 'grey', 'green', 'red', 'purple', 'pink', 'yellow_blue', 'standee', 'legendary'];

/**
 * The family a building belongs to: its frame colour, or `standee` /
 * `legendary` for those without one.
 * @param {Building | undefined} b
 */
export function familyOf(b) {
  if (!b) return 'standee';
  if (b.colour) return b.colour;
  return b.category === 'legendary' ? 'legendary' : b.category === 'road' ? 'road' : 'standee';
}

/**
 * Fill and ink of a building's tile.
 * @param {string} id
 * @returns {{fill: string, ink: string}}
 */
export function tileLook(id) {
  const family = familyOf(building(id));
  if (family === 'legendary') return { fill: '#b8860b', ink: '#fff' };
  if (family === 'standee') return { fill: '#3f4a5a', ink: '#fff' };
  if (family === 'road') return { fill: '#55585e', ink: '#fff' };
  const fill = COLOURS[/** @type {Colour} */ (family)] ?? '#999';
  const light = family === 'yellow' || family === 'yellow_blue' || family === 'orange';
  return { fill, ink: light ? '#2a2208' : '#fff' };
}

const SMALL_WORDS = new Set(['the', 'of', 'a', 'le', 'la', 'les', 'de', 'des', 'du', 'd', 'l', 'et', 'and']);

/**
 * A short label for a building: the initials of its name's words, or the first
 * two letters of a one-word name ("Tennis Court" → "TC", "Houses" → "Ho").
 * @param {string} id
 */
export function shortLabel(id) {
  const name = buildingName(id).replace(/[«»"“”.]/g, ' ');
  const words = name
    .split(/[\s'’-]+/)
    .filter((w) => w && !SMALL_WORDS.has(w.toLowerCase()));
  if (words.length === 0) return '?';
  if (words.length === 1) return words[0].slice(0, 2);
  return words
    .slice(0, 3)
    .map((w) => w[0].toUpperCase())
    .join('');
}
