//! Building Cities on the server: a table of bots in each mode plays to its end
//! over real WebSockets, on SQLite and Postgres, exactly as the rules crate plays
//! it alone; a spectator rebuilds every view from the frames and never sees a
//! face-down challenge hand. A seat may ask for its legal moves one part at a
//! time: one building's tiles, or every other move.

#![allow(clippy::unwrap_used)]

use building_cities::{BuildingCities, Options};
use engine::{BotLevel, Setup};
use serde_json::{Value, json};
use testkit::client::patched;
use testkit::server::TestServer;
use testkit::{Client, TestDb, both_stores};

/// The rulebook's tutorial goal: 1,000 Maya in 14 turns, so games are short.
const OBJECTIVE: &str = "obj_tutorial";

async fn bots_play_to_the_end(db: &TestDb, mode: &str, levels: &[BotLevel]) {
    let srv = TestServer::start(db).await;
    let seats = levels.len() as u8;
    let options = json!({"mode": mode, "objective": OBJECTIVE});
    let (invite, spectate, token) = srv
        .create_table_with(json!({
            "game": "building-cities",
            "name": "Host",
            "settings": {"seats": seats, "options": options, "spectators_allowed": true, "public": false}
        }))
        .await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut watcher = srv.join(&spectate, "Watcher", None).await;
    host.send(&json!({"type": "kick", "seat": 0})).await;
    for (seat, level) in levels.iter().enumerate() {
        host.send(&json!({"type": "add_bot", "seat": seat, "level": level}))
            .await;
    }
    host.send(&json!({"type": "start"})).await;

    let snap = watcher.recv_type("snapshot").await;
    let mut view = snap["game"]["view"].clone();
    let mut version = 0u64;
    let outcome = loop {
        let m = watcher.recv().await;
        if m["type"] != "update" {
            continue;
        }
        version += 1;
        assert_eq!(m["version"].as_u64(), Some(version));
        view = patched(&view, &m);
        if m.get("outcome").is_some() {
            break m["outcome"].clone();
        }
    };
    // The spectator's last view is the rules crate's public view at the end.
    let (status, record) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        json!(testkit::client::record_views(&record).last()),
        json!(view)
    );
    let seed = testkit::record_seed(&record).expect("seed revealed after the game");
    let setup = Setup {
        seats,
        seed,
        options: serde_json::from_value::<Options>(options).unwrap(),
        first_seat: None,
    };
    let (game, log) =
        engine::play_out::<BuildingCities>(&setup, levels, server::bot_seed(seed), 100_000)
            .expect("engine play-out");
    assert_eq!(record["entries"], serde_json::to_value(&log).unwrap());
    assert_eq!(
        outcome,
        serde_json::to_value(engine::Game::outcome(&game)).unwrap()
    );
    // (A greedy solo mayor may go bankrupt within his first turns: a short game.)
    assert!(version > 0, "the bots played");
    srv.stop().await;
}

async fn solo(db: &TestDb) {
    bots_play_to_the_end(db, "solo", &[BotLevel::Greedy]).await;
}
both_stores!(a_solo_game_plays_to_its_end, solo);

async fn fair_play(db: &TestDb) {
    bots_play_to_the_end(db, "fair_play", &[BotLevel::Greedy, BotLevel::Random]).await;
}
both_stores!(a_fair_play_game_plays_to_its_end, fair_play);

async fn despicable(db: &TestDb) {
    bots_play_to_the_end(
        db,
        "despicable",
        &[BotLevel::Greedy, BotLevel::Random, BotLevel::Greedy],
    )
    .await;
}
both_stores!(a_despicable_game_plays_to_its_end, despicable);

/// Ruling H: the room's own cards. The host's titles reach every visitor
/// through the table's options (cleaned of control characters); the game names
/// the cards by id only; a card the rules refuse is a `bad_settings` with the
/// option, the entry and the problem.
async fn room_cards(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let custom = json!({
        "mode": "solo",
        "objective": "obj_blank_1",
        "custom_objectives": [{"title": "Five\nthousand", "goals": [{"kind": "bank", "amount": 5000}], "turn_limit": 50}],
        "custom_events": [{"title": "Street\u{7} fair", "effect": {"kind": "gain_maya", "amount": 80}}],
    });
    let (invite, spectate, token) = srv
        .create_table_with(json!({
            "game": "building-cities",
            "name": "Host",
            "settings": {"seats": 1, "options": custom, "spectators_allowed": true, "public": false}
        }))
        .await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut watcher = srv.join(&spectate, "Watcher", None).await;
    let options = &watcher.table().await["settings"]["options"];
    assert_eq!(options["custom_objectives"][0]["title"], "Five thousand");
    assert_eq!(options["custom_events"][0]["title"], "Street fair");
    assert_eq!(options["custom_events"][0]["effect"]["amount"], 80);
    host.send(&json!({"type": "start"})).await;
    let snap = watcher.recv_type("snapshot").await;
    assert_eq!(snap["game"]["view"]["objective"], "obj_blank_1");
    assert!(
        !snap.to_string().contains("Five thousand"),
        "no title in views"
    );

    let bad = json!({"custom_events": [
        {"title": "Calm", "effect": {"kind": "nothing"}},
        {"title": "Ruin", "effect": {"kind": "lose_maya", "amount": 9000}},
    ]});
    let (status, e) = srv
        .post(
            "/api/tables",
            &json!({"game": "building-cities", "name": "Host", "settings": {"seats": 1, "options": bad, "spectators_allowed": true, "public": false}}),
        )
        .await;
    assert_eq!(status, 400, "{e}");
    assert_eq!(
        e,
        json!({"code": "bad_settings", "args": {"reason": "option_invalid", "option": "custom_events", "item": 2, "problem": "amount", "max": 5000}})
    );
    srv.stop().await;
}
both_stores!(room_cards_reach_the_browser_through_the_options, room_cards);

