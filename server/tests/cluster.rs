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
//!
//! `cluster_chaos.rs` plays several tables continuously while owners are killed,
//! nodes are restarted one by one, and the broker goes away; the helpers both use
//! are in `cluster_common`.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::json;
use testkit::client::NoMessage;
use testkit::{TestDb, citytable_bin};
use tokio::time::Instant;

mod cluster_common;
use cluster_common::{
    CELLS, Game, NATS_URL, TTL_MS, join_when_owned, join_when_owned_as, logged_cells, metric, node,
    ready_nodes,
};

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

/// Spectators who came through the spectator link, on two nodes that do not own
/// the table: each update reaches all of them as one message from the owner, in
/// order after each one's own snapshot, and what one of them is told stays his.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_on_other_nodes_share_one_message_per_update() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let nodes = ready_nodes(&db, 3).await;
    let (a, b, c) = (&nodes[0], &nodes[1], &nodes[2]);
    let mut game = Game::start(a).await;
    let mut watchers = Vec::new();
    for (i, n) in [b, b, b, c, c].into_iter().enumerate() {
        let (w, snap) = join_when_owned_as(n, &game.spectate, None, Duration::from_secs(5)).await;
        assert_eq!(snap["version"], 0, "spectator {i}: {snap}");
        watchers.push(w);
    }
    // Every join told everyone of the new spectator: let those messages pass.
    for w in &mut watchers {
        while w.next_within(Duration::from_millis(300)).await.is_ok() {}
    }
    let sent_before = metric(a, "citytable_forwarded_messages_total").await;

    for _ in 0..2 {
        game.play().await;
    }
    let mut frames = Vec::new();
    for w in &mut watchers {
        for version in 1..=2 {
            let update = w.recv_type("update").await;
            assert_eq!(update["version"], version, "{update}");
            frames.push((version, update));
        }
    }
    assert!(
        frames
            .iter()
            .all(|(v, f)| *f == frames[(*v - 1) as usize].1),
        "every spectator gets the same update"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent = metric(a, "citytable_forwarded_messages_total")
        .await
        .unwrap()
        - sent_before.unwrap();
    assert_eq!(
        sent, 2.0,
        "one message per move for five spectators on two nodes"
    );

    // A spectator arriving mid-game: his snapshot, then the next moves in order.
    let (mut late, snap) =
        join_when_owned_as(c, &game.spectate, None, Duration::from_secs(5)).await;
    assert_eq!(snap["version"], 2, "{snap}");
    // One spectator's own answer goes to him alone.
    watchers[0]
        .send(&json!({"type": "move", "id": 9, "version": 2, "mv": {"cell": CELLS[2]}}))
        .await;
    watchers[0].expect_error("not_seated").await;
    game.play().await;
    assert_eq!(late.recv_type("update").await["version"], 3);
    for w in &mut watchers[1..] {
        let next = loop {
            let m = w.recv().await;
            if m["type"] != "table" {
                break m;
            }
        };
        assert_eq!(next["type"], "update", "nothing of another's: {next}");
        assert_eq!(next["version"], 3);
    }
    // Leaving ends each node's subscription with its last spectator: a move
    // is then sent to nobody.
    for w in watchers.drain(..).chain([late]) {
        w.close().await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = metric(a, "citytable_forwarded_messages_total")
        .await
        .unwrap();
    game.play().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        metric(a, "citytable_forwarded_messages_total")
            .await
            .unwrap(),
        before,
        "no spectator is left on another node"
    );
    for n in nodes {
        n.stop().await;
    }
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
