//! Whole games over real WebSockets, against SQLite and Postgres: bots and
//! clients play through the protocol and end exactly as the engine alone;
//! a killed server loses no acknowledged move; concurrent moves on one version.

#![allow(clippy::unwrap_used)]

use engine::{BotLevel, Entry, Setup};
use serde_json::{Value, json};
use testkit::client::patched;
use testkit::server::TestServer;
use testkit::{Client, TestDb, both_stores};
use tic_tac_toe::{Options, TicTacToe};

async fn bots_play_like_the_engine(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, spectate, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut watcher = srv.join(&spectate, "Watcher", None).await;
    assert!(watcher.you.get("seat").is_none());
    host.send(&json!({"type": "kick", "seat": 0})).await;
    host.send(&json!({"type": "add_bot", "seat": 0, "level": "greedy"}))
        .await;
    host.send(&json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.send(&json!({"type": "start"})).await;

    // The watcher follows the game from its first snapshot through patches.
    let snap = watcher.recv_type("snapshot").await;
    assert_eq!(snap["game"]["version"], 0);
    let mut view = snap["game"]["view"].clone();
    let mut views = vec![view.clone()];
    let mut logged = Vec::new();
    let outcome = loop {
        let m = watcher.recv().await;
        if m["type"] != "update" {
            continue;
        }
        assert_eq!(m["version"].as_u64(), Some(views.len() as u64));
        view = patched(&view, &m);
        views.push(view.clone());
        if m["events"] != json!([]) {
            logged.push(json!({"version": m["version"], "events": m["events"]}));
        }
        if m.get("outcome").is_some() {
            break m["outcome"].clone();
        }
    };

    let (status, record) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        json!(testkit::client::record_views(&record)),
        json!(views),
        "patched views match the record"
    );
    assert_eq!(record["outcome"], outcome);
    // Someone who comes in afterwards gets the game log the watcher saw.
    let mut late = srv.join(&spectate, "Late", None).await;
    let snap = late.recv_type("snapshot").await;
    assert!(!logged.is_empty());
    assert_eq!(snap["game"]["recent_events"], json!(logged));
    let seed = testkit::record_seed(&record).expect("seed revealed after the game");
    let setup = Setup {
        seats: 2,
        seed,
        options: Options::default(),
        first_seat: None,
    };
    let (game, log) = engine::play_out::<TicTacToe>(
        &setup,
        &[BotLevel::Greedy, BotLevel::Random],
        server::bot_seed(seed),
        100,
    )
    .expect("engine play-out");
    assert_eq!(record["entries"], serde_json::to_value(&log).unwrap());
    assert_eq!(
        outcome,
        serde_json::to_value(engine::Game::outcome(&game)).unwrap()
    );
    srv.stop().await;
}
both_stores!(bots_match_engine, bots_play_like_the_engine);

/// Plays `n` moves (or until the game ends): whoever is awaited asks for his legal
/// moves and plays the first. Returns the version reached.
async fn play(clients: &mut [&mut Client], n: usize) -> u64 {
    let mut snap = clients[0].snapshot().await;
    for _ in 0..n {
        if snap.get("outcome").is_some() {
            break;
        }
        let version = snap["version"].as_u64().unwrap();
        let seat = snap["awaiting"]["seats"][0].as_u64().unwrap();
        let mover = clients
            .iter_mut()
            .find(|c| c.you["seat"].as_u64() == Some(seat))
            .expect("a client holds the awaited seat");
        mover.send(&json!({"type": "legal_moves"})).await;
        let legal = mover.recv_type("legal_moves").await;
        assert_eq!(legal["version"].as_u64(), Some(version));
        let mv = legal["moves"][0].clone();
        mover
            .send(&json!({"type": "move", "id": version + 100, "version": version, "mv": mv}))
            .await;
        let ok = mover.recv_type("move_ok").await;
        assert_eq!(ok["id"].as_u64(), Some(version + 100));
        assert_eq!(ok["version"].as_u64(), Some(version + 1));
        snap = clients[0].snapshot().await;
        assert_eq!(snap["version"].as_u64(), Some(version + 1));
    }
    snap["version"].as_u64().unwrap()
}

