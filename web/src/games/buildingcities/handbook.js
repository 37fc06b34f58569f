// The Engineer's Handbook in the browser: fetched once from the server, which
// serves the rules crate's own embedded data (`/api/games/building-cities/reference`),
// and looked up by id. Names and card texts come from it in the page's language.

import { currentLang, t } from '../../i18n.js';

/**
 * @typedef {import('./types').Handbook} Handbook
 * @typedef {import('./types').Building} Building
 * @typedef {import('./types').Card} Card
 * @typedef {import('./types').Objective} Objective
 * @typedef {import('./types').Good} Good
 * @typedef {import('./types').Text} Text
 *
 * @typedef {object} Book the handbook with its indexes
 * @property {Handbook} raw
 * @property {Map<string, Building>} buildings
 * @property {Map<string, Card>} cards events, challenges and the Task Force
 * @property {Map<string, Objective>} objectives
 * @property {Map<string, Good>} goods
 */

export const HANDBOOK_URL = '/api/games/building-cities/reference';

/** @type {Book | null} */
let book = null;
/** @type {Promise<Book> | null} */
let loading = null;

/**
 * Uses this handbook (the fixture pages and unit tests give it; the board
 * fetches it).
 * @param {Handbook} raw
 * @returns {Book}
 */
export function provideHandbook(raw) {
  const cards = new Map();
  for (const c of [...raw.events, ...raw.challenges, raw.task_force]) cards.set(c.id, c);
  book = {
    raw,
    buildings: new Map(raw.buildings.map((b) => [b.id, b])),
    cards,
    objectives: new Map(raw.objectives.map((o) => [o.id, o])),
    goods: new Map(raw.goods.map((g) => [g.id, g])),
  };
  return book;
}

/** The handbook if it is here already. */
export function handbookNow() {
  return book;
}

/**
 * The handbook, fetched once per page (a failed fetch is tried again on the
 * next call).
 * @returns {Promise<Book>}
 */
export function loadHandbook() {
  if (book) return Promise.resolve(book);
  loading ??= fetch(HANDBOOK_URL)
    .then((res) => {
      if (!res.ok) throw new Error(`handbook: HTTP ${res.status}`);
      return res.json();
    })
    .then((raw) => provideHandbook(raw))
    .catch((err) => {
      loading = null;
      throw err;
    });
  return loading;
}

/**
 * A handbook text in the page's language.
 * @param {Text | undefined} text
 */
export function say(text) {
  if (!text) return t('bci.unknown');
  return text[currentLang()] ?? text.en;
}

/** @param {string} id */
export const building = (id) => book?.buildings.get(id);
/** @param {string} id */
export const card = (id) => book?.cards.get(id);
/** @param {string} id */
export const objective = (id) => book?.objectives.get(id);

/** @param {string} id */
export const buildingName = (id) => say(building(id)?.name);
/** @param {string} id */
export const cardName = (id) => say(card(id)?.name);
/** @param {string} id */
export const cardText = (id) => say(card(id)?.text);
/** @param {string} id */
export const goodName = (id) => say(book?.goods.get(id)?.name);
/** @param {string} id */
export const objectiveName = (id) => say(objective(id)?.name);
/** @param {string} id */
export const objectiveText = (id) => say(objective(id)?.text);
