// The building phase's moves other than tiles and roads, from the seat's legal
// moves: buy a district or a sea area, trucks, cargo ships, grid upgrades, repay
// the loan; the conditions of the next district; and the end of the turn, with
// why it must wait (B7). Stable selectors: `[data-action]` with `data-district`,
// `data-sea` or `data-grid`, `#bci-repay`, `#bci-end-turn`.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { building, handbookNow } from './handbook.js';
import { DISTRICTS, nextDistrict, price, tilesBuilt } from './geometry.js';
import { maya } from './words.js';
import { ofType } from './legal.js';

/**
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').PlayerView} PlayerView
 * @typedef {import('./types').Variant} Variant
 *
 * @typedef {object} ActionsLook
 * @property {PlayerView} player
 * @property {Move[] | null} moves the seat's legal moves but tiles (null: on their way)
 * @property {Variant | undefined} variant
 * @property {(mv: Move) => void} send
 */

/** @param {ActionsLook} a */
export function actions(a) {
  const eco = handbookNow()?.raw.economy;
  const moves = a.moves ?? [];
  const p = a.player;
  const owned = p.city.districts.length;
  const next = eco ? nextDistrict(eco, a.variant, owned) : null;
  const cost = (/** @type {string} */ id) => price(building(id)?.cost ?? 0, a.variant, owned);
  const movesOf = (/** @type {string} */ id) => building(id)?.moves ?? 0;
  /** @type {HTMLElement[]} */
  const buttons = [];
  /**
   * @param {Move} mv
   * @param {string} label
   * @param {Record<string, string>} data
   */
  const button = (mv, label, data) => buttons.push(h('button', { type: 'button', 'data-action': mv.type, ...data, onclick: () => a.send(mv) }, label));
  for (const mv of ofType(moves, 'buy_district')) button(mv, t('bci.act.buy_district', { district: mv.district, price: maya(next?.price ?? 0) }), { 'data-district': mv.district });
  for (const mv of ofType(moves, 'buy_sea')) button(mv, t('bci.act.buy_sea', { sea: mv.sea, price: maya(next?.price ?? 0) }), { 'data-sea': mv.sea });
  for (const mv of ofType(moves, 'truck')) button(mv, t('bci.act.truck', { district: mv.district, price: maya(cost('truck')), n: movesOf('truck') }), { 'data-district': mv.district });
  for (const mv of ofType(moves, 'ship')) button(mv, t('bci.act.ship', { sea: mv.sea, price: maya(cost('cargo_ship')), n: movesOf('cargo_ship') }), { 'data-sea': mv.sea });
  // Grid upgrades (E8): one row per district, a button per grid.
  const upgrades = ofType(moves, 'upgrade');
  const rows = DISTRICTS.filter((d) => upgrades.some((m) => m.district === d)).map((d) => {
    const levels = p.grid_levels[DISTRICTS.indexOf(d)] ?? [1, 1];
    return h(
      'li',
      { 'data-district': d },
      h('strong', null, d),
      upgrades
        .filter((m) => m.district === d)
        .map((mv) => {
          const level = (mv.grid === 'power' ? levels[0] : levels[1]) + 1;
          const up = eco?.upgrades.find((u) => u.level === level);
          const label = t('bci.act.upgrade_to', { grid: t(`bci.grid.${mv.grid}`), level });
          const title = up ? t('bci.act.upgrade', { grid: t(`bci.grid.${mv.grid}`), district: d, level, price: maya(price(up.cost, a.variant, owned)), n: up.moves, from: up.success_from }) : label;
          return h('button', { type: 'button', class: 'small', 'data-action': 'upgrade', 'data-district': d, 'data-grid': mv.grid, title, onclick: () => a.send(mv) }, label);
        }),
    );
  });
  const costs = [2, 3]
    .map((level) => eco?.upgrades.find((u) => u.level === level))
    .filter((u) => u !== undefined)
    .map((u) => t('bci.act.upgrade_cost', { level: u.level, price: maya(price(u.cost, a.variant, owned)), n: u.moves, from: u.success_from }));
  const repay = ofType(moves, 'repay_loan')[0];
  return h(
    'section',
    { class: 'bci-actions', id: 'bci-actions' },
    h('h3', null, t('bci.act.title')),
    a.moves === null ? h('p', { class: 'muted small' }, '…') : null,
    buttons.length ? h('div', { class: 'bci-buttons' }, buttons) : null,
    rows.length ? h('div', { class: 'bci-upgrades' }, h('p', { class: 'small' }, t('bci.act.upgrades'), ' ', h('span', { class: 'muted' }, costs.join(' · '))), h('ul', null, rows)) : null,
    a.moves && !buttons.length && !rows.length ? h('p', { class: 'muted small' }, t('bci.act.none')) : null,
    repay ? h('button', { type: 'button', id: 'bci-repay', 'data-action': 'repay_loan', onclick: () => a.send(repay) }, t('bci.act.repay', { amount: maya(eco?.loan.repay ?? 0) })) : null,
    next && owned < (eco?.land_districts ?? 6)
      ? h('p', { class: 'small muted', id: 'bci-next-district' }, t('bci.act.next_district', { nth: next.nth, bank: maya(next.bank_more_than), tiles: next.tiles_more_than, price: maya(next.price), have_bank: maya(p.bank), have_tiles: tilesBuilt(p.city) }))
      : null,
  );
}

/**
 * The end-of-turn button: enabled when the seat may end its phase; otherwise it
 * says what the rules ask first (B7).
 * @param {PlayerView} player
 * @param {Move[] | null} moves
 * @param {(mv: Move) => void} send
 */
export function endTurnButton(player, moves, send) {
  const end = moves ? ofType(moves, 'end_turn')[0] : undefined;
  const eco = handbookNow()?.raw.economy;
  const min = eco?.min_spend_per_turn ?? 50;
  const why = moves && !end ? (player.spent < min ? t('bci.act.must_spend', { spent: maya(player.spent), min: maya(min) }) : t('bci.act.must_build')) : null;
  return h(
    'span',
    { class: 'bci-end' },
    h('button', { type: 'button', class: 'primary', id: 'bci-end-turn', disabled: !end, title: why ?? '', onclick: () => end && send(end) }, t('bci.act.end_turn')),
    why ? h('small', { class: 'why', id: 'bci-end-why' }, why) : null,
  );
}
