//! A CityTable room driven through the real protocol: the host creates the table
//! over HTTP (`POST /api/tables`), every player opens `/ws/{invite}` and says
//! `hello` (others then `take_seat`), spectators open `/ws/{spectator}`; the host
//! starts, then moves follow the room's schedule. After a game the host asks for
//! `play_again` and play goes on with the same connections.
//!
//! Moves are chosen either locally from what the mover's own connection saw
//! (tic-tac-toe: the free cells, from the snapshot and the update events) or from
//! the server's `legal_moves` answer, asked as soon as the mover's update arrives
//! and kept out of the timed path: a move is never due before that answer is in.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::StreamExt;
use protocol::api::{CreateTable, TableCreated};
use protocol::{ClientMsg, TableSettings};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;

use crate::net::{Incoming, WsSink, send_text, spawn_reader};
use crate::play::{Rng, Schedule, Shared, Tracker};

/// How a bot picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSource {
    /// From its own view (tic-tac-toe only).
    Local,
    /// From the server's `legal_moves` answer.
    Server,
}

#[derive(Clone, Debug)]
pub struct RoomCfg {
    pub game: String,
    pub seats: u8,
    pub spectators: usize,
    pub options: Value,
    pub moves: MoveSource,
}

#[derive(Deserialize)]
struct AwaitingLite {
    seats: Vec<u8>,
}

#[derive(Deserialize)]
struct YouLite {
    #[serde(default)]
    seat: Option<u8>,
}

#[derive(Deserialize)]
struct SnapLite<'a> {
    version: u64,
    awaiting: AwaitingLite,
    #[serde(default)]
    outcome: Option<IgnoredAny>,
    #[serde(borrow)]
    view: &'a RawValue,
}

/// The fields of a server message the driver needs; the rest is skipped.
#[derive(Deserialize)]
struct In<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    awaiting: Option<AwaitingLite>,
    #[serde(default)]
    outcome: Option<IgnoredAny>,
    #[serde(default, borrow)]
    events: Option<&'a RawValue>,
    #[serde(default, borrow)]
    moves: Option<Vec<&'a RawValue>>,
    #[serde(default, borrow)]
    game: Option<SnapLite<'a>>,
    #[serde(default)]
    you: Option<YouLite>,
    #[serde(default)]
    code: Option<&'a str>,
}

#[derive(Deserialize)]
struct TttEvent {
    cell: u8,
}

#[derive(Deserialize)]
struct TttView {
    cells: Vec<Option<u8>>,
}

struct Conn {
    sink: WsSink,
    seat: Option<u8>,
    welcomed: bool,
    /// Games whose first state this connection holds.
    game: u32,
    version: u64,
    awaiting: Vec<u8>,
    over: bool,
    /// Free cells as this connection saw them (tic-tac-toe, local mode).
    free: [bool; 9],
    /// Legal moves for `legal.0`, and when they arrived.
    legal: Option<(u64, Vec<String>, Instant)>,
    asked: Option<(u64, Instant)>,
}

struct InFlight {
    id: u64,
    conn: usize,
    version: u64,
    due: Instant,
}

struct Room {
    shared: Arc<Shared>,
    cfg: RoomCfg,
    rx: mpsc::UnboundedReceiver<Incoming>,
    conns: Vec<Conn>,
    tracker: Tracker,
    schedule: Schedule,
    rng: Rng,
    /// Game number (1 = the first) and the version everyone plays on.
    game: u32,
    version: u64,
    in_flight: Option<InFlight>,
    next_id: u64,
    restarting: Option<Instant>,
    closed: bool,
}

fn client_json(msg: &ClientMsg) -> String {
    serde_json::to_string(msg).unwrap_or_default()
}

impl Room {
    async fn send(&mut self, conn: usize, text: String) {
        let counters = self.shared.net.counters.clone();
        if send_text(&mut self.conns[conn].sink, &counters, text)
            .await
            .is_err()
        {
            self.closed = true;
        }
    }

    /// Waits for the next frame until `until`; handles it. `false` on timeout or close.
    async fn pump(&mut self, until: Instant) -> bool {
        match tokio::time::timeout_at(until, self.rx.recv()).await {
            Ok(Some(Incoming::Text { conn, at, text })) => {
                self.on_frame(conn, at, text.as_str()).await;
                !self.closed
            }
            Ok(Some(Incoming::Closed)) | Ok(None) => {
                self.closed = true;
                false
            }
            Err(_) => false,
        }
    }

