// The Big City table: the city in SVG (tiles, properties, buildings, streetcars),
// direct placing with highlights from the server's legal moves and a preview of
// the footprint and its score, the hand, the stacks, the supply and opponents' backs.
// This module holds the board together: its state (ui.js), its actions, and
// its parts (city.js, actions.js, trade.js, panels.js) drawn from them.

import { h } from '../../dom.js';
import { initialUI, mine, clearChoices, tileChoices, tileCenter, nearestPlacement, candidatesAt, arrived } from './ui.js';
import { renderCity, drawPreview } from './city.js';
import { renderActions } from './actions.js';
import { renderTrade } from './trade.js';
import { renderStatus, renderFinal, renderHelp, renderHand, renderStacks, renderOthers, renderSupply } from './panels.js';

/**
 * @typedef {import('./types').Move} Move
 * @typedef {import('./types').Piece} Piece
 * @typedef {import('./ui.js').B} B
 * @typedef {import('./ui.js').Mode} Mode
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
  const ui = initialUI();

  /** @type {B} */
  const b = {
    ctx,
    get state() {
      return /** @type {BoardState} */ (current);
    },
    ui,
    els,
    svg: null,
    previewLayer: null,
    send: (mv) => ctx.send(mv),
    renderAll,
    renderActions: () => renderActions(b),
    renderTrade: () => renderTrade(b),
    renderHand: () => renderHand(b),
    renderCity: () => renderCity(b),
    drawPreview: (mv, miss) => drawPreview(b, mv, miss),
    setMode,
    cancel,
    rotate,
    confirm,
    resetSelection,
  };

  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (!current || !root.isConnected) return;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
    if (e.key === 'r' || e.key === 'R') {
      rotate();
      e.preventDefault();
    } else if (e.key === 'Escape') {
      cancel();
    } else if (e.key === 'Enter' && ui.selected) {
      confirm();
    }
  };
  document.addEventListener('keydown', onKey);

  function resetSelection() {
    ui.selected = null;
    ui.anchorProp = null;
    ui.cycle = 0;
  }

  function cancel() {
    clearChoices(b);
    resetSelection();
    renderAll();
  }

  /** @param {Mode} next */
  function setMode(next) {
    ui.mode = next;
    resetSelection();
    ui.cardSel = [];
    ui.passArmed = false;
    if (next === 'tile') {
      const hoods = tileChoices(b);
      if (!hoods.includes(ui.tileN)) ui.tileN = hoods[0] ?? 0;
    }
    renderAll();
  }

  /** Turns the tile being placed, or shows the next footprint under the pointer. */
  function rotate() {
    if (ui.mode === 'tile') {
      const sel = ui.selected;
      const center = sel && sel.type === 'place_neighborhood' ? tileCenter(sel) : null;
      ui.rotation = (ui.rotation + 90) % 360;
      if (center) {
        const next = nearestPlacement(b, center[0], center[1]);
        ui.selected = next ? { type: 'place_neighborhood', ...next } : null;
      }
      renderAll();
    } else if (ui.mode === 'build' && ui.anchorProp !== null) {
      const cands = candidatesAt(b, ui.anchorProp);
      if (cands.length > 1) {
        ui.cycle = (ui.cycle + 1) % cands.length;
        ui.selected = { type: 'build', piece: /** @type {Piece} */ (ui.piece), cells: cands[ui.cycle] };
        renderAll();
      }
    }
  }

  function confirm() {
    if (!ui.selected) return;
    ctx.send(ui.selected);
    resetSelection();
    if (ui.mode === 'build' || ui.mode === 'tile') {
      ui.mode = null;
      ui.piece = null;
    }
    renderAll();
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
      arrived(b, prev, next);
      if (mine(b) && !next.replay && (!next.legal || next.legal.version !== next.version)) ctx.askLegal();
      renderAll();
    },
    destroy() {
      document.removeEventListener('keydown', onKey);
    },
  };
}
