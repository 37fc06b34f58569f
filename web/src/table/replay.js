// The replay of a finished game: an overlay with the game's board, a slider and
// step buttons. Its position lives in the table state (`replay`); this module
// draws it and plays it on.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { gameUI } from '../games/index.js';
import { replayViews, seatViews } from '../replay.js';
import { replayName, seatColor, safe } from './names.js';
import { initialState, reduce } from './state.js';
import * as api from '../api.js';
import { commitmentCheck, seenCommitment } from '../fairness.js';
import { currentLang } from '../i18n.js';
import { errText } from '../messages.js';

/**
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./state.js').ReplayState} ReplayState
 * @typedef {import('./context.js').TableCtx} TableCtx
 * @typedef {import('../games/index.js').GameUI} GameUI
 * @typedef {import('../games/index.js').SeatLook} SeatLook
 * @typedef {import('../wire').GameRecord} GameRecord
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
      const ui = replay ? gameUI(replay.record.game) : undefined;
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
  // Whose view is shown: the public one (undefined) or a seat's, hand included,
  // where the game's board shows it.
  const seatViewAt = ui.replaySeats ? seatViews(record) : null;
  /** @type {number | undefined} */
  let seenBy;
  const last = record.patches.length;
  const step = () => ctx.state().replay?.step ?? 0;
  /** @param {number} i */
  const go = (i) => ctx.dispatch({ type: 'replay_show', step: i });
  const caption = h('p', { class: 'replay-caption', id: 'replay-caption' });
  const counter = h('span', { class: 'replay-counter', id: 'replay-counter' });
  const slider = /** @type {HTMLInputElement} */ (h('input', { type: 'range', min: 0, max: last, value: first.step, id: 'replay-slider', oninput: () => go(Number(slider.value)) }));
  const playBtn = h('button', { id: 'replay-play', onclick: () => ctx.dispatch({ type: 'replay_play', playing: !ctx.state().replay?.playing }), 'aria-label': t('table.replay_play') }, '▶');
  const close = () => ctx.dispatch({ type: 'replay_close' });
  const download = recordFile(record);
  const seenBySelect = seatViewAt
    ? /** @type {HTMLSelectElement} */ (
        h(
          'select',
          {
            id: 'replay-seen-by',
            'aria-label': t('table.replay_as'),
            onchange: (/** @type {Event} */ e) => {
              const value = /** @type {HTMLSelectElement} */ (e.target).value;
              seenBy = value === '' ? undefined : Number(value);
              shownStep = -1;
              self.show(self.replay);
            },
          },
          h('option', { value: '' }, t('table.replay_as_everyone')),
          ...looks.map((l) => h('option', { value: String(l.seat) }, l.name)),
        )
      )
    : null;
  const overlay = h(
    'div',
    { class: 'overlay', id: 'replay' },
    h(
      'div',
      { class: 'overlay-inner card' },
      h(
        'div',
        { class: 'replay-bar' },
        h('h2', null, t('table.replay')),
        h('a', { id: 'replay-download', class: 'button', href: download.href, download: download.name }, t('table.replay_download')),
        h('button', { id: 'replay-close', onclick: close }, t(ctx.standalone ? 'table.home' : 'table.replay_close')),
      ),
      h(
        'div',
        { class: 'replay-controls' },
        h('button', { id: 'replay-first', onclick: () => go(0), 'aria-label': t('table.replay_first') }, '|◀'),
        h('button', { id: 'replay-prev', onclick: () => go(step() - 1), 'aria-label': t('table.replay_prev') }, '◀'),
        playBtn,
        h('button', { id: 'replay-next', onclick: () => go(step() + 1), 'aria-label': t('table.replay_next') }, '▶▶'),
        slider,
        counter,
        seenBySelect ? h('label', { class: 'replay-seen-by' }, t('table.replay_as'), ' ', seenBySelect) : null,
      ),
      caption,
      board.el,
      fairPanel(record),
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
        view: seatViewAt && seenBy !== undefined ? seatViewAt(seenBy, viewAt(r.step), r.step) : viewAt(r.step),
        version: r.step,
        awaiting: { seats: [] },
        outcome: r.step === last ? record.outcome : undefined,
        mySeat: seenBy,
        legal: null,
        seats: looks,
        replay: true,
        options: record.options,
      });
    },
    close() {
      if (playing) clearInterval(playing);
      document.removeEventListener('keydown', onKey);
      URL.revokeObjectURL(download.href);
      board.destroy?.();
      overlay.remove();
    },
  };
  self.show(first);
  return self;
}

/**
 * What makes the record's shuffles provably fair, checked: its revealed seed
 * against the commitment shown at the start (here, in the page), whether this
 * browser was shown that commitment, and the replay of the seed with the
 * record's moves (by the server, as `citytable verify` does).
 * @param {GameRecord} record
 */
