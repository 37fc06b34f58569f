// The Big City board's panels: the phase line, my hand, the stacks, the
// others' hands and the score track, the supply, the end table and the help.

import { h } from '../../dom.js';
import { t, joinNames, labelled } from '../../i18n.js';
import { HOOD_COLORS, HOOD_DARK } from './icons.js';
import { PIECE_GROUPS, pieceBadge, streetcarBadge, miniTile, cardFace, cardBack } from './art.js';
import { view, legal, mine, seatColor, seatName, freshNow } from './ui.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Piece} Piece
 * @typedef {import('./ui.js').B} B
 */

// ---------- rendering ----------

/** @param {B} b */
export function renderHelp(b) {
  const keys = ['residence', 'business', 'min', 'city_hall', 'church', 'cpb', 'shopping', 'parks', 'streetcars', 'draw'];
  const open = b.els.help.open;
  b.els.help.replaceChildren(h('summary', null, t('help.title')), h('ul', null, keys.map((k) => h('li', null, t(`help.${k}`)))));
  b.els.help.open = open;
}

/**
 * The end of the game: each player's points by source. Every point comes from
 * a building (V1-V3); streetcars, parks and factories count through the
 * buildings they multiply or spoil.
 * @param {B} b
 */
export function renderFinal(b) {
  const v = view(b);
  if (v.phase.type !== 'game_over') {
    b.els.final.replaceChildren();
    b.els.final.hidden = true;
    return;
  }
  b.els.final.hidden = false;
  /** @type {[string, Piece[]][]} */
  const sources = [
    ['residences', ['residence_single', 'residence_double', 'residence_triple']],
    ['businesses', ['business_single', 'business_double', 'business_triple']],
    ['cpb', ['cinema', 'post_office', 'bank']],
    ['church', ['church']],
    ['shopping', ['shopping_center']],
  ];
  const seats = v.scores.map((_, seat) => seat);
  const points = (/** @type {number} */ seat, /** @type {Piece[]} */ pieces) =>
    v.buildings.filter((b) => b.owner === seat && pieces.includes(b.piece)).reduce((sum, b) => sum + b.points, 0);
  b.els.final.replaceChildren(
    h('h3', null, t('final.title')),
    h(
      'table',
      { id: 'bc-final-table' },
      h('thead', null, h('tr', null, h('th', null, ''), seats.map((seat) => h('th', { 'data-seat': seat, style: { '--seat': seatColor(b, seat) } }, seatName(b, seat))))),
      h(
        'tbody',
        null,
        sources.map(([key, pieces]) =>
          h(
            'tr',
            { 'data-source': key },
            h('th', { scope: 'row' }, t(`final.${key}`)),
            seats.map((seat) => {
              const n = points(seat, pieces);
              return h('td', { 'data-seat': seat, 'data-value': n }, String(n));
            }),
          ),
        ),
        h('tr', { class: 'total', 'data-source': 'total' }, h('th', { scope: 'row' }, t('final.total')), seats.map((seat) => h('td', { 'data-seat': seat, 'data-value': v.scores[seat] }, String(v.scores[seat])))),
      ),
    ),
    h('p', { class: 'muted small' }, t('final.note')),
  );
}

/** @param {B} b */
export function renderStatus(b) {
  const ui = b.ui;
  const v = view(b);
  const ph = v.phase;
  const me = mine(b);
  const hoods = 'neighborhoods' in ph ? joinNames(ph.neighborhoods.map(String)) : '';
  const seat = 'seat' in ph ? ph.seat : 0;
  /** @type {string} */
  let text;
  if (ph.type === 'game_over') text = t(`ph.game_over.${ph.reason}`);
  else if (ph.type === 'trade_answers' && me) text = t('ph.trade_answers_me');
  else if (ph.type === 'trade_answers' && b.state?.mySeat === ph.seat) text = t('ph.trade_answers_wait');
  else {
    // The trade variant's offer is one more choice of the turn: the prompt says so.
    const trade = ph.type === 'action' && me && v.options.trade_cards ? '_trade' : '';
    const key = `ph.${ph.type}${me ? '_me' : ''}${trade}`;
    text = t(key, { name: seatName(b, seat), hoods, n: 'remaining' in ph ? ph.remaining : 0 });
  }
  b.els.root.dataset.phase = ph.type;
  b.els.root.dataset.mine = me ? 'yes' : 'no';
  b.els.status.className = `bc-status${me ? ' mine' : ''}`;
  b.els.status.style.setProperty('--seat', seatColor(b, seat));
  b.els.status.replaceChildren(h('span', { class: 'turn-no muted small' }, t('ui.turn_n', { n: v.turn_number + 1 })), ' ', text);
}

