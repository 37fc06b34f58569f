// The Big City table: the city in SVG (tiles, properties, buildings, streetcars),
// direct placing with highlights from the server's legal moves and a preview of
// the footprint and its score, the hand, the stacks, the supply and opponents' backs.
// This module holds the board together: the player's choices (choices.js: one
// value, changed only by `reduceUI`), the actions the parts dispatch, what they
// ask done (moves sent, warnings, the pass timer), and the parts (city.js,
// actions.js, trade.js, panels.js) redrawn from them.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { initialUI, choiceCtx, reduceUI, differs } from './choices.js';
import { renderCity, drawPreview } from './city.js';
import { renderActions } from './actions.js';
import { renderTrade } from './trade.js';
import { renderStatus, renderFinal, renderHelp, renderHand, renderStacks, renderOthers, renderSupply } from './panels.js';

/**
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Piece} Piece
 * @typedef {import('./ui.js').B} B
 * @typedef {import('./choices.js').UIAction} UIAction
 * @typedef {import('./choices.js').ChoiceCtx} ChoiceCtx
 * @typedef {import('../index.js').BoardState} BoardState
 * @typedef {import('../index.js').BoardCtx} BoardCtx
 * @typedef {import('../index.js').Board} Board
 */

/**
 * @param {BoardCtx} ctx
 * @returns {Board}
 */
export function createBigCityBoard(ctx) {
  const root = h('div', { class: 'bc' });
  const els = {
    root,
    status: h('div', { class: 'bc-status', id: 'bc-status' }),
    city: h('div', { class: 'bc-city', id: 'bc-city' }),
    actions: h('div', { class: 'bc-actions', id: 'bc-actions' }),
    hand: h('section', { class: 'bc-hand', id: 'bc-hand' }),
    stacks: h('section', { class: 'bc-stacks', id: 'bc-stacks' }),
    supply: h('section', { class: 'bc-supply', id: 'bc-supply' }),
    others: h('section', { class: 'bc-others', id: 'bc-others' }),
    trade: h('section', { class: 'bc-trade', id: 'bc-trade' }),
    final: h('section', { class: 'bc-final', id: 'bc-final' }),
    help: /** @type {HTMLDetailsElement} */ (h('details', { class: 'bc-help', id: 'bc-help' })),
  };
  root.append(
    els.status,
    h('div', { class: 'bc-play' }, els.final, els.city, els.actions, els.trade, els.hand),
    h('div', { class: 'bc-side' }, els.stacks, els.others, els.supply, els.help),
  );

  /** @type {BoardState | null} */
  let current = null;
  let ui = initialUI();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let passTimer;
  // What the choices depend on, worked out once for each state.
  /** @type {BoardState | null} */
  let ctxOf = null;
  /** @type {ChoiceCtx | null} */
  let choices = null;
  const c = () => {
    if (!choices || ctxOf !== current) {
      choices = choiceCtx(/** @type {BoardState} */ (current));
      ctxOf = current;
    }
    return choices;
  };

  /** @type {B} */
  const b = {
    ctx,
    get state() {
      return /** @type {BoardState} */ (current);
    },
    get c() {
      return c();
    },
    get ui() {
      return ui;
    },
    els,
    svg: null,
    previewLayer: null,
    dispatch,
    send: (mv) => ctx.send(mv),
    renderAll,
    renderActions: () => renderActions(b),
    renderTrade: () => renderTrade(b),
    renderHand: () => renderHand(b),
    renderCity: () => renderCity(b),
    drawPreview: (mv, miss) => drawPreview(b, mv, miss),
  };

  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (!current || !root.isConnected) return;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
    if (e.key === 'r' || e.key === 'R') {
      dispatch({ type: 'rotate' });
      e.preventDefault();
    } else if (e.key === 'Escape') {
      dispatch({ type: 'cancel' });
    } else if (e.key === 'Enter' && ui.selected) {
      dispatch({ type: 'confirm' });
    }
  };
  document.addEventListener('keydown', onKey);

  /**
   * The choices after `action`, with what they ask done (moves sent, warnings,
   * the pass button's timer).
   * @param {UIAction} action
   */
  function apply(action) {
    const next = reduceUI(ui, action, c());
    ui = next.effects.length ? { ...next, effects: [] } : next;
    for (const effect of next.effects) {
      if (effect.type === 'send') ctx.send(effect.mv);
      else if (effect.type === 'warn') ctx.warn(t(effect.key, effect.args));
      else {
        clearTimeout(passTimer);
        passTimer = effect.start ? setTimeout(() => dispatch({ type: 'disarm_pass' }), 4000) : undefined;
      }
    }
    return next;
  }

  /**
   * An action of the player: the choices change, and what shows them is redrawn.
   * @param {UIAction} action
   */
  function dispatch(action) {
    if (!current) return;
    const prev = ui;
    const next = apply(action);
    if (!differs(prev, next)) return;
    switch (action.type) {
      case 'hover':
        // The pointer's property shows at the next redraw.
        return;
      case 'zoom':
        renderCity(b);
        return;
      case 'toggle_card':
        renderActions(b);
        renderTrade(b);
        renderHand(b);
        return;
      case 'toggle_wanted':
      case 'disarm_pass':
        renderActions(b);
        return;
      case 'press_pass':
        if (next.passArmed) renderActions(b);
        return;
      case 'toggle_pick':
        renderTrade(b);
        return;
      case 'click_prop':
      case 'click_segment':
      case 'click_tile_spot':
        // A click on the selected tile turns it: all is redrawn.
        if (next.rotation !== prev.rotation) renderAll();
        else {
          renderActions(b);
          drawPreview(b, null);
        }
        return;
      case 'send_exchange':
      case 'send_offer':
      case 'send_answer':
      case 'send_accept':
        // The server's answer redraws the board.
        return;
      default:
        renderAll();
    }
  }

  function renderAll() {
    if (!current) return;
    renderFinal(b);
    renderHelp(b);
    renderStatus(b);
    renderCity(b);
    renderActions(b);
    renderTrade(b);
    renderHand(b);
    renderStacks(b);
    renderOthers(b);
    renderSupply(b);
  }

  return {
    el: root,
    render(next) {
      const prev = current;
      current = next;
      apply({ type: 'arrived', prev: prev ? prev.version : null, now: performance.now() });
      if (c().mine && !next.replay && (!next.legal || next.legal.version !== next.version)) ctx.askLegal();
      renderAll();
    },
    destroy() {
      document.removeEventListener('keydown', onKey);
      clearTimeout(passTimer);
    },
  };
}
