// The parts around the ring: the city card, the draw pile, the players' scores on
// the track to 36 with their veto markers, the objection window, the judgment
// with its facts, and the end.

import { h } from '../../dom.js';
import { t, joinNames } from '../../i18n.js';
import { cityName, countryName, factText, sourceOf, squareText, wagerText, signed, num } from './words.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').CityCard} CityCard
 * @typedef {import('./types').Judgment} Judgment
 * @typedef {import('../index.js').BoardState} BoardState
 * @typedef {import('../index.js').SeatLook} SeatLook
 */

/** B8: the score that starts the final round. */
export const TARGET = 36;

/**
 * @param {BoardState} state
 * @param {number} seat
 */
export const nameOf = (state, seat) => state.seats[seat]?.name ?? `#${seat + 1}`;

/**
 * A city card, face up: name and country large, its facts face down behind it.
 * @param {CityCard} card
 * @param {string} caption
 * @param {string} [id]
 */
export function cityCard(card, caption, id) {
  return h(
    'div',
    { class: 'bcz-card', id, 'data-card': card.card },
    h('div', { class: 'face' }, h('span', { class: 'cap' }, caption), h('strong', { class: { name: true, long: cityName(card).length > 9 } }, cityName(card)), h('span', { class: 'country' }, countryName(card.country))),
    h('div', { class: 'back', title: t('bcz.facts_hidden') }, h('span', null, '?'), h('small', null, t('bcz.facts_hidden'))),
  );
}

/** @param {View} view */
export function pile(view) {
  const parts = [view.deck_count === 1 ? t('bcz.deck.one') : t('bcz.deck', { n: view.deck_count })];
  if (view.box_count) parts.push(t('bcz.box', { n: view.box_count }));
  if (view.left_game.length) parts.push(t('bcz.left', { n: view.left_game.length }));
  return h('p', { class: 'bcz-pile', id: 'bcz-deck', 'data-count': view.deck_count }, parts.join(' · '));
}

/**
 * Each player: score on the track to 36 and the veto markers left.
 * @param {View} view
 * @param {BoardState} state
 */
export function players(view, state) {
  const active = view.phase.type === 'game_over' ? null : view.phase.seat;
  return h(
    'section',
    { class: 'bcz-players' },
    h('h3', null, t('bcz.target', { n: TARGET })),
    h(
      'ul',
      { id: 'bcz-players' },
      view.scores.map((score, seat) => {
        const vetoes = view.vetoes_left[seat] ?? 0;
        return h(
          'li',
          {
            class: { active: seat === active, awaited: state.awaiting.seats.includes(seat), winner: view.winners.includes(seat), me: seat === state.mySeat },
            'data-seat': seat,
            'data-score': score,
            'data-vetoes': vetoes,
            style: { '--seat': state.seats[seat]?.color ?? '#888' },
          },
          h('span', { class: 'name' }, view.winners.includes(seat) ? '★ ' : '', nameOf(state, seat)),
          h('span', { class: 'track', role: 'img', 'aria-label': t('bcz.points', { n: score }) }, h('span', { class: 'fill', style: { width: `${Math.min(100, (100 * score) / TARGET)}%` } })),
          h('span', { class: 'pts' }, String(score)),
          h('span', { class: 'vetoes', title: t('bcz.vetoes', { n: vetoes }) }, vetoes ? Array.from({ length: vetoes }, () => h('span', { class: 'veto' })) : '–'),
        );
      }),
    ),
  );
}

/**
 * The objection window: the wager, who objected so far, the countdown and, for
 * an awaited player, the two buttons.
 * @param {View} view
 * @param {BoardState} state
 * @param {{object: () => void, decline: () => void, sent: boolean}} act
 */
export function objections(view, state, act) {
  const phase = view.phase;
  if (phase.type !== 'objections') return null;
  const placer = nameOf(state, phase.seat);
  const card = phase.square ? squareCard(view, phase.square) : view.current;
  const city = cityName(card);
  const me = state.mySeat;
  const canDecide = me !== undefined && !state.replay && phase.waiting.includes(me) && state.awaiting.seats.includes(me) && !act.sent;
  const vetoes = me === undefined ? 0 : (view.vetoes_left[me] ?? 0);
  /** @type {(HTMLElement | null)[]} */
  const parts = [
    h('h3', null, t('bcz.obj.title')),
    h('p', { class: 'what' }, phase.square ? t('bcz.obj.placed', { name: placer, city, square: squareText(phase.square) }) : t('bcz.obj.declared', { name: placer, city })),
    phase.square ? h('p', { class: 'wager' }, wagerText(view, phase.square, city)) : null,
    h('p', { class: 'bcz-countdown', id: 'bcz-countdown' }),
    h(
      'ul',
      { class: 'bcz-objectors', id: 'bcz-objectors' },
      phase.objectors.length
        ? phase.objectors.map((s) => h('li', { 'data-seat': s, style: { '--seat': state.seats[s]?.color ?? '#888' } }, t('bcz.obj.by', { names: nameOf(state, s) })))
        : h('li', { class: 'muted' }, t('bcz.obj.none_yet')),
    ),
    phase.waiting.length ? h('p', { class: 'muted small' }, t('bcz.obj.waiting', { names: joinNames(phase.waiting.map((s) => nameOf(state, s))) })) : null,
  ];
  if (canDecide) {
    parts.push(
      h(
        'div',
        { class: 'bcz-obj-actions' },
        h('button', { type: 'button', class: 'danger big', id: 'bcz-object', onclick: act.object }, h('strong', null, t('bcz.obj.object')), h('small', null, vetoes === 1 ? t('bcz.obj.object_vetoes.one') : t('bcz.obj.object_vetoes', { n: vetoes }))),
        h('button', { type: 'button', class: 'big', id: 'bcz-decline', onclick: act.decline }, t('bcz.obj.decline')),
      ),
    );
  } else if (me !== undefined && !state.replay) {
    const note = me === phase.seat ? t('bcz.obj.own') : phase.objectors.includes(me) || vetoes > 0 ? t('bcz.obj.decided') : t('bcz.obj.cannot');
    parts.push(h('p', { class: 'muted', id: 'bcz-obj-note' }, note));
  }
  return h('section', { class: 'bcz-objections', id: 'bcz-objections', 'data-waiting': phase.waiting.join(','), 'data-objectors': phase.objectors.join(',') }, parts);
}

