// Every code the server or a rules crate can send has its sentence in English and
// in French, and every sentence's placeholders are filled from the typed arguments.
// The codes and arguments are read from the generated TypeScript types
// (types.gen.d.ts, which a Rust test keeps current with the Rust enums).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/** @type {any} */ (globalThis).document = { documentElement: {} };
const { addStrings, hasIn, setLang } = await import('../../src/i18n.js');
const { BIG_CITY_STRINGS } = await import('../../src/games/bigcity/strings.js');
const { MY_CITY_STRINGS } = await import('../../src/games/mycity/strings.js');
const { BIG_CITYZ_STRINGS } = await import('../../src/games/bigcityz/strings.js');
const { renderError } = await import('../../src/messages.js');
addStrings(BIG_CITY_STRINGS);
addStrings(MY_CITY_STRINGS);
addStrings(BIG_CITYZ_STRINGS);

const types = readFileSync(new URL('../../src/types.gen.d.ts', import.meta.url), 'utf8');

/** @param {string} name */
function decl(name) {
  const m = types.match(new RegExp(`^export type ${name} = (.*);$`, 'm'));
  assert.ok(m, `${name} is generated`);
  return m[1];
}

/** @param {string} name @returns {string[]} */
const literals = (name) => [...decl(name).matchAll(/"(\w+)"/g)].map((m) => m[1]);

/**
 * Each variant of a serde-tagged rule enum: its code and sample arguments.
 * @param {string} name
 * @returns {{ code: string, args: Record<string, unknown> | undefined }[]}
 */
function rules(name) {
  return decl(name)
    .split(/\s\|\s(?=\{ "code")/)
    .map((v) => {
      const code = /"code": "(\w+)"/.exec(v)?.[1] ?? '';
      const body = /"args": \{(.*?)\}/.exec(v)?.[1];
      if (body === undefined) return { code, args: undefined };
      /** @type {Record<string, unknown>} */
      const args = {};
      for (const [, field, type] of body.matchAll(/(\w+): ([^,]+),/g)) {
        args[field] = type.includes('Piece') ? 'bank' : 3;
      }
      return { code, args };
    });
}

const GAME_RULES = { 'big-city': 'BigCityRule', 'my-city': 'MyCityRule', 'tic-tac-toe': 'TicTacToeRule', 'big-cityz': 'BigCityzRule' };

for (const lang of /** @type {const} */ (['en', 'fr'])) {
  test(`every error code and reason has a ${lang} sentence`, () => {
    for (const code of literals('ErrorCode')) assert.ok(hasIn(lang, `err.${code}`), `err.${code}`);
    for (const reason of literals('ErrorReason')) {
      assert.ok(hasIn(lang, `err.bad_settings.${reason}`), `err.bad_settings.${reason}`);
    }
  });

  test(`every rule of every game has a ${lang} sentence with its arguments filled`, () => {
    setLang(lang);
    const all = [...Object.entries(GAME_RULES).flatMap(([game, name]) => rules(name).map((r) => ({ game, ...r })))];
    for (const { code } of rules('EngineRule')) all.push({ game: 'big-city', code, args: undefined });
    assert.ok(all.length > 60, `${all.length} rules`);
    for (const { game, code, args } of all) {
      const own = hasIn(lang, `rule.${game}.${code}`) || hasIn(lang, `rule.${code}`);
      assert.ok(own, `${lang}: rule.${game}.${code}`);
      const text = renderError({ code: 'illegal_move', rule: code, args }, { game, seatName: () => 'Ana' });
      assert.doesNotMatch(text, /\{\w+\}/, `${game} ${code}: ${text}`);
      assert.notEqual(text, renderError({ code: 'illegal_move' }), `${game} ${code} has its own sentence`);
    }
  });

  test(`server errors say their arguments in ${lang}`, () => {
    setLang(lang);
    assert.match(renderError({ code: 'bad_chat', args: { max_chars: 500 } }), /500/);
    assert.match(renderError({ code: 'frame_too_large', args: { max_bytes: 65536 } }), /65536/);
    assert.match(renderError({ code: 'rate_limited', args: { retry_after_ms: 1500 } }), /2 s/);
    assert.doesNotMatch(renderError({ code: 'rate_limited' }), /\{/);
    assert.match(renderError({ code: 'bad_settings', args: { reason: 'seats', min: 2, max: 5 } }), /2.*5/);
    assert.match(renderError({ code: 'bad_settings', args: { reason: 'turn_seconds', min: 5, max: 86400 } }), /86400/);
    const amount = renderError({ code: 'bad_settings', args: { reason: 'option_invalid', option: 'custom_events', item: 2, problem: 'amount', max: 5000 } });
    assert.match(amount, /2.*custom_events.*5000/, amount);
    const unknown = renderError({ code: 'bad_settings', args: { reason: 'option_invalid', option: 'custom_events', item: 1, problem: 'no_such_problem' } });
    assert.match(unknown, /custom_events/, unknown);
    assert.doesNotMatch(unknown, /\{/, unknown);
    assert.match(renderError({ code: 'illegal_move', rule: 'stack_empty', args: { stack: 3 } }, { game: 'big-city' }), /3/);
    assert.match(renderError({ code: 'illegal_move', rule: 'bad_pick', args: { seat: 1, index: 0 } }, { game: 'big-city', seatName: (s) => `Seat${s}` }), /Seat1/);
    const hall = renderError({ code: 'illegal_move', rule: 'needs_city_hall', args: { piece: null } }, { game: 'big-city' });
    assert.doesNotMatch(hall, /\{|piece\./, hall);
  });
}
