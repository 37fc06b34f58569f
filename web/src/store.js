// What the browser remembers: the display name and one seat token per table
// (with when it was last kept, so "My tables" asks about the latest ones).

const NAME_KEY = 'citytable.name';
const TOKEN_PREFIX = 'citytable.token.';
/** When each code's token was last kept: `{code: ms since the epoch}`. */
const KEPT_AT_KEY = 'citytable.kept';

/** @returns {string} */
export function getName() {
  try {
    return localStorage.getItem(NAME_KEY) || '';
  } catch {
    return '';
  }
}

/** @param {string} name */
export function setName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // private mode: kept for this page only
  }
}

/** @param {string} code */
export function getToken(code) {
  try {
    return localStorage.getItem(TOKEN_PREFIX + code) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * @param {string} code
 * @param {string} token
 */
export function setToken(code, token) {
  try {
    localStorage.setItem(TOKEN_PREFIX + code, token);
    writeKeptAt({ ...readKeptAt(), [code]: Date.now() });
  } catch {
    // not persisted
  }
}

/** @param {string} code */
export function forgetToken(code) {
  try {
    localStorage.removeItem(TOKEN_PREFIX + code);
    const { [code]: _, ...rest } = readKeptAt();
    writeKeptAt(rest);
  } catch {
    // nothing to forget
  }
}

/** @returns {Record<string, number>} */
function readKeptAt() {
  try {
    const at = JSON.parse(localStorage.getItem(KEPT_AT_KEY) || '{}');
    return at && typeof at === 'object' ? at : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, number>} at */
function writeKeptAt(at) {
  localStorage.setItem(KEPT_AT_KEY, JSON.stringify(at));
}

/**
 * The seats this browser keeps, latest kept first, once each (a table opened
 * by two codes keeps one token under both).
 * @param {number} max
 * @returns {{code: string, token: string}[]}
 */
export function keptSeats(max) {
  try {
    const at = readKeptAt();
    const codes = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(TOKEN_PREFIX)) codes.push(key.slice(TOKEN_PREFIX.length));
    }
    codes.sort((a, b) => (at[b] ?? 0) - (at[a] ?? 0));
    const seen = new Set();
    const out = [];
    for (const code of codes) {
      const token = getToken(code);
      if (!token || seen.has(token)) continue;
      seen.add(token);
      out.push({ code, token });
    }
    return out.slice(0, max);
  } catch {
    return [];
  }
}
