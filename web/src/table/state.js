// Everything the table page knows, as one value, and the one function that
// changes it: `reduce(state, action)` for each server message and each action of
// the page. It is pure (no DOM, socket, clock or storage): what must happen
// outside (send a message, keep a token, show an error) is listed in the new
// state's `effects`, which the page carries out after each action.

import { applyPatch } from '../patch.js';
import { withEvents } from '../gamelog.js';

/**
 * @typedef {import('../wire').ServerMsg} ServerMsg
 * @typedef {import('../wire').ClientMsg} ClientMsg
 * @typedef {import('../wire').You} You
 * @typedef {import('../wire').TableInfo} TableInfo
 * @typedef {import('../wire').TableSettings} TableSettings
 * @typedef {import('../wire').AwaitingInfo} AwaitingInfo
 * @typedef {import('../wire').Outcome} Outcome
 * @typedef {import('../wire').ChatLine} ChatLine
 * @typedef {import('../wire').ErrorMsg} ErrorMsg
 * @typedef {import('../wire').GameInfo} GameInfo
 * @typedef {import('../wire').GameRecord} GameRecord
 * @typedef {import('../gamelog.js').GameLog} GameLog
 * @typedef {import('../gamelog.js').LoggedEvents} LoggedEvents
 *
 * @typedef {object} GameState
 * @property {number} number which game of the table (1 for the first; play again counts on)
 * @property {number} version
 * @property {any} view
 * @property {AwaitingInfo} awaiting
 * @property {Outcome | undefined} outcome
 * @property {number} awaitingAt the page's clock (ms) when `awaiting` arrived: the timer's base
 * @property {string | undefined} commitment SHA-256 of the game's secret seed and salt (fairness.js)
 *
 * @typedef {'connecting' | 'open' | 'lost'} ConnState
 *
 * @typedef {object} ReplayState
 * @property {GameRecord} record
 * @property {number} step entries shown (0: the first view; `record.patches.length`: the end)
 * @property {boolean} playing
 *
 * @typedef {{type: 'send', msg: ClientMsg}
 *   | {type: 'keep_token', token: string, codes: string[]}
 *   | {type: 'keep_commitment', commitment: string, game: string}
 *   | {type: 'forget_token'}
 *   | {type: 'reconnect'}
 *   | {type: 'check_code'}
 *   | {type: 'save_log'}
 *   | {type: 'error', err: ErrorMsg}} Effect
 *
 * @typedef {{type: 'move', mv: unknown} | {type: 'undo'}} PendingMsg a move or an undo, without its id and version
 *
 * @typedef {object} TableState
 * @property {string} code the code of the link that opened the page
 * @property {You | null} you
 * @property {TableInfo | null} table
 * @property {GameState | null} game
 * @property {boolean} resyncing a resync was asked and its snapshot has not come yet
 * @property {{version: number, moves: any[], of?: string | null} | null} legal my legal moves at `version`
 *   (the last answer: all of them, or the part its `of` names)
 * @property {{version: number, parts: string[]}} legalAsked the parts asked for at `version` (`''`: all)
 * @property {number} movedAtVersion the version the last move was sent on (-1 once refused)
 * @property {number} nextMoveId
 * @property {Record<number, PendingMsg>} pending moves (and undos) sent and not answered yet, by id
 * @property {boolean} reopened a new connection is open and its first snapshot not come yet
 * @property {ChatLine[]} chat
 * @property {GameLog} log
 * @property {ConnState} conn
 * @property {GameInfo[]} games the server's games
 * @property {GameInfo | undefined} info the table's game among them
 * @property {boolean} spectatorLink opened with a spectator link: no seat to take
 * @property {TableSettings | null} draft the host's unapplied settings
 * @property {boolean} settingsOpen
 * @property {ErrorMsg | null} fatal an error that ends the page (no such table...)
 * @property {boolean} badLink the link's code names no table
 * @property {ReplayState | null} replay
 * @property {Effect[]} effects what the last action asks of the page
 *
 * @typedef {{type: 'server', msg: ServerMsg, at: number}
 *   | {type: 'status', conn: ConnState}
 *   | {type: 'games', games: GameInfo[]}
 *   | {type: 'code_info', spectator: boolean}
 *   | {type: 'bad_link'}
 *   | {type: 'move', mv: unknown}
 *   | {type: 'undo'}
 *   | {type: 'ask_legal', of?: string}
 *   | {type: 'send', msg: ClientMsg}
 *   | {type: 'draft', settings: TableSettings}
 *   | {type: 'settings_open', open: boolean}
 *   | {type: 'replay_open', record: GameRecord}
 *   | {type: 'replay_show', step: number}
 *   | {type: 'replay_play', playing: boolean}
 *   | {type: 'replay_close'}} Action
 *
 * @typedef {object} Env
 * @property {(event: unknown, state: TableState) => string | null | undefined} [describe]
 *   a game event in words, for the log
 */

