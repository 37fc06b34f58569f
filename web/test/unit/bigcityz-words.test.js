// Big Cityz in words: every event kind and move of the generated types has its
// line in the game log in English and French, with every placeholder filled, and
// the running scores come from the view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/** @type {any} */ (globalThis).document = { documentElement: {} };
const { setLang } = await import('../../src/i18n.js');
const { bigCityz } = await import('../../src/games/bigcityz.js');

const types = readFileSync(new URL('../../src/types.gen.d.ts', import.meta.url), 'utf8');

/** @param {string} name */
function tags(name) {
  const m = types.match(new RegExp(`^export type ${name} = (.*);$`, 'm'));
  assert.ok(m, `${name} is generated`);
  return [...m[1].matchAll(/\{ "type": "(\w+)"/g)].map((x) => x[1]).sort();
}

const lagos = { card: 7, id: 'lagos', name_en: 'Lagos', name_fr: 'Lagos', country: 'NG' };
const vienna = { card: 3, id: 'vienna', name_en: 'Vienna', name_fr: 'Vienne', country: 'AT' };
const judgment = {
  seat: 0,
  city: vienna,
  square: { type: 'risk', pair: 3, color: 'green' },
  right: false,
  objectors: [1],
  facts: [],
  right_squares: [],
  changes: [{ seat: 0, points: -2, score: 0 }, { seat: 1, points: 3, score: 9 }],
};
/** One sample of each event kind. */
const EVENTS = [
  { type: 'turn_started', seat: 0, city: vienna },
  { type: 'deck_refilled', from: 'box', count: 100 },
  { type: 'board_replaced', seat: 1, board: 2, removed: 'capital', statement: 'on_the_sea_coast', cards: [lagos] },
  { type: 'statements_reshuffled', count: 4 },
  { type: 'placed', seat: 0, square: { type: 'board', board: 0, slot: 'red2' } },
  { type: 'declared_no_free_square', seat: 1 },
  { type: 'objected', seat: 1 },
  { type: 'declined', seat: 0 },
  { type: 'objections_timed_out', seats: [0, 1] },
  { type: 'judged', judgment },
  { type: 'turn_timed_out', seat: 1, city: lagos },
  { type: 'final_round', seat: 1 },
  { type: 'game_over', reason: 'score_reached', scores: [30, 37], winners: [1] },
];
const MOVES = [
  { type: 'replace', board: 3 },
  { type: 'place', square: { type: 'risk', pair: 0, color: 'red' } },
  { type: 'no_free_square' },
  { type: 'object' },
  { type: 'decline' },
];
const seats = [
  { seat: 0, name: 'Ana', color: 'red' },
  { seat: 1, name: 'Bruno', color: 'blue' },
];

test('the samples cover every event kind and move', () => {
  assert.deepEqual(EVENTS.map((e) => e.type).sort(), tags('BigCityzEventKind'));
  assert.deepEqual(MOVES.map((m) => m.type).sort(), tags('BigCityzMove'));
});

for (const lang of /** @type {const} */ (['en', 'fr'])) {
  test(`every event and move has its ${lang} line`, () => {
    setLang(lang);
    for (const kind of EVENTS) {
      const line = bigCityz.describeEvent({ kind }, seats);
      assert.ok(line, `${kind.type} has a line`);
      assert.doesNotMatch(line, /\{\w+\}|bcz\.|undefined/, `${kind.type}: ${line}`);
    }
    for (const mv of MOVES) {
      const line = bigCityz.describeMove(mv, 1, seats);
      assert.match(line, /Bruno/);
      assert.doesNotMatch(line, /\{\w+\}|bcz\.|undefined/, `${mv.type}: ${line}`);
    }
  });
}

test('the log names the city in the language, the square and the points', () => {
  setLang('en');
  assert.equal(bigCityz.describeEvent({ kind: EVENTS[0] }, seats), "Ana's turn: Vienna");
  assert.equal(bigCityz.describeEvent({ kind: EVENTS[4] }, seats), 'Ana placed the card on board 1, red 2.');
  assert.equal(bigCityz.describeEvent({ kind: EVENTS[9] }, seats), 'Ana was wrong with Vienna. Ana −2, Bruno +3');
  assert.equal(bigCityz.describeMove(MOVES[1], 0, seats), 'Ana places on the red risk field between boards 1 and 2');
  setLang('fr');
  assert.equal(bigCityz.describeEvent({ kind: EVENTS[0] }, seats), 'À Ana : Vienne');
  assert.equal(bigCityz.describeEvent({ kind: EVENTS[12] }, seats), 'Partie terminée (Quelqu’un a atteint 36 et le tour a été terminé) — victoire de Bruno.');
  setLang('en');
});

test('scores and the lobby option', () => {
  assert.deepEqual(bigCityz.scores?.({ scores: [3, 12] }), [3, 12]);
  assert.equal(bigCityz.scores?.({}), null);
  const [field] = bigCityz.optionFields?.({ objection_ms: 10000 }) ?? [];
  assert.deepEqual({ key: field.key, kind: field.kind, min: field.min, max: field.max }, { key: 'objection_ms', kind: 'number', min: 1000, max: 120000 });
});

test('the top bar says what an objection window waits for', () => {
  const seats = [{ seat: 0, name: 'Ana', color: '' }, { seat: 1, name: 'Bo', color: '' }];
  const window = { phase: { type: 'objections', seat: 0, square: null, objectors: [], waiting: [1], window_ms: 4000 } };
  setLang('en');
  assert.equal(bigCityz.banner?.(window, true, seats), 'Object or let it stand?');
  assert.equal(bigCityz.banner?.(window, false, seats), 'Objections to Ana’s card');
  setLang('fr');
  assert.equal(bigCityz.banner?.(window, false, seats), 'Contestations ouvertes (carte : Ana)');
  assert.equal(bigCityz.banner?.({ phase: { type: 'placing', seat: 1, replaced: null } }, true, seats), null);
  setLang('en');
});