    async fn pump_until(
        &mut self,
        what: &str,
        until: Instant,
        done: impl Fn(&Room) -> bool,
    ) -> Result<(), String> {
        while !done(self) {
            if !self.pump(until).await {
                return Err(format!(
                    "{what}: {}",
                    if self.closed {
                        "connection closed"
                    } else {
                        "timed out"
                    }
                ));
            }
        }
        Ok(())
    }

    async fn on_frame(&mut self, c: usize, at: Instant, text: &str) {
        let Ok(msg) = serde_json::from_str::<In>(text) else {
            self.shared.error("unparsed_frame");
            return;
        };
        match msg.kind {
            "update" => {
                let version = msg.version.unwrap_or(0);
                let local = self.cfg.moves == MoveSource::Local;
                let conn = &mut self.conns[c];
                conn.version = version;
                // Absent when it did not change.
                if let Some(awaiting) = msg.awaiting {
                    conn.awaiting = awaiting.seats;
                }
                conn.over = msg.outcome.is_some();
                if local
                    && let Some(events) = msg.events
                    && let Ok(evs) = serde_json::from_str::<Vec<TttEvent>>(events.get())
                {
                    for e in evs {
                        if let Some(f) = conn.free.get_mut(usize::from(e.cell)) {
                            *f = false;
                        }
                    }
                }
                let game = conn.game;
                let shared = &self.shared;
                self.tracker.received(c, game, version, at, |lat| {
                    shared.record(|w| w.last.record(lat))
                });
                self.ask_legal(c).await;
            }
            "move_ok" => {
                if let Some(f) = &self.in_flight
                    && Some(f.id) == msg.id
                {
                    let lat = at.saturating_duration_since(f.due);
                    self.version = f.version + 1;
                    self.in_flight = None;
                    self.shared.record(|w| {
                        w.ack.record(lat);
                        w.moves += 1;
                    });
                }
            }
            "legal_moves" => {
                let version = msg.version.unwrap_or(0);
                let conn = &mut self.conns[c];
                if let Some((asked_v, asked_at)) = conn.asked.take() {
                    let rtt = at.saturating_duration_since(asked_at);
                    self.shared.record(|w| w.legal.record(rtt));
                    if asked_v == version && conn.version == version {
                        let moves = msg
                            .moves
                            .unwrap_or_default()
                            .iter()
                            .map(|m| m.get().to_owned())
                            .collect();
                        conn.legal = Some((version, moves, at));
                    }
                }
            }
            "snapshot" => {
                let Some(snap) = msg.game else { return };
                let conn = &mut self.conns[c];
                conn.game += 1;
                conn.version = snap.version;
                conn.awaiting = snap.awaiting.seats;
                conn.over = snap.outcome.is_some();
                conn.legal = None;
                conn.asked = None;
                if self.cfg.moves == MoveSource::Local
                    && let Ok(view) = serde_json::from_str::<TttView>(snap.view.get())
                {
                    for (i, cell) in view.cells.iter().enumerate().take(9) {
                        conn.free[i] = cell.is_none();
                    }
                }
                self.ask_legal(c).await;
            }
            "welcome" => {
                let conn = &mut self.conns[c];
                conn.welcomed = true;
                conn.seat = msg.you.and_then(|y| y.seat);
            }
            "error" => {
                let code = msg.code.unwrap_or("unknown");
                self.shared.error(code);
                if let Some(f) = &self.in_flight
                    && (msg.id == Some(f.id) || (f.conn == c && code == "stale_version"))
                {
                    let (game, v) = (self.game, f.version + 1);
                    self.tracker.forget(game, v);
                    self.in_flight = None;
                    self.conns[c].legal = None;
                    self.ask_legal(c).await;
                }
            }
            _ => {}
        }
    }

    /// In server mode: the connection's seat is awaited and it holds no legal moves
    /// for its version yet → ask.
    async fn ask_legal(&mut self, c: usize) {
        if self.cfg.moves != MoveSource::Server {
            return;
        }
        let conn = &self.conns[c];
        let Some(seat) = conn.seat else { return };
        if conn.over || !conn.awaiting.contains(&seat) {
            return;
        }
        if conn.legal.as_ref().is_some_and(|l| l.0 == conn.version)
            || conn.asked.is_some_and(|a| a.0 == conn.version)
        {
            return;
        }
        let v = conn.version;
        self.conns[c].asked = Some((v, Instant::now()));
        self.send(c, client_json(&ClientMsg::LegalMoves { of: None }))
            .await;
    }