/** How many chat lines the page keeps. */
export const MAX_CHAT = 200;

/**
 * @param {string} code
 * @param {GameLog} [log] the log this tab kept for the table
 * @returns {TableState}
 */
export function initialState(code, log = { game: -1, lines: [] }) {
  return {
    code,
    you: null,
    table: null,
    game: null,
    resyncing: false,
    legal: null,
    legalAsked: { version: -1, parts: [] },
    movedAtVersion: -1,
    nextMoveId: 1,
    pending: {},
    reopened: false,
    chat: [],
    log,
    conn: 'connecting',
    games: [],
    info: undefined,
    spectatorLink: false,
    draft: null,
    settingsOpen: false,
    fatal: null,
    badLink: false,
    replay: null,
    effects: [],
  };
}

/**
 * The state after `action`; `effects` lists what the page must do for it.
 * @param {TableState} state
 * @param {Action} action
 * @param {Env} [env]
 * @returns {TableState}
 */
export function reduce(state, action, env = {}) {
  const s = { ...state, effects: /** @type {Effect[]} */ ([]) };
  switch (action.type) {
    case 'server':
      return receive(s, action.msg, action.at, env);
    case 'status':
      s.conn = action.conn;
      if (action.conn === 'open') {
        s.resyncing = false;
        s.reopened = true;
      }
      if (action.conn === 'lost' && !s.you) s.effects.push({ type: 'check_code' });
      return s;
    case 'games':
      s.games = action.games;
      s.info = action.games.find((g) => g.id === s.table?.game) ?? s.info;
      return s;
    case 'code_info':
      s.spectatorLink = action.spectator;
      return s;
    case 'bad_link':
      s.badLink = true;
      return s;
    case 'move':
    case 'undo': {
      // One move (or undo) per version: a second click before the first is
      // answered would only be refused as stale.
      const game = s.game;
      if (!game || s.movedAtVersion === game.version) return s;
      const id = s.nextMoveId;
      s.nextMoveId = id + 1;
      s.movedAtVersion = game.version;
      /** @type {PendingMsg} */
      const body = action.type === 'move' ? { type: 'move', mv: action.mv } : { type: 'undo' };
      s.pending = { ...s.pending, [id]: body };
      // Made while the page reconnects: it goes with the new connection's
      // snapshot, if the game is still where the player saw it.
      if (s.conn === 'open' && !s.reopened) s.effects.push({ type: 'send', msg: { ...body, id, version: game.version } });
      return s;
    }
    case 'ask_legal': {
      // Each part once per version (a board may need several parts at once).
      if (!s.game) return s;
      const part = action.of ?? '';
      const asked = s.legalAsked.version === s.game.version ? s.legalAsked.parts : [];
      if (asked.includes(part)) return s;
      s.legalAsked = { version: s.game.version, parts: [...asked, part] };
      s.effects.push({ type: 'send', msg: action.of === undefined ? { type: 'legal_moves' } : { type: 'legal_moves', of: action.of } });
      return s;
    }
    case 'send':
      s.effects.push({ type: 'send', msg: action.msg });
      return s;
    case 'draft':
      s.draft = action.settings;
      return s;
    case 'settings_open':
      s.settingsOpen = action.open;
      return s;
    case 'replay_open':
      s.replay = { record: action.record, step: action.record.patches.length, playing: false };
      return s;
    case 'replay_show': {
      if (!s.replay) return s;
      const last = s.replay.record.patches.length;
      s.replay = { ...s.replay, step: Math.max(0, Math.min(last, action.step)) };
      return s;
    }
    case 'replay_play':
      if (!s.replay) return s;
      // Playing from the end starts over.
      s.replay = { ...s.replay, playing: action.playing, step: action.playing && s.replay.step >= s.replay.record.patches.length ? 0 : s.replay.step };
      return s;
    case 'replay_close':
      s.replay = null;
      return s;
    default:
      return s;
  }
}

