// After the game: the result card (winners, final scores, replay, play again),
// and the game log beside the board.

import { h, mount } from '../dom.js';
import { t, joinNames } from '../i18n.js';
import { isHost } from './state.js';
import { seatLooks } from './names.js';
import { gameUI } from '../games/index.js';

/**
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./context.js').TableCtx} TableCtx
 */

/**
 * @param {Element} slot
 * @param {TableState} state
 * @param {TableCtx} ctx
 */
export function renderResult(slot, state, ctx) {
  const outcome = state.game?.outcome;
  if (!outcome) {
    slot.replaceChildren();
    return;
  }
  // The result comes into view when it appears, wherever the page was scrolled.
  const appearing = !slot.firstElementChild;
  const looks = seatLooks(state);
  const winners = outcome.winners.map((w) => looks[w]?.name ?? '?');
  const ranking = outcome.scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score);
  const host = isHost(state);
  const ui = state.table ? gameUI(state.table.game) : undefined;
  /** @param {import('../wire').ClientMsg} msg */
  const send = (msg) => ctx.dispatch({ type: 'send', msg });
  mount(
    slot,
    h(
      'div',
      { class: 'card result', id: 'game-result' },
      h('h2', null, winners.length === 0 ? t('table.no_winner') : winners.length === 1 ? t('table.winner', { names: winners[0] }) : t('table.winners', { names: joinNames(winners) })),
      h('h3', null, t('table.final_scores')),
      h(
        'ol',
        { class: 'final-scores' },
        ranking.map((r) =>
          h(
            'li',
            { style: { '--seat': looks[r.seat]?.color ?? '#888' }, class: { winner: outcome.winners.includes(r.seat) } },
            h('span', { class: 'swatch' }),
            h('span', { class: 'name' }, looks[r.seat]?.name ?? '?'),
            h('span', { class: 'score' }, ui?.scoreText ? ui.scoreText(r.score) : t('table.points', { n: r.score })),
          ),
        ),
      ),
      h(
        'div',
        { class: 'row' },
        h('button', { id: 'replay-button', onclick: () => ctx.openReplay() }, '▶ ', t('table.replay')),
        host
          ? h('button', { class: 'primary', id: 'play-again', onclick: () => send({ type: 'play_again' }) }, t('table.play_again'))
          : h('span', { class: 'muted small' }, t('table.waiting_again')),
        host ? h('button', { id: 'back-to-lobby', onclick: () => send({ type: 'back_to_lobby' }) }, t('table.back_to_lobby')) : null,
      ),
    ),
  );
  if (appearing) slot.querySelector('#game-result')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
}

/**
 * The game log: newest first, hidden in the lobby.
 * @param {HTMLElement} el
 * @param {TableState} state
 */
export function renderLog(el, state) {
  if (!state.table || state.table.status === 'lobby') {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const lines = state.log.lines;
  mount(
    el,
    h('h3', null, t('table.log')),
    lines.length === 0
      ? h('p', { class: 'muted small' }, state.game && state.game.version > 0 ? t('table.log_from_now') : t('table.no_log'))
      : h('ol', { class: 'log-lines', id: 'log-lines', reversed: true }, lines.slice(0, 100).map((l) => h('li', null, l.text))),
  );
}
