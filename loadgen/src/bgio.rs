//! The same room, played on a boardgame.io server (bench/boardgameio) through its
//! socket.io transport, spoken directly over a WebSocket (engine.io v4 framing,
//! socket.io v5 packets) so both servers are driven and timed by the same code.
//!
//! What boardgame.io's own client does, this does too: connect to the game's
//! namespace, `sync` (the match is created on first sync, as boardgame.io's master
//! does for unknown matches), then `update` with a `MAKE_MOVE` action on the current
//! `_stateID`. The server answers every connection of the match (the mover
//! included) with an `update` carrying the new state; the mover's copy is its
//! acknowledgement. A finished match is followed by a new one on the same sockets.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::StreamExt;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;

use crate::net::{Incoming, WsSink, send_text, spawn_reader};
use crate::play::{Rng, Schedule, Shared, Tracker};

#[derive(Clone, Debug)]
pub struct RoomCfg {
    /// The game's name (the socket.io namespace).
    pub game: String,
    pub seats: u8,
    pub spectators: usize,
    /// Distinguishes this run's matches from earlier runs on the same server.
    pub run: u64,
}

#[derive(Deserialize)]
struct G {
    cells: Vec<Option<IgnoredAny>>,
}

#[derive(Deserialize)]
struct Ctx {
    #[serde(rename = "currentPlayer")]
    current_player: String,
    #[serde(default)]
    gameover: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct State {
    #[serde(rename = "G")]
    g: G,
    ctx: Ctx,
    #[serde(rename = "_stateID")]
    state_id: u64,
}

#[derive(Deserialize)]
struct SyncInfo {
    state: State,
}

struct Conn {
    sink: WsSink,
    player: Option<u8>,
    connected: bool,
    game: u32,
    version: u64,
    to_move: Option<u8>,
    over: bool,
    free: [bool; 9],
}

impl Conn {
    fn take_state(&mut self, s: &State) {
        self.version = s.state_id;
        self.over = s.ctx.gameover.is_some();
        self.to_move = s.ctx.current_player.parse().ok();
        for (i, c) in s.g.cells.iter().enumerate().take(9) {
            self.free[i] = c.is_none();
        }
    }
}

struct InFlight {
    conn: usize,
    version: u64,
    due: Instant,
}

struct Room {
    shared: Arc<Shared>,
    cfg: RoomCfg,
    index: usize,
    prefix: String,
    rx: mpsc::UnboundedReceiver<Incoming>,
    conns: Vec<Conn>,
    tracker: Tracker,
    schedule: Schedule,
    rng: Rng,
    game: u32,
    version: u64,
    in_flight: Option<InFlight>,
    restarting: Option<Instant>,
    closed: bool,
}

impl Room {
    fn match_id(&self, game: u32) -> String {
        format!("bench-{}-{}-{}", self.cfg.run, self.index, game)
    }

    async fn send(&mut self, conn: usize, text: String) {
        let counters = self.shared.net.counters.clone();
        if send_text(&mut self.conns[conn].sink, &counters, text)
            .await
            .is_err()
        {
            self.closed = true;
        }
    }

    async fn pump_until(
        &mut self,
        what: &str,
        until: Instant,
        done: impl Fn(&Room) -> bool,
    ) -> Result<(), String> {
        while !done(self) {
            match tokio::time::timeout_at(until, self.rx.recv()).await {
                Ok(Some(Incoming::Text { conn, at, text })) => {
                    self.on_frame(conn, at, text.as_str()).await
                }
                Ok(_) => return Err(format!("{what}: connection closed")),
                Err(_) => return Err(format!("{what}: timed out")),
            }
        }
        Ok(())
    }

    async fn sync(&mut self, c: usize) {
        let m = self.match_id(self.game);
        let pid = match self.conns[c].player {
            Some(p) => format!("\"{p}\""),
            None => "null".into(),
        };
        let text = format!(
            "{}[\"sync\",\"{m}\",{pid},null,{}]",
            self.prefix, self.cfg.seats
        );
        self.send(c, text).await;
    }