function fairPanel(record) {
  const sealed = commitmentCheck(record);
  const line = (/** @type {string} */ id, /** @type {string} */ result, /** @type {string} */ text) =>
    h('p', { id, 'data-result': result, class: `fair-line fair-${result}` }, text);
  const commitmentLine = line(
    'fair-commitment',
    sealed,
    t(`fair.commitment_${sealed}`, { short: (record.commitment ?? '').slice(0, 16) }),
  );
  const seen = record.commitment ? seenCommitment(record.commitment) : undefined;
  const seenLine = seen ? line('fair-seen', 'matches', t('fair.seen', { date: new Date(seen.at).toLocaleString(currentLang()) })) : null;
  const replayLine = line('fair-replay', 'checking', t('fair.replay_checking'));
  api.verifyRecord(record).then(
    (check) => {
      const r = check.replay;
      const result = r.result === 'matches' ? 'matches' : 'differs';
      replayLine.dataset.result = result;
      replayLine.className = `fair-line fair-${result}`;
      replayLine.textContent =
        r.result === 'matches'
          ? t('fair.replay_matches', { n: r.entries })
          : r.result === 'refused'
            ? t('fair.replay_refused', { i: r.entry + 1 })
            : r.result === 'view_differs'
              ? r.seat === undefined
                ? t('fair.replay_view_differs', { i: r.step })
                : t('fair.replay_seat_view_differs', { i: r.step, name: replayName(record.names[r.seat] ?? '', r.seat) })
              : t(`fair.replay_${r.result}`);
    },
    (err) => {
      replayLine.dataset.result = 'failed';
      replayLine.className = 'fair-line fair-failed';
      replayLine.textContent = t('fair.replay_failed', { why: errText(err) });
    },
  );
  return h(
    'section',
    { class: 'replay-fair', id: 'replay-fair' },
    h('h3', null, t('fair.title')),
    commitmentLine,
    seenLine,
    replayLine,
    h('p', { class: 'small muted' }, t('fair.cli')),
  );
}

/**
 * The record as one JSON file to save: its address and a name saying the game.
 * @param {GameRecord} record
 */
function recordFile(record) {
  const blob = new Blob([JSON.stringify(record)], { type: 'application/json' });
  const names = record.names.map((n) => n.replace(/[^\p{L}\p{N}]+/gu, '')).filter(Boolean).join('-');
  return { href: URL.createObjectURL(blob), name: `citytable-${record.game}${names ? `-${names}` : ''}.json` };
}

/**
 * A game record read from a file, if it is one this page can show: its game is
 * known and its log, views and names agree.
 * @param {unknown} data
 * @returns {GameRecord | null}
 */
export function asRecord(data) {
  const r = /** @type {any} */ (data);
  const ok =
    r &&
    typeof r === 'object' &&
    typeof r.game === 'string' &&
    gameUI(r.game) !== undefined &&
    Array.isArray(r.names) &&
    r.names.every((/** @type {unknown} */ n) => typeof n === 'string') &&
    Array.isArray(r.entries) &&
    Array.isArray(r.patches) &&
    r.patches.length === r.entries.length &&
    r.patches.every((/** @type {unknown} */ p) => Array.isArray(p)) &&
    r.first_view !== null &&
    typeof r.first_view === 'object' &&
    (r.seat_views === undefined ||
      (Array.isArray(r.seat_views) &&
        r.seat_views.length === r.names.length &&
        r.seat_views.every(
          (/** @type {any} */ v) => v && typeof v === 'object' && 'first' in v && Array.isArray(v.patches) && v.patches.length === r.entries.length && v.patches.every((/** @type {unknown} */ p) => Array.isArray(p)),
        )));
  if (!ok) return null;
  try {
    // Every step's view must build: a patch that does not apply is not a record.
    // The last view is built through every patch, a seat's too.
    const last = r.patches.length;
    const lastView = replayViews(r)(last);
    const seatViewAt = seatViews(r);
    r.names.forEach((/** @type {string} */ _, /** @type {number} */ seat) => seatViewAt?.(seat, lastView, last));
  } catch {
    return null;
  }
  return /** @type {GameRecord} */ (r);
}

/**
 * Shows a record outside any table (read from a file); closing it calls `done`.
 * @param {GameRecord} record
 * @param {() => void} done
 * @returns {() => void} closes it
 */
export function showRecord(record, done) {
  /** @type {TableState} */
  let state = initialState('');
  /** @type {TableCtx} */
  const ctx = {
    state: () => state,
    dispatch: (action) => {
      state = reduce(state, action);
      overlay.render(state);
      if (!state.replay) done();
    },
    send: () => false,
    go: () => {},
    openReplay: () => {},
    standalone: true,
  };
  const overlay = replayOverlay(ctx);
  ctx.dispatch({ type: 'replay_open', record });
  return () => overlay.close();
}

/**
 * @param {GameUI} ui
 * @param {any} entry an engine::Entry: {move: {seat, mv}}, {timeout: {period}} or {undo: {seat}}
 * @param {SeatLook[]} looks
 */
function describeEntry(ui, entry, looks) {
  if (entry && entry.move) {
    const said = safe(() => ui.describeMove(entry.move.mv, entry.move.seat, looks)) ?? '';
    // A move the table's stand-in bot made for an absent player says so.
    return entry.move.stand_in ? `${said} ${t('table.by_stand_in', { name: looks[entry.move.seat]?.name ?? '' })}` : said;
  }
  if (entry && entry.timeout) return t('table.timed_out');
  if (entry && entry.undo) return t('table.undone', { name: looks[entry.undo.seat]?.name ?? '' });
  return '';
}
