//! One table: a tokio task that owns its state (an actor with a bounded inbox).
//!
//! Everything that changes a table goes through [`Room::run`]'s loop, one message
//! at a time, so there are no locks. A move walks one pipeline
//! ([`Room::on_move`] → [`Room::commit`]): is the sender seated → is it his
//! decision → is it made on the current version → is it legal (applied to a copy)
//! → append to the move log and wait until it is durable → only then swap in the
//! new state → fan out one update per viewer (each spectator gets the same bytes)
//! → acknowledge. Timers and bots feed the same pipeline.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use engine::{BotLevel, Entry, GameRng, Outcome, Seat, Viewer};
use protocol::{
    AwaitingInfo, ChatLine, ClientMsg, ErrorCode, GameSnapshot, LoggedEvents, Occupant, SeatInfo,
    ServerMsg, TableInfo, TableSettings, TableStatus, You, api::PublicTable,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::Instant;
use uuid::Uuid;

use crate::codes;
use crate::db::{GameRow, MoveRow, TableRow};
use crate::fanout::{Frames, ViewCache};
use crate::games::{Applied, ErasedGame, GameKind, MoveError, SetupDoc};
use crate::{Shared, now_ms};

/// Chat lines kept for people who join later.
const CHAT_HISTORY: usize = 50;
/// Moves whose events are kept for the game log of people who join later.
const RECENT_EVENTS: usize = 60;
/// A seat that timed out this many turns in a row is marked away.
const AWAY_AFTER: u8 = 3;
/// Shortest turn timer a host may set, and the least time a recovered timer gets.
pub const MIN_TURN_SECONDS: u32 = 5;
const RECOVERED_TIMER_FLOOR: Duration = Duration::from_secs(10);
/// Pause before retrying a bot move or a timeout after the store failed.
const RETRY: Duration = Duration::from_secs(1);

/// The server-owned JSON document of a table (`table.doc`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableDoc {
    pub settings: TableSettings,
    /// Token hash of the host.
    pub host: String,
    /// Everyone who holds a token for this table.
    pub players: Vec<PlayerDoc>,
    pub seats: Vec<SeatDoc>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerDoc {
    /// SHA-256 of the player's token.
    pub token_hash: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatDoc {
    Empty,
    Human { token_hash: String, away: bool },
    Bot { level: BotLevel },
}

/// Where a connection's messages go. The queue is bounded: a connection that
/// does not keep up is closed (it resyncs when it reconnects).
#[derive(Clone)]
pub struct Outbox {
    pub tx: mpsc::Sender<Utf8Bytes>,
    /// Tells the connection's writer to close now.
    pub close: Arc<Notify>,
}

impl Outbox {
    /// Queues a message; `false` when the queue is full or the connection is gone.
    pub fn push(&self, msg: Utf8Bytes) -> bool {
        self.tx.try_send(msg).is_ok()
    }
}

pub fn encode(msg: &ServerMsg) -> Utf8Bytes {
    // Our own message types always serialize.
    Utf8Bytes::from(serde_json::to_string(msg).unwrap_or_default())
}

pub fn error_msg(
    code: ErrorCode,
    message: &str,
    id: Option<u64>,
    rule: Option<String>,
) -> Utf8Bytes {
    encode(&ServerMsg::Error {
        code,
        message: message.to_owned(),
        id,
        rule,
    })
}

/// A message to a room.
pub enum RoomMsg {
    /// A connection said `hello`. `reply` tells it whether it joined.
    Join {
        conn: u64,
        token: Option<String>,
        name: String,
        spectator_link: bool,
        out: Outbox,
        reply: oneshot::Sender<bool>,
    },
    Client {
        conn: u64,
        msg: ClientMsg,
        received: Instant,
    },
    Leave {
        conn: u64,
    },
    /// Finish what is queued before this message, then stop.
    Shutdown {
        done: oneshot::Sender<()>,
    },
}

/// A refusal: code and sentence for the client.
type Refusal = (ErrorCode, String);

fn refuse<T>(code: ErrorCode, message: &str) -> Result<T, Refusal> {
    Err((code, message.to_owned()))
}

struct Conn {
    out: Outbox,
    /// Token hash of the player identity this connection holds, if any.
    player: Option<String>,
    /// The plain token, when this connection presented or received it.
    token: Option<String>,
    name: String,
    spectator_link: bool,
    chat: crate::Bucket,
}

struct Timer {
    period: u64,
    deadline: Instant,
}

/// A game in progress or just finished.
struct Live {
    id: Uuid,
    number: i32,
    state: Box<dyn ErasedGame>,
    /// Number of log entries.
    version: u64,
    /// Version at which the current decision period began (see [`Live::is_stale`]).
    period_start: u64,
    /// Per seat: the version right after that seat's latest own move.
    moved_at: Vec<u64>,
    /// Every viewer's view at `version`.
    views: ViewCache,
    timer: Option<Timer>,
    bot_due: Option<Instant>,
    bot_rng: GameRng,
    timeouts_in_row: Vec<u8>,
    /// A commit failed: the log may hold more than memory; reload before the next move.
    dirty: bool,
    recent: RecentEvents,
}

/// The events of the latest moves that had any, as JSON text (smaller than
/// `Value` trees, and already serialized for the updates).
#[derive(Default)]
struct RecentEvents(VecDeque<(u64, Box<str>)>);

impl RecentEvents {
    fn push(&mut self, version: u64, events_json: &str) {
        if events_json == "[]" {
            return;
        }
        if self.0.len() == RECENT_EVENTS {
            self.0.pop_front();
        }
        self.0.push_back((version, events_json.into()));
    }

    fn logged(&self) -> Vec<LoggedEvents> {
        self.0
            .iter()
            .map(|(version, json)| LoggedEvents {
                version: *version,
                events: serde_json::from_str(json).unwrap_or_default(),
            })
            .collect()
    }
}

/// The bots' randomness for a game with this seed (separate from the game's own).
pub fn bot_seed(seed: u64) -> u64 {
    seed ^ 0x9e37_79b9_7f4a_7c15
}

fn timeout_entry(period: u64) -> Value {
    serde_json::to_value(Entry::<()>::Timeout { period }).unwrap_or(Value::Null)
}

/// What a room is built from: a table row and its latest game with its log.
pub struct RoomInit {
    pub table: TableRow,
    pub doc: TableDoc,
    pub kind: Arc<dyn GameKind>,
    pub game: Option<(GameRow, Vec<MoveRow>)>,
}

pub struct Room {
    shared: Arc<Shared>,
    id: Uuid,
    kind: Arc<dyn GameKind>,
    invite_code: String,
    spectator_code: String,
    status: TableStatus,
    doc: TableDoc,
    live: Option<Live>,
    /// Number of the latest game (0 before the first).
    games_played: i32,
    conns: HashMap<u64, Conn>,
    /// Connections to close after the current fan-out (queue full).
    doomed: Vec<u64>,
    chat: VecDeque<ChatLine>,
    /// When each seated player's last connection closed (by token hash), so the
    /// table can say how long he has been gone.
    gone_since: HashMap<String, Instant>,
}

impl Live {
    /// A game at `version` (its number of log entries).
    fn new(game: &GameRow, state: Box<dyn ErasedGame>, setup: &SetupDoc, version: u64) -> Live {
        let seats = usize::from(setup.seats);
        Live {
            id: game.id,
            number: game.number,
            bot_rng: GameRng::new(bot_seed(setup.seed)),
            views: ViewCache::new(state.as_ref(), setup.seats),
            state,
            version,
            // Where the current period began is unknown after a replay: count it
            // from here, so only moves made on the rebuilt state are accepted.
            period_start: version,
            moved_at: vec![0; seats],
            timer: None,
            bot_due: None,
            timeouts_in_row: vec![0; seats],
            dirty: false,
            recent: RecentEvents::default(),
        }
    }

    /// A move made on `version` is stale when anything it could depend on changed
    /// since: a new decision period began, or the same seat moved again. Other seats'
    /// decisions in the same period (simultaneous rounds, trade answers) don't make
    /// it stale, so players deciding at once don't refuse each other's moves; the game
    /// itself refuses a second decision of one seat in one round.
    fn is_stale(&self, seat: Seat, version: u64) -> bool {
        let own_last = self.moved_at.get(usize::from(seat)).copied().unwrap_or(0);
        version > self.version || version < self.period_start || version < own_last
    }
}

/// Rebuilds a running game from its log; with it, when its current decision
/// period began (the time of the entry that started it, or of the game's start).
fn live_from(
    kind: &dyn GameKind,
    game: &GameRow,
    moves: &[MoveRow],
) -> Result<(Live, i64), String> {
    let setup: SetupDoc =
        serde_json::from_value(game.setup.clone()).map_err(|e| format!("setup: {e}"))?;
    let entries: Vec<Value> = moves.iter().map(|m| m.entry.clone()).collect();
    // Every entry goes through the ring, as during play, so a reloaded room keeps
    // the same moves' events as the room it replaces.
    let mut recent = RecentEvents::default();
    let mut period = kind.start(&setup)?.awaiting().period;
    let mut period_started_ms = game.started_at_ms;
    let state = kind.replay(&setup, &entries, &mut |index, events, after| {
        recent.push(
            index as u64 + 1,
            &serde_json::to_string(&events).unwrap_or_default(),
        );
        // A turn of several moves is one period: its timer runs from the entry
        // that began it, not from the turn's latest move.
        if after != period {
            period = after;
            period_started_ms = moves.get(index).map_or(period_started_ms, |m| m.at_ms);
        }
    })?;
    let mut live = Live::new(game, state, &setup, moves.len() as u64);
    live.recent = recent;
    Ok((live, period_started_ms))
}

impl Room {
    /// Builds a room, replaying its latest game. A game that fails to replay is
    /// an error: the table is not served rather than served wrong.
    pub fn new(shared: Arc<Shared>, init: RoomInit) -> Result<Room, String> {
        let mut status = match init.table.status.as_str() {
            "playing" => TableStatus::Playing,
            "finished" => TableStatus::Finished,
            _ => TableStatus::Lobby,
        };
        let mut live = None;
        let mut games_played = 0;
        let mut period_started_ms = None;
        if let Some((game, moves)) = &init.game {
            games_played = game.number;
            let (l, started) = live_from(init.kind.as_ref(), game, moves)?;
            // A game row without an outcome is running, whatever the table row says
            // (the table may not have been updated before a crash); a finished one
            // is shown unless the host took the table back to its lobby.
            let over = l.state.outcome().is_some();
            if !(over && status == TableStatus::Lobby) {
                status = if over {
                    TableStatus::Finished
                } else {
                    TableStatus::Playing
                };
                period_started_ms = Some(started);
                live = Some(l);
            }
        }
        let mut room = Room {
            shared,
            id: init.table.id,
            kind: init.kind,
            invite_code: init.table.invite_code,
            spectator_code: init.table.spectator_code,
            status,
            doc: init.doc,
            live,
            games_played,
            conns: HashMap::new(),
            doomed: Vec::new(),
            chat: VecDeque::new(),
            gone_since: HashMap::new(),
        };
        room.schedule();
        // Timers resume with the time left when the current period started, less
        // the time since (but at least a few seconds: a restart should not
        // make a player lose his turn at once).
        if let (Some(live), Some(started)) = (room.live.as_mut(), period_started_ms)
            && let Some(timer) = live.timer.as_mut()
        {
            let elapsed =
                Duration::from_millis(u64::try_from(now_ms().saturating_sub(started)).unwrap_or(0));
            let full = timer.deadline.saturating_duration_since(Instant::now());
            let left = full
                .saturating_sub(elapsed)
                .max(RECOVERED_TIMER_FLOOR.min(full));
            timer.deadline = Instant::now() + left;
        }
        room.publish();
        Ok(room)
    }

    pub fn table_id(&self) -> Uuid {
        self.id
    }

    pub fn invite_code(&self) -> &str {
        &self.invite_code
    }

    pub fn spectator_code(&self) -> &str {
        &self.spectator_code
    }

    pub async fn run(mut self, mut inbox: mpsc::Receiver<RoomMsg>) {
        let mut last_activity = Instant::now();
        loop {
            // Nobody here and nothing running: the room may be unloaded.
            let idle_at = (self.conns.is_empty() && self.status != TableStatus::Playing)
                .then(|| last_activity + self.shared.config.idle_room);
            let timer_at = self
                .live
                .as_ref()
                .and_then(|l| l.timer.as_ref().map(|t| t.deadline));
            let bot_at = self.live.as_ref().and_then(|l| l.bot_due);
            tokio::select! {
                biased;
                msg = inbox.recv() => match msg {
                    None => break,
                    Some(RoomMsg::Shutdown { done }) => {
                        let _ = done.send(());
                        break;
                    }
                    Some(msg) => {
                        last_activity = Instant::now();
                        self.handle(msg).await;
                    }
                },
                _ = sleep_until(bot_at), if bot_at.is_some() => self.on_bot().await,
                _ = sleep_until(timer_at), if timer_at.is_some() => self.on_timer().await,
                _ = sleep_until(idle_at), if idle_at.is_some() => {
                    self.unload(&mut inbox);
                    return;
                }
            }
            self.prune();
        }
        for conn in self.conns.values() {
            conn.out.close.notify_one();
        }
        tracing::debug!(table = %self.id, "room stopped");
    }

    /// Leaves memory: new lookups load the table from the store again. Whoever
    /// reached the inbox meanwhile is told to reconnect.
    fn unload(&mut self, inbox: &mut mpsc::Receiver<RoomMsg>) {
        crate::AppState::unregister_room(&self.shared, self.id);
        self.shared
            .lobby
            .lock()
            .map(|mut l| l.remove(&self.id))
            .ok();
        inbox.close();
        while let Ok(msg) = inbox.try_recv() {
            match msg {
                RoomMsg::Join { out, reply, .. } => {
                    out.push(error_msg(
                        ErrorCode::TryAgain,
                        "The table was being put away. Reconnect.",
                        None,
                        None,
                    ));
                    out.close.notify_one();
                    let _ = reply.send(false);
                }
                RoomMsg::Shutdown { done } => {
                    let _ = done.send(());
                }
                RoomMsg::Client { .. } | RoomMsg::Leave { .. } => {}
            }
        }
        tracing::debug!(table = %self.id, "idle room unloaded");
    }

    async fn handle(&mut self, msg: RoomMsg) {
        match msg {
            RoomMsg::Join {
                conn,
                token,
                name,
                spectator_link,
                out,
                reply,
            } => {
                let joined = self.on_join(conn, token, name, spectator_link, out);
                let _ = reply.send(joined);
            }
            RoomMsg::Leave { conn } => {
                if let Some(c) = self.conns.remove(&conn) {
                    let seat = self.seat_of(c.player.as_deref());
                    let still_there =
                        seat.is_some() && self.conns.values().any(|o| o.player == c.player);
                    if !still_there {
                        if let (Some(_), Some(player)) = (seat, c.player.clone()) {
                            self.gone_since.insert(player, Instant::now());
                        }
                        self.broadcast_table();
                    }
                }
            }
            RoomMsg::Client {
                conn,
                msg,
                received,
            } => {
                let move_id = match &msg {
                    ClientMsg::Move { id, .. } => Some(*id),
                    _ => None,
                };
                let result = self.on_client(conn, msg).await;
                match result {
                    Ok(()) => {
                        if move_id.is_some() {
                            self.shared
                                .metrics
                                .move_seconds
                                .observe(received.elapsed().as_secs_f64());
                        }
                    }
                    Err((code, message)) => {
                        let rule = None;
                        self.send_err(conn, code, &message, move_id, rule);
                    }
                }
            }
            RoomMsg::Shutdown { .. } => {}
        }
    }

    fn send_err(
        &mut self,
        conn: u64,
        code: ErrorCode,
        message: &str,
        id: Option<u64>,
        rule: Option<String>,
    ) {
        self.send(conn, error_msg(code, message, id, rule));
    }

    fn send(&mut self, conn: u64, msg: Utf8Bytes) {
        if let Some(c) = self.conns.get(&conn)
            && !c.out.push(msg)
        {
            self.doomed.push(conn);
        }
    }

    /// Closes connections whose queue overflowed.
    fn prune(&mut self) {
        while !self.doomed.is_empty() {
            let doomed = std::mem::take(&mut self.doomed);
            let mut removed = false;
            for id in doomed {
                if let Some(c) = self.conns.remove(&id) {
                    tracing::info!(table = %self.id, conn = id, "closing a connection that fell behind");
                    c.out.close.notify_one();
                    removed = true;
                }
            }
            if removed {
                self.broadcast_table();
            }
        }
    }

    // ----- identity and views -----

    fn seat_of(&self, player: Option<&str>) -> Option<Seat> {
        let player = player?;
        self.doc
            .seats
            .iter()
            .position(|s| matches!(s, SeatDoc::Human { token_hash, .. } if token_hash == player))
            .and_then(|i| Seat::try_from(i).ok())
    }

    fn player_name(&self, hash: &str) -> Option<String> {
        self.doc
            .players
            .iter()
            .find(|p| p.token_hash == hash)
            .map(|p| p.name.clone())
    }

    fn viewer_of(&self, conn: &Conn) -> Viewer {
        match (self.live.is_some(), self.seat_of(conn.player.as_deref())) {
            (true, Some(seat)) => Viewer::Seat(seat),
            _ => Viewer::Spectator,
        }
    }

    fn you(&self, conn: &Conn) -> You {
        You {
            token: conn.token.clone(),
            seat: self.seat_of(conn.player.as_deref()),
            is_host: conn.player.as_deref() == Some(self.doc.host.as_str()),
            name: conn.name.clone(),
        }
    }

    fn table_info(&self, with_codes: bool) -> TableInfo {
        let seats = self
            .doc
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatInfo {
                seat: Seat::try_from(i).unwrap_or(Seat::MAX),
                occupant: match s {
                    SeatDoc::Empty => Occupant::Empty,
                    SeatDoc::Bot { level } => Occupant::Bot { level: *level },
                    SeatDoc::Human { token_hash, away } => {
                        let connected = self
                            .conns
                            .values()
                            .any(|c| c.player.as_deref() == Some(token_hash.as_str()));
                        Occupant::Human {
                            name: self.player_name(token_hash).unwrap_or_default(),
                            connected,
                            gone_ms: if connected {
                                None
                            } else {
                                self.gone_since.get(token_hash).map(|since| {
                                    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
                                })
                            },
                            away: *away,
                        }
                    }
                },
            })
            .collect();
        let spectators = self
            .conns
            .values()
            .filter(|c| self.seat_of(c.player.as_deref()).is_none())
            .count();
        TableInfo {
            game: self.kind.id().to_owned(),
            status: self.status,
            settings: self.doc.settings.clone(),
            seats,
            host_seat: self.seat_of(Some(&self.doc.host)),
            spectators: u32::try_from(spectators).unwrap_or(u32::MAX),
            invite_code: with_codes.then(|| self.invite_code.clone()),
            spectator_code: with_codes.then(|| self.spectator_code.clone()),
        }
    }

    /// Whether a connection may see the invite and spectator codes.
    fn sees_codes(&self, conn: &Conn) -> bool {
        conn.player.is_some() || !conn.spectator_link
    }

    fn broadcast_table(&mut self) {
        // The listing first: whoever hears of the change can already see it there.
        self.publish();
        let with = encode(&ServerMsg::Table {
            table: self.table_info(true),
        });
        let without = encode(&ServerMsg::Table {
            table: self.table_info(false),
        });
        let targets: Vec<(u64, bool)> = self
            .conns
            .iter()
            .map(|(id, c)| (*id, self.sees_codes(c)))
            .collect();
        for (id, codes) in targets {
            self.send(id, if codes { with.clone() } else { without.clone() });
        }
    }

    /// Keeps the public lobby listing in step. Private tables are never listed.
    fn publish(&self) {
        let Ok(mut lobby) = self.shared.lobby.lock() else {
            return;
        };
        if self.doc.settings.public && self.status != TableStatus::Finished {
            let host_name = self.player_name(&self.doc.host).unwrap_or_default();
            let taken = self
                .doc
                .seats
                .iter()
                .filter(|s| !matches!(s, SeatDoc::Empty))
                .count();
            lobby.insert(
                self.id,
                PublicTable {
                    invite_code: self.invite_code.clone(),
                    game: self.kind.id().to_owned(),
                    status: self.status,
                    seats: self.doc.settings.seats,
                    seats_taken: u8::try_from(taken).unwrap_or(u8::MAX),
                    spectators_allowed: self.doc.settings.spectators_allowed,
                    host_name,
                },
            );
        } else {
            lobby.remove(&self.id);
        }
    }

    fn awaiting_info(live: &Live) -> AwaitingInfo {
        AwaitingInfo {
            seats: live.state.awaiting().seats,
            timer_ms: live.timer.as_ref().map(|t| {
                u64::try_from(
                    t.deadline
                        .saturating_duration_since(Instant::now())
                        .as_millis(),
                )
                .unwrap_or(u64::MAX)
            }),
        }
    }

    fn snapshot_for(&mut self, conn: u64) -> Option<Utf8Bytes> {
        let viewer = self.viewer_of(self.conns.get(&conn)?);
        let live = self.live.as_ref()?;
        let view = live.state.view(viewer);
        Some(encode(&ServerMsg::Snapshot {
            game: GameSnapshot {
                number: u32::try_from(live.number).unwrap_or(0),
                version: live.version,
                view,
                awaiting: Self::awaiting_info(live),
                outcome: live.state.outcome(),
                recent_events: live.recent.logged(),
            },
        }))
    }

    fn welcome(&mut self, conn: u64) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        let msg = encode(&ServerMsg::Welcome {
            you: self.you(c),
            table: self.table_info(self.sees_codes(c)),
        });
        self.send(conn, msg);
    }

    /// Welcome (and the game as it now looks) for every connection of a player.
    fn rewelcome_player(&mut self, hash: &str) {
        let ids: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| c.player.as_deref() == Some(hash))
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            self.welcome(id);
            if let Some(snap) = self.snapshot_for(id) {
                self.send(id, snap);
            }
        }
    }

    // ----- joining -----

    fn on_join(
        &mut self,
        conn: u64,
        token: Option<String>,
        name: String,
        spectator_link: bool,
        out: Outbox,
    ) -> bool {
        let reply_err = |code, message: &str| {
            out.push(error_msg(code, message, None, None));
            false
        };
        let mut player = None;
        let mut name = name.trim().to_owned();
        if let Some(token) = &token {
            let hash = codes::hash_token(token);
            match self.player_name(&hash) {
                Some(known) => {
                    name = known;
                    player = Some(hash);
                }
                None if hash == self.doc.host => player = Some(hash),
                None => {
                    return reply_err(
                        ErrorCode::BadToken,
                        "That seat token does not belong to this table.",
                    );
                }
            }
        }
        if player.is_none() {
            if spectator_link && !self.doc.settings.spectators_allowed {
                return reply_err(
                    ErrorCode::NoSpectators,
                    "This table does not allow spectators.",
                );
            }
            // A newcomer's name: cleaned, and told apart from everyone's at the
            // table (players with a token, and whoever is connected). Every name
            // at a table enters here or at the table's creation.
            name = match clean_name(&name) {
                Ok(clean) => unique_name(
                    &clean,
                    self.doc
                        .players
                        .iter()
                        .map(|p| p.name.as_str())
                        .chain(self.conns.values().map(|c| c.name.as_str())),
                ),
                Err((code, message)) => return reply_err(code, &message),
            };
        }
        let newly_seated = self.seat_of(player.as_deref()).is_some()
            && !self.conns.values().any(|c| c.player == player);
        self.conns.insert(
            conn,
            Conn {
                out,
                player,
                token,
                name,
                spectator_link,
                chat: crate::Bucket::new(5.0, 0.5),
            },
        );
        self.shared.metrics.connections.inc();
        self.welcome(conn);
        if let Some(snap) = self.snapshot_for(conn) {
            self.send(conn, snap);
        }
        let history: Vec<Utf8Bytes> = self
            .chat
            .iter()
            .map(|line| encode(&ServerMsg::Chat { line: line.clone() }))
            .collect();
        for line in history {
            self.send(conn, line);
        }
        // Presence and the spectator count changed for everyone else.
        let _ = newly_seated;
        self.broadcast_table();
        true
    }

    // ----- client messages -----

    async fn on_client(&mut self, conn: u64, msg: ClientMsg) -> Result<(), Refusal> {
        if !self.conns.contains_key(&conn) {
            return Ok(());
        }
        match msg {
            ClientMsg::Hello { .. } => refuse(ErrorCode::HelloFirst, "You already said hello."),
            ClientMsg::Move { id, version, mv } => self.on_move(conn, id, version, mv).await,
            ClientMsg::LegalMoves => {
                let seat = self.require_seat(conn)?;
                let live = self
                    .live
                    .as_ref()
                    .ok_or((ErrorCode::WrongStatus, "No game is running.".to_owned()))?;
                let msg = encode(&ServerMsg::LegalMoves {
                    version: live.version,
                    moves: live.state.legal_moves(seat),
                });
                self.send(conn, msg);
                Ok(())
            }
            ClientMsg::Resync => {
                self.welcome(conn);
                if let Some(snap) = self.snapshot_for(conn) {
                    self.send(conn, snap);
                }
                Ok(())
            }
            ClientMsg::Chat { text } => self.on_chat(conn, text),
            ClientMsg::TakeSeat { seat } => self.on_take_seat(conn, seat).await,
            ClientMsg::LeaveSeat => {
                self.require_lobby()?;
                let hash = self.conn_player(conn);
                let seat = self.require_seat(conn)?;
                let mut doc = self.doc.clone();
                doc.seats[usize::from(seat)] = SeatDoc::Empty;
                self.save_doc(doc).await?;
                if let Some(hash) = hash {
                    self.rewelcome_player(&hash);
                }
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::Configure { settings } => {
                self.require_host(conn)?;
                self.require_lobby()?;
                let mut doc = self.doc.clone();
                let settings = self.check_settings(&settings)?;
                let n = usize::from(settings.seats);
                if doc
                    .seats
                    .iter()
                    .skip(n)
                    .any(|s| !matches!(s, SeatDoc::Empty))
                {
                    return refuse(
                        ErrorCode::BadSettings,
                        "Free the seats you want to remove first.",
                    );
                }
                doc.seats.resize(n, SeatDoc::Empty);
                doc.settings = settings;
                self.save_doc(doc).await?;
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::AddBot { seat, level } => self.on_add_bot(conn, seat, level).await,
            ClientMsg::Kick { seat } => {
                self.require_host(conn)?;
                self.require_lobby()?;
                let i = self.seat_index(seat)?;
                let mut doc = self.doc.clone();
                let was = std::mem::replace(&mut doc.seats[i], SeatDoc::Empty);
                if was == SeatDoc::Empty {
                    return refuse(ErrorCode::NoSuchSeat, "That seat is already empty.");
                }
                self.save_doc(doc).await?;
                if let SeatDoc::Human { token_hash, .. } = was {
                    self.rewelcome_player(&token_hash);
                }
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::Start => {
                self.require_host(conn)?;
                self.require_lobby()?;
                self.start_game().await
            }
            ClientMsg::PlayAgain => {
                self.require_host(conn)?;
                self.require_finished()?;
                self.start_game().await
            }
            ClientMsg::BackToLobby => {
                self.require_host(conn)?;
                self.require_finished()?;
                self.save(self.doc.clone(), TableStatus::Lobby).await?;
                // The finished game stays in the store (its record, the next
                // game's number); the lobby shows none.
                self.live = None;
                self.broadcast_table();
                Ok(())
            }
        }
    }

    fn conn_player(&self, conn: u64) -> Option<String> {
        self.conns.get(&conn).and_then(|c| c.player.clone())
    }

    fn require_seat(&self, conn: u64) -> Result<Seat, Refusal> {
        self.seat_of(self.conn_player(conn).as_deref()).ok_or((
            ErrorCode::NotSeated,
            "You do not hold a seat at this table.".to_owned(),
        ))
    }

    fn require_host(&self, conn: u64) -> Result<(), Refusal> {
        if self.conn_player(conn).as_deref() == Some(self.doc.host.as_str()) {
            Ok(())
        } else {
            refuse(ErrorCode::NotHost, "Only the host may do that.")
        }
    }

    fn require_finished(&self) -> Result<(), Refusal> {
        if self.status == TableStatus::Finished {
            Ok(())
        } else {
            refuse(ErrorCode::WrongStatus, "The game is not over yet.")
        }
    }

    fn require_lobby(&self) -> Result<(), Refusal> {
        if self.status == TableStatus::Lobby {
            Ok(())
        } else {
            refuse(
                ErrorCode::WrongStatus,
                "That is only possible before the game starts.",
            )
        }
    }

    fn seat_index(&self, seat: Seat) -> Result<usize, Refusal> {
        let i = usize::from(seat);
        if i < self.doc.seats.len() {
            Ok(i)
        } else {
            refuse(ErrorCode::NoSuchSeat, "There is no seat with that number.")
        }
    }

    pub fn check_settings(&self, settings: &TableSettings) -> Result<TableSettings, Refusal> {
        check_settings(self.kind.as_ref(), settings)
    }

    /// Persists a changed table document, then makes it current.
    async fn save_doc(&mut self, doc: TableDoc) -> Result<(), Refusal> {
        self.save(doc, self.status).await
    }

    async fn save(&mut self, mut doc: TableDoc, status: TableStatus) -> Result<(), Refusal> {
        prune_players(&mut doc);
        let row = TableRow {
            id: self.id,
            game: self.kind.id().to_owned(),
            invite_code: self.invite_code.clone(),
            spectator_code: self.spectator_code.clone(),
            status: status_str(status).to_owned(),
            public: doc.settings.public,
            doc: serde_json::to_value(&doc).unwrap_or(Value::Null),
            updated_at_ms: now_ms(),
        };
        if let Err(e) = self.shared.db.upsert_table(&row).await {
            tracing::warn!(table = %self.id, error = %e, "saving the table failed");
            return refuse(
                ErrorCode::TryAgain,
                "The server could not save that. Try again.",
            );
        }
        self.doc = doc;
        self.status = status;
        Ok(())
    }

    fn on_chat(&mut self, conn: u64, text: String) -> Result<(), Refusal> {
        let text = clean_chat(&text);
        let chars = text.chars().count();
        if chars == 0 || chars > protocol::MAX_CHAT_CHARS {
            return refuse(
                ErrorCode::BadChat,
                &format!(
                    "A chat message has 1 to {} characters.",
                    protocol::MAX_CHAT_CHARS
                ),
            );
        }
        let Some(c) = self.conns.get_mut(&conn) else {
            return Ok(());
        };
        if !c.chat.take() {
            return refuse(
                ErrorCode::RateLimited,
                "You are chatting too fast. Wait a moment.",
            );
        }
        let name = c.name.clone();
        let player = c.player.clone();
        let line = ChatLine {
            name,
            seat: self.seat_of(player.as_deref()),
            text,
            at_ms: u64::try_from(now_ms()).unwrap_or(0),
        };
        if self.chat.len() == CHAT_HISTORY {
            self.chat.pop_front();
        }
        self.chat.push_back(line.clone());
        let msg = encode(&ServerMsg::Chat { line });
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        for id in ids {
            self.send(id, msg.clone());
        }
        Ok(())
    }

    async fn on_take_seat(&mut self, conn: u64, seat: Option<Seat>) -> Result<(), Refusal> {
        self.require_lobby()?;
        let Some(c) = self.conns.get(&conn) else {
            return Ok(());
        };
        if c.spectator_link && c.player.is_none() {
            return refuse(ErrorCode::Spectator, "Spectators cannot take a seat.");
        }
        let i = match seat {
            Some(s) => self.seat_index(s)?,
            None => self
                .doc
                .seats
                .iter()
                .position(|s| *s == SeatDoc::Empty)
                .ok_or((ErrorCode::SeatTaken, "The table is full.".to_owned()))?,
        };
        if self.doc.seats[i] != SeatDoc::Empty {
            return refuse(ErrorCode::SeatTaken, "That seat is taken.");
        }
        let mut doc = self.doc.clone();
        let mut new_token = None;
        let hash = match &c.player {
            // A player who left his seat was dropped from the players: he is back.
            Some(h) => {
                if !doc.players.iter().any(|p| p.token_hash == *h) {
                    doc.players.push(PlayerDoc {
                        token_hash: h.clone(),
                        name: c.name.clone(),
                    });
                }
                h.clone()
            }
            None => {
                let token = codes::new_token();
                let hash = codes::hash_token(&token);
                doc.players.push(PlayerDoc {
                    token_hash: hash.clone(),
                    name: c.name.clone(),
                });
                new_token = Some(token);
                hash
            }
        };
        for s in doc.seats.iter_mut() {
            if matches!(s, SeatDoc::Human { token_hash, .. } if *token_hash == hash) {
                *s = SeatDoc::Empty;
            }
        }
        doc.seats[i] = SeatDoc::Human {
            token_hash: hash.clone(),
            away: false,
        };
        self.save_doc(doc).await?;
        if let Some(c) = self.conns.get_mut(&conn) {
            c.player = Some(hash.clone());
            if new_token.is_some() {
                c.token = new_token;
            }
        }
        self.rewelcome_player(&hash);
        self.broadcast_table();
        Ok(())
    }

    async fn on_add_bot(&mut self, conn: u64, seat: Seat, level: BotLevel) -> Result<(), Refusal> {
        self.require_host(conn)?;
        let i = self.seat_index(seat)?;
        let mut doc = self.doc.clone();
        let replaced = match (self.status, &doc.seats[i]) {
            (TableStatus::Lobby, SeatDoc::Empty) => None,
            (TableStatus::Lobby, _) => return refuse(ErrorCode::SeatTaken, "That seat is taken."),
            (
                TableStatus::Playing,
                SeatDoc::Human {
                    token_hash,
                    away: true,
                },
            ) => Some(token_hash.clone()),
            (TableStatus::Playing, _) => {
                return refuse(
                    ErrorCode::SeatTaken,
                    "During a game only an away player's seat can go to a bot.",
                );
            }
            (TableStatus::Finished, _) => {
                return refuse(ErrorCode::WrongStatus, "The game is over.");
            }
        };
        doc.seats[i] = SeatDoc::Bot { level };
        self.save_doc(doc).await?;
        if let Some(hash) = replaced {
            self.rewelcome_player(&hash);
        }
        if let Some(n) = self
            .live
            .as_mut()
            .and_then(|live| live.timeouts_in_row.get_mut(i))
        {
            *n = 0;
        }
        self.schedule();
        self.broadcast_table();
        Ok(())
    }

    async fn start_game(&mut self) -> Result<(), Refusal> {
        if self.doc.seats.contains(&SeatDoc::Empty) {
            return refuse(
                ErrorCode::BadSettings,
                "Every seat needs a player or a bot.",
            );
        }
        self.check_settings(&self.doc.settings.clone())?;
        let names = self
            .doc
            .seats
            .iter()
            .map(|s| match s {
                SeatDoc::Human { token_hash, .. } => {
                    self.player_name(token_hash).unwrap_or_default()
                }
                SeatDoc::Bot { level } => format!("Bot ({})", level_name(*level)),
                SeatDoc::Empty => String::new(),
            })
            .collect();
        let setup = SetupDoc {
            seats: self.doc.settings.seats,
            seed: random_seed(),
            options: self.doc.settings.options.clone(),
            first_seat: None,
            names,
        };
        let state = self
            .kind
            .start(&setup)
            .map_err(|message| (ErrorCode::BadSettings, message))?;
        let row = GameRow {
            id: Uuid::new_v4(),
            table_id: self.id,
            number: self.games_played + 1,
            setup: serde_json::to_value(&setup).unwrap_or(Value::Null),
            started_at_ms: now_ms(),
            outcome: None,
        };
        if let Err(e) = self.shared.db.insert_game(&row).await {
            tracing::warn!(table = %self.id, error = %e, "starting a game failed");
            return refuse(
                ErrorCode::TryAgain,
                "The server could not start the game. Try again.",
            );
        }
        let mut doc = self.doc.clone();
        for s in doc.seats.iter_mut() {
            if let SeatDoc::Human { away, .. } = s {
                *away = false;
            }
        }
        if self.save(doc, TableStatus::Playing).await.is_err() {
            // The game row is written; a game without an outcome counts as running
            // after a restart, so carry on.
            self.status = TableStatus::Playing;
        }
        self.games_played = row.number;
        self.live = Some(Live::new(&row, state, &setup, 0));
        tracing::info!(table = %self.id, game = %row.id, number = row.number, "game started");
        self.schedule();
        self.broadcast_table();
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        for id in ids {
            self.welcome(id);
            if let Some(snap) = self.snapshot_for(id) {
                self.send(id, snap);
            }
        }
        Ok(())
    }

    // ----- the move pipeline -----

    async fn on_move(
        &mut self,
        conn: u64,
        id: u64,
        version: u64,
        mv: Value,
    ) -> Result<(), Refusal> {
        if self.live.is_none() || self.status != TableStatus::Playing {
            return refuse(ErrorCode::WrongStatus, "No game is running.");
        }
        let seat = self.require_seat(conn)?;
        self.ensure_fresh().await?;
        let Some(live) = self.live.as_ref() else {
            return Ok(());
        };
        // A stale move is stale whatever else is true of it: the client must look at
        // the game again (resync) before deciding.
        if live.is_stale(seat, version) {
            return refuse(
                ErrorCode::StaleVersion,
                &format!(
                    "That move was made on version {version} but the game is at version {}. Nothing was applied.",
                    live.version
                ),
            );
        }
        if !live.state.awaiting().includes(seat) {
            return refuse(ErrorCode::NotYourTurn, "It is not your turn to decide.");
        }
        let applied = match live.state.try_move(seat, &mv) {
            Ok(a) => a,
            Err(MoveError::BadMove(message)) => return refuse(ErrorCode::BadMove, &message),
            Err(MoveError::Illegal(illegal)) => {
                self.send_err(
                    conn,
                    ErrorCode::IllegalMove,
                    &illegal.message,
                    Some(id),
                    Some(illegal.code.to_owned()),
                );
                return Ok(());
            }
        };
        self.commit(applied, Some(seat)).await?;
        let version = self.live.as_ref().map_or(0, |l| l.version);
        self.send(conn, encode(&ServerMsg::MoveOk { id, version }));
        Ok(())
    }

    /// Reloads the game from the log after a failed commit (the commit may have
    /// landed even though it reported an error).
    async fn ensure_fresh(&mut self) -> Result<(), Refusal> {
        if !self.live.as_ref().is_some_and(|l| l.dirty) {
            return Ok(());
        }
        let loaded = self.shared.db.latest_game(self.id).await;
        let (game, moves) = match loaded {
            Ok(Some(x)) => x,
            Ok(None) => {
                return refuse(
                    ErrorCode::TryAgain,
                    "The game could not be loaded. Try again.",
                );
            }
            Err(e) => {
                tracing::warn!(table = %self.id, error = %e, "reloading the game failed");
                return refuse(
                    ErrorCode::TryAgain,
                    "The server could not reach its store. Try again.",
                );
            }
        };
        let (live, _) = live_from(self.kind.as_ref(), &game, &moves).map_err(|e| {
            tracing::error!(table = %self.id, error = %e, "the move log does not replay");
            (
                ErrorCode::TryAgain,
                "The game could not be loaded. Try again.".to_owned(),
            )
        })?;
        let changed = self.live.as_ref().map(|l| l.version) != Some(live.version);
        self.live = Some(live);
        self.schedule();
        if changed {
            let ids: Vec<u64> = self.conns.keys().copied().collect();
            for id in ids {
                if let Some(snap) = self.snapshot_for(id) {
                    self.send(id, snap);
                }
            }
        }
        Ok(())
    }

    /// Persists an applied entry, then makes it current and tells everyone.
    /// On a store error nothing changes in memory.
    async fn commit(&mut self, applied: Applied, mover: Option<Seat>) -> Result<(), Refusal> {
        let Some(live) = self.live.as_mut() else {
            return Ok(());
        };
        let row = MoveRow {
            game_id: live.id,
            seq: i64::try_from(live.version).unwrap_or(i64::MAX),
            entry: applied.entry,
            at_ms: now_ms(),
        };
        let started = Instant::now();
        if let Err(e) = self.shared.db.append(row).await {
            tracing::warn!(table = %self.id, error = %e, "committing a move failed");
            live.dirty = true;
            return refuse(
                ErrorCode::TryAgain,
                "The server could not save that move; nothing was applied. Try again.",
            );
        }
        self.shared
            .metrics
            .commit_seconds
            .observe(started.elapsed().as_secs_f64());
        self.shared.metrics.moves.inc();
        let previous = live.state.awaiting();
        live.state = applied.state;
        live.version += 1;
        if live.state.awaiting().period != previous.period {
            live.period_start = live.version;
        }
        if let Some(slot) = mover.and_then(|seat| live.moved_at.get_mut(usize::from(seat))) {
            *slot = live.version;
        }
        let outcome = live.state.outcome();

        // Timeout streaks (ruling O1): a seat's own move ends its streak.
        let mut away_changed = Vec::new();
        match mover {
            Some(seat) => {
                if let Some(n) = live.timeouts_in_row.get_mut(usize::from(seat)) {
                    *n = 0;
                }
                if let Some(SeatDoc::Human { away: true, .. }) =
                    self.doc.seats.get(usize::from(seat))
                {
                    away_changed.push((seat, false));
                }
            }
            None => {
                for &seat in &previous.seats {
                    if let Some(n) = live.timeouts_in_row.get_mut(usize::from(seat)) {
                        *n = n.saturating_add(1);
                        if *n >= AWAY_AFTER
                            && matches!(
                                self.doc.seats.get(usize::from(seat)),
                                Some(SeatDoc::Human { away: false, .. })
                            )
                        {
                            away_changed.push((seat, true));
                        }
                    }
                }
            }
        }

        self.schedule();
        self.fan_out(&applied.events, outcome.clone());

        if !away_changed.is_empty() {
            let mut doc = self.doc.clone();
            for (seat, now_away) in away_changed {
                if let Some(SeatDoc::Human { away, .. }) = doc.seats.get_mut(usize::from(seat)) {
                    *away = now_away;
                }
            }
            // Best effort: the flag is advisory and rebuilt by later timeouts.
            if self.save_doc(doc).await.is_err() {
                tracing::warn!(table = %self.id, "could not save away flags");
            }
            self.broadcast_table();
        }
        if let Some(outcome) = outcome {
            self.finish(outcome).await;
        }
        Ok(())
    }

    /// One update per viewer: the public events, a JSON Patch from the viewer's
    /// previous view, whose decision is awaited. The public view's patch is found and
    /// written once for everyone (`fanout.rs`); every spectator gets the same bytes.
    fn fan_out(&mut self, events: &[Value], outcome: Option<Outcome>) {
        let viewers: HashMap<u64, Viewer> = self
            .conns
            .iter()
            .map(|(id, c)| (*id, self.viewer_of(c)))
            .collect();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let events_json = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
        live.recent.push(live.version, &events_json);
        let patches = live.views.advance(live.state.as_ref());
        let frames = Frames::new(
            live.version,
            &events_json,
            &Self::awaiting_info(live),
            outcome.as_ref(),
            &patches,
        );
        // Players first, then spectators.
        let mut order: Vec<(u64, Viewer)> = viewers.into_iter().collect();
        order.sort_by_key(|(_, v)| matches!(v, Viewer::Spectator));
        for (id, viewer) in order {
            self.send(id, frames.for_viewer(viewer).clone());
        }
    }

    async fn finish(&mut self, outcome: Outcome) {
        let Some(live) = self.live.as_mut() else {
            return;
        };
        live.timer = None;
        live.bot_due = None;
        let game_id = live.id;
        let number = live.number;
        let value = serde_json::to_value(&outcome).unwrap_or(Value::Null);
        if let Err(e) = self.shared.db.finish_game(game_id, &value).await {
            // The outcome follows from the log; a restart recomputes it.
            tracing::warn!(table = %self.id, error = %e, "saving the outcome failed");
        }
        if self
            .save(self.doc.clone(), TableStatus::Finished)
            .await
            .is_err()
        {
            self.status = TableStatus::Finished;
        }
        tracing::info!(table = %self.id, game = %game_id, number, "game finished");
        self.broadcast_table();
    }

    /// Sets the turn timer for the current period and the next bot move.
    fn schedule(&mut self) {
        let turn_seconds = self.doc.settings.turn_seconds;
        let bot_delay = self.shared.config.bot_delay;
        let seats = self.doc.seats.clone();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let awaiting = live.state.awaiting();
        if live.state.outcome().is_some() || awaiting.seats.is_empty() {
            live.timer = None;
            live.bot_due = None;
            return;
        }
        if live
            .timer
            .as_ref()
            .is_none_or(|t| t.period != awaiting.period)
        {
            let ms = awaiting
                .window_ms
                .or(turn_seconds.map(|s| u64::from(s) * 1000));
            live.timer = ms.map(|ms| Timer {
                period: awaiting.period,
                deadline: Instant::now() + Duration::from_millis(ms),
            });
        }
        let bot_awaited = awaiting
            .seats
            .iter()
            .any(|&s| matches!(seats.get(usize::from(s)), Some(SeatDoc::Bot { .. })));
        if !bot_awaited {
            live.bot_due = None;
        } else if live.bot_due.is_none() {
            live.bot_due = Some(Instant::now() + bot_delay);
        }
    }

    async fn on_bot(&mut self) {
        if self.ensure_fresh().await.is_err() {
            if let Some(live) = self.live.as_mut() {
                live.bot_due = Some(Instant::now() + RETRY);
            }
            return;
        }
        let seats = self.doc.seats.clone();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        live.bot_due = None;
        let awaiting = live.state.awaiting();
        let Some((seat, level)) =
            awaiting
                .seats
                .iter()
                .find_map(|&s| match seats.get(usize::from(s)) {
                    Some(SeatDoc::Bot { level }) => Some((s, *level)),
                    _ => None,
                })
        else {
            return;
        };
        let applied = match live.state.bot_move(seat, level, &mut live.bot_rng) {
            Some(mv) => live.state.try_move(seat, &mv),
            None => live.state.try_entry(&timeout_entry(awaiting.period)),
        };
        let applied = match applied {
            Ok(a) => a,
            Err(e) => {
                tracing::error!(table = %self.id, seat, error = ?e, "a bot chose a refused move; its turn times out");
                match live.state.try_entry(&timeout_entry(awaiting.period)) {
                    Ok(a) => a,
                    Err(_) => return,
                }
            }
        };
        if self.commit(applied, Some(seat)).await.is_err()
            && let Some(live) = self.live.as_mut()
        {
            live.bot_due = Some(Instant::now() + RETRY);
        }
    }

    async fn on_timer(&mut self) {
        if self.ensure_fresh().await.is_err() {
            if let Some(timer) = self.live.as_mut().and_then(|l| l.timer.as_mut()) {
                timer.deadline = Instant::now() + RETRY;
            }
            return;
        }
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let Some(timer) = live.timer.take() else {
            return;
        };
        let awaiting = live.state.awaiting();
        if awaiting.period != timer.period || live.state.outcome().is_some() {
            self.schedule();
            return;
        }
        let applied = match live.state.try_entry(&timeout_entry(timer.period)) {
            Ok(a) => a,
            Err(e) => {
                tracing::error!(table = %self.id, error = ?e, "the game refused its own timeout");
                return;
            }
        };
        tracing::info!(table = %self.id, period = timer.period, "turn timer ran out");
        if self.commit(applied, None).await.is_err()
            && let Some(live) = self.live.as_mut()
        {
            live.timer = Some(Timer {
                period: timer.period,
                deadline: Instant::now() + RETRY,
            });
        }
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

pub fn status_str(status: TableStatus) -> &'static str {
    match status {
        TableStatus::Lobby => "lobby",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
    }
}

fn level_name(level: BotLevel) -> &'static str {
    match level {
        BotLevel::Random => "random",
        BotLevel::Greedy => "greedy",
    }
}

fn random_seed() -> u64 {
    let b = Uuid::new_v4().into_bytes();
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[9], b[10]])
}