    async fn on_frame(&mut self, c: usize, at: Instant, text: &str) {
        if text == "2" {
            // engine.io ping → pong.
            self.send(c, "3".into()).await;
            return;
        }
        if text.starts_with("40") {
            self.conns[c].connected = true;
            return;
        }
        let Some(body) = text.strip_prefix(self.prefix.as_str()) else {
            return;
        };
        let Ok(args) = serde_json::from_str::<Vec<&RawValue>>(body) else {
            self.shared.error("unparsed_frame");
            return;
        };
        let (Some(name), Some(match_id), Some(payload)) = (args.first(), args.get(1), args.get(2))
        else {
            return;
        };
        let current = format!("\"{}\"", self.match_id(self.game));
        if match_id.get() != current {
            return;
        }
        match name.get() {
            "\"update\"" => {
                let Ok(state) = serde_json::from_str::<State>(payload.get()) else {
                    self.shared.error("unparsed_state");
                    return;
                };
                self.conns[c].take_state(&state);
                let version = state.state_id;
                if let Some(f) = &self.in_flight
                    && f.conn == c
                    && version > f.version
                {
                    let lat = at.saturating_duration_since(f.due);
                    self.version = version;
                    self.in_flight = None;
                    self.shared.record(|w| {
                        w.ack.record(lat);
                        w.moves += 1;
                    });
                }
                let game = self.conns[c].game;
                let shared = &self.shared;
                self.tracker.received(c, game, version, at, |lat| {
                    shared.record(|w| w.last.record(lat))
                });
            }
            "\"sync\"" => {
                let Ok(info) = serde_json::from_str::<SyncInfo>(payload.get()) else {
                    self.shared.error("unparsed_sync");
                    return;
                };
                let game = self.game;
                let conn = &mut self.conns[c];
                conn.take_state(&info.state);
                conn.game = game;
            }
            _ => {}
        }
    }

    fn mover(&self) -> Option<usize> {
        if self.in_flight.is_some() || self.restarting.is_some() {
            return None;
        }
        self.conns.iter().position(|c| {
            c.player.is_some()
                && c.game == self.game
                && c.version == self.version
                && !c.over
                && c.to_move == c.player
        })
    }

    async fn send_move(&mut self, c: usize, due: Instant) {
        let free: Vec<usize> = (0..9).filter(|&i| self.conns[c].free[i]).collect();
        if free.is_empty() {
            return;
        }
        let cell = free[self.rng.below(free.len())];
        let Some(p) = self.conns[c].player else {
            return;
        };
        let lag = Instant::now().saturating_duration_since(due);
        self.shared.record(|w| w.lag.record(lag));
        let m = self.match_id(self.game);
        let text = format!(
            "{}[\"update\",{{\"type\":\"MAKE_MOVE\",\"payload\":{{\"type\":\"clickCell\",\"args\":[{cell}],\"playerID\":\"{p}\"}}}},{},\"{m}\",\"{p}\"]",
            self.prefix, self.version
        );
        self.in_flight = Some(InFlight {
            conn: c,
            version: self.version,
            due,
        });
        self.tracker.sent(self.game, self.version + 1, due, c);
        self.send(c, text).await;
    }