/**
 * @param {TableState} s a fresh copy, changed in place
 * @param {ServerMsg} msg
 * @param {number} at
 * @param {Env} env
 * @returns {TableState}
 */
function receive(s, msg, at, env) {
  switch (msg.type) {
    case 'welcome': {
      s.you = msg.you;
      const token = msg.you.token;
      if (token) s.effects.push({ type: 'keep_token', token, codes: msg.table.invite_code ? [s.code, msg.table.invite_code] : [s.code] });
      return setTable(s, msg.table);
    }
    case 'table':
      return setTable(s, msg.table);
    case 'snapshot': {
      const g = msg.game;
      s.resyncing = false;
      s.legalAsked = { version: -1, parts: [] };
      const unanswered = Math.max(-1, ...Object.keys(s.pending).map(Number));
      if (s.reopened && unanswered >= 0 && s.movedAtVersion === g.version) {
        // The last move was made while the page reconnected, or its connection
        // was lost before the answer, and the game is still where the move was
        // made: the move never reached it (the server that had the table
        // stopped), so it is sent now. Anything else since would have moved the
        // version on.
        const body = s.pending[unanswered];
        s.pending = { [unanswered]: body };
        s.effects.push({ type: 'send', msg: { ...body, id: unanswered, version: g.version } });
      } else {
        s.movedAtVersion = -1;
      }
      s.reopened = false;
      s.game = { number: g.number ?? 0, version: g.version, view: g.view, awaiting: g.awaiting, outcome: g.outcome, awaitingAt: at, commitment: g.commitment };
      if (g.commitment && s.table) s.effects.push({ type: 'keep_commitment', commitment: g.commitment, game: s.table.game });
      return gameChanged(s, g.recent_events ?? [], env);
    }
    case 'update': {
      const game = s.game;
      if (!game || msg.version !== game.version + 1) {
        // A gap (or no game yet): a newer version asks for the whole game once; an
        // old one is dropped.
        if ((!game || msg.version > game.version) && !s.resyncing) resync(s);
        return s;
      }
      let view;
      try {
        view = applyPatch(structuredClone(game.view), msg.patch);
      } catch {
        s.game = null;
        resync(s);
        return s;
      }
      // An update says whose decision it is only when that (or its timer) changed.
      const awaiting = msg.awaiting ? { awaiting: msg.awaiting, awaitingAt: at } : {};
      s.game = { ...game, version: msg.version, view, outcome: msg.outcome, ...awaiting };
      return gameChanged(s, [{ version: msg.version, events: msg.events }], env);
    }
    case 'move_ok': {
      const { [msg.id]: _, ...rest } = s.pending;
      s.pending = rest;
      return s;
    }
    case 'legal_moves':
      s.legal = msg.of === undefined ? { version: msg.version, moves: msg.moves } : { version: msg.version, moves: msg.moves, of: msg.of };
      return s;
    case 'chat': {
      const line = msg.line;
      // Recent lines are replayed after each welcome: keep each line once.
      if (s.chat.some((c) => c.at_ms === line.at_ms && c.name === line.name && c.text === line.text)) return s;
      s.chat = [...s.chat, line].slice(-MAX_CHAT);
      return s;
    }
    case 'error':
      return error(s, msg);
    default:
      return s;
  }
}

