// One table's WebSocket: hello first, hands every server message on in order,
// reconnects after a drop (unless the server said the code is wrong). What the
// messages mean is the table state's business (table/state.js).

/**
 * @typedef {import('./wire').ServerMsg} ServerMsg
 * @typedef {import('./wire').ClientMsg} ClientMsg
 *
 * @typedef {object} ConnHandlers
 * @property {(msg: ServerMsg) => void} onMessage every message of the server, in order
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
    this.closed = false;
    this.retries = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** Set once the server said the code is wrong: no point reconnecting. */
    this.fatal = false;
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

  /** @param {ServerMsg} msg */
  receive(msg) {
    if (msg.type === 'error' && (msg.code === 'no_such_table' || msg.code === 'no_spectators')) this.fatal = true;
    this.handlers.onMessage(msg);
  }
}
