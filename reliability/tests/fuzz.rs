//! Bad input, generated: nothing panics, each case gets its error, state is
//! untouched by a refused move, and the game (or room) keeps working afterwards.
//!
//! - `decoder_*`: the client message decoder on arbitrary bytes, arbitrary JSON
//!   shaped like protocol messages, deep nesting and huge numbers.
//! - `moves_*`: every game's move handling (typed `apply` and the server's JSON
//!   adapter) on legal moves mutated with extreme numbers, dropped fields,
//!   wrong tags and random JSON, for random seats at random points of a game;
//!   a refused move leaves the state equal, and a legal move applies afterwards.
//! - `socket_*`: a live server (in process, memory store): malformed and
//!   adversarial frames, oversized frames, floods of messages and connections;
//!   each gets its error code, the server keeps serving, a legal move applies.
//!
//! `CITYTABLE_FUZZ_CASES` (default 64) sets the number of generated cases per
//! property. Failing cases are kept by proptest in `tests/fuzz.proptest-regressions`.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use engine::{BotLevel, Game, GameRng, Seat, Setup, Viewer};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use protocol::{ClientMsg, RawJson};
use serde_json::{Value, json};
use testkit::Client;
use testkit::client::Message;
use testkit::server::TestServer;

fn cases() -> u32 {
    std::env::var("CITYTABLE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct(
                "tests/fuzz.proptest-regressions",
            ),
        )),
        ..ProptestConfig::default()
    }
}

const CORPUS: &str = include_str!("corpus/client_frames.jsonl");

const KEYS: &[&str] = &[
    "type",
    "token",
    "code",
    "name",
    "seat",
    "settings",
    "seats",
    "options",
    "turn_seconds",
    "spectators_allowed",
    "public",
    "level",
    "id",
    "version",
    "mv",
    "of",
    "text",
    "cell",
    "cells",
    "piece",
    "card",
    "cards",
    "stack",
    "neighborhood",
    "x",
    "y",
    "rotation",
    "segment",
    "x1",
    "y1",
    "x2",
    "y2",
    "picks",
    "give",
    "index",
    "wanted",
];

const TAGS: &[&str] = &[
    "hello",
    "take_seat",
    "leave_seat",
    "configure",
    "add_bot",
    "kick",
    "start",
    "move",
    "legal_moves",
    "resync",
    "chat",
    "play_again",
    "place_neighborhood",
    "build",
    "streetcar",
    "done",
    "exchange",
    "pass",
    "discard_useless",
    "draw",
    "trade_offer",
    "trade_answer",
    "trade_accept",
    "place",
    "end_participation",
];

fn extreme() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(255)),
        Just(json!(256)),
        Just(json!(65535)),
        Just(json!(65536)),
        Just(json!(i16::MIN)),
        Just(json!(i16::MAX)),
        Just(json!(i32::MIN)),
        Just(json!(i64::MIN)),
        Just(json!(i64::MAX)),
        Just(json!(u64::MAX)),
        Just(json!(1e300)),
        Just(json!(-1e300)),
        Just(json!(0.5)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u8>().prop_map(|n| json!(n)),
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        extreme(),
        prop::sample::select(TAGS).prop_map(Value::from),
        "[a-z_]{0,12}".prop_map(Value::from),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        prop::sample::select(KEYS).prop_map(String::from),
                        "[a-z_]{1,8}"
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A protocol-looking object: a known tag and random fields.
fn arb_message() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(TAGS),
        prop::collection::vec((prop::sample::select(KEYS), arb_json()), 0..5),
    )
        .prop_map(|(tag, fields)| {
            let mut o: serde_json::Map<String, Value> =
                fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            o.insert("type".into(), json!(tag));
            Value::Object(o)
        })
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn decoder_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let _ = serde_json::from_slice::<ClientMsg>(&bytes);
    }

    #[test]
    fn decoder_protocol_shaped_json(v in prop_oneof![arb_message(), arb_json()]) {
        let text = v.to_string();
        if let Ok(msg) = serde_json::from_str::<ClientMsg>(&text) {
            // Whatever decodes encodes back to something that decodes the same.
            let again = serde_json::to_string(&msg).unwrap();
            prop_assert_eq!(serde_json::from_str::<ClientMsg>(&again).unwrap(), msg);
        }
    }
}