/** @param {TableState} s */
function resync(s) {
  s.resyncing = true;
  s.effects.push({ type: 'send', msg: { type: 'resync' } });
}

/**
 * @param {TableState} s
 * @param {TableInfo} tbl
 */
function setTable(s, tbl) {
  const old = s.table;
  if (old && old.status === 'finished' && tbl.status !== 'finished') {
    // Play again: a new game starts; the old log goes.
    s.log = { game: -1, lines: [] };
    s.effects.push({ type: 'save_log' });
    s.legal = null;
    if (tbl.status === 'lobby') s.game = null;
  }
  if (old?.status !== tbl.status || JSON.stringify(old?.settings) !== JSON.stringify(tbl.settings)) s.draft = null;
  s.table = tbl;
  s.info = s.games.find((g) => g.id === tbl.game) ?? s.info;
  return s;
}

/**
 * A snapshot or an update arrived: its moves' events go to the log.
 * @param {TableState} s
 * @param {LoggedEvents[]} logged
 * @param {Env} env
 */
function gameChanged(s, logged, env) {
  const game = /** @type {GameState} */ (s.game);
  // A snapshot repeats the latest moves' events (for a late joiner or a reload);
  // they replace what the page held for those moves. A new game (play again) or
  // a log kept from an older one starts afresh.
  const describe = env.describe;
  if (describe && (s.log.game !== game.number || logged.some((l) => l.events.length))) {
    s.log = withEvents(s.log, game.number, logged, (ev) => describe(ev, s));
    s.effects.push({ type: 'save_log' });
  }
  if (game.outcome && s.table && s.table.status !== 'finished') s.table = { ...s.table, status: 'finished' };
  return s;
}

/**
 * @param {TableState} s
 * @param {ErrorMsg} err
 */
function error(s, err) {
  if (err.code === 'bad_token') {
    // The kept token is not this table's any more: forget it and come back as new.
    s.effects.push({ type: 'forget_token' }, { type: 'reconnect' });
    return s;
  }
  // Without a move, try_again comes just before the server closes the socket so
  // that the client reconnects (its table moved to another server): a resync,
  // nothing for the player to do.
  if (err.code === 'try_again' && (err.id === undefined || err.id === null)) return s;
  if (err.id !== undefined && err.id !== null) {
    const { [err.id]: _, ...rest } = s.pending;
    s.pending = rest;
    s.movedAtVersion = -1;
  }
  if (err.code === 'stale_version') s.effects.push({ type: 'send', msg: { type: 'resync' } });
  if (err.code === 'no_such_table' || err.code === 'no_spectators') s.fatal = err;
  s.effects.push({ type: 'error', err });
  return s;
}

/** @param {TableState} state */
export function mySeat(state) {
  return state.you?.seat ?? undefined;
}

/** @param {TableState} state */
export function isHost(state) {
  return Boolean(state.you?.is_host);
}

/**
 * Is the table waiting for me?
 * @param {TableState} state
 */
export function myTurn(state) {
  const me = mySeat(state);
  return Boolean(state.game && !state.game.outcome && me !== undefined && state.game.awaiting.seats.includes(me));
}

/**
 * May I take back my last move now (and have I not just sent a move or an undo)?
 * @param {TableState} state
 */
export function canUndo(state) {
  const me = mySeat(state);
  const game = state.game;
  return Boolean(game && !game.outcome && me !== undefined && game.awaiting.undo === me && state.movedAtVersion !== game.version);
}

/**
 * My legal moves, if they are for the version on the table.
 * @param {TableState} state
 */
export function currentLegal(state) {
  return state.legal && state.game && state.legal.version === state.game.version ? state.legal : null;
}
