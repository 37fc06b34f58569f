// Small pieces shared by the home and table pages.

import { h } from './dom.js';
import { t, has } from './i18n.js';
import { getName, setName } from './store.js';
import { gameUI } from './games/index.js';

/** Characters of a display name (the server's `MAX_NAME_CHARS`). */
export const MAX_NAME = 24;

/**
 * The display-name form.
 * @param {(name: string) => void} done
 * @param {string} [current]
 */
export function nameForm(done, current = getName()) {
  const input = /** @type {HTMLInputElement} */ (
    h('input', { id: 'name-input', maxlength: MAX_NAME, value: current, placeholder: t('name.placeholder'), autocomplete: 'nickname', required: true })
  );
  setTimeout(() => input.focus(), 0);
  return h(
    'form',
    {
      class: 'name-form',
      id: 'name-form',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const name = input.value.trim().slice(0, MAX_NAME);
        if (!name) return;
        setName(name);
        done(name);
      },
    },
    h('label', { for: 'name-input' }, t('name.title')),
    h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'primary', id: 'name-save' }, t('name.save'))),
  );
}

/** Turn timer choices in seconds (0: none). */
export function timerChoices() {
  return [0, 30, 60, 120, 300, 3600, 12 * 3600, 86_400, 3 * 86_400].map((n) => ({
    value: n,
    label:
      n === 0
        ? t('home.timer_none')
        : n < 60
          ? t('home.timer_s', { n })
          : n < TURN_BASED_FROM
            ? t('home.timer_min', { n: n / 60 })
            : n < 86_400
              ? t('home.timer_h', { n: n / 3600 })
              : t('home.timer_d', { n: n / 86_400 }),
  }));
}

/** A turn timer of an hour or more makes a turn-based table, with a time bank. */
const TURN_BASED_FROM = 3600;

/**
 * Sets a table's speed from a timer choice: none, a live turn timer, or a
 * turn-based one with a reserve of two turns' time (each turn's unused time
 * refills it, up to that).
 * @param {import('./wire').TableSettings} settings changed in place
 * @param {number} seconds
 */
export function setSpeed(settings, seconds) {
  if (seconds > 0) settings.turn_seconds = seconds;
  else delete settings.turn_seconds;
  if (seconds >= TURN_BASED_FROM) settings.time_bank_seconds = 2 * seconds;
  else delete settings.time_bank_seconds;
}

/**
 * An editor for a game's options (variants). Games may describe their fields;
 * otherwise booleans become checkboxes and numbers number inputs.
 * @param {string} gameId
 * @param {any} options
 * @param {(options: any) => void} onChange
 * @param {boolean} [disabled]
 */
export function optionsEditor(gameId, options, onChange, disabled = false) {
  const ui = gameUI(gameId);
  const value = structuredClone(options ?? {});
  /** @type {import('./games/index.js').OptionField[]} */
  const fields = ui?.optionFields
    ? ui.optionFields(value)
    : Object.entries(value)
        .filter(([, v]) => typeof v === 'boolean' || typeof v === 'number')
        .map(([key, v]) => ({
          key,
          kind: typeof v === 'boolean' ? 'bool' : 'number',
          label: has(`opt.${gameId}.${key}`) ? t(`opt.${gameId}.${key}`) : key.replace(/_/g, ' '),
        }));
  if (fields.length === 0) return h('p', { class: 'muted small' }, t('home.no_variants'));
  /** @param {import('./games/index.js').OptionField} f */
  const read = (f) => (f.get ? f.get(value) : value[f.key]);
  /**
   * @param {import('./games/index.js').OptionField} f
   * @param {any} v
   */
  const write = (f, v) => {
    if (f.set) f.set(value, v);
    else value[f.key] = v;
    onChange(structuredClone(value));
  };
  /**
   * @param {import('./games/index.js').OptionField} f
   * @param {HTMLElement} field
   */
  const withHint = (f, field) => (f.hint ? h('div', { class: 'option' }, field, h('small', { class: 'muted option-hint', 'data-hint': f.key }, f.hint)) : field);
  return h(
    'div',
    { class: 'options' },
    fields.map((f) => {
      if (f.kind === 'bool') {
        return withHint(
          f,
          h(
            'label',
            { class: 'check' },
            h('input', {
              type: 'checkbox',
              'data-option': f.key,
              checked: Boolean(read(f)),
              disabled,
              onchange: (/** @type {Event} */ e) => write(f, /** @type {HTMLInputElement} */ (e.target).checked),
            }),
            f.label,
          ),
        );
      }
      if (f.kind === 'choice') {
        const current = String(read(f) ?? '');
        return withHint(
          f,
          h(
            'label',
            { class: 'field' },
            h('span', null, f.label),
            h(
              'select',
              {
                'data-option': f.key,
                disabled,
                onchange: (/** @type {Event} */ e) => write(f, /** @type {HTMLSelectElement} */ (e.target).value),
              },
              (f.choices ?? []).map((c) => h('option', { value: c.value, selected: c.value === current }, c.label)),
            ),
          ),
        );
      }
      return withHint(
        f,
        h(
          'label',
          { class: 'field' },
          h('span', null, f.label),
          h('input', {
            type: 'number',
            'data-option': f.key,
            value: read(f) ?? '',
            min: f.min,
            max: f.max,
            step: f.step,
            disabled,
            onchange: (/** @type {Event} */ e) => {
              const raw = /** @type {HTMLInputElement} */ (e.target).value;
              write(f, f.get && raw === '' ? '' : Number(raw));
            },
          }),
        ),
      );
    }),
  );
}
