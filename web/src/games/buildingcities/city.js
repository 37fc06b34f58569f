// One mayor's city in SVG: the highway with the motorway junction and the railway
// over D3, the six districts (owned ones as land with their 8 × 8 blocks, the
// others greyed with what they would cost), the seven sea areas with their
// cargo ships, protected blocks, roads, tiles in their family's colour with a
// short label, trucks and grid levels per district; and, for the player, the
// legal road blocks and building spots, the building under the pointer or
// picked (with its neighbours in the cross), the buildings a challenge may
// remove. Stable selectors: `data-block`, `data-origin`, `data-tile`,
// `data-district`, `data-sea`.

import { s } from '../../dom.js';
import { t } from '../../i18n.js';
import { building, buildingName } from './handbook.js';
import { tileLook, shortLabel, familyOf } from './art.js';
import { SIDE, COLS, ROWS, DISTRICTS, SEAS, SEA_SIDE, JUNCTION, districtOrigin, footprintBlocks, blockKey, tileBuilding, adjacent } from './geometry.js';
import { maya, signed, blockText } from './words.js';

/**
 * @typedef {import('./types').PlayerView} PlayerView
 * @typedef {import('./types').Tile} Tile
 * @typedef {import('./types').TileMove} TileMove
 * @typedef {import('./types').Block} Block
 * @typedef {import('./types').District} District
 * @typedef {import('./types').Sea} Sea
 * @typedef {import('./choices.js').Spot} Spot
 *
 * @typedef {object} CityLook
 * @property {PlayerView} player
 * @property {number} seat
 * @property {boolean} [small] a thumbnail: no labels, no interaction
 * @property {number | null} [price] the next district's price (E3; a sea area for sale costs it too)
 * @property {Map<District, {nth: number, price: number}>} [prices] what each district not owned would cost at the soonest
 * @property {Set<string>} [roads] legal road blocks
 * @property {Map<string, TileMove>} [spots] legal origins of the building in hand, for its rotation
 * @property {Set<number>} [destroyable] tiles a challenge may remove (the chooser's pick)
 * @property {Set<District>} [buyable] districts for sale now
 * @property {Set<Sea>} [buyableSeas]
 * @property {CityActs} [on]
 *
 * @typedef {object} CityActs
 * @property {(block: Block) => void} [road]
 * @property {(mv: TileMove) => void} [spot]
 * @property {(spot: Spot | null) => void} [hover]
 * @property {(tile: number) => void} [destroy]
 * @property {(d: District) => void} [district]
 * @property {(sea: Sea) => void} [sea]
 */

/** User units per block. */
const U = 10;
/** The sea bands' width and the highway band's height. */
const SEA_W = 12;
const TOP = 18;

/**
 * Where a sea area lies, in user units.
 * @param {Sea} sea
 */
function seaRect(sea) {
  const { district, side } = SEA_SIDE[sea];
  const o = districtOrigin(district);
  const d = SIDE * U;
  if (side === 'west') return { x: -SEA_W, y: o.y * U, w: SEA_W, h: d };
  if (side === 'east') return { x: COLS * U, y: o.y * U, w: SEA_W, h: d };
  return { x: o.x * U, y: ROWS * U, w: d, h: SEA_W };
}

/**
 * @param {CityLook} look
 * @returns {SVGElement}
 */
