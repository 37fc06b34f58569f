// Big City's small pictures and labels: piece badges, mini tiles, card faces
// and backs, and how a footprint is written. Shared by the board and the home page.

import { h, s } from '../../dom.js';
import { t } from '../../i18n.js';
import { pieceIcon, HOOD_COLORS, HOOD_DARK, PARK_FILL, FACTORY_FILL } from './icons.js';
import { tileCells, tileSize, SPECIAL_CARDS, isSpecialCard, pieceKind } from './rules.js';

/** @typedef {import('./types').Piece} Piece */

export const PIECE_GROUPS = /** @type {[string, Piece[]][]} */ ([
  ['ui.residences', ['residence_single', 'residence_double', 'residence_triple']],
  ['ui.businesses', ['business_single', 'business_double', 'business_triple']],
  ['ui.specials', ['city_hall', 'church', 'cinema', 'post_office', 'bank', 'shopping_center']],
  ['ui.parks_factories', ['lincoln_park', 'central_park', 'stanford_corporation', 'rockwell_industries']],
]);

/** @param {number[]} cells */
export function cellsText(cells) {
  return [...cells].sort((a, b) => a - b).join('-');
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

export function streetcarBadge() {
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
