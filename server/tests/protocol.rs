//! Every bad input gets its error code and changes nothing; lobby controls,
//! listings, chat limits and play-again, over real WebSockets and HTTP, against
//! SQLite and Postgres.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use testkit::server::TestServer;
use testkit::{Client, TestDb, both_stores};

/// Everything a table looks like to one connection: its `welcome` table and, if
/// there is a game, its snapshot (timer figures removed).
async fn state(c: &mut Client) -> (Value, Value) {
    c.send(&json!({"type": "resync"})).await;
    let mut table = c.recv_type("welcome").await["table"].clone();
    // Who is watching is not part of the game.
    if let Some(t) = table.as_object_mut() {
        t.remove("spectators");
    }
    let game = if table["status"] == "lobby" {
        Value::Null
    } else {
        let mut g = c.recv_type("snapshot").await["game"].clone();
        if let Some(a) = g.get_mut("awaiting").and_then(Value::as_object_mut) {
            a.remove("timer_ms");
        }
        g
    };
    (table, game)
}

/// Plays the game out from seat 0 (always its first legal move, as its turns
/// come) until an update carries the outcome.
async fn play_out_as_seat_0(host: &mut Client) {
    loop {
        let m = host.recv().await;
        if m["type"] == "update" && m.get("outcome").is_some() {
            break;
        }
        let awaited = match m["type"].as_str() {
            Some("update") => m["awaiting"]["seats"].clone(),
            Some("snapshot") => m["game"]["awaiting"]["seats"].clone(),
            _ => continue,
        };
        let version = m["version"]
            .as_u64()
            .or(m["game"]["version"].as_u64())
            .unwrap();
        if awaited == json!([0]) {
            host.send(&json!({"type": "legal_moves"})).await;
            let legal = host.recv_type("legal_moves").await;
            host.send(&json!({"type": "move", "id": version, "version": version, "mv": legal["moves"][0]})).await;
        }
    }
}

