// The parts around the city: the seat's bank, moves and loan; the turn track with
// the multipliers left, the objective's limit and the five-round countdown; the
// objective card; the event and challenge cards just drawn; the mayors with
// their cities in small (each opens full size); and the end.

import { h } from '../../dom.js';
import { t, joinNames } from '../../i18n.js';
import { objectiveName, objectiveText, objective, cardName, cardText, handbookNow } from './handbook.js';
import { maya, num, signed, effectText, goalText, goodsText } from './words.js';
import { citySvg } from './city.js';
import { lastRound } from './geometry.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').PlayerView} PlayerView
 * @typedef {import('../index.js').BoardState} BoardState
 */

/**
 * @param {BoardState} state
 * @param {number} seat
 */
export const nameOf = (state, seat) => state.seats[seat]?.name ?? `#${seat + 1}`;

/**
 * The seat's bank and moves this phase (kept in view while the page scrolls,
 * with the end of the turn), then its spending, district value, loan, goods and
 * hand.
 * @param {View} view
 * @param {number} seat
 * @param {BoardState} state
 * @param {HTMLElement | null} endTurn the end-of-turn button, when the seat builds
 */
export function statusBar(view, seat, state, endTurn) {
  const p = view.players[seat];
  const eco = handbookNow()?.raw.economy;
  const perTurn = eco?.moves_per_turn ?? 10;
  const loan = p.loan_due !== null && p.loan_due !== undefined ? t('bci.status.loan_due', { amount: maya(eco?.loan.repay ?? 0), turn: p.loan_due }) : p.loan_used ? t('bci.status.loan_used') : t('bci.status.loan_free');
  return [
    h(
      'section',
      { class: { 'bci-status': true, low: p.bank < 0 }, id: 'bci-status', 'data-seat': seat, style: { '--seat': state.seats[seat]?.color ?? '#888' } },
      h('span', { class: 'who' }, seat === state.mySeat ? t('bci.status.you') : nameOf(state, seat)),
      h('span', { class: 'bank', id: 'bci-bank', 'data-bank': p.bank }, h('small', null, t('bci.status.bank')), maya(p.bank)),
      h(
        'span',
        { class: 'moves', id: 'bci-moves', 'data-moves': p.moves_left },
        h('small', null, t('bci.status.moves')),
        `${p.moves_left}/${perTurn}`,
        h('span', { class: 'pips', 'aria-hidden': 'true' }, Array.from({ length: perTurn }, (_, i) => h('i', { class: { on: i < p.moves_left } }))),
      ),
      endTurn,
    ),
    h(
      'section',
      { class: 'bci-facts', id: 'bci-facts' },
      h('span', { class: 'spent', 'data-spent': p.spent }, h('small', null, t('bci.status.spent')), ' ', maya(p.spent)),
      h('span', { class: 'dv', 'data-value': p.district_value }, h('small', null, t('bci.status.district_value')), ' ', signed(p.district_value)),
      h('span', { class: 'loan', id: 'bci-loan' }, loan),
      p.goods.length ? h('span', { class: 'goods' }, t('bci.status.goods', { goods: goodsText(p.goods) })) : null,
      view.mode === 'despicable' ? h('span', { class: 'hand', 'data-hand': p.hand }, t('bci.status.hand', { n: p.hand })) : p.task_forces ? h('span', { class: 'tf' }, t('bci.status.task_forces', { n: p.task_forces })) : null,
    ),
  ];
}

/**
 * The round on the 50-box turn track, the multipliers still ahead, the
 * objective's limit and, after a first completion, the rounds left.
 * @param {View} view
 */
export function turnTrack(view) {
  const eco = handbookNow()?.raw.economy;
  const length = eco?.turn_track.length ?? 50;
  const factors = new Map((eco?.turn_track.multipliers ?? []).map((m) => [m.turn, m.factor]));
  const ahead = new Set(view.multipliers_left);
  const at = ((view.round - 1) % length) + 1;
  const limit = objective(view.objective)?.turn_limit ?? eco?.turn_cap ?? null;
  const last = lastRound(view, eco?.final_rounds ?? 5);
  return h(
    'section',
    { class: 'bci-track', id: 'bci-track', 'data-round': view.round },
    h('h3', null, t('bci.track.round', { n: view.round })),
    h(
      'ol',
      { class: 'boxes', 'aria-label': t('bci.track.title') },
      Array.from({ length }, (_, i) => {
        const turn = i + 1;
        const factor = factors.get(turn);
        return h(
          'li',
          { class: { now: turn === at, past: turn < at, x: Boolean(factor), spent: Boolean(factor) && !ahead.has(turn) }, 'data-turn': turn, title: factor ? t('bci.track.factor', { turn, factor }) : String(turn) },
          factor ? `×${factor}` : '',
        );
      }),
    ),
    h(
      'p',
      { class: 'small', id: 'bci-multipliers' },
      view.multipliers_left.length
        ? t('bci.track.ahead', { list: view.multipliers_left.map((turn) => t('bci.track.at', { factor: factors.get(turn) ?? '?', turn })).join(', ') })
        : t('bci.track.none_ahead'),
    ),
    limit ? h('p', { class: 'small' }, t('bci.track.limit', { turn: limit, n: Math.max(0, limit - view.round + 1) })) : null,
    last !== null && view.phase.kind !== 'over' ? h('p', { class: 'bci-final-rounds', id: 'bci-final-rounds', 'data-last': last }, t('bci.track.final_rounds', { round: last, n: Math.max(0, last - view.round + 1) })) : null,
  );
}

