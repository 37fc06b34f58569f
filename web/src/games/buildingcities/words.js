// Building Cities in words, in the page's language: Maya, blocks, targets, the
// handbook's bonuses and requirements, card effects, objective goals, and the
// rules' refusals (`BuildingCitiesRule`, the map's `BuildingCitiesRefusal`) from
// their codes and arguments. Names come from the handbook, sentences from
// strings.js; nothing here is built in Rust.

import { t, currentLang } from '../../i18n.js';
import { buildingName, goodName, say, handbookNow } from './handbook.js';
import { localBlock } from './geometry.js';

/**
 * @typedef {import('./types').Block} Block
 * @typedef {import('./types').Target} Target
 * @typedef {import('./types').Effect} Effect
 * @typedef {import('./types').Goal} Goal
 * @typedef {import('./types').Requirement} Requirement
 * @typedef {import('./types').Bonus} Bonus
 * @typedef {import('./types').Rule} Rule
 * @typedef {import('./types').Refusal} Refusal
 * @typedef {import('./types').Building} Building
 */

/** @param {number} n */
export const num = (n) => new Intl.NumberFormat(currentLang() === 'fr' ? 'fr-FR' : 'en-US').format(n);

/**
 * An amount of Maya: "1,200 Maya".
 * @param {number} n
 */
export const maya = (n) => t('bci.maya', { amount: num(n) });

/**
 * A signed amount: "+300 Maya", "−300 Maya".
 * @param {number} n
 */
export const signedMaya = (n) => `${n < 0 ? '−' : '+'}${maya(Math.abs(n))}`;

/**
 * A signed number: "+12", "−5", "0".
 * @param {number} n
 */
export const signed = (n) => (n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : '0');

/**
 * A block as a player reads it: "D2, column 3, row 5".
 * @param {Block} b
 */
export function blockText(b) {
  const l = localBlock(b);
  return t('bci.block', { district: l.district ?? '?', col: l.col, row: l.row });
}

/**
 * What a target names, counted: "3 blue tiles", "1 × Office", "2 industries".
 * @param {Target} target
 * @param {number} n
 */
export function targetText(target, n) {
  if ('building' in target) return t('bci.target.building', { n: num(n), name: buildingName(target.building) });
  if ('colour' in target) return t(`bci.colour_n.${target.colour}`, { n });
  return t(`bci.category_n.${target.category}`, { n });
}

/**
 * What a target names, as a kind of thing: "Office", "blue tiles", "industries".
 * @param {Target} target
 */
export function targetName(target) {
  if ('building' in target) return buildingName(target.building);
  if ('colour' in target) return t(`bci.colour.${target.colour}`);
  return t(`bci.category.${target.category}`);
}

/**
 * One thing a target names: "Office", "blue tile", "industry".
 * @param {Target} target
 */
export function targetUnit(target) {
  if ('building' in target) return buildingName(target.building);
  if ('colour' in target) return t(`bci.colour_unit.${target.colour}`);
  return t(`bci.category_unit.${target.category}`);
}

/**
 * A requirement of the handbook.
 * @param {Requirement} r
 */
export function requirementText(r) {
  switch (r.kind) {
    case 'count':
      return t(`bci.req.count.${r.scope}`, { what: targetText(r.target, r.min) });
    case 'districts':
      return t('bci.req.districts', { n: r.min });
    case 'owns_district':
      return t('bci.req.owns_district', { district: `D${r.district}` });
    case 'sea_areas':
      return t('bci.req.sea_areas', { n: r.min });
    case 'grid_level':
      return t('bci.req.grid_level', { level: r.min });
    default:
      return t('bci.unknown');
  }
}

/**
 * A bonus or malus: "+10", "+2 per blue tile within 1", "+50% of its value per
 * yellow tile within 1".
 * @param {Bonus} b
 */
export function bonusText(b) {
  const amount = b.percent ? t('bci.bonus.percent', { percent: signed(b.percent) }) : signed(b.value);
  if (!b.target) return amount;
  return t('bci.bonus.per', { amount, what: targetUnit(b.target), range: b.range });
}

/**
 * A card's effect in a few words (the card's own text says it at length).
 * @param {Effect} e
 */
