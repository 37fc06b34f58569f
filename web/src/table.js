// The table page: wires the table state (table/state.js) to the socket, the
// browser and the page's parts (table/*.js: top bar, seats, lobby, chat, result,
// replay) and to the game's board. Every server message and every click goes
// through `dispatch`; the parts draw what the state says.

import { h, mount, toast } from './dom.js';
import { t } from './i18n.js';
import { renderError, errText } from './messages.js';
import * as api from './api.js';
import { TableConn } from './conn.js';
import { loadLog, saveLog } from './gamelog.js';
import { getName, getToken, setToken, forgetToken } from './store.js';
import { gameUI } from './games/index.js';
import { turnCue } from './cue.js';
import { nameForm } from './widgets.js';
import { initialState, reduce, mySeat, currentLegal, canUndo } from './table/state.js';
import { gameName, seatLooks, safe } from './table/names.js';
import { renderTitle, renderBanner, renderTimer, renderConn } from './table/banner.js';
import { rememberCommitment } from './fairness.js';
import { renderSeats, renderInvite, tickSeats } from './table/seats.js';
import { renderLobby } from './table/lobby.js';
import { chatPanel } from './table/chat.js';
import { renderResult, renderLog } from './table/result.js';
import { replayOverlay } from './table/replay.js';
import { renderWebhook } from './table/webhook.js';

/**
 * @typedef {import('./wire').ErrorMsg} ErrorMsg
 * @typedef {import('./table/state.js').TableState} TableState
 * @typedef {import('./table/state.js').Action} Action
 * @typedef {import('./table/state.js').Effect} Effect
 * @typedef {import('./table/state.js').Env} Env
 * @typedef {import('./table/context.js').TableCtx} TableCtx
 * @typedef {import('./games/index.js').Board} Board
 */

/**
 * @param {HTMLElement} root
 * @param {string} code
 * @param {(path: string) => void} go
 * @param {string} [guest] the name of a spectator who gave none (not saved)
 * @returns {() => void} cleanup
 */
