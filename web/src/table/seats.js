// The seats panel (names, presence, scores, seat and host actions) and the
// invite links.

import { h, mount, toast } from '../dom.js';
import { t } from '../i18n.js';
import { gameUI } from '../games/index.js';
import { mySeat, isHost } from './state.js';
import { seatName, seatColor, safe } from './names.js';
import { formatDuration } from '../countdown.js';

/**
 * @typedef {import('../wire').BotLevel} BotLevel
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./context.js').TableCtx} TableCtx
 */

/**
 * @param {HTMLElement} el
 * @param {TableState} state
 * @param {TableCtx} ctx
 */
export function renderSeats(el, state, ctx) {
  const tbl = state.table;
  if (!tbl) {
    mount(el, h('h3', null, t('table.seats')), h('p', { class: 'muted' }, t('table.connecting')));
    return;
  }
  const game = state.game;
  const ui = gameUI(tbl.game);
  const scores = game ? (game.outcome?.scores ?? safe(() => ui?.scores?.(game.view)) ?? null) : null;
  const awaiting = game && !game.outcome ? game.awaiting.seats : [];
  // At a table with a time bank: each player's reserve, as the period began.
  const banks = game && !game.outcome ? game.awaiting.banks_ms : undefined;
  const me = mySeat(state);
  const host = isHost(state);
  const lobby = tbl.status === 'lobby';
  /** @param {import('../wire').ClientMsg} msg */
  const send = (msg) => ctx.dispatch({ type: 'send', msg });
  mount(
    el,
    h('h3', null, t('table.seats'), tbl.spectators ? h('span', { class: 'muted small', id: 'spectator-count' }, ` · ${t('table.spectators', { n: tbl.spectators })}`) : null),
    h(
      'ul',
      { class: 'seat-list' },
      tbl.seats.map((s) => {
        const o = s.occupant;
        const empty = o.kind === 'empty';
        const online = o.kind === 'bot' || (o.kind === 'human' && o.connected);
        /** @type {(HTMLElement | null)[]} */
        const actions = [];
        if (lobby && empty && me === undefined && state.you && !state.spectatorLink) {
          actions.push(h('button', { class: 'small primary', 'data-action': 'take-seat', onclick: () => send({ type: 'take_seat', seat: s.seat }) }, t('table.take_seat')));
        }
        if (lobby && host && empty) actions.push(botAdder(s.seat, send));
        if (lobby && host && !empty && s.seat !== me) {
          actions.push(h('button', { class: 'small danger', 'data-action': 'kick', onclick: () => send({ type: 'kick', seat: s.seat }) }, t('table.kick')));
        }
        if (lobby && s.seat === me && !host) {
          actions.push(h('button', { class: 'small', 'data-action': 'leave-seat', onclick: () => send({ type: 'leave_seat' }) }, t('table.leave_seat')));
        }
        if (!lobby && tbl.status === 'playing' && host && o.kind === 'human' && o.away && s.seat !== me) actions.push(botAdder(s.seat, send));
        // A bot stands in for this page's player: he takes his seat back.
        if (tbl.status === 'playing' && s.seat === me && o.kind === 'human' && o.away && tbl.settings.stand_in) {
          actions.push(h('button', { class: 'small primary', 'data-action': 'back', onclick: () => send({ type: 'back' }) }, t('table.back')));
        }
        return h(
          'li',
          {
            class: { seat: true, empty, turn: awaiting.includes(s.seat), me: s.seat === me, winner: game?.outcome?.winners.includes(s.seat) },
            'data-seat': s.seat,
            style: { '--seat': seatColor(s.seat) },
          },
          h('span', { class: 'swatch', 'aria-hidden': 'true' }),
          h(
            'span',
            { class: 'seat-name' },
            h('span', { class: 'name' }, seatName(s)),
            s.seat === me ? h('span', { class: 'badge' }, t('table.you')) : null,
            tbl.host_seat === s.seat ? h('span', { class: 'badge host' }, '★ ', t('table.host')) : null,
            o.kind === 'human' && o.away
              ? tbl.settings.stand_in && tbl.status === 'playing'
                ? h('span', { class: 'badge stand-in' }, t('table.stand_in_badge'))
                : h('span', { class: 'badge away' }, t('table.away'))
              : null,
            o.kind === 'human' && !o.connected ? goneBadge(o.gone_ms) : null,
            banks?.[s.seat] !== undefined ? h('span', { class: 'badge bank', 'data-bank-ms': String(banks[s.seat]) }, t('table.bank', { time: formatDuration(banks[s.seat]) })) : null,
          ),
          !empty ? h('span', { class: { presence: true, online }, title: online ? t('table.online') : t('table.offline'), 'aria-label': online ? t('table.online') : t('table.offline') }) : null,
          scores && scores[s.seat] !== undefined ? h('span', { class: 'score', 'data-score': scores[s.seat] }, ui?.scoreText ? ui.scoreText(scores[s.seat]) : t('table.points', { n: scores[s.seat] })) : null,
          actions.length ? h('span', { class: 'seat-actions' }, actions) : null,
        );
      }),
    ),
  );
}

