// Piece icons and tile colors, drawn in SVG in a 100×100 box.

import { s } from '../../dom.js';

/** @typedef {import('./types').Piece} Piece */

/** Lot and card colors of each neighborhood (index 1..8). */
export const HOOD_COLORS = ['', '#ecdcae', '#cfe4b2', '#bcd9ec', '#f2cdb8', '#dccbed', '#f4e49e', '#c3e6da', '#ebc8d7'];
export const HOOD_DARK = ['', '#a88c3c', '#5f8f34', '#3f79a3', '#b5603a', '#7a5aa8', '#a8901c', '#35907a', '#a54a72'];

/**
 * An icon for a piece, white on transparent, to lay over the owner's color.
 * @param {Piece} piece
 * @param {string} [ink]
 * @returns {SVGElement}
 */
export function pieceIcon(piece, ink = '#fff') {
  const stroke = { stroke: ink, 'stroke-width': 6, fill: 'none', 'stroke-linejoin': 'round', 'stroke-linecap': 'round' };
  const fill = { fill: ink };
  switch (piece) {
    case 'residence_single':
    case 'residence_double':
    case 'residence_triple':
      return s('g', null, s('path', { d: 'M18 52 L50 22 L82 52 L82 84 L18 84 Z', ...fill }), s('rect', { x: 43, y: 60, width: 14, height: 24, fill: 'rgba(0,0,0,0.35)' }));
    case 'business_single':
    case 'business_double':
    case 'business_triple':
      return s(
        'g',
        null,
        s('rect', { x: 28, y: 14, width: 44, height: 72, ...fill }),
        ...[26, 42, 58].flatMap((y) => [36, 54].map((x) => s('rect', { x, y, width: 10, height: 10, fill: 'rgba(0,0,0,0.35)' }))),
      );
    case 'city_hall':
      return s(
        'g',
        null,
        s('path', { d: 'M14 40 L50 18 L86 40 Z', ...fill }),
        ...[22, 40, 58, 74].map((x) => s('rect', { x, y: 44, width: 8, height: 32, ...fill })),
        s('rect', { x: 14, y: 78, width: 72, height: 8, ...fill }),
      );
    case 'church':
      return s(
        'g',
        null,
        s('path', { d: 'M38 88 L38 44 L50 26 L62 44 L62 88 Z', ...fill }),
        s('path', { d: 'M50 6 L50 24 M43 13 L57 13', ...stroke }),
        s('path', { d: 'M20 88 L20 60 L38 52 L38 88 Z M80 88 L80 60 L62 52 L62 88 Z', ...fill }),
      );
    case 'cinema':
      return s(
        'g',
        null,
        s('rect', { x: 16, y: 40, width: 68, height: 44, rx: 4, ...fill }),
        s('path', { d: 'M16 26 L82 18 L84 32 L18 40 Z', ...fill }),
        s('path', { d: 'M44 52 L62 62 L44 72 Z', fill: 'rgba(0,0,0,0.4)' }),
      );
    case 'post_office':
      return s('g', null, s('rect', { x: 14, y: 28, width: 72, height: 48, rx: 4, ...fill }), s('path', { d: 'M16 31 L50 56 L84 31', stroke: 'rgba(0,0,0,0.4)', 'stroke-width': 5, fill: 'none' }));
    case 'bank':
      return s(
        'g',
        null,
        s('circle', { cx: 50, cy: 52, r: 34, ...fill }),
        s('text', { x: 50, y: 68, 'text-anchor': 'middle', 'font-size': 46, 'font-weight': 700, fill: 'rgba(0,0,0,0.45)', 'font-family': 'sans-serif' }, '$'),
      );
    case 'shopping_center':
      return s(
        'g',
        null,
        s('path', { d: 'M22 36 L78 36 L84 88 L16 88 Z', ...fill }),
        s('path', { d: 'M36 44 L36 30 A14 14 0 0 1 64 30 L64 44', ...stroke }),
      );
    case 'lincoln_park':
    case 'central_park':
      return s('g', null, s('circle', { cx: 38, cy: 44, r: 18, fill: '#2f7d32' }), s('circle', { cx: 62, cy: 56, r: 16, fill: '#3b8f3e' }), s('rect', { x: 35, y: 60, width: 6, height: 22, fill: '#6b4a2b' }), s('rect', { x: 59, y: 70, width: 6, height: 16, fill: '#6b4a2b' }));
    case 'stanford_corporation':
    case 'rockwell_industries':
      return s(
        'g',
        null,
        s('path', { d: 'M12 86 L12 50 L32 36 L32 50 L52 36 L52 50 L72 36 L72 20 L84 20 L84 86 Z', fill: '#4a4d52' }),
        s('circle', { cx: 80, cy: 10, r: 6, fill: '#b9bcc0' }),
      );
    default:
      return s('g');
  }
}

/** The fill of a piece on the board: owner color for buildings, fixed for parks/factories. */
export const PARK_FILL = '#8cc66b';
export const FACTORY_FILL = '#9a9ca1';
