//! `POST /api/my-tables`, against SQLite and Postgres: each kept seat's table
//! with whose turn it is and the turn clock, replayed from the stored log;
//! codes that name no table and tokens that hold no seat are left out; bad
//! requests and floods are refused.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use testkit::server::TestServer;
use testkit::{TestDb, both_stores};

async fn kept_seats_show_their_tables(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, spectate, host_token) = srv
        .create_table_with(json!({
            "game": "tic-tac-toe",
            "name": "Ana",
            "settings": {"seats": 2, "options": {}, "turn_seconds": 60, "spectators_allowed": true, "public": false}
        }))
        .await;
    let mut ana = srv.join(&invite, "Ana", Some(&host_token)).await;
    let mut bruno = srv.join(&invite, "Bruno", None).await;
    let bruno_token = bruno.take_seat(1).await;
    let (lobby, _, lobby_token) = srv.create_table("my-city", 2, false).await;

    let srv = &srv;
    let ask =
        |seats: Value| async move { srv.post("/api/my-tables", &json!({ "seats": seats })).await };
    let (status, mine) = ask(json!([
        {"code": invite, "token": host_token},
        {"code": lobby, "token": lobby_token},
        {"code": invite, "token": "not a token of this table"},
        {"code": spectate, "token": bruno_token},
        {"code": "nosuchcode", "token": host_token},
    ]))
    .await;
    assert_eq!(status, 200, "{mine}");
    let tables = mine["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 3, "{mine}");
    assert_eq!(tables[0]["status"], "lobby");
    assert_eq!(tables[0]["seat"], 0);
    assert_eq!(tables[0]["others"], json!(["Bruno"]));
    assert_eq!(tables[1]["game"], "my-city");
    // A seat is a seat, whichever of its table's codes it is kept under.
    assert_eq!(tables[2]["code"], spectate.as_str());
    assert_eq!(tables[2]["seat"], 1);
    assert_eq!(tables[2]["others"], json!(["Ana"]));

    ana.send(&json!({"type": "start"})).await;
    let game = ana.recv_type("snapshot").await["game"].clone();
    let first = game["awaiting"]["seats"][0].as_u64().unwrap();
    let (_, mine) = ask(json!([
        {"code": invite, "token": host_token},
        {"code": invite, "token": bruno_token},
    ]))
    .await;
    let tables = mine["tables"].as_array().unwrap();
    for (seat, table) in tables.iter().enumerate() {
        assert_eq!(table["status"], "playing");
        assert_eq!(table["seat"], seat);
        assert_eq!(table["awaiting"], json!([first]), "{table}");
        let left = table["time_left_ms"].as_u64().unwrap();
        assert!((50_000..=60_000).contains(&left), "{left} ms left of 60 s");
        assert!(table.get("seed").is_none() && !table.to_string().contains("token"));
    }

    // A move: the other seat's turn now, on a fresh clock.
    let mover = if first == 0 { &mut ana } else { &mut bruno };
    mover.send(&json!({"type": "legal_moves"})).await;
    let mv = mover.recv_type("legal_moves").await["moves"][0].clone();
    mover
        .send(&json!({"type": "move", "id": 1, "version": 0, "mv": mv}))
        .await;
    mover.recv_type("move_ok").await;
    let (_, mine) = ask(json!([{"code": invite, "token": host_token}])).await;
    assert_eq!(mine["tables"][0]["awaiting"], json!([1 - first]));

    // Too many seats at once, or no list at all: refused.
    let many: Vec<Value> = (0..21)
        .map(|_| json!({"code": invite, "token": host_token}))
        .collect();
    let (status, refused) = ask(json!(many)).await;
    assert_eq!(
        (status, refused["code"].clone()),
        (400, json!("bad_message"))
    );
    assert_eq!(refused["args"]["max"], 20);
    let (status, _) = srv.post("/api/my-tables", &json!({"tables": []})).await;
    assert_eq!(status, 400);
    // An address asks a few times a minute, after a burst.
    let mut limited = false;
    for _ in 0..12 {
        let (status, _) = ask(json!([])).await;
        limited |= status == 429;
    }
    assert!(limited, "a flood of asks is cut off");
}
both_stores!(kept_seats, kept_seats_show_their_tables);
