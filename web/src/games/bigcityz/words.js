// Big Cityz in words: city names in the page's language, squares, wagers and
// the facts of a judgment with their numbers formatted the language's way.

import { t, currentLang } from '../../i18n.js';

/**
 * @typedef {import('./types').CityCard} CityCard
 * @typedef {import('./types').Square} Square
 * @typedef {import('./types').Statement} Statement
 * @typedef {import('./types').Evidence} Evidence
 * @typedef {import('./types').Fact} Fact
 * @typedef {import('./types').View} View
 */

/** The slots of a board, in the order of `BoardView.squares`. */
export const SLOTS = /** @type {const} */ (['green4', 'green2', 'red4', 'red2']);

/** @param {string} slot */
export const slotValue = (slot) => (slot.endsWith('4') ? 4 : 2);

/**
 * A number as the page's language writes it.
 * @param {number} n
 * @param {Intl.NumberFormatOptions} [options]
 */
export function num(n, options) {
  return new Intl.NumberFormat(currentLang(), options).format(n);
}

/** @param {CityCard | null | undefined} card */
export function cityName(card) {
  if (!card) return '';
  return currentLang() === 'fr' ? card.name_fr || card.name_en : card.name_en;
}

/**
 * The country's name in the page's language, from its ISO code.
 * @param {string} code
 */
export function countryName(code) {
  try {
    return new Intl.DisplayNames([currentLang()], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** @param {Statement} st */
export const statementText = (st) => t(`bcz.st.${st}`);

/** Boards are numbered 1 to 4 on the page (0 to 3 on the wire). */
export const boardNo = (/** @type {number} */ b) => b + 1;

/**
 * A square's id in the page (`b2-red4`, `r0-green`), for tests and styling.
 * @param {Square} sq
 */
export function squareKey(sq) {
  return sq.type === 'board' ? `b${sq.board}-${sq.slot}` : `r${sq.pair}-${sq.color}`;
}

/** @param {Square} sq */
export function squareText(sq) {
  if (sq.type === 'board') return t('bcz.square.board', { n: boardNo(sq.board), slot: t(`bcz.slot.${sq.slot}`) });
  return t('bcz.square.risk', { color: t(`bcz.color.${sq.color}`), a: boardNo(sq.pair), b: boardNo((sq.pair + 1) % 4) });
}

/**
 * What placing `city` on `sq` bets, in a sentence.
 * @param {View} view
 * @param {Square} sq
 * @param {string} city
 */
export function wagerText(view, sq, city) {
  if (sq.type === 'board') {
    const statement = statementText(view.boards[sq.board].statement);
    const value = `+${slotValue(sq.slot)}`;
    return t(sq.slot.startsWith('green') ? 'bcz.wager.green' : 'bcz.wager.red', { value, city, statement });
  }
  const a = statementText(view.boards[sq.pair].statement);
  const b = statementText(view.boards[(sq.pair + 1) % 4].statement);
  return t(sq.color === 'green' ? 'bcz.wager.risk_green' : 'bcz.wager.risk_red', { city, a, b });
}

/** @param {number} year */
function yearText(year) {
  return year < 0 ? t('bcz.bc', { year: -year }) : String(year);
}

/** @param {number} minutes */
function utcOffset(minutes) {
  const sign = minutes < 0 ? '−' : '+';
  const m = Math.abs(minutes);
  return `UTC${sign}${Math.floor(m / 60)}${m % 60 ? `:${String(m % 60).padStart(2, '0')}` : ''}`;
}

/**
 * Inhabitants: "15.4 million" from a million on, the whole number below.
 * @param {number} n
 */
function population(n) {
  if (n < 1_000_000) return num(n);
  return num(n, { notation: 'compact', compactDisplay: 'long', maximumFractionDigits: 1 });
}

/**
 * The number behind a fact, in words ("founded in 1137", "2.3 million inhabitants (2023)").
 * @param {Evidence} ev
 */
export function evidenceText(ev) {
  switch (ev.statement) {
    case 'founded_before1700':
      return t('bcz.ev.founded_before1700', { year: yearText(ev.year) });
    case 'south_of_equator': {
      const deg = num(Math.abs(ev.latitude), { maximumFractionDigits: 2 });
      return t('bcz.ev.south_of_equator', { latitude: t(ev.latitude < 0 ? 'bcz.south' : 'bcz.north', { deg }) });
    }
    case 'above708m':
      return t('bcz.ev.above708m', { metres: num(ev.metres) });
    case 'mean11_c_or_more':
      return t('bcz.ev.mean11_c_or_more', { celsius: num(ev.celsius, { minimumFractionDigits: 1, maximumFractionDigits: 1 }), station: ev.station });
    case 'five_hours_from_berlin': {
      // Berlin's standard time is UTC+1.
      const hours = num(Math.abs(ev.utc_offset_minutes - 60) / 60, { maximumFractionDigits: 2 });
      return t('bcz.ev.five_hours_from_berlin', { offset: utcOffset(ev.utc_offset_minutes), zone: ev.time_zone, hours });
    }
    case 'international_airport':
      return ev.airport ? t('bcz.ev.international_airport', { airport: `${ev.airport.name} (${ev.airport.iata})` }) : t('bcz.ev.international_airport.none');
    case 'million_inhabitants':
      return t('bcz.ev.million_inhabitants', { population: population(ev.population), year: ev.year });
    case 'larger_than310_km2':
      return t('bcz.ev.larger_than310_km2', { km2: num(ev.km2, { maximumFractionDigits: 1 }) });
    case 'europe_or_asia':
      return t('bcz.ev.europe_or_asia', { continent: t(`bcz.continent.${ev.continent}`) });
    case 'drives_on_the_left':
    case 'on_the_sea_coast':
    case 'capital':
      return t(`bcz.ev.${ev.statement}.${ev.value ? 'yes' : 'no'}`);
    default:
      return '';
  }
}

/**
 * A fact in one line: "Lagos: 15.4 million inhabitants (2022) — has 1,000,000 or more inhabitants: yes".
 * @param {Fact} fact
 * @param {CityCard} city
 */
export function factText(fact, city) {
  return t('bcz.fact', {
    city: cityName(city),
    evidence: evidenceText(fact.evidence),
    statement: statementText(fact.evidence.statement),
    answer: t(fact.holds ? 'bcz.yes' : 'bcz.no'),
  });
}

/**
 * Where the fact's number comes from, if the data names it.
 * @param {Evidence} ev
 */
export function sourceOf(ev) {
  return 'source' in ev && ev.source ? ev.source : null;
}

/**
 * Points as a signed number ("+4", "−3").
 * @param {number} n
 */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}
