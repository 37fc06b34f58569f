// The table page: seats, invite links, host controls, chat, game log, and the
// game's board (or the lobby before the start, the result and replay after).

import { h, mount, toast } from './dom.js';
import { t, joinNames, labelled } from './i18n.js';
import * as api from './api.js';
import { TableConn } from './conn.js';
import { loadLog, saveLog, withEvents } from './gamelog.js';
import { getName, getToken, setToken, forgetToken } from './store.js';
import { gameUI, SEAT_COLORS } from './games/index.js';
import { replayViews } from './replay.js';
import { turnCue } from './cue.js';
import { nameForm, optionsEditor, timerChoices } from './widgets.js';
import { errText } from './home.js';
import { renderError } from './messages.js';

/**
 * @typedef {import('./wire').You} You
 * @typedef {import('./wire').TableInfo} TableInfo
 * @typedef {import('./wire').SeatInfo} SeatInfo
 * @typedef {import('./wire').ChatLine} ChatLine
 * @typedef {import('./wire').GameInfo} GameInfo
 * @typedef {import('./wire').TableSettings} TableSettings
 * @typedef {import('./wire').BotLevel} BotLevel
 * @typedef {import('./wire').ErrorMsg} ErrorMsg
 * @typedef {import('./conn.js').GameState} GameState
 * @typedef {import('./games/index.js').SeatLook} SeatLook
 * @typedef {import('./games/index.js').Board} Board
 * @typedef {import('./games/index.js').GameUI} GameUI
 */

/**
 * @param {HTMLElement} root
 * @param {string} code
 * @param {(path: string) => void} go
 * @param {string} [guest] the name of a spectator who gave none (not saved)
 * @returns {() => void} cleanup
 */
