// Tiny DOM helpers: build elements from plain data, no framework.

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, any>} Attrs
 */

/**
 * Creates an HTML element. Attributes starting with `on` become event listeners;
 * `class` may be a string or an object of class → condition; `style` an object.
 * @param {string} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Creates an SVG element.
 * @param {string} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, attrs, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Attrs | null | undefined} attrs
 */
function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    // ARIA states are the words "true" and "false", not present or absent.
    if (key.startsWith('aria-') && typeof value === 'boolean') {
      el.setAttribute(key, String(value));
      continue;
    }
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'class' && typeof value === 'object') {
      for (const [name, on] of Object.entries(value)) if (on) el.classList.add(name);
    } else if (key === 'style' && typeof value === 'object') {
      for (const [prop, v] of Object.entries(value)) {
        /** @type {HTMLElement} */ (el).style.setProperty(prop, String(v));
      }
    } else if (key === 'value' && 'value' in el) {
      /** @type {HTMLInputElement} */ (el).value = String(value);
    } else if (key === 'checked' && 'checked' in el) {
      /** @type {HTMLInputElement} */ (el).checked = Boolean(value);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

/**
 * @param {Element} el
 * @param {(Child | Child[])[]} children
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
}

/**
 * Replaces all children of `el`.
 * @param {Element} el
 * @param {...(Child | Child[])} children
 */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * Shows a short message at the top of the page.
 * @param {string} text
 * @param {'error' | 'info'} [kind]
 */
export function toast(text, kind = 'error') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(box);
  }
  const item = h('div', { class: `toast ${kind}`, 'data-kind': kind }, text);
  item.addEventListener('click', () => item.remove());
  box.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 7000 : 3500);
}
