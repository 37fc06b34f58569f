//! A whole Big City game through the protocol (two clients, a bot, a spectator):
//! no message to a spectator or an opponent ever carries another seat's card
//! faces or the seed, and bots alone end exactly as the engine alone.

#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use big_city::BigCity;
use engine::{BotLevel, Setup};
use serde_json::{Value, json};
use testkit::client::GameView;
use testkit::server::TestServer;
use testkit::{Client, TestDb, both_stores};

/// What one recipient has seen, rebuilt from snapshots and patches.
#[derive(Default)]
struct Seen {
    game: GameView,
    raw: Vec<String>,
    updates: usize,
}

/// Checks one view: faces of other seats' hands and trade offers are absent.
fn assert_no_foreign_faces(view: &Value, viewer: Option<u64>) {
    assert_eq!(
        view["viewer"].as_u64(),
        viewer,
        "the view is the recipient's"
    );
    for hand in view["hands"].as_array().expect("hands") {
        if hand["seat"].as_u64() != viewer {
            assert!(
                hand["cards"].is_null(),
                "another seat's cards leaked: {hand}"
            );
        }
    }
    let trade = &view["trade"];
    if !trade.is_null() && trade["seat"].as_u64() != viewer {
        assert!(
            trade["offered_cards"].is_null(),
            "offered faces leaked: {trade}"
        );
    }
}

fn watch(client: &mut Client, viewer: Option<u64>) -> Arc<Mutex<Seen>> {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let s = seen.clone();
    client.check = Some(Box::new(move |raw, msg| {
        let mut seen = s.lock().unwrap();
        seen.raw.push(raw.to_owned());
        match msg["type"].as_str() {
            Some("snapshot") => {
                seen.game = GameView::from_snapshot(&msg["game"]).unwrap();
            }
            Some("update") => {
                // No update missed, and each applies.
                seen.game
                    .apply_update(msg)
                    .unwrap_or_else(|e| panic!("{e}"));
                seen.updates += 1;
            }
            Some("legal_moves") => assert!(viewer.is_some(), "only seats get legal moves"),
            _ => return,
        }
        let view = seen.game.view.clone();
        assert_no_foreign_faces(&view, viewer);
    }));
    seen
}

/// A small deterministic generator for the clients' choices.
struct Pick(u64);