export function showTable(root, code, go, guest = '') {
  if (!getName() && !guest) {
    // Someone following a link without a name yet: say who invites him to what;
    // a spectator link needs no name at all.
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
        const gameName = gameUI(ci.game)?.name() ?? ci.game;
        invitation.textContent = ci.host_name
          ? t('table.invited_by', { host: ci.host_name, game: gameName, n: ci.seats_taken, seats: ci.seats })
          : t('table.invited', { game: gameName, n: ci.seats_taken, seats: ci.seats });
      })
      .catch(() => {});
    return () => cleanup();
  }

  /** @type {You | null} */
  let you = null;
  /** @type {TableInfo | null} */
  let table = null;
  /** @type {GameState | null} */
  let game = null;
  /** @type {{version: number, moves: any[]} | null} */
  let legal = null;
  let legalAskedAt = -1;
  /** @type {ChatLine[]} */
  const chat = [];
  let log = loadLog(code);
  /** @type {GameInfo | undefined} */
  let info;
  /** @type {Board | null} */
  let board = null;
  let boardGame = '';
  /** @type {'connecting' | 'open' | 'lost'} */
  let connState = 'connecting';
  /** @type {Map<number, unknown>} */
  const pendingMoves = new Map();
  /** The version the last move was sent on (cleared when it is refused). */
  let movedAtVersion = -1;
  /** @type {TableSettings | null} */
  let draftSettings = null;
  let settingsOpen = false;

  // Layout.
  const title = h('div', { class: 'title' });
  const banner = h('div', { class: 'turn-banner', id: 'turn-banner', 'aria-live': 'polite' });
  const timerEl = h('div', { class: 'timer', id: 'timer' });
  const connEl = h('div', { class: 'conn', id: 'conn-status' });
  const cue = turnCue(() => currentGameName());
  const mainEl = h('div', { class: 'table-main', id: 'table-main' });
  const seatsEl = h('section', { class: 'panel seats-panel', id: 'seats' });
  const inviteEl = h('section', { class: 'panel invite-panel', id: 'invite' });
  const logEl = h('section', { class: 'panel log-panel', id: 'log' });
  const chatList = h('ul', { class: 'chat-lines', id: 'chat-lines' });
  const chatInput = /** @type {HTMLInputElement} */ (
    h('input', { id: 'chat-input', maxlength: 500, placeholder: t('table.chat_placeholder'), autocomplete: 'off', 'aria-label': t('table.chat') })
  );
  const sideEl = h('aside', { class: 'table-side' });
  const chatEl = h(
    'section',
    { class: 'panel chat-panel', id: 'chat' },
    h('h3', null, t('table.chat')),
    chatList,
    h(
      'form',
      {
        class: 'row',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          const text = chatInput.value.trim();
          if (!text) return;
          if (conn.send({ type: 'chat', text })) chatInput.value = '';
        },
      },
      chatInput,
      h('button', { type: 'submit' }, t('table.send')),
    ),
  );
  sideEl.append(seatsEl, inviteEl, logEl, chatEl, h('p', { class: 'cue-panel small muted', id: 'cue' }, t('cue.when_away'), ' ', cue.el));
  mount(
    root,
    h(
      'div',
      { class: 'table-page' },
      h('div', { class: 'table-bar' }, title, banner, timerEl, connEl),
      h('div', { class: 'table-body' }, mainEl, sideEl),
    ),
  );

  api
    .listGames()
    .then((games) => {
      info = games.find((g) => g.id === table?.game) ?? info;
      gamesList = games;
      renderAll();
    })
    .catch(() => {});
  /** @type {GameInfo[]} */
  let gamesList = [];
  /** Opened with a spectator link: no seat to take. */
  let spectatorLink = false;
  api
    .lookupCode(code)
    .then((ci) => {
      spectatorLink = ci.spectator;
      renderAll();
    })
    .catch(() => {});

  const conn = new TableConn(
    code,
    () => ({ token: getToken(code), name: getName() || guest }),
    {
      onWelcome(y, tbl) {
        you = y;
        if (y.token) {
          setToken(code, y.token);
          if (tbl.invite_code) setToken(tbl.invite_code, y.token);
        }
        setTable(tbl);
      },
      onTable(tbl) {
        setTable(tbl);
      },
      onGame(g, logged, fresh) {
        const ui = table ? gameUI(table.game) : undefined;
        if (fresh) {
          legalAskedAt = -1;
          movedAtVersion = -1;
        }
        game = g;
        // A snapshot repeats the latest moves' events (for a late joiner or a
        // reload); they replace what the page held for those moves. A new game
        // (play again) or a log kept from an older one starts afresh.
        if (ui && (log.game !== g.number || logged.some((l) => l.events.length))) {
          const looks = seatLooks();
          log = withEvents(log, g.number, logged, (ev) => safe(() => ui.describeEvent(ev, looks)));
          saveLog(code, log);
        }
        if (g.outcome && table && table.status !== 'finished') table.status = 'finished';
        renderAll();
      },
      onChat(line) {
        // Recent lines are replayed after each welcome: keep each line once.
        if (chat.some((c) => c.at_ms === line.at_ms && c.name === line.name && c.text === line.text)) return;
        chat.push(line);
        if (chat.length > 200) chat.shift();
        renderChat();
      },
      onLegalMoves(version, moves) {
        legal = { version, moves };
        renderBoard();
      },
      onError(err) {
        handleError(err);
      },
      onMoveOk(id) {
        pendingMoves.delete(id);
      },
      onStatus(state) {
        connState = state;
        renderConn();
        if (state === 'lost' && !you) checkCode();
      },
    },
  );

  /** The socket closed before any welcome: is the code wrong? */
  function checkCode() {
    api.lookupCode(code).catch((err) => {
      if (err instanceof api.ApiError && err.status === 404) {
        conn.fatal = true;
        conn.close();
        mount(mainEl, h('div', { class: 'card center', id: 'bad-link' }, h('p', { class: 'error' }, t('table.bad_link')), h('button', { class: 'primary', onclick: () => go('/') }, t('table.home'))));
        connEl.textContent = '';
      }
    });
  }

  // For tests and curious players: the game as this page holds it (its own view only).
  /** @type {any} */ (window).citytable = { game: () => game, version: () => game?.version };

  /** @param {TableInfo} tbl */
  function setTable(tbl) {
    const statusChanged = table?.status !== tbl.status || JSON.stringify(table?.settings) !== JSON.stringify(tbl.settings);
    if (table && table.status === 'finished' && tbl.status !== 'finished') {
      // Play again: a new game starts; the old log goes.
      log = { game: -1, lines: [] };
      saveLog(code, log);
      legal = null;
      if (tbl.status === 'lobby') game = null;
    }
    table = tbl;
    info = gamesList.find((g) => g.id === tbl.game) ?? info;
    if (statusChanged) draftSettings = null;
    renderAll();
  }

  /** @param {ErrorMsg} err */
  function handleError(err) {
    if (err.code === 'bad_token') {
      forgetToken(code);
      conn.ws?.close();
      return;
    }
    if (err.id !== undefined && err.id !== null) {
      pendingMoves.delete(err.id);
      movedAtVersion = -1;
    }
    if (err.code === 'stale_version') conn.send({ type: 'resync' });
    const text = renderError(err, { game: table?.game, seatName: (s) => seatLooks()[s]?.name ?? `#${s + 1}` });
    toast(text);
    if (err.code === 'no_such_table' || err.code === 'no_spectators') {
      mount(mainEl, h('div', { class: 'card center' }, h('p', { class: 'error' }, text), h('button', { onclick: () => go('/') }, t('table.home'))));
    }
  }

  /** @returns {SeatLook[]} */
  function seatLooks() {
    if (!table) return [];
    return table.seats.map((s) => ({ seat: s.seat, name: seatName(s), color: SEAT_COLORS[s.seat % SEAT_COLORS.length] }));
  }

  function mySeat() {
    return you?.seat ?? undefined;
  }

  function isHost() {
    return Boolean(you?.is_host);
  }

  function renderAll() {
    renderTitle();
    renderBanner();
    renderSeats();
    renderInvite();
    renderMain();
    renderLog();
    renderConn();
  }

  function renderConn() {
    connEl.dataset.state = connState;
    connEl.textContent =
      connState === 'open' ? t('table.connected') : connState === 'lost' ? t('table.reconnecting') : t('table.connecting');
    document.body.dataset.conn = connState;
  }

  function renderTitle() {
    if (!table) {
      mount(title, h('button', { class: 'link home-link', onclick: () => go('/') }, '← ', t('table.home')));
      return;
    }
    const ui = gameUI(table.game);
    mount(
      title,
      h('button', { class: 'link home-link', onclick: () => go('/'), title: t('table.home') }, '←'),
      h('span', { class: 'game-name' }, ui?.name() ?? table.game),
      h('span', { class: `status-chip ${table.status}`, id: 'table-status', 'data-status': table.status }, t(`status.${table.status}`)),
      mySeat() === undefined && table.status !== 'lobby' ? h('span', { class: 'status-chip spectator', id: 'spectator-badge' }, t('table.spectator_badge')) : null,
    );
  }

  /** The name of the table's game, as its board module calls it. */
  function currentGameName() {
    return table ? (gameUI(table.game)?.name() ?? table.game) : '';
  }

  function renderBanner() {
    const gameName = currentGameName();
    const myTurn = Boolean(game && !game.outcome && mySeat() !== undefined && game.awaiting.seats.includes(/** @type {number} */ (mySeat())));
    cue.update(myTurn);
    // The tab title tells a player in another tab that the table waits for him.
    document.title = myTurn ? `● ${t('table.your_turn')} · ${gameName}` : gameName ? `${gameName} · CityTable` : 'CityTable';
    if (!table || !game) {
      banner.textContent = '';
      banner.className = 'turn-banner';
      return;
    }
    const looks = seatLooks();
    if (game.outcome) {
      banner.className = 'turn-banner over';
      banner.textContent = t('table.game_over');
      return;
    }
    const seats = game.awaiting.seats;
    const me = mySeat();
    if (me !== undefined && seats.includes(me)) {
      banner.className = 'turn-banner mine';
      banner.textContent = t('table.your_turn');
    } else {
      banner.className = 'turn-banner';
      const names = seats.map((s) => looks[s]?.name ?? '?');
      banner.textContent = seats.length === 1 ? t('table.turn_of', { name: names[0] }) : t('table.turns_of', { names: joinNames(names) });
      const color = seats.length === 1 ? looks[seats[0]]?.color : undefined;
      if (color) banner.style.setProperty('--seat', color);
    }
  }

  const tick = setInterval(() => {
    for (const badge of /** @type {NodeListOf<HTMLElement>} */ (seatsEl.querySelectorAll('.badge.gone'))) {
      const text = goneText(badge);
      if (badge.textContent !== text) badge.textContent = text;
    }
    if (!game || game.outcome || game.awaiting.timer_ms === undefined || game.awaiting.timer_ms === null) {
      timerEl.textContent = '';
      timerEl.className = 'timer';
      return;
    }
    const left = Math.max(0, game.awaiting.timer_ms - (performance.now() - game.awaitingAt));
    const secs = Math.ceil(left / 1000);
    timerEl.textContent = `◷ ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
    timerEl.className = secs <= 10 ? 'timer urgent' : 'timer';
    timerEl.title = t('table.timer');
  }, 250);

  /** @param {SeatInfo} s */
  function seatName(s) {
    const o = s.occupant;
    if (o.kind === 'human') return o.name;
    if (o.kind === 'bot') return botName(o.level, s.seat);
    return t('table.empty_seat');
  }

  function renderSeats() {
    if (!table) {
      mount(seatsEl, h('h3', null, t('table.seats')), h('p', { class: 'muted' }, t('table.connecting')));
      return;
    }
    const tbl = table;
    const ui = gameUI(tbl.game);
    const scores = game ? (game.outcome?.scores ?? safe(() => ui?.scores?.(game?.view)) ?? null) : null;
    const awaiting = game && !game.outcome ? game.awaiting.seats : [];
    const me = mySeat();
    const lobby = tbl.status === 'lobby';
    mount(
      seatsEl,
      h('h3', null, t('table.seats'), tbl.spectators ? h('span', { class: 'muted small', id: 'spectator-count' }, ` · ${t('table.spectators', { n: tbl.spectators })}`) : null),
      h(
        'ul',
        { class: 'seat-list' },
        tbl.seats.map((s) => {
          const o = s.occupant;
          const color = SEAT_COLORS[s.seat % SEAT_COLORS.length];
          const empty = o.kind === 'empty';
          const online = o.kind === 'bot' || (o.kind === 'human' && o.connected);
          /** @type {(HTMLElement | null)[]} */
          const actions = [];
          if (lobby && empty && me === undefined && you && !spectatorLink) {
            actions.push(h('button', { class: 'small primary', 'data-action': 'take-seat', onclick: () => conn.send({ type: 'take_seat', seat: s.seat }) }, t('table.take_seat')));
          }
          if (lobby && isHost() && empty) actions.push(botAdder(s.seat));
          if (lobby && isHost() && !empty && s.seat !== me) {
            actions.push(h('button', { class: 'small danger', 'data-action': 'kick', onclick: () => conn.send({ type: 'kick', seat: s.seat }) }, t('table.kick')));
          }
          if (lobby && s.seat === me && !isHost()) {
            actions.push(h('button', { class: 'small', 'data-action': 'leave-seat', onclick: () => conn.send({ type: 'leave_seat' }) }, t('table.leave_seat')));
          }
          if (!lobby && tbl.status === 'playing' && isHost() && o.kind === 'human' && o.away) actions.push(botAdder(s.seat));
          return h(
            'li',
            {
              class: { seat: true, empty, turn: awaiting.includes(s.seat), me: s.seat === me, winner: game?.outcome?.winners.includes(s.seat) },
              'data-seat': s.seat,
              style: { '--seat': color },
            },
            h('span', { class: 'swatch', 'aria-hidden': 'true' }),
            h(
              'span',
              { class: 'seat-name' },
              h('span', { class: 'name' }, seatName(s)),
              s.seat === me ? h('span', { class: 'badge' }, t('table.you')) : null,
              tbl.host_seat === s.seat ? h('span', { class: 'badge host' }, '★ ', t('table.host')) : null,
              o.kind === 'human' && o.away ? h('span', { class: 'badge away' }, t('table.away')) : null,
              o.kind === 'human' && !o.connected ? goneBadge(o.gone_ms) : null,
            ),
            !empty ? h('span', { class: { presence: true, online }, title: online ? t('table.online') : t('table.offline'), 'aria-label': online ? t('table.online') : t('table.offline') }) : null,
            scores && scores[s.seat] !== undefined ? h('span', { class: 'score', 'data-score': scores[s.seat] }, t('table.points', { n: scores[s.seat] })) : null,
            actions.length ? h('span', { class: 'seat-actions' }, actions) : null,
          );
        }),
      ),
    );
  }

  /**
   * "Disconnected · 3 min": the badge keeps the moment he left and the tick
   * keeps its text current.
   * @param {number | undefined} goneMs how long ago, when the table was sent
   */
  function goneBadge(goneMs) {
    const badge = h('span', { class: 'badge gone', 'data-gone-at': goneMs === undefined ? '' : String(Date.now() - goneMs) });
    badge.textContent = goneText(badge);
    return badge;
  }

  /** @param {HTMLElement} badge */
  function goneText(badge) {
    const at = Number(badge.dataset.goneAt);
    if (!badge.dataset.goneAt || !Number.isFinite(at)) return t('table.gone');
    const minutes = Math.floor((Date.now() - at) / 60_000);
    return minutes < 1 ? t('table.gone_now') : t('table.gone_for', { n: minutes });
  }

  /** @param {number} seat */
  function botAdder(seat) {
    const select = /** @type {HTMLSelectElement} */ (
      h('select', { class: 'small', 'aria-label': t('table.add_bot') }, h('option', { value: 'greedy' }, t('bot.greedy')), h('option', { value: 'random' }, t('bot.random')))
    );
    return h(
      'span',
      { class: 'bot-adder' },
      select,
      h(
        'button',
        {
          class: 'small',
          'data-action': 'add-bot',
          onclick: () => conn.send({ type: 'add_bot', seat, level: /** @type {BotLevel} */ (select.value) }),
        },
        t('table.add_bot'),
      ),
    );
  }

  function renderInvite() {
    if (!table || (!table.invite_code && !table.spectator_code) || table.status === 'finished') {
      inviteEl.hidden = true;
      return;
    }
    inviteEl.hidden = false;
    /**
     * @param {string} id
     * @param {string} label
     * @param {string} linkCode
     */
    const linkRow = (id, label, linkCode) => {
      const url = `${location.origin}/t/${linkCode}`;
      const input = /** @type {HTMLInputElement} */ (h('input', { id: `${id}-url`, readonly: true, value: url, onclick: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() }));
      return h(
        'div',
        { class: 'link-row' },
        input,
        h(
          'button',
          {
            class: 'small',
            id: `${id}-copy`,
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(url);
              } catch {
                input.select();
                document.execCommand('copy');
              }
              toast(t('table.copied'), 'info');
            },
          },
          label,
        ),
      );
    };
    mount(
      inviteEl,
      h('h3', null, t('table.invite')),
      table.invite_code ? linkRow('invite', t('table.copy_invite'), table.invite_code) : null,
      table.spectator_code && table.settings.spectators_allowed ? linkRow('spectate', t('table.copy_spectate'), table.spectator_code) : null,
    );
  }

  function renderMain() {
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
    if (table.status === 'lobby' || !game) {
      board = null;
      renderLobby(ui);
      return;
    }
    if (seatsEl.parentElement !== sideEl) sideEl.prepend(seatsEl, inviteEl);
    if (!board || boardGame !== table.game || !mainEl.contains(board.el)) {
      board?.destroy?.();
      board = ui.createBoard({
        send: (mv) => {
          // One move per version: a second click before the first is answered would
          // only be refused as stale.
          if (!game || movedAtVersion === game.version) return;
          movedAtVersion = game.version;
          const id = conn.move(mv);
          pendingMoves.set(id, mv);
        },
        askLegal: () => {
          if (!game || legalAskedAt === game.version) return;
          legalAskedAt = game.version;
          conn.send({ type: 'legal_moves' });
        },
        warn: (text) => toast(text),
      });
      boardGame = table.game;
      mount(mainEl, h('div', { class: 'result-slot', id: 'result' }), board.el);
    }
    renderResult();
    renderBoard();
  }

  function renderBoard() {
    if (!board || !game || !table) return;
    board.render({
      view: game.view,
      version: game.version,
      awaiting: game.awaiting,
      outcome: game.outcome,
      mySeat: mySeat(),
      legal: legal && legal.version === game.version ? legal : null,
      seats: seatLooks(),
      replay: false,
    });
  }

  function renderResult() {
    const slot = mainEl.querySelector('#result');
    if (!slot || !table) return;
    if (!game?.outcome) {
      slot.replaceChildren();
      return;
    }
    const outcome = game.outcome;
    // The result comes into view when it appears, wherever the page was scrolled.
    const appearing = !slot.firstElementChild;
    const looks = seatLooks();
    const winners = outcome.winners.map((w) => looks[w]?.name ?? '?');
    const ranking = outcome.scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score);
    mount(
      slot,
      h(
        'div',
        { class: 'card result', id: 'game-result' },
        h('h2', null, winners.length === 1 ? t('table.winner', { names: winners[0] }) : t('table.winners', { names: joinNames(winners) })),
        h('h3', null, t('table.final_scores')),
        h(
          'ol',
          { class: 'final-scores' },
          ranking.map((r) =>
            h(
              'li',
              { style: { '--seat': looks[r.seat]?.color ?? '#888' }, class: { winner: outcome.winners.includes(r.seat) } },
              h('span', { class: 'swatch' }),
              h('span', { class: 'name' }, looks[r.seat]?.name ?? '?'),
              h('span', { class: 'score' }, t('table.points', { n: r.score })),
            ),
          ),
        ),
        h(
          'div',
          { class: 'row' },
          h('button', { id: 'replay-button', onclick: () => openReplay() }, '▶ ', t('table.replay')),
          isHost()
            ? h('button', { class: 'primary', id: 'play-again', onclick: () => conn.send({ type: 'play_again' }) }, t('table.play_again'))
            : h('span', { class: 'muted small' }, t('table.waiting_again')),
          isHost() ? h('button', { id: 'back-to-lobby', onclick: () => conn.send({ type: 'back_to_lobby' }) }, t('table.back_to_lobby')) : null,
        ),
      ),
    );
    if (appearing) slot.querySelector('#game-result')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  /** @param {GameUI} ui */
  function renderLobby(ui) {
    if (!table) return;
    const tbl = table;
    const seated = tbl.seats.filter((s) => s.occupant.kind !== 'empty').length;
    const min = tbl.settings.seats;
    const me = mySeat();
    /** @type {(HTMLElement | null)[]} */
    const parts = [];
    parts.push(h('div', { class: 'lobby-head' }, h('h2', null, ui.name()), ui.blurb ? h('p', { class: 'muted' }, ui.blurb()) : null));
    parts.push(seatsEl);
    if (!inviteEl.hidden) parts.push(inviteEl);
    if (me === undefined && tbl.status === 'lobby') {
      const free = !spectatorLink && tbl.seats.some((s) => s.occupant.kind === 'empty');
      parts.push(h('p', { class: 'muted' }, free ? t('table.visitor') : t('table.spectating')));
    }
    parts.push(settingsSummary(tbl));
    if (isHost() && tbl.status === 'lobby') {
      if (!draftSettings) draftSettings = structuredClone(tbl.settings);
      const draft = draftSettings;
      const seatChoices = [];
      for (let n = info?.min_seats ?? tbl.settings.seats; n <= (info?.max_seats ?? tbl.settings.seats); n++) seatChoices.push(n);
      parts.push(
        h(
          'details',
          { class: 'settings', id: 'settings', open: settingsOpen, ontoggle: (/** @type {Event} */ e) => (settingsOpen = /** @type {HTMLDetailsElement} */ (e.target).open) },
          h('summary', null, t('table.settings')),
          h(
            'label',
            { class: 'field' },
            h('span', null, t('home.seats')),
            h(
              'select',
              { id: 'settings-seats', onchange: (/** @type {Event} */ e) => (draft.seats = Number(/** @type {HTMLSelectElement} */ (e.target).value)) },
              seatChoices.map((n) => h('option', { value: n, selected: n === draft.seats }, String(n))),
            ),
          ),
          h('fieldset', { class: 'variants' }, h('legend', null, t('home.variants')), optionsEditor(tbl.game, draft.options, (o) => (draft.options = o))),
          h(
            'label',
            { class: 'field' },
            h('span', null, t('home.timer')),
            h(
              'select',
              {
                onchange: (/** @type {Event} */ e) => {
                  const v = Number(/** @type {HTMLSelectElement} */ (e.target).value);
                  if (v > 0) draft.turn_seconds = v;
                  else delete draft.turn_seconds;
                },
              },
              timerChoices().map((c) => h('option', { value: c.value, selected: c.value === (draft.turn_seconds ?? 0) }, c.label)),
            ),
          ),
          h('label', { class: 'check' }, h('input', { type: 'checkbox', checked: draft.spectators_allowed, onchange: (/** @type {Event} */ e) => (draft.spectators_allowed = /** @type {HTMLInputElement} */ (e.target).checked) }), t('home.spectators')),
          h('label', { class: 'check' }, h('input', { type: 'checkbox', checked: draft.public, onchange: (/** @type {Event} */ e) => (draft.public = /** @type {HTMLInputElement} */ (e.target).checked) }), t('table.public')),
          h('button', { id: 'apply-settings', onclick: () => conn.send({ type: 'configure', settings: draft }) }, t('table.apply_settings')),
        ),
      );
      parts.push(
        h(
          'div',
          { class: 'start-row' },
          h('button', { class: 'primary big', id: 'start-button', disabled: seated < min, onclick: () => conn.send({ type: 'start' }) }, t('table.start')),
          seated < min ? h('p', { class: 'muted small' }, t('table.start_hint', { n: min })) : null,
        ),
      );
    } else {
      parts.push(h('p', { class: 'waiting' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('table.waiting_host')));
    }
    mount(mainEl, h('div', { class: 'card lobby', id: 'lobby' }, parts));
  }

  /** @param {TableInfo} tbl */
  function settingsSummary(tbl) {
    const ui = gameUI(tbl.game);
    const fields = ui?.optionFields?.(tbl.settings.options) ?? [];
    const on = fields.filter((f) => f.kind === 'bool' && tbl.settings.options?.[f.key]).map((f) => f.label);
    const timer = timerChoices().find((c) => c.value === (tbl.settings.turn_seconds ?? 0))?.label ?? `${tbl.settings.turn_seconds} s`;
    return h(
      'ul',
      { class: 'summary', id: 'settings-summary' },
      h('li', null, `${labelled(t('home.seats'))}${tbl.settings.seats}`),
      h('li', null, `${t('home.timer')}: ${timer}`),
      fields.length ? h('li', null, `${t('home.variants')}: ${on.length ? on.join('; ') : t('table.no_variant')}`) : null,
      h('li', null, tbl.settings.spectators_allowed ? t('home.spectators') : t('table.no_spectators')),
      h('li', null, tbl.settings.public ? t('table.public') : t('table.private')),
    );
  }

  function renderLog() {
    if (!table || table.status === 'lobby') {
      logEl.hidden = true;
      return;
    }
    logEl.hidden = false;
    mount(
      logEl,
      h('h3', null, t('table.log')),
      log.lines.length === 0
        ? h('p', { class: 'muted small' }, game && game.version > 0 ? t('table.log_from_now') : t('table.no_log'))
        : h('ol', { class: 'log-lines', id: 'log-lines', reversed: true }, log.lines.slice(0, 100).map((l) => h('li', null, l.text))),
    );
  }

  function renderChat() {
    const looks = seatLooks();
    mount(
      chatList,
      chat.map((line) =>
        h(
          'li',
          null,
          h('strong', { style: { color: line.seat !== undefined && line.seat !== null ? (looks[line.seat]?.color ?? 'inherit') : 'inherit' } }, line.name),
          ': ',
          line.text,
        ),
      ),
    );
    chatList.scrollTop = chatList.scrollHeight;
  }

  async function openReplay() {
    if (!table) return;
    const found = gameUI(table.game);
    if (!found) return;
    const ui = found;
    /** @type {import('./wire').GameRecord} */
    let record;
    try {
      record = await api.gameRecord(code);
    } catch (err) {
      toast(err instanceof api.ApiError && err.status === 404 ? t('table.replay_unavailable') : errText(err));
      return;
    }
    const looks = record.names.map((name, seat) => ({ seat, name: replayName(name, seat), color: SEAT_COLORS[seat % SEAT_COLORS.length] }));
    const replayBoard = ui.createBoard({ send: () => {}, askLegal: () => {}, warn: () => {} });
    const viewAt = replayViews(record);
    const last = record.patches.length;
    let step = last;
    const caption = h('p', { class: 'replay-caption', id: 'replay-caption' });
    const counter = h('span', { class: 'replay-counter', id: 'replay-counter' });
    const slider = /** @type {HTMLInputElement} */ (
      h('input', { type: 'range', min: 0, max: last, value: step, id: 'replay-slider', oninput: () => show(Number(slider.value)) })
    );
    /** @type {ReturnType<typeof setInterval> | null} */
    let playing = null;
    const playBtn = h('button', { id: 'replay-play', onclick: () => togglePlay(), 'aria-label': t('table.replay_play') }, '▶');
    const overlay = h(
      'div',
      { class: 'overlay', id: 'replay' },
      h(
        'div',
        { class: 'overlay-inner card' },
        h(
          'div',
          { class: 'replay-bar' },
          h('h2', null, t('table.replay')),
          h('button', { id: 'replay-close', onclick: () => close() }, t('table.replay_close')),
        ),
        h(
          'div',
          { class: 'replay-controls' },
          h('button', { id: 'replay-first', onclick: () => show(0), 'aria-label': t('table.replay_first') }, '|◀'),
          h('button', { id: 'replay-prev', onclick: () => show(step - 1), 'aria-label': t('table.replay_prev') }, '◀'),
          playBtn,
          h('button', { id: 'replay-next', onclick: () => show(step + 1), 'aria-label': t('table.replay_next') }, '▶▶'),
          slider,
          counter,
        ),
        caption,
        replayBoard.el,
      ),
    );
    document.body.append(overlay);
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      // The focused slider moves itself on arrow keys (and says so through oninput).
      if (e.target === slider && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) return;
      if (e.key === 'ArrowRight') show(step + 1);
      else if (e.key === 'ArrowLeft') show(step - 1);
      else if (e.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    function close() {
      if (playing) clearInterval(playing);
      document.removeEventListener('keydown', onKey);
      overlay.remove();
    }
    function togglePlay() {
      if (playing) {
        clearInterval(playing);
        playing = null;
        playBtn.textContent = '▶';
        return;
      }
      if (step >= last) show(0);
      playBtn.textContent = '❚❚';
      playing = setInterval(() => {
        if (step >= last) togglePlay();
        else show(step + 1);
      }, 900);
    }
    /** @param {number} i */
    function show(i) {
      step = Math.max(0, Math.min(last, i));
      slider.value = String(step);
      counter.textContent = t('table.replay_step', { i: step, n: last });
      const entry = step > 0 ? record.entries[step - 1] : null;
      caption.textContent = entry ? describeEntry(ui, entry, looks) : '';
      replayBoard.render({
        view: viewAt(step),
        version: step,
        awaiting: { seats: [] },
        outcome: step === last ? record.outcome : undefined,
        mySeat: undefined,
        legal: null,
        seats: looks,
        replay: true,
      });
    }
    show(step);
  }

  return () => {
    clearInterval(tick);
    conn.close();
    board?.destroy?.();
    document.getElementById('replay')?.remove();
  };
}

/**
 * A seat's name in a replay: the record keeps the server's names of bots
 * ("Bot (greedy)"); they read as the table calls them ("Bot (strong) 2").
 * @param {string} name
 * @param {number} seat
 */
function replayName(name, seat) {
  const bot = /^Bot \((random|greedy)\)$/.exec(name);
  return bot ? botName(bot[1], seat) : name;
}

/**
 * A bot as the table names it: its level and its seat ("Bot (strong) 2").
 * @param {string} level
 * @param {number} seat
 */
function botName(level, seat) {
  return `${t('table.bot', { level: t(`bot.${level}`) })} ${seat + 1}`;
}

/**
 * @param {GameUI} ui
 * @param {any} entry an engine::Entry: {move: {seat, mv}} or {timeout: {period}}
 * @param {SeatLook[]} looks
 */
function describeEntry(ui, entry, looks) {
  if (entry && entry.move) return safe(() => ui.describeMove(entry.move.mv, entry.move.seat, looks)) ?? '';
  if (entry && entry.timeout) return t('table.timed_out');
  return '';
}

/**
 * @template T
 * @param {() => T} f
 * @returns {T | null}
 */
function safe(f) {
  try {
    return f();
  } catch (err) {
    console.error(err);
    return null;
  }
}