/// Bidi controls and zero-width (or otherwise invisible) characters: they show
/// nothing themselves but can reorder or hide the text around them.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// A name as the table shows it, or why it cannot be one.
///
/// Control characters are refused: nobody types one into a name field, so a
/// name holding one was forged, and refusing it says so. Bidi controls and
/// zero-width characters are stripped instead: they arrive innocently with
/// copied text and from some keyboards (a Persian name may hold a zero-width
/// non-joiner), and stripping them cannot make one name pass for another
/// because duplicates are found after cleaning ([`unique_name`]).
pub fn clean_name(name: &str) -> Result<String, Refusal> {
    if name.chars().any(char::is_control) {
        return refuse(
            ErrorCode::BadName,
            "A name cannot contain control characters.",
        );
    }
    let visible: String = name.chars().filter(|&c| !is_invisible(c)).collect();
    let name = visible.trim();
    let n = name.chars().count();
    if n == 0 || n > protocol::MAX_NAME_CHARS {
        return refuse(
            ErrorCode::BadName,
            &format!("A name has 1 to {} characters.", protocol::MAX_NAME_CHARS),
        );
    }
    Ok(name.to_owned())
}

/// How names are compared at a table: case-insensitively, ends trimmed.
fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// `name` itself when nobody in `taken` has it, else the first free of
/// `name 2`, `name 3`, ... (shortened to fit the longest name).
pub fn unique_name<'a>(name: &str, taken: impl IntoIterator<Item = &'a str>) -> String {
    let taken: HashSet<String> = taken.into_iter().map(name_key).collect();
    if !taken.contains(&name_key(name)) {
        return name.to_owned();
    }
    (2u32..)
        .map(|n| {
            let suffix = format!(" {n}");
            let room = protocol::MAX_NAME_CHARS.saturating_sub(suffix.chars().count());
            let base: String = name.chars().take(room).collect();
            format!("{}{suffix}", base.trim_end())
        })
        .find(|candidate| !taken.contains(&name_key(candidate)))
        .unwrap_or_else(|| name.to_owned())
}

