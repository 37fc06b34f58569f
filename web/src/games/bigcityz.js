// Big Cityz in the browser: the game's board, words, option and running scores.

import { addStrings, t, joinNames } from '../i18n.js';
import { BIG_CITYZ_STRINGS } from './bigcityz/strings.js';
import { createBigCityzBoard } from './bigcityz/board.js';
import { boardNo, cityName, squareText, statementText, signed } from './bigcityz/words.js';

/**
 * @typedef {import('./bigcityz/types').Event} BigCityzEvent
 * @typedef {import('./bigcityz/types').Move} BigCityzMove
 * @typedef {import('./bigcityz/types').View} BigCityzView
 * @typedef {import('./index.js').SeatLook} SeatLook
 * @typedef {import('./index.js').GameUI} GameUI
 */

addStrings(BIG_CITYZ_STRINGS);

/**
 * @param {SeatLook[]} seats
 * @param {number} seat
 */
const nameOf = (seats, seat) => seats[seat]?.name ?? `#${seat + 1}`;

/** The range the rules crate accepts for `objection_ms` (`OBJECTION_MS`). */
export const OBJECTION_MS = { min: 1000, max: 120_000 };

/** @type {GameUI} */
export const bigCityz = {
  id: 'big-cityz',
  name: () => t('bcz.name'),
  blurb: () => t('bcz.blurb'),
  createBoard: createBigCityzBoard,
  optionFields: () => [{ key: 'objection_ms', kind: 'number', label: t('opt.big-cityz.objection_ms'), min: OBJECTION_MS.min, max: OBJECTION_MS.max, step: 1000 }],
  banner(view, mine, seats) {
    /** @type {BigCityzView} */
    const v = view;
    if (v?.phase?.type !== 'objections') return null;
    return mine ? t('bcz.banner.object') : t('bcz.banner.objections', { name: nameOf(seats, v.phase.seat) });
  },
  scores(view) {
    /** @type {BigCityzView} */
    const v = view;
    return Array.isArray(v?.scores) ? v.scores : null;
  },
  describeEvent(event, seats) {
    /** @type {BigCityzEvent} */
    const ev = event;
    const k = ev?.kind;
    if (!k) return null;
    switch (k.type) {
      case 'turn_started':
        return t('bcz.log.turn_started', { name: nameOf(seats, k.seat), city: cityName(k.city) });
      case 'deck_refilled':
        return t(`bcz.log.deck_refilled.${k.from}`, { n: k.count });
      case 'board_replaced':
        return t('bcz.log.board_replaced', { name: nameOf(seats, k.seat), n: boardNo(k.board), removed: statementText(k.removed), statement: statementText(k.statement), cards: k.cards.length });
      case 'statements_reshuffled':
        return t('bcz.log.statements_reshuffled', { n: k.count });
      case 'placed':
        return t('bcz.log.placed', { name: nameOf(seats, k.seat), square: squareText(k.square) });
      case 'declared_no_free_square':
      case 'objected':
      case 'declined':
      case 'final_round':
        return t(`bcz.log.${k.type}`, { name: nameOf(seats, k.seat) });
      case 'objections_timed_out':
        return t('bcz.log.objections_timed_out', { names: joinNames(k.seats.map((s) => nameOf(seats, s))) });
      case 'judged': {
        const j = k.judgment;
        const verdict = t(j.right ? 'bcz.judged.right' : 'bcz.judged.wrong', { name: nameOf(seats, j.seat), city: cityName(j.city) });
        const changes = j.changes.map((c) => `${nameOf(seats, c.seat)} ${signed(c.points)}`).join(', ');
        return t('bcz.log.judged', { verdict, changes });
      }
      case 'turn_timed_out':
        return t('bcz.log.turn_timed_out', { name: nameOf(seats, k.seat), city: cityName(k.city) });
      case 'game_over':
        return t('bcz.log.game_over', { reason: t(`bcz.reason.${k.reason}`).replace(/\.$/, ''), winners: joinNames(k.winners.map((s) => nameOf(seats, s))) });
      default:
        return null;
    }
  },
  describeMove(move, seat, seats) {
    /** @type {BigCityzMove} */
    const mv = move;
    const name = nameOf(seats, seat);
    if (mv.type === 'place') return t('bcz.mv.place', { name, square: squareText(mv.square) });
    if (mv.type === 'replace') return t('bcz.mv.replace', { name, n: boardNo(mv.board) });
    return t(`bcz.mv.${mv.type}`, { name });
  },
};
