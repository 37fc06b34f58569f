// Tic-tac-toe: the server's reference game. A 3×3 grid; click a free cell.

import { h, s } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('./index.js').GameUI} GameUI */
/** @typedef {import('./index.js').BoardState} BoardState */
/** @typedef {import('../wire').TicTacToeView} TicTacToeView */

const MARKS = ['X', 'O'];

/** @type {GameUI} */
export const ticTacToe = {
  id: 'tic-tac-toe',
  name: () => t('ttt.name'),
  blurb: () => t('ttt.hint'),
  createBoard(ctx) {
    const el = h('div', { class: 'ttt' });
    /** @type {BoardState | null} */
    let last = null;
    return {
      el,
      render(state) {
        last = state;
        /** @type {TicTacToeView} */
        const view = state.view;
        const mine = state.mySeat !== undefined && state.awaiting.seats.includes(state.mySeat);
        if (mine && !state.replay && (!state.legal || state.legal.version !== state.version)) ctx.askLegal();
        const legal = new Set(
          state.legal && state.legal.version === state.version ? state.legal.moves.map((m) => m.cell) : [],
        );
        const winLine = view.winner !== null && view.winner !== undefined ? winningLine(view.cells) : null;
        const grid = h(
          'div',
          { class: 'ttt-grid', role: 'grid' },
          view.cells.map((owner, cell) => {
            const free = owner === null || owner === undefined;
            const color = free ? '' : (state.seats[owner]?.color ?? '#333');
            return h(
              'button',
              {
                class: { 'ttt-cell': true, legal: mine && legal.has(cell), win: winLine?.includes(cell) },
                'data-cell': cell,
                'data-owner': free ? '' : owner,
                'aria-label': free ? `cell ${cell + 1}` : `cell ${cell + 1}: ${MARKS[owner]}`,
                disabled: state.replay || state.mySeat === undefined,
                onclick: () => {
                  if (!last || last.replay) return;
                  ctx.send({ cell });
                },
              },
              free ? null : mark(owner, color),
            );
          }),
        );
        el.replaceChildren(grid, h('p', { class: 'hint' }, t('ttt.hint')));
      },
    };
  },
  describeEvent(event, seats) {
    return `${seats[event.seat]?.name ?? '?'} → ${MARKS[event.seat] ?? '?'} ${cellName(event.cell)}`;
  },
  describeMove(mv, seat, seats) {
    return `${seats[seat]?.name ?? '?'} → ${MARKS[seat] ?? '?'} ${cellName(mv.cell)}`;
  },
};

/** @param {number} cell */
function cellName(cell) {
  return `${'ABC'[cell % 3]}${Math.floor(cell / 3) + 1}`;
}

/**
 * @param {number} owner
 * @param {string} color
 */
function mark(owner, color) {
  if (owner === 0) {
    return s(
      'svg',
      { viewBox: '0 0 10 10', class: 'mark', 'aria-hidden': 'true' },
      s('path', { d: 'M2 2 L8 8 M8 2 L2 8', stroke: color, 'stroke-width': 1.4, 'stroke-linecap': 'round' }),
    );
  }
  return s(
    'svg',
    { viewBox: '0 0 10 10', class: 'mark', 'aria-hidden': 'true' },
    s('circle', { cx: 5, cy: 5, r: 3.1, fill: 'none', stroke: color, 'stroke-width': 1.4 }),
  );
}

/** @param {(number | null)[]} cells */
function winningLine(cells) {
  const lines = [
    [0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6],
  ];
  return lines.find((l) => cells[l[0]] !== null && cells[l[0]] !== undefined && l.every((i) => cells[i] === cells[l[0]])) ?? null;
}
