// Big Cityz's board in the browser: the ring with the card in its middle, the
// players on the track to 36, placing on a legal square (or replacing a board,
// or "no free square"), the objection window with its countdown, the last
// judgment turned over, and the end. Every viewer sees the same view.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { countdown } from '../../countdown.js';
import { ring } from './ring.js';
import { cityCard, pile, players, objections, judgment, finalPanel, nameOf, squareCard } from './panels.js';
import { boardNo, cityName, squareKey } from './words.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Square} Square
 * @typedef {import('./types').Judgment} Judgment
 * @typedef {import('../index.js').BoardCtx} BoardCtx
 * @typedef {import('../index.js').BoardState} BoardState
 * @typedef {import('../index.js').Board} Board
 */

/**
 * A judgment's identity: a card is judged once per time it is played.
 * @param {Judgment | null} j
 */
const judgmentKey = (j) => (j ? JSON.stringify([j.seat, j.city.card, j.square, j.changes]) : '');

/**
 * @param {BoardCtx} ctx
 * @returns {Board}
 */
export function createBigCityzBoard(ctx) {
  ensureStyle();
  const el = h('div', { class: 'bcz' });
  /** @type {BoardState | null} */
  let last = null;
  /** The version at which I sent a move: no second one on it. */
  let sentVersion = -1;
  /** The judgment shown last; a new one turns the card over. */
  let shownJudgment = /** @type {string | null} */ (null);
  /** The objection window's end on the page's clock. */
  /** @type {unknown} */
  let awaitingSeen = null;

  /** @param {Move} mv */
  function send(mv) {
    if (!last || sentVersion === last.version) return;
    sentVersion = last.version;
    ctx.send(mv);
    render(last);
  }

  const clock = countdown(el, '#bcz-countdown', (n) => t('bcz.obj.left', { n }));

  /** @param {BoardState} state */
  function render(state) {
    last = state;
    /** @type {View} */
    const view = state.view;
    const phase = view.phase;
    const me = state.mySeat;
    const live = me !== undefined && !state.replay && phase.type !== 'game_over';
    const mine = live && phase.type === 'placing' && phase.seat === me && state.awaiting.seats.includes(/** @type {number} */ (me));
    // A refused move leaves the decision open: the board takes another.
    if (sentVersion !== -1 && (sentVersion !== state.version || state.moving === false)) sentVersion = -1;
    const sent = sentVersion === state.version;
    if (mine && !state.legal) ctx.askLegal();

    if (phase.type === 'objections' && state.awaiting !== awaitingSeen) {
      // The server says what is left of the window; a view alone gives its length.
      awaitingSeen = state.awaiting;
      clock.start(state.awaiting.timer_ms ?? phase.window_ms);
    }

    /** @type {Move[]} */
    const moves = mine && !sent ? (state.legal?.moves ?? []) : [];
    /** @type {Map<string, Square>} */
    const legal = new Map();
    const replaceable = new Set();
    let noFreeSquare = false;
    for (const mv of moves) {
      if (mv.type === 'place') legal.set(squareKey(mv.square), mv.square);
      else if (mv.type === 'replace') replaceable.add(mv.board);
      else if (mv.type === 'no_free_square') noFreeSquare = true;
    }

    const jKey = judgmentKey(view.last_judgment);
    const turning = shownJudgment !== null && jKey !== shownJudgment && jKey !== '';
    shownJudgment = jKey;
    const j = view.last_judgment;
    const judgedSquare = j?.square && squareCard(view, j.square)?.card === j.city.card ? squareKey(j.square) : null;
    const pending = phase.type === 'objections' && phase.square ? squareKey(phase.square) : null;

    el.dataset.phase = phase.type;
    el.dataset.mine = mine ? 'yes' : 'no';
    el.dataset.seat = me === undefined ? '' : String(me);

    const centre = centrePart(view, state);
    const placingNote = prompt(view, state, mine, sent);
    const actions = mine
      ? h(
          'div',
          { class: 'bcz-actions', id: 'bcz-actions' },
          noFreeSquare
            ? h('button', { type: 'button', id: 'bcz-no-free', title: t('bcz.no_free_square_title'), onclick: () => send({ type: 'no_free_square' }) }, t('bcz.no_free_square'))
            : null,
        )
      : null;

    const layout = h(
      'div',
      { class: 'bcz-layout' },
      [
        finalPanel(view, state),
        h('div', { class: 'bcz-status' }, placingNote, actions),
        objections(view, state, { sent, object: () => send({ type: 'object' }), decline: () => send({ type: 'decline' }) }),
        ring({ view, legal, replaceable, pending, judged: judgedSquare, card: view.current, centre, place: (square) => send({ type: 'place', square }), replace: (board) => send({ type: 'replace', board }) }),
        h('div', { class: 'bcz-side' }, j ? judgment(j, state, turning) : null, players(view, state)),
      ],
    );
    el.replaceChildren(layout);
    clock.tick();
  }

  return {
    el,
    render,
    destroy() {
      clock.stop();
    },
  };
}

/**
 * The middle of the ring: the card in play and the draw pile.
 * @param {View} view
 * @param {BoardState} state
 */
function centrePart(view, state) {
  const phase = view.phase;
  let card = view.current;
  if (!card && phase.type === 'objections' && phase.square) card = squareCard(view, phase.square);
  return h(
    'div',
    { class: 'bcz-centre-in' },
    card ? cityCard(card, t('bcz.drawn'), 'bcz-card') : null,
    pile(view),
    view.final_round && phase.type !== 'game_over' ? h('p', { class: 'bcz-final-round', id: 'bcz-final-round' }, t('bcz.final_round')) : null,
    state.mySeat === undefined && !state.replay ? h('p', { class: 'muted small' }, t('bcz.spectating')) : null,
  );
}

/**
 * Whose turn and what to do.
 * @param {View} view
 * @param {BoardState} state
 * @param {boolean} mine
 * @param {boolean} sent
 */
function prompt(view, state, mine, sent) {
  const phase = view.phase;
  if (phase.type !== 'placing') return null;
  let text;
  if (mine && !sent) text = phase.replaced !== null ? t('bcz.must_place_new', { n: boardNo(phase.replaced) }) : t('bcz.your_turn');
  else text = t('bcz.placing', { name: nameOf(state, phase.seat), city: cityName(view.current) });
  return h('p', { class: { 'bcz-prompt': true, mine }, id: 'bcz-prompt' }, text);
}

function ensureStyle() {
  if (document.getElementById('bcz-style')) return;
  document.head.append(h('link', { id: 'bcz-style', rel: 'stylesheet', href: new URL('./bigcityz.css', import.meta.url).href }));
}