/// The committed corpus: every frame decodes or is refused without a panic, and
/// every game's adapter refuses (or applies) each one's `mv` without a panic.
#[test]
fn decoder_and_moves_on_the_corpus() {
    let registry = server::games::Registry::all();
    let mut n = 0;
    for line in CORPUS.lines() {
        let _ = serde_json::from_str::<ClientMsg>(line);
        if let Ok(v) = serde_json::from_str::<Value>(line) {
            for kind in registry.kinds() {
                let seats = *kind.seats().start();
                let setup = server::games::SetupDoc {
                    seats,
                    seed: 7,
                    salt: None,
                    options: kind.default_options(),
                    first_seat: None,
                    names: Vec::new(),
                };
                let game = kind.start(&setup).unwrap();
                for seat in 0..seats {
                    let _ = game.try_move(seat, &RawJson::of(&v["mv"]).unwrap());
                    let _ = game.try_move(seat, &RawJson::of(&v).unwrap());
                }
            }
        }
        n += 1;
    }
    assert!(n >= 30, "the corpus is there ({n} frames)");
}

/// Found by the cargo-fuzz target `client_msg`: a long decimal inside a move decoded
/// to one float, and that float re-encoded decoded to another (serde_json parses
/// floats exactly only with its `float_roundtrip` feature, now on).
#[test]
fn decoder_floats_survive_decode_encode_decode() {
    let digits = format!("25{}.{}", "3".repeat(35), "3".repeat(33));
    for number in [
        digits.as_str(),
        "0.1",
        "1e-300",
        "2.5333333333333337e36",
        "-7.0e22",
    ] {
        let text = format!(
            r#"{{"type":"move","id":1,"version":0,"mv":{{"type":"exchange","cards":[1,{number}]}}}}"#
        );
        let msg: ClientMsg = serde_json::from_str(&text).unwrap();
        let again: ClientMsg = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        assert_eq!(again, msg, "{number}");
    }
}

