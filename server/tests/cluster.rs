//! Cluster mode, against real `citytable` processes sharing one Postgres and NATS
//! (`127.0.0.1:4222`): a table's room runs on the node holding its lease, its
//! writes are fenced, a client connected to another node plays through it, and
//! another node takes it over when its owner dies, pauses past its lease, or stops.
//!
//! - `node_loss_*`: a player connected to the other node plays through the owner;
//!   SIGKILL the owner mid-game; the other node owns the table within a few TTLs,
//!   the players come back there with their seat tokens to every acknowledged
//!   move, and play goes on.
//! - `a_paused_owner_*`: SIGSTOP the owner past its TTL, play a move through the
//!   other node, SIGCONT: the old owner commits nothing more, drops the table and
//!   closes its clients, which come back through it to the new owner; the log
//!   holds one history.
//! - `a_stopped_owner_*`: SIGTERM releases the leases: the table moves long before
//!   its lease would have lapsed.
//! - `cluster_mode_needs_postgres`: refused at start, with a reason.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::{Value, json};
use testkit::client::NoMessage;
use testkit::http::{create_table, try_http};
use testkit::process::{Launch, Proc};
use testkit::{Client, TestDb, citytable_bin};
use tokio::time::Instant;

const NATS_URL: &str = "nats://127.0.0.1:4222";
/// Short leases, so takeovers happen within seconds.
const TTL_MS: u64 = 1500;
/// Tic-tac-toe cells that make no line among the first six moves.
const CELLS: [u64; 6] = [0, 4, 8, 2, 6, 3];

fn node(db: &TestDb, ttl_ms: u64) -> Launch {
    Launch::new(citytable_bin!(), &db.dir)
        .database_url(db.url.as_deref())
        .env("NATS_URL", NATS_URL)
        .env("LEASE_TTL_MS", &ttl_ms.to_string())
}

/// A two-seat tic-tac-toe game started on `owner`.
struct Game {
    invite: String,
    /// Seat tokens of seats 0 and 1.
    tokens: [String; 2],
    /// Sockets of seats 0 and 1.
    clients: [Client; 2],
    /// The seat that moves at version 0.
    first: usize,
    version: u64,
}

