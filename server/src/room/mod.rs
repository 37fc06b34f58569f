//! One table: a tokio task that owns its state (an actor with a bounded inbox).
//!
//! Everything that changes a table goes through [`Room::run`]'s loop, one message
//! at a time, so there are no locks. A move walks one pipeline
//! ([`Room::on_move`] → [`Room::commit`]): is the sender seated → is it his
//! decision → is it made on the current version → is it legal (applied to a copy)
//! → append to the move log and wait until it is durable → only then swap in the
//! new state → fan out one update per viewer (each spectator gets the same bytes)
//! → acknowledge. Timers and bots feed the same pipeline.
//!
//! Layout: this file holds the actor (its loop, connections, inbox, unloading)
//! and who is who at the table; `client` a connection's messages (joining, the
//! dispatch of client messages, chat); `doc` the table document the store keeps,
//! the one check of table settings and a new table; `lobby` seats and host
//! controls as pure functions over the document, and their handlers; `names`
//! names and chat text as the table shows them; `live` a game in memory, rebuilt
//! from its log; `play` starting, moving, committing and finishing; `away` the
//! away streaks of every game; `turns` turn timers and bots; `frames` every
//! message the room sends (welcome, table, snapshot, the fan-out of a move);
//! `registry` the live rooms by code and the public listing.

mod away;
mod client;
mod clocks;
mod doc;
mod frames;
mod live;
mod lobby;
mod names;
mod play;
mod registry;
mod turns;
mod webhooks;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use engine::{Seat, Viewer};
use protocol::{ChatLine, ClientMsg, ErrorCode, TableStatus, You};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::Instant;
use uuid::Uuid;

use crate::budget::Bucket;
use crate::clock::now_ms;
use crate::cluster::{Cluster, Hold};
use crate::db::{Db, Fence, GameRow, MoveRow, StoreError, TableRow};
use crate::games::GameKind;
use crate::metrics::Metrics;
use crate::refusal::Refusal;

pub use clocks::Clocks;
pub use doc::{
    MIN_TURN_SECONDS, NewTable, PlayerDoc, SeatDoc, TableDoc, check_settings, new_table,
};
pub use frames::encode;
use live::{Live, live_from};
pub use live::{Replayed, bot_seed, replay_log};
pub use names::{clean_name, unique_name};
pub use registry::Rooms;

/// The least time a recovered timer gets.
const RECOVERED_TIMER_FLOOR: Duration = Duration::from_secs(10);

/// What a room needs from the server around it.
#[derive(Clone)]
pub struct RoomCtx {
    pub db: Arc<dyn Db>,
    pub metrics: Arc<Metrics>,
    /// Live rooms by code (a room removes itself when it unloads) and the
    /// public listing it keeps current.
    pub rooms: Arc<Rooms>,
    /// Pause before a bot moves.
    pub bot_delay: Duration,
    /// How long a player may be gone on his decision before the stand-in plays.
    pub left_grace: Duration,
    /// How long a room with nobody in it and no game running stays in memory.
    pub idle_room: Duration,
    /// In cluster mode: this node, and the table's lease the room runs under.
    pub lease: Option<(Arc<Cluster>, Arc<Hold>)>,
    /// Where webhook notices go (`notify.rs`).
    pub notices: Option<Notices>,
}

/// Webhook notices as a room sends them.
#[derive(Clone)]
pub struct Notices {
    pub notifier: crate::notify::Notifier,
    /// For the links to the table.
    pub public_url: Option<String>,
}

/// Where a connection's messages go. The queue is bounded: a connection that
/// does not keep up is closed (it resyncs when it reconnects).
#[derive(Clone)]
pub struct Outbox {
    pub tx: mpsc::Sender<Utf8Bytes>,
    /// Tells the connection's writer to close now.
    pub close: Arc<Notify>,
    /// A connection forwarded from another node through a spectator link: its
    /// table's shared stream, which the room uses instead of `tx` once it has
    /// admitted the connection as a spectator (see [`Shared`]).
    pub shared: Option<SharedOut>,
}

