// The lobby before the start: the seats, what was chosen, and the host's
// settings and start button.

import { h, mount } from '../dom.js';
import { t, labelled } from '../i18n.js';
import { gameUI } from '../games/index.js';
import { optionsEditor, setSpeed, timerChoices } from '../widgets.js';
import { formatDuration } from '../countdown.js';
import { seatRange } from '../home.js';
import { mySeat, isHost } from './state.js';

/**
 * @typedef {import('../wire').TableInfo} TableInfo
 * @typedef {import('../wire').TableSettings} TableSettings
 * @typedef {import('../wire').BotLevel} BotLevel
 * @typedef {import('../games/index.js').GameUI} GameUI
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./context.js').TableCtx} TableCtx
 */

/**
 * @param {HTMLElement} el where the lobby goes
 * @param {TableState} state
 * @param {TableCtx} ctx
 * @param {GameUI} ui
 * @param {{seats: HTMLElement, invite: HTMLElement}} panels moved into the lobby card
 */
export function renderLobby(el, state, ctx, ui, panels) {
  const tbl = state.table;
  if (!tbl) return;
  const seated = tbl.seats.filter((s) => s.occupant.kind !== 'empty').length;
  const min = tbl.settings.seats;
  /** @type {(HTMLElement | null)[]} */
  const parts = [];
  parts.push(h('div', { class: 'lobby-head' }, h('h2', null, ui.name()), ui.blurb ? h('p', { class: 'muted' }, ui.blurb()) : null));
  parts.push(panels.seats);
  if (!panels.invite.hidden) parts.push(panels.invite);
  if (mySeat(state) === undefined && tbl.status === 'lobby') {
    const free = !state.spectatorLink && tbl.seats.some((s) => s.occupant.kind === 'empty');
    parts.push(h('p', { class: 'muted' }, free ? t('table.visitor') : t('table.spectating')));
  }
  parts.push(settingsSummary(tbl));
  if (isHost(state) && tbl.status === 'lobby') {
    parts.push(settingsEditor(state, ctx, tbl));
    parts.push(
      h(
        'div',
        { class: 'start-row' },
        h('button', { class: 'primary big', id: 'start-button', disabled: seated < min, onclick: () => ctx.dispatch({ type: 'send', msg: { type: 'start' } }) }, t('table.start')),
        seated < min ? h('p', { class: 'muted small' }, t('table.start_hint', { n: min })) : null,
      ),
    );
  } else {
    parts.push(h('p', { class: 'waiting' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('table.waiting_host')));
  }
  mount(el, h('div', { class: 'card lobby', id: 'lobby' }, parts));
}

/**
 * The host's settings: each change goes to the draft; "apply" sends it.
 * @param {TableState} state
 * @param {TableCtx} ctx
 * @param {TableInfo} tbl
 */
function settingsEditor(state, ctx, tbl) {
  const draft = state.draft ?? tbl.settings;
  /** @param {(d: TableSettings) => void} change */
  const edit = (change) => {
    const next = structuredClone(ctx.state().draft ?? tbl.settings);
    change(next);
    ctx.dispatch({ type: 'draft', settings: next });
  };
  const info = state.info;
  const range = info ? seatRange(info, draft.options) : { min: tbl.settings.seats, max: tbl.settings.seats };
  const seatChoices = [];
  for (let n = range.min; n <= range.max; n++) seatChoices.push(n);
  return h(
    'details',
    {
      class: 'settings',
      id: 'settings',
      open: state.settingsOpen,
      ontoggle: (/** @type {Event} */ e) => ctx.dispatch({ type: 'settings_open', open: /** @type {HTMLDetailsElement} */ (e.target).open }),
    },
    h('summary', null, t('table.settings')),
    h(
      'label',
      { class: 'field' },
      h('span', null, t('home.seats')),
      h(
        'select',
        { id: 'settings-seats', onchange: (/** @type {Event} */ e) => edit((d) => (d.seats = Number(/** @type {HTMLSelectElement} */ (e.target).value))) },
        seatChoices.map((n) => h('option', { value: n, selected: n === draft.seats }, String(n))),
      ),
    ),
    h(
      'fieldset',
      { class: 'variants' },
      h('legend', null, t('home.variants')),
      optionsEditor(tbl.game, structuredClone(draft.options), (o) =>
        edit((d) => {
          d.options = o;
          // Options may narrow the seat count (a solo mode): keep the two coherent.
          if (info) {
            const r = seatRange(info, o);
            d.seats = Math.max(r.min, Math.min(r.max, d.seats));
          }
        }),
      ),
    ),
    h(
      'label',
      { class: 'field' },
      h('span', null, t('home.timer')),
      h(
        'select',
        {
          id: 'settings-timer',
          onchange: (/** @type {Event} */ e) => {
            const v = Number(/** @type {HTMLSelectElement} */ (e.target).value);
            edit((d) => setSpeed(d, v));
          },
        },
        timerChoices().map((c) => h('option', { value: c.value, selected: c.value === (draft.turn_seconds ?? 0) }, c.label)),
      ),
    ),
    standInEditor(draft, edit),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', checked: draft.spectators_allowed, onchange: (/** @type {Event} */ e) => edit((d) => (d.spectators_allowed = /** @type {HTMLInputElement} */ (e.target).checked)) }), t('home.spectators')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', checked: draft.public, onchange: (/** @type {Event} */ e) => edit((d) => (d.public = /** @type {HTMLInputElement} */ (e.target).checked)) }), t('table.public')),
    h('button', { id: 'apply-settings', onclick: () => ctx.dispatch({ type: 'send', msg: { type: 'configure', settings: ctx.state().draft ?? tbl.settings } }) }, t('table.apply_settings')),
  );
}

