//! What the cluster tests share: nodes as real `citytable` processes, a tic-tac-toe
//! game played through them, and the committed log as the test reads it.

#![allow(dead_code, clippy::unwrap_used)]

use std::time::Duration;

use serde_json::{Value, json};
use testkit::http::{create_table, try_http};
use testkit::process::{Launch, Proc};
use testkit::{Client, TestDb, citytable_bin};
use tokio::time::Instant;

pub const NATS_URL: &str = "nats://127.0.0.1:4222";
/// Short leases, so takeovers happen within seconds.
pub const TTL_MS: u64 = 1500;
/// Tic-tac-toe cells that make no line among the first six moves.
pub const CELLS: [u64; 6] = [0, 4, 8, 2, 6, 3];

pub fn node(db: &TestDb, ttl_ms: u64) -> Launch {
    node_on(db, ttl_ms, NATS_URL)
}

/// A node whose broker is at `nats_url`.
pub fn node_on(db: &TestDb, ttl_ms: u64, nats_url: &str) -> Launch {
    Launch::new(citytable_bin!(), &db.dir)
        .database_url(db.url.as_deref())
        .env("NATS_URL", nats_url)
        .env("LEASE_TTL_MS", &ttl_ms.to_string())
}

/// `count` nodes on `db`, each ready (its `/readyz` answers 200).
pub async fn ready_nodes(db: &TestDb, count: usize) -> Vec<Proc> {
    let mut nodes = Vec::new();
    for _ in 0..count {
        nodes.push(node(db, TTL_MS).start().await);
    }
    for n in &nodes {
        n.readyz_becomes(200, 10).await;
    }
    nodes
}

/// The node id a process logged at start.
pub fn node_id(node: &Proc) -> Option<String> {
    let log = node.log.lock().unwrap();
    log.iter()
        .filter(|l| l.contains("cluster mode"))
        .find_map(|l| {
            Some(
                l.split("node=")
                    .nth(1)?
                    .split_whitespace()
                    .next()?
                    .to_owned(),
            )
        })
}

/// A two-seat tic-tac-toe game started on `owner`.
pub struct Game {
    pub invite: String,
    /// The spectator link's code.
    pub spectate: String,
    /// Seat tokens of seats 0 and 1.
    pub tokens: [String; 2],
    /// Sockets of seats 0 and 1.
    pub clients: [Client; 2],
    /// The seat that moves at version 0.
    pub first: usize,
    pub version: u64,
}

impl Game {
    pub async fn start(owner: &Proc) -> Game {
        let (invite, spectate, host_token) = create_table(
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
            spectate,
            tokens: [host_token, guest_token],
            clients: [host, guest],
            first,
            version: 0,
        }
    }

    pub fn mover(&self) -> usize {
        (self.first + self.version as usize) % 2
    }

    /// Plays the next cell through the mover's socket; waits for its `move_ok`.
    pub async fn play(&mut self) {
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
pub async fn join_when_owned(
    node: &Proc,
    code: &str,
    token: &str,
    within: Duration,
) -> (Client, Value) {
    join_when_owned_as(node, code, Some(token), within).await
}

/// As [`join_when_owned`], with a token or as a newcomer.
pub async fn join_when_owned_as(
    node: &Proc,
    code: &str,
    token: Option<&str>,
    within: Duration,
) -> (Client, Value) {
    let deadline = Instant::now() + within;
    loop {
        let mut c = Client::connect(&node.ws_url(code)).await;
        c.hello("Back", token).await;
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
pub async fn logged_cells(db: &TestDb, invite: &str) -> Vec<u64> {
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

pub async fn metric(node: &Proc, name: &str) -> Option<f64> {
    let (status, body) = try_http(node.addr, "GET", "/metrics", None).await?;
    assert_eq!(status, 200);
    body.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}