    async fn play(&mut self) {
        let mut interval = self.shared.interval.clone();
        let mut stop = self.shared.stop.clone();
        self.schedule
            .set_interval(*interval.borrow_and_update(), Instant::now());
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
            let over = self.in_flight.is_none()
                && self.restarting.is_none()
                && self.conns[0].game == self.game
                && self.conns[0].over
                && self.tracker.is_empty();
            if over {
                self.shared.record(|w| w.games += 1);
                self.game += 1;
                self.restarting = Some(now);
                for c in 0..self.conns.len() {
                    self.sync(c).await;
                }
                continue;
            }
            if let Some(since) = self.restarting {
                if self.conns.iter().all(|c| c.game == self.game) {
                    self.restarting = None;
                    self.version = self.conns[0].version;
                    self.shared
                        .record(|w| w.restart.record(now.saturating_duration_since(since)));
                    self.schedule.reanchor(now);
                } else if now.saturating_duration_since(since) > crate::play::LOST_AFTER {
                    self.shared.error("new_game_timeout");
                    return;
                }
            }
            let wake = match (self.mover(), self.schedule.next_due()) {
                (Some(c), Some(due)) => {
                    if due <= now {
                        if let Some(due) = self.schedule.take() {
                            self.send_move(c, due).await;
                        }
                        continue;
                    }
                    due
                }
                _ => now + Duration::from_secs(1),
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

/// Opens a socket.io connection to the game's namespace.
async fn open(
    room: &mut Room,
    i: usize,
    player: Option<u8>,
    tx: &mpsc::UnboundedSender<Incoming>,
) -> Result<(), String> {
    let net = &room.shared.net;
    let ws = net.ws("/socket.io/?EIO=4&transport=websocket").await?;
    let (sink, stream) = ws.split();
    spawn_reader(i, stream, tx.clone(), net.counters.clone());
    room.conns.push(Conn {
        sink,
        player,
        connected: false,
        game: 0,
        version: 0,
        to_move: None,
        over: false,
        free: [true; 9],
    });
    let ns = format!("40/{},", room.cfg.game);
    room.send(i, ns).await;
    Ok(())
}

async fn setup(shared: &Arc<Shared>, cfg: &RoomCfg, index: usize) -> Result<Room, String> {
    let (tx, rx) = mpsc::unbounded_channel();
    let n = usize::from(cfg.seats) + cfg.spectators;
    let mut room = Room {
        shared: shared.clone(),
        cfg: cfg.clone(),
        index,
        prefix: format!("42/{},", cfg.game),
        rx,
        conns: Vec::with_capacity(n),
        tracker: Tracker::new(n),
        schedule: Schedule::new(Rng::new(index as u64 + 1).unit()),
        rng: Rng::new(index as u64 * 7919 + 13),
        game: 1,
        version: 0,
        in_flight: None,
        restarting: None,
        closed: false,
    };
    let until = Instant::now() + Duration::from_secs(60);
    for i in 0..n {
        let player = (i < usize::from(cfg.seats)).then_some(i as u8);
        open(&mut room, i, player, &tx).await?;
        room.pump_until("namespace", until, |r| r.conns[i].connected)
            .await?;
        room.sync(i).await;
        room.pump_until("sync", until, |r| r.conns[i].game == 1)
            .await?;
    }
    room.version = room.conns[0].version;
    Ok(room)
}

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

/// One idle spectator of match `match_id`: connected to the namespace and synced.
pub async fn idle_spectator(
    net: &crate::net::Net,
    game: &str,
    match_id: &str,
) -> Result<crate::net::Ws, String> {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let mut ws = net.ws("/socket.io/?EIO=4&transport=websocket").await?;
    let until = Instant::now() + Duration::from_secs(30);
    let mut synced = false;
    ws.send(Message::text(format!("40/{game},")))
        .await
        .map_err(|e| e.to_string())?;
    while !synced {
        let frame = tokio::time::timeout_at(until, ws.next())
            .await
            .map_err(|_| "sync timed out".to_owned())?
            .ok_or_else(|| "closed".to_owned())?
            .map_err(|e| e.to_string())?;
        let Message::Text(t) = frame else { continue };
        if t.as_str() == "2" {
            ws.send(Message::text("3"))
                .await
                .map_err(|e| e.to_string())?;
        } else if t.as_str().starts_with("40") {
            ws.send(Message::text(format!(
                "42/{game},[\"sync\",\"{match_id}\",null,null,2]"
            )))
            .await
            .map_err(|e| e.to_string())?;
        } else if t.as_str().starts_with(&format!("42/{game},[\"sync\"")) {
            synced = true;
        }
    }
    Ok(ws)
}
