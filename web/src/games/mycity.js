// My City in the browser: the game's board, words and running scores.

import { addStrings, t, joinNames } from '../i18n.js';
import { MY_CITY_STRINGS } from './mycity/strings.js';
import { createMyCityBoard, cardText, cellName } from './mycity/board.js';

/**
 * @typedef {import('./mycity/types').Event} MyCityEvent
 * @typedef {import('./mycity/types').Move} MyCityMove
 * @typedef {import('./mycity/types').View} MyCityView
 * @typedef {import('./index.js').SeatLook} SeatLook
 * @typedef {import('./index.js').GameUI} GameUI
 */

addStrings(MY_CITY_STRINGS);

/**
 * @param {SeatLook[]} seats
 * @param {number} seat
 */
const nameOf = (seats, seat) => seats[seat]?.name ?? `#${seat + 1}`;

/** @type {GameUI} */
export const myCity = {
  id: 'my-city',
  name: () => t('mc.name'),
  blurb: () => t('mc.blurb'),
  createBoard: createMyCityBoard,
  optionFields: () => [],
  scores(view) {
    /** @type {MyCityView} */
    const v = view;
    if (!Array.isArray(v?.players)) return null;
    const scores = [];
    for (const p of v.players) scores[p.seat] = (v.final_scores?.[p.seat] ?? p.score).total;
    return scores;
  },
  describeEvent(event, seats) {
    /** @type {MyCityEvent} */
    const ev = event;
    switch (ev.type) {
      case 'card_revealed':
        return t('mc.ev.card_revealed', { round: ev.round, card: cardText(ev.card), deck: ev.deck_count });
      case 'card_blocked':
        return t('mc.ev.card_blocked', { card: cardText(ev.card) });
      case 'decided':
        return t('mc.ev.decided', { name: nameOf(seats, ev.seat) });
      case 'decisions_revealed': {
        const list = ev.decisions.map((d) => {
          const name = nameOf(seats, d.seat);
          const text =
            d.action === 'place' && d.placement
              ? t('mc.ev.placed', { name, cell: cellName(d.placement.cells[0] ?? d.placement) })
              : d.action === 'pass'
                ? t('mc.ev.passed', { name })
                : t('mc.ev.ended', { name });
          return d.timed_out ? text + t('mc.ev.timed_out') : text;
        });
        return t('mc.ev.revealed', { round: ev.round, list: list.join('; ') });
      }
      case 'gold_bonus':
        return t('mc.ev.gold', { names: joinNames(ev.seats.map((s) => nameOf(seats, s))), points: ev.points });
      case 'game_over':
        return t('mc.ev.game_over', { reason: t(`mc.reason.${ev.reason}`) });
      default:
        return null;
    }
  },
  describeMove(move, seat, seats) {
    /** @type {MyCityMove} */
    const mv = move;
    const name = nameOf(seats, seat);
    if (mv.type === 'place') return t('mc.mv.place', { name, cell: cellName(mv) });
    return t(`mc.mv.${mv.type}`, { name });
  },
};
