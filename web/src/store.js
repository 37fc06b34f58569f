// What the browser remembers: the display name and one seat token per table.

const NAME_KEY = 'citytable.name';

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
    return localStorage.getItem(`citytable.token.${code}`) || undefined;
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
    localStorage.setItem(`citytable.token.${code}`, token);
  } catch {
    // not persisted
  }
}

/** @param {string} code */
export function forgetToken(code) {
  try {
    localStorage.removeItem(`citytable.token.${code}`);
  } catch {
    // nothing to forget
  }
}