/**
 * @param {View} view
 * @param {import('./types').Square} sq
 */
export function squareCard(view, sq) {
  if (sq.type === 'board') return view.boards[sq.board].squares[['green4', 'green2', 'red4', 'red2'].indexOf(sq.slot)] ?? null;
  return view.risks[sq.pair][sq.color];
}

/**
 * The last judgment: the card turned over, the facts that decided it with their
 * sources, and who won and lost what.
 * @param {Judgment} j
 * @param {BoardState} state
 * @param {boolean} turning just judged: the card turns over
 */
export function judgment(j, state, turning) {
  const name = nameOf(state, j.seat);
  const city = cityName(j.city);
  return h(
    'section',
    { class: { 'bcz-judgment': true, right: j.right, wrong: !j.right, turning }, id: 'bcz-judgment', 'data-right': j.right ? 'yes' : 'no', 'data-card': j.city.card },
    h('h3', null, t('bcz.judged')),
    h(
      'div',
      { class: 'bcz-turned' },
      h('div', { class: 'head' }, h('strong', { class: 'name' }, city), h('span', { class: 'country' }, countryName(j.city.country)), h('span', { class: 'mark' }, j.right ? '✔' : '✘')),
      h('p', { class: 'verdict' }, t(j.right ? 'bcz.judged.right' : 'bcz.judged.wrong', { name, city }), ' ', j.square ? t('bcz.judged.on', { square: squareText(j.square) }) : t('bcz.judged.nofree')),
      h(
        'ul',
        { class: 'facts', id: 'bcz-facts' },
        j.facts.map((f) => {
          const source = sourceOf(f.evidence);
          return h('li', { class: f.holds ? 'yes' : 'no', 'data-statement': f.evidence.statement }, factText(f, j.city), source ? h('small', { class: 'src' }, t('bcz.source', { source })) : null);
        }),
      ),
      j.right_squares.length ? h('p', { class: 'small', id: 'bcz-right-squares' }, t('bcz.judged.right_squares', { squares: j.right_squares.map(squareText).join('; ') })) : null,
      j.objectors.length ? h('p', { class: 'small' }, t('bcz.judged.objectors', { names: joinNames(j.objectors.map((s) => nameOf(state, s))) })) : null,
      h(
        'ul',
        { class: 'changes', id: 'bcz-changes' },
        j.changes.map((c) =>
          h(
            'li',
            { class: c.points > 0 ? 'up' : c.points < 0 ? 'down' : '', 'data-seat': c.seat, 'data-points': c.points, style: { '--seat': state.seats[c.seat]?.color ?? '#888' } },
            t('bcz.judged.change', { name: nameOf(state, c.seat), points: signed(c.points), score: num(c.score) }),
          ),
        ),
      ),
    ),
  );
}

/**
 * The end: why, who won, everyone's score.
 * @param {View} view
 * @param {BoardState} state
 */
export function finalPanel(view, state) {
  if (view.phase.type !== 'game_over') return null;
  const best = view.winners.length ? view.scores[view.winners[0]] : Math.max(...view.scores);
  const order = view.scores.map((score, seat) => ({ score, seat })).sort((a, b) => b.score - a.score);
  return h(
    'section',
    { class: 'bcz-final', id: 'bcz-final' },
    h('h2', null, t('bcz.over')),
    h('p', { class: 'muted' }, t(`bcz.reason.${view.phase.reason}`)),
    h('p', { class: 'bcz-winner', id: 'bcz-winner' }, t('bcz.winner', { names: joinNames(view.winners.map((s) => nameOf(state, s))), n: best })),
    h('ol', null, order.map((o) => h('li', { 'data-seat': o.seat, class: { winner: view.winners.includes(o.seat) } }, `${nameOf(state, o.seat)}: ${t('bcz.points', { n: o.score })}`))),
  );
}