async fn bad_input_changes_nothing(db: &TestDb) {
    // The mover sends well over the default burst of messages in this test, each
    // case followed by a resync; a burst of 100 covers them however fast they go,
    // while the flood below (120 at once) still exceeds it.
    let config = server::Config {
        rate_burst: 100.0,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(db, config).await;
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;

    // Before hello.
    let mut early = Client::connect(&srv.ws_url(&invite)).await;
    early.send(&json!({"type": "resync"})).await;
    early.expect_error("hello_first").await;
    early.send(&json!({"type": "hello", "name": ""})).await;
    early.expect_error("bad_name").await;
    early
        .send(&json!({"type": "hello", "name": "x".repeat(protocol::MAX_NAME_CHARS + 1)}))
        .await;
    early.expect_error("bad_name").await;

    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut guest = srv.join(&invite, "Guest", None).await;
    // Lobby: a visitor is not the host.
    for msg in [
        json!({"type": "start"}),
        json!({"type": "kick", "seat": 0}),
        json!({"type": "add_bot", "seat": 1, "level": "random"}),
        json!({"type": "configure", "settings": {"seats": 2, "options": {}, "spectators_allowed": false, "public": true}}),
        json!({"type": "play_again"}),
    ] {
        let before = state(&mut host).await;
        guest.send(&msg).await;
        guest.expect_error("not_host").await;
        assert_eq!(state(&mut host).await, before, "{msg} changed nothing");
    }
    guest.send(&json!({"type": "take_seat", "seat": 0})).await;
    guest.expect_error("seat_taken").await;
    guest.send(&json!({"type": "take_seat", "seat": 7})).await;
    guest.expect_error("no_such_seat").await;
    guest
        .send(&json!({"type": "move", "id": 1, "version": 0, "mv": {"cell": 0}}))
        .await;
    guest.expect_error("wrong_status").await;
    host.send(&json!({"type": "start"})).await;
    host.expect_error("bad_settings").await; // an empty seat
    host.send(&json!({"type": "configure", "settings": {"seats": 3, "options": {}, "spectators_allowed": true, "public": false}})).await;
    host.expect_error("bad_settings").await;
    host.send(&json!({"type": "configure", "settings": {"seats": 2, "options": {}, "turn_seconds": 1, "spectators_allowed": true, "public": false}})).await;
    host.expect_error("bad_settings").await;
    // A stand-in takes over after 1 to 5 missed turns, at a known level.
    for stand_in in [
        json!({"level": "greedy", "after_misses": 0}),
        json!({"level": "greedy", "after_misses": 6}),
    ] {
        host.send(&json!({"type": "configure", "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false, "stand_in": stand_in}})).await;
        let e = host.expect_error("bad_settings").await;
        assert_eq!(e["args"]["reason"], "stand_in_misses", "{e}");
        assert_eq!(
            (e["args"]["min"].as_u64(), e["args"]["max"].as_u64()),
            (Some(1), Some(5))
        );
    }
    host.send(&json!({"type": "configure", "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false, "stand_in": {"level": "genius", "after_misses": 2}}})).await;
    host.expect_error("bad_message").await;
    // A time bank of a minute to two weeks, beside a turn timer of up to a week.
    for (turn, bank) in [
        (None, json!(3600)),
        (Some(60), json!(59)),
        (Some(60), json!(14 * 86_400 + 1)),
    ] {
        host.send(&json!({"type": "configure", "settings": {"seats": 2, "options": {}, "turn_seconds": turn, "time_bank_seconds": bank, "spectators_allowed": true, "public": false}})).await;
        let e = host.expect_error("bad_settings").await;
        assert_eq!(e["args"]["reason"], "time_bank", "{e}");
        assert_eq!(
            (e["args"]["min"].as_u64(), e["args"]["max"].as_u64()),
            (Some(60), Some(14 * 86_400))
        );
    }
    host.send(&json!({"type": "configure", "settings": {"seats": 2, "options": {}, "turn_seconds": 7 * 86_400 + 1, "spectators_allowed": true, "public": false}})).await;
    host.expect_error("bad_settings").await;

    guest.send(&json!({"type": "take_seat"})).await;
    guest.recv_type("welcome").await;
    host.send(&json!({"type": "start"})).await;
    let snap = host.recv_type("snapshot").await["game"].clone();
    let to_move = snap["awaiting"]["seats"][0].as_u64().unwrap();
    let (mover, waiter) = if to_move == 0 {
        (&mut host, &mut guest)
    } else {
        (&mut guest, &mut host)
    };
    let before = state(mover).await;
    let cases: Vec<(String, &str)> = vec![
        ("{not json".into(), "bad_message"),
        (json!({"type": "fly"}).to_string(), "bad_message"),
        (
            json!({"type": "chat", "text": "hi", "extra": 1}).to_string(),
            "bad_message",
        ),
        (
            json!({"type": "hello", "name": "again"}).to_string(),
            "hello_first",
        ),
        (
            json!({"type": "move", "id": 5, "version": 0, "mv": {"cell": "four"}}).to_string(),
            "bad_move",
        ),
        (
            json!({"type": "move", "id": 5, "version": 0, "mv": {"row": 1}}).to_string(),
            "bad_move",
        ),
        (
            json!({"type": "move", "id": 5, "version": 0, "mv": {"cell": 9}}).to_string(),
            "illegal_move",
        ),
        (
            json!({"type": "move", "id": 5, "version": 3, "mv": {"cell": 0}}).to_string(),
            "stale_version",
        ),
        (
            json!({"type": "chat", "text": "  "}).to_string(),
            "bad_chat",
        ),
        (
            json!({"type": "chat", "text": "x".repeat(protocol::MAX_CHAT_CHARS + 1)}).to_string(),
            "bad_chat",
        ),
        (
            json!({"type": "take_seat", "seat": 1}).to_string(),
            "wrong_status",
        ),
        (json!({"type": "kick", "seat": 1}).to_string(), "not_host"),
    ];
    for (text, code) in &cases {
        mover.send_text(text.clone()).await;
        let e = mover.recv_type("error").await;
        // When the host is the mover, kicking during the game is wrong_status.
        if mover.you["is_host"] == true && *code == "not_host" {
            assert_eq!(e["code"], "wrong_status", "{text}");
        } else {
            assert_eq!(e["code"], *code, "{text}");
        }
        if *code == "illegal_move" {
            assert_eq!(e["rule"], "no_such_cell");
            assert_eq!(e["id"], 5);
        }
        assert_eq!(state(mover).await, before, "{text} changed nothing");
    }
    // The other seat: not his turn.
    waiter
        .send(&json!({"type": "move", "id": 6, "version": 0, "mv": {"cell": 0}}))
        .await;
    waiter.expect_error("not_your_turn").await;
    // A spectator holds no seat.
    let mut watcher = srv.join(&invite, "Watcher", None).await;
    watcher
        .send(&json!({"type": "move", "id": 7, "version": 0, "mv": {"cell": 0}}))
        .await;
    watcher.expect_error("not_seated").await;
    watcher.send(&json!({"type": "legal_moves"})).await;
    watcher.expect_error("not_seated").await;
    assert_eq!(state(mover).await, before);

    // Oversized frame: an error, then the server closes the connection.
    let mut big = srv.join(&invite, "Big", None).await;
    big.send_text(format!(
        "{{\"type\":\"chat\",\"text\":\"{}\"}}",
        "y".repeat(protocol::MAX_FRAME_BYTES)
    ))
    .await;
    big.expect_error("frame_too_large").await;
    loop {
        match big.next().await {
            None => break,
            Some(m) => assert_ne!(m["type"], "chat", "the big message was not relayed"),
        }
    }

    // Flood: beyond the rate, messages are refused, each answer naming its move.
    let mut flood = srv.join(&invite, "Flood", None).await;
    for id in 1000..1120 {
        flood
            .send(&json!({"type": "move", "id": id, "version": 0, "mv": {"cell": 0}}))
            .await;
    }
    let mut limited = 0;
    let mut ids = std::collections::BTreeSet::new();
    for _ in 0..120 {
        let m = flood.recv_type("error").await;
        if m["code"] == "rate_limited" {
            limited += 1;
        } else {
            assert_eq!(m["code"], "not_seated");
        }
        ids.insert(m["id"].as_u64().expect("a refused move names its id"));
    }
    assert_eq!(ids, (1000..1120).collect(), "one answer per move");
    assert!(limited > 0, "a flood is rate limited");
    assert_eq!(state(mover).await, before);

    // Wrong codes: 404 on HTTP and on the socket, and not listed.
    let (status, body) = srv.get("/api/tables/abcdefghijkmnpqrstuvw").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "no_such_table");
    let (status, _) = srv.get(&format!("/api/tables/{invite}")).await;
    assert_eq!(status, 200);
    let (_, list) = srv.get("/api/tables").await;
    assert!(
        !list.to_string().contains(&invite),
        "private tables are never listed"
    );
    let refused = Client::open(srv.ws_url("abcdefghijkmnpqrstuvw")).await;
    assert!(refused.is_err(), "no socket for a wrong code");
    // The record is not available while the game runs (the seed stays hidden).
    let (status, body) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 409);
    assert!(body.get("seed").is_none());
    // Guessing codes: after a few dozen misses an address's misses are slowed,
    // and a right code from it is still answered.
    for _ in 0..32 {
        let (status, body) = srv.get("/api/tables/zzzzzzzzzzzzzzzzzzzz").await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("no_such_table"))
        );
    }
    let (status, metrics) = srv.get_text("/metrics").await;
    assert_eq!(status, 200);
    let slowed: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("citytable_slowed_lookups_total "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    assert!(slowed > 0, "misses past the allowance are slowed");
    let (status, _) = srv.get(&format!("/api/tables/{invite}")).await;
    assert_eq!(status, 200);
    srv.stop().await;
}
both_stores!(bad_input, bad_input_changes_nothing);

/// One address may hold only so many sockets; closing one frees its place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_per_address_are_limited() {
    let db = TestDb::sqlite();
    let config = server::Config {
        max_connections_per_address: 3,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    let (invite, _, _) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut open = Vec::new();
    for i in 0..3 {
        open.push(srv.join(&invite, &format!("P{i}"), None).await);
    }
    match Client::open(srv.ws_url(&invite)).await {
        Err(refused) => {
            assert_eq!(refused.status(), Some(429), "{refused:?}");
            assert_eq!(refused.json()["code"], "rate_limited");
        }
        Ok(_) => panic!("a fourth socket from one address was not refused"),
    }
    // Plain HTTP counts against the same budget; a closed socket frees a place.
    let (status, _) = srv.get(&format!("/api/tables/{invite}")).await;
    assert_eq!(status, 429);
    drop(open.pop());
    let mut again = None;
    for _ in 0..100 {
        if let Ok(ws) = Client::open(srv.ws_url(&invite)).await {
            again = Some(ws);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "the freed place is available again");
    srv.stop().await;
}

async fn lobby_host_controls_and_play_again(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (public_code, public_spectate, host_token) = srv
        .create_table_with(json!({
            "game": "tic-tac-toe", "name": "Ana",
            "settings": {"seats": 2, "options": {}, "spectators_allowed": false, "public": true}
        }))
        .await;
    let (private_code, _, _) = srv.create_table("tic-tac-toe", 2, false).await;
    let (status, info) = srv.get(&format!("/api/tables/{public_code}")).await;
    assert_eq!(status, 200);
    assert_eq!(
        (&info["host_name"], &info["seats"], &info["seats_taken"]),
        (&json!("Ana"), &json!(2), &json!(1)),
        "what an invite link says before joining"
    );
    let (_, list) = srv.get("/api/tables").await;
    let list = list["tables"].as_array().unwrap();
    assert!(
        list.iter()
            .any(|t| t["invite_code"] == public_code.as_str() && t["host_name"] == "Ana")
    );
    assert!(!json!(list).to_string().contains(&private_code));
    assert!(!json!(list).to_string().contains(&public_spectate));
    let (status, games) = srv.get("/api/games").await;
    assert_eq!(status, 200);
    assert!(
        games
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == "tic-tac-toe")
    );
    let (status, e) = srv
        .post("/api/tables", &json!({"game": "chess", "name": "x", "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": true}}))
        .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_settings")));

    // Spectators not allowed here.
    let mut s = Client::connect(&srv.ws_url(&public_spectate)).await;
    s.send(&json!({"type": "hello", "name": "Eve"})).await;
    s.expect_error("no_spectators").await;

    let mut host = srv.join(&public_code, "Ana", Some(&host_token)).await;
    assert_eq!(host.you["is_host"], true);
    let mut bo = srv.join(&public_code, "Bo", None).await;
    assert!(bo.token().is_none());
    bo.send(&json!({"type": "take_seat", "seat": 1})).await;
    let w = bo.recv_type("welcome").await;
    assert_eq!(w["you"]["seat"], 1);
    assert!(bo.token().is_some());
    // The host kicks Bo; Bo's seat is free again and Bo is told.
    host.send(&json!({"type": "kick", "seat": 1})).await;
    let w = bo.recv_type("welcome").await;
    assert!(w["you"].get("seat").is_none());
    let table = host.table().await;
    assert_eq!(table["seats"][1]["occupant"]["kind"], "empty");
    // Configure: a timer and spectators.
    host.send(&json!({"type": "configure", "settings": {"seats": 2, "options": {}, "turn_seconds": 30, "spectators_allowed": true, "public": false}})).await;
    let t = host.recv_type("table").await;
    assert_eq!(t["table"]["settings"]["turn_seconds"], 30);
    let (_, list) = srv.get("/api/tables").await;
    assert!(
        !list.to_string().contains(&public_code),
        "now private, so unlisted"
    );
    // A bot fills the seat; start.
    host.send(&json!({"type": "add_bot", "seat": 1, "level": "greedy"}))
        .await;
    host.send(&json!({"type": "start"})).await;
    let snap = host.recv_type("snapshot").await;
    assert!(snap["game"]["awaiting"]["timer_ms"].as_u64().unwrap() <= 30_000);
    host.send(&json!({"type": "configure", "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false}})).await;
    host.expect_error("wrong_status").await;

    // Chat: everyone gets it; limits hold.
    bo.send(&json!({"type": "chat", "text": "good luck"})).await;
    let line = host.recv_type("chat").await;
    assert_eq!(line["line"]["name"], "Bo");
    assert_eq!(line["line"]["text"], "good luck");
    assert_eq!(bo.recv_type("chat").await["line"]["text"], "good luck");
    for _ in 0..8 {
        bo.send(&json!({"type": "chat", "text": "spam"})).await;
    }
    let mut refused = 0;
    for _ in 0..8 {
        loop {
            let m = bo.recv().await;
            if m["type"] == "chat" {
                break;
            }
            if m["type"] == "error" {
                assert_eq!(m["code"], "rate_limited");
                refused += 1;
                break;
            }
        }
    }
    assert!(refused > 0, "chat is rate limited");

    host.send(&json!({"type": "resync"})).await;
    play_out_as_seat_0(&mut host).await;
    let (status, record) = srv.get(&format!("/api/tables/{public_code}/record")).await;
    assert_eq!(status, 200);
    assert_eq!(record["names"], json!(["Ana", "Bot (greedy)"]));
    let entries = record["entries"].as_array().unwrap().len();
    assert_eq!(testkit::client::record_views(&record).len(), entries + 1);

    // Play again: same seats, a new game at version 0.
    bo.send(&json!({"type": "play_again"})).await;
    bo.expect_error("not_host").await;
    host.send(&json!({"type": "play_again"})).await;
    let snap = host.recv_type("snapshot").await;
    assert_eq!(snap["game"]["version"], 0);
    assert_eq!(snap["game"]["number"], 2, "the table's second game");
    let table = host.table().await;
    assert_eq!(table["status"], "playing");
    assert_eq!(table["seats"][1]["occupant"]["kind"], "bot");
    srv.stop().await;
}
both_stores!(lobby, lobby_host_controls_and_play_again);

/// A game without parts (tic-tac-toe) answers a `legal_moves` with `of` with
/// every legal move, and echoes the `of`.
async fn a_game_without_parts_lists_every_move(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    host.send(&json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.send(&json!({"type": "start"})).await;
    // Until it is the host's turn (the bot may open).
    let mut awaited = host.recv_type("snapshot").await["game"]["awaiting"]["seats"].clone();
    while awaited != json!([0]) {
        let m = host.recv_type("update").await;
        if let Some(seats) = m.get("awaiting") {
            awaited = seats["seats"].clone();
        }
    }
    host.send(&json!({"type": "legal_moves"})).await;
    let all = host.recv_type("legal_moves").await;
    assert!(all.get("of").is_none());
    assert!(!all["moves"].as_array().unwrap().is_empty());
    for of in ["house", "other", ""] {
        host.send(&json!({"type": "legal_moves", "of": of})).await;
        let part = host.recv_type("legal_moves").await;
        assert_eq!(part["of"], of);
        assert_eq!(
            (&part["version"], &part["moves"]),
            (&all["version"], &all["moves"])
        );
    }
    srv.stop().await;
}
both_stores!(
    legal_moves_of_a_game_without_parts,
    a_game_without_parts_lists_every_move
);

/// After a game the host may take the table back to its lobby: seats change
/// there, the next game is the table's second, and a restart keeps the lobby.
async fn back_to_the_lobby_between_games(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Ana", Some(&token)).await;
    host.send(&json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.recv_type("table").await;
    host.send(&json!({"type": "back_to_lobby"})).await;
    host.expect_error("wrong_status").await;
    host.send(&json!({"type": "start"})).await;
    play_out_as_seat_0(&mut host).await;
    let mut guest = srv.join(&invite, "Bo", None).await;
    guest.send(&json!({"type": "back_to_lobby"})).await;
    guest.expect_error("not_host").await;
    host.send(&json!({"type": "back_to_lobby"})).await;
    loop {
        let t = host.recv_type("table").await;
        if t["table"]["status"] == "lobby" {
            break;
        }
    }
    // The bot's seat goes to Bo.
    host.send(&json!({"type": "kick", "seat": 1})).await;
    host.recv_type("table").await;
    guest.send(&json!({"type": "take_seat", "seat": 1})).await;
    guest.recv_type("welcome").await;
    host.close().await;
    guest.close().await;
    srv.stop().await;

    // After a restart the table is still in its lobby, then starts its second game.
    let srv = TestServer::start(db).await;
    let mut host = srv.join(&invite, "Ana", Some(&token)).await;
    let table = host.table().await;
    assert_eq!(table["status"], "lobby");
    assert_eq!(table["seats"][1]["occupant"]["name"], "Bo");
    host.send(&json!({"type": "start"})).await;
    let snap = host.recv_type("snapshot").await;
    assert_eq!(snap["game"]["number"], 2, "the table's second game");
    assert_eq!(snap["game"]["version"], 0);
    srv.stop().await;
}
both_stores!(back_to_lobby, back_to_the_lobby_between_games);