/// Asks for the seat's legal moves, all or the part `of` names.
async fn legal(c: &mut Client, of: Option<&str>) -> Value {
    let ask = match of {
        Some(of) => json!({"type": "legal_moves", "of": of}),
        None => json!({"type": "legal_moves"}),
    };
    c.send(&ask).await;
    c.recv_type("legal_moves").await
}

fn tiles_of<'a>(moves: &'a Value, building: &str) -> Vec<&'a Value> {
    moves
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["type"] == "tile" && m["building"] == building)
        .collect()
}

/// `legal_moves` with `of`: one building's tile moves, or every move but the
/// tiles, each echoing its `of`; an `of` too long is refused and changes
/// nothing. A listed tile, previewed, plays as it is listed.
async fn legal_moves_in_parts(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, token) = srv
        .create_table_with(json!({
            "game": "building-cities",
            "name": "Host",
            "settings": {"seats": 1, "options": {"objective": OBJECTIVE}, "spectators_allowed": false, "public": false}
        }))
        .await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    // The first move of a city is its junction road; then both grids may go
    // next to it.
    let first = legal(&mut host, None).await;
    assert!(first.get("of").is_none(), "{first}");
    assert_eq!(first["moves"][0]["type"], "road", "{first}");
    host.send(&json!({"type": "move", "id": 1, "version": 0, "mv": first["moves"][0]}))
        .await;
    host.recv_type("move_ok").await;

    let full = legal(&mut host, None).await;
    assert_eq!(full["version"], 1);
    let grid = legal(&mut host, Some("power_grid")).await;
    assert_eq!(
        (&grid["version"], &grid["of"]),
        (&json!(1), &json!("power_grid"))
    );
    assert!(!tiles_of(&full["moves"], "power_grid").is_empty(), "{full}");
    assert_eq!(
        grid["moves"].as_array().unwrap().iter().collect::<Vec<_>>(),
        tiles_of(&full["moves"], "power_grid")
    );
    let other = legal(&mut host, Some(building_cities::OTHER)).await;
    assert_eq!(other["of"], "other");
    let untiled: Vec<&Value> = full["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["type"] != "tile")
        .collect();
    assert!(untiled.iter().any(|m| m["type"] == "road"), "{full}");
    assert_eq!(
        other["moves"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        untiled
    );
    // A house waits for both grids (B3); no such building lists nothing.
    for of in ["house", "castle"] {
        let none = legal(&mut host, Some(of)).await;
        assert_eq!((&none["of"], &none["moves"]), (&json!(of), &json!([])));
    }

    let before = host.snapshot().await;
    let longest = "x".repeat(protocol::MAX_LEGAL_MOVES_OF_CHARS);
    assert_eq!(legal(&mut host, Some(&longest)).await["moves"], json!([]));
    host.send(&json!({"type": "legal_moves", "of": format!("{longest}x")}))
        .await;
    let e = host.expect_error("bad_legal_moves_of").await;
    assert_eq!(
        e["args"]["max_chars"],
        json!(protocol::MAX_LEGAL_MOVES_OF_CHARS)
    );
    assert_eq!(
        host.snapshot().await,
        before,
        "a refused request changes nothing"
    );
    assert_eq!(legal(&mut host, Some("power_grid")).await, grid);

    // A listed tile carries its preview; sent back as listed, it plays.
    let listed = &grid["moves"][0];
    let preview = &listed["preview"];
    assert_eq!(
        (&preview["cost"], &preview["moves"]),
        (&json!(10), &json!(1)),
        "{listed}"
    );
    assert!(preview["value"].is_i64(), "{listed}");
    host.send(&json!({"type": "move", "id": 2, "version": 1, "mv": listed}))
        .await;
    host.recv_type("move_ok").await;
    assert!(legal(&mut host, Some("power_grid")).await["moves"] == json!([]));
    srv.stop().await;
}
both_stores!(
    legal_moves_of_one_building_or_the_rest,
    legal_moves_in_parts
);

/// The spectator's views never carry a hand's cards.
#[test]
fn spectators_see_hand_counts_only() {
    fn hands(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k.contains("hand") && !x.is_number() && !x.is_null() {
                        out.push(format!("{k}: {x}"));
                    }
                    hands(x, out);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| hands(x, out)),
            _ => {}
        }
    }
    use engine::{Game, GameRng, Viewer};
    let setup = Setup {
        seats: 3,
        seed: 4,
        options: serde_json::from_value::<Options>(
            // A long objective, so that challenges (after a second district) come.
            json!({"mode": "despicable", "objective": "obj_twelve_offices"}),
        )
        .unwrap(),
        first_seat: None,
    };
    let mut game = BuildingCities::new(&setup).unwrap();
    let mut rng = GameRng::new(9);
    let mut held = 0;
    for _ in 0..20_000 {
        if game.outcome().is_some() {
            break;
        }
        let seat = game.awaiting().seats[0];
        let mv = game.bot_move(seat, BotLevel::Greedy, &mut rng).unwrap();
        game.apply(seat, &mv).unwrap();
        let mut found = Vec::new();
        hands(
            &serde_json::to_value(game.view(Viewer::Spectator)).unwrap(),
            &mut found,
        );
        assert!(found.is_empty(), "{found:?}");
        held += (0..3)
            .map(|s| {
                serde_json::to_value(game.private_view(s)).unwrap()["hand"]
                    .as_array()
                    .map_or(0, Vec::len)
            })
            .sum::<usize>();
    }
    assert!(held > 0, "some challenge was held face down");
}