/**
 * Keeps the "disconnected for" badges current.
 * @param {HTMLElement} el the seats panel
 */
export function tickSeats(el) {
  for (const badge of /** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll('.badge.gone'))) {
    const text = goneText(badge);
    if (badge.textContent !== text) badge.textContent = text;
  }
}

/**
 * "Disconnected · 3 min": the badge keeps the moment he left and the tick
 * keeps its text current.
 * @param {number | undefined} goneMs how long ago, when the table was sent
 */
function goneBadge(goneMs) {
  const badge = h('span', { class: 'badge gone', 'data-gone-at': goneMs === undefined ? '' : String(Date.now() - goneMs) });
  badge.textContent = goneText(badge);
  return badge;
}

/** @param {HTMLElement} badge */
function goneText(badge) {
  const at = Number(badge.dataset.goneAt);
  if (!badge.dataset.goneAt || !Number.isFinite(at)) return t('table.gone');
  const minutes = Math.floor((Date.now() - at) / 60_000);
  return minutes < 1 ? t('table.gone_now') : t('table.gone_for', { n: minutes });
}

/**
 * @param {number} seat
 * @param {(msg: import('../wire').ClientMsg) => void} send
 */
function botAdder(seat, send) {
  const select = /** @type {HTMLSelectElement} */ (
    h('select', { class: 'small', 'aria-label': t('table.add_bot') }, h('option', { value: 'greedy' }, t('bot.greedy')), h('option', { value: 'random' }, t('bot.random')))
  );
  return h(
    'span',
    { class: 'bot-adder' },
    select,
    h('button', { class: 'small', 'data-action': 'add-bot', onclick: () => send({ type: 'add_bot', seat, level: /** @type {BotLevel} */ (select.value) }) }, t('table.add_bot')),
  );
}

/**
 * The invite and spectator links, until the game is over.
 * @param {HTMLElement} el
 * @param {TableState} state
 */
export function renderInvite(el, state) {
  const table = state.table;
  if (!table || (!table.invite_code && !table.spectator_code) || table.status === 'finished') {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  mount(
    el,
    h('h3', null, t('table.invite')),
    table.invite_code ? linkRow('invite', t('table.copy_invite'), table.invite_code) : null,
    table.spectator_code && table.settings.spectators_allowed ? linkRow('spectate', t('table.copy_spectate'), table.spectator_code) : null,
  );
}

/**
 * @param {string} id
 * @param {string} label
 * @param {string} linkCode
 */
function linkRow(id, label, linkCode) {
  const url = `${location.origin}/t/${linkCode}`;
  const input = /** @type {HTMLInputElement} */ (h('input', { id: `${id}-url`, readonly: true, value: url, onclick: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() }));
  return h(
    'div',
    { class: 'link-row' },
    input,
    h(
      'button',
      {
        class: 'small',
        id: `${id}-copy`,
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
          } catch {
            input.select();
            document.execCommand('copy');
          }
          toast(t('table.copied'), 'info');
        },
      },
      label,
    ),
  );
}