impl Outbox {
    /// The outbox of a connection whose frames go to `tx` alone.
    pub fn new(tx: mpsc::Sender<Utf8Bytes>, close: Arc<Notify>) -> Outbox {
        Outbox {
            tx,
            close,
            shared: None,
        }
    }

    /// Queues a message; `false` when the queue is full or the connection is gone.
    pub fn push(&self, msg: Utf8Bytes) -> bool {
        match &self.shared {
            Some(shared) => shared
                .stream
                .try_send(Shared::Frame {
                    to: vec![shared.to.clone()],
                    frame: msg,
                })
                .is_ok(),
            None => self.tx.try_send(msg).is_ok(),
        }
    }

    /// Closes the connection once the messages queued before are delivered.
    pub fn end(&self) {
        let queued = self.shared.as_ref().is_some_and(|shared| {
            let to = shared.to.clone();
            shared.stream.try_send(Shared::Close { to }).is_ok()
        });
        if !queued {
            self.close.notify_one();
        }
    }
}

/// A spectator's connection forwarded from another node, as its table's shared
/// stream addresses it: that node and the connection's number there.
pub type Recipient = (Arc<str>, u64);

/// What a table sends on its shared stream to the spectators other nodes hold
/// for it. What every such spectator receives (an update, the table, a chat
/// line) is one item for all of them; the stream keeps each one's order.
pub enum Shared {
    Frame {
        to: Vec<Recipient>,
        frame: Utf8Bytes,
    },
    Close {
        to: Recipient,
    },
}

/// A connection's place on a shared stream.
#[derive(Clone)]
pub struct SharedOut {
    pub stream: mpsc::Sender<Shared>,
    pub to: Recipient,
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

fn refuse<T>(code: ErrorCode) -> Result<T, Refusal> {
    Err(Refusal::new(code))
}

struct Conn {
    out: Outbox,
    /// Token hash of the player identity this connection holds, if any.
    player: Option<String>,
    /// The plain token, when this connection presented or received it.
    token: Option<String>,
    name: String,
    spectator_link: bool,
    chat: Bucket,
}

/// What a room is built from: a table row and its latest game with its log.
pub struct RoomInit {
    pub table: TableRow,
    pub doc: TableDoc,
    pub kind: Arc<dyn GameKind>,
    pub game: Option<(GameRow, Vec<MoveRow>)>,
}

impl RoomInit {
    /// A room of stored rows (its table document read from the table row).
    pub fn stored(
        table: TableRow,
        kind: Arc<dyn GameKind>,
        game: Option<(GameRow, Vec<MoveRow>)>,
    ) -> Result<RoomInit, String> {
        let doc: TableDoc =
            serde_json::from_value(table.doc.clone()).map_err(|e| format!("table doc: {e}"))?;
        Ok(RoomInit {
            table,
            doc,
            kind,
            game,
        })
    }
}

pub struct Room {
    ctx: RoomCtx,
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
    /// When this room was loaded: since then, at least, a player who never
    /// connected to it has been gone.
    loaded_at: Instant,
}

impl Room {
    /// Builds a room, replaying its latest game. A game that fails to replay is
    /// an error: the table is not served rather than served wrong.
    pub fn new(ctx: RoomCtx, init: RoomInit) -> Result<Room, String> {
        let mut status = init.table.status;
        let mut live = None;
        let mut games_played = 0;
        let mut period_started_ms = None;
        if let Some((game, moves)) = &init.game {
            games_played = game.number;
            let (l, started) = live_from(init.kind.as_ref(), &init.doc.settings, game, moves)?;
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
            ctx,
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
            loaded_at: Instant::now(),
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
        // A reminder for whoever the table waited for when the server stopped.
        room.notify_turns();
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
                .then(|| last_activity + self.ctx.idle_room);
            let timer_at = self
                .live
                .as_ref()
                .and_then(|l| l.timer.as_ref().map(|t| t.deadline));
            let bot_at = self.live.as_ref().and_then(|l| l.bot_due);
            let low_at = self.low_time_at();
            let hold = self.ctx.lease.as_ref().map(|(_, h)| Arc::clone(h));
            tokio::select! {
                biased;
                () = lease_lost(hold.as_deref()) => {}
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
                _ = sleep_until(low_at), if low_at.is_some() => self.on_low_time(),
                _ = sleep_until(idle_at), if idle_at.is_some() => {
                    if let Some((cluster, hold)) = &self.ctx.lease {
                        // Released before the codes are forgotten: a lookup on this
                        // node meanwhile still reaches this inbox (and is told to
                        // come back), never a second room under the same epoch.
                        cluster.release(self.ctx.db.as_ref(), hold).await;
                    }
                    self.unload(&mut inbox);
                    return;
                }
            }
            if hold.is_some_and(|h| h.is_lost()) {
                self.drop_lost(&mut inbox);
                return;
            }
            self.prune();
        }
        for conn in self.conns.values() {
            conn.out.end();
        }
        tracing::debug!(table = %self.id, "room stopped");
    }

