// The table's top bar: the game's name and status, whose turn it is, the turn
// timer and the connection.

import { h, mount } from '../dom.js';
import { t, joinNames } from '../i18n.js';
import { gameUI } from '../games/index.js';
import { mySeat, myTurn } from './state.js';
import { gameName, seatLooks } from './names.js';
import { formatDuration } from '../countdown.js';

/**
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./context.js').TableCtx} TableCtx
 */

/**
 * @param {HTMLElement} el
 * @param {TableState} state
 * @param {TableCtx} ctx
 */
export function renderTitle(el, state, ctx) {
  const table = state.table;
  if (!table) {
    mount(el, h('button', { class: 'link home-link', onclick: () => ctx.go('/') }, '← ', t('table.home')));
    return;
  }
  const ui = gameUI(table.game);
  mount(
    el,
    h('button', { class: 'link home-link', onclick: () => ctx.go('/'), title: t('table.home') }, '←'),
    h('span', { class: 'game-name' }, ui?.name() ?? table.game),
    h('span', { class: `status-chip ${table.status}`, id: 'table-status', 'data-status': table.status }, t(`status.${table.status}`)),
    mySeat(state) === undefined && table.status !== 'lobby' ? h('span', { class: 'status-chip spectator', id: 'spectator-badge' }, t('table.spectator_badge')) : null,
  );
}

/**
 * Whose turn it is, in the bar and in the tab's title.
 * @param {HTMLElement} el
 * @param {TableState} state
 * @param {{update: (mine: boolean) => void}} cue
 */
export function renderBanner(el, state, cue) {
  const name = gameName(state);
  const mine = myTurn(state);
  cue.update(mine);
  // The tab title tells a player in another tab that the table waits for him.
  document.title = mine ? `● ${t('table.your_turn')} · ${name}` : name ? `${name} · CityTable` : 'CityTable';
  const game = state.game;
  if (!state.table || !game) {
    el.textContent = '';
    el.className = 'turn-banner';
    return;
  }
  if (game.outcome) {
    el.className = 'turn-banner over';
    el.textContent = t('table.game_over');
    return;
  }
  const looks = seatLooks(state);
  const said = gameUI(state.table.game)?.banner?.(game.view, mine, looks);
  if (said) {
    el.className = mine ? 'turn-banner mine' : 'turn-banner';
    el.textContent = said;
    return;
  }
  if (mine) {
    el.className = 'turn-banner mine';
    el.textContent = t('table.your_turn');
    return;
  }
  const seats = game.awaiting.seats;
  el.className = 'turn-banner';
  const names = seats.map((s) => looks[s]?.name ?? '?');
  el.textContent = seats.length === 1 ? t('table.turn_of', { name: names[0] }) : t('table.turns_of', { names: joinNames(names) });
  const color = seats.length === 1 ? looks[seats[0]]?.color : undefined;
  if (color) el.style.setProperty('--seat', color);
}

/**
 * The time left to decide, counted from when the decision arrived; a cue when
 * this player's runs low.
 * @param {HTMLElement} el
 * @param {TableState} state
 * @param {number} now the page's clock (performance.now())
 * @param {{clock: (left: number, total: number, deadline: number) => void}} cue
 */
export function renderTimer(el, state, now, cue) {
  const game = state.game;
  if (!game || game.outcome || game.awaiting.timer_ms === undefined || game.awaiting.timer_ms === null) {
    el.textContent = '';
    el.className = 'timer';
    return;
  }
  const left = Math.max(0, game.awaiting.timer_ms - (now - game.awaitingAt));
  if (myTurn(state)) cue.clock(left, game.awaiting.timer_ms, game.awaitingAt + game.awaiting.timer_ms);
  el.textContent = `◷ ${formatDuration(left)}`;
  el.className = left <= 10_000 ? 'timer urgent' : 'timer';
  el.title = t('table.timer');
}

/**
 * @param {HTMLElement} el
 * @param {TableState} state
 */
export function renderConn(el, state) {
  if (state.badLink) {
    el.textContent = '';
    return;
  }
  const conn = state.conn;
  el.dataset.state = conn;
  el.textContent = conn === 'open' ? t('table.connected') : conn === 'lost' ? t('table.reconnecting') : t('table.connecting');
  document.body.dataset.conn = conn;
}
