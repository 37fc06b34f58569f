// Building Cities in words: every event kind, move, card effect, objective goal,
// requirement and refusal of the generated types has its sentence in English and
// French, with every placeholder filled and no raw code; names come from the
// handbook the server serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/** @type {any} */ (globalThis).document = { documentElement: {} };
const { setLang } = await import('../../src/i18n.js');
const { provideHandbook } = await import('../../src/games/buildingcities/handbook.js');
const { buildingCities } = await import('../../src/games/buildingcities.js');
const words = await import('../../src/games/buildingcities/words.js');
const { renderError } = await import('../../src/messages.js');

const fixture = (/** @type {string} */ name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8'));
const handbook = fixture('buildingcities-handbook');
provideHandbook(handbook);
const types = readFileSync(new URL('../../src/types.gen.d.ts', import.meta.url), 'utf8');

/**
 * The tags of a generated union.
 * @param {string} name
 * @param {string} tag
 */
function tags(name, tag) {
  const m = types.match(new RegExp(`^export type ${name} = ([\\s\\S]*?);\\n\\n`, 'm'));
  assert.ok(m, `${name} is generated`);
  return [...m[1].matchAll(new RegExp(`"${tag}": "(\\w+)"`, 'g'))].map((x) => x[1]).sort();
}

/**
 * A sentence as a player may read it: no placeholder, key or code left.
 * @param {string | null} text
 * @param {string} what
 */
function readable(text, what) {
  assert.equal(typeof text, 'string', `${what}: a sentence`);
  const s = /** @type {string} */ (text);
  assert.ok(s.trim().length > 0, `${what}: not empty`);
  assert.doesNotMatch(s, /undefined|null|NaN|\[object|\{\w+\}/, `${what}: "${s}"`);
  assert.doesNotMatch(s, /\bbci\.|\bopt\.|\b[a-z]+_[a-z_]+\b/, `${what}: no raw key or code in "${s}"`);
}

const seats = [
  { seat: 0, name: 'Ana', color: 'red' },
  { seat: 1, name: 'Bruno', color: 'blue' },
];
const block = { x: 11, y: 3 };
/** One sample of each event kind (and each variant its sentence depends on). */
const EVENTS = [
  { kind: 'objective_drawn', objective: 'obj_tutorial' },
  { kind: 'protected_layout', face: 4 },
  ...['district', 'sea_area', 'upgrade', 'district_value', 'event', 'challenge', 'trade', 'loan', 'repay', 'auction'].map((reason) => ({ kind: 'bank', seat: 0, amount: -300, reason, bank: 1200 })),
  { kind: 'bank', seat: 1, amount: 42, reason: 'district_value', bank: 242 },
  { kind: 'road', seat: 0, block },
  { kind: 'built', seat: 1, building: 'tennis_court', tile: 7, rotation: 'R0', origin: block },
  { kind: 'district_bought', seat: 0, district: 'D2' },
  { kind: 'sea_bought', seat: 0, sea: 'S7' },
  { kind: 'truck', seat: 0, district: 'D1' },
  { kind: 'ship', seat: 0, sea: 'S1' },
  { kind: 'upgrade', seat: 0, district: 'D1', grid: 'power', roll: 5, level: 2, success: true },
  { kind: 'upgrade', seat: 0, district: 'D1', grid: 'water', roll: 1, level: 1, success: false },
  { kind: 'turn_ended', seat: 0, inactive: false },
  { kind: 'turn_ended', seat: 1, inactive: true },
  { kind: 'event_card', seat: 0, card: 'ev_arsonists', applied: true },
  { kind: 'event_card', seat: 0, card: 'ev_stocks_falling', applied: false },
  { kind: 'challenge_card', seat: 1, card: 'ch_hackers', cancelled: false },
  { kind: 'challenge_card', seat: 1, card: 'ch_hackers', cancelled: true },
  { kind: 'challenge_kept', seat: 0, hand: 1 },
  { kind: 'challenge_kept', seat: 0, hand: 3 },
  { kind: 'challenge_played', seat: 0, target: 1, card: 'ch_riots' },
  { kind: 'task_force_kept', seat: 1 },
  { kind: 'destroyed', seat: 1, building: 'office', tile: 12 },
  { kind: 'goods', seat: 0, goods: ['textiles', 'steel'] },
  { kind: 'trade_roll', seat: 0, roll: 4, partner: 1 },
  { kind: 'trade_roll', seat: 0, roll: 1, partner: null },
  { kind: 'legendary_offer', seat: 0, building: 'symbol_of_freedom' },
  { kind: 'legendary_returned', building: 'pyramid_museum' },
  { kind: 'auction_bid', seat: 1, amount: 650 },
  { kind: 'auction_won', seat: 1, building: 'symbol_of_freedom', price: 650 },
  { kind: 'turn_marker', seat: 0, turn: 12, factor: 2 },
  { kind: 'turn_marker', seat: 0, turn: 13, factor: 1 },
  { kind: 'loan_taken', seat: 0, due_turn: 20 },
  { kind: 'loan_repaid', seat: 0 },
  { kind: 'must_buy_district', seat: 0 },
  { kind: 'demand_answered', seat: 0, accepted: true },
  { kind: 'demand_answered', seat: 0, accepted: false },
  { kind: 'frozen', seat: 1, round: 14 },
  ...['objective', 'turn_limit', 'turn_cap', 'bankruptcy', 'no_placement', 'final_rounds', 'race', 'nobody_left'].map((reason) => ({ kind: 'out', seat: 1, reason })),
  { kind: 'game_over', reason: 'final_rounds', winners: [0, 1] },
  { kind: 'game_over', reason: 'nobody_left', winners: [] },
];
const MOVES = [
  { type: 'road', block },
  { type: 'tile', building: 'house', rotation: 'R0', origin: block },
  { type: 'buy_district', district: 'D4' },
  { type: 'buy_sea', sea: 'S2' },
  { type: 'truck', district: 'D1' },
  { type: 'ship', sea: 'S2' },
  { type: 'upgrade', district: 'D2', grid: 'water' },
  { type: 'repay_loan' },
  { type: 'end_turn' },
  { type: 'play_challenge', card: 0, target: 1 },
  { type: 'keep_challenges' },
  { type: 'use_task_force' },
  { type: 'accept_challenge' },
  { type: 'bid', amount: 700 },
  { type: 'pass_auction' },
  { type: 'trade_partner', seat: 1 },
  { type: 'destroy_building', tile: 4 },
  { type: 'accept_demand' },
  { type: 'refuse_demand' },
];

for (const lang of /** @type {const} */ (['en', 'fr'])) {
  test(`every event kind and move is said in ${lang}`, () => {
    setLang(lang);
    assert.deepEqual([...new Set(EVENTS.map((e) => e.kind))].sort(), tags('BuildingCitiesEventKind', 'kind'), 'a sample of each kind');
    assert.deepEqual(MOVES.map((m) => m.type).sort(), tags('BuildingCitiesMove', 'type'), 'a sample of each move');
    for (const kind of EVENTS) readable(buildingCities.describeEvent({ kind }, seats), `${lang} event ${JSON.stringify(kind)}`);
    for (const mv of MOVES) readable(buildingCities.describeMove(mv, 0, seats), `${lang} move ${mv.type}`);
    // The price of a build is said by its own line ("Ana builds…").
    assert.equal(buildingCities.describeEvent({ kind: { kind: 'bank', seat: 0, amount: -10, reason: 'build', bank: 190 } }, seats), null);
  });

  test(`the handbook's effects, goals, requirements and bonuses are said in ${lang}`, () => {
    setLang(lang);
    const cards = [...handbook.events, ...handbook.challenges, handbook.task_force];
    const kinds = new Set(cards.map((c) => c.effect.kind));
    assert.deepEqual([...kinds].sort(), tags('BuildingCitiesEffect', 'kind'), 'the decks use every effect');
    readable(words.effectText({ kind: 'nothing' }), `${lang} nothing`);
    for (const c of cards) readable(words.effectText(c.effect), `${lang} effect of ${c.id}`);
    for (const o of handbook.objectives.filter((/** @type {any} */ o) => !o.blank)) for (const g of o.goals) readable(words.goalText(g), `${lang} goal of ${o.id}`);
    for (const b of handbook.buildings) {
      for (const r of b.requirements) readable(words.requirementText(r), `${lang} requirement of ${b.id}`);
      for (const x of b.bonuses) readable(words.bonusText(x), `${lang} bonus of ${b.id}`);
    }
    for (const kind of tags('BuildingCitiesGoal', 'kind')) assert.ok(handbook.objectives.some((/** @type {any} */ o) => o.goals.some((/** @type {any} */ g) => g.kind === kind)), `goal ${kind} sampled`);
  });

  test(`every refusal is said in ${lang}, through the table's error words too`, () => {
    setLang(lang);
    /** @type {Record<string, any>} */
    const ARGS = { building: 'office', needed: 60, left: 3, bank: 40, max: 3, spent: 20, min: 50, bank_more_than: 700, tiles_more_than: 25 };
    const rules = tags('BuildingCitiesRule', 'code');
    const refusals = tags('BuildingCitiesRefusal', 'code');
    for (const code of refusals) {
      /** @type {Record<string, any>} */
      const refusal = { code, block, origin: block, district: 'D2', junction: { x: 3, y: 0 }, corner: block, other: block, limit: 2, sea: 'S3', id: 9 };
      readable(words.refusalText(/** @type {any} */ (refusal)), `${lang} refusal ${code}`);
      const said = renderError({ code: 'illegal_move', rule: 'map', args: { refusal } }, { game: 'building-cities' });
      assert.equal(said, words.refusalText(/** @type {any} */ (refusal)), 'the table says the map refusal with the game words');
    }
    for (const code of rules.filter((c) => c !== 'map')) {
      const said = renderError({ code: 'illegal_move', rule: code, args: ARGS }, { game: 'building-cities' });
      readable(said, `${lang} rule ${code}`);
    }
    assert.match(renderError({ code: 'illegal_move', rule: 'not_enough_maya', args: { needed: 60, bank: 40 } }, { game: 'building-cities' }), /60 Maya.*40 Maya/);
    readable(renderError({ code: 'bad_settings', args: { reason: 'seats', min: 1, max: 1 } }, { game: 'building-cities' }), `${lang} solo seats`);
  });

  test(`the lobby's option fields are labelled in ${lang} and keep the options the crate reads`, () => {
    setLang(lang);
    const options = { mode: 'solo', objective: null, protected_areas: false, max_intersections: 2, task_force_ms: 15000, auction_ms: 20000, variant: { start_bank: null, prebuilt_first_district: false, price_percent: 100, price_steps: [] } };
    const fields = buildingCities.optionFields?.(options) ?? [];
    for (const f of fields) readable(f.label, `${lang} field ${f.key}`);
    const field = (/** @type {string} */ key) => /** @type {any} */ (fields.find((f) => f.key === key));
    const o = structuredClone(options);
    field('objective').set(o, 'obj_tutorial');
    field('variant.start_bank').set(o, 700);
    field('variant.price_steps').set(o, 'rulebook');
    field('task_force_ms').set(o, 30);
    field('objective').set(o, '');
    assert.deepEqual(o, { ...options, task_force_ms: 30000, variant: { ...options.variant, start_bank: 700, price_steps: [{ from_districts: 3, percent: 200 }, { from_districts: 5, percent: 300 }] } });
    assert.equal(field('variant.price_steps').get(o), 'rulebook');
    assert.equal(field('task_force_ms').get(o), 30);
    field('variant.start_bank').set(o, '');
    assert.equal(o.variant.start_bank, null, 'an empty starting bank is the handbook’s');
    const objectives = field('objective').choices.map((/** @type {any} */ c) => c.value);
    assert.equal(objectives[0], '', 'drawn first');
    assert.ok(objectives.includes('obj_tutorial') && !objectives.some((/** @type {string} */ v) => v.startsWith('obj_blank')), 'the blank cards are not offered');
    assert.deepEqual(buildingCities.seats?.({ mode: 'solo' }), { min: 1, max: 1 });
    assert.deepEqual(buildingCities.seats?.({ mode: 'despicable' }), { min: 2, max: 4 });
  });
}

test('English and French have the same keys', async () => {
  const { BUILDING_CITIES_STRINGS } = await import('../../src/games/buildingcities/strings.js');
  assert.deepEqual(Object.keys(BUILDING_CITIES_STRINGS.fr).sort(), Object.keys(BUILDING_CITIES_STRINGS.en).sort());
});
