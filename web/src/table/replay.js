// The replay of a finished game: an overlay with the game's board, a slider and
// step buttons. Its position lives in the table state (`replay`); this module
// draws it and plays it on.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { gameUI } from '../games/index.js';
import { replayViews } from '../replay.js';
import { replayName, seatColor, safe } from './names.js';

/**
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./state.js').ReplayState} ReplayState
 * @typedef {import('./context.js').TableCtx} TableCtx
 * @typedef {import('../games/index.js').GameUI} GameUI
 * @typedef {import('../games/index.js').SeatLook} SeatLook
 */

/** Milliseconds between steps when playing. */
const PLAY_STEP_MS = 900;

/**
 * @param {TableCtx} ctx
 * @returns {{render: (state: TableState) => void, close: () => void}}
 */
export function replayOverlay(ctx) {
  /** @type {{replay: ReplayState, overlay: HTMLElement, show: (r: ReplayState) => void, close: () => void} | null} */
  let open = null;
  return {
    render(state) {
      const replay = state.replay;
      if (open && open.replay.record !== replay?.record) {
        open.close();
        open = null;
      }
      const ui = state.table ? gameUI(state.table.game) : undefined;
      if (!replay || !ui) return;
      if (!open) open = create(ctx, ui, replay);
      if (open.replay !== replay) open.show(replay);
    },
    close() {
      open?.close();
      open = null;
    },
  };
}

/**
 * @param {TableCtx} ctx
 * @param {GameUI} ui
 * @param {ReplayState} first
 */
function create(ctx, ui, first) {
  const record = first.record;
  const looks = record.names.map((name, seat) => ({ seat, name: replayName(name, seat), color: seatColor(seat) }));
  const board = ui.createBoard({ send: () => {}, askLegal: () => {}, warn: () => {} });
  const viewAt = replayViews(record);
  const last = record.patches.length;
  const step = () => ctx.state().replay?.step ?? 0;
  /** @param {number} i */
  const go = (i) => ctx.dispatch({ type: 'replay_show', step: i });
  const caption = h('p', { class: 'replay-caption', id: 'replay-caption' });
  const counter = h('span', { class: 'replay-counter', id: 'replay-counter' });
  const slider = /** @type {HTMLInputElement} */ (h('input', { type: 'range', min: 0, max: last, value: first.step, id: 'replay-slider', oninput: () => go(Number(slider.value)) }));
  const playBtn = h('button', { id: 'replay-play', onclick: () => ctx.dispatch({ type: 'replay_play', playing: !ctx.state().replay?.playing }), 'aria-label': t('table.replay_play') }, '▶');
  const close = () => ctx.dispatch({ type: 'replay_close' });
  const overlay = h(
    'div',
    { class: 'overlay', id: 'replay' },
    h(
      'div',
      { class: 'overlay-inner card' },
      h('div', { class: 'replay-bar' }, h('h2', null, t('table.replay')), h('button', { id: 'replay-close', onclick: close }, t('table.replay_close'))),
      h(
        'div',
        { class: 'replay-controls' },
        h('button', { id: 'replay-first', onclick: () => go(0), 'aria-label': t('table.replay_first') }, '|◀'),
        h('button', { id: 'replay-prev', onclick: () => go(step() - 1), 'aria-label': t('table.replay_prev') }, '◀'),
        playBtn,
        h('button', { id: 'replay-next', onclick: () => go(step() + 1), 'aria-label': t('table.replay_next') }, '▶▶'),
        slider,
        counter,
      ),
      caption,
      board.el,
    ),
  );
  document.body.append(overlay);
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    // The focused slider moves itself on arrow keys (and says so through oninput).
    if (e.target === slider && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) return;
    if (e.key === 'ArrowRight') go(step() + 1);
    else if (e.key === 'ArrowLeft') go(step() - 1);
    else if (e.key === 'Escape') close();
  };
  document.addEventListener('keydown', onKey);
  /** @type {ReturnType<typeof setInterval> | null} */
  let playing = null;
  let shownStep = -1;
  const self = {
    replay: first,
    overlay,
    /** @param {ReplayState} r */
    show(r) {
      self.replay = r;
      if (r.playing && !playing) {
        playing = setInterval(() => {
          const now = ctx.state().replay;
          if (!now) return;
          if (now.step >= last) ctx.dispatch({ type: 'replay_play', playing: false });
          else go(now.step + 1);
        }, PLAY_STEP_MS);
      } else if (!r.playing && playing) {
        clearInterval(playing);
        playing = null;
      }
      playBtn.textContent = r.playing ? '❚❚' : '▶';
      if (shownStep === r.step) return;
      shownStep = r.step;
      slider.value = String(r.step);
      counter.textContent = t('table.replay_step', { i: r.step, n: last });
      const entry = r.step > 0 ? record.entries[r.step - 1] : null;
      caption.textContent = entry ? describeEntry(ui, entry, looks) : '';
      board.render({
        view: viewAt(r.step),
        version: r.step,
        awaiting: { seats: [] },
        outcome: r.step === last ? record.outcome : undefined,
        mySeat: undefined,
        legal: null,
        seats: looks,
        replay: true,
        options: record.options,
      });
    },
    close() {
      if (playing) clearInterval(playing);
      document.removeEventListener('keydown', onKey);
      board.destroy?.();
      overlay.remove();
    },
  };
  self.show(first);
  return self;
}

/**
 * @param {GameUI} ui
 * @param {any} entry an engine::Entry: {move: {seat, mv}} or {timeout: {period}}
 * @param {SeatLook[]} looks
 */
function describeEntry(ui, entry, looks) {
  if (entry && entry.move) return safe(() => ui.describeMove(entry.move.mv, entry.move.seat, looks)) ?? '';
  if (entry && entry.timeout) return t('table.timed_out');
  return '';
}
