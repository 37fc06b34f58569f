// The server's legal moves for my decision, grouped the way the board asks for
// them: footprints by piece (with the points each would score, computed by the
// rules crate), tile placements, streets, and which simple moves are open.

import { cellsText } from './art.js';

/**
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Piece} Piece
 * @typedef {import('./types').Segment} Segment
 *
 * @typedef {{neighborhood: number, x: number, y: number, rotation: number}} Placement
 * @typedef {object} Legal
 * @property {Map<Piece, number[][]>} build
 * @property {Map<string, number>} points a listed build's points, by `buildKey`
 * @property {Placement[]} tiles
 * @property {Segment[]} streetcars
 * @property {boolean} exchange
 * @property {boolean} pass
 * @property {boolean} done
 * @property {Set<number>} discard
 * @property {Set<number>} draw
 * @property {boolean} tradeOffer
 * @property {boolean} tradeAnswer
 * @property {boolean} tradeAccept
 */

/**
 * @param {Piece} piece
 * @param {number[]} cells
 */
function buildKey(piece, cells) {
  return `${piece}:${cellsText(cells)}`;
}

/**
 * The points a listed build would score now, as the server said (V1-V3).
 * @param {Legal} lg
 * @param {Piece} piece
 * @param {number[]} cells
 * @returns {number | undefined}
 */
export function buildPoints(lg, piece, cells) {
  return lg.points.get(buildKey(piece, cells));
}

/**
 * @param {any[] | null} moves
 * @returns {Legal}
 */
export function groupLegal(moves) {
  /** @type {Legal} */
  const g = {
    build: new Map(),
    points: new Map(),
    tiles: [],
    streetcars: [],
    exchange: false,
    pass: false,
    done: false,
    discard: new Set(),
    draw: new Set(),
    tradeOffer: false,
    tradeAnswer: false,
    tradeAccept: false,
  };
  for (const m of /** @type {Move[]} */ (moves ?? [])) {
    switch (m.type) {
      case 'build': {
        const list = g.build.get(m.piece) ?? [];
        list.push(m.cells);
        g.build.set(m.piece, list);
        if (m.points !== undefined) g.points.set(buildKey(m.piece, m.cells), m.points);
        break;
      }
      case 'place_neighborhood':
        g.tiles.push({ neighborhood: m.neighborhood, x: m.x, y: m.y, rotation: m.rotation });
        break;
      case 'streetcar':
        g.streetcars.push(m.segment);
        break;
      case 'exchange':
        g.exchange = true;
        break;
      case 'pass':
        g.pass = true;
        break;
      case 'done':
        g.done = true;
        break;
      case 'discard_useless':
        g.discard.add(m.card);
        break;
      case 'draw':
        g.draw.add(m.stack);
        break;
      case 'trade_offer':
        g.tradeOffer = true;
        break;
      case 'trade_answer':
        g.tradeAnswer = true;
        break;
      case 'trade_accept':
        g.tradeAccept = true;
        break;
      default:
        break;
    }
  }
  return g;
}
