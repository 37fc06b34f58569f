// Provably fair shuffles, on the page's side: the commitments this browser was
// shown when games started, and the check of a record's revealed seed against
// its commitment (PROTOCOL.md, "Fair shuffles"). The replay of the seed itself
// is the server's `POST /api/records/verify`, the same check as
// `citytable verify`.

import { sha256Hex, hexBytes } from './sha256.js';

const SEEN_KEY = 'citytable.commitments';
/** Commitments remembered at most (oldest forgotten first). */
const SEEN_MAX = 200;

/**
 * @typedef {object} SeenCommitment
 * @property {string} commitment
 * @property {string} game
 * @property {number} at milliseconds since the Unix epoch, when first shown
 */

/** @returns {SeenCommitment[]} */
function seenList() {
  try {
    const list = JSON.parse(localStorage.getItem(SEEN_KEY) || '[]');
    return Array.isArray(list) ? list.filter((e) => e && typeof e.commitment === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Remembers that this browser was shown `commitment` at the start of a game.
 * @param {string} commitment
 * @param {string} game
 * @param {number} now
 */
export function rememberCommitment(commitment, game, now) {
  const list = seenList();
  if (list.some((e) => e.commitment === commitment)) return;
  list.push({ commitment, game, at: now });
  try {
    localStorage.setItem(SEEN_KEY, JSON.stringify(list.slice(-SEEN_MAX)));
  } catch {
    // not remembered: the replay then cannot say this browser saw it
  }
}

/**
 * When this browser was shown `commitment`, if it was.
 * @param {string} commitment
 * @returns {SeenCommitment | undefined}
 */
export function seenCommitment(commitment) {
  return seenList().find((e) => e.commitment === commitment.toLowerCase());
}

/**
 * Whether a record's revealed seed and salt hash to its commitment.
 * @param {{seed: unknown, salt?: string, commitment?: string}} record
 * @returns {'matches' | 'differs' | 'absent'}
 */
export function commitmentCheck(record) {
  if (record.salt === undefined && record.commitment === undefined) return 'absent';
  if (typeof record.seed !== 'string' || record.seed.length !== 16 || typeof record.salt !== 'string' || record.salt.length !== 32) {
    return 'differs';
  }
  const bytes = hexBytes(record.seed + record.salt);
  if (!bytes || typeof record.commitment !== 'string') return 'differs';
  return sha256Hex(bytes) === record.commitment.toLowerCase() ? 'matches' : 'differs';
}
