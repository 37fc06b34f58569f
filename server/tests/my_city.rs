//! My City through the protocol, against SQLite and Postgres: three bots play a
//! whole game of simultaneous decisions; a spectator following the patches sees the
//! recorded views and never a decision before its reveal; the move log and the
//! result are exactly those of the engine alone (`engine::play_out`) with the seed
//! revealed after the game.

#![allow(clippy::unwrap_used)]

use engine::{BotLevel, Setup};
use my_city::{MyCity, Options};
use serde_json::{Value, json};
use testkit::client::patched;
use testkit::server::TestServer;
use testkit::{TestDb, both_stores};

/// Placements of every seat in a view.
fn placements(view: &Value) -> Vec<usize> {
    view["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["placements"].as_array().map_or(0, Vec::len))
        .collect()
}

async fn three_bots_play_like_the_engine(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, spectate, token) = srv.create_table("my-city", 3, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut watcher = srv.join(&spectate, "Watcher", None).await;
    assert!(
        watcher.you.get("seat").is_none(),
        "the watcher holds no seat"
    );
    let levels = [BotLevel::Greedy, BotLevel::Random, BotLevel::Greedy];
    host.send(&json!({"type": "kick", "seat": 0})).await;
    for (seat, level) in levels.iter().enumerate() {
        host.send(&json!({"type": "add_bot", "seat": seat, "level": level}))
            .await;
    }
    host.send(&json!({"type": "start"})).await;

    let snap = watcher.recv_type("snapshot").await;
    assert_eq!(snap["game"]["version"], 0);
    let mut view = snap["game"]["view"].clone();
    assert_eq!(view["seat"], Value::Null, "a spectator's view");
    assert_eq!(view["round"], 1);
    assert_eq!(
        view["awaiting"],
        json!([0, 1, 2]),
        "everyone decides at once"
    );
    let mut views = vec![view.clone()];
    let mut reveals = 0;
    let outcome = loop {
        let m = watcher.recv().await;
        if m["type"] != "update" {
            continue;
        }
        assert_eq!(m["version"].as_u64(), Some(views.len() as u64));
        let before = placements(&view);
        view = patched(&view, &m);
        let events = m["events"].as_array().expect("events");
        let revealed = events.iter().any(|e| e["type"] == "decisions_revealed");
        for e in events {
            if e["type"] == "decided" {
                let mut keys: Vec<&str> =
                    e.as_object().unwrap().keys().map(String::as_str).collect();
                keys.sort_unstable();
                assert_eq!(
                    keys,
                    ["seat", "type"],
                    "a decision is announced, never what: {e}"
                );
            }
        }
        if revealed {
            reveals += 1;
        } else {
            // Before the reveal, no city changes and no decision shows.
            assert_eq!(placements(&view), before, "no building before the reveal");
            let text = m.to_string();
            assert!(
                !text.contains("\"place\"")
                    && !text.contains("\"pass\"")
                    && !text.contains("end_participation"),
                "no decision before the reveal: {text}"
            );
        }
        assert_eq!(
            view["my_decision"],
            Value::Null,
            "a spectator has no decision"
        );
        views.push(view.clone());
        if m.get("outcome").is_some() {
            break m["outcome"].clone();
        }
    };
    assert!(reveals >= 3, "several rounds were revealed ({reveals})");
    assert_eq!(view["game_over"], true);
    let finals = view["final_scores"]
        .as_array()
        .expect("final scores")
        .clone();
    assert_eq!(finals.len(), 3);
    for (seat, score) in finals.iter().enumerate() {
        assert_eq!(
            outcome["scores"][seat], score["total"],
            "seat {seat}: outcome = final total"
        );
    }
    assert_eq!(outcome["winners"], view["winners"]);

    let (status, record) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        json!(testkit::client::record_views(&record)),
        json!(views),
        "patched views match the record"
    );
    assert_eq!(record["outcome"], outcome);
    let seed = testkit::record_seed(&record).expect("seed revealed after the game");
    let setup = Setup {
        seats: 3,
        seed,
        options: Options::default(),
        first_seat: None,
    };
    let (game, log) = engine::play_out::<MyCity>(&setup, &levels, server::bot_seed(seed), 1000)
        .expect("engine play-out");
    assert_eq!(
        record["entries"],
        serde_json::to_value(&log).unwrap(),
        "same move log"
    );
    assert_eq!(
        outcome,
        serde_json::to_value(engine::Game::outcome(&game)).unwrap(),
        "same result"
    );
    srv.stop().await;
}
both_stores!(bots_match_engine, three_bots_play_like_the_engine);

