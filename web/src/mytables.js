// "My tables": every table this browser holds a seat at (from the seat tokens it
// keeps), the ones waiting for this player first with the time he has left.
// Asked again every 30 s; the clocks count down in between.

import { h, mount } from './dom.js';
import { t, joinNames } from './i18n.js';
import * as api from './api.js';
import { errText } from './messages.js';
import { keptSeats } from './store.js';
import { gameUI } from './games/index.js';
import { formatDuration } from './countdown.js';

/** @typedef {import('./wire').MyTable} MyTable */

/** How many kept seats are asked about (the server's `MAX_KEPT_SEATS`). */
const MAX_ASKED = 20;
const REFRESH_MS = 30_000;

/**
 * @param {MyTable} table
 * @returns {boolean}
 */
export function isMyTurn(table) {
  return table.status === 'playing' && table.awaiting.includes(table.seat);
}

/**
 * Waiting for me first (least time left first), then games others are
 * playing, then lobbies, then finished games; the latest changed first within each.
 * @param {MyTable[]} tables
 * @returns {MyTable[]}
 */
export function sortTables(tables) {
  const rank = (/** @type {MyTable} */ x) => (isMyTurn(x) ? 0 : x.status === 'playing' ? 1 : x.status === 'lobby' ? 2 : 3);
  return [...tables].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    if (rank(a) === 0) {
      const left = (a.time_left_ms ?? Infinity) - (b.time_left_ms ?? Infinity);
      if (left !== 0 && !Number.isNaN(left)) return left;
    }
    return b.changed_ms - a.changed_ms;
  });
}

/**
 * @param {HTMLElement} root
 * @param {(path: string) => void} go
 * @returns {() => void} cleanup
 */
export function showMyTables(root, go) {
  document.title = `${t('mine.title')} · CityTable`;
  const status = h('p', { class: 'muted', id: 'my-tables-status' }, t('mine.loading'));
  const list = h('ul', { class: 'my-tables', id: 'my-tables-list' });
  mount(
    root,
    h(
      'div',
      { class: 'home' },
      h('section', { class: 'card my-tables-card', id: 'my-tables' }, h('h2', null, t('mine.title')), status, list, h('button', { class: 'link', id: 'my-tables-home', onclick: () => go('/') }, '← ', t('table.home'))),
    ),
  );

  /** @type {MyTable[]} */
  let tables = [];
  let askedAt = performance.now();

  async function load() {
    const kept = keptSeats(MAX_ASKED);
    if (kept.length === 0) {
      status.textContent = t('mine.none');
      return;
    }
    try {
      const answer = await api.myTables(kept);
      tables = sortTables(answer.tables);
      askedAt = performance.now();
      status.textContent = tables.length ? '' : t('mine.none');
      render();
    } catch (err) {
      status.textContent = errText(err);
    }
  }

  function render() {
    const elapsed = performance.now() - askedAt;
    mount(list, ...tables.map((table) => row(table, elapsed)));
  }

  /**
   * @param {MyTable} table
   * @param {number} elapsed ms since the answer
   */
  function row(table, elapsed) {
    const mine = isMyTurn(table);
    const name = gameUI(table.game)?.name() ?? table.game;
    const company = [...table.others, ...(table.bots === 1 ? [t('mine.bot')] : table.bots > 1 ? [t('mine.bots', { n: table.bots })] : [])];
    let state;
    if (table.status === 'finished') state = t('mine.finished');
    else if (table.status === 'lobby') state = t('mine.lobby');
    else if (mine) state = t('mine.your_turn');
    else state = t('mine.their_turn');
    const left = table.status === 'playing' && table.time_left_ms !== undefined && table.time_left_ms !== null ? table.time_left_ms - elapsed : null;
    const open = `/t/${encodeURIComponent(table.code)}`;
    return h(
      'li',
      { class: { 'my-table': true, mine }, 'data-code': table.code, 'data-status': table.status, 'data-your-turn': mine ? 'yes' : 'no' },
      h(
        'a',
        {
          href: open,
          onclick: (/** @type {MouseEvent} */ e) => {
            e.preventDefault();
            go(open);
          },
        },
        h('span', null, h('strong', null, name), company.length ? h('span', { class: 'muted' }, ' ', t('mine.with', { names: joinNames(company) })) : null),
        h('span', { class: 'my-table-state' }, state, left === null ? null : h('span', { class: 'my-table-left', 'data-left-ms': String(Math.max(0, Math.round(left))) }, ' · ', t('mine.left', { time: formatDuration(left) }))),
      ),
    );
  }

  load();
  const poll = setInterval(load, REFRESH_MS);
  const tick = setInterval(() => tables.length && render(), 1000);
  return () => {
    clearInterval(poll);
    clearInterval(tick);
  };
}
