// One table's WebSocket: hello first, keeps the game view current by applying
// JSON patches (asking for a resync on a version gap), reconnects after a drop.

import { applyPatch } from './patch.js';

/**
 * @typedef {import('./wire').ServerMsg} ServerMsg
 * @typedef {import('./wire').ClientMsg} ClientMsg
 * @typedef {import('./wire').You} You
 * @typedef {import('./wire').TableInfo} TableInfo
 * @typedef {import('./wire').AwaitingInfo} AwaitingInfo
 * @typedef {import('./wire').Outcome} Outcome
 * @typedef {import('./wire').ChatLine} ChatLine
 * @typedef {import('./wire').ErrorMsg} ErrorMsg
 * @typedef {import('./wire').LoggedEvents} LoggedEvents
 *
 * @typedef {object} GameState
 * @property {number} number which game of the table (1 for the first; play again counts on)
 * @property {number} version
 * @property {any} view
 * @property {AwaitingInfo} awaiting
 * @property {Outcome | undefined} outcome
 * @property {number} awaitingAt performance.now() when `awaiting` arrived (timer base)
 *
 * @typedef {object} ConnHandlers
 * @property {(you: You, table: TableInfo) => void} onWelcome
 * @property {(table: TableInfo) => void} onTable
 * @property {(game: GameState, logged: LoggedEvents[], fresh: boolean) => void} onGame the events of
 *   the moves since the last call (an update's), or of the latest moves (a snapshot's, `fresh`)
 * @property {(line: ChatLine) => void} onChat
 * @property {(version: number, moves: unknown[]) => void} onLegalMoves
 * @property {(err: ErrorMsg) => void} onError
 * @property {(id: number, version: number) => void} onMoveOk
 * @property {(state: 'connecting' | 'open' | 'lost') => void} onStatus
 */

export class TableConn {
  /**
   * @param {string} code invite or spectator code from the link
   * @param {() => {token?: string, name: string}} identity read at every (re)connect
   * @param {ConnHandlers} handlers
   */
  constructor(code, identity, handlers) {
    this.code = code;
    this.identity = identity;
    this.handlers = handlers;
    /** @type {GameState | null} */
    this.game = null;
    this.nextMoveId = 1;
    this.closed = false;
    this.retries = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** Set once the server said the code is wrong: no point reconnecting. */
    this.fatal = false;
    /** A resync was asked and its snapshot has not come yet. */
    this.resyncing = false;
    this.connect();
  }

  connect() {
    if (this.closed || this.fatal) return;
    this.handlers.onStatus('connecting');
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.retries = 0;
      this.resyncing = false;
      const { token, name } = this.identity();
      /** @type {ClientMsg} */
      const hello = { type: 'hello', name, code: this.code };
      if (token) hello.token = token;
      ws.send(JSON.stringify(hello));
      this.handlers.onStatus('open');
    });
    ws.addEventListener('message', (ev) => {
      /** @type {ServerMsg} */
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      this.receive(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed || this.fatal) return;
      this.handlers.onStatus('lost');
      const delay = Math.min(8000, 300 * 2 ** this.retries++);
      setTimeout(() => this.connect(), delay);
    });
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }

  /** @param {ClientMsg} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /**
   * Sends a move made on the current version; returns its id.
   * @param {unknown} mv
   */
  move(mv) {
    const id = this.nextMoveId++;
    this.send({ type: 'move', id, version: this.game?.version ?? 0, mv });
    return id;
  }

  /** @param {ServerMsg} msg */
  receive(msg) {
    const h = this.handlers;
    switch (msg.type) {
      case 'welcome':
        h.onWelcome(msg.you, msg.table);
        break;
      case 'table':
        h.onTable(msg.table);
        break;
      case 'snapshot':
        this.resyncing = false;
        this.game = {
          number: msg.game.number ?? 0,
          version: msg.game.version,
          view: msg.game.view,
          awaiting: msg.game.awaiting,
          outcome: msg.game.outcome,
          awaitingAt: performance.now(),
        };
        h.onGame(this.game, msg.game.recent_events ?? [], true);
        break;
      case 'update': {
        const game = this.game;
        if (!game || msg.version !== game.version + 1) {
          if ((!game || msg.version > game.version) && !this.resyncing) {
            this.resyncing = true;
            this.send({ type: 'resync' });
          }
          return;
        }
        try {
          game.view = applyPatch(game.view, msg.patch);
        } catch {
          this.game = null;
          this.resyncing = true;
          this.send({ type: 'resync' });
          return;
        }
        game.version = msg.version;
        game.awaiting = msg.awaiting;
        game.outcome = msg.outcome;
        game.awaitingAt = performance.now();
        h.onGame(game, [{ version: msg.version, events: msg.events }], false);
        break;
      }
      case 'move_ok':
        h.onMoveOk(msg.id, msg.version);
        break;
      case 'legal_moves':
        h.onLegalMoves(msg.version, msg.moves);
        break;
      case 'chat':
        h.onChat(msg.line);
        break;
      case 'error':
        if (msg.code === 'no_such_table' || msg.code === 'no_spectators') this.fatal = true;
        h.onError(msg);
        break;
      default:
        break;
    }
  }
}