/**
 * The stand-in: none, or a bot of a level after 1 to 3 missed turns (the
 * server allows up to 5).
 * @param {TableSettings} draft
 * @param {(change: (d: TableSettings) => void) => void} edit
 */
function standInEditor(draft, edit) {
  const standIn = draft.stand_in;
  const level = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      {
        id: 'settings-stand-in-level',
        'aria-label': t('home.stand_in_level'),
        disabled: !standIn,
        onchange: () =>
          edit((d) => {
            if (d.stand_in) d.stand_in.level = /** @type {BotLevel} */ (level.value);
          }),
      },
      ['greedy', 'random'].map((l) => h('option', { value: l, selected: l === (standIn?.level ?? 'greedy') }, t(`bot.${l}`))),
    )
  );
  const misses = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      {
        id: 'settings-stand-in',
        onchange: () => {
          const n = Number(misses.value);
          // The draft changes without redrawing the form: the level follows here.
          level.disabled = n === 0;
          edit((d) => {
            if (n > 0) d.stand_in = { level: /** @type {BotLevel} */ (level.value), after_misses: n };
            else delete d.stand_in;
          });
        },
      },
      [0, 1, 2, 3].map((n) => h('option', { value: n, selected: n === (standIn?.after_misses ?? 0) }, n === 0 ? t('home.stand_in_off') : standInAfter(n))),
    )
  );
  return h('label', { class: 'field' }, h('span', null, t('home.stand_in')), misses, level);
}

/** @param {number} n */
function standInAfter(n) {
  return n === 1 ? t('home.stand_in_after_one') : t('home.stand_in_after', { n });
}

/** @param {import('../wire').StandIn | undefined} standIn */
export function standInText(standIn) {
  if (!standIn) return t('table.no_stand_in');
  return t('table.stand_in_summary', { level: t(`bot.${standIn.level}`), when: standInAfter(standIn.after_misses).toLowerCase() });
}

/** @param {TableInfo} tbl */
function settingsSummary(tbl) {
  const ui = gameUI(tbl.game);
  const fields = ui?.optionFields?.(tbl.settings.options) ?? [];
  const options = tbl.settings.options ?? {};
  /** @param {import('../games/index.js').OptionField} f */
  const read = (f) => (f.get ? f.get(options) : options[f.key]);
  const on = fields.filter((f) => f.kind === 'bool' && read(f)).map((f) => f.label);
  for (const f of fields) {
    const v = read(f);
    if (f.kind === 'number' && typeof v === 'number') on.push(`${labelled(f.label)}${v}`);
    if (f.kind === 'choice') on.push(`${labelled(f.label)}${f.choices?.find((c) => c.value === String(v ?? ''))?.label ?? v}`);
  }
  const timer = timerChoices().find((c) => c.value === (tbl.settings.turn_seconds ?? 0))?.label ?? `${tbl.settings.turn_seconds} s`;
  return h(
    'ul',
    { class: 'summary', id: 'settings-summary' },
    h('li', null, `${labelled(t('home.seats'))}${tbl.settings.seats}`),
    h('li', { id: 'timer-summary' }, `${t('home.timer')}: ${timer}`, tbl.settings.time_bank_seconds ? ` · ${t('table.bank_summary', { time: formatDuration(tbl.settings.time_bank_seconds * 1000) })}` : ''),
    h('li', { id: 'stand-in-summary' }, standInText(tbl.settings.stand_in)),
    fields.length ? h('li', null, `${t('home.variants')}: ${on.length ? on.join('; ') : t('table.no_variant')}`) : null,
    h('li', null, tbl.settings.spectators_allowed ? t('home.spectators') : t('table.no_spectators')),
    h('li', null, tbl.settings.public ? t('table.public') : t('table.private')),
  );
}
