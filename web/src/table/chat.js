// The chat panel: the lines, and a form that sends one.

import { h, mount } from '../dom.js';
import { t } from '../i18n.js';
import { seatLooks } from './names.js';

/**
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./context.js').TableCtx} TableCtx
 */

/**
 * @param {TableCtx} ctx
 * @returns {{el: HTMLElement, render: (state: TableState) => void}}
 */
export function chatPanel(ctx) {
  const list = h('ul', { class: 'chat-lines', id: 'chat-lines' });
  const input = /** @type {HTMLInputElement} */ (
    h('input', { id: 'chat-input', maxlength: 500, placeholder: t('table.chat_placeholder'), autocomplete: 'off', 'aria-label': t('table.chat') })
  );
  const el = h(
    'section',
    { class: 'panel chat-panel', id: 'chat' },
    h('h3', null, t('table.chat')),
    list,
    h(
      'form',
      {
        class: 'row',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (!text) return;
          // The line stays in the box until it could be sent.
          if (ctx.send({ type: 'chat', text })) input.value = '';
        },
      },
      input,
      h('button', { type: 'submit' }, t('table.send')),
    ),
  );
  return {
    el,
    render(state) {
      const looks = seatLooks(state);
      mount(
        list,
        state.chat.map((line) =>
          h(
            'li',
            null,
            h('strong', { style: { color: line.seat !== undefined && line.seat !== null ? (looks[line.seat]?.color ?? 'inherit') : 'inherit' } }, line.name),
            ': ',
            line.text,
          ),
        ),
      );
      list.scrollTop = list.scrollHeight;
    },
  };
}