export function showTable(root, code, go, guest = '') {
  if (!getName() && !guest) return askName(root, code, go);

  let state = initialState(code, loadLog(code));

  // Layout.
  const title = h('div', { class: 'title' });
  const banner = h('div', { class: 'turn-banner', id: 'turn-banner', 'aria-live': 'polite' });
  const timerEl = h('div', { class: 'timer', id: 'timer' });
  const undoBtn = h('button', { class: 'small undo', id: 'undo', hidden: true, title: t('table.undo_hint'), onclick: () => dispatch({ type: 'undo' }) }, '↶ ', t('table.undo'));
  const connEl = h('div', { class: 'conn', id: 'conn-status' });
  const cue = turnCue(() => gameName(state));
  const mainEl = h('div', { class: 'table-main', id: 'table-main' });
  const seatsEl = h('section', { class: 'panel seats-panel', id: 'seats' });
  const inviteEl = h('section', { class: 'panel invite-panel', id: 'invite' });
  const logEl = h('section', { class: 'panel log-panel', id: 'log' });
  const fairEl = h('details', { class: 'panel fair-panel small', id: 'fair', hidden: true });
  const webhookEl = h('section', { class: 'panel webhook-panel', id: 'webhook', hidden: true });
  const sideEl = h('aside', { class: 'table-side' });

  /** @type {TableCtx} */
  const ctx = {
    state: () => state,
    dispatch,
    send: (msg) => conn.send(msg),
    go,
    openReplay,
  };
  const chat = chatPanel(ctx);
  const replay = replayOverlay(ctx);
  sideEl.append(seatsEl, inviteEl, logEl, fairEl, webhookEl, chat.el, h('p', { class: 'cue-panel small muted', id: 'cue' }, t('cue.when_away'), ' ', cue.el));
  mount(
    root,
    h('div', { class: 'table-page' }, h('div', { class: 'table-bar' }, title, banner, undoBtn, timerEl, connEl), h('div', { class: 'table-body' }, mainEl, sideEl)),
  );

  /** @type {Board | null} */
  let board = null;
  /** Games whose `prepare` was asked for on this page. */
  const prepared = new Set();
  let boardGame = '';

  const conn = new TableConn(code, () => ({ token: getToken(code), name: getName() || guest }), {
    onMessage: (msg) => dispatch({ type: 'server', msg, at: performance.now() }),
    onStatus: (conn) => dispatch({ type: 'status', conn }),
  });

  api
    .listGames()
    .then((games) => dispatch({ type: 'games', games }))
    .catch(() => {});
  api
    .lookupCode(code)
    .then((ci) => dispatch({ type: 'code_info', spectator: ci.spectator }))
    .catch(() => {});

  // For tests and curious players: the game as this page holds it (its own view only).
  /** @type {any} */ (window).citytable = { game: () => state.game, version: () => state.game?.version };

  /** @param {Action} action */
  function dispatch(action) {
    const prev = state;
    state = reduce(state, action, env(state));
    for (const effect of state.effects) run(effect);
    render(prev, state);
  }

  /**
   * The game's words for the log.
   * @param {TableState} s
   * @returns {Env}
   */
  function env(s) {
    const ui = s.table ? gameUI(s.table.game) : undefined;
    return ui ? { describe: (ev, now) => describeEvent(ui, ev, now) } : {};
  }

  /** @param {Effect} effect */
  function run(effect) {
    switch (effect.type) {
      case 'send':
        conn.send(effect.msg);
        break;
      case 'keep_token':
        for (const c of effect.codes) setToken(c, effect.token);
        break;
      case 'keep_commitment':
        rememberCommitment(effect.commitment, effect.game, Date.now());
        break;
      case 'forget_token':
        forgetToken(code);
        break;
      case 'reconnect':
        conn.ws?.close();
        break;
      case 'check_code':
        checkCode();
        break;
      case 'save_log':
        saveLog(code, state.log);
        break;
      case 'error':
        handleError(effect.err);
        break;
    }
  }

  /**
   * Draws what changed: the whole table when the table or the game did, else
   * only the part concerned (a chat line does not redraw the lobby's settings).
   * @param {TableState} prev
   * @param {TableState} next
   */
  function render(prev, next) {
    if (next.badLink) {
      if (!prev.badLink) showBadLink();
      return;
    }
    const all =
      prev.table !== next.table ||
      prev.you !== next.you ||
      prev.game !== next.game ||
      prev.info !== next.info ||
      prev.games !== next.games ||
      prev.spectatorLink !== next.spectatorLink;
    if (all) renderAll();
    else {
      if (prev.legal !== next.legal || prev.movedAtVersion !== next.movedAtVersion) {
        renderBoard();
        renderUndo();
      }
      if (prev.conn !== next.conn) renderConn(connEl, next);
    }
    if (prev.chat !== next.chat) chat.render(next);
    if (prev.replay !== next.replay) replay.render(next);
  }

  /** The socket closed before any welcome: is the code wrong? */
  function checkCode() {
    api.lookupCode(code).catch((err) => {
      if (err instanceof api.ApiError && err.status === 404) {
        conn.fatal = true;
        conn.close();
        dispatch({ type: 'bad_link' });
      }
    });
  }

  function showBadLink() {
    mount(mainEl, h('div', { class: 'card center', id: 'bad-link' }, h('p', { class: 'error' }, t('table.bad_link')), h('button', { class: 'primary', onclick: () => go('/') }, t('table.home'))));
    connEl.textContent = '';
  }

  /** @param {ErrorMsg} err */
  function handleError(err) {
    const text = renderError(err, { game: state.table?.game, seatName: (s) => seatLooks(state)[s]?.name ?? `#${s + 1}` });
    toast(text);
    if (err.code === 'no_such_table' || err.code === 'no_spectators') {
      mount(mainEl, h('div', { class: 'card center' }, h('p', { class: 'error' }, text), h('button', { onclick: () => go('/') }, t('table.home'))));
    }
  }

  function renderAll() {
    renderTitle(title, state, ctx);
    renderBanner(banner, state, cue);
    renderSeats(seatsEl, state, ctx);
    renderInvite(inviteEl, state);
    renderMain();
    renderLog(logEl, state);
    renderFair(fairEl, state.game?.commitment);
    renderWebhook(webhookEl, state, ctx);
    renderConn(connEl, state);
    renderUndo();
  }

  function renderUndo() {
    undoBtn.hidden = !canUndo(state);
  }

  // Ctrl+Z (⌘Z) takes back the last move too, unless the player is typing.
  /** @param {KeyboardEvent} e */
  function onKey(e) {
    const typing = e.target instanceof HTMLElement && (e.target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName));
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z' && !typing && canUndo(state)) {
      e.preventDefault();
      dispatch({ type: 'undo' });
    }
  }
  document.addEventListener('keydown', onKey);

  function renderMain() {
    const table = state.table;
    if (!table) {
      mount(mainEl, h('div', { class: 'card center muted' }, t('table.connecting')));
      board = null;
      return;
    }
    const ui = gameUI(table.game);
    if (!ui) {
      mount(mainEl, h('div', { class: 'card center' }, t('table.game_unknown', { game: table.game })));
      return;
    }
    if (table.status === 'lobby' || !state.game) {
      board = null;
      renderLobby(mainEl, state, ctx, ui, { seats: seatsEl, invite: inviteEl });
      if (ui.prepare && !prepared.has(table.game)) {
        // The options' words may need the game's data: draw the lobby again with it.
        prepared.add(table.game);
        ui.prepare().then(() => state.table?.status === 'lobby' && renderMain(), () => {});
      }
      return;
    }
    if (seatsEl.parentElement !== sideEl) sideEl.prepend(seatsEl, inviteEl);
    if (!board || boardGame !== table.game || !mainEl.contains(board.el)) {
      board?.destroy?.();
      board = ui.createBoard({
        send: (mv) => dispatch({ type: 'move', mv }),
        askLegal: (of) => dispatch(of === undefined ? { type: 'ask_legal' } : { type: 'ask_legal', of }),
        warn: (text) => toast(text),
      });
      boardGame = table.game;
      mount(mainEl, h('div', { class: 'result-slot', id: 'result' }), board.el);
    }
    const slot = mainEl.querySelector('#result');
    if (slot) renderResult(slot, state, ctx);
    renderBoard();
  }

  function renderBoard() {
    const game = state.game;
    if (!board || !game || !state.table) return;
    board.render({
      view: game.view,
      version: game.version,
      awaiting: game.awaiting,
      outcome: game.outcome,
      mySeat: mySeat(state),
      legal: currentLegal(state),
      seats: seatLooks(state),
      replay: false,
      moving: state.movedAtVersion === game.version,
      options: state.table.settings.options,
    });
  }

  async function openReplay() {
    if (!state.table || !gameUI(state.table.game)) return;
    try {
      dispatch({ type: 'replay_open', record: await api.gameRecord(code) });
    } catch (err) {
      toast(err instanceof api.ApiError && err.status === 404 ? t('table.replay_unavailable') : errText(err));
    }
  }

  const tick = setInterval(() => {
    tickSeats(seatsEl);
    renderTimer(timerEl, state, performance.now(), cue);
  }, 250);

  return () => {
    clearInterval(tick);
    document.removeEventListener('keydown', onKey);
    conn.close();
    board?.destroy?.();
    replay.close();
  };
}