/// Chat text as shown: control characters removed (newlines and tabs become
/// spaces: a chat line is one line), bidi controls and zero-width characters
/// removed, ends trimmed.
fn clean_chat(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() || is_invisible(c) => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim().to_owned()
}

/// Keeps in `doc.players` only the host and the players holding a seat: nobody
/// else needs a token for the table, and finished games keep their players'
/// names in their own setup.
fn prune_players(doc: &mut TableDoc) {
    let TableDoc {
        host,
        players,
        seats,
        ..
    } = doc;
    players.retain(|p| {
        p.token_hash == *host
            || seats.iter().any(
                |s| matches!(s, SeatDoc::Human { token_hash, .. } if *token_hash == p.token_hash),
            )
    });
}

/// Checks table settings; the settings as they are kept (see [`GameKind::check`]).
pub fn check_settings(
    kind: &dyn GameKind,
    settings: &TableSettings,
) -> Result<TableSettings, Refusal> {
    if let Some(s) = settings.turn_seconds
        && !(MIN_TURN_SECONDS..=86_400).contains(&s)
    {
        return refuse(
            ErrorCode::BadSettings,
            &format!("A turn timer lasts {MIN_TURN_SECONDS} seconds to one day."),
        );
    }
    let options = kind
        .check(settings.seats, &settings.options)
        .map_err(|message| (ErrorCode::BadSettings, message))?;
    Ok(TableSettings {
        options,
        ..settings.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_events_keep_the_latest_moves_with_events() {
        let mut recent = RecentEvents::default();
        for version in 1..=(3 * RECENT_EVENTS as u64) {
            let events = if version % 2 == 0 {
                "[]".to_owned()
            } else {
                format!(r#"[{{"n":{version}}}]"#)
            };
            recent.push(version, &events);
        }
        let logged = recent.logged();
        assert_eq!(logged.len(), RECENT_EVENTS);
        assert!(logged.iter().all(|l| l.version % 2 == 1));
        let last = logged.last().expect("some events");
        assert_eq!(last.version, 3 * RECENT_EVENTS as u64 - 1);
        assert_eq!(last.events, vec![serde_json::json!({"n": last.version})]);
        assert!(logged.windows(2).all(|w| w[0].version < w[1].version));
    }
}
