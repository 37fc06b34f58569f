// Building Cities' board in the browser: holds the player's choices
// (choices.js) and the legal moves received per part (legal.js), asks the
// server for the parts it needs (every move but tiles while building, one
// building's spots once it is in hand, the whole list for the other
// decisions), and draws the parts: the seat's bank and moves, the decision the
// table waits for, the city shown large (zoomable, scrollable), the tool in
// hand with its preview, the palette and the other actions, the cards, the
// turn track, the mayors and the end.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { countdown } from '../../countdown.js';
import { loadHandbook, handbookNow, building, buildingName } from './handbook.js';
import { initialChoices, reduceChoices, sameSpot, TOUCH_ZOOM } from './choices.js';
import { remember, movesOf, spotsOf, rotationsOf, roadBlocks, ofType, OTHER, ALL } from './legal.js';
import { citySvg, drawOverlay } from './city.js';
import { palette } from './palette.js';
import { actions, endTurnButton } from './actions.js';
import { toolPanel } from './tool.js';
import { decision } from './decisions.js';
import { statusBar, turnTrack, objectiveCard, drawnCards, mayors, finalPanel, nameOf } from './panels.js';
import { crossMarks, previewOf } from './preview.js';
import { nextDistrict, districtPrices, price, blockKey } from './geometry.js';
import { paletteStatus } from './status.js';
import { ruleText } from './words.js';

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').TileMove} TileMove
 * @typedef {import('./types').Options} Options
 * @typedef {import('./choices.js').UIAction} UIAction
 * @typedef {import('./legal.js').LegalCache} LegalCache
 * @typedef {import('../index.js').BoardCtx} BoardCtx
 * @typedef {import('../index.js').BoardState} BoardState
 * @typedef {import('../index.js').Board} Board
 */

/**
 * @param {BoardCtx} ctx
 * @returns {Board}
 */