    /// The connection that may move now, and the earliest time it can (its legal
    /// moves' arrival in server mode).
    fn mover(&self) -> Option<(usize, Option<Instant>)> {
        if self.in_flight.is_some() || self.restarting.is_some() {
            return None;
        }
        self.conns.iter().enumerate().find_map(|(i, c)| {
            let seat = c.seat?;
            if c.game != self.game
                || c.version != self.version
                || c.over
                || !c.awaiting.contains(&seat)
            {
                return None;
            }
            match self.cfg.moves {
                MoveSource::Local => Some((i, None)),
                MoveSource::Server => match &c.legal {
                    Some((v, moves, at)) if *v == self.version && !moves.is_empty() => {
                        Some((i, Some(*at)))
                    }
                    _ => None,
                },
            }
        })
    }

    async fn send_move(&mut self, c: usize, due: Instant, ready_at: Option<Instant>) {
        let mv = match self.cfg.moves {
            MoveSource::Local => {
                let free: Vec<usize> = (0..9).filter(|&i| self.conns[c].free[i]).collect();
                if free.is_empty() {
                    return;
                }
                format!("{{\"cell\":{}}}", free[self.rng.below(free.len())])
            }
            MoveSource::Server => {
                let Some((_, moves, _)) = &self.conns[c].legal else {
                    return;
                };
                moves[self.rng.below(moves.len())].clone()
            }
        };
        // A move cannot be due before its legal moves were known.
        let due = match ready_at {
            Some(r) if r > due => {
                self.shared.record(|w| w.late_legal += 1);
                r
            }
            _ => due,
        };
        let lag = Instant::now().saturating_duration_since(due);
        self.shared.record(|w| w.lag.record(lag));
        self.next_id += 1;
        let id = self.next_id;
        let text = format!(
            "{{\"type\":\"move\",\"id\":{id},\"version\":{},\"mv\":{mv}}}",
            self.version
        );
        self.in_flight = Some(InFlight {
            id,
            conn: c,
            version: self.version,
            due,
        });
        self.tracker.sent(self.game, self.version + 1, due, c);
        self.send(c, text).await;
    }

    fn game_over(&self) -> bool {
        self.in_flight.is_none()
            && self.restarting.is_none()
            && self.conns[0].game == self.game
            && self.conns[0].over
            && self.tracker.is_empty()
    }

    async fn play(&mut self) {
        let mut interval = self.shared.interval.clone();
        let mut stop = self.shared.stop.clone();
        self.schedule
            .set_interval(*interval.borrow_and_update(), Instant::now());
        let far = Duration::from_secs(3600);
        loop {
            if *stop.borrow() || self.closed {
                return;
            }
            let now = Instant::now();
            let lost = self.tracker.expire(now);
            if lost > 0 {
                self.shared.record(|w| w.lost += lost);
            }
            if let Some(f) = &self.in_flight
                && now.saturating_duration_since(f.due) > crate::play::LOST_AFTER
            {
                self.in_flight = None;
                self.shared.record(|w| w.lost += 1);
            }
            if self.game_over() {
                self.shared.record(|w| w.games += 1);
                self.game += 1;
                self.restarting = Some(now);
                self.send(0, client_json(&ClientMsg::PlayAgain)).await;
                continue;
            }
            if let Some(since) = self.restarting {
                if self.conns.iter().all(|c| c.game == self.game) {
                    self.restarting = None;
                    self.version = 0;
                    self.shared
                        .record(|w| w.restart.record(now.saturating_duration_since(since)));
                    self.schedule.reanchor(now);
                } else if now.saturating_duration_since(since) > crate::play::LOST_AFTER {
                    self.shared.error("new_game_timeout");
                    return;
                }
            }
            let wake = match (self.mover(), self.schedule.next_due()) {
                (Some((c, ready)), Some(due)) => {
                    let at = ready.map_or(due, |r| r.max(due));
                    if at <= now {
                        if let Some(due) = self.schedule.take() {
                            self.send_move(c, due, ready).await;
                        }
                        continue;
                    }
                    at
                }
                _ => now + far.min(Duration::from_secs(1)),
            };
            tokio::select! {
                frame = self.rx.recv() => match frame {
                    Some(Incoming::Text { conn, at, text }) => self.on_frame(conn, at, text.as_str()).await,
                    _ => return,
                },
                _ = crate::timer::sleep_until(wake) => {}
                changed = interval.changed() => {
                    if changed.is_err() { return; }
                    let i = *interval.borrow_and_update();
                    self.schedule.set_interval(i, Instant::now());
                }
                _ = stop.changed() => return,
            }
        }
    }
}