export function citySvg(look) {
  const { player, small } = look;
  const city = player.city;
  const owned = new Set(city.districts);
  const ownedSeas = new Set(city.seas);
  const on = small ? {} : (look.on ?? {});
  const layers = [];

  // The sea areas, the highway with its junction, the railway over D3.
  for (const sea of SEAS) {
    const r = seaRect(sea);
    const ships = city.ships.filter((x) => x === sea).length;
    const buyable = look.buyableSeas?.has(sea);
    layers.push(
      s(
        'g',
        { class: { 'bci-sea': true, owned: ownedSeas.has(sea), buyable }, 'data-sea': sea, onclick: buyable && on.sea ? () => on.sea?.(sea) : undefined },
        s('rect', { x: r.x, y: r.y, width: r.w, height: r.h }),
        small ? null : s('text', { x: r.x + r.w / 2, y: r.y + r.h / 2, class: 'bci-sea-name' }, sea),
        Array.from({ length: ships }, (_, i) => s('path', { class: 'bci-ship', d: shipPath(r, i) })),
        s('title', null, seaTitle(sea, ownedSeas.has(sea), ships, buyable ? look.price : null)),
      ),
    );
  }
  layers.push(
    s(
      'g',
      { class: 'bci-highway' },
      s('rect', { x: -SEA_W, y: -TOP, width: COLS * U + 2 * SEA_W, height: 9 }),
      s('line', { x1: -SEA_W, y1: -TOP + 4.5, x2: COLS * U + SEA_W, y2: -TOP + 4.5, class: 'lane' }),
      s('path', { class: 'ramp', d: `M${JUNCTION.x * U - 3} ${-TOP + 9}L${JUNCTION.x * U} 0H${(JUNCTION.x + 1) * U}L${(JUNCTION.x + 1) * U + 3} ${-TOP + 9}Z` }),
      s('title', null, t('bci.map.highway')),
    ),
    s(
      'g',
      { class: { 'bci-railway': true, owned: owned.has('D3') } },
      s('line', { x1: 2 * SIDE * U, y1: -5, x2: COLS * U, y2: -5 }),
      s('line', { x1: 2 * SIDE * U, y1: -2, x2: COLS * U, y2: -2 }),
      s('title', null, t('bci.map.railway')),
    ),
  );

  // The districts: land with its blocks, or greyed with its price.
  for (const d of DISTRICTS) {
    const o = districtOrigin(d);
    const mine = owned.has(d);
    const buyable = look.buyable?.has(d);
    const forSale = mine ? undefined : look.prices?.get(d);
    layers.push(
      s(
        'g',
        { class: { 'bci-district': true, owned: mine, buyable }, 'data-district': d, onclick: buyable && on.district ? () => on.district?.(d) : undefined },
        s('rect', { x: o.x * U, y: o.y * U, width: SIDE * U, height: SIDE * U, class: 'ground' }),
        mine ? gridLines(o) : null,
        small && mine ? null : s('text', { x: (o.x + SIDE / 2) * U, y: (o.y + SIDE / 2) * U - (mine ? 0 : 4), class: { 'bci-district-name': true, faint: mine } }, d),
        forSale && !small
          ? s('text', { x: (o.x + SIDE / 2) * U, y: (o.y + SIDE / 2) * U + 8, class: { 'bci-district-price': true, later: !city.districts.some((x) => adjacent(x, d)) }, 'data-price': forSale.price }, maya(forSale.price))
          : null,
        s('title', null, mine ? t('bci.map.district_owned', { district: d }) : forSale ? t('bci.map.district_price', { district: d, price: maya(forSale.price), nth: forSale.nth }) : t('bci.map.district_for_sale', { district: d })),
      ),
    );
  }

  // Protected blocks, roads, tiles.
  for (const b of city.protected) layers.push(s('rect', { class: 'bci-protected', x: b.x * U, y: b.y * U, width: U, height: U, 'data-block': blockKey(b) }, s('title', null, t('bci.map.protected'))));
  for (const b of city.roads) layers.push(roadBlock(b, city.roads));
  const destroyable = look.destroyable ?? new Set();
  for (const tile of city.tiles) layers.push(tileShape(tile, { small: Boolean(small), destroy: destroyable.has(tile.id) ? on.destroy : undefined }));

  // Trucks and grid levels, over what is built.
  if (!small) for (const d of city.districts) layers.push(districtBadges(d, player));

  // What the player may do here.
  if (look.roads?.size && !small) {
    for (const key of look.roads) {
      const [x, y] = key.split(',').map(Number);
      layers.push(
        s('rect', { class: 'bci-road-spot', x: x * U + 1, y: y * U + 1, width: U - 2, height: U - 2, rx: 1.5, 'data-block': key, onclick: () => on.road?.({ x, y }) }, s('title', null, t('bci.map.road_here', { block: blockText({ x, y }) }))),
      );
    }
  }
  if (look.spots?.size && !small) {
    for (const [key, mv] of look.spots) {
      const spot = { origin: mv.origin, rotation: mv.rotation };
      layers.push(
        s(
          'rect',
          {
            class: 'bci-spot',
            x: mv.origin.x * U + 1.5,
            y: mv.origin.y * U + 1.5,
            width: U - 3,
            height: U - 3,
            rx: 3,
            'data-origin': key,
            'data-rotation': mv.rotation,
            onclick: () => on.spot?.(mv),
            onpointerenter: (/** @type {PointerEvent} */ e) => e.pointerType !== 'touch' && on.hover?.(spot),
            onpointerleave: (/** @type {PointerEvent} */ e) => e.pointerType !== 'touch' && on.hover?.(null),
          },
          s('title', null, t('bci.map.spot', { block: blockText(mv.origin) })),
        ),
      );
    }
  }
  // The building about to go somewhere, drawn apart (`drawOverlay`) so that
  // pointing at spot after spot does not redraw the city.
  if (!small) layers.push(s('g', { class: 'bci-overlay' }));

  const vb = [-SEA_W, -TOP, COLS * U + 2 * SEA_W, ROWS * U + TOP + SEA_W];
  return s(
    'svg',
    { class: { 'bci-city': true, small: Boolean(small) }, viewBox: vb.join(' '), 'data-seat': look.seat, role: 'img', 'aria-label': t('bci.map.city_of', { n: look.seat + 1 }) },
    s('defs', null, s('pattern', { id: 'bci-hatch', width: 4, height: 4, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, s('line', { x1: 0, y1: 0, x2: 0, y2: 4, class: 'hatch' }))),
    layers,
  );
}

/** @param {Block} o */
function gridLines(o) {
  let d = '';
  for (let i = 1; i < SIDE; i++) {
    d += `M${(o.x + i) * U} ${o.y * U}V${(o.y + SIDE) * U}M${o.x * U} ${(o.y + i) * U}H${(o.x + SIDE) * U}`;
  }
  return s('path', { class: 'bci-gridlines', d });
}

/**
 * Trucks on the district's roads and its grid levels, in its corners.
 * @param {District} d
 * @param {PlayerView} player
 */
function districtBadges(d, player) {
  const o = districtOrigin(d);
  const trucks = player.city.trucks.filter((x) => x === d).length;
  const [power, water] = player.grid_levels[DISTRICTS.indexOf(d)] ?? [0, 0];
  const x = (o.x + SIDE) * U;
  const y = (o.y + SIDE) * U;
  return s(
    'g',
    { class: 'bci-badges', 'data-district': d },
    trucks
      ? s(
          'g',
          { class: 'bci-trucks', 'data-trucks': trucks },
          s('rect', { x: o.x * U + 1, y: y - 6.5, width: 15, height: 6, rx: 1.2, class: 'plate' }),
          s('path', { class: 'truck', d: `M${o.x * U + 2.5} ${y - 2.6}v-2.6h4.4v2.6zM${o.x * U + 7.1} ${y - 2.6}v-1.8h1.4l0.9 0.9v0.9z` }),
          s('circle', { cx: o.x * U + 3.8, cy: y - 2.2, r: 0.7, class: 'wheel' }),
          s('circle', { cx: o.x * U + 8.2, cy: y - 2.2, r: 0.7, class: 'wheel' }),
          s('text', { x: o.x * U + 12.5, y: y - 2.2 }, `×${trucks}`),
          s('title', null, t('bci.map.trucks', { n: trucks })),
        )
      : null,
    power || water
      ? s(
          'g',
          { class: 'bci-levels', 'data-levels': `${power},${water}` },
          s('circle', { cx: x - 9, cy: y - 3.5, r: 3, class: 'power' }),
          s('text', { x: x - 9, y: y - 2.2 }, String(power)),
          s('circle', { cx: x - 3, cy: y - 3.5, r: 3, class: 'water' }),
          s('text', { x: x - 3, y: y - 2.2 }, String(water)),
          s('title', null, t('bci.map.levels', { power, water })),
        )
      : null,
  );
}

/**
 * A road block, drawn joined to its road neighbours.
 * @param {Block} b
 * @param {Block[]} roads
 */
function roadBlock(b, roads) {
  const has = (/** @type {number} */ dx, /** @type {number} */ dy) => roads.some((r) => r.x === b.x + dx && r.y === b.y + dy);
  const cx = b.x * U + U / 2;
  const cy = b.y * U + U / 2;
  let marks = '';
  if (has(-1, 0) || has(1, 0)) marks += `M${has(-1, 0) ? b.x * U : cx} ${cy}H${has(1, 0) ? (b.x + 1) * U : cx}`;
  // The junction's road comes down from the highway's ramp.
  const up = has(0, -1) || (b.x === JUNCTION.x && b.y === JUNCTION.y);
  if (up || has(0, 1)) marks += `M${cx} ${up ? b.y * U : cy}V${has(0, 1) ? (b.y + 1) * U : cy}`;
  return s('g', { class: 'bci-road', 'data-block': blockKey(b) }, s('rect', { x: b.x * U, y: b.y * U, width: U, height: U }), marks ? s('path', { d: marks, class: 'mark' }) : null);
}

/**
 * @param {Tile} tile
 * @param {{small: boolean, destroy?: (tile: number) => void}} o
 */
function tileShape(tile, o) {
  const id = tileBuilding(tile);
  const look = tileLook(id);
  const { x, y, w, h } = box(footprintBlocks(tile.footprint, tile.rotation, tile.origin));
  const legendary = familyOf(building(id)) === 'legendary';
  return s(
    'g',
    {
      class: { 'bci-tile': true, destroyable: Boolean(o.destroy) },
      'data-tile': tile.id,
      'data-building': id,
      'data-rotation': tile.rotation,
      onclick: o.destroy ? () => o.destroy?.(tile.id) : undefined,
    },
    s('rect', { x: x + 0.6, y: y + 0.6, width: w - 1.2, height: h - 1.2, rx: 1.6, fill: look.fill }),
    tile.footprint !== '1x1' && tile.footprint !== '2x2' ? s('line', { class: 'axis', x1: x + 2, y1: y + 2, x2: tile.rotation === 'R0' ? x + w - 2 : x + 2, y2: tile.rotation === 'R0' ? y + 2 : y + h - 2 }) : null,
    o.small ? null : s('text', { x: x + w / 2, y: y + h / 2 + 1.6, fill: look.ink, class: 'bci-label' }, `${legendary ? '★' : ''}${shortLabel(id)}`),
    s('title', null, `${buildingName(id)} — ${blockText(tile.origin)}`),
  );
}

/**
 * The building about to be placed (under the pointer, or picked and waiting
 * for "build here") and its neighbours in the cross with what each link is
 * worth, over a city drawn by `citySvg`.
 * @param {Element} root where the city is
 * @param {{spot: Spot, building: string, picked: boolean} | null} ghost
 * @param {{tile: Tile, amount: number}[]} marks
 */
export function drawOverlay(root, ghost, marks) {
  const layer = root.querySelector('.bci-overlay');
  if (!layer) return;
  layer.replaceChildren();
  for (const spot of root.querySelectorAll('.bci-spot.picked')) spot.classList.remove('picked');
  if (!ghost) return;
  if (ghost.picked) root.querySelector(`.bci-spot[data-origin="${blockKey(ghost.spot.origin)}"]`)?.classList.add('picked');
  for (const m of marks) {
    const r = box(footprintBlocks(m.tile.footprint, m.tile.rotation, m.tile.origin));
    layer.append(
      s(
        'g',
        { class: { 'bci-mark': true, plus: m.amount > 0, minus: m.amount < 0 }, 'data-tile': m.tile.id, 'data-amount': m.amount },
        s('rect', { x: r.x + 0.3, y: r.y + 0.3, width: r.w - 0.6, height: r.h - 0.6, rx: 1.8 }),
        s('text', { x: r.x + r.w - 2.4, y: r.y + 3.6 }, signed(m.amount)),
      ),
    );
  }
  const look = tileLook(ghost.building);
  const r = box(footprintBlocks(building(ghost.building)?.size, ghost.spot.rotation, ghost.spot.origin));
  layer.append(
    s(
      'g',
      { class: { 'bci-ghost': true, picked: ghost.picked }, id: 'bci-ghost', 'data-origin': blockKey(ghost.spot.origin), 'data-rotation': ghost.spot.rotation, 'data-building': ghost.building },
      s('rect', { x: r.x + 0.6, y: r.y + 0.6, width: r.w - 1.2, height: r.h - 1.2, rx: 1.6, fill: look.fill }),
      s('text', { x: r.x + r.w / 2, y: r.y + r.h / 2 + 1.6, fill: look.ink, class: 'bci-label' }, shortLabel(ghost.building)),
    ),
  );
}

/**
 * The rectangle around blocks, in user units.
 * @param {Block[]} blocks
 */
function box(blocks) {
  const xs = blocks.map((b) => b.x);
  const ys = blocks.map((b) => b.y);
  const x = Math.min(...xs) * U;
  const y = Math.min(...ys) * U;
  return { x, y, w: (Math.max(...xs) + 1) * U - x, h: (Math.max(...ys) + 1) * U - y };
}

/**
 * A sea area's title: its name, its ships, its price when it is for sale.
 * @param {Sea} sea
 * @param {boolean} owned
 * @param {number} ships
 * @param {number | null | undefined} price
 */
function seaTitle(sea, owned, ships, price) {
  if (owned) return t('bci.map.sea_owned', { sea, n: ships });
  if (price !== null && price !== undefined) return t('bci.map.sea_for_sale', { sea, price: maya(price) });
  return t('bci.map.sea', { sea });
}

/**
 * A cargo ship's outline in its sea area.
 * @param {{x: number, y: number, w: number, h: number}} r
 * @param {number} i
 */
function shipPath(r, i) {
  const vertical = r.h > r.w;
  const cx = vertical ? r.x + r.w / 2 : r.x + 12 + i * 12;
  const cy = vertical ? r.y + 14 + i * 12 : r.y + r.h / 2;
  return `M${cx - 4} ${cy - 1}H${cx + 4}L${cx + 2.5} ${cy + 2}H${cx - 2.5}Z M${cx - 1} ${cy - 1}V${cy - 4}H${cx + 1.5}V${cy - 1}`;
}
