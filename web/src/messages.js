// Refusals as each language says them. The server sends no sentence: an error is a
// stable code, the game's rule code for an illegal move and the typed arguments the
// sentence needs (`ErrorArgs`, or the `args` of the game's rule: `BigCityRule`, `BigCityzRule`,
// `MyCityRule`, `TicTacToeRule`, `EngineRule`). The sentences live in i18n.js and in
// each game's strings: `err.{code}[.{reason}[.{problem}]]`, `rule.{game}.{rule}` and, for the
// rules every game shares, `rule.{rule}`. Events are said by each game's
// `describeEvent` (games/*.js) from their typed kinds.

import { t, has } from './i18n.js';
import { ApiError } from './api.js';

/** Games whose refusals carry structured arguments say them themselves. */
const RULE_WORDS = new Map();

/**
 * Lets a game say its own refusals (`rule` and `args` of an `illegal_move`).
 * @param {string} game
 * @param {(rule: string, args: unknown) => string | null} words
 */
export function registerRuleWords(game, words) {
  RULE_WORDS.set(game, words);
}

/**
 * @typedef {import('./wire').ErrorArgs} ErrorArgs
 * @typedef {{ code: string, rule?: string, args?: ErrorArgs | Record<string, unknown> }} Refusal
 * @typedef {{ game?: string, seatName?: (seat: number) => string }} Context
 */

/**
 * The sentence for an `error` message or an API error, in the current language.
 * @param {Refusal} err
 * @param {Context} [ctx]
 * @returns {string}
 */
export function renderError(err, ctx = {}) {
  /** @type {Record<string, unknown>} */
  const args = { ...(err.args ?? {}) };
  const params = toParams(args, ctx);
  if (err.code === 'illegal_move' && err.rule) {
    const own = ctx.game ? RULE_WORDS.get(ctx.game) : undefined;
    if (own) {
      try {
        const said = own(err.rule, err.args ?? {});
        if (said) return said;
      } catch {
        // not said by the game: the shared words below
      }
    }
    const key = [ctx.game ? `rule.${ctx.game}.${err.rule}` : null, `rule.${err.rule}`].find((k) => k && has(k));
    return key ? t(variant(key, args), params) : t('err.illegal_move');
  }
  const reason = typeof args.reason === 'string' ? `err.${err.code}.${args.reason}` : null;
  // A game may say a reason its own way (a mode that fixes the seat count).
  if (reason && ctx.game && has(`${reason}.${ctx.game}`)) return t(variant(`${reason}.${ctx.game}`, args), params);
  // A game's own problem with an option (`option_invalid`) may have its own sentence.
  const problem = reason && typeof args.problem === 'string' ? `${reason}.${args.problem}` : null;
  if (problem && has(problem)) return t(variant(problem, args), params);
  if (reason && has(reason)) return t(variant(reason, args), params);
  if (has(`err.${err.code}`)) return t(variant(`err.${err.code}`, args), params);
  return t('err.unknown', { code: err.code });
}

/**
 * A key's variant for an argument the sentence names that is absent or null
 * (`rule.big-city.needs_city_hall.no_piece`), when the strings have one.
 * @param {string} key
 * @param {Record<string, unknown>} args
 */
function variant(key, args) {
  const template = t(key);
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    const name = argOf(m[1]);
    if (args[name] === undefined || args[name] === null) {
      const alt = `${key}.no_${name}`;
      if (has(alt)) return alt;
    }
  }
  return key;
}

/**
 * The argument a placeholder stands for (`{a_piece}` and `{A_piece}` say `piece`).
 * @param {string} placeholder
 */
function argOf(placeholder) {
  if (placeholder === 'a_piece' || placeholder === 'A_piece') return 'piece';
  if (placeholder === 'seconds') return 'retry_after_ms';
  return placeholder;
}

/**
 * Placeholders from typed arguments: pieces by name (with an article), seats by
 * the player's name, delays in seconds; `n` carries the count that picks a
 * singular form (`KEY.one`).
 * @param {Record<string, unknown>} args
 * @param {Context} ctx
 * @returns {Record<string, string | number>}
 */
function toParams(args, ctx) {
  /** @type {Record<string, string | number>} */
  const out = {};
  for (const [k, v] of Object.entries(args)) {
    if (k === 'piece' && typeof v === 'string') {
      out.piece = t(`piece.${v}`);
      const a = t(`art.${v}`);
      out.a_piece = a;
      out.A_piece = a.charAt(0).toUpperCase() + a.slice(1);
    } else if (k === 'seat' && typeof v === 'number') {
      out.seat = ctx.seatName ? ctx.seatName(v) : `#${v + 1}`;
    } else if (k === 'retry_after_ms' && typeof v === 'number') {
      out.seconds = Math.max(1, Math.ceil(v / 1000));
    } else if (typeof v === 'string' || typeof v === 'number') {
      out[k] = v;
    }
  }
  const count = args.min ?? args.max;
  if (typeof count === 'number' && !('reason' in args)) out.n = count;
  return out;
}

/**
 * What went wrong with an API call, in words: a refusal said from its code, an
 * unreachable server, or the error as it is.
 * @param {unknown} err
 * @param {string} [game] the game the request was for (its own words for a refusal)
 */
export function errText(err, game) {
  if (err instanceof ApiError) {
    if (err.code === 'unreachable') return t('home.server_down');
    return renderError(err, { game });
  }
  return String(err);
}
