// The tool in hand: a road laid block by block, or a building with its
// rotation, how many legal spots it has, and for the spot under the pointer or
// picked the preview (Maya, moves, district value, the neighbours in the cross)
// with "build here". Stable selectors: `#bci-tool[data-tool]`, `#bci-rotate`,
// `#bci-preview[data-cost][data-moves][data-value]`, `#bci-confirm`, `#bci-unpick`,
// `#bci-drop-tool`.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { building, buildingName, say } from './handbook.js';
import { maya, signed, blockText, bonusesText, requirementsText } from './words.js';
import { tileBuilding } from './geometry.js';

/**
 * @typedef {import('./types').Rotation} Rotation
 * @typedef {import('./types').TileMove} TileMove
 * @typedef {import('./preview.js').Mark} Mark
 * @typedef {import('./choices.js').Spot} Spot
 * @typedef {import('./choices.js').UIAction} UIAction
 *
 * @typedef {object} ToolLook
 * @property {string} tool `road` or a building id
 * @property {Rotation} rotation
 * @property {Rotation[]} rotations the rotations with legal spots
 * @property {number | null} spots legal spots (or road blocks); null while asked
 * @property {string | null} why why the building cannot be built now (the seat's palette)
 * @property {number} roadPrice
 * @property {{spot: Spot, picked: boolean, move: TileMove | undefined} | null} at the spot shown
 * @property {{cost: number, moves: number, value: number, fromServer: boolean} | null} preview
 * @property {Mark[]} marks
 * @property {(a: UIAction) => void} dispatch
 * @property {(mv: TileMove) => void} build
 */

/** @param {ToolLook} o */
export function toolPanel(o) {
  const drop = h('button', { type: 'button', id: 'bci-drop-tool', class: 'link', onclick: () => o.dispatch({ type: 'tool', tool: null }) }, t('bci.tool.drop'));
  if (o.tool === 'road') {
    return h(
      'section',
      { class: 'bci-tool', id: 'bci-tool', 'data-tool': 'road' },
      h('strong', null, buildingName('road')),
      h('p', { class: 'small' }, t('bci.tool.road_how', { price: maya(o.roadPrice) })),
      h('p', { class: 'small', 'data-spots': o.spots ?? '' }, o.spots === null ? '…' : o.spots ? t('bci.tool.road_spots', { n: o.spots }) : t('bci.tool.no_road')),
      drop,
    );
  }
  const b = building(o.tool);
  const square = !b?.size || b.size === '1x1' || b.size === '2x2';
  const preview = o.preview;
  return h(
    'section',
    { class: 'bci-tool', id: 'bci-tool', 'data-tool': o.tool },
    h('div', { class: 'head' }, h('strong', null, say(b?.name)), b?.size ? h('small', null, ` ${b.size.replace('x', '×')}`) : null, ' ', drop),
    b && (b.bonuses.length || b.requirements.length)
      ? h('p', { class: 'small muted', id: 'bci-tool-rules' }, [bonusesText(b), b.requirements.length ? t('bci.pal.needs', { what: requirementsText(b) }) : ''].filter(Boolean).join(' — '))
      : null,
    square
      ? null
      : h(
          'button',
          { type: 'button', id: 'bci-rotate', 'data-rotation': o.rotation, disabled: o.rotations.length < 2, title: t('bci.tool.rotate_key'), onclick: () => o.dispatch({ type: 'rotate', rotations: o.rotations.length ? o.rotations : ['R0', 'R90'] }) },
          '⟳ ',
          t(o.rotation === 'R0' ? 'bci.tool.lengthwise' : 'bci.tool.crosswise'),
        ),
    h('p', { class: 'small', id: 'bci-spot-count', 'data-spots': o.spots ?? '' }, o.spots === null ? '…' : o.spots ? t('bci.tool.spots', { n: o.spots }) : (o.why ?? t('bci.tool.no_spot'))),
    o.at && preview
      ? h(
          'div',
          { class: 'bci-preview', id: 'bci-preview', 'data-cost': preview.cost, 'data-moves': preview.moves, 'data-value': preview.value, 'data-source': preview.fromServer ? 'server' : 'handbook' },
          h('p', null, t('bci.tool.at', { block: blockText(o.at.spot.origin) })),
          h('p', { class: 'nums' }, t('bci.tool.preview', { cost: maya(preview.cost), n: preview.moves, value: signed(preview.value) })),
          o.marks.length
            ? h(
                'ul',
                { class: 'bci-cross', id: 'bci-cross' },
                o.marks.map((m) => h('li', { class: m.amount > 0 ? 'plus' : 'minus', 'data-tile': m.tile.id }, t('bci.tool.cross', { amount: signed(m.amount), name: buildingName(tileBuilding(m.tile)), block: blockText(m.tile.origin) }))),
              )
            : null,
          o.at.picked && o.at.move
            ? h(
                'div',
                { class: 'bci-buttons' },
                h('button', { type: 'button', class: 'primary', id: 'bci-confirm', onclick: () => o.at?.move && o.build(o.at.move) }, t('bci.tool.build_here')),
                h('button', { type: 'button', id: 'bci-unpick', onclick: () => o.dispatch({ type: 'unpick' }) }, t('bci.tool.other_spot')),
              )
            : h('p', { class: 'small muted' }, t('bci.tool.pick_hint')),
        )
      : o.spots
        ? h('p', { class: 'small muted' }, t('bci.tool.choose_hint'))
        : null,
  );
}
