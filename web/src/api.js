// The HTTP JSON API under /api.

/**
 * @typedef {import('./wire').GameInfo} GameInfo
 * @typedef {import('./wire').CreateTable} CreateTable
 * @typedef {import('./wire').TableCreated} TableCreated
 * @typedef {import('./wire').PublicTables} PublicTables
 * @typedef {import('./wire').CodeInfo} CodeInfo
 * @typedef {import('./wire').GameRecord} GameRecord
 * @typedef {import('./wire').KeptSeat} KeptSeat
 * @typedef {import('./wire').MyTables} MyTables
 */

/**
 * An API refusal: `code` is the stable error code, `args` what its sentence needs
 * (said in the page's language by messages.js `renderError`).
 */
export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {import('./wire').ErrorArgs | undefined} args
   * @param {number} status
   */
  constructor(code, args, status) {
    super(code);
    this.code = code;
    this.args = args;
    this.status = status;
  }
}

/**
 * @param {string} path
 * @param {RequestInit} [init]
 * @returns {Promise<any>}
 */
async function call(path, init) {
  let res;
  try {
    res = await fetch(`/api${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
  } catch {
    throw new ApiError('unreachable', undefined, 0);
  }
  const text = await res.text();
  /** @type {any} */
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    throw new ApiError(body?.code ?? `http_${res.status}`, body?.args, res.status);
  }
  return body;
}

/** @returns {Promise<GameInfo[]>} */
export const listGames = () => call('/games');

/**
 * @param {CreateTable} req
 * @returns {Promise<TableCreated>}
 */
export const createTable = (req) => call('/tables', { method: 'POST', body: JSON.stringify(req) });

/**
 * One page of the public lobby (the first, or the one after `after`).
 * @param {string} [after]
 * @returns {Promise<PublicTables>}
 */
export const publicTables = (after) => call(after ? `/tables?after=${encodeURIComponent(after)}` : '/tables');

/**
 * @param {string} code
 * @returns {Promise<CodeInfo>}
 */
export const lookupCode = (code) => call(`/tables/${encodeURIComponent(code)}`);

/**
 * @param {string} code
 * @returns {Promise<GameRecord>}
 */
export const gameRecord = (code) => call(`/tables/${encodeURIComponent(code)}/record`);

/**
 * The tables of the seats this browser keeps.
 * @param {KeptSeat[]} seats
 * @returns {Promise<MyTables>}
 */
export const myTables = (seats) => call('/my-tables', { method: 'POST', body: JSON.stringify({ seats }) });

/**
 * Replays a record on the server (the check `citytable verify` makes).
 * @param {GameRecord} record
 * @returns {Promise<import('./wire').RecordCheck>}
 */
export const verifyRecord = (record) => call('/records/verify', { method: 'POST', body: JSON.stringify(record) });
