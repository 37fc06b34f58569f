// The ring: four statement boards with their green and red squares, and the
// risk fields between neighbouring boards (pair p between boards p and p+1).
// A grid puts the boards at the corners and the risk fields between them
// around the card; a phone stacks them in ring order.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { SLOTS, slotValue, boardNo, cityName, statementText, squareKey, wagerText } from './words.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Square} Square
 * @typedef {import('./types').CityCard} CityCard
 *
 * @typedef {object} RingInput
 * @property {View} view
 * @property {Map<string, Square>} legal squares the viewer may place on now, by key
 * @property {Set<number>} replaceable boards the viewer may replace now
 * @property {string | null} pending the square of the card being objected to
 * @property {string | null} judged the square of the last judged card, if still on it
 * @property {CityCard | null} card the card to place, for the wager's words
 * @property {(sq: Square) => void} place
 * @property {(board: number) => void} replace
 * @property {HTMLElement} centre shown in the middle of the ring
 */

/**
 * @param {RingInput} input
 * @param {Square} sq
 * @param {CityCard | null} card on the square
 * @param {string} value what it scores, as printed
 * @param {string} label
 */
function square(input, sq, card, value, label) {
  const key = squareKey(sq);
  const target = input.legal.get(key);
  const color = sq.type === 'board' ? (sq.slot.startsWith('green') ? 'green' : 'red') : sq.color;
  const attrs = {
    class: { 'bcz-sq': true, [color]: true, taken: Boolean(card), legal: Boolean(target), pending: input.pending === key, judged: input.judged === key },
    'data-square': key,
    'data-value': value,
    title: target && input.card ? wagerText(input.view, sq, cityName(input.card)) : label,
  };
  const body = [
    h('span', { class: 'val' }, value),
    card ? h('span', { class: { city: true, long: cityName(card).length > 8 }, 'data-card': card.card }, cityName(card), h('small', null, ` ${card.country}`)) : h('span', { class: 'lbl' }, label),
  ];
  if (target) return h('button', { ...attrs, type: 'button', onclick: () => input.place(target) }, body);
  return h('div', attrs, body);
}

/**
 * @param {RingInput} input
 * @param {number} b
 */
function board(input, b) {
  const bv = input.view.boards[b];
  return h(
    'section',
    { class: 'bcz-board', 'data-board': b, 'data-statement': bv.statement, style: { 'grid-area': `b${b}` } },
    h(
      'header',
      null,
      h('span', { class: 'no' }, t('bcz.board', { n: boardNo(b) })),
      h('span', { class: 'st' }, h('small', null, `${t('bcz.the_city')} `), statementText(bv.statement)),
    ),
    h(
      'div',
      { class: 'bcz-squares' },
      SLOTS.map((slot, i) => square(input, { type: 'board', board: b, slot }, bv.squares[i] ?? null, `+${slotValue(slot)}`, t(`bcz.slot.${slot}`))),
    ),
    input.replaceable.has(b)
      ? h('button', { type: 'button', class: 'bcz-replace', 'data-replace': b, title: t('bcz.replace_title'), onclick: () => input.replace(b) }, `⟲ ${t('bcz.replace')}`)
      : null,
  );
}

/**
 * @param {RingInput} input
 * @param {number} p
 */
function risk(input, p) {
  const rv = input.view.risks[p];
  const a = boardNo(p);
  const b = boardNo((p + 1) % 4);
  return h(
    'section',
    { class: 'bcz-risk', 'data-pair': p, title: t('bcz.risk_title', { a, b }), style: { 'grid-area': `r${p}` } },
    h('header', null, t('bcz.risk', { a, b })),
    h(
      'div',
      { class: 'bcz-squares' },
      square(input, { type: 'risk', pair: p, color: 'green' }, rv.green, '+8/−2', t('bcz.risk.green')),
      square(input, { type: 'risk', pair: p, color: 'red' }, rv.red, '+8/−2', t('bcz.risk.red')),
    ),
  );
}

/** @param {RingInput} input */
export function ring(input) {
  return h(
    'div',
    { class: 'bcz-ring', id: 'bcz-ring' },
    [0, 1, 2, 3].map((b) => board(input, b)),
    [0, 1, 2, 3].map((p) => risk(input, p)),
    h('div', { class: 'bcz-centre' }, input.centre),
  );
}