async fn survives_kill_and_restart(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, host_token) = srv.create_table("tic-tac-toe", 2, true).await;
    let mut host = srv.join(&invite, "Host", Some(&host_token)).await;
    assert_eq!(host.you["seat"], 0);
    assert_eq!(host.you["is_host"], true);
    let mut guest = srv.join(&invite, "Guest", None).await;
    guest.send(&json!({"type": "take_seat"})).await;
    let w = guest.recv_type("welcome").await;
    assert_eq!(w["you"]["seat"], 1);
    let guest_token = guest.token().expect("a token with the seat");
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    guest.recv_type("snapshot").await;
    let version = play(&mut [&mut host, &mut guest], 3).await;
    assert_eq!(version, 3);
    let before = host.snapshot().await;

    srv.kill();
    drop(host);
    drop(guest);

    let srv = TestServer::start(db).await;
    let mut host = srv.join(&invite, "whoever", Some(&host_token)).await;
    assert_eq!(host.you["seat"], 0, "the host got his seat back");
    assert_eq!(host.you["name"], "Host");
    let snap = host.recv_type("snapshot").await;
    assert_eq!(snap["game"]["version"], 3, "no acknowledged move lost");
    assert_eq!(snap["game"]["number"], 1);
    assert_eq!(snap["game"]["view"], before["view"]);
    // The game log, rebuilt by the replay, is the one the moves produced.
    assert_eq!(before["recent_events"].as_array().map(Vec::len), Some(3));
    assert_eq!(snap["game"]["recent_events"], before["recent_events"]);
    // The seal shown at the start is the same after the restart.
    assert!(before["commitment"].is_string(), "{before}");
    assert_eq!(snap["game"]["commitment"], before["commitment"]);
    let mut guest = srv.join(&invite, "x", Some(&guest_token)).await;
    assert_eq!(guest.you["seat"], 1);
    // A token only works at its own table.
    let (other, _, _) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut stranger = Client::connect(&srv.ws_url(&other)).await;
    stranger
        .send(&json!({"type": "hello", "name": "x", "token": guest_token}))
        .await;
    stranger.expect_error("bad_token").await;

    let last = play(&mut [&mut host, &mut guest], 9).await;
    let snap = host.snapshot().await;
    assert!(snap.get("outcome").is_some(), "the game ended");
    let (status, record) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 200);
    assert_eq!(record["entries"].as_array().unwrap().len() as u64, last);
    assert_eq!(record["commitment"], before["commitment"]);
    // The engine alone, replaying the logged moves, ends the same way.
    let setup = Setup {
        seats: 2,
        seed: testkit::record_seed(&record).unwrap(),
        options: Options::default(),
        first_seat: None,
    };
    let entries: Vec<Entry<tic_tac_toe::Move>> =
        serde_json::from_value(record["entries"].clone()).unwrap();
    let game = engine::replay::<TicTacToe>(&setup, &entries).expect("replay");
    assert_eq!(
        snap["outcome"],
        serde_json::to_value(engine::Game::outcome(&game)).unwrap()
    );
    // The public listing drops finished tables.
    let (_, list) = srv.get("/api/tables").await;
    assert!(!list.to_string().contains(&invite));
    srv.stop().await;
}
both_stores!(kill_and_restart, survives_kill_and_restart);

async fn one_of_two_concurrent_moves_applies(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    host.send(&json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.send(&json!({"type": "start"})).await;
    // Wait until it is the host's decision.
    let mut snap = host.recv_type("snapshot").await["game"].clone();
    while snap["awaiting"]["seats"] != json!([0]) {
        snap = host.snapshot().await;
    }
    let version = snap["version"].as_u64().unwrap();
    let free: Vec<usize> = (0..9)
        .filter(|&i| snap["view"]["cells"][i].is_null())
        .collect();
    let mut tab1 = srv.join(&invite, "", Some(&token)).await;
    let mut tab2 = srv.join(&invite, "", Some(&token)).await;
    let m1 = json!({"type": "move", "id": 1, "version": version, "mv": {"cell": free[0]}});
    let m2 = json!({"type": "move", "id": 2, "version": version, "mv": {"cell": free[1]}});
    let (a, b) = tokio::join!(tab1.send(&m1), tab2.send(&m2));
    let _ = (a, b);
    let mut outcomes = Vec::new();
    for tab in [&mut tab1, &mut tab2] {
        loop {
            let m = tab.recv().await;
            if m["type"] == "move_ok" || m["type"] == "error" {
                outcomes.push(m);
                break;
            }
        }
    }
    let oks = outcomes.iter().filter(|m| m["type"] == "move_ok").count();
    let stale: Vec<&Value> = outcomes.iter().filter(|m| m["type"] == "error").collect();
    assert_eq!(oks, 1, "{outcomes:?}");
    assert_eq!(stale.len(), 1);
    assert_eq!(stale[0]["code"], "stale_version");
    let after = host.snapshot().await;
    let marked = (0..9).filter(|&i| after["view"]["cells"][i] == 0).count();
    let before = (0..9).filter(|&i| snap["view"]["cells"][i] == 0).count();
    assert_eq!(marked, before + 1, "exactly one of the two moves applied");
    srv.stop().await;
}
both_stores!(concurrent_moves, one_of_two_concurrent_moves_applies);

async fn graceful_stop_keeps_every_move(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut guest = srv.join(&invite, "Guest", None).await;
    guest.send(&json!({"type": "take_seat"})).await;
    guest.recv_type("welcome").await;
    let guest_token = guest.token().unwrap();
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    assert_eq!(play(&mut [&mut host, &mut guest], 2).await, 2);
    srv.stop().await;
    // The server closed the sockets on its way out.
    let mut closed = false;
    for _ in 0..20 {
        if host.next().await.is_none() {
            closed = true;
            break;
        }
    }
    assert!(closed);

    let srv = TestServer::start(db).await;
    let mut guest = srv.join(&invite, "Guest", Some(&guest_token)).await;
    assert_eq!(guest.you["seat"], 1);
    assert_eq!(guest.recv_type("snapshot").await["game"]["version"], 2);
    // The web client is served, and table links open it.
    let (status, index) = srv.get_text("/").await;
    assert_eq!(status, 200);
    assert!(index.to_lowercase().contains("<html"));
    let (status, page) = srv.get_text(&format!("/t/{invite}")).await;
    assert_eq!((status, page == index), (200, true));
    assert_eq!(srv.get_text("/no-such-file.js").await.0, 404);
    assert_eq!(srv.get_text("/api/no-such-thing").await.0, 404);
    srv.stop().await;
}
both_stores!(graceful_stop, graceful_stop_keeps_every_move);
