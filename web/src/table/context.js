// What a piece of the table page gets to act: the current state, dispatch, and
// the few page-level actions.

/**
 * @typedef {import('./state.js').TableState} TableState
 * @typedef {import('./state.js').Action} Action
 * @typedef {import('../wire').ClientMsg} ClientMsg
 *
 * @typedef {object} TableCtx
 * @property {() => TableState} state the state now (read at event time, not render time)
 * @property {(action: Action) => void} dispatch
 * @property {(msg: ClientMsg) => boolean} send sends at once; false when the socket is not open
 * @property {(path: string) => void} go navigates
 * @property {() => void} openReplay fetches the game's record and shows it
 * @property {boolean} [standalone] a record shown outside any table (read from a file)
 */

export {};