/// A seated player's own decision shows in his view only; the other seat and the
/// spectator learn only that he decided, until the reveal.
async fn a_decision_stays_hidden_until_the_reveal(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, spectate, token) = srv.create_table("my-city", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut guest = srv.join(&invite, "Guest", None).await;
    guest.send(&json!({"type": "take_seat", "seat": 1})).await;
    assert_eq!(guest.recv_type("welcome").await["you"]["seat"], 1);
    let mut watcher = srv.join(&spectate, "Watcher", None).await;
    host.send(&json!({"type": "start"})).await;
    let snap = host.recv_type("snapshot").await["game"].clone();
    guest.recv_type("snapshot").await;
    watcher.recv_type("snapshot").await;
    assert_eq!(snap["awaiting"]["seats"], json!([0, 1]));

    host.send(&json!({"type": "legal_moves"})).await;
    let legal = host.recv_type("legal_moves").await;
    let mv = legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["type"] == "place")
        .expect("a placement")
        .clone();
    host.send(&json!({"type": "move", "id": 1, "version": 0, "mv": mv}))
        .await;
    let mine = host.recv_type("update").await;
    host.recv_type("move_ok").await;
    let host_view = patched(&snap["view"], &mine);
    assert_eq!(
        host_view["my_decision"], mv,
        "the host sees his own decision"
    );
    for other in [&mut guest, &mut watcher] {
        let u = other.recv_type("update").await;
        let text = u.to_string();
        assert!(!text.contains("\"place\""), "nobody else sees it: {text}");
        assert_eq!(u["events"], json!([{"type": "decided", "seat": 0}]));
        assert_eq!(u["awaiting"]["seats"], json!([1]));
    }
    // A second decision by the same seat is refused and changes nothing.
    host.send(&json!({"type": "move", "id": 2, "version": 1, "mv": {"type": "pass"}}))
        .await;
    let e = host.expect_error("not_your_turn").await;
    assert_eq!(e["id"], 2);

    // Passing is not allowed when the card is a church (ruling R3): then the guest
    // ends his participation instead.
    guest.send(&json!({"type": "legal_moves"})).await;
    let legal = guest.recv_type("legal_moves").await;
    let pass = json!({"type": "pass"});
    let guest_move = if legal["moves"].as_array().unwrap().contains(&pass) {
        pass
    } else {
        json!({"type": "end_participation"})
    };
    guest
        .send(&json!({"type": "move", "id": 3, "version": 1, "mv": guest_move}))
        .await;
    let u = watcher.recv_type("update").await;
    let revealed = u["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "decisions_revealed")
        .expect("the reveal")
        .clone();
    assert_eq!(revealed["decisions"][0]["action"], "place");
    assert_eq!(revealed["decisions"][1]["action"], guest_move["type"]);
    srv.stop().await;
}
both_stores!(
    hidden_until_reveal,
    a_decision_stays_hidden_until_the_reveal
);

/// Players deciding at once don't make each other's moves stale: a decision made on
/// the round's first version is accepted after another seat's decision landed, while
/// a move made before the seat's own latest move, or before the round began, is stale.
async fn simultaneous_decisions_are_not_stale(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _spectate, token) = srv.create_table("my-city", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut guest = srv.join(&invite, "Guest", None).await;
    guest.send(&json!({"type": "take_seat", "seat": 1})).await;
    assert_eq!(guest.recv_type("welcome").await["you"]["seat"], 1);
    host.send(&json!({"type": "start"})).await;
    assert_eq!(host.recv_type("snapshot").await["game"]["version"], 0);
    assert_eq!(guest.recv_type("snapshot").await["game"]["version"], 0);

    let placement = |c: &Value| {
        c["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["type"] == "place")
            .expect("a placement")
            .clone()
    };
    host.send(&json!({"type": "legal_moves"})).await;
    let host_move = placement(&host.recv_type("legal_moves").await);
    guest.send(&json!({"type": "legal_moves"})).await;
    let guest_move = placement(&guest.recv_type("legal_moves").await);

    host.send(&json!({"type": "move", "id": 1, "version": 0, "mv": host_move}))
        .await;
    assert_eq!(host.recv_type("move_ok").await["version"], 1);
    // The guest decided on version 0 too, before seeing the host's decision.
    guest
        .send(&json!({"type": "move", "id": 2, "version": 0, "mv": guest_move}))
        .await;
    let ok = guest.recv_type("move_ok").await;
    assert_eq!(ok["id"], 2);
    assert_eq!(ok["version"], 2, "both decisions are in the log");

    // The round was revealed: a move made on the old round is stale.
    host.send(&json!({"type": "move", "id": 3, "version": 1, "mv": {"type": "pass"}}))
        .await;
    let err = host.expect_error("stale_version").await;
    assert_eq!(err["id"], 3);
    srv.stop().await;
}
both_stores!(simultaneous_not_stale, simultaneous_decisions_are_not_stale);