impl Game {
    async fn start(owner: &Proc) -> Game {
        let (invite, _, host_token) = create_table(
            owner.addr,
            &json!({"game": "tic-tac-toe", "name": "Host",
                    "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false}}),
        )
        .await;
        let mut host = Client::join(&owner.ws_url(&invite), "Host", Some(&host_token)).await;
        let mut guest = Client::join(&owner.ws_url(&invite), "Guest", None).await;
        let guest_token = guest.take_seat(1).await;
        host.send(&json!({"type": "start"})).await;
        let snap = host.recv_type("snapshot").await;
        guest.recv_type("snapshot").await;
        let first = snap["game"]["awaiting"]["seats"][0].as_u64().unwrap() as usize;
        Game {
            invite,
            tokens: [host_token, guest_token],
            clients: [host, guest],
            first,
            version: 0,
        }
    }

    fn mover(&self) -> usize {
        (self.first + self.version as usize) % 2
    }

    /// Plays the next cell through the mover's socket; waits for its `move_ok`.
    async fn play(&mut self) {
        let seat = self.mover();
        let cell = CELLS[self.version as usize];
        let version = self.version;
        let c = &mut self.clients[seat];
        c.send(
            &json!({"type": "move", "id": version + 1, "version": version, "mv": {"cell": cell}}),
        )
        .await;
        let ok = c.recv_type("move_ok").await;
        assert_eq!(ok["version"], version + 1, "{ok}");
        self.version += 1;
    }
}

/// Joins `code` on `node` with `token` once the table is served (by `node` or
/// through it): until then the answer is `try_again`, or the socket closes.
/// Returns the client and the game of its snapshot.
async fn join_when_owned(
    node: &Proc,
    code: &str,
    token: &str,
    within: Duration,
) -> (Client, Value) {
    let deadline = Instant::now() + within;
    loop {
        let mut c = Client::connect(&node.ws_url(code)).await;
        c.hello("Back", Some(token)).await;
        match c.next().await {
            Some(m) if m["type"] == "welcome" => {
                let snap = c.recv_type("snapshot").await;
                return (c, snap["game"].clone());
            }
            // No owner answers yet, or its room was just being dropped or unloaded.
            Some(m) if m["type"] == "error" && m["code"] == "try_again" => {}
            None => {}
            Some(m) => panic!("unexpected answer {m}"),
        }
        assert!(
            Instant::now() < deadline,
            "{} did not serve the table within {within:?}",
            node.addr
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The committed moves of the table's latest game, as cells in log order.
async fn logged_cells(db: &TestDb, invite: &str) -> Vec<u64> {
    let store = db.open_store().await;
    let table = store.table_by_code(invite).await.unwrap().expect("table");
    let (_, moves) = store.latest_game(table.id).await.unwrap().expect("game");
    let seqs: Vec<i64> = moves.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, (0..moves.len() as i64).collect::<Vec<_>>());
    let cells = moves
        .iter()
        .map(|m| {
            let entry = m.entry.to_value().unwrap();
            entry["move"]["mv"]["cell"]
                .as_u64()
                .unwrap_or_else(|| panic!("a move entry: {entry}"))
        })
        .collect();
    store.close().await;
    cells
}

async fn metric(node: &Proc, name: &str) -> Option<f64> {
    let (status, body) = try_http(node.addr, "GET", "/metrics", None).await?;
    assert_eq!(status, 200);
    body.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_loss_the_other_node_takes_the_table_over() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let a = node(&db, TTL_MS).start().await;
    a.readyz_becomes(200, 10).await;
    let mut game = Game::start(&a).await;
    for _ in 0..3 {
        game.play().await;
    }
    assert_eq!(metric(&a, "citytable_tables_owned").await, Some(1.0));
    // A node started now recovers no table that a live node owns.
    let b = node(&db, TTL_MS).start().await;
    b.readyz_becomes(200, 10).await;
    assert_eq!(metric(&b, "citytable_tables_owned").await, Some(0.0));
    // Another node does not open a table that a live node owns: the mover's
    // second socket, on B, plays through A.
    let seat = game.mover();
    let (mut through_b, snap) =
        join_when_owned(&b, &game.invite, &game.tokens[seat], Duration::from_secs(5)).await;
    assert_eq!(snap["version"], 3, "A's game, through B: {snap}");
    assert_eq!(metric(&b, "citytable_tables_owned").await, Some(0.0));
    through_b
        .send(&json!({"type": "move", "id": 40, "version": 3, "mv": {"cell": CELLS[3]}}))
        .await;
    assert_eq!(through_b.recv_type("move_ok").await["version"], 4);
    let other = &mut game.clients[1 - seat];
    assert_eq!(
        other.recv_type("update").await["version"],
        4,
        "the player on A sees the move made through B"
    );
    game.version = 4;

    a.kill().await;
    let killed = Instant::now();
    let within = Duration::from_millis(4 * TTL_MS);
    // B's takeover round finds the lapsed lease and loads the table by itself,
    // before anyone asks B for it.
    while metric(&b, "citytable_lease_takeovers_total").await != Some(1.0) {
        assert!(killed.elapsed() < within, "B takes the table over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (c0, g0) = join_when_owned(&b, &game.invite, &game.tokens[0], within).await;
    let (c1, g1) = join_when_owned(&b, &game.invite, &game.tokens[1], within).await;
    eprintln!("taken over {:?} after SIGKILL", killed.elapsed());
    assert_eq!(g0["version"], 4, "every acknowledged move: {g0}");
    assert_eq!(g1["version"], 4);
    game.clients = [c0, c1];
    game.play().await;
    game.play().await;
    assert_eq!(logged_cells(&db, &game.invite).await, CELLS[..6].to_vec());
    assert_eq!(metric(&b, "citytable_tables_owned").await, Some(1.0));
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_cannot_write_after_a_takeover() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let a = node(&db, TTL_MS).start().await;
    let b = node(&db, TTL_MS).start().await;
    let mut game = Game::start(&a).await;
    game.play().await;
    game.play().await;

    a.signal("STOP");
    tokio::time::sleep(Duration::from_millis(TTL_MS + 500)).await;
    // The mover comes back through B, which takes the table, and plays there.
    let seat = game.mover();
    let (mut on_b, snap) = join_when_owned(
        &b,
        &game.invite,
        &game.tokens[seat],
        Duration::from_millis(4 * TTL_MS),
    )
    .await;
    assert_eq!(snap["version"], 2);
    on_b.send(&json!({"type": "move", "id": 30, "version": 2, "mv": {"cell": CELLS[2]}}))
        .await;
    on_b.recv_type("move_ok").await;

    // A wakes up believing the table is its own, at version 2: the same seat's
    // socket to A sends a different move there.
    a.signal("CONT");
    let on_a = &mut game.clients[seat];
    on_a.send(&json!({"type": "move", "id": 31, "version": 2, "mv": {"cell": CELLS[5]}}))
        .await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match on_a.next_within(Duration::from_millis(200)).await {
            // Updates of moves made before the pause may still be on their way.
            Ok(m) => assert!(
                m["type"] != "move_ok"
                    && !(m["type"] == "update" && m["version"].as_u64() > Some(2)),
                "A applied nothing more: {m}"
            ),
            // A dropped the table: its clients are closed, to reconnect.
            Err(NoMessage::Closed) => break,
            Err(NoMessage::Quiet) => {}
        }
        assert!(
            Instant::now() < deadline,
            "A closes its clients of the table"
        );
    }
    assert_eq!(
        logged_cells(&db, &game.invite).await,
        CELLS[..3].to_vec(),
        "B's move, not A's"
    );
    // A counts the lease lost and owns nothing; its clients come back through it
    // to B's game.
    assert_eq!(metric(&a, "citytable_leases_lost_total").await, Some(1.0));
    assert_eq!(metric(&a, "citytable_tables_owned").await, Some(0.0));
    let (_again, snap) = join_when_owned(
        &a,
        &game.invite,
        &game.tokens[seat],
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(snap["version"], 3, "B's game, through A: {snap}");
    // Play goes on at B.
    on_b.send(&json!({"type": "resync"})).await;
    let snap = on_b.recv_type("snapshot").await;
    assert_eq!(snap["game"]["version"], 3);
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_owner_hands_its_tables_over_at_once() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    // A long lease: a takeover after it lapsed would take at least 4.5 s after the stop.
    let ttl_ms = 6000;
    let a = node(&db, ttl_ms).start().await;
    let b = node(&db, ttl_ms).start().await;
    let mut game = Game::start(&a).await;
    game.play().await;
    let stopping = Instant::now();
    a.stop().await;
    let (_c, snap) = join_when_owned(
        &b,
        &game.invite,
        &game.tokens[0],
        Duration::from_millis(ttl_ms / 2),
    )
    .await;
    eprintln!("taken over {:?} after SIGTERM", stopping.elapsed());
    assert_eq!(snap["version"], 1);
    assert_eq!(metric(&b, "citytable_tables_owned").await, Some(1.0));
    b.stop().await;
}

#[tokio::test]
async fn cluster_mode_needs_postgres() {
    let dir = TestDb::sqlite();
    let out = tokio::time::timeout(
        Duration::from_secs(30),
        tokio::process::Command::new(citytable_bin!())
            .env("PORT", testkit::free_port().to_string())
            .env("DATA_DIR", &dir.dir)
            .env("DATABASE_URL", "")
            .env("NATS_URL", NATS_URL)
            .env("NO_COLOR", "1")
            .env_remove("RUST_LOG")
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("exits at once")
    .expect("runs");
    assert!(!out.status.success());
    let log =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("needs DATABASE_URL to name a Postgres database"),
        "{log}"
    );
}