export function createBuildingCitiesBoard(ctx) {
  ensureStyle();
  const el = h('div', { class: 'bci' });
  const slots = {
    final: h('div', { class: 'bci-final-slot' }),
    status: h('div', { class: 'bci-status-slot' }),
    note: h('div', { class: 'bci-note-slot' }),
    decision: h('div', { class: 'bci-decision-slot' }),
    zoom: h('div', { class: 'bci-zoom', id: 'bci-zoom' }),
    scroller: h('div', { class: 'bci-scroll', id: 'bci-scroll' }),
    tool: h('div', { class: 'bci-tool-slot' }),
    build: h('div', { class: 'bci-build-slot' }),
    cards: h('div', { class: 'bci-cards' }),
    mayors: h('div', { class: 'bci-mayors-slot' }),
  };
  el.append(
    slots.final,
    slots.status,
    slots.note,
    slots.decision,
    h('div', { class: 'bci-layout' }, h('div', { class: 'bci-city-col' }, slots.zoom, slots.scroller, slots.tool, slots.build), h('div', { class: 'bci-side' }, slots.cards, slots.mayors)),
  );

  let ui = initialChoices();
  /** @type {LegalCache} */
  let cache = new Map();
  /** @type {BoardState | null} */
  let last = null;
  /** The version at which I sent a move: no second one on it. */
  let sentVersion = -1;
  /** @type {unknown} */
  let awaitingSeen = null;
  let failed = false;

  if (!handbookNow()) {
    loadHandbook()
      .then(() => last && render(last))
      .catch(() => {
        failed = true;
        if (last) render(last);
      });
  }

  /** @param {UIAction} action */
  function dispatch(action) {
    const before = ui;
    ui = reduceChoices(ui, action);
    if (ui !== before && last) draw(last, action.type === 'hover');
  }

  /** A phone-sized screen, where the map fitting the width is too small to touch. */
  const narrow = () => window.matchMedia('(max-width: 600px)').matches;

  /** @param {Move} mv */
  function send(mv) {
    if (!last || sentVersion === last.version) return;
    sentVersion = last.version;
    ctx.send(mv);
    ui = reduceChoices(ui, { type: 'moved' });
    draw(last, false);
  }

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (!el.isConnected || !ui.tool) return;
    if (e.key === 'r' || e.key === 'R') document.getElementById('bci-rotate')?.click();
    else if (e.key === 'Escape') dispatch({ type: 'tool', tool: null });
  }
  document.addEventListener('keydown', onKey);

  const clock = countdown(el, '#bci-countdown', (n) => t('bci.dec.seconds', { n }));

  /** @param {BoardState} state */
  function render(state) {
    last = state;
    cache = remember(cache, state.legal);
    if (state.awaiting !== awaitingSeen) {
      // The server says what is left of a window; a view alone gives its length.
      awaitingSeen = state.awaiting;
      clock.start(state.awaiting.timer_ms ?? 0);
    }
    draw(state, false);
  }

  /**
   * @param {BoardState} state
   * @param {boolean} onlyCity a hover: the building under the pointer and the tool only
   */
  function draw(state, onlyCity) {
    const book = handbookNow();
    if (!book) {
      slots.status.replaceChildren(h('p', { class: failed ? 'error' : 'muted', id: 'bci-loading' }, failed ? t('bci.handbook_failed') : t('bci.loading')));
      return;
    }
    /** @type {View} */
    const view = state.view;
    const phase = view.phase;
    const me = state.mySeat;
    const live = me !== undefined && !state.replay && phase.kind !== 'over';
    // A refused move leaves the decision open: the board takes another.
    if (sentVersion !== -1 && (sentVersion !== state.version || state.moving === false)) sentVersion = -1;
    const sent = sentVersion === state.version;
    const mine = live && state.awaiting.seats.includes(/** @type {number} */ (me));
    const awaited = mine && !sent;
    const building_ = phase.kind === 'building';
    const builds = awaited && building_;
    // The tool stays in hand while a move is on its way, and goes with the phase.
    if (!(mine && building_) && ui.tool) ui = reduceChoices(ui, { type: 'tool', tool: null });
    const options = /** @type {Options | undefined} */ (state.options);
    const variant = options?.variant;

    // The parts of the legal moves this decision needs.
    /** @param {string} part */
    const need = (part) => {
      const moves = movesOf(cache, part, state.version);
      if (moves === null && awaited) ctx.askLegal(part === ALL ? undefined : part);
      return moves;
    };
    const other = builds ? need(OTHER) : null;
    const decisionMoves = awaited && !building_ ? (need(ALL) ?? []) : [];
    const tool = ui.tool;
    const toolMoves = builds && tool && tool !== 'road' ? need(tool) : null;

    // Whose city is large: the chooser's target, else the one picked, else mine.
    const forced = phase.kind === 'choose_destroyed' ? phase.target : null;
    const shown = forced ?? ui.shown ?? me ?? 0;
    const player = view.players[shown];
    const owned = player.city.districts.length;
    const eco = book.raw.economy;
    const mineShown = builds && shown === me;

    // The tool in hand on my own city.
    const rotations = toolMoves && tool ? rotationsOf(toolMoves, tool) : [];
    const rotation = rotations.length && !rotations.includes(ui.rotation) ? rotations[0] : ui.rotation;
    const spots = toolMoves && tool && mineShown ? spotsOf(toolMoves, tool, rotation) : new Map();
    const roads = tool === 'road' && other && mineShown ? roadBlocks(other) : new Set();
    const spot = ui.picked ?? ui.hover;
    const at = spot && tool && spots.has(blockKey(spot.origin)) && spot.rotation === rotation ? { spot, picked: sameSpot(ui.picked, spot), move: spots.get(blockKey(spot.origin)) } : null;
    const marks = at && tool ? crossMarks(player.city, tool, at.spot) : [];
    const preview = at && tool ? previewOf(at.move, tool, marks, variant, owned) : null;
    const next = nextDistrict(eco, variant, owned);

    /** @type {import('./city.js').CityActs} */
    const acts = {
      road: (block) => send({ type: 'road', block }),
      // A spot chosen again is built on; another spot is chosen instead.
      spot: (mv) => (sameSpot(ui.picked, mv) ? send(stripPreview(mv)) : dispatch({ type: 'pick', spot: { origin: mv.origin, rotation: mv.rotation } })),
      hover: (s) => dispatch({ type: 'hover', spot: s }),
      destroy: (tile) => {
        const mv = ofType(decisionMoves, 'destroy_building').find((m) => m.tile === tile);
        if (mv) send(mv);
      },
      district: (d) => {
        const mv = other && ofType(other, 'buy_district').find((m) => m.district === d);
        if (mv) send(mv);
      },
      sea: (sea) => {
        const mv = other && ofType(other, 'buy_sea').find((m) => m.sea === sea);
        if (mv) send(mv);
      },
    };
    if (!onlyCity) {
      const city = citySvg({
        player,
        seat: shown,
        price: next?.price ?? null,
        prices: districtPrices(eco, variant, player.city.districts),
        roads,
        spots,
        destroyable: phase.kind === 'choose_destroyed' && awaited ? new Set(ofType(decisionMoves, 'destroy_building').map((m) => m.tile)) : undefined,
        buyable: mineShown && other ? new Set(ofType(other, 'buy_district').map((m) => m.district)) : undefined,
        buyableSeas: mineShown && other ? new Set(ofType(other, 'buy_sea').map((m) => m.sea)) : undefined,
        on: acts,
      });
      slots.scroller.replaceChildren(h('div', { class: 'bci-zoomed', style: { width: `${Math.round(ui.zoom * 100)}%` } }, city));
    }
    drawOverlay(slots.scroller, at && tool ? { spot: at.spot, building: tool, picked: at.picked } : null, marks);
    slots.tool.replaceChildren(
      tool && mine && building_
        ? toolPanel({
            tool,
            rotation,
            rotations,
            spots: tool === 'road' ? (other ? roads.size : null) : toolMoves ? spots.size : null,
            roadPrice: price(building('road')?.cost ?? 0, variant, owned),
            why: whyNot(paletteStatus(view)(tool)),
            at,
            preview,
            marks,
            dispatch,
            build: (mv) => send(stripPreview(mv)),
          })
        : '',
    );
    if (onlyCity) return;

    el.dataset.phase = phase.kind;
    el.dataset.mine = awaited ? 'yes' : 'no';
    el.dataset.sent = sent ? 'yes' : 'no';
    el.dataset.seat = me === undefined ? '' : String(me);
    el.dataset.shown = String(shown);
    slots.final.replaceChildren(finalPanel(view, state) ?? '');
    const statusSeat = me ?? shown;
    slots.status.replaceChildren(...statusBar(view, statusSeat, state, builds ? endTurnButton(view.players[statusSeat], other, send) : null));
    slots.note.replaceChildren(note(view, state, { me, builds, sent, live }) ?? '');
    slots.decision.replaceChildren(decision({ view, state, moves: decisionMoves, mine: awaited, ui, variant, send, dispatch }) ?? '');
    slots.zoom.replaceChildren(
      h('button', { type: 'button', class: 'small', 'aria-label': t('bci.zoom_out'), title: t('bci.zoom_out'), onclick: () => dispatch({ type: 'zoom', by: 1 / 1.5 }) }, '−'),
      h('button', { type: 'button', class: 'small', 'aria-label': t('bci.zoom_in'), title: t('bci.zoom_in'), onclick: () => dispatch({ type: 'zoom', by: 1.5 }) }, '+'),
      h('span', { class: 'small muted', id: 'bci-shown', 'data-seat': shown }, shown === me ? t('bci.city.yours') : t('bci.city.of', { name: nameOf(state, shown) })),
      me !== undefined && shown !== me && forced === null ? h('button', { type: 'button', class: 'link', id: 'bci-back', onclick: () => dispatch({ type: 'show', seat: null }) }, t('bci.city.back')) : '',
    );
    slots.build.replaceChildren(
      builds
        ? h(
            'div',
            { class: 'bci-build' },
            palette({ book, offer: view.players[/** @type {number} */ (me)].legendary_offer, status: paletteStatus(view), variant, owned: view.players[/** @type {number} */ (me)].city.districts.length, tool, active: true, pick: (id) => dispatch({ type: 'tool', tool: id, minZoom: narrow() ? TOUCH_ZOOM : undefined }) }),
            actions({ player: view.players[/** @type {number} */ (me)], moves: other, variant, send }),
          )
        : '',
    );
    slots.cards.replaceChildren(objectiveCard(view), ...drawnCards(view).filter((x) => x !== null), turnTrack(view));
    slots.mayors.replaceChildren(mayors(view, state, shown, (seat) => dispatch({ type: 'show', seat: seat === me ? null : seat })));
    clock.tick();
  }

  return {
    el,
    render,
    destroy() {
      clock.stop();
      document.removeEventListener('keydown', onKey);
    },
  };
}

