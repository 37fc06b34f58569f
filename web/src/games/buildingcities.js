// Building Cities in the browser: the game's board, words, lobby options and the
// seat counts each mode allows.

import { addStrings, t } from '../i18n.js';
import { registerRuleWords } from '../messages.js';
import { BUILDING_CITIES_STRINGS } from './buildingcities/strings.js';
import { createBuildingCitiesBoard } from './buildingcities/board.js';
import { describeEvent, describeMove, nameOf } from './buildingcities/describe.js';
import { loadHandbook, handbookNow, say, buildingName, objectiveText } from './buildingcities/handbook.js';
import { ruleText, maya } from './buildingcities/words.js';

/**
 * @typedef {import('./buildingcities/types').View} View
 * @typedef {import('./buildingcities/types').Options} Options
 * @typedef {import('./buildingcities/types').Mode} Mode
 * @typedef {import('./index.js').GameUI} GameUI
 * @typedef {import('./index.js').OptionField} OptionField
 */

addStrings(BUILDING_CITIES_STRINGS);
registerRuleWords('building-cities', (rule, args) => ruleText(/** @type {any} */ ({ code: rule, args })));

/** The ranges the rules crate accepts (`Options`, `Variant::check`). */
export const LIMITS = {
  intersections: { min: 1, max: 8 },
  windowSeconds: { min: 1, max: 300 },
  startBank: { min: 0, max: 100_000 },
  percent: { min: 10, max: 1000 },
};

/** W3: seats per mode. */
const SEATS = { solo: { min: 1, max: 1 }, fair_play: { min: 2, max: 4 }, despicable: { min: 2, max: 4 } };

/** The rulebook's "after the second District the price of each purchase is doubled, and after the Fourth district it gets tripled". */
const RULEBOOK_STEPS = [
  { from_districts: 3, percent: 200 },
  { from_districts: 5, percent: 300 },
];

/**
 * @param {Options} o
 * @param {string} key
 * @param {number} min
 * @param {number} max
 * @param {number} step
 * @returns {OptionField}
 */
function seconds(o, key, min, max, step) {
  return {
    key,
    kind: 'number',
    label: t(`opt.building-cities.${key}`),
    min,
    max,
    step,
    get: (opts) => Math.round((opts[key] ?? 0) / 1000),
    set: (opts, v) => {
      opts[key] = Math.round(Number(v) * 1000);
    },
    hint: o.mode === 'despicable' ? undefined : t('opt.building-cities.despicable_only'),
  };
}

/** @type {GameUI} */
export const buildingCities = {
  id: 'building-cities',
  name: () => t('bci.name'),
  blurb: () => t('bci.blurb'),
  createBoard: createBuildingCitiesBoard,
  // The lobby lists the objectives by name, from the handbook.
  prepare: () => loadHandbook(),
  seats(options) {
    /** @type {Mode} */
    const mode = options?.mode ?? 'solo';
    return SEATS[mode] ?? SEATS.solo;
  },
  optionFields(options) {
    /** @type {Options} */
    const o = options ?? {};
    const objectives = handbookNow()?.raw.objectives.filter((x) => !x.blank) ?? [];
    const current = o.objective ?? '';
    const known = objectives.some((x) => x.id === current);
    return [
      {
        key: 'mode',
        kind: 'choice',
        label: t('opt.building-cities.mode'),
        choices: ['solo', 'fair_play', 'despicable'].map((m) => ({ value: m, label: t(`bci.mode.${m}`) })),
        hint: t('opt.building-cities.mode_hint'),
      },
      {
        key: 'objective',
        kind: 'choice',
        label: t('opt.building-cities.objective'),
        choices: [
          { value: '', label: t('opt.building-cities.objective_drawn') },
          ...objectives.map((x) => ({ value: x.id, label: say(x.name) })),
          ...(current && !known ? [{ value: current, label: current }] : []),
        ],
        hint: current ? objectiveText(current) : t('opt.building-cities.objective_drawn_hint'),
        get: (opts) => opts.objective ?? '',
        set: (opts, v) => {
          opts.objective = v === '' ? null : v;
        },
      },
      { key: 'protected_areas', kind: 'bool', label: t('opt.building-cities.protected_areas') },
      { key: 'max_intersections', kind: 'number', label: t('opt.building-cities.max_intersections'), ...LIMITS.intersections, step: 1 },
      {
        key: 'variant.start_bank',
        kind: 'number',
        label: t('opt.building-cities.start_bank'),
        ...LIMITS.startBank,
        step: 50,
        get: (opts) => opts.variant?.start_bank ?? '',
        set: (opts, v) => {
          opts.variant = { ...opts.variant, start_bank: v === '' || v === null ? null : Number(v) };
        },
        hint: t('opt.building-cities.start_bank_hint'),
      },
      {
        key: 'variant.prebuilt_first_district',
        kind: 'bool',
        label: t('opt.building-cities.prebuilt'),
        get: (opts) => Boolean(opts.variant?.prebuilt_first_district),
        set: (opts, v) => {
          opts.variant = { ...opts.variant, prebuilt_first_district: Boolean(v) };
        },
      },
      {
        key: 'variant.price_percent',
        kind: 'number',
        label: t('opt.building-cities.price_percent'),
        ...LIMITS.percent,
        step: 10,
        get: (opts) => opts.variant?.price_percent ?? 100,
        set: (opts, v) => {
          opts.variant = { ...opts.variant, price_percent: Number(v) };
        },
      },
      {
        key: 'variant.price_steps',
        kind: 'choice',
        label: t('opt.building-cities.price_steps'),
        choices: [
          { value: 'none', label: t('opt.building-cities.price_steps.none') },
          { value: 'rulebook', label: t('opt.building-cities.price_steps.rulebook') },
        ],
        get: (opts) => (opts.variant?.price_steps?.length ? 'rulebook' : 'none'),
        set: (opts, v) => {
          opts.variant = { ...opts.variant, price_steps: v === 'rulebook' ? RULEBOOK_STEPS : [] };
        },
      },
      seconds(o, 'task_force_ms', LIMITS.windowSeconds.min, LIMITS.windowSeconds.max, 1),
      seconds(o, 'auction_ms', LIMITS.windowSeconds.min, LIMITS.windowSeconds.max, 1),
    ];
  },
  banner(view, mine, seats) {
    /** @type {View} */
    const v = view;
    const phase = v?.phase;
    if (!phase) return null;
    switch (phase.kind) {
      case 'building':
        return mine ? t('bci.banner.build') : t('bci.banner.building');
      case 'auction':
        return t('bci.banner.auction', { building: buildingName(phase.building) });
      case 'task_force_prompt':
        return mine ? t('bci.banner.task_force_you') : t('bci.banner.task_force', { name: nameOf(seats, phase.target) });
      case 'play_challenge':
        return mine ? t('bci.banner.play_you') : t('bci.banner.play', { name: nameOf(seats, phase.seat) });
      default:
        return null;
    }
  },
  scores(view) {
    /** @type {View} */
    const v = view;
    return Array.isArray(v?.players) ? v.players.map((p) => p.bank) : null;
  },
  scoreText: (n) => maya(n),
  describeEvent: (event, seats) => describeEvent(event, seats),
  describeMove: (mv, seat, seats) => describeMove(mv, seat, seats),
};