/** @param {B} b */
export function renderHand(b) {
  const ui = b.ui;
  if (!b.state) return;
  const v = view(b);
  const seat = b.state.mySeat;
  // A replay seen by a player shows the hand he held.
  if (seat === undefined) {
    b.els.hand.hidden = true;
    b.els.hand.replaceChildren();
    return;
  }
  const hv = v.hands.find((hd) => hd.seat === seat);
  const cards = hv?.cards ?? [];
  b.els.hand.hidden = false;
  const lg = legal(b);
  const selectable = ui.mode === 'exchange' || ui.mode === 'trade_offer' || ui.mode === 'trade_answer' || ui.mode === 'trade_exchange';
  const covered = new Set(v.cells.filter((c) => c.building !== null && c.building !== undefined).map((c) => c.property));
  b.els.hand.replaceChildren(
    h('h3', null, b.state.replay ? t('ui.hand_of', { name: seatName(b, seat) }) : t('ui.your_hand'), h('span', { class: 'muted small' }, ` · ${t('ui.cards', { n: cards.length })}`)),
    h(
      'div',
      { class: 'hand-cards', id: 'my-hand' },
      [...cards]
        .sort((x, y) => x - y)
        .map((card) => {
          const useless = covered.has(card);
          const on = ui.cardSel.includes(card);
          const face = cardFace(card, useless);
          return h(
            'div',
            {
              class: { 'hand-card': true, selectable, selected: on, fresh: ui.fresh.hand.has(card) && freshNow(ui) },
              'data-card': card,
              onpointerenter: () => highlightProp(b, card, true),
              onpointerleave: () => highlightProp(b, card, false),
              onclick: () => selectable && b.dispatch({ type: 'toggle_card', card }),
            },
            face,
            lg.discard.has(card) && ui.mode === null
              ? h('button', { class: 'small discard', 'data-discard': card, onclick: (/** @type {Event} */ e) => { e.stopPropagation(); b.send({ type: 'discard_useless', card }); } }, t('act.discard'))
              : null,
          );
        }),
    ),
  );
}

/**
 * @param {B} b
 * @param {number} card
 * @param {boolean} on
 */
function highlightProp(b, card, on) {
  const lot = b.svg?.querySelector(`[data-prop="${card}"]`);
  lot?.classList.toggle('card-hover', on);
}

/** @param {B} b */
export function renderStacks(b) {
  const ui = b.ui;
  const v = view(b);
  const lg = legal(b);
  b.els.stacks.replaceChildren(
    h('h3', null, t('ui.stacks')),
    h(
      'div',
      { class: 'stacks' },
      v.stacks.map((count, i) => {
        const n = i + 1;
        const can = lg.draw.has(n);
        return h(
          'button',
          {
            class: { stack: true, drawable: can, empty: count === 0 },
            'data-stack': n,
            'data-count': count,
            disabled: !can,
            title: t('ui.stack_title', { n, count }),
            'aria-label': t('ui.stack_title', { n, count }),
            onclick: () => can && b.send({ type: 'draw', stack: n }),
          },
          h('span', { class: 'stack-pile', style: { '--hood': HOOD_COLORS[n], '--hood-dark': HOOD_DARK[n], '--depth': Math.min(count, 9) } }, h('span', { class: 'stack-no' }, String(n))),
          h('span', { class: 'stack-count' }, String(count)),
          v.drawn_this_turn[i] ? h('span', { class: 'drawn-mark', title: `${v.drawn_this_turn[i]}/2` }, '•'.repeat(v.drawn_this_turn[i])) : null,
        );
      }),
    ),
  );
}

