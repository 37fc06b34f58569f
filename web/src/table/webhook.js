// At a turn-based table: the player's webhook (a Discord or Slack incoming
// webhook URL) that the server posts to when the table waits for him and no
// page of his is open. Kept by the server with his seat; only he sees it.

import { h, mount } from '../dom.js';
import { t, currentLang } from '../i18n.js';
import { mySeat } from './state.js';

/**
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./context.js').TableCtx} TableCtx
 */

/**
 * @param {HTMLElement} el
 * @param {TableState} state
 * @param {TableCtx} ctx
 */
export function renderWebhook(el, state, ctx) {
  const tbl = state.table;
  const show = Boolean(tbl?.settings.time_bank_seconds) && mySeat(state) !== undefined && tbl?.status !== 'finished';
  el.hidden = !show;
  if (!show) return;
  const current = state.you?.webhook ?? '';
  // Redrawn only when what the server keeps changes, so typing is not lost.
  if (el.dataset.kept === current && el.childElementCount) return;
  el.dataset.kept = current;
  const input = /** @type {HTMLInputElement} */ (
    h('input', { type: 'url', id: 'webhook-url', value: current, placeholder: 'https://discord.com/api/webhooks/…', 'aria-label': t('webhook.label'), autocomplete: 'off' })
  );
  const save = (/** @type {string | undefined} */ url) => ctx.send(url ? { type: 'set_webhook', url, lang: currentLang() } : { type: 'set_webhook' });
  mount(
    el,
    h('p', { class: 'small muted' }, t('webhook.explain')),
    h(
      'form',
      {
        class: 'row',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          save(input.value.trim() || undefined);
        },
      },
      input,
      h('button', { class: 'small', id: 'webhook-save', type: 'submit' }, t('webhook.save')),
    ),
    current ? h('p', { class: 'small', id: 'webhook-state' }, t('webhook.on'), ' ', h('button', { class: 'link small', id: 'webhook-off', onclick: () => save(undefined) }, t('webhook.off'))) : null,
  );
}
