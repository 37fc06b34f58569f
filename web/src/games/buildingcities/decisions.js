// The decisions of the end of a turn, each as the awaited player sees it (his
// buttons, from his legal moves) and as everyone else does (who decides what):
// the forced district purchase, playing a face-down challenge on an opponent,
// the Task Force prompt with its countdown, the legendary auction with live
// bids, the trade partner, the building a challenge removes, a card's demand.
// Stable selectors: `#bci-decision[data-kind]`, `#bci-hand li[data-card]`,
// `[data-play]`, `[data-target]`, `#bci-play`, `#bci-keep`, `#bci-use-task-force`,
// `#bci-accept-challenge`, `#bci-countdown[data-seconds]`, `#bci-bid-amount`,
// `#bci-bid`, `#bci-pass`, `[data-partner]`, `[data-destroy]`,
// `#bci-accept-demand`, `#bci-refuse-demand`, `[data-action=buy_district]`.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { buildingName, cardName, cardText, building, card as cardOf, handbookNow } from './handbook.js';
import { maya, goodsText, targetName, blockText, effectText, signed } from './words.js';
import { nextDistrict } from './geometry.js';
import { ofType } from './legal.js';
import { nameOf } from './panels.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Variant} Variant
 * @typedef {import('./choices.js').Choices} Choices
 * @typedef {import('./choices.js').UIAction} UIAction
 * @typedef {import('../index.js').BoardState} BoardState
 *
 * @typedef {object} DecisionCtx
 * @property {View} view
 * @property {BoardState} state
 * @property {Move[]} moves my legal moves now (none when the decision is not mine)
 * @property {boolean} mine the decision is mine and no move of mine is on its way
 * @property {Choices} ui
 * @property {Variant | undefined} variant
 * @property {(mv: Move) => void} send
 * @property {(a: UIAction) => void} dispatch
 */

/**
 * The panel of the decision the table waits for, or null in a building phase.
 * @param {DecisionCtx} c
 */
export function decision(c) {
  const phase = c.view.phase;
  /** @type {(HTMLElement | string | null)[]} */
  let parts;
  switch (phase.kind) {
    case 'forced_purchase':
      parts = forced(c, phase.seat);
      break;
    case 'play_challenge':
      parts = playChallenge(c, phase.seat);
      break;
    case 'task_force_prompt':
      parts = taskForce(c, phase);
      break;
    case 'auction':
      parts = auction(c, phase);
      break;
    case 'trade_partner':
      parts = tradePartner(c, phase);
      break;
    case 'choose_destroyed':
      parts = chooseDestroyed(c, phase);
      break;
    case 'demand':
      parts = demand(c, phase);
      break;
    default:
      return null;
  }
  return h('section', { class: { 'bci-decision': true, mine: c.mine }, id: 'bci-decision', 'data-kind': phase.kind }, parts);
}

/**
 * @param {DecisionCtx} c
 * @param {number} seat
 */
function forced(c, seat) {
  const buys = ofType(c.moves, 'buy_district');
  const owned = c.view.players[seat].city.districts.length;
  return [
    h('h3', null, c.mine ? t('bci.dec.forced.you') : t('bci.dec.forced.other', { name: nameOf(c.state, seat) })),
    h('p', { class: 'small' }, t('bci.dec.forced.why')),
    c.mine
      ? h(
          'div',
          { class: 'bci-buttons' },
          buys.map((mv) => h('button', { type: 'button', class: 'primary', 'data-action': 'buy_district', 'data-district': mv.district, onclick: () => c.send(mv) }, t('bci.act.buy_district', { district: mv.district, price: maya(nextPrice(c, owned)) }))),
        )
      : null,
  ];
}

/**
 * The price of the next district for a seat owning `owned`.
 * @param {DecisionCtx} c
 * @param {number} owned
 */
function nextPrice(c, owned) {
  const eco = handbookNow()?.raw.economy;
  return eco ? (nextDistrict(eco, c.variant, owned)?.price ?? 0) : 0;
}

/**
 * @param {DecisionCtx} c
 * @param {number} seat
 */