/** @param {B} b */
export function renderOthers(b) {
  const ui = b.ui;
  if (!b.state) return;
  const v = view(b);
  const me = b.state.mySeat;
  b.els.others.replaceChildren(
    h('h3', null, t('ui.score_track')),
    scoreTrack(b, v),
    ...v.hands
      .filter((hd) => hd.seat !== me)
      .map((hd) =>
        h(
          'div',
          { class: { 'other-hand': true, turn: 'seat' in v.phase && v.phase.seat === hd.seat }, 'data-hand-seat': hd.seat, style: { '--seat': seatColor(b, hd.seat) } },
          h('div', { class: 'other-name' }, h('span', { class: 'swatch' }), h('strong', null, seatName(b, hd.seat)), h('span', { class: 'muted small' }, ` · ${t('ui.cards', { n: hd.backs.reduce((sum, n) => sum + n, 0) })}`)),
          h('div', { class: 'backs-row' }, hd.backs.flatMap((count, i) => Array.from({ length: count }, () => cardBack(i + 1, true)))),
        ),
      ),
  );
}

/**
 * @param {B} b
 * @param {View} v
 */
function scoreTrack(b, v) {
  const top = Math.max(50, ...v.scores.map((x) => x + 5));
  return h(
    'div',
    { class: 'score-track', id: 'score-track' },
    v.scores.map((score, seat) =>
      h(
        'div',
        { class: 'track-row', 'data-seat': seat, style: { '--seat': seatColor(b, seat) } },
        h('span', { class: 'track-name' }, seatName(b, seat)),
        h('span', { class: 'track-bar' }, h('span', { class: 'track-fill', style: { width: `${Math.max(2, (100 * score) / top)}%` } })),
        h('span', { class: 'track-score', 'data-score': score }, String(score)),
      ),
    ),
  );
}

/** @param {B} b */
export function renderSupply(b) {
  const ui = b.ui;
  if (!b.state) return;
  const v = view(b);
  const lg = legal(b);
  const left = new Map(v.supply.map((x) => [x.piece, x.left]));
  const color = b.state.mySeat !== undefined && !b.state.replay ? seatColor(b, b.state.mySeat) : '#8a8176';
  const canPick = mine(b) && (v.phase.type === 'action');
  b.els.supply.replaceChildren(
    h('h3', null, t('ui.supply')),
    ...PIECE_GROUPS.map(([label, pieces]) =>
      h(
        'div',
        { class: 'supply-group' },
        h('div', { class: 'muted small' }, t(label)),
        h(
          'div',
          { class: 'supply-row' },
          pieces.map((p) => {
            const n = left.get(p) ?? 0;
            const can = canPick && lg.build.has(p);
            return h(
              'button',
              {
                class: { piece: true, on: ui.mode === 'build' && ui.piece === p, can },
                'data-piece': p,
                'data-left': n,
                // A piece without a legal spot can still be picked: a click on a
                // property then says why it cannot go there.
                disabled: !canPick || n === 0,
                title: `${t(`piece.${p}`)} ×${n}`,
                onclick: () => b.dispatch({ type: 'pick_piece', piece: p }),
              },
              pieceBadge(p, color),
              h('span', { class: 'piece-left' }, `×${n}`),
            );
          }),
        ),
      ),
    ),
    h('div', { class: 'supply-line', id: 'streetcars-left', 'data-left': v.streetcars_left }, streetcarBadge(), ' ', t('ui.streetcars_left', { n: v.streetcars_left })),
    h(
      'div',
      { class: 'supply-line', id: 'unplaced' },
      h('span', { class: 'muted small' }, labelled(t('ui.unplaced'))),
      v.unplaced.length ? v.unplaced.map((n) => h('span', { class: 'mini-tile-wrap', title: String(n) }, miniTile(n, 0), String(n))) : t('ui.none'),
    ),
  );
}
