// The Big City board's action bar: the actions of my turn (with why one is
// closed), the choosers of the move being made and its confirm bar.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { PIECE_GROUPS, cellsText, pieceBadge, streetcarBadge, miniTile } from './art.js';
import { buildPoints } from './legal.js';
import { view, legal, mine, seatColor } from './ui.js';
import { autoMode, candidatesAt, tileChoices } from './choices.js';

/** @typedef {import('./ui.js').B} B */

/** @param {B} b */
export function renderActions(b) {
  const ui = b.ui;
  if (!b.state) return;
  const v = view(b);
  const lg = legal(b);
  /** @type {(HTMLElement | string | null)[]} */
  const parts = [];
  if (!mine(b)) {
    b.els.actions.replaceChildren();
    b.els.actions.hidden = true;
    return;
  }
  b.els.actions.hidden = false;
  const ph = v.phase;
  if (ph.type === 'action' && ui.mode !== 'exchange' && ui.mode !== 'trade_offer') {
    const canBuild = lg.build.size > 0;
    const seats = v.scores.length;
    // Why an action is not available: on the button (title) and, for the rule
    // that surprises newcomers (P2), in a line under the actions.
    const hallBuilt = v.supply.some((x) => x.piece === 'city_hall' && x.left === 0);
    const why = {
      build: canBuild ? '' : t('why.build'),
      streetcar: !hallBuilt ? t('why.city_hall') : v.streetcars_left === 0 ? t('why.no_streetcars') : t('why.no_streetcar_spot'),
      tile: !hallBuilt ? t('why.city_hall') : v.unplaced.length === 0 ? t('why.all_placed') : t('why.no_tile_spot'),
    };
    // Everyone else has passed in a row: this seat's pass completes the round.
    const passEnds = v.passes_in_a_row + 1 >= seats;
    parts.push(
      h('div', { class: 'action-row' },
        h('button', { class: { on: ui.mode === 'build' }, id: 'act-build', disabled: !canBuild, title: canBuild ? null : why.build, onclick: () => b.dispatch({ type: 'set_mode', mode: b.ui.mode === 'build' ? null : 'build' }) }, pieceBadge('residence_single', seatColor(b, b.state?.mySeat ?? 0)), t('act.build')),
        h('button', { class: { on: ui.mode === 'streetcar' }, id: 'act-streetcar', disabled: lg.streetcars.length === 0, title: lg.streetcars.length === 0 ? why.streetcar : null, onclick: () => b.dispatch({ type: 'set_mode', mode: b.ui.mode === 'streetcar' ? null : 'streetcar' }) }, streetcarBadge(), t('act.streetcar')),
        h('button', { class: { on: ui.mode === 'tile' }, id: 'act-tile', disabled: lg.tiles.length === 0, title: lg.tiles.length === 0 ? why.tile : null, onclick: () => b.dispatch({ type: 'set_mode', mode: b.ui.mode === 'tile' ? null : 'tile' }) }, miniTile(3, 0), t('act.tile')),
        h('button', { id: 'act-exchange', disabled: !lg.exchange, onclick: () => b.dispatch({ type: 'set_mode', mode: 'exchange' }) }, '⇄ ', t('act.exchange')),
        v.options.trade_cards ? h('button', { id: 'act-trade', disabled: !lg.tradeOffer, onclick: () => b.dispatch({ type: 'set_mode', mode: 'trade_offer' }) }, '⇆ ', t('act.trade')) : null,
        h(
          'button',
          {
            id: 'act-pass',
            class: { danger: ui.passArmed },
            disabled: !lg.pass,
            // A first click arms the button for a moment; a second one passes.
            onclick: () => b.dispatch({ type: 'press_pass' }),
          },
          ui.passArmed ? t(passEnds ? 'act.pass_confirm_end' : 'act.pass_confirm') : t('act.pass'),
        ),
      ),
    );
    if (!hallBuilt) parts.push(h('p', { class: 'action-why muted small', id: 'action-why' }, t('why.city_hall_line')));
    // Passing is how the game ends (F2): say how close it is, plainly.
    if (v.passes_in_a_row > 0) {
      parts.push(
        h(
          'p',
          { class: { 'pass-count': true, warn: passEnds }, id: 'pass-count', 'data-passes': v.passes_in_a_row },
          passEnds ? t('ui.pass_ends_game') : t('ui.passes_in_a_row', { n: v.passes_in_a_row, seats }),
        ),
      );
    }
  }
  // What to do now, and the confirm bar.
  /** @type {string} */
  let hint = '';
  /** @type {(HTMLElement | null)[]} */
  const buttons = [];
  if (ui.mode === 'build') {
    const piece = ui.piece;
    hint = !piece
      ? t('act.pick_piece')
      : lg.build.has(piece)
        ? t('act.pick_spot', { piece: t(`piece.${piece}`) })
        : t('act.no_legal_spot', { piece: t(`piece.${piece}`) });
    const order = PIECE_GROUPS.flatMap(([, ps]) => ps);
    const pieces = [...lg.build.keys()].sort((p, q) => order.indexOf(p) - order.indexOf(q));
    buttons.push(
      h(
        'span',
        { class: 'piece-chooser', id: 'piece-chooser' },
        pieces.map((p) =>
          h(
            'button',
            {
              class: { chip: true, on: p === piece },
              'data-choose-piece': p,
              onclick: () => b.dispatch({ type: 'pick_piece', piece: p }),
            },
            pieceBadge(p, seatColor(b, b.state?.mySeat ?? 0)),
            t(`piece.${p}`),
          ),
        ),
      ),
    );
  } else if (ui.mode === 'tile') {
    hint = t('act.pick_tile_spot', { n: ui.tileN });
    buttons.push(tileChooser(b));
    buttons.push(h('button', { id: 'act-rotate', onclick: () => b.dispatch({ type: 'rotate' }) }, '⟳ ', t('act.rotate')));
  } else if (ui.mode === 'streetcar') {
    hint = t('act.pick_segment');
  } else if (ui.mode === 'exchange' || ui.mode === 'trade_exchange') {
    hint = t('act.pick_cards');
    buttons.push(
      h('button', { class: 'primary', id: 'act-confirm-exchange', disabled: ui.cardSel.length === 0 || (ui.mode === 'trade_exchange' && ui.cardSel.length > 2), onclick: () => b.dispatch({ type: 'send_exchange' }) }, t('act.confirm_exchange', { n: ui.cardSel.length })),
    );
  } else if (ui.mode === 'trade_offer') {
    hint = t('act.pick_cards');
    buttons.push(
      h('span', { class: 'wanted' }, t('act.wanted'), ' ',
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
          h('button', { class: { chip: true, on: ui.wanted.includes(n) }, 'data-wanted': n, onclick: () => b.dispatch({ type: 'toggle_wanted', n }) }, String(n)),
        ),
      ),
      h('button', { class: 'primary', id: 'act-confirm-offer', disabled: ui.cardSel.length === 0 || ui.cardSel.length > 2, onclick: () => b.dispatch({ type: 'send_offer' }) }, t('act.confirm_offer', { n: ui.cardSel.length })),
    );
  }
  if (ui.selected) {
    /** @type {string} */
    let label = '';
    if (ui.selected.type === 'build') {
      const points = buildPoints(lg, ui.selected.piece, ui.selected.cells);
      label = t('act.confirm_build', { piece: t(`piece.${ui.selected.piece}`), cells: cellsText(ui.selected.cells) });
      if (points !== undefined) label += ` · ${t('act.points', { n: points })}`;
      if (ui.anchorProp !== null && candidatesAt(ui, b.c, ui.anchorProp).length > 1) buttons.push(h('button', { id: 'act-rotate', onclick: () => b.dispatch({ type: 'rotate' }) }, '⟳ ', t('act.rotate')));
    } else if (ui.selected.type === 'place_neighborhood') label = t('act.confirm_tile', { n: ui.selected.neighborhood });
    else if (ui.selected.type === 'streetcar') label = t('act.confirm_streetcar');
    buttons.push(h('button', { class: 'primary', id: 'act-confirm', onclick: () => b.dispatch({ type: 'confirm' }) }, '✔ ', label));
  }
  if (lg.done && (ph.type === 'second_streetcar' || ph.type === 'trade_exchange')) {
    buttons.push(h('button', { id: 'act-done', onclick: () => b.send({ type: 'done' }) }, t('act.done')));
  }
  if (ui.mode && ui.mode !== autoMode(b.c)) buttons.push(h('button', { id: 'act-cancel', onclick: () => b.dispatch({ type: 'cancel' }) }, t('act.cancel')));
  else if (ui.selected) buttons.push(h('button', { id: 'act-cancel', onclick: () => b.dispatch({ type: 'unselect' }) }, t('act.cancel')));
  if (hint || buttons.length) parts.push(h('div', { class: 'confirm-row' }, hint ? h('span', { class: 'hint-text' }, hint) : null, buttons));
  if (ph.type === 'drawing') parts.push(h('div', { class: 'confirm-row' }, h('span', { class: 'hint-text' }, t('ph.drawing_me', { n: ph.remaining }))));
  const shown = parts.filter((p) => p !== null);
  b.els.actions.hidden = shown.length === 0;
  b.els.actions.replaceChildren(...shown);
}

/** @param {B} b */
function tileChooser(b) {
  const ui = b.ui;
  return h(
    'span',
    { class: 'tile-chooser' },
    tileChoices(b.c).map((n) =>
      h(
        'button',
        {
          class: { chip: true, on: n === ui.tileN },
          'data-tile-choice': n,
          onclick: () => b.dispatch({ type: 'pick_tile', n }),
        },
        miniTile(n, ui.rotation),
        String(n),
      ),
    ),
  );
}