function playChallenge(c, seat) {
  const hand = c.view.hand ?? [];
  const plays = ofType(c.moves, 'play_challenge');
  const keep = ofType(c.moves, 'keep_challenges')[0];
  const count = c.view.players[seat].hand;
  if (!c.mine) {
    return [h('h3', null, t('bci.dec.play.other', { name: nameOf(c.state, seat), n: count }))];
  }
  const playable = new Set(plays.map((m) => m.card));
  const targets = [...new Set(plays.map((m) => m.target))];
  const chosen = c.ui.card !== null && playable.has(c.ui.card) ? c.ui.card : null;
  const target = c.ui.target !== null && targets.includes(c.ui.target) ? c.ui.target : null;
  const mv = plays.find((m) => m.card === chosen && m.target === target);
  return [
    h('h3', null, t('bci.dec.play.you')),
    h('p', { class: 'small' }, t('bci.dec.play.how')),
    h(
      'ol',
      { class: 'bci-hand', id: 'bci-hand' },
      hand.map((id, i) =>
        h(
          'li',
          { 'data-card': id, class: { chosen: chosen === i, task_force: !playable.has(i) } },
          h(
            'button',
            { type: 'button', 'data-play': i, disabled: !playable.has(i), 'aria-pressed': chosen === i, onclick: () => c.dispatch({ type: 'card', card: i }) },
            h('strong', null, cardName(id)),
            h('small', null, cardText(id)),
            cardOf(id) ? h('small', { class: 'effect' }, effectText(/** @type {any} */ (cardOf(id)).effect)) : null,
          ),
        ),
      ),
    ),
    h(
      'div',
      { class: 'bci-buttons', id: 'bci-targets' },
      h('span', { class: 'small' }, t('bci.dec.play.on')),
      targets.map((s) => h('button', { type: 'button', 'data-target': s, 'aria-pressed': target === s, style: { '--seat': c.state.seats[s]?.color ?? '#888' }, onclick: () => c.dispatch({ type: 'target', seat: s }) }, nameOf(c.state, s))),
    ),
    h(
      'div',
      { class: 'bci-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'bci-play', disabled: !mv, onclick: () => mv && c.send(mv) }, mv ? t('bci.dec.play.go', { card: cardName(hand[mv.card]), name: nameOf(c.state, mv.target) }) : t('bci.dec.play.choose')),
      keep ? h('button', { type: 'button', id: 'bci-keep', onclick: () => c.send(keep) }, t('bci.dec.play.keep')) : h('span', { class: 'small muted' }, t('bci.dec.play.full')),
    ),
  ];
}

/**
 * @param {DecisionCtx} c
 * @param {Extract<View['phase'], {kind: 'task_force_prompt'}>} phase
 */
function taskForce(c, phase) {
  const use = ofType(c.moves, 'use_task_force')[0];
  const accept = ofType(c.moves, 'accept_challenge')[0];
  return [
    h('h3', null, c.mine ? t('bci.dec.tf.you', { name: nameOf(c.state, phase.by) }) : t('bci.dec.tf.other', { name: nameOf(c.state, phase.target), by: nameOf(c.state, phase.by) })),
    h('div', { class: 'bci-card challenge', 'data-card': phase.card }, h('strong', null, cardName(phase.card)), h('p', null, cardText(phase.card))),
    countdown(),
    c.mine
      ? h(
          'div',
          { class: 'bci-buttons' },
          use ? h('button', { type: 'button', class: 'primary', id: 'bci-use-task-force', onclick: () => c.send(use) }, t('bci.dec.tf.use')) : null,
          accept ? h('button', { type: 'button', id: 'bci-accept-challenge', onclick: () => c.send(accept) }, t('bci.dec.tf.accept')) : null,
        )
      : null,
  ];
}

/**
 * @param {DecisionCtx} c
 * @param {Extract<View['phase'], {kind: 'auction'}>} phase
 */
function auction(c, phase) {
  const b = building(phase.building);
  const bid = ofType(c.moves, 'bid')[0];
  const pass = ofType(c.moves, 'pass_auction')[0];
  const me = c.state.mySeat;
  const bank = me === undefined ? 0 : c.view.players[me].bank;
  const min = bid?.amount ?? 0;
  const amount = Math.max(min, c.ui.bid ?? min);
  const bidders = c.state.awaiting.seats;
  return [
    h('h3', { id: 'bci-auction', 'data-building': phase.building }, t('bci.dec.auction.title', { building: buildingName(phase.building) })),
    b ? h('p', { class: 'small' }, t('bci.dec.auction.what', { price: maya(b.cost), value: signed(b.value), name: nameOf(c.state, phase.drawer) })) : null,
    h('p', { class: 'small' }, t('bci.dec.auction.rule', { raise: maya(handbookNow()?.raw.economy.auction_min_raise ?? 0), name: nameOf(c.state, phase.drawer) })),
    // No bid yet: the view names the drawer with 0.
    h(
      'p',
      { class: 'bci-high', id: 'bci-high-bid', 'data-amount': phase.high_bid, 'data-seat': phase.high_bid ? phase.high_bidder : '' },
      phase.high_bid ? t('bci.dec.auction.high', { amount: maya(phase.high_bid), name: nameOf(c.state, phase.high_bidder) }) : t('bci.dec.auction.none'),
    ),
    h('p', { class: 'small muted', id: 'bci-bidders' }, bidders.length ? t('bci.dec.auction.waiting', { names: bidders.map((s) => nameOf(c.state, s)).join(', ') }) : ''),
    countdown(),
    c.mine
      ? h(
          'form',
          {
            class: 'bci-buttons bci-bid',
            onsubmit: (/** @type {Event} */ e) => {
              e.preventDefault();
              if (bid && amount >= min && amount <= bank) c.send({ type: 'bid', amount });
            },
          },
          bid
            ? [
                h('label', { for: 'bci-bid-amount', class: 'small' }, t('bci.dec.auction.your_bid', { min: maya(min) })),
                h('input', { type: 'number', id: 'bci-bid-amount', min, max: Math.max(min, bank), step: 50, value: amount, oninput: (/** @type {Event} */ e) => c.dispatch({ type: 'bid', amount: Number(/** @type {HTMLInputElement} */ (e.target).value) || null }) }),
                h('button', { type: 'submit', class: 'primary', id: 'bci-bid' }, t('bci.dec.auction.bid')),
              ]
            : null,
          pass ? h('button', { type: 'button', id: 'bci-pass', onclick: () => c.send(pass) }, t('bci.dec.auction.pass')) : null,
        )
      : null,
  ];
}

/**
 * @param {DecisionCtx} c
 * @param {Extract<View['phase'], {kind: 'trade_partner'}>} phase
 */
function tradePartner(c, phase) {
  const options = ofType(c.moves, 'trade_partner');
  return [
    h('h3', null, c.mine ? t('bci.dec.trade.you') : t('bci.dec.trade.other', { name: nameOf(c.state, phase.seat) })),
    h(
      'ul',
      { class: 'bci-partners' },
      phase.partners.map((s) => {
        const mv = options.find((m) => m.seat === s);
        const goods = goodsText(c.view.players[s].goods);
        return h(
          'li',
          null,
          c.mine && mv
            ? h('button', { type: 'button', 'data-partner': s, onclick: () => c.send(mv) }, t('bci.dec.trade.with', { name: nameOf(c.state, s), goods }))
            : h('span', { 'data-partner': s }, t('bci.dec.trade.with', { name: nameOf(c.state, s), goods })),
        );
      }),
    ),
  ];
}

/**
 * @param {DecisionCtx} c
 * @param {Extract<View['phase'], {kind: 'choose_destroyed'}>} phase
 */
function chooseDestroyed(c, phase) {
  const tiles = c.view.players[phase.target].city.tiles;
  const options = ofType(c.moves, 'destroy_building');
  return [
    h('h3', null, c.mine ? t('bci.dec.destroy.you', { name: nameOf(c.state, phase.target) }) : t('bci.dec.destroy.other', { name: nameOf(c.state, phase.seat), target: nameOf(c.state, phase.target) })),
    c.mine ? h('p', { class: 'small' }, t('bci.dec.destroy.how')) : null,
    h(
      'ul',
      { class: 'bci-destroy' },
      phase.tiles.map((id) => {
        const tile = tiles.find((x) => x.id === id);
        const label = tile ? t('bci.dec.destroy.tile', { building: buildingName(tile.kind === 'building' ? tile.building : tile.kind), block: blockText(tile.origin) }) : `#${id}`;
        const mv = options.find((m) => m.tile === id);
        return h('li', null, c.mine && mv ? h('button', { type: 'button', 'data-destroy': id, onclick: () => c.send(mv) }, label) : h('span', { 'data-destroy': id }, label));
      }),
    ),
  ];
}

/**
 * @param {DecisionCtx} c
 * @param {Extract<View['phase'], {kind: 'demand'}>} phase
 */
function demand(c, phase) {
  const accept = ofType(c.moves, 'accept_demand')[0];
  const refuse = ofType(c.moves, 'refuse_demand')[0];
  const what = targetName(phase.target);
  return [
    h('h3', null, c.mine ? t('bci.dec.demand.you', { what }) : t('bci.dec.demand.other', { name: nameOf(c.state, phase.seat), what })),
    h('p', { class: 'small' }, t('bci.dec.demand.how', { what, refused: maya(phase.refused) })),
    c.mine
      ? h(
          'div',
          { class: 'bci-buttons' },
          accept ? h('button', { type: 'button', class: 'primary', id: 'bci-accept-demand', onclick: () => c.send(accept) }, t('bci.dec.demand.accept', { what })) : null,
          refuse ? h('button', { type: 'button', id: 'bci-refuse-demand', onclick: () => c.send(refuse) }, t('bci.dec.demand.refuse', { refused: maya(phase.refused) })) : null,
        )
      : null,
  ];
}

/** The window's countdown; the board's timer fills it in. */
function countdown() {
  return h('p', { class: 'bci-countdown', id: 'bci-countdown', 'aria-live': 'off' });
}
