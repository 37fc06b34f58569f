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

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use engine::{BotLevel, Game, GameRng, Seat, Setup, Viewer};
use futures_util::{SinkExt, StreamExt};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use protocol::ClientMsg;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

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
                    options: kind.default_options(),
                    first_seat: None,
                    names: Vec::new(),
                };
                let game = kind.start(&setup).unwrap();
                for seat in 0..seats {
                    let _ = game.try_move(seat, &v["mv"]);
                    let _ = game.try_move(seat, &v);
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
        options: serde_json::to_value(&setup.options).unwrap(),
        first_seat: None,
        names: Vec::new(),
    };
    let entries: Vec<Value> = log
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
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
        let via_server = erased.try_move(seat, &mv);
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
            let mv = serde_json::to_value(&mv).unwrap();
            prop_assert!(erased.try_move(seat, &mv).is_ok());
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

struct Live {
    addr: SocketAddr,
    server: tokio::task::JoinHandle<()>,
}

async fn live() -> Live {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let db: Arc<dyn server::db::Db> = Arc::new(server::db::MemDb::default());
    let config = server::Config {
        bot_delay: Duration::ZERO,
        ..server::Config::default()
    };
    let server = tokio::spawn(async move {
        server::serve(listener, db, config, std::future::pending())
            .await
            .unwrap();
    });
    Live { addr, server }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn ws(addr: SocketAddr, code: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{code}"))
        .await
        .unwrap()
        .0
}

/// The next JSON message, `None` when closed or quiet for `wait`.
async fn next(ws: &mut Ws, wait: Duration) -> Option<Value> {
    loop {
        match tokio::time::timeout(wait, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) | Err(_) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

async fn until(ws: &mut Ws, ty: &str) -> Value {
    loop {
        let m = next(ws, Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("waiting for {ty}: closed or silent"));
        if m["type"] == ty {
            return m;
        }
    }
}

async fn post(addr: SocketAddr, path: &str, body: &Value) -> Value {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let req = format!(
        "POST {path} HTTP/1.1\r\nhost: t\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let (_, body) = text.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap()
}

/// A tic-tac-toe table with the host in seat 0 and a bot in seat 1, started.
async fn table(addr: SocketAddr) -> (String, String) {
    let created = post(
        addr,
        "/api/tables",
        &json!({"game": "tic-tac-toe", "name": "Ana",
                "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false}}),
    )
    .await;
    let invite = created["invite_code"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let mut host = ws(addr, &invite).await;
    host.send(Message::text(
        json!({"type": "hello", "name": "Ana", "token": token}).to_string(),
    ))
    .await
    .unwrap();
    until(&mut host, "welcome").await;
    host.send(Message::text(
        json!({"type": "add_bot", "seat": 1, "level": "random"}).to_string(),
    ))
    .await
    .unwrap();
    host.send(Message::text(json!({"type": "start"}).to_string()))
        .await
        .unwrap();
    until(&mut host, "snapshot").await;
    (invite, token)
}

/// Joins as the host and plays one legal move; returns its `move_ok`.
async fn legal_move_applies(addr: SocketAddr, invite: &str, token: &str) -> Value {
    let mut c = ws(addr, invite).await;
    c.send(Message::text(
        json!({"type": "hello", "name": "Ana", "token": token}).to_string(),
    ))
    .await
    .unwrap();
    loop {
        let snap = until(&mut c, "snapshot").await;
        let version = snap["game"]["version"].as_u64().unwrap();
        if !snap["game"]["awaiting"]["seats"]
            .as_array()
            .unwrap()
            .contains(&json!(0))
        {
            // The bot moves first: wait for it.
            tokio::time::sleep(Duration::from_millis(50)).await;
            c.send(Message::text(json!({"type": "resync"}).to_string()))
                .await
                .unwrap();
            continue;
        }
        c.send(Message::text(json!({"type": "legal_moves"}).to_string()))
            .await
            .unwrap();
        let legal = until(&mut c, "legal_moves").await;
        let mv = legal["moves"][0].clone();
        c.send(Message::text(
            json!({"type": "move", "id": 99, "version": version, "mv": mv}).to_string(),
        ))
        .await
        .unwrap();
        loop {
            let m = next(&mut c, Duration::from_secs(10))
                .await
                .expect("an answer");
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
    let srv = live().await;
    let (invite, token) = table(srv.addr).await;
    let mut c = ws(srv.addr, &invite).await;
    c.send(Message::text(
        json!({"type": "hello", "name": "Ana", "token": &token}).to_string(),
    ))
    .await
    .unwrap();
    until(&mut c, "welcome").await;
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
        c.send(frame).await.unwrap();
        let m = until(&mut c, "error").await;
        assert_eq!(m["code"], code, "{m}");
        // No sentence travels; a sentence that names a limit has it in `args`.
        assert!(m.get("message").is_none(), "{m}");
        if code == "bad_chat" {
            assert_eq!(m["args"]["max_chars"], protocol::MAX_CHAT_CHARS, "{m}");
        }
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    // Over 64 KiB: refused and closed; far over: cut by the WebSocket layer.
    c.send(Message::text("x".repeat(70 * 1024))).await.unwrap();
    assert_eq!(until(&mut c, "error").await["code"], "frame_too_large");
    assert!(
        next(&mut c, Duration::from_secs(5)).await.is_none(),
        "closed"
    );
    let mut big = ws(srv.addr, &invite).await;
    let _ = big.send(Message::text("y".repeat(2 << 20))).await;
    let _ = next(&mut big, Duration::from_secs(5)).await;
    // The room keeps working.
    let ok = legal_move_applies(srv.addr, &invite, &token).await;
    assert_eq!(ok["id"], 99);
    assert!(!srv.server.is_finished(), "the server is still up");
    eprintln!(
        "socket: {n} adversarial frames answered with their codes, then a legal move applied"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_floods_of_messages_and_connections() {
    let srv = live().await;
    let (invite, token) = table(srv.addr).await;
    // A message flood: rate limited, then cut off.
    let mut f = ws(srv.addr, &invite).await;
    f.send(Message::text(
        json!({"type": "hello", "name": "Flo"}).to_string(),
    ))
    .await
    .unwrap();
    until(&mut f, "welcome").await;
    let mut sent = 0;
    for _ in 0..600 {
        if f.send(Message::text(json!({"type": "resync"}).to_string()))
            .await
            .is_err()
        {
            break;
        }
        sent += 1;
    }
    let mut limited = 0;
    while let Some(m) = next(&mut f, Duration::from_secs(5)).await {
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
        match tokio_tungstenite::connect_async(format!("ws://{}/ws/{invite}", srv.addr)).await {
            Ok((mut c, _)) => {
                c.send(Message::text(
                    json!({"type": "hello", "name": format!("v{i}")}).to_string(),
                ))
                .await
                .unwrap();
                conns.push(c);
            }
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
                assert_eq!(r.status(), 429);
                refused += 1;
            }
            Err(e) => panic!("connection {i}: {e}"),
        }
    }
    assert!(refused >= 44, "only {refused} connections refused");
    assert!(conns.len() <= limit && conns.len() + 1 >= limit);
    for c in conns.iter_mut() {
        until(c, "welcome").await;
    }
    // Randomly generated frames from one of them: each gets an answer, none kills the room.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = prop_oneof![arb_message(), arb_json()];
    let c = &mut conns[0];
    let mut answered = 0;
    for _ in 0..cases() {
        let v = strategy.new_tree(&mut runner).unwrap().current();
        c.send(Message::text(v.to_string())).await.unwrap();
        if next(c, Duration::from_secs(10)).await.is_some() {
            answered += 1;
        }
        tokio::time::sleep(Duration::from_millis(55)).await;
    }
    for c in conns.drain(..) {
        drop(c);
    }
    // The server frees a dropped socket's place when it notices the drop.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while tokio_tungstenite::connect_async(format!("ws://{}/ws/{invite}", srv.addr))
        .await
        .is_err()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "closed connections keep their places"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let ok = legal_move_applies(srv.addr, &invite, &token).await;
    assert_eq!(ok["type"], "move_ok");
    assert!(!srv.server.is_finished());
    eprintln!(
        "floods: {sent} messages sent in a burst, {limited} rate_limited answers, {} connections served and {refused} refused, {answered} random frames answered; a legal move applied afterwards",
        limit + 44 - refused
    );
}