#[test]
fn decoder_deep_nesting_and_huge_numbers() {
    for depth in [100, 1_000, 100_000] {
        let mv = nested(depth);
        let text = format!(r#"{{"type":"move","id":1,"version":0,"mv":{mv}}}"#);
        let r = serde_json::from_str::<ClientMsg>(&text);
        if depth > 127 {
            assert!(r.is_err(), "nesting {depth} is refused, not followed");
        }
        let _ = serde_json::from_str::<ClientMsg>(&nested(depth));
    }
    for number in [
        "18446744073709551616",
        "-1",
        "1e999999",
        "99999999999999999999999999999999999999999999",
        "1.5",
    ] {
        let text = format!(r#"{{"type":"move","id":{number},"version":{number},"mv":{{}}}}"#);
        assert!(
            serde_json::from_str::<ClientMsg>(&text).is_err(),
            "{number} is not a u64"
        );
    }
    let long = format!(r#"{{"type":"chat","text":"{}"}}"#, "x".repeat(1 << 20));
    assert!(serde_json::from_str::<ClientMsg>(&long).is_ok());
}

// ----- every game's move handling -----

#[derive(Clone, Debug)]
enum Mutation {
    Keep,
    Number(usize, Value),
    Drop(usize),
    Tag(&'static str),
    Random(Value),
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => Just(Mutation::Keep),
        4 => (any::<usize>(), extreme()).prop_map(|(i, v)| Mutation::Number(i, v)),
        1 => any::<usize>().prop_map(Mutation::Drop),
        1 => prop::sample::select(TAGS).prop_map(Mutation::Tag),
        2 => arb_json().prop_map(Mutation::Random),
    ]
}

fn count_numbers(v: &Value) -> usize {
    match v {
        Value::Number(_) => 1,
        Value::Array(a) => a.iter().map(count_numbers).sum(),
        Value::Object(o) => o.values().map(count_numbers).sum(),
        _ => 0,
    }
}

/// Replaces the `k`-th number (depth first); returns whether it was found.
fn set_number(v: &mut Value, k: &mut usize, x: &Value) -> bool {
    match v {
        Value::Number(_) => {
            if *k == 0 {
                *v = x.clone();
                return true;
            }
            *k -= 1;
            false
        }
        Value::Array(a) => a.iter_mut().any(|y| set_number(y, k, x)),
        Value::Object(o) => o.values_mut().any(|y| set_number(y, k, x)),
        _ => false,
    }
}

fn mutate(base: &Value, m: &Mutation) -> Value {
    let mut v = base.clone();
    match m {
        Mutation::Keep => {}
        Mutation::Number(i, x) => {
            let n = count_numbers(&v);
            if n > 0 {
                set_number(&mut v, &mut (i % n), x);
            }
        }
        Mutation::Drop(i) => {
            if let Value::Object(o) = &mut v {
                let keys: Vec<String> = o.keys().filter(|k| *k != "type").cloned().collect();
                if !keys.is_empty() {
                    o.remove(&keys[i % keys.len()]);
                }
            }
        }
        Mutation::Tag(t) => {
            if let Value::Object(o) = &mut v {
                o.insert("type".into(), json!(t));
            }
        }
        Mutation::Random(r) => v = r.clone(),
    }
    v
}

/// Plays `prefix` bot moves, then throws mutated moves at random seats: the typed
/// `apply` leaves the state equal when it refuses, the server's adapter never
/// panics and agrees with it, and afterwards a legal move still applies.
fn fuzz_game<G: Game>(
    seed: u64,
    seats: u8,
    prefix: usize,
    attempts: &[(u8, usize, Mutation)],
) -> Result<(), TestCaseError>
where
    G::Options: Default,
{
    let setup = Setup {
        seats,
        seed,
        options: G::Options::default(),
        first_seat: None,
    };
    let (mut game, log) = engine::play_out::<G>(&setup, &[BotLevel::Random], seed ^ 1, prefix)
        .map_err(|e| TestCaseError::fail(format!("play-out: {e}")))?;
    let kind = server::games::Registry::all().get(G::ID).unwrap();
    let doc = server::games::SetupDoc {
        seats,
        seed,
        salt: None,
        options: serde_json::to_value(&setup.options).unwrap(),
        first_seat: None,
        names: Vec::new(),
    };
    let entries: Vec<RawJson> = log.iter().map(|e| RawJson::of(e).unwrap()).collect();
    let entries: Vec<&RawJson> = entries.iter().collect();
    let mut erased = kind.replay(&doc, &entries, &mut |_, _, _| {}).unwrap();
    for (seat, pick, m) in attempts {
        let seat: Seat = seat % seats;
        let legal = game.legal_moves(seat);
        let base = if legal.is_empty() {
            json!({"type": "pass"})
        } else {
            serde_json::to_value(&legal[pick % legal.len()]).unwrap()
        };
        let mv = mutate(&base, m);
        let typed = serde_json::from_value::<G::Move>(mv.clone());
        let via_server = erased.try_move(seat, &RawJson::of(&mv).unwrap());
        match typed {
            Err(_) => prop_assert!(
                matches!(via_server, Err(server::games::MoveError::BadMove(_))),
                "undecodable move refused as bad_move"
            ),
            Ok(typed) => {
                let mut copy = game.clone();
                match copy.apply(seat, &typed) {
                    Err(illegal) => {
                        prop_assert_eq!(format!("{copy:?}"), format!("{game:?}"));
                        prop_assert!(!illegal.code().is_empty());
                        prop_assert!(via_server.is_err(), "the adapter refuses it too");
                    }
                    Ok(_) => {
                        let applied = via_server.map_err(|e| {
                            TestCaseError::fail(format!("adapter refused a legal move: {e:?}"))
                        })?;
                        prop_assert_eq!(
                            applied.state.view(Viewer::Spectator),
                            serde_json::to_value(copy.view(Viewer::Spectator)).unwrap()
                        );
                        game = copy;
                        erased = applied.state;
                    }
                }
            }
        }
    }
    // The game keeps working: a legal move of an awaited seat applies.
    if game.outcome().is_none()
        && let Some(&seat) = game.awaiting().seats.first()
    {
        let mut rng = GameRng::new(seed);
        if let Some(mv) = game.bot_move(seat, BotLevel::Random, &mut rng) {
            prop_assert!(
                game.apply(seat, &mv).is_ok(),
                "a legal move applies afterwards"
            );
            prop_assert!(erased.try_move(seat, &RawJson::of(&mv).unwrap()).is_ok());
        }
    }
    Ok(())
}

fn attempts() -> impl Strategy<Value = Vec<(u8, usize, Mutation)>> {
    prop::collection::vec((any::<u8>(), any::<usize>(), arb_mutation()), 1..24)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn moves_big_city(seed in any::<u64>(), seats in 2u8..=5, prefix in 0usize..400, a in attempts()) {
        fuzz_game::<big_city::BigCity>(seed, seats, prefix, &a)?;
    }

    #[test]
    fn moves_big_cityz(seed in any::<u64>(), seats in 2u8..=6, prefix in 0usize..300, a in attempts()) {
        fuzz_game::<big_cityz::BigCityz>(seed, seats, prefix, &a)?;
    }

    #[test]
    fn moves_building_cities(seed in any::<u64>(), prefix in 0usize..200, a in attempts()) {
        // The default options are the solo game.
        fuzz_game::<building_cities::BuildingCities>(seed, 1, prefix, &a)?;
    }

    #[test]
    fn moves_my_city(seed in any::<u64>(), seats in 1u8..=4, prefix in 0usize..200, a in attempts()) {
        let seats = seats.clamp(*my_city::MyCity::SEATS.start(), *my_city::MyCity::SEATS.end());
        fuzz_game::<my_city::MyCity>(seed, seats, prefix, &a)?;
    }

    #[test]
    fn moves_tic_tac_toe(seed in any::<u64>(), prefix in 0usize..9, a in attempts()) {
        fuzz_game::<tic_tac_toe::TicTacToe>(seed, 2, prefix, &a)?;
    }
}

// ----- a live server -----

/// A server in process on a memory store.
async fn live() -> TestServer {
    TestServer::start_with(
        || async { Arc::new(server::db::MemDb::default()) as Arc<dyn server::db::Db> },
        false,
    )
    .await
}

/// A tic-tac-toe table with the host in seat 0 and a bot in seat 1, started.
async fn table(srv: &TestServer) -> (String, String) {
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Ana", Some(&token)).await;
    host.send(&json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    (invite, token)
}

/// Joins as the host and plays one legal move; returns its `move_ok`.
async fn legal_move_applies(srv: &TestServer, invite: &str, token: &str) -> Value {
    legal_move_applies_on(Client::connect(&srv.ws_url(invite)).await, token).await
}

/// On `c`, a connection to the table, [`legal_move_applies`].
async fn legal_move_applies_on(mut c: Client, token: &str) -> Value {
    c.hello("Ana", Some(token)).await;
    loop {
        let snap = c.recv_type("snapshot").await;
        let version = snap["game"]["version"].as_u64().unwrap();
        if !snap["game"]["awaiting"]["seats"]
            .as_array()
            .unwrap()
            .contains(&json!(0))
        {
            // The bot moves first: wait for it.
            tokio::time::sleep(Duration::from_millis(50)).await;
            c.send(&json!({"type": "resync"})).await;
            continue;
        }
        c.send(&json!({"type": "legal_moves"})).await;
        let legal = c.recv_type("legal_moves").await;
        let mv = legal["moves"][0].clone();
        c.send(&json!({"type": "move", "id": 99, "version": version, "mv": mv}))
            .await;
        loop {
            let m = c.recv().await;
            if m["type"] == "move_ok" {
                return m;
            }
            if m["type"] == "error" {
                panic!("a legal move was refused: {m}");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_adversarial_frames_get_their_errors() {
    let mut srv = live().await;
    let (invite, token) = table(&srv).await;
    let mut c = srv.join(&invite, "Ana", Some(&token)).await;
    let cases: Vec<(Message, &str)> = vec![
        (Message::text("not json"), "bad_message"),
        (Message::text(""), "bad_message"),
        (Message::text("{"), "bad_message"),
        (Message::text("null"), "bad_message"),
        (Message::text("[]"), "bad_message"),
        (Message::text(r#"{"type":"nope"}"#), "bad_message"),
        (
            Message::text(r#"{"type":"chat","text":"hi","extra":1}"#),
            "bad_message",
        ),
        (
            Message::text(r#"{"type":"resync","extra":1}"#),
            "bad_message",
        ),
        (
            Message::text(r#"{"type":"legal_moves","seat":1}"#),
            "bad_message",
        ),
        (Message::text(r#"{"type":"move"}"#), "bad_message"),
        (
            Message::text(r#"{"type":"move","id":18446744073709551616,"version":0,"mv":{}}"#),
            "bad_message",
        ),
        (
            Message::text(r#"{"type":"move","id":1,"version":-1,"mv":{}}"#),
            "bad_message",
        ),
        (
            Message::text(format!(
                r#"{{"type":"move","id":1,"version":0,"mv":{}}}"#,
                nested(20_000)
            )),
            "bad_message",
        ),
        (
            Message::text(r#"{"type":"move","id":5,"version":987654321,"mv":{"cell":1}}"#),
            "stale_version",
        ),
        (
            Message::text(r#"{"type":"hello","name":"Ana"}"#),
            "hello_first",
        ),
        (
            Message::text(r#"{"type":"take_seat","seat":255}"#),
            "wrong_status",
        ),
        (
            Message::text(r#"{"type":"add_bot","seat":200,"level":"random"}"#),
            "no_such_seat",
        ),
        (Message::text(r#"{"type":"chat","text":""}"#), "bad_chat"),
        (
            Message::text(json!({"type": "chat", "text": "x".repeat(501)}).to_string()),
            "bad_chat",
        ),
        (Message::binary(vec![0u8, 159, 146, 150]), "bad_message"),
    ];
    let n = cases.len();
    for (frame, code) in cases {
        c.send_frame(frame).await;
        let m = c.recv_type("error").await;
        assert_eq!(m["code"], code, "{m}");
        // No sentence travels; a sentence that names a limit has it in `args`.
        assert!(m.get("message").is_none(), "{m}");
        if code == "bad_chat" {
            assert_eq!(m["args"]["max_chars"], protocol::MAX_CHAT_CHARS, "{m}");
        }
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    // Over 64 KiB: refused and closed; far over: cut by the WebSocket layer.
    c.send_frame(Message::text("x".repeat(70 * 1024))).await;
    assert_eq!(c.recv_type("error").await["code"], "frame_too_large");
    assert!(
        c.next_within(Duration::from_secs(5)).await.is_err(),
        "closed"
    );
    let mut big = Client::connect(&srv.ws_url(&invite)).await;
    let _ = big.try_send_frame(Message::text("y".repeat(2 << 20))).await;
    let _ = big.next_within(Duration::from_secs(5)).await;
    // The room keeps working.
    let ok = legal_move_applies(&srv, &invite, &token).await;
    assert_eq!(ok["id"], 99);
    assert!(srv.is_up(), "the server is still up");
    eprintln!(
        "socket: {n} adversarial frames answered with their codes, then a legal move applied"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_floods_of_messages_and_connections() {
    let mut srv = live().await;
    let (invite, token) = table(&srv).await;
    // A message flood: rate limited, then cut off.
    let mut f = srv.join(&invite, "Flo", None).await;
    let mut sent = 0;
    for _ in 0..600 {
        if !f.try_send(&json!({"type": "resync"})).await {
            break;
        }
        sent += 1;
    }
    let mut limited = 0;
    while let Ok(m) = f.next_within(Duration::from_secs(5)).await {
        if m["code"] == "rate_limited" {
            limited += 1;
        }
    }
    assert!(limited > 0, "a flood is rate limited");
    // A connection flood: many visitors at once from one address. Up to the
    // per-address limit they are served; beyond it they get 429 and cost nothing.
    let limit = server::Config::default().max_connections_per_address;
    let mut conns = Vec::new();
    let mut refused = 0;
    for i in 0..limit + 44 {
        match Client::open(srv.ws_url(&invite)).await {
            Ok(mut c) => {
                c.hello(&format!("v{i}"), None).await;
                conns.push(c);
            }
            Err(refused_by) => {
                assert_eq!(
                    refused_by.status(),
                    Some(429),
                    "connection {i}: {refused_by:?}"
                );
                refused += 1;
            }
        }
    }
    assert!(refused >= 44, "only {refused} connections refused");
    assert!(conns.len() <= limit && conns.len() + 1 >= limit);
    for c in conns.iter_mut() {
        c.recv_type("welcome").await;
    }
    // Randomly generated frames from one of them: each gets an answer, none kills the room.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = prop_oneof![arb_message(), arb_json()];
    let c = &mut conns[0];
    let mut answered = 0;
    for _ in 0..cases() {
        let v = strategy.new_tree(&mut runner).unwrap().current();
        c.send(&v).await;
        if c.next_within(Duration::from_secs(10)).await.is_ok() {
            answered += 1;
        }
        tokio::time::sleep(Duration::from_millis(55)).await;
    }
    for c in conns.drain(..) {
        drop(c);
    }
    // The server frees a dropped socket's place when it notices the drop; the
    // first connection it lets in again plays (another one right after could
    // come before the server has noticed more drops).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let again = loop {
        if let Ok(c) = Client::open(srv.ws_url(&invite)).await {
            break c;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "closed connections keep their places"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let ok = legal_move_applies_on(again, &token).await;
    assert_eq!(ok["type"], "move_ok");
    assert!(srv.is_up());
    eprintln!(
        "floods: {sent} messages sent in a burst, {limited} rate_limited answers, {} connections served and {refused} refused, {answered} random frames answered; a legal move applied afterwards",
        limit + 44 - refused
    );
}
