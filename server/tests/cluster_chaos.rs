//! Cluster mode under faults, with real `citytable` processes sharing one Postgres:
//! several tables played continuously, each table's two players on different
//! nodes, while nodes die, stop, or lose their broker.
//!
//! - `owners_killed_*`: three nodes; SIGKILL the node owning the most unfinished
//!   tables three times while play goes on, a fresh node started in its place each
//!   time. Players whose socket closes come back, round-robin over the live nodes,
//!   with their seat tokens.
//! - `a_rolling_restart_*`: SIGTERM each node in turn (its replacement started on
//!   a new port) while play goes on.
//! - `a_broker_outage_*`: a private `nats-server` stopped mid-game and started
//!   again on its port: a move forwarded through another node is refused with
//!   `try_again` (its id) and not applied, `/readyz` says 503, and play resumes
//!   once the broker is back.
//!
//! In the first two every table plays to its end, and then: every acknowledged
//! move is in the log at its version, the log is exactly the moves sent, once each,
//! every player's final view (rebuilt from updates, and a fresh snapshot) shows
//! them all, and the only errors any client received are `try_again`, or
//! `stale_version` for a move sent again whose first attempt was committed.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use testkit::client::{GameView, NoMessage, UpdateError};
use testkit::process::Proc;
use testkit::{Client, TestDb};
use tokio::time::Instant;

mod cluster_common;
use cluster_common::{
    CELLS, Game, TTL_MS, join_when_owned, logged_cells, node, node_id, node_on, ready_nodes,
};

/// A tic-tac-toe game that fills the board without a line: nine moves, a draw.
const DRAW: [u64; 9] = [0, 4, 8, 2, 6, 3, 5, 7, 1];
/// How long any one table may take to finish.
const TABLE_WITHIN: Duration = Duration::from_secs(45);

/// The nodes clients may connect to, taken in turn.
#[derive(Default)]
struct Live {
    addrs: Mutex<Vec<SocketAddr>>,
    turn: AtomicUsize,
}

impl Live {
    fn add(&self, addr: SocketAddr) {
        self.addrs.lock().unwrap().push(addr);
    }

    fn remove(&self, addr: SocketAddr) {
        self.addrs.lock().unwrap().retain(|a| *a != addr);
    }

    /// The next live node, other than `avoid` when another is live.
    fn pick(&self, avoid: Option<SocketAddr>) -> Option<SocketAddr> {
        let addrs = self.addrs.lock().unwrap().clone();
        let n = addrs.len();
        (0..n)
            .map(|_| addrs[self.turn.fetch_add(1, Ordering::Relaxed) % n])
            .find(|a| n == 1 || Some(*a) != avoid)
    }
}

/// What every client of every table received that the test checks afterwards.
#[derive(Default)]
struct Seen {
    /// Broken promises and errors no client should see.
    unexpected: Mutex<Vec<String>>,
    try_again: AtomicU64,
    /// `stale_version` answers: (table, version the move was sent on, its cell).
    stale: Mutex<Vec<(String, u64, u64)>>,
    acked: AtomicU64,
    reconnects: AtomicU64,
}

impl Seen {
    fn unexpected(&self, what: String) {
        eprintln!("UNEXPECTED: {what}");
        self.unexpected.lock().unwrap().push(what);
    }

    /// An error frame outside a move's answer: only `try_again` is expected.
    fn error(&self, who: &str, m: &Value) {
        if m["code"] == "try_again" {
            self.try_again.fetch_add(1, Ordering::SeqCst);
        } else {
            self.unexpected(format!("{who}: {m}"));
        }
    }
}

/// One seat of a table: its socket (when connected) and its view of the game.
struct Player {
    who: String,
    token: String,
    client: Option<Client>,
    at: Option<SocketAddr>,
    view: Option<GameView>,
}