export function effectText(e) {
  switch (e.kind) {
    case 'nothing':
    case 'task_force':
    case 'blank':
      return t(`bci.effect.${e.kind}`);
    case 'gain_maya':
      return signedMaya(e.amount);
    case 'lose_maya':
      return signedMaya(-e.amount);
    case 'lose_bank_percent':
      return t('bci.effect.lose_bank_percent', { percent: e.percent });
    case 'per_building':
      return t('bci.effect.per_building', { amount: signedMaya(e.amount), what: targetName(e.target) });
    case 'per_district_without':
      return t('bci.effect.per_district_without', { amount: signedMaya(-e.amount), what: targetName(e.target) });
    case 'coverage':
      return t('bci.effect.coverage', { what: targetName(e.target), district: t(`bci.pick.${e.pick}`), adjacent: signedMaya(-e.adjacent), farther: signedMaya(-e.farther) });
    case 'unless_built':
      return t('bci.effect.unless_built', { amount: signedMaya(-e.amount), what: targetName(e.target) });
    case 'good_market':
      return t('bci.effect.good_market', { amount: signedMaya(e.amount), good: goodName(e.good) });
    case 'destroy':
      return t(`bci.effect.destroy.${e.chooser}`, { what: targetName(e.target) });
    case 'skip_building_phase':
      return t('bci.effect.skip_building_phase', { n: e.turns });
    case 'moves_percent':
      return t('bci.effect.moves_percent', { percent: e.percent, n: e.turns });
    case 'value_percent':
      return t('bci.effect.value_percent', { percent: e.percent, n: e.turns });
    case 'grid_failure':
      return t('bci.effect.grid_failure', { amount: signedMaya(-e.amount), grid: t(`bci.grid.${e.grid}`), level: e.level });
    case 'demand':
      return t('bci.effect.demand', { what: targetName(e.target), impossible: maya(e.impossible), refused: maya(e.refused) });
    case 'district_penalty':
      return t('bci.effect.district_penalty', { percent: e.percent, district: t(`bci.pick.${e.pick}`) });
    case 'trade':
      return t('bci.effect.trade', { faces: e.faces.map((f) => t(`bci.route.${f.route}`, { die: f.die, amount: maya(f.per_unit) })).join('; ') });
    case 'legendary':
      return t('bci.effect.legendary', { name: buildingName(e.building) });
    default:
      return t('bci.unknown');
  }
}

/**
 * One goal of an objective.
 * @param {Goal} g
 */
export function goalText(g) {
  switch (g.kind) {
    case 'build':
      return targetText(g.target, g.count);
    case 'bank':
      return t('bci.goal.bank', { amount: maya(g.amount) });
    case 'grid_level':
      return t('bci.goal.grid_level', { level: g.level, n: g.districts });
    case 'districts':
      return t('bci.goal.districts', { n: g.count });
    default:
      return t('bci.unknown');
  }
}

/**
 * Why the map refuses a placement or a purchase.
 * @param {Refusal} r
 */
export function refusalText(r) {
  /** @type {Record<string, string | number>} */
  const p = {};
  for (const [k, v] of Object.entries(r)) {
    if (k === 'code') continue;
    if (v && typeof v === 'object' && 'x' in v) p[k] = blockText(/** @type {Block} */ (v));
    else if (typeof v === 'string' || typeof v === 'number') p[k] = v;
  }
  return t(`bci.refusal.${r.code}`, p);
}

/**
 * Why the rules refuse a move (also the palette's "why not").
 * @param {Rule} rule
 */
export function ruleText(rule) {
  const args = /** @type {Record<string, any>} */ ('args' in rule ? rule.args : {});
  if (rule.code === 'map') return refusalText(args.refusal);
  /** @type {Record<string, string | number>} */
  const p = {};
  for (const [k, v] of Object.entries(args)) {
    if (k === 'building' && typeof v === 'string') p.name = buildingName(v);
    else if (typeof v === 'number') p[k] = ['needed', 'bank', 'spent', 'min', 'bank_more_than'].includes(k) && rule.code !== 'not_enough_moves' ? maya(v) : num(v);
  }
  return t(`bci.rule.${rule.code}`, p);
}

/**
 * A building's requirements in words, joined.
 * @param {Building} b
 */
export const requirementsText = (b) => b.requirements.map(requirementText).join(' · ');

/**
 * A building's bonuses and maluses in words, joined.
 * @param {Building} b
 */
export const bonusesText = (b) => b.bonuses.map(bonusText).join(' · ');

/**
 * The name of the objective's goals, with its turn limit.
 * @param {string} id
 */
export function objectiveGoals(id) {
  const o = handbookNow()?.objectives.get(id);
  if (!o) return '';
  return o.goals.map(goalText).join(' · ');
}

/**
 * Goods in words: "Textiles and Steel".
 * @param {string[]} goods
 */
export const goodsText = (goods) => goods.map(goodName).join(currentLang() === 'fr' ? ' et ' : ' and ');

export { say };
