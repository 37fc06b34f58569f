// The countdown of a decision window, shared by the boards that show one, and
// how a time left is written.

import { t } from './i18n.js';

/**
 * The countdown of a decision window, drawn every quarter second into the element
 * `selector` finds under `root` (when the board shows one): `◷ ` and `words(seconds)`,
 * with the seconds left in `data-seconds`. `start(ms)` sets the time left, as the
 * server last said it; `tick()` draws now (after the board redraws); `stop()` ends it.
 * @param {HTMLElement} root
 * @param {string} selector
 * @param {(seconds: number) => string} words
 */
export function countdown(root, selector, words) {
  let end = 0;
  const tick = () => {
    const out = root.querySelector(selector);
    if (!out) return;
    const secs = Math.max(0, Math.ceil((end - performance.now()) / 1000));
    out.textContent = `◷ ${words(secs)}`;
    out.setAttribute('data-seconds', String(secs));
  };
  const timer = setInterval(tick, 250);
  return {
    /** @param {number} ms */
    start(ms) {
      end = performance.now() + ms;
    },
    tick,
    stop: () => clearInterval(timer),
  };
}

/**
 * A duration left, as a clock under an hour and in hours or days above.
 * @param {number} ms
 */
export function formatDuration(ms) {
  const secs = Math.max(0, Math.ceil(ms / 1000));
  if (secs < 3600) return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
  const hours = Math.floor(secs / 3600);
  if (hours < 48) return t('time.hours', { h: hours, m: Math.floor((secs % 3600) / 60) });
  return t('time.days', { d: Math.floor(hours / 24), h: hours % 24 });
}