impl Pick {
    fn index(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

async fn no_foreign_faces_in_any_message(db: &TestDb) {
    // Clients here play far faster than people: lift the message rate limits,
    // per connection and (no connection limit) per address.
    let config = server::Config {
        rate_per_second: 10_000.0,
        rate_burst: 10_000.0,
        max_connections_per_address: 0,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(db, config).await;
    let (invite, spectate, token) = srv
        .create_table_with(json!({
            "game": "big-city", "name": "Ana",
            "settings": {"seats": 3, "spectators_allowed": true, "public": false,
                         "options": {"trade_cards": true, "trade_window_ms": 300,
                                     "useless_must_be_exchanged": false, "single_streetcar_line": false,
                                     "limited_streetcar_line": false, "limited_card_drawing": false}}
        }))
        .await;
    let mut a = srv.join(&invite, "Ana", Some(&token)).await;
    let mut b = srv.join(&invite, "Bo", None).await;
    b.send(&json!({"type": "take_seat", "seat": 1})).await;
    b.recv_type("welcome").await;
    let mut s = srv.join(&spectate, "Eve", None).await;
    a.send(&json!({"type": "add_bot", "seat": 2, "level": "greedy"}))
        .await;
    let seen_a = watch(&mut a, Some(0));
    let seen_b = watch(&mut b, Some(1));
    let seen_s = watch(&mut s, None);
    a.send(&json!({"type": "start"})).await;

    let mut pick = Pick(0x2545_f491_4f6c_dd1d);
    let mut moves = 0;
    let mut next: Option<Value> = None;
    let mut awaiting = Value::Null;
    loop {
        let m = match next.take() {
            Some(m) => m,
            None => a.recv().await,
        };
        match m["type"].as_str() {
            Some("update") if m.get("outcome").is_some() => break,
            Some("snapshot") if m["game"].get("outcome").is_some() => break,
            // An update without `awaiting` leaves it as it was.
            Some("update") => {
                if let Some(seats) = m.get("awaiting") {
                    awaiting = seats["seats"].clone();
                }
            }
            Some("snapshot") => awaiting = m["game"]["awaiting"]["seats"].clone(),
            _ => continue,
        }
        for seat in awaiting
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_u64)
        {
            let mover = match seat {
                0 => &mut a,
                1 => &mut b,
                _ => continue,
            };
            mover.send(&json!({"type": "legal_moves"})).await;
            let legal = mover.recv_type("legal_moves").await;
            let options = legal["moves"].as_array().unwrap();
            if options.is_empty() {
                continue;
            }
            // Mostly the most constructive kind of move (build, place, streetcar,
            // draw...), sometimes any kind; then one move of that kind.
            let mut kinds: Vec<&Value> = options.iter().map(|m| &m["type"]).collect();
            kinds.dedup();
            const PREFERRED: [&str; 6] = [
                "build",
                "place_neighborhood",
                "streetcar",
                "draw",
                "done",
                "trade_accept",
            ];
            let kind = match PREFERRED.iter().find(|k| kinds.iter().any(|x| *x == **k)) {
                Some(k) if pick.index(10) < 8 => json!(k),
                _ => kinds[pick.index(kinds.len())].clone(),
            };
            let of_kind: Vec<&Value> = options.iter().filter(|m| m["type"] == kind).collect();
            let mv = of_kind[pick.index(of_kind.len())].clone();
            moves += 1;
            mover
                .send(&json!({"type": "move", "id": moves, "version": legal["version"], "mv": mv}))
                .await;
            // Acknowledged, or refused because the game moved on meanwhile.
            loop {
                let r = mover.recv().await;
                // The mover's reading may take the update that says who is next.
                if r["type"] == "update" {
                    next = Some(r.clone());
                }
                if r["type"] == "move_ok" {
                    break;
                }
                if r["type"] == "error" {
                    assert!(
                        ["stale_version", "not_your_turn"].contains(&r["code"].as_str().unwrap()),
                        "{r}"
                    );
                    break;
                }
            }
        }
        assert!(moves < 20_000, "the game ends");
    }
    let last = seen_a
        .lock()
        .unwrap()
        .game
        .version
        .max(seen_b.lock().unwrap().game.version);
    for (c, seen) in [(&mut a, &seen_a), (&mut b, &seen_b), (&mut s, &seen_s)] {
        while seen.lock().unwrap().game.version < last {
            c.recv().await;
        }
    }
    let (status, record) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 200);
    let seed = testkit::record_seed(&record).unwrap().to_string();
    let entries = record["entries"].as_array().unwrap().len() as u64;
    eprintln!("{entries} entries, {moves} client moves");
    for (who, seen) in [("Ana", &seen_a), ("Bo", &seen_b), ("Eve", &seen_s)] {
        let seen = seen.lock().unwrap();
        assert_eq!(seen.game.version, entries, "{who} followed the whole game");
        assert!(seen.updates > 0);
        for raw in &seen.raw {
            assert!(!raw.contains(&seed), "{who} saw the seed during the game");
            assert!(!raw.contains("\"seed\""), "{who} saw a seed field");
        }
    }
    // The spectator's rebuilt view is the record's final public view.
    assert_eq!(
        seen_s.lock().unwrap().game.view,
        *testkit::client::record_views(&record).last().unwrap()
    );
    srv.stop().await;
}
both_stores!(hidden_information, no_foreign_faces_in_any_message);

async fn bots_play_big_city_like_the_engine(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, token) = srv
        .create_table_with(json!({
            "game": "big-city", "name": "Host",
            "settings": {"seats": 3, "spectators_allowed": true, "public": false,
                         "options": serde_json::to_value(big_city::Options::default()).unwrap()}
        }))
        .await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    host.send(&json!({"type": "kick", "seat": 0})).await;
    for (seat, level) in [(0, "greedy"), (1, "random"), (2, "greedy")] {
        host.send(&json!({"type": "add_bot", "seat": seat, "level": level}))
            .await;
    }
    host.send(&json!({"type": "start"})).await;
    let outcome = loop {
        let m = host.recv().await;
        if m["type"] == "update"
            && let Some(o) = m.get("outcome")
        {
            break o.clone();
        }
    };
    let (status, record) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 200);
    let seed = testkit::record_seed(&record).unwrap();
    let setup = Setup {
        seats: 3,
        seed,
        options: big_city::Options::default(),
        first_seat: None,
    };
    let (game, log) = engine::play_out::<BigCity>(
        &setup,
        &[BotLevel::Greedy, BotLevel::Random, BotLevel::Greedy],
        server::bot_seed(seed),
        100_000,
    )
    .expect("engine play-out");
    assert_eq!(record["entries"], serde_json::to_value(&log).unwrap());
    assert_eq!(
        outcome,
        serde_json::to_value(engine::Game::outcome(&game)).unwrap()
    );
    srv.stop().await;
}
both_stores!(bots_match_engine, bots_play_big_city_like_the_engine);
