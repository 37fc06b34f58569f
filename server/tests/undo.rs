//! Undo through the protocol, against SQLite and Postgres: a My City player
//! takes back his decision before the reveal, is refused after it, and keeps
//! his chance across a server restart; the other seat may never take it back
//! for him, and the log and views say what happened.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use testkit::server::TestServer;
use testkit::{Client, TestDb, both_stores};

/// `client`'s first legal move at the game's current version, sent with `id`;
/// returns the version it was made on.
async fn decide(client: &mut Client, id: u64) -> u64 {
    let version = client.snapshot().await["version"].as_u64().unwrap();
    client.send(&json!({"type": "legal_moves"})).await;
    let legal = client.recv_type("legal_moves").await;
    let mv = legal["moves"][0].clone();
    client
        .send(&json!({"type": "move", "id": id, "version": version, "mv": mv}))
        .await;
    assert_eq!(client.recv_type("move_ok").await["id"], id);
    version
}

async fn undo(client: &mut Client, id: u64) -> Value {
    let version = client.snapshot().await["version"].as_u64().unwrap();
    client
        .send(&json!({"type": "undo", "id": id, "version": version}))
        .await;
    loop {
        let m = client.recv().await;
        if m["type"] == "move_ok" || m["type"] == "error" {
            assert_eq!(m["id"], id, "{m}");
            return m;
        }
    }
}

async fn a_decision_is_taken_back_until_the_reveal(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, spectate, host_token) = srv.create_table("my-city", 2, false).await;
    let mut ana = srv.join(&invite, "Ana", Some(&host_token)).await;
    let mut bruno = srv.join(&invite, "Bruno", None).await;
    let bruno_token = bruno.take_seat(1).await;
    ana.send(&json!({"type": "start"})).await;
    ana.recv_type("snapshot").await;
    bruno.recv_type("snapshot").await;
    let mut watcher = srv.join(&spectate, "Watcher", None).await;
    let start = watcher.recv_type("snapshot").await["game"].clone();
    assert!(start["awaiting"].get("undo").is_none(), "{start}");

    decide(&mut ana, 1).await;
    let decided = watcher.snapshot().await;
    assert_eq!(
        decided["awaiting"]["undo"], 0,
        "everyone sees who may undo: {decided}"
    );
    assert_ne!(decided["view"], start["view"]);
    // Nobody takes back another's move.
    let refused = undo(&mut bruno, 2).await;
    assert_eq!(refused["code"], "illegal_move", "{refused}");
    assert_eq!(refused["rule"], "nothing_to_undo", "{refused}");
    assert_eq!(watcher.snapshot().await["version"], decided["version"]);

    assert_eq!(undo(&mut ana, 3).await["type"], "move_ok");
    let update = loop {
        let m = watcher.recv().await;
        if m["type"] == "update" && m["events"] != json!([]) {
            break m;
        }
    };
    assert_eq!(update["events"], json!([{"undone": {"seat": 0}}]));
    let undone = watcher.snapshot().await;
    assert_eq!(
        undone["view"], start["view"],
        "the view before the decision"
    );
    assert_eq!(undone["awaiting"]["seats"], json!([0, 1]));
    assert!(undone["awaiting"].get("undo").is_none(), "{undone}");
    // Twice on one version: the second is stale, never a second undo.
    let version = decide(&mut ana, 4).await;
    ana.send(&json!({"type": "undo", "id": 5, "version": version}))
        .await;
    assert_eq!(ana.expect_error("stale_version").await["id"], 5);

    // The chance survives a restart: the log replays to the same state.
    let before = watcher.snapshot().await;
    srv.kill();
    drop((ana, bruno, watcher));
    let srv = TestServer::start(db).await;
    let mut ana = srv.join(&invite, "Ana", Some(&host_token)).await;
    let snap = ana.recv_type("snapshot").await["game"].clone();
    assert_eq!(snap["awaiting"]["undo"], 0, "{snap}");
    let mut watcher = srv.join(&spectate, "Watcher", None).await;
    assert_eq!(
        watcher.recv_type("snapshot").await["game"]["view"],
        before["view"]
    );
    assert_eq!(undo(&mut ana, 6).await["type"], "move_ok");
    assert_eq!(watcher.snapshot().await["view"], start["view"]);

    // Bruno's decision reveals the round: no undo for either.
    decide(&mut ana, 7).await;
    let mut bruno = srv.join(&invite, "Bruno", Some(&bruno_token)).await;
    bruno.recv_type("snapshot").await;
    decide(&mut bruno, 8).await;
    let revealed = watcher.snapshot().await;
    assert!(revealed["awaiting"].get("undo").is_none(), "{revealed}");
    // An undo that crossed the reveal (made on the version before it) hears
    // that nothing can be taken back, not just that it is stale.
    let crossed = revealed["version"].as_u64().unwrap() - 1;
    ana.send(&json!({"type": "undo", "id": 11, "version": crossed}))
        .await;
    assert_eq!(
        ana.expect_error("illegal_move").await["rule"],
        "nothing_to_undo"
    );
    for (client, id) in [(&mut ana, 9), (&mut bruno, 10)] {
        let refused = undo(client, id).await;
        assert_eq!(refused["rule"], "nothing_to_undo", "{refused}");
    }
    assert_eq!(watcher.snapshot().await["view"], revealed["view"]);
    srv.stop().await;
}
both_stores!(
    undo_until_the_reveal,
    a_decision_is_taken_back_until_the_reveal
);
