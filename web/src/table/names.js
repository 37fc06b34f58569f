// How the table page names seats, bots and the game, from the table state.

import { t } from '../i18n.js';
import { gameUI, SEAT_COLORS } from '../games/index.js';

/**
 * @typedef {import('../wire').SeatInfo} SeatInfo
 * @typedef {import('../games/index.js').SeatLook} SeatLook
 * @typedef {import('./state.js').TableState} TableState
 */

/**
 * A bot as the table names it: its level and its seat ("Bot (strong) 2").
 * @param {string} level
 * @param {number} seat
 */
export function botName(level, seat) {
  return `${t('table.bot', { level: t(`bot.${level}`) })} ${seat + 1}`;
}

/**
 * A seat's name in a replay: the record keeps the server's names of bots
 * ("Bot (greedy)"); they read as the table calls them ("Bot (strong) 2").
 * @param {string} name
 * @param {number} seat
 */
export function replayName(name, seat) {
  const bot = /^Bot \((random|greedy)\)$/.exec(name);
  return bot ? botName(bot[1], seat) : name;
}

/** @param {SeatInfo} s */
export function seatName(s) {
  const o = s.occupant;
  if (o.kind === 'human') return o.name;
  if (o.kind === 'bot') return botName(o.level, s.seat);
  return t('table.empty_seat');
}

/** @param {number} seat */
export function seatColor(seat) {
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

/**
 * @param {TableState} state
 * @returns {SeatLook[]}
 */
export function seatLooks(state) {
  if (!state.table) return [];
  return state.table.seats.map((s) => ({ seat: s.seat, name: seatName(s), color: seatColor(s.seat) }));
}

/**
 * The name of the table's game, as its board module calls it.
 * @param {TableState} state
 */
export function gameName(state) {
  return state.table ? (gameUI(state.table.game)?.name() ?? state.table.game) : '';
}

/**
 * Runs `f`; a game module's failure is logged, not thrown into the page.
 * @template T
 * @param {() => T} f
 * @returns {T | null}
 */
export function safe(f) {
  try {
    return f();
  } catch (err) {
    console.error(err);
    return null;
  }
}