impl Player {
    /// Connects to `prefer` or the next live node until one serves the table
    /// (welcome and snapshot).
    async fn connect(
        &mut self,
        invite: &str,
        live: &Live,
        mut prefer: Option<SocketAddr>,
        avoid: Option<SocketAddr>,
        seen: &Seen,
    ) {
        let deadline = Instant::now() + TABLE_WITHIN;
        loop {
            assert!(
                Instant::now() < deadline,
                "{} gets back to its table",
                self.who
            );
            let Some(addr) = prefer.take().or_else(|| live.pick(avoid)) else {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            if let Some(mut c) = Client::try_connect(&format!("ws://{addr}/ws/{invite}")).await
                && c.try_send(&json!(Client::hello_msg("Player", Some(&self.token))))
                    .await
            {
                loop {
                    match c.next_within(Duration::from_secs(5)).await {
                        Ok(m) if m["type"] == "snapshot" => {
                            match GameView::from_snapshot(&m["game"]) {
                                Ok(g) => self.view = Some(g),
                                Err(e) => seen.unexpected(format!("{}: {e}", self.who)),
                            }
                            self.client = Some(c);
                            self.at = Some(addr);
                            return;
                        }
                        Ok(m) if m["type"] == "error" => {
                            seen.error(&self.who, &m);
                            break;
                        }
                        Ok(_) => {}
                        Err(_) => break,
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Handles a frame that is not the answer to a move of this player's.
    async fn take(&mut self, m: &Value, seen: &Seen) {
        match m["type"].as_str() {
            Some("snapshot") => match GameView::from_snapshot(&m["game"]) {
                Ok(g) => self.view = Some(g),
                Err(e) => seen.unexpected(format!("{}: {e}", self.who)),
            },
            Some("update") => {
                let Some(view) = self.view.as_mut() else {
                    return;
                };
                if let Err(e) = view.apply_update(m) {
                    if let UpdateError::Bad(_) = e {
                        seen.unexpected(format!("{}: {e}", self.who));
                    }
                    self.view = None;
                    self.send(&json!({"type": "resync"})).await;
                }
            }
            Some("error") => seen.error(&self.who, m),
            _ => {}
        }
    }

    async fn send(&mut self, v: &Value) {
        if let Some(c) = self.client.as_mut()
            && !c.try_send(v).await
        {
            self.client = None;
        }
    }

    /// Handles every frame already received; notices a closed socket.
    async fn drain(&mut self, seen: &Seen) {
        while let Some(c) = self.client.as_mut() {
            match c.next_within(Duration::from_millis(1)).await {
                Ok(m) => self.take(&m, seen).await,
                Err(NoMessage::Quiet) => return,
                Err(NoMessage::Closed) => self.client = None,
            }
        }
    }

    fn version(&self) -> Option<u64> {
        self.view.as_ref().map(|v| v.version)
    }
}

/// One table played to its end by two players, each on its own node.
struct Table {
    invite: String,
    /// The seat that moves at version 0.
    first: usize,
    players: [Player; 2],
    /// Acknowledged moves: version after the move → cell.
    acked: BTreeMap<u64, u64>,
    /// The highest version any client saw.
    version: u64,
    next_id: u64,
    /// Versions a move was sent on that got no answer (its socket closed, or a
    /// snapshot came first): a retry of one may be answered `stale_version`.
    unanswered: BTreeSet<u64>,
}

impl Table {
    /// A table created on `home`, its seat 0 then connected to `home` and seat 1
    /// to `away`.
    async fn start(home: &Proc, away: SocketAddr, live: &Live, seen: &Seen) -> Table {
        let game = Game::start(home).await;
        let invite = game.invite.clone();
        let players = [0, 1].map(|s| Player {
            who: format!("{invite} seat {s}"),
            token: game.tokens[s].clone(),
            client: None,
            at: None,
            view: None,
        });
        let mut t = Table {
            invite,
            first: game.first,
            players,
            acked: BTreeMap::new(),
            version: 0,
            next_id: 1,
            unanswered: BTreeSet::new(),
        };
        drop(game);
        for (seat, addr) in [(0, home.addr), (1, away)] {
            let invite = t.invite.clone();
            t.players[seat]
                .connect(&invite, live, Some(addr), None, seen)
                .await;
        }
        t
    }

    /// Whose move it is at `version`.
    fn mover(&self, version: u64) -> usize {
        (self.first + version as usize) % 2
    }

    /// Plays the table to its last move, a move every `pace`, the players
    /// reconnecting whenever their socket closes.
    async fn play(&mut self, live: &Live, seen: &Seen, pace: Duration) {
        let deadline = Instant::now() + TABLE_WITHIN;
        while self.version < DRAW.len() as u64 {
            assert!(Instant::now() < deadline, "{} finishes", self.invite);
            for seat in 0..2 {
                self.players[seat].drain(seen).await;
                if self.players[seat].client.is_none() {
                    seen.reconnects.fetch_add(1, Ordering::SeqCst);
                    let avoid = self.players[1 - seat].at;
                    self.players[seat]
                        .connect(&self.invite.clone(), live, None, avoid, seen)
                        .await;
                    // A fresh snapshot shows every acknowledged move.
                    let acked = self.acked.keys().last().copied().unwrap_or(0);
                    if self.players[seat].version() < Some(acked) {
                        let who = &self.players[seat].who;
                        seen.unexpected(format!(
                            "{who}: back at a snapshot before version {acked}"
                        ));
                    }
                }
                self.saw(seat);
            }
            let version = self.version;
            if version == DRAW.len() as u64 {
                break;
            }
            self.move_once(version, seen).await;
            tokio::time::sleep(pace).await;
        }
    }

    /// Notes the version a player's view is at.
    fn saw(&mut self, seat: usize) {
        if let Some(v) = self.players[seat].version() {
            self.version = self.version.max(v);
        }
    }

    /// Sends the move of `version` through its mover's socket and waits for its
    /// answer (or the socket's end).
    async fn move_once(&mut self, version: u64, seen: &Seen) {
        let seat = self.mover(version);
        let cell = DRAW[version as usize];
        let id = self.next_id;
        self.next_id += 1;
        let invite = self.invite.clone();
        // Until answered; a retry when an earlier attempt got no answer.
        let retry = !self.unanswered.insert(version);
        let p = &mut self.players[seat];
        p.send(&json!({"type": "move", "id": id, "version": version, "mv": {"cell": cell}}))
            .await;
        let mut asked = false;
        let sent = Instant::now();
        while let Some(c) = p.client.as_mut() {
            let m = match c.next_within(Duration::from_secs(3)).await {
                Ok(m) => m,
                Err(NoMessage::Closed) => {
                    p.client = None;
                    return;
                }
                Err(NoMessage::Quiet) => {
                    // No answer: ask what the game is at. A socket forwarded to an
                    // owner that died stays silent until the edge's ping fails
                    // (within PING_EVERY + ANSWER_WITHIN, 5 s), then closes.
                    if sent.elapsed() > Duration::from_secs(10) {
                        seen.unexpected(format!("{}: no answer to move {id} or resync", p.who));
                        p.client = None;
                        return;
                    }
                    asked = true;
                    p.send(&json!({"type": "resync"})).await;
                    continue;
                }
            };
            match m["type"].as_str() {
                Some("move_ok") if m["id"] == id => {
                    if m["version"] != version + 1 {
                        seen.unexpected(format!("{}: move on {version} acked as {m}", p.who));
                    }
                    self.unanswered.remove(&version);
                    self.acked.insert(version + 1, cell);
                    self.version = self.version.max(version + 1);
                    seen.acked.fetch_add(1, Ordering::SeqCst);
                    return;
                }
                Some("error") if m["id"] == id => {
                    self.unanswered.remove(&version);
                    match m["code"].as_str() {
                        Some("try_again") => {
                            seen.try_again.fetch_add(1, Ordering::SeqCst);
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                        Some("stale_version") if retry => {
                            seen.stale.lock().unwrap().push((invite, version, cell));
                            p.send(&json!({"type": "resync"})).await;
                        }
                        _ => seen.unexpected(format!("{}: move {id}: {m}", p.who)),
                    }
                    return;
                }
                Some("snapshot") => {
                    p.take(&m, seen).await;
                    // Answers come in order: a snapshot asked for after the move
                    // follows the move's answer, so the move was lost in transit.
                    if asked {
                        if p.version() > Some(version) {
                            self.version = self.version.max(version + 1);
                        }
                        return;
                    }
                }
                _ => p.take(&m, seen).await,
            }
        }
    }

    /// After the game: both players' views and a fresh snapshot each show every
    /// move, and the log holds exactly the moves, each acknowledged one at its version.
    async fn check(&mut self, db: &TestDb, live: &Live, seen: &Seen) {
        let logged = logged_cells(db, &self.invite).await;
        assert_eq!(
            logged,
            DRAW.to_vec(),
            "{}: the log holds each move once",
            self.invite
        );
        for (v, cell) in &self.acked {
            assert_eq!(
                logged[*v as usize - 1],
                *cell,
                "{}: acked version {v}",
                self.invite
            );
        }
        let mut board = [None::<usize>; 9];
        for (v, cell) in DRAW.iter().enumerate() {
            board[*cell as usize] = Some(self.mover(v as u64));
        }
        let board = json!(board);
        for seat in 0..2 {
            let invite = self.invite.clone();
            let p = &mut self.players[seat];
            // The view rebuilt from updates reaches the last move (its update may
            // still be on its way), unless the socket closed meanwhile.
            while let Some(c) = p.client.as_mut()
                && p.view.as_ref().is_some_and(|v| v.version < 9)
            {
                match c.next_within(Duration::from_secs(3)).await {
                    Ok(m) => p.take(&m, seen).await,
                    Err(NoMessage::Closed) => p.client = None,
                    Err(NoMessage::Quiet) => panic!("{}: the last update comes", p.who),
                }
            }
            if let Some(view) = &p.view
                && p.client.is_some()
            {
                assert_eq!(view.version, 9, "{}: its view has every move", p.who);
                assert_eq!(view.view["cells"], board, "{}", p.who);
            }
            // A fresh snapshot, from wherever the player is connected now.
            p.view = None;
            p.send(&json!({"type": "resync"})).await;
            let deadline = Instant::now() + Duration::from_secs(10);
            while p.view.is_none() {
                assert!(Instant::now() < deadline, "{}: a snapshot", p.who);
                match p.client.as_mut() {
                    Some(c) => match c.next_within(Duration::from_secs(5)).await {
                        Ok(m) => p.take(&m, seen).await,
                        Err(_) => p.client = None,
                    },
                    None => p.connect(&invite, live, None, None, seen).await,
                }
            }
            let view = p.view.as_ref().unwrap();
            assert_eq!(view.version, 9, "{}", p.who);
            assert!(view.over, "{}: the game is over", p.who);
            assert_eq!(view.view["cells"], board, "{}", p.who);
        }
    }
}

/// Three tables, each created on one of `nodes`, seat 0 on that node and seat 1
/// on the next.
async fn three_tables(nodes: &[Proc], live: &Arc<Live>, seen: &Arc<Seen>) -> Vec<Table> {
    let mut tables = Vec::new();
    for i in 0..3 {
        let away = nodes[(i + 1) % nodes.len()].addr;
        tables.push(Table::start(&nodes[i % nodes.len()], away, live, seen).await);
    }
    tables
}

fn play_all(
    tables: Vec<Table>,
    live: &Arc<Live>,
    seen: &Arc<Seen>,
    pace: Duration,
) -> Vec<tokio::task::JoinHandle<Table>> {
    tables
        .into_iter()
        .map(|mut t| {
            let (live, seen) = (live.clone(), seen.clone());
            tokio::spawn(async move {
                t.play(&live, &seen, pace).await;
                t
            })
        })
        .collect()
}

/// Waits for every table's end, then checks each and what the clients received.
async fn finish(
    playing: Vec<tokio::task::JoinHandle<Table>>,
    db: &TestDb,
    live: &Live,
    seen: &Seen,
) -> Vec<Table> {
    let mut tables = Vec::new();
    for t in playing {
        tables.push(t.await.expect("a table's players"));
    }
    for t in &mut tables {
        t.check(db, live, seen).await;
    }
    // A `stale_version` is the answer to a move sent again after its first
    // attempt was committed unacknowledged: the log holds it at that version.
    let stale = seen.stale.lock().unwrap().clone();
    for (invite, version, cell) in stale {
        assert_eq!(
            logged_cells(db, &invite).await[version as usize],
            cell,
            "{invite}: a move answered stale_version was committed at its version"
        );
    }
    let unexpected = seen.unexpected.lock().unwrap().clone();
    assert!(unexpected.is_empty(), "{unexpected:#?}");
    tables
}

/// How many of the tables not yet finished each node holds the lease of (by
/// index in `nodes`), and how many no live node holds.
async fn owners(db: &TestDb, nodes: &[Proc], invites: &[String]) -> (Vec<usize>, usize) {
    let store = db.open_store().await;
    let ids: Vec<Option<String>> = nodes.iter().map(node_id).collect();
    let mut owned = vec![0; nodes.len()];
    let mut orphans = 0;
    for invite in invites {
        let table = store.table_by_code(invite).await.unwrap().expect("table");
        let (_, moves) = store.latest_game(table.id).await.unwrap().expect("game");
        if moves.len() >= DRAW.len() {
            continue;
        }
        let lease = store.lease(table.id).await.unwrap();
        match lease.and_then(|l| ids.iter().position(|id| id.as_deref() == Some(&l.node_id))) {
            Some(i) => owned[i] += 1,
            None => orphans += 1,
        }
    }
    store.close().await;
    (owned, orphans)
}

/// Three ready nodes on `db`, the clients' list of them, and what the clients see.
async fn three_nodes(db: &TestDb) -> (Vec<Proc>, Arc<Live>, Arc<Seen>) {
    let nodes = ready_nodes(db, 3).await;
    let live = Arc::new(Live::default());
    for n in &nodes {
        live.add(n.addr);
    }
    (nodes, live, Arc::new(Seen::default()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owners_killed_three_times_lose_and_double_nothing() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let (mut nodes, live, seen) = three_nodes(&db).await;
    let tables = three_tables(&nodes, &live, &seen).await;
    let invites: Vec<String> = tables.iter().map(|t| t.invite.clone()).collect();
    let playing = play_all(tables, &live, &seen, Duration::from_millis(350));
    let started = Instant::now();
    let mut kills = Vec::new();
    for _ in 0..3 {
        // Some moves first, on the tables as they are now placed.
        let at = seen.acked.load(Ordering::SeqCst) + 2;
        while seen.acked.load(Ordering::SeqCst) < at {
            assert!(started.elapsed() < TABLE_WITHIN, "play goes on");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // The victim: the node holding the most tables in play.
        let (owned, _) = owners(&db, &nodes, &invites).await;
        let victim = (0..nodes.len()).max_by_key(|&i| owned[i]).unwrap();
        if owned[victim] == 0 {
            break;
        }
        let victim = nodes.remove(victim);
        live.remove(victim.addr);
        victim.kill().await;
        let killed = Instant::now();
        let fresh = node(&db, TTL_MS).start().await;
        fresh.readyz_becomes(200, 10).await;
        live.add(fresh.addr);
        nodes.push(fresh);
        // Its tables move to live nodes before the next kill.
        while owners(&db, &nodes, &invites).await.1 > 0 {
            assert!(
                killed.elapsed() < Duration::from_millis(6 * TTL_MS),
                "tables move"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        kills.push((owned.iter().max().copied().unwrap_or(0), killed.elapsed()));
    }
    assert_eq!(kills.len(), 3, "each kill took tables in play: {kills:?}");
    let tables = finish(playing, &db, &live, &seen).await;
    let acked: usize = tables.iter().map(|t| t.acked.len()).sum();
    eprintln!(
        "owners killed: 3 kills (tables in play on the victim, moved within): {kills:?}, {} tables finished, {acked} of 27 moves acknowledged, {} try_again, {} stale_version, {} reconnects, {:?}",
        tables.len(),
        seen.try_again.load(Ordering::SeqCst),
        seen.stale.lock().unwrap().len(),
        seen.reconnects.load(Ordering::SeqCst),
        started.elapsed()
    );
    for n in nodes {
        n.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_under_play_loses_and_doubles_nothing() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let (mut nodes, live, seen) = three_nodes(&db).await;
    let tables = three_tables(&nodes, &live, &seen).await;
    let playing = play_all(tables, &live, &seen, Duration::from_millis(700));
    let started = Instant::now();
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(600)).await;
        // The oldest node goes; clients no longer pick it.
        let old = nodes.remove(0);
        live.remove(old.addr);
        old.stop().await;
        let fresh = node(&db, TTL_MS).start().await;
        fresh.readyz_becomes(200, 10).await;
        live.add(fresh.addr);
        nodes.push(fresh);
        eprintln!(
            "restarted a node {:?} in, {} moves acknowledged",
            started.elapsed(),
            seen.acked.load(Ordering::SeqCst)
        );
    }
    let during = seen.acked.load(Ordering::SeqCst);
    let tables = finish(playing, &db, &live, &seen).await;
    eprintln!(
        "rolling restart: 3 nodes replaced, {} tables finished, {during} of 27 moves acknowledged during it, {} try_again, {} stale_version, {} reconnects, {:?}",
        tables.len(),
        seen.try_again.load(Ordering::SeqCst),
        seen.stale.lock().unwrap().len(),
        seen.reconnects.load(Ordering::SeqCst),
        started.elapsed()
    );
    assert!(during > 0, "play went on during the restarts");
    for n in nodes {
        n.stop().await;
    }
}

/// A `nats-server` of the test's own, on a port of its own.
struct Broker {
    port: u16,
    child: tokio::process::Child,
}

impl Broker {
    async fn start(port: u16) -> Broker {
        let bin = ["nats-server", "/usr/sbin/nats-server"]
            .into_iter()
            .find(|b| {
                std::process::Command::new(b)
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| o.status.success())
            })
            .expect("nats-server installed");
        let child = tokio::process::Command::new(bin)
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("nats-server starts");
        let deadline = Instant::now() + Duration::from_secs(10);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(Instant::now() < deadline, "nats-server listens");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Broker { port, child }
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    async fn kill(mut self) {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broker_outage_refuses_forwarded_moves_and_play_resumes() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let broker = Broker::start(testkit::free_port()).await;
    let port = broker.port;
    let a = node_on(&db, TTL_MS, &broker.url()).start().await;
    let b = node_on(&db, TTL_MS, &broker.url()).start().await;
    a.readyz_becomes(200, 10).await;
    b.readyz_becomes(200, 10).await;
    let mut game = Game::start(&a).await;
    game.play().await;
    game.play().await;
    // The mover plays through B, forwarded to A.
    let seat = game.mover();
    let (mut through_b, snap) =
        join_when_owned(&b, &game.invite, &game.tokens[seat], Duration::from_secs(5)).await;
    assert_eq!(snap["version"], 2);

    broker.kill().await;
    let down = Instant::now();
    b.readyz_becomes(503, 10).await;
    a.readyz_becomes(503, 10).await;
    let move_3 = json!({"type": "move", "id": 70, "version": 2, "mv": {"cell": CELLS[2]}});
    through_b.send(&move_3).await;
    let refused = through_b.recv_type("error").await;
    assert_eq!(refused["code"], "try_again", "{refused}");
    assert_eq!(refused["id"], 70, "the refusal names the move: {refused}");
    // Nothing was applied, on the owner either.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(logged_cells(&db, &game.invite).await, CELLS[..2].to_vec());
    // The players on A, the owner, are not forwarded: A's room still serves them.
    let on_a = &mut game.clients[seat];
    assert_eq!(on_a.snapshot().await["version"], 2);
    // B's pings to A go unanswered: B closes the socket, saying why.
    let mut last = None;
    loop {
        match through_b.next_within(Duration::from_secs(8)).await {
            Ok(m) => last = Some(m),
            Err(NoMessage::Closed) => break,
            Err(NoMessage::Quiet) => panic!("B closes the socket while the broker is away"),
        }
    }
    let last = last.expect("a frame before the close");
    assert_eq!(last["code"], "try_again", "the last frame says why: {last}");
    eprintln!(
        "B closed the forwarded socket {:?} into the outage",
        down.elapsed()
    );

    let broker = Broker::start(port).await;
    eprintln!("broker away {:?}", down.elapsed());
    let back = Instant::now();
    a.readyz_becomes(200, 10).await;
    b.readyz_becomes(200, 10).await;
    eprintln!(
        "nodes ready {:?} after the broker came back",
        back.elapsed()
    );
    // The player comes back through B and plays the move again.
    let (mut through_b, snap) = join_when_owned(
        &b,
        &game.invite,
        &game.tokens[seat],
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(
        snap["version"], 2,
        "the refused move was not applied: {snap}"
    );
    through_b.send(&move_3).await;
    assert_eq!(through_b.recv_type("move_ok").await["version"], 3);
    let other = &mut game.clients[1 - seat];
    assert_eq!(other.recv_type("update").await["version"], 3);
    game.clients[seat] = through_b;
    game.version = 3;
    game.play().await;
    game.play().await;
    game.play().await;
    assert_eq!(
        logged_cells(&db, &game.invite).await,
        CELLS.to_vec(),
        "each move once"
    );
    eprintln!(
        "broker outage: play resumed {:?} after the broker came back",
        back.elapsed()
    );
    a.stop().await;
    b.stop().await;
    broker.kill().await;
}
