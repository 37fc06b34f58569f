// A trade offer on the Big City board (variant A7): the offer, the answers,
// and my answer or my picks among them.

import { h } from '../../dom.js';
import { t, joinNames, labelled } from '../../i18n.js';
import { cardFace, cardBack } from './art.js';
import { view, mine, seatColor, seatName } from './ui.js';

/** @typedef {import('./ui.js').B} B */

/** @param {B} b */
export function renderTrade(b) {
  const ui = b.ui;
  const v = view(b);
  const tr = v.trade;
  if (!tr || !b.state) {
    b.els.trade.hidden = true;
    return;
  }
  b.els.trade.hidden = false;
  const me = b.state.mySeat;
  const hoods = joinNames(tr.offered.map(String));
  /** @type {(HTMLElement | string | null)[]} */
  const parts = [
    h(
      'p',
      { class: 'trade-title' },
      h('strong', null, t('ui.trade_offer', { name: seatName(b, tr.seat), n: tr.offered.length, hoods })),
      tr.wanted.length ? h('span', { class: 'muted' }, ` · ${t('ui.trade_wants', { hoods: joinNames(tr.wanted.map(String)) })}`) : null,
    ),
    h('div', { class: 'backs-row' }, tr.offered_cards ? tr.offered_cards.map((c) => cardFace(c, false)) : tr.offered.map((n) => cardBack(n, true))),
  ];
  if (ui.mode === 'trade_answer' && mine(b)) {
    parts.push(
      h('div', { class: 'row' },
        h('button', { class: 'primary', id: 'trade-answer', disabled: ui.cardSel.length === 0 || ui.cardSel.length > 2, onclick: () => b.dispatch({ type: 'send_answer', decline: false }) }, t('act.answer', { n: ui.cardSel.length })),
        h('button', { id: 'trade-decline', onclick: () => b.dispatch({ type: 'send_answer', decline: true }) }, t('act.decline')),
      ),
    );
  }
  if (tr.answers.length) {
    const offeredCards = tr.offered_cards ?? [];
    parts.push(
      h('ul', { class: 'answers' },
        tr.answers.map((a) =>
          h('li', null,
            h('span', { class: 'swatch', style: { '--seat': seatColor(b, a.seat) } }),
            h('span', null, labelled(seatName(b, a.seat))),
            a.neighborhoods.length === 0 ? h('span', { class: 'muted declined' }, t('ui.trade_declined')) : null,
            a.neighborhoods.map((n, index) => {
              const on = ui.picks.some((p) => p.seat === a.seat && p.index === index);
              const back = cardBack(n, true);
              if (ui.mode === 'trade_accept' && mine(b)) {
                return h('button', { class: { 'pick-card': true, on }, 'data-pick': `${a.seat}:${index}`, onclick: () => b.dispatch({ type: 'toggle_pick', seat: a.seat, index }) }, back);
              }
              return back;
            }),
          ),
        ),
      ),
    );
    if (ui.mode === 'trade_accept' && mine(b)) {
      const ans = (/** @type {{seat: number, index: number}} */ p) => tr.answers.find((a) => a.seat === p.seat)?.neighborhoods[p.index] ?? 0;
      if (ui.picks.length) {
        parts.push(
          h('p', { class: 'trade-deal', id: 'trade-deal' },
            ui.picks.map((p, i) => h('span', { class: 'deal' }, cardFace(offeredCards[i] ?? 0, false), ' ⇄ ', cardBack(ans(p), true), ` ${seatName(b, p.seat)}`)),
          ),
        );
      }
      parts.push(
        h('div', { class: 'row' },
          h('button', { class: 'primary', id: 'trade-accept', disabled: ui.picks.length === 0, onclick: () => b.dispatch({ type: 'send_accept', none: false }) }, t('act.accept')),
          h('button', { id: 'trade-none', onclick: () => b.dispatch({ type: 'send_accept', none: true }) }, t('act.no_trade')),
        ),
      );
    }
  } else if (v.phase.type === 'trade_accept') {
    parts.push(h('p', { class: 'muted' }, t('ui.nobody_answered')));
    if (mine(b)) parts.push(h('button', { id: 'trade-none', onclick: () => b.send({ type: 'trade_accept', picks: [] }) }, t('act.no_trade')));
  }
  b.els.trade.replaceChildren(...parts.filter((p) => p !== null));}