    /// Leaves memory: new lookups load the table from the store again. Whoever
    /// reached the inbox meanwhile is told to reconnect.
    fn unload(&mut self, inbox: &mut mpsc::Receiver<RoomMsg>) {
        self.ctx.rooms.unregister(self.id);
        self.ctx.metrics.rooms.dec();
        self.ctx.rooms.unlist(self.id);
        inbox.close();
        while let Ok(msg) = inbox.try_recv() {
            match msg {
                RoomMsg::Join { out, reply, .. } => {
                    out.push(Refusal::new(ErrorCode::TryAgain).msg(None));
                    out.end();
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

    /// The lease is lost: another node may own the table now. Stops at once
    /// (timers and bots with it) without writing again; clients are closed and
    /// reconnect as after a restart, to whichever node owns the table.
    fn drop_lost(&mut self, inbox: &mut mpsc::Receiver<RoomMsg>) {
        if let Some((cluster, hold)) = &self.ctx.lease {
            cluster.forget(hold);
        }
        self.live = None;
        for conn in self.conns.values() {
            conn.out.end();
        }
        self.conns.clear();
        self.unload(inbox);
        tracing::warn!(table = %self.id, "room dropped: its lease is lost");
    }

    /// The fence of a write, or `try_again` once the lease is lost (without a
    /// lease, no fence: a single node).
    pub(super) fn fence(&self) -> Result<Option<Fence>, Refusal> {
        let Some((cluster, hold)) = &self.ctx.lease else {
            return Ok(None);
        };
        match hold.fence() {
            Some(fence) => Ok(Some(fence)),
            None => {
                cluster.lost(hold, "expired before a write");
                refuse(ErrorCode::TryAgain)
            }
        }
    }

    /// Notes a failed write: a fenced one means the table is another node's now.
    pub(super) fn write_failed(&self, e: &StoreError) {
        if e.is_fenced()
            && let Some((cluster, hold)) = &self.ctx.lease
        {
            cluster.lost(hold, "a write was fenced");
        }
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
                if joined {
                    // A player a bot stands in for is back with his seat (and
                    // a gone player's stand-in is called off).
                    let _ = self.on_back(conn).await;
                }
            }
            RoomMsg::Leave { conn } => {
                if let Some(c) = self.conns.remove(&conn) {
                    let seat = self.doc.seat_of(c.player.as_deref());
                    let still_there =
                        seat.is_some() && self.conns.values().any(|o| o.player == c.player);
                    if !still_there {
                        if let (Some(_), Some(player)) = (seat, c.player.clone()) {
                            self.gone_since.insert(player, Instant::now());
                            // The stand-in may have to play for him.
                            self.schedule();
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
                let move_id = msg.move_id();
                let result = self.on_client(conn, msg).await;
                match result {
                    Ok(()) => {
                        if move_id.is_some() {
                            self.ctx
                                .metrics
                                .move_seconds
                                .observe(received.elapsed().as_secs_f64());
                        }
                    }
                    Err(refusal) => self.send(conn, refusal.msg(move_id)),
                }
            }
            RoomMsg::Shutdown { .. } => {}
        }
    }

    fn send(&mut self, conn: u64, msg: Utf8Bytes) {
        if let Some(c) = self.conns.get(&conn)
            && !c.out.push(msg)
        {
            self.doomed.push(conn);
        }
    }

    /// Sends one message to several connections: once for all of them that are
    /// on the same shared stream.
    fn send_many(&mut self, ids: impl IntoIterator<Item = u64>, msg: &Utf8Bytes) {
        let mut streams: Vec<(mpsc::Sender<Shared>, Vec<Recipient>, Vec<u64>)> = Vec::new();
        for id in ids {
            let Some(c) = self.conns.get(&id) else {
                continue;
            };
            match &c.out.shared {
                Some(shared) => {
                    match streams
                        .iter_mut()
                        .find(|(s, ..)| s.same_channel(&shared.stream))
                    {
                        Some((_, to, ids)) => {
                            to.push(shared.to.clone());
                            ids.push(id);
                        }
                        None => {
                            streams.push((shared.stream.clone(), vec![shared.to.clone()], vec![id]))
                        }
                    }
                }
                None => {
                    if !c.out.push(msg.clone()) {
                        self.doomed.push(id);
                    }
                }
            }
        }
        for (stream, to, ids) in streams {
            let frame = msg.clone();
            if stream.try_send(Shared::Frame { to, frame }).is_err() {
                self.doomed.extend(ids);
            }
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
                    c.out.end();
                    removed = true;
                }
            }
            if removed {
                self.broadcast_table();
            }
        }
    }

    fn viewer_of(&self, conn: &Conn) -> Viewer {
        match (
            self.live.is_some(),
            self.doc.seat_of(conn.player.as_deref()),
        ) {
            (true, Some(seat)) => Viewer::Seat(seat),
            _ => Viewer::Spectator,
        }
    }

    fn you(&self, conn: &Conn) -> You {
        You {
            token: conn.token.clone(),
            seat: self.doc.seat_of(conn.player.as_deref()),
            is_host: conn.player.as_deref() == Some(self.doc.host.as_str()),
            name: conn.name.clone(),
            webhook: conn
                .player
                .as_deref()
                .and_then(|hash| self.doc.player(hash))
                .and_then(|p| p.webhook.as_ref())
                .map(|w| w.url.clone()),
        }
    }

    /// Whether a page of the player with this token hash is open here.
    fn has_page(&self, token_hash: &str) -> bool {
        self.conns
            .values()
            .any(|c| c.player.as_deref() == Some(token_hash))
    }

    fn conn_player(&self, conn: u64) -> Option<String> {
        self.conns.get(&conn).and_then(|c| c.player.clone())
    }

    fn require_seat(&self, conn: u64) -> Result<Seat, Refusal> {
        self.doc
            .seat_of(self.conn_player(conn).as_deref())
            .ok_or(Refusal::new(ErrorCode::NotSeated))
    }

    fn require_host(&self, conn: u64) -> Result<(), Refusal> {
        if self.conn_player(conn).as_deref() == Some(self.doc.host.as_str()) {
            Ok(())
        } else {
            refuse(ErrorCode::NotHost)
        }
    }

    fn require_finished(&self) -> Result<(), Refusal> {
        if self.status == TableStatus::Finished {
            Ok(())
        } else {
            refuse(ErrorCode::WrongStatus)
        }
    }

    fn require_lobby(&self) -> Result<(), Refusal> {
        if self.status == TableStatus::Lobby {
            Ok(())
        } else {
            refuse(ErrorCode::WrongStatus)
        }
    }
}

/// Resolves once the lease is lost; never without one.
async fn lease_lost(hold: Option<&Hold>) {
    match hold {
        Some(hold) => loop {
            if hold.is_lost() {
                return;
            }
            hold.wake.notified().await;
        },
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
