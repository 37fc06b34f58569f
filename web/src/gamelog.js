// The game log a table page shows: sentences for the events of the moves, newest
// first, kept in the tab's session storage with the number of their game so a
// reload shows the same log and never lines of an earlier game of the table.

/** How many lines a page keeps. */
const MAX_LINES = 300;

/**
 * @typedef {{text: string, version: number}} LogLine
 * @typedef {{game: number, lines: LogLine[]}} GameLog
 * @typedef {{version: number, events: unknown[]}} LoggedEvents
 */

/**
 * The log after events arrived for game `number`: `logged` (oldest first, from a
 * snapshot or an update) replaces what the log held from its first version on,
 * and a log of another game is dropped.
 * @param {GameLog} log
 * @param {number} number
 * @param {LoggedEvents[]} logged
 * @param {(event: unknown) => string | null | undefined} describe
 * @returns {GameLog}
 */
export function withEvents(log, number, logged, describe) {
  let lines = log.game === number ? log.lines : [];
  if (logged.length > 0) {
    const from = logged[0].version;
    lines = lines.filter((l) => l.version < from);
    for (const { version, events } of logged) {
      for (const ev of events) {
        const text = describe(ev);
        if (text) lines.unshift({ text, version });
      }
    }
  }
  return { game: number, lines: lines.slice(0, MAX_LINES) };
}

/**
 * The log this tab kept for the table with `code`.
 * @param {string} code
 * @returns {GameLog}
 */
export function loadLog(code) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(`citytable.log.${code}`) ?? 'null');
    if (Number.isInteger(kept?.game) && Array.isArray(kept.lines)) return kept;
  } catch {
    // unreadable: start afresh
  }
  return { game: -1, lines: [] };
}

/**
 * @param {string} code
 * @param {GameLog} log
 */
export function saveLog(code, log) {
  try {
    sessionStorage.setItem(`citytable.log.${code}`, JSON.stringify(log));
  } catch {
    // not kept across reloads
  }
}
