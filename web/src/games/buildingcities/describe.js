// Building Cities' game log and replay captions: every event kind and every move
// said in the page's language from its typed fields.

import { t, joinNames } from '../../i18n.js';
import { buildingName, cardName, cardText, objectiveName, objectiveText } from './handbook.js';
import { blockText, goodsText, maya, signedMaya, num } from './words.js';

/**
 * @typedef {import('./types').Event} Event
 * @typedef {import('./types').Move} Move
 * @typedef {import('../index.js').SeatLook} SeatLook
 */

/**
 * @param {SeatLook[]} seats
 * @param {number} seat
 */
export const nameOf = (seats, seat) => seats[seat]?.name ?? `#${seat + 1}`;

/**
 * One event of the log; null for a bank change that its own line already says
 * (the price of a build).
 * @param {Event} event
 * @param {SeatLook[]} seats
 * @returns {string | null}
 */
export function describeEvent(event, seats) {
  const k = event?.kind;
  if (!k) return null;
  const name = 'seat' in k ? nameOf(seats, k.seat) : '';
  switch (k.kind) {
    case 'objective_drawn':
      return t('bci.log.objective_drawn', { objective: objectiveName(k.objective), text: objectiveText(k.objective) });
    case 'protected_layout':
      return t('bci.log.protected_layout', { face: k.face });
    case 'bank':
      if (k.reason === 'build') return null;
      return t('bci.log.bank', { name, amount: signedMaya(k.amount), reason: t(`bci.reason.${k.reason}`), bank: maya(k.bank) });
    case 'road':
      return t('bci.log.road', { name, block: blockText(k.block) });
    case 'built':
      return t('bci.log.built', { name, building: buildingName(k.building), block: blockText(k.origin) });
    case 'district_bought':
      return t('bci.log.district_bought', { name, district: k.district });
    case 'sea_bought':
      return t('bci.log.sea_bought', { name, sea: k.sea });
    case 'truck':
      return t('bci.log.truck', { name, district: k.district });
    case 'ship':
      return t('bci.log.ship', { name, sea: k.sea });
    case 'upgrade':
      return t(k.success ? 'bci.log.upgrade' : 'bci.log.upgrade_failed', { name, grid: t(`bci.grid.${k.grid}`), district: k.district, level: k.level, roll: k.roll });
    case 'turn_ended':
      return t(k.inactive ? 'bci.log.turn_ended_inactive' : 'bci.log.turn_ended', { name });
    case 'event_card':
      return t(k.applied ? 'bci.log.event_card' : 'bci.log.event_card_ignored', { name, card: cardName(k.card), text: cardText(k.card) });
    case 'challenge_card':
      return t(k.cancelled ? 'bci.log.challenge_cancelled' : 'bci.log.challenge_card', { name, card: cardName(k.card), text: cardText(k.card) });
    case 'challenge_kept':
      return t('bci.log.challenge_kept', { name, n: k.hand });
    case 'challenge_played':
      return t('bci.log.challenge_played', { name, target: nameOf(seats, k.target), card: cardName(k.card) });
    case 'task_force_kept':
      return t('bci.log.task_force_kept', { name });
    case 'destroyed':
      return t('bci.log.destroyed', { name, building: buildingName(k.building) });
    case 'goods':
      return t('bci.log.goods', { name, goods: goodsText(k.goods) });
    case 'trade_roll':
      return k.partner === null || k.partner === undefined
        ? t('bci.log.trade_roll_alone', { name, roll: k.roll })
        : t('bci.log.trade_roll', { name, roll: k.roll, partner: nameOf(seats, k.partner) });
    case 'legendary_offer':
      return t('bci.log.legendary_offer', { name, building: buildingName(k.building) });
    case 'legendary_returned':
      return t('bci.log.legendary_returned', { building: buildingName(k.building) });
    case 'auction_bid':
      return t('bci.log.auction_bid', { name, amount: maya(k.amount) });
    case 'auction_won':
      return t('bci.log.auction_won', { name, building: buildingName(k.building), price: maya(k.price) });
    case 'turn_marker':
      return t(k.factor > 1 ? 'bci.log.turn_marker_factor' : 'bci.log.turn_marker', { name, turn: num(k.turn), factor: k.factor });
    case 'loan_taken':
      return t('bci.log.loan_taken', { name, turn: k.due_turn });
    case 'loan_repaid':
      return t('bci.log.loan_repaid', { name });
    case 'must_buy_district':
      return t('bci.log.must_buy_district', { name });
    case 'demand_answered':
      return t(k.accepted ? 'bci.log.demand_accepted' : 'bci.log.demand_refused', { name });
    case 'frozen':
      return t('bci.log.frozen', { name, round: k.round });
    case 'out':
      return t('bci.log.out', { name, reason: t(`bci.end.${k.reason}`) });
    case 'game_over':
      return k.winners.length
        ? t('bci.log.game_over', { reason: t(`bci.end.${k.reason}`), names: joinNames(k.winners.map((s) => nameOf(seats, s))) })
        : t('bci.log.game_over_nobody', { reason: t(`bci.end.${k.reason}`) });
    default:
      return null;
  }
}

/**
 * A move, for the replay's caption.
 * @param {Move} mv
 * @param {number} seat
 * @param {SeatLook[]} seats
 */
export function describeMove(mv, seat, seats) {
  const name = nameOf(seats, seat);
  switch (mv.type) {
    case 'road':
      return t('bci.mv.road', { name, block: blockText(mv.block) });
    case 'tile':
      return t('bci.mv.tile', { name, building: buildingName(mv.building), block: blockText(mv.origin) });
    case 'buy_district':
    case 'truck':
      return t(`bci.mv.${mv.type}`, { name, district: mv.district });
    case 'buy_sea':
    case 'ship':
      return t(`bci.mv.${mv.type}`, { name, sea: mv.sea });
    case 'upgrade':
      return t('bci.mv.upgrade', { name, district: mv.district, grid: t(`bci.grid.${mv.grid}`) });
    case 'play_challenge':
      return t('bci.mv.play_challenge', { name, target: nameOf(seats, mv.target) });
    case 'bid':
      return t('bci.mv.bid', { name, amount: maya(mv.amount) });
    case 'trade_partner':
      return t('bci.mv.trade_partner', { name, partner: nameOf(seats, mv.seat) });
    default:
      return t(`bci.mv.${mv.type}`, { name });
  }
}