/** @param {View} view */
export function objectiveCard(view) {
  const o = objective(view.objective);
  return h(
    'section',
    { class: 'bci-card objective', id: 'bci-objective', 'data-objective': view.objective },
    h('span', { class: 'cap' }, t('bci.card.objective')),
    h('strong', null, objectiveName(view.objective)),
    h('p', null, objectiveText(view.objective)),
    o ? h('p', { class: 'small goals' }, o.goals.map(goalText).join(' · '), o.race ? ` · ${t('bci.card.race')}` : '') : null,
  );
}

/**
 * The event card just drawn with its effect, and the last challenge.
 * @param {View} view
 */
export function drawnCards(view) {
  return [
    view.last_event
      ? h(
          'section',
          { class: 'bci-card event', id: 'bci-event', 'data-card': view.last_event },
          h('span', { class: 'cap' }, t('bci.card.event')),
          h('strong', null, cardName(view.last_event)),
          h('p', null, cardText(view.last_event)),
          view.last_event_effect ? h('p', { class: 'effect', id: 'bci-event-effect' }, effectText(view.last_event_effect)) : null,
        )
      : null,
    view.last_challenge
      ? h(
          'section',
          { class: 'bci-card challenge', id: 'bci-challenge', 'data-card': view.last_challenge },
          h('span', { class: 'cap' }, t('bci.card.challenge')),
          h('strong', null, cardName(view.last_challenge)),
          h('p', null, cardText(view.last_challenge)),
        )
      : null,
    h('p', { class: 'small muted bci-decks', id: 'bci-decks' }, t('bci.card.decks', { events: view.events_left, challenges: view.challenges_left })),
  ];
}

/**
 * The mayors: bank, status, districts, hand (a count only), and their city in
 * small, which opens it full size.
 * @param {View} view
 * @param {BoardState} state
 * @param {number} shown the seat whose city is shown large
 * @param {(seat: number) => void} show
 */
export function mayors(view, state, shown, show) {
  return h(
    'section',
    { class: 'bci-mayors' },
    h('h3', null, t('bci.mayors')),
    h(
      'ul',
      { id: 'bci-players' },
      view.players.map((p, seat) =>
        h(
          'li',
          {
            class: { me: seat === state.mySeat, shown: seat === shown, awaited: state.awaiting.seats.includes(seat), winner: view.winners.includes(seat) },
            'data-seat': seat,
            'data-bank': p.bank,
            'data-hand': p.hand,
            'data-status': p.status,
            style: { '--seat': state.seats[seat]?.color ?? '#888' },
          },
          h(
            'button',
            { type: 'button', class: 'thumb', 'data-thumb': seat, 'aria-pressed': seat === shown, title: t('bci.mayor.open', { name: nameOf(state, seat) }), onclick: () => show(seat) },
            citySvg({ player: p, seat, small: true }),
          ),
          h(
            'div',
            { class: 'facts' },
            h('strong', { class: 'name' }, view.winners.includes(seat) ? '★ ' : '', nameOf(state, seat), seat === state.mySeat ? ` (${t('bci.status.you')})` : ''),
            h('span', null, maya(p.bank)),
            h('span', { class: 'muted small' }, t(`bci.st.${p.status}`), ' · ', t('bci.mayor.districts', { n: p.city.districts.length }), view.phase.kind === 'building' && p.done ? ` · ${t('bci.mayor.done')}` : ''),
            view.mode === 'despicable' ? h('span', { class: 'small hand-count' }, t('bci.status.hand', { n: p.hand })) : null,
          ),
        ),
      ),
    ),
  );
}

/**
 * The end: why, who completed the objective, the banks, each city's final picture.
 * @param {View} view
 * @param {BoardState} state
 */
export function finalPanel(view, state) {
  if (view.phase.kind !== 'over') return null;
  const order = view.players.map((p, seat) => ({ p, seat })).sort((a, b) => Number(view.winners.includes(b.seat)) - Number(view.winners.includes(a.seat)) || b.p.bank - a.p.bank);
  const completed = view.players.map((p, seat) => ({ p, seat })).filter((x) => x.p.frozen_round !== null || x.p.status === 'won');
  return h(
    'section',
    { class: 'bci-final', id: 'bci-final' },
    h('h2', null, t('bci.over')),
    h(
      'p',
      { class: 'bci-winner', id: 'bci-winners', 'data-winners': view.winners.join(',') },
      view.winners.length ? t('bci.over.winners', { names: joinNames(view.winners.map((s) => nameOf(state, s))) }) : t('bci.over.nobody'),
    ),
    view.end ? h('p', { class: 'bci-end-reason', id: 'bci-end-reason', 'data-reason': view.end }, t('bci.over.why', { reason: t(`bci.end.${view.end}`) })) : null,
    h(
      'p',
      { class: 'small', id: 'bci-completed' },
      completed.length
        ? t('bci.over.completed', { names: joinNames(completed.map((x) => (x.p.frozen_round ? t('bci.over.in_round', { name: nameOf(state, x.seat), round: x.p.frozen_round }) : nameOf(state, x.seat)))) })
        : t('bci.over.none_completed', { objective: objectiveName(view.objective) }),
    ),
    h(
      'ol',
      { class: 'bci-final-cities' },
      order.map(({ p, seat }) =>
        h(
          'li',
          { 'data-seat': seat, 'data-bank': p.bank, class: { winner: view.winners.includes(seat) }, style: { '--seat': state.seats[seat]?.color ?? '#888' } },
          h('strong', null, nameOf(state, seat)),
          h('span', null, ` ${maya(p.bank)} · ${t(`bci.st.${p.status}`)} · ${t('bci.mayor.tiles', { n: num(p.city.tiles.length + p.city.roads.length) })}`),
          citySvg({ player: p, seat, small: true }),
        ),
      ),
    ),
  );
}
