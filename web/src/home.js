// The home page: display name, create a table, join with a code, public tables.

import { h, mount, toast } from './dom.js';
import { t } from './i18n.js';
import * as api from './api.js';
import { asRecord, showRecord } from './table/replay.js';
import { errText } from './messages.js';
import { getName, setName, setToken, keptSeats } from './store.js';
import { gameUI } from './games/index.js';
import { MAX_NAME, nameForm, optionsEditor, setSpeed, timerChoices } from './widgets.js';
import { pieceBadge } from './games/bigcity/art.js';
import { SEAT_COLORS } from './games/index.js';

/**
 * @typedef {import('./wire').GameInfo} GameInfo
 * @typedef {import('./wire').TableSettings} TableSettings
 */

/**
 * @param {HTMLElement} root
 * @param {(path: string) => void} go
 * @returns {() => void} cleanup
 */
export function showHome(root, go) {
  /** @type {GameInfo[]} */
  let games = [];
  const createBox = h('section', { class: 'card create', id: 'create' }, h('h2', null, t('home.create')));
  const joinBox = h('section', { class: 'card join', id: 'join' });
  const listBox = h('section', { class: 'card public', id: 'public-tables' });
  const recordBox = h('section', { class: 'card record', id: 'record' });
  const nameBox = h('section', { class: 'card name-card', id: 'name-card' });
  // The tables this browser holds seats at, a page of their own.
  const kept = keptSeats(Infinity).length;
  const mineBox = kept
    ? h('section', { class: 'card mine', id: 'my-tables-card' }, h('button', { class: 'primary', id: 'my-tables-link', onclick: () => go('/mine') }, t('mine.open', { n: kept })))
    : null;

  mount(
    root,
    h(
      'div',
      { class: 'home' },
      h('div', { class: 'hero' }, h('p', { class: 'tagline' }, t('app.tagline')), skyline()),
      nameBox,
      h('div', { class: 'home-grid' }, createBox, h('div', { class: 'home-side' }, mineBox, joinBox, listBox, recordBox)),
    ),
  );

  const renderName = () => {
    const name = getName();
    if (!name) {
      mount(nameBox, nameForm(() => renderName()));
      nameBox.classList.add('needed');
    } else {
      nameBox.classList.remove('needed');
      mount(
        nameBox,
        h(
          'p',
          { class: 'playing-as' },
          t('name.playing_as', { name }),
          ' ',
          h('button', { class: 'link', id: 'change-name', onclick: () => mount(nameBox, nameForm(() => renderName(), name)) }, t('name.change')),
        ),
      );
    }
  };
  renderName();

  // Join with a code or a pasted link.
  const codeInput = /** @type {HTMLInputElement} */ (
    h('input', { id: 'join-code', placeholder: t('home.join_placeholder'), autocomplete: 'off', 'aria-label': t('home.join_placeholder') })
  );
  mount(
    joinBox,
    h('h2', null, t('home.join')),
    h(
      'form',
      {
        class: 'row',
        onsubmit: async (/** @type {Event} */ e) => {
          e.preventDefault();
          const raw = codeInput.value.trim();
          const code = raw.includes('/t/') ? raw.split('/t/')[1].split(/[?#/]/)[0] : raw;
          if (!code) return;
          try {
            await api.lookupCode(code);
            go(`/t/${encodeURIComponent(code)}`);
          } catch (err) {
            toast(err instanceof api.ApiError && err.status === 404 ? t('home.bad_code') : errText(err));
          }
        },
      },
      codeInput,
      h('button', { type: 'submit', class: 'primary' }, t('home.join_button')),
    ),
  );

  // Watch a game record kept from a replay.
  /** @type {(() => void) | null} */
  let closeRecord = null;
  const recordInput = /** @type {HTMLInputElement} */ (
    h('input', {
      type: 'file',
      id: 'record-file',
      accept: '.json,application/json',
      'aria-label': t('home.record'),
      onchange: async () => {
        const file = recordInput.files?.[0];
        recordInput.value = '';
        if (!file) return;
        let record = null;
        try {
          record = asRecord(JSON.parse(await file.text()));
        } catch {
          // not JSON
        }
        if (!record) {
          toast(t('home.record_bad'));
          return;
        }
        closeRecord?.();
        closeRecord = showRecord(record, () => (closeRecord = null));
      },
    })
  );
  mount(recordBox, h('h2', null, t('home.record')), h('p', { class: 'muted' }, t('home.record_hint')), recordInput);

  // Create a table.
  /** @type {TableSettings} */
  let settings = { seats: 2, options: {}, spectators_allowed: true, public: false };
  let gameId = '';
  const form = h('form', { class: 'create-form', id: 'create-form' });
  createBox.append(form);

  const renderForm = () => {
    const info = games.find((g) => g.id === gameId);
    if (!info) {
      mount(form, h('p', { class: 'muted' }, '…'));
      return;
    }
    const range = seatRange(info, settings.options);
    const seatOptions = [];
    for (let n = range.min; n <= range.max; n++) seatOptions.push(n);
    mount(
      form,
      h(
        'label',
        { class: 'field' },
        h('span', null, t('home.game')),
        h(
          'select',
          {
            id: 'game-select',
            onchange: (/** @type {Event} */ e) => {
              gameId = /** @type {HTMLSelectElement} */ (e.target).value;
              resetSettings();
              renderForm();
            },
          },
          games.map((g) => h('option', { value: g.id, selected: g.id === gameId }, gameUI(g.id)?.name() ?? g.name)),
        ),
      ),
      h(
        'label',
        { class: 'field' },
        h('span', null, t('home.seats')),
        h(
          'select',
          {
            id: 'seats-select',
            onchange: (/** @type {Event} */ e) => {
              settings.seats = Number(/** @type {HTMLSelectElement} */ (e.target).value);
            },
          },
          seatOptions.map((n) => h('option', { value: n, selected: n === settings.seats }, String(n))),
        ),
      ),
      h(
        'fieldset',
        { class: 'variants' },
        h('legend', null, t('home.variants')),
        optionsEditor(gameId, settings.options, (o) => {
          settings.options = o;
          // Options may narrow the seat count (a solo mode): keep the two coherent.
          const r = seatRange(info, o);
          const seats = Math.max(r.min, Math.min(r.max, settings.seats));
          if (seats !== settings.seats || r.min !== range.min || r.max !== range.max) {
            settings.seats = seats;
            renderForm();
          }
        }),
      ),
      h(
        'label',
        { class: 'field' },
        h('span', null, t('home.timer')),
        h(
          'select',
          {
            id: 'timer-select',
            onchange: (/** @type {Event} */ e) => {
              setSpeed(settings, Number(/** @type {HTMLSelectElement} */ (e.target).value));
            },
          },
          timerChoices().map((c) => h('option', { value: c.value, selected: c.value === (settings.turn_seconds ?? 0) }, c.label)),
        ),
      ),
      h(
        'label',
        { class: 'check' },
        h('input', {
          type: 'checkbox',
          id: 'spectators-check',
          checked: settings.spectators_allowed,
          onchange: (/** @type {Event} */ e) => (settings.spectators_allowed = /** @type {HTMLInputElement} */ (e.target).checked),
        }),
        t('home.spectators'),
      ),
      h(
        'label',
        { class: 'check' },
        h('input', {
          type: 'checkbox',
          id: 'public-check',
          checked: settings.public,
          onchange: (/** @type {Event} */ e) => (settings.public = /** @type {HTMLInputElement} */ (e.target).checked),
        }),
        t('home.public'),
      ),
      h('button', { type: 'submit', class: 'primary big', id: 'create-button' }, t('home.create_button')),
    );
  };

  const resetSettings = () => {
    const info = games.find((g) => g.id === gameId);
    const options = info ? structuredClone(info.default_options ?? {}) : {};
    const range = info ? seatRange(info, options) : { min: 2, max: 2 };
    settings = {
      seats: Math.max(range.min, Math.min(range.max, settings.seats)),
      options,
      spectators_allowed: settings.spectators_allowed,
      public: settings.public,
    };
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    let name = getName();
    if (!name) {
      // A name typed but not saved with its button is meant all the same.
      const typed = /** @type {HTMLInputElement | null} */ (document.getElementById('name-input'));
      name = typed?.value.trim().slice(0, MAX_NAME) ?? '';
      if (!name) {
        toast(t('name.required'));
        typed?.focus();
        return;
      }
      setName(name);
      renderName();
    }
    try {
      const created = await api.createTable({ game: gameId, settings, name });
      setToken(created.invite_code, created.token);
      go(`/t/${encodeURIComponent(created.invite_code)}`);
    } catch (err) {
      toast(errText(err, gameId));
    }
  });

  api
    .listGames()
    .then((list) => {
      // A game the server hosts but this page has no board for is not offered.
      games = list.filter((g) => gameUI(g.id));
      gameId = (list.find((g) => g.id === 'big-city') ?? list[0])?.id ?? '';
      resetSettings();
      renderForm();
      // Games whose options need data draw them again once it is here.
      for (const g of games) gameUI(g.id)?.prepare?.().then(() => g.id === gameId && renderForm(), () => {});
    })
    .catch((err) => {
      mount(form, h('p', { class: 'error' }, errText(err)));
    });
  renderForm();

  // Public tables, refreshed while the page is open.
  let stopped = false;
  const refresh = async () => {
    if (stopped) return;
    try {
      const { tables } = await api.publicTables();
      mount(
        listBox,
        h('h2', null, t('home.public_tables')),
        tables.length === 0
          ? h('p', { class: 'muted' }, t('home.no_public'))
          : h(
              'ul',
              { class: 'table-list' },
              tables.map((pt) =>
                h(
                  'li',
                  { 'data-code': pt.invite_code },
                  h(
                    'div',
                    { class: 'pt-main' },
                    h('strong', null, gameUI(pt.game)?.name() ?? pt.game),
                    h('span', { class: 'muted' }, ` · ${t('home.host', { name: pt.host_name })}`),
                    h('div', { class: 'muted small' }, `${t(`status.${pt.status}`)} · ${t('home.seats_taken', { taken: pt.seats_taken, seats: pt.seats })}`),
                  ),
                  h('button', { onclick: () => go(`/t/${encodeURIComponent(pt.invite_code)}`) }, t('home.open')),
                ),
              ),
            ),
      );
    } catch (err) {
      mount(listBox, h('h2', null, t('home.public_tables')), h('p', { class: 'error' }, errText(err)));
    }
  };
  refresh();
  const timer = setInterval(refresh, 5000);
  return () => {
    stopped = true;
    clearInterval(timer);
    closeRecord?.();
  };
}

/**
 * The seat counts a game allows with these options: its range, narrowed by the
 * options when the game says so (Building Cities' solo mode is one seat).
 * @param {GameInfo} info
 * @param {any} options
 */
export function seatRange(info, options) {
  const own = gameUI(info.id)?.seats?.(options);
  const min = Math.max(info.min_seats, own?.min ?? info.min_seats);
  const max = Math.min(info.max_seats, own?.max ?? info.max_seats);
  return min <= max ? { min, max } : { min: info.min_seats, max: info.max_seats };
}

/** A row of Big City pieces in the players' colors, to set the scene. */
function skyline() {
  /** @type {import('./games/bigcity/types').Piece[]} */
  const pieces = ['residence_double', 'business_triple', 'city_hall', 'central_park', 'church', 'residence_single', 'bank', 'shopping_center', 'stanford_corporation', 'cinema'];
  return h(
    'div',
    { class: 'skyline', 'aria-hidden': 'true' },
    pieces.map((p, i) => pieceBadge(p, SEAT_COLORS[i % SEAT_COLORS.length])),
  );
}
