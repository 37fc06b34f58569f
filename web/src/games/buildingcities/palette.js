// The building palette: every ground building of the handbook, grouped by the
// colour of its family, with its price in Maya and moves, its district value and
// requirements (its bonuses in its title, and in the tool panel once chosen);
// one that cannot be built now says why (the seat's
// private `palette`, the rules' refusal code and arguments). Choosing one asks
// the server for its legal spots. Stable selectors: `#bci-palette`,
// `[data-building]` with `data-can` (`yes`, `no`, or empty when unknown),
// `data-why` (the refusal's code when it cannot), `data-cost` (Maya, price
// variant applied) and `data-moves`.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { say } from './handbook.js';
import { FAMILY_ORDER, familyOf, tileLook, shortLabel } from './art.js';
import { price } from './geometry.js';
import { maya, signed, requirementsText, bonusesText, ruleText } from './words.js';

/**
 * @typedef {import('./types').Building} Building
 * @typedef {import('./types').Rule} Rule
 * @typedef {import('./types').Variant} Variant
 * @typedef {import('./handbook.js').Book} Book
 * @typedef {{can: boolean, rule: Rule | null}} Status
 *
 * @typedef {object} PaletteLook
 * @property {Book} book
 * @property {string | null} offer the legendary building this seat may build
 * @property {(id: string) => Status | null} status null: not known
 * @property {Variant | undefined} variant
 * @property {number} owned land districts owned (the price variant's steps)
 * @property {string | null} tool the tool in hand
 * @property {boolean} active the seat builds now
 * @property {(tool: string) => void} pick
 */

/**
 * The buildings a palette offers: ground tiles, grids and standees, and the
 * legendary building on offer.
 * @param {Book} book
 * @param {string | null} offer
 */
export function paletteBuildings(book, offer) {
  return book.raw.buildings.filter((b) => b.placement === 'ground' && b.buildable && b.category !== 'road' && b.category !== 'protected' && (b.category !== 'legendary' || b.id === offer));
}

/** @param {PaletteLook} p */
export function palette(p) {
  const groups = new Map();
  for (const b of paletteBuildings(p.book, p.offer)) {
    const family = familyOf(b);
    if (!groups.has(family)) groups.set(family, []);
    groups.get(family).push(b);
  }
  return h(
    'section',
    { class: 'bci-palette', id: 'bci-palette' },
    h(
      'div',
      { class: 'bci-tools' },
      h('button', { type: 'button', id: 'bci-tool-road', class: { tool: true, on: p.tool === 'road' }, 'aria-pressed': p.tool === 'road', disabled: !p.active, onclick: () => p.pick('road') }, t('bci.tool.road')),
    ),
    FAMILY_ORDER.filter((f) => groups.has(f)).map((family) =>
      h(
        'details',
        { class: 'bci-family', 'data-family': family, open: true },
        h('summary', null, h('span', { class: 'swatch', style: { background: tileLook(groups.get(family)[0].id).fill } }), t(`bci.family.${family}`)),
        h('ul', null, groups.get(family).map((/** @type {Building} */ b) => item(p, b))),
      ),
    ),
  );
}

/**
 * @param {PaletteLook} p
 * @param {Building} b
 */
function item(p, b) {
  const st = p.status(b.id);
  const look = tileLook(b.id);
  const can = st ? (st.can ? 'yes' : 'no') : '';
  const why = st && !st.can && st.rule ? ruleText(st.rule) : null;
  const details = [bonusesText(b), requirementsText(b) && t('bci.pal.needs', { what: requirementsText(b) })].filter(Boolean).join(' — ');
  const selected = p.tool === b.id;
  return h(
    'li',
    null,
    h(
      'button',
      {
        type: 'button',
        class: { 'bci-pal-item': true, selected, cannot: can === 'no' },
        'data-building': b.id,
        'data-can': can,
        'data-why': st && !st.can && st.rule ? st.rule.code : '',
        'data-cost': price(b.cost, p.variant, p.owned),
        'data-moves': b.moves,
        'aria-pressed': selected,
        'aria-disabled': !p.active || can === 'no',
        title: [say(b.name), details, why].filter(Boolean).join('\n'),
        onclick: () => p.active && can !== 'no' && p.pick(b.id),
      },
      h('span', { class: 'swatch', style: { background: look.fill, color: look.ink } }, shortLabel(b.id)),
      h(
        'span',
        { class: 'what' },
        h('span', { class: 'name' }, say(b.name), b.size && b.size !== '1x1' ? h('small', { class: 'size' }, ` ${b.size.replace('x', '×')}`) : null),
        h('span', { class: 'nums' }, t('bci.pal.nums', { cost: maya(price(b.cost, p.variant, p.owned)), n: b.moves, value: signed(b.value) })),
        b.requirements.length ? h('small', { class: 'req' }, t('bci.pal.needs', { what: requirementsText(b) })) : null,
        why ? h('small', { class: 'why' }, why) : null,
      ),
    ),
  );
}