async fn setup(shared: &Arc<Shared>, cfg: &RoomCfg, index: usize) -> Result<Room, String> {
    let net = &shared.net;
    let body = serde_json::to_string(&CreateTable {
        game: cfg.game.clone(),
        settings: TableSettings {
            seats: cfg.seats,
            options: cfg.options.clone(),
            turn_seconds: None,
            time_bank_seconds: None,
            spectators_allowed: true,
            public: false,
            stand_in: None,
        },
        name: "host".into(),
    })
    .map_err(|e| e.to_string())?;
    let (status, text) = net.http("POST", "/api/tables", Some(&body)).await?;
    if status != 200 && status != 201 {
        return Err(format!(
            "create table: HTTP {status}: {}",
            text.chars().take(120).collect::<String>()
        ));
    }
    let created: TableCreated =
        serde_json::from_str(&text).map_err(|e| format!("create table answer: {e}"))?;
    let (tx, rx) = mpsc::unbounded_channel();
    let n = usize::from(cfg.seats) + cfg.spectators;
    let mut room = Room {
        shared: shared.clone(),
        cfg: cfg.clone(),
        rx,
        conns: Vec::with_capacity(n),
        tracker: Tracker::new(n),
        schedule: Schedule::new(Rng::new(index as u64 + 1).unit()),
        rng: Rng::new(index as u64 * 7919 + 13),
        game: 1,
        version: 0,
        in_flight: None,
        next_id: 0,
        restarting: None,
        closed: false,
    };
    let until = Instant::now() + Duration::from_secs(60);
    for i in 0..n {
        let player = i < usize::from(cfg.seats);
        let code = if player {
            &created.invite_code
        } else {
            &created.spectator_code
        };
        let ws = net.ws(&format!("/ws/{code}")).await?;
        let (sink, stream) = ws.split();
        spawn_reader(i, stream, tx.clone(), net.counters.clone());
        room.conns.push(Conn {
            sink,
            seat: None,
            welcomed: false,
            game: 0,
            version: 0,
            awaiting: Vec::new(),
            over: false,
            free: [true; 9],
            legal: None,
            asked: None,
        });
        let hello = ClientMsg::Hello {
            token: (i == 0).then(|| created.token.clone()),
            code: None,
            name: if player {
                format!("bot{i}")
            } else {
                format!("watcher{i}")
            },
        };
        room.send(i, client_json(&hello)).await;
        room.pump_until("hello", until, |r| r.conns[i].welcomed)
            .await?;
        if player && i > 0 {
            room.conns[i].welcomed = false;
            room.send(i, client_json(&ClientMsg::TakeSeat { seat: None }))
                .await;
            room.pump_until("take_seat", until, |r| r.conns[i].seat.is_some())
                .await?;
        }
    }
    room.send(0, client_json(&ClientMsg::Start)).await;
    room.pump_until("start", until, |r| r.conns.iter().all(|c| c.game == 1))
        .await?;
    Ok(room)
}

/// Sets a room up (at most `gate` rooms at once), then plays until stopped.
pub async fn run_room(shared: Arc<Shared>, cfg: RoomCfg, index: usize, gate: Arc<Semaphore>) {
    let room = {
        let _permit = gate.acquire().await;
        setup(&shared, &cfg, index).await
    };
    match room {
        Ok(mut room) => {
            shared.ready.fetch_add(1, Ordering::Relaxed);
            room.play().await;
        }
        Err(e) => shared.setup_failed(&e),
    }
}

/// The server's default options for a game (`GET /api/games`).
pub async fn default_options(net: &crate::net::Net, game: &str) -> Result<(Value, u8, u8), String> {
    let (status, text) = net.http("GET", "/api/games", None).await?;
    if status != 200 {
        return Err(format!("GET /api/games: HTTP {status}"));
    }
    let games: Vec<protocol::api::GameInfo> =
        serde_json::from_str(&text).map_err(|e| format!("/api/games: {e}"))?;
    let g = games
        .into_iter()
        .find(|g| g.id == game)
        .ok_or_else(|| format!("the server has no game {game:?}"))?;
    Ok((g.default_options, g.min_seats, g.max_seats))
}