/**
 * Why the palette says a building cannot be built now, in words.
 * @param {import('./palette.js').Status | null} status
 */
const whyNot = (status) => (status && !status.can && status.rule ? ruleText(status.rule) : null);

/**
 * A listed tile move as it is sent: its preview stays here.
 * @param {TileMove} mv
 * @returns {Move}
 */
function stripPreview(mv) {
  return { type: 'tile', building: mv.building, rotation: mv.rotation, origin: mv.origin };
}

/**
 * What the seat waits for, in a line: its building phase, the others', its
 * frozen city, the legendary building it may place.
 * @param {View} view
 * @param {BoardState} state
 * @param {{me: number | undefined, builds: boolean, sent: boolean, live: boolean}} o
 */
function note(view, state, o) {
  const phase = view.phase;
  if (phase.kind === 'over') return null;
  const lines = [];
  const me = o.me;
  if (me !== undefined) {
    const p = view.players[me];
    if (p.status === 'frozen') lines.push(t('bci.note.frozen', { round: p.frozen_round ?? view.round }));
    if (p.legendary_offer && phase.kind === 'building') lines.push(t('bci.note.offer', { building: buildingName(p.legendary_offer) }));
  }
  if (phase.kind === 'building') {
    const waiting = state.awaiting.seats.filter((s) => s !== me);
    if (o.builds) lines.push(t('bci.note.build'));
    else if (o.sent) lines.push(t('bci.note.sent'));
    else if (waiting.length) lines.push(t('bci.note.waiting', { names: waiting.map((s) => nameOf(state, s)).join(', ') }));
  }
  if (me === undefined && !state.replay) lines.push(t('bci.note.spectating'));
  if (!lines.length) return null;
  return h('p', { class: 'bci-note', id: 'bci-note' }, lines.join(' '));
}

function ensureStyle() {
  if (document.getElementById('bci-style')) return;
  document.head.append(h('link', { id: 'bci-style', rel: 'stylesheet', href: new URL('./buildingcities.css', import.meta.url).href }));
}
