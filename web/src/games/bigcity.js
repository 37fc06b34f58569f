// Big City in the browser: registers the game's board, words and options.

import { addStrings, t, joinNames } from '../i18n.js';
import { registerGame } from './index.js';
import { BIG_CITY_STRINGS } from './bigcity/strings.js';
import { createBigCityBoard } from './bigcity/board.js';
import { cellsText } from './bigcity/art.js';

/**
 * @typedef {import('./bigcity/types').Event} BigCityEvent
 * @typedef {import('./bigcity/types').Move} BigCityMove
 * @typedef {import('./index.js').SeatLook} SeatLook
 */

addStrings(BIG_CITY_STRINGS);

/**
 * @param {SeatLook[]} seats
 * @param {number} seat
 */
const nameOf = (seats, seat) => seats[seat]?.name ?? `#${seat + 1}`;

registerGame({
  id: 'big-city',
  name: () => t('bc.name'),
  blurb: () => t('bc.blurb'),
  createBoard: createBigCityBoard,
  replaySeats: true,
  optionFields(options) {
    return ['single_streetcar_line', 'limited_streetcar_line', 'limited_card_drawing', 'useless_must_be_exchanged', 'trade_cards']
      .filter((key) => key in (options ?? {}))
      .map((key) => ({ key, kind: 'bool', label: t(`opt.big-city.${key}`) }));
  },
  scores(view) {
    return Array.isArray(view?.scores) ? view.scores : null;
  },
  describeEvent(event, seats) {
    /** @type {BigCityEvent} */
    const ev = event;
    const k = ev.kind;
    if (!k) return null;
    switch (k.type) {
      case 'turn_started':
        return null;
      case 'neighborhood_placed':
        return t('ev.neighborhood_placed', { name: nameOf(seats, k.seat), n: k.neighborhood });
      case 'built': {
        const params = { name: nameOf(seats, k.seat), piece: t(`art.${k.piece}`), cells: cellsText(k.cells), points: k.points };
        const zero = ['city_hall', 'lincoln_park', 'central_park', 'stanford_corporation', 'rockwell_industries'].includes(k.piece);
        return t(zero ? 'ev.built_zero' : k.points === 1 ? 'ev.built_one' : 'ev.built', params);
      }
      case 'streetcar_placed':
        return t('ev.streetcar_placed', { name: nameOf(seats, k.seat) });
      case 'useless_discarded':
        return t('ev.useless_discarded', { name: nameOf(seats, k.seat), card: k.card });
      case 'exchanged':
        return t('ev.exchanged', { name: nameOf(seats, k.seat), n: k.stacks.length, stacks: k.stacks.join(', ') });
      case 'drew':
        return t('ev.drew', { name: nameOf(seats, k.seat), stack: k.stack });
      case 'draws_skipped':
        return t('ev.draws_skipped', { name: nameOf(seats, k.seat), n: k.count });
      case 'passed':
        return t('ev.passed', { name: nameOf(seats, k.seat) });
      case 'timed_out':
        return t('ev.timed_out', { name: nameOf(seats, k.seat) });
      case 'trade_offered':
        return k.wanted.length
          ? t('ev.trade_offered_wanting', { name: nameOf(seats, k.seat), hoods: joinNames(k.neighborhoods.map(String)), wanted: joinNames(k.wanted.map(String)) })
          : t('ev.trade_offered', { name: nameOf(seats, k.seat), hoods: joinNames(k.neighborhoods.map(String)) });
      case 'trade_answered':
        return t('ev.trade_answered', { name: nameOf(seats, k.seat) });
      case 'trade_answers_revealed':
        return t('ev.trade_answers_revealed');
      case 'traded':
        return t('ev.traded', { from: nameOf(seats, k.from), to: nameOf(seats, k.to), given: k.given, received: k.received });
      case 'trade_failed':
        return t('ev.trade_failed', { name: nameOf(seats, k.seat) });
      case 'game_over':
        return t(`ev.game_over.${k.reason}`);
      default:
        return null;
    }
  },
  describeMove(move, seat, seats) {
    /** @type {BigCityMove} */
    const mv = move;
    const name = nameOf(seats, seat);
    switch (mv.type) {
      case 'place_neighborhood':
        return t('mv.place_neighborhood', { name, n: mv.neighborhood });
      case 'build':
        return t('mv.build', { name, piece: t(`art.${mv.piece}`), cells: cellsText(mv.cells) });
      case 'exchange':
        return t('mv.exchange', { name, n: mv.cards.length });
      case 'discard_useless':
        return t('mv.discard_useless', { name, card: mv.card });
      case 'draw':
        return t('mv.draw', { name, stack: mv.stack });
      default:
        return t(`mv.${mv.type}`, { name });
    }
  },
});
