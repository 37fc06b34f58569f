//! A move with a field its game does not know is refused (`bad_move`) and changes
//! nothing, in every game and for every kind of move: with fields, without
//! fields, and fields of a value inside the move. Over real WebSockets, against
//! SQLite and Postgres.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use testkit::server::TestServer;
use testkit::{Client, TestDb, both_stores};

/// A two-seat table of `game` with the host in seat 0 and a guest in seat 1,
/// started; returns both and the guest's first snapshot.
async fn started(srv: &TestServer, game: &str) -> (Client, Client, Value) {
    let (invite, _, token) = srv.create_table(game, 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut guest = srv.join(&invite, "Guest", None).await;
    guest.send(&json!({"type": "take_seat", "seat": 1})).await;
    guest.recv_type("welcome").await;
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    let snap = guest.recv_type("snapshot").await;
    (host, guest, snap["game"].clone())
}

/// Sends `mv` as seat `c`'s move at version 0 and asserts it is refused as
/// `bad_move`, naming the move's id.
async fn refused(c: &mut Client, id: u64, mv: Value) {
    c.send(&json!({"type": "move", "id": id, "version": 0, "mv": mv}))
        .await;
    let e = loop {
        let m = c.recv().await;
        match m["type"].as_str() {
            Some("error") => break m,
            Some("move_ok") => panic!("{mv} was played: {m}"),
            _ => {}
        }
    };
    assert_eq!(e["code"], "bad_move", "{mv}: {e}");
    assert_eq!(e["id"], id);
    assert!(!e["message"].as_str().unwrap_or_default().is_empty());
}

/// The game as `c` sees it, timer figures removed.
async fn game_of(c: &mut Client) -> Value {
    let mut g = c.snapshot().await;
    if let Some(a) = g.get_mut("awaiting").and_then(Value::as_object_mut) {
        a.remove("timer_ms");
    }
    g
}

async fn moves_with_unknown_fields_are_refused(db: &TestDb) {
    let srv = TestServer::start(db).await;

    // My City: both seats decide at once; "pass" and "end_participation" have no
    // fields, "place" has some.
    let (mut host, mut guest, _) = started(&srv, "my-city").await;
    let before = game_of(&mut guest).await;
    refused(
        &mut host,
        1,
        json!({"type": "end_participation", "extra": 1}),
    )
    .await;
    refused(&mut host, 2, json!({"type": "pass", "reason": null})).await;
    refused(
        &mut host,
        3,
        json!({"type": "place", "x": 0, "y": 0, "rotation": 0, "seat": 1}),
    )
    .await;
    assert_eq!(
        game_of(&mut guest).await,
        before,
        "a refused move changed the game"
    );
    assert_eq!(game_of(&mut host).await["version"], 0);
    // The same move without the extra field is played.
    host.send(&json!({"type": "move", "id": 4, "version": 0, "mv": {"type": "end_participation"}}))
        .await;
    assert_eq!(host.recv_type("move_ok").await["id"], 4);

    // Tic-tac-toe: a plain struct.
    let (mut host, mut guest, snap) = started(&srv, "tic-tac-toe").await;
    let first = snap["awaiting"]["seats"][0].as_u64().unwrap();
    let mover = if first == 0 { &mut host } else { &mut guest };
    let before = game_of(mover).await;
    refused(mover, 5, json!({"cell": 4, "extra": true})).await;
    assert_eq!(
        game_of(mover).await,
        before,
        "a refused move changed the game"
    );

    // Big City: unit variants, struct variants and values inside a move.
    let (mut host, mut guest, snap) = started(&srv, "big-city").await;
    let first = snap["awaiting"]["seats"][0].as_u64().unwrap();
    let mover = if first == 0 { &mut host } else { &mut guest };
    let before = game_of(mover).await;
    for (id, mv) in [
        json!({"type": "pass", "extra": 1}),
        json!({"type": "done", "extra": 1}),
        json!({"type": "place_neighborhood", "neighborhood": 2, "x": 0, "y": 3, "rotation": 0, "seat": 1}),
        json!({"type": "streetcar", "segment": {"x1": 0, "y1": 0, "x2": 1, "y2": 0, "z": 0}}),
    ]
    .into_iter()
    .enumerate()
    {
        refused(mover, 10 + id as u64, mv).await;
    }
    assert_eq!(
        game_of(mover).await,
        before,
        "a refused move changed the game"
    );
    srv.stop().await;
}
both_stores!(move_fields, moves_with_unknown_fields_are_refused);