/**
 * An event in words for the log: the table's own (an undo) or the game's.
 * @param {import('./games/index.js').GameUI} ui
 * @param {any} ev
 * @param {TableState} state
 */
function describeEvent(ui, ev, state) {
  if (ev && typeof ev === 'object' && ev.undone) return t('log.undone', { name: seatLooks(state)[ev.undone.seat]?.name ?? '' });
  return safe(() => ui.describeEvent(ev, seatLooks(state)));
}

/**
 * Someone following a link without a name yet: say who invites him to what; a
 * spectator link needs no name at all.
 * @param {HTMLElement} root
 * @param {string} code
 * @param {(path: string) => void} go
 * @returns {() => void} cleanup
 */
function askName(root, code, go) {
  let cleanup = () => {};
  let moved = false;
  const open = (/** @type {string} */ as = '') => {
    moved = true;
    cleanup = showTable(root, code, go, as);
  };
  const invitation = h('p', { class: 'invitation', id: 'invitation' });
  mount(root, h('div', { class: 'home' }, h('section', { class: 'card name-card needed' }, invitation, nameForm(() => open()))));
  api
    .lookupCode(code)
    .then((ci) => {
      if (moved) return;
      if (ci.spectator) {
        open(t('table.guest_name'));
        return;
      }
      const name = gameUI(ci.game)?.name() ?? ci.game;
      invitation.textContent = ci.host_name
        ? t('table.invited_by', { host: ci.host_name, game: name, n: ci.seats_taken, seats: ci.seats })
        : t('table.invited', { game: name, n: ci.seats_taken, seats: ci.seats });
    })
    .catch(() => {});
  return () => cleanup();
}

/**
 * The seal of the game's shuffles: the commitment every player is shown when
 * it starts (redrawn only when it changes, so an open panel stays open).
 * @param {HTMLElement} el
 * @param {string | undefined} commitment
 */
function renderFair(el, commitment) {
  if ((el.dataset.commitment ?? '') === (commitment ?? '')) return;
  el.dataset.commitment = commitment ?? '';
  el.hidden = !commitment;
  if (!commitment) {
    el.replaceChildren();
    return;
  }
  mount(
    el,
    h('summary', null, `${t('fair.sealed')} · `, h('code', null, commitment.slice(0, 8))),
    h('p', null, t('fair.sealed_detail')),
    h('p', null, h('code', { class: 'commitment', id: 'fair-commitment-shown' }, commitment)),
  );
}
