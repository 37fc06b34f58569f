//! Hidden information never leaves the server (ruling O2), checked precisely over
//! many seeded Big City games.
//!
//! What counts as a leak to a recipient at game version `k` (the truth comes from
//! replaying the finished game's record):
//! - a hand object (`seat` + `cards`) or trade (`seat` + `offered_cards`) of another
//!   seat with faces, or a patch writing into another seat's `hands/i/cards`;
//! - in any position that carries card faces (`cards`, `card`, `offered_cards`, and
//!   patch values written under such a path) a card that is, at `k`, in another
//!   seat's hand or in a stack;
//! - a `stack`/`stacks` field that is not a stack number or a stack size (a stack
//!   order would be card numbers), any `seed` field, the seed in decimal or hex, the salt
//!   behind the shuffle commitment (and a snapshot without that commitment);
//! - a number in an event's sentence that its structured event does not carry and
//!   that is hidden; a number in an error sentence that is hidden and was not in
//!   the refused move itself.
//!
//! `engine_sweep_*` checks every view (every seat and the spectator), every event,
//! every seat's legal moves and the sentences of refused adversarial moves at every
//! version of many games, straight from the rules crate as the server serializes
//! them. `server_*` plays games through the real `citytable` process (two players,
//! bots, a spectator, HTTP probes and "my tables" asks) and checks every message every client received,
//! every HTTP answer and every line the process logged at its default level; the
//! `..._across_nodes` run does it on three nodes in cluster mode, each table's
//! players, spectator and HTTP probes spread over them (so most of what they receive
//! was forwarded), and checks every node's log.
//!
//! `my_city_sweep_*` does the same for My City, whose secrets are different: a
//! seat's decision until the round's reveal (and, taken back, nothing of it after)
//! and the order of the face-down deck. The server runs' players take moves back
//! now and then where the game allows it.
//!
//! Webhook posts (`webhooks.rs`) are checked by their shape: exactly a game's name and
//! code, a seat, a time left and a link, whatever the game.
//!
//! `CITYTABLE_LEAK_GAMES` (engine sweeps, default 12) and
//! `CITYTABLE_LEAK_SERVER_GAMES` (through the server, default 2) scale the runs.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use big_city::{BigCity, Move, Options};
use engine::{Entry, GameRng, Setup, Viewer};
use serde_json::{Value, json};
use testkit::client::GameView;
use testkit::http::{create_table, http, try_http};
use testkit::process::Launch;
use testkit::{Client, Rng, TestDb, citytable_bin, env_num};

const FACE_KEYS: [&str; 3] = ["cards", "card", "offered_cards"];

/// The hidden cards at one version: every hand and every stack (top last).
#[derive(Clone, Debug)]
struct Secrets {
    hands: Vec<Vec<u8>>,
    stacks: Vec<Vec<u8>>,
}

impl Secrets {
    fn of(g: &BigCity) -> Secrets {
        let seats = g.view(Viewer::Spectator).seats;
        let hands = (0..seats)
            .map(|s| {
                g.view(Viewer::Seat(s)).hands[usize::from(s)]
                    .cards
                    .clone()
                    .expect("own hand")
            })
            .collect();
        Secrets {
            hands,
            stacks: stacks_of(g),
        }
    }

    /// Cards `viewer` must not see: other hands and the stacks.
    fn mask(&self, viewer: Option<u8>) -> u128 {
        let mut m = 0u128;
        for (s, h) in self.hands.iter().enumerate() {
            if Some(s as u8) != viewer {
                for &c in h {
                    m |= 1 << c;
                }
            }
        }
        for st in &self.stacks {
            for &c in st {
                m |= 1 << c;
            }
        }
        m
    }
}

/// The stacks, read from the state's debug form (they are not public API).
fn stacks_of(g: &BigCity) -> Vec<Vec<u8>> {
    let dbg = format!("{g:?}");
    let start = dbg.find("stacks: [").expect("stacks in the debug form") + "stacks: ".len();
    let mut stacks = Vec::new();
    let mut depth = 0;
    let mut num = String::new();
    let mut cur = Vec::new();
    for ch in dbg[start..].chars() {
        match ch {
            '[' => depth += 1,
            ']' => {
                if !num.is_empty() {
                    cur.push(num.parse().expect("card"));
                    num.clear();
                }
                depth -= 1;
                if depth == 1 {
                    stacks.push(std::mem::take(&mut cur));
                }
                if depth == 0 {
                    break;
                }
            }
            '0'..='9' => num.push(ch),
            _ => {
                if !num.is_empty() {
                    cur.push(num.parse().expect("card"));
                    num.clear();
                }
            }
        }
    }
    assert_eq!(stacks.len(), 8, "eight stacks");
    stacks
}

fn numbers_in_text(s: &str) -> Vec<u64> {
    s.split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty() && t.len() < 6)
        .filter_map(|t| t.parse().ok())
        .collect()
}

fn numbers_in(v: &Value, out: &mut BTreeSet<u64>) {
    match v {
        Value::Number(n) => {
            // A sentence writes -11 as "-11", which `numbers_in_text` reads as 11.
            if let Some(n) = n.as_i64().map(i64::unsigned_abs).or(n.as_u64()) {
                out.insert(n);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| numbers_in(x, out)),
        Value::Object(o) => o.values().for_each(|x| numbers_in(x, out)),
        Value::String(s) => out.extend(numbers_in_text(s)),
        _ => {}
    }
}

struct Ctx<'a> {
    viewer: Option<u8>,
    hidden: u128,
    /// Numbers the recipient itself sent (a refused move's cards).
    allowed: &'a [u64],
    errors: Vec<String>,
}

impl Ctx<'_> {
    fn hidden(&self, n: u64) -> bool {
        n < 128 && self.hidden & (1 << n) != 0 && !self.allowed.contains(&n)
    }
}

fn faces(v: &Value, ctx: &mut Ctx, at: &str) {
    match v {
        Value::Number(n) => {
            if let Some(n) = n.as_u64()
                && ctx.hidden(n)
            {
                ctx.errors
                    .push(format!("hidden card {n} in a face position ({at})"));
            }
        }
        Value::Array(a) => a.iter().for_each(|x| faces(x, ctx, at)),
        Value::Object(o) => o.values().for_each(|x| faces(x, ctx, at)),
        _ => {}
    }
}

fn small_numbers_only(v: &Value, ctx: &mut Ctx, key: &str) {
    let ok = match v {
        Value::Number(n) => n.as_u64().is_some_and(|n| n <= 9),
        Value::Array(a) => a.iter().all(|x| x.as_u64().is_some_and(|n| n <= 9)),
        Value::Null => true,
        _ => false,
    };
    if !ok {
        ctx.errors.push(format!(
            "`{key}` carries more than stack numbers or sizes: {v}"
        ));
    }
}

fn walk(v: &Value, key: &str, ctx: &mut Ctx) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| walk(x, key, ctx)),
        Value::Object(o) => {
            if o.contains_key("seed") {
                ctx.errors.push("a `seed` field".into());
            }
            let seat = o.get("seat").and_then(Value::as_u64);
            for hidden_key in ["cards", "offered_cards"] {
                if let (Some(seat), Some(x)) = (seat, o.get(hidden_key))
                    && !x.is_null()
                    && Some(seat) != ctx.viewer.map(u64::from)
                {
                    ctx.errors.push(format!(
                        "`{hidden_key}` of seat {seat} sent to {:?}",
                        ctx.viewer
                    ));
                }
            }
            // A JSON Patch operation.
            if let (Some(_), Some(path)) = (o.get("op"), o.get("path").and_then(Value::as_str)) {
                let segs: Vec<&str> = path.split('/').collect();
                let value = o.get("value").unwrap_or(&Value::Null);
                if segs.iter().any(|s| FACE_KEYS.contains(s)) {
                    faces(value, ctx, path);
                }
                if let ["", "hands", i, "cards", ..] = segs.as_slice()
                    && i.parse::<u8>().ok() != ctx.viewer
                    && !value.is_null()
                {
                    ctx.errors.push(format!("patch into another hand: {path}"));
                }
                if let Some(last) = segs.last()
                    && ["stacks", "stack"].contains(last)
                {
                    small_numbers_only(value, ctx, last);
                }
            }
            // An event is its structure: no sentence rides beside it.
            if o.contains_key("kind") && o.contains_key("text") {
                ctx.errors.push(format!("an event with a sentence: {v}"));
            }
            // An error: its arguments (what the sentence the client says will
            // name) carry no hidden number, and no sentence travels.
            if o.get("type").and_then(Value::as_str) == Some("error") {
                if o.contains_key("message") {
                    ctx.errors.push(format!("an error with a sentence: {v}"));
                }
                let mut carried = BTreeSet::new();
                if let Some(args) = o.get("args") {
                    numbers_in(args, &mut carried);
                }
                for n in carried {
                    if ctx.hidden(n) {
                        ctx.errors
                            .push(format!("error arguments name hidden {n}: {v}"));
                    }
                }
            }
            for (k, x) in o {
                if FACE_KEYS.contains(&k.as_str()) {
                    faces(x, ctx, k);
                }
                if k == "stacks" || k == "stack" {
                    small_numbers_only(x, ctx, k);
                }
                walk(x, k, ctx);
            }
        }
        _ => {
            let _ = key;
        }
    }
}

/// Checks one message for a recipient; returns what leaked.
fn check(
    msg: &Value,
    raw: &str,
    viewer: Option<u8>,
    hidden: u128,
    allowed: &[u64],
    seed: u64,
) -> Vec<String> {
    let mut ctx = Ctx {
        viewer,
        hidden,
        allowed,
        errors: Vec::new(),
    };
    walk(msg, "", &mut ctx);
    for s in seed_forms(seed) {
        if raw.contains(&s) {
            ctx.errors.push(format!("the seed ({s})"));
        }
    }
    ctx.errors
}

fn seed_forms(seed: u64) -> Vec<String> {
    vec![
        seed.to_string(),
        format!("{seed:x}"),
        format!("{seed:X}"),
        format!("{seed:016x}"),
    ]
}

fn random_options(rng: &mut Rng) -> Options {
    Options {
        trade_cards: rng.below(2) == 0,
        trade_window_ms: 100 + rng.below(300) as u32,
        useless_must_be_exchanged: rng.below(3) == 0,
        single_streetcar_line: rng.below(3) == 0,
        limited_streetcar_line: rng.below(3) == 0,
        limited_card_drawing: rng.below(3) == 0,
    }
}

/// An adversarial move: card numbers picked at random (often another seat's).
fn probe(rng: &mut Rng) -> Value {
    let mut card = || {
        let n = 1 + rng.below(8);
        n * 10 + 1 + rng.below(9)
    };
    let (a, b) = (card(), card());
    match b % 7 {
        0 => json!({"type": "exchange", "cards": [a, b]}),
        1 => json!({"type": "discard_useless", "card": a}),
        2 => json!({"type": "build", "piece": "residence_single", "cells": [a]}),
        3 => json!({"type": "build", "piece": "business_double", "cells": [a, b]}),
        4 => json!({"type": "trade_offer", "cards": [a], "wanted": []}),
        5 => json!({"type": "trade_answer", "cards": [a, b]}),
        _ => json!({"type": "trade_accept", "picks": [{"give": a, "seat": 1, "index": 0}]}),
    }
}

fn sent_numbers(mv: &Value) -> Vec<u64> {
    let mut s = BTreeSet::new();
    numbers_in(mv, &mut s);
    s.into_iter().collect()
}

// ----- the rules crate, every viewer, every version -----

#[test]
fn engine_sweep_views_events_moves_and_errors() {
    let games = env_num("CITYTABLE_LEAK_GAMES", 12);
    let started = std::time::Instant::now();
    let mut rng = Rng::new(env_num("CITYTABLE_LEAK_SEED", 0x1eaf));
    let mut checked = 0u64;
    let mut versions = 0u64;
    let mut probes = 0u64;
    for g in 0..games {
        let seats = 2 + rng.below(4) as u8;
        let setup = Setup {
            seats,
            seed: rng.next(),
            options: random_options(&mut rng),
            first_seat: None,
        };
        let mut game = BigCity::new(&setup).expect("setup");
        let mut bot_rng = GameRng::new(rng.next());
        let mut steps = 0;
        let mut secrets = Secrets::of(&game);
        loop {
            // Every viewer's view.
            let viewers: Vec<Option<u8>> =
                (0..seats).map(Some).chain(std::iter::once(None)).collect();
            for &v in &viewers {
                let view = serde_json::to_value(game.view(match v {
                    Some(s) => Viewer::Seat(s),
                    None => Viewer::Spectator,
                }))
                .unwrap();
                let raw = view.to_string();
                let leaks = check(&view, &raw, v, secrets.mask(v), &[], setup.seed);
                assert!(leaks.is_empty(), "game {g} view for {v:?}: {leaks:?}");
                checked += 1;
            }
            if game.outcome().is_some() || steps > 3000 {
                break;
            }
            let awaiting = game.awaiting();
            let Some(&seat) = awaiting
                .seats
                .get(rng.below(awaiting.seats.len() as u64) as usize)
            else {
                break;
            };
            // Mostly the greedy bot (games of realistic length), often a random
            // legal move, rarely a timeout.
            let roll = rng.below(20);
            let legal = if roll >= 14 || rng.below(4) == 0 {
                // Legal moves carry only the seat's own faces.
                let legal = game.legal_moves(seat);
                let lj = serde_json::to_value(&legal).unwrap();
                let leaks = check(
                    &lj,
                    &lj.to_string(),
                    Some(seat),
                    secrets.mask(Some(seat)),
                    &[],
                    setup.seed,
                );
                assert!(
                    leaks.is_empty(),
                    "game {g} legal moves of {seat}: {leaks:?}"
                );
                legal
            } else {
                Vec::new()
            };
            // Refused adversarial moves (the awaited seat, sometimes another) say nothing hidden.
            let others = if rng.below(4) == 0 {
                vec![seat, (seat + 1) % seats]
            } else {
                vec![seat]
            };
            for who in others {
                let p = probe(&mut rng);
                probes += 1;
                let Ok(mv) = serde_json::from_value::<Move>(p.clone()) else {
                    continue;
                };
                let mut copy = game.clone();
                if let Err(e) = copy.apply(who, &mv) {
                    assert_eq!(copy, game, "a refused move changes nothing");
                    // As the server sends it: the rule's code and its arguments.
                    let rule = serde_json::to_value(&e).expect("a rule serializes");
                    let err = json!({"type": "error", "code": "illegal_move", "rule": e.code(), "args": rule.get("args")});
                    let leaks = check(
                        &err,
                        &err.to_string(),
                        Some(who),
                        secrets.mask(Some(who)),
                        &sent_numbers(&p),
                        setup.seed,
                    );
                    assert!(leaks.is_empty(), "game {g} error to {who}: {leaks:?}");
                }
            }
            let events = if roll == 0 {
                game.timeout()
            } else {
                let mv = if roll < 14 || legal.is_empty() {
                    game.bot_move(seat, engine::BotLevel::Greedy, &mut bot_rng)
                } else {
                    Some(legal[rng.below(legal.len() as u64) as usize].clone())
                };
                match mv {
                    Some(mv) => game.apply(seat, &mv).expect("a legal move applies"),
                    None => game.timeout(),
                }
            };
            // Events go to everyone: check them as the spectator sees the new state.
            secrets = Secrets::of(&game);
            let ev = serde_json::to_value(&events).unwrap();
            let leaks = check(
                &ev,
                &ev.to_string(),
                None,
                secrets.mask(None),
                &[],
                setup.seed,
            );
            assert!(leaks.is_empty(), "game {g} events: {leaks:?}");
            steps += 1;
            versions += 1;
        }
    }
    eprintln!(
        "engine sweep: {games} games, {versions} versions, {checked} views checked, {probes} adversarial moves, in {:?}",
        started.elapsed()
    );
}

// ----- the real server -----

/// Everything one client received: (version it applies to, raw text, numbers of
/// the refused probe it answers, if any).
type Received = Vec<(u64, String, Vec<u64>)>;

struct Outcome {
    viewer: Option<u8>,
    received: Received,
    /// Views the client rebuilt, by version.
    views: Vec<(u64, Value)>,
}

/// Sends at most about 18 messages a second (the server allows 20).
async fn paced(c: &mut Client, last: &mut tokio::time::Instant, v: &Value) {
    let next = *last + Duration::from_millis(55);
    tokio::time::sleep_until(next).await;
    *last = tokio::time::Instant::now();
    c.send(v).await;
}

async fn leak_client(
    url: String,
    name: &str,
    token: Option<String>,
    seat: Option<u8>,
    seed: u64,
    counts: Arc<Counts>,
) -> Outcome {
    let mut rng = Rng::new(seed);
    let mut c = Client::connect(&url).await;
    let mut hello = json!({"type": "hello", "name": name});
    if let Some(t) = &token {
        hello["token"] = json!(t);
    }
    c.send(&hello).await;
    let mut out = Outcome {
        viewer: seat,
        received: Vec::new(),
        views: Vec::new(),
    };
    let mut game: Option<GameView> = None;
    let mut version = 0u64;
    let mut asked = false;
    let mut probe_numbers: Vec<u64> = Vec::new();
    let mut next_id = 1u64;
    let mut chatted = false;
    let mut last = tokio::time::Instant::now();
    let mut last_sent_version = 0u64;
    let mut undo_due = false;
    loop {
        let m = match c.next_within(Duration::from_secs(30)).await {
            Ok(m) => m,
            Err(_) => {
                let last: Vec<String> = out
                    .received
                    .iter()
                    .rev()
                    .take(4)
                    .map(|(_, r, _)| r.chars().take(1500).collect())
                    .collect();
                panic!("{name}: the game stalled or the socket closed; last messages: {last:#?}")
            }
        };
        let raw = m.to_string();
        let mut over = false;
        match m["type"].as_str() {
            Some("snapshot") => {
                let g = GameView::from_snapshot(&m["game"]).unwrap();
                version = g.version;
                out.views.push((version, g.view.clone()));
                over = g.over;
                game = Some(g);
            }
            Some("update") => {
                let g = game.as_mut().expect("a snapshot before updates");
                g.apply_update(&m)
                    .unwrap_or_else(|e| panic!("{name}: no update missed, each applies: {e}"));
                version = g.version;
                out.views.push((version, g.view.clone()));
                over = g.over;
            }
            Some("legal_moves") => asked = false,
            Some("error") | Some("move_ok") => {
                asked = false;
                undo_due = m["type"] == "move_ok";
                assert_ne!(
                    m["code"], "rate_limited",
                    "{name}: the client keeps to the rate"
                );
            }
            _ => {}
        }
        // An error may repeat what the client sent (its move's numbers, the
        // version it moved on) and the current version.
        let allowed = if m["type"] == "error" {
            let mut a = std::mem::take(&mut probe_numbers);
            a.extend([last_sent_version, version]);
            a
        } else {
            Vec::new()
        };
        out.received.push((version, raw, allowed));
        if over {
            return out;
        }
        if m["type"] == "legal_moves" {
            let s = u64::from(seat.unwrap());
            let moves = m["moves"].as_array().unwrap();
            let awaited = game.as_ref().is_some_and(|g| g.awaiting.contains(&s));
            if m["version"].as_u64() == Some(version) && awaited && !moves.is_empty() {
                // Mostly moves that bring the end closer (big buildings, new
                // neighborhoods), so that games end in reasonable time; some at random.
                let rank = |m: &Value| match m["type"].as_str() {
                    Some("build") => 10 + m["cells"].as_array().map_or(0, Vec::len),
                    Some("place_neighborhood") => 8,
                    Some("trade_offer") => 0,
                    Some("exchange") => 0,
                    Some("streetcar") => 1,
                    _ => 5,
                };
                let mv = if rng.below(6) == 0 {
                    moves[rng.below(moves.len() as u64) as usize].clone()
                } else {
                    let best = moves.iter().map(rank).max().unwrap_or(0);
                    let top: Vec<&Value> = moves.iter().filter(|m| rank(m) == best).collect();
                    top[rng.below(top.len() as u64) as usize].clone()
                };
                last_sent_version = version;
                let msg = json!({"type": "move", "id": next_id, "version": version, "mv": mv});
                paced(&mut c, &mut last, &msg).await;
                next_id += 1;
                asked = true;
            }
            continue;
        }
        let Some(s) = seat else { continue };
        // Now and then a move is taken back where the game allows it; what
        // follows (the views, the move made again) must leak no more.
        if std::mem::take(&mut undo_due)
            && game.as_ref().and_then(|g| g.undo) == Some(u64::from(s))
            && rng.below(3) == 0
        {
            counts.undos.fetch_add(1, Ordering::Relaxed);
            last_sent_version = version;
            let msg = json!({"type": "undo", "id": next_id, "version": version});
            paced(&mut c, &mut last, &msg).await;
            next_id += 1;
            asked = true;
            continue;
        }
        if !chatted && version > 3 {
            chatted = true;
            paced(
                &mut c,
                &mut last,
                &json!({"type": "chat", "text": "good luck"}),
            )
            .await;
        }
        if !asked
            && game
                .as_ref()
                .is_some_and(|g| g.awaiting.contains(&u64::from(s)))
        {
            if rng.below(10) == 0 {
                // An adversarial move first; its error is checked with its own numbers allowed.
                let p = probe(&mut rng);
                probe_numbers = sent_numbers(&p);
                counts.probes.fetch_add(1, Ordering::Relaxed);
                last_sent_version = version;
                let msg = json!({"type": "move", "id": next_id, "version": version, "mv": p});
                paced(&mut c, &mut last, &msg).await;
                next_id += 1;
            } else {
                paced(&mut c, &mut last, &json!({"type": "legal_moves"})).await;
            }
            asked = true;
        }
    }
}

/// What the players of a run sent beside their moves.
#[derive(Default)]
struct Counts {
    /// Adversarial moves.
    probes: AtomicU64,
    /// Undos.
    undos: AtomicU64,
}

struct ServerGame {
    invite: String,
    tokens: Vec<String>,
    outcomes: Vec<Outcome>,
    http: Vec<(u64, String)>,
}

async fn server_game(
    addrs: Arc<Vec<std::net::SocketAddr>>,
    n: u64,
    rng: &mut Rng,
    counts: Arc<Counts>,
) -> ServerGame {
    // With several nodes, each of a table's clients on another one.
    let on = |i: u64| addrs[((n + i) % addrs.len() as u64) as usize];
    let addr = on(0);
    let seats = 2 + rng.below(4);
    let options = random_options(rng);
    let (invite, spectate, host_token) = create_table(
        addr,
        &json!({"game": "big-city", "name": "Ana",
                "settings": {"seats": seats, "options": options, "spectators_allowed": true, "public": n.is_multiple_of(2)}}),
    )
    .await;
    let url = format!("ws://{addr}/ws/{invite}");
    let guest_url = format!("ws://{}/ws/{invite}", on(1));
    let mut host = Client::join(&url, "Ana", Some(&host_token)).await;
    let mut guest = Client::join(&guest_url, "Bo", None).await;
    let guest_token = guest.take_seat(1).await;
    guest.close().await;
    for s in 2..seats {
        let level = if rng.below(2) == 0 {
            "random"
        } else {
            "greedy"
        };
        host.send(&json!({"type": "add_bot", "seat": s, "level": level}))
            .await;
    }
    let a = tokio::spawn(leak_client(
        url.clone(),
        "Ana",
        Some(host_token.clone()),
        Some(0),
        rng.next(),
        counts.clone(),
    ));
    let b = tokio::spawn(leak_client(
        guest_url,
        "Bo",
        Some(guest_token.clone()),
        Some(1),
        rng.next(),
        counts.clone(),
    ));
    let s = tokio::spawn(leak_client(
        format!("ws://{}/ws/{spectate}", on(2)),
        "Eve",
        None,
        None,
        rng.next(),
        counts.clone(),
    ));
    tokio::time::sleep(Duration::from_millis(100)).await;
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    host.close().await;
    // HTTP answers while the game runs.
    let mut http = Vec::new();
    for (i, path) in [
        format!("/api/tables/{spectate}"),
        format!("/api/tables/{invite}"),
        format!("/api/tables/{invite}/record"),
        "/api/tables".to_owned(),
    ]
    .into_iter()
    .enumerate()
    {
        let (status, body) = try_http(on(i as u64), "GET", &path, None)
            .await
            .expect("http");
        if path.ends_with("/record") {
            assert_eq!(status, 409, "no record while the game runs: {body}");
        }
        http.push((0, body));
    }
    // "My tables" for both seats: whose turn and the clock, nothing hidden.
    let kept = json!({"seats": [{"code": invite, "token": host_token}, {"code": invite, "token": guest_token}]});
    let (status, body) = try_http(on(4), "POST", "/api/my-tables", Some(&kept))
        .await
        .expect("http");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"awaiting\""), "{body}");
    http.push((0, body));
    let outcomes = vec![a.await.unwrap(), b.await.unwrap(), s.await.unwrap()];
    ServerGame {
        invite,
        tokens: vec![host_token, guest_token],
        outcomes,
        http,
    }
}

/// Plays `games` through one node on SQLite, or (`nodes` > 1) through that many
/// nodes in cluster mode on Postgres and NATS.
async fn server_run(games: u64, concurrent: u64, nodes: usize) {
    let db = if nodes > 1 {
        match TestDb::postgres().await {
            Some(db) => db,
            None => return,
        }
    } else {
        TestDb::sqlite()
    };
    let nats = std::env::var("TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into());
    let mut servers = Vec::new();
    for _ in 0..nodes {
        let launch = Launch::new(citytable_bin!(), &db.dir).database_url(db.url.as_deref());
        let launch = if nodes > 1 {
            launch.env("NATS_URL", &nats)
        } else {
            launch
        };
        servers.push(launch.start().await);
    }
    let addrs = Arc::new(servers.iter().map(|s| s.addr).collect::<Vec<_>>());
    let addr = addrs[0];
    let counts = Arc::new(Counts::default());
    let started = std::time::Instant::now();
    let mut rng = Rng::new(env_num("CITYTABLE_LEAK_SEED", 0x5e4e));
    let mut done = Vec::new();
    let mut next = 0;
    while next < games {
        let mut batch = tokio::task::JoinSet::new();
        for _ in 0..concurrent.min(games - next) {
            let mut r = Rng::new(rng.next());
            let p = counts.clone();
            let n = next;
            let addrs = Arc::clone(&addrs);
            batch.spawn(async move { server_game(addrs, n, &mut r, p).await });
            next += 1;
        }
        while let Some(g) = batch.join_next().await {
            done.push(g.expect("game task"));
        }
    }

    eprintln!(
        "server leaks: {} games played in {:?}",
        done.len(),
        started.elapsed()
    );
    let mut messages = 0u64;
    let mut seeds = Vec::new();
    let mut salts = Vec::new();
    let mut secret_renderings = Vec::new();
    for g in &done {
        let (status, record) = http(
            addr,
            "GET",
            &format!("/api/tables/{}/record", g.invite),
            None,
        )
        .await;
        assert_eq!(status, 200, "{record}");
        let seed = testkit::record_seed(&record).unwrap();
        seeds.push(seed);
        // The salt hides the seed behind the commitment: as secret as the seed.
        let salt = record["salt"].as_str().expect("a salt").to_owned();
        let commitment = record["commitment"].as_str().expect("a commitment");
        let shown = format!("\"commitment\":\"{commitment}\"");
        salts.push(salt.clone());
        let setup = Setup {
            seats: record["seats"].as_u64().unwrap() as u8,
            seed,
            options: serde_json::from_value(record["options"].clone()).unwrap(),
            first_seat: record["first_seat"].as_u64().map(|s| s as u8),
        };
        let entries: Vec<Entry<Move>> = serde_json::from_value(record["entries"].clone()).unwrap();
        // The truth at every version.
        let mut played = engine::Played::new(BigCity::new(&setup).unwrap());
        let mut secrets = vec![Secrets::of(played.game())];
        let mut views: HashMap<(u64, Option<u8>), Value> = HashMap::new();
        let seats = setup.seats;
        let record_views =
            |state: &BigCity, k: u64, views: &mut HashMap<(u64, Option<u8>), Value>| {
                for v in [Some(0), Some(1), None] {
                    let viewer = match v {
                        Some(s) => Viewer::Seat(s),
                        None => Viewer::Spectator,
                    };
                    views.insert((k, v), serde_json::to_value(state.view(viewer)).unwrap());
                }
            };
        record_views(played.game(), 0, &mut views);
        for (i, e) in entries.iter().enumerate() {
            played.apply(e).expect("the record replays");
            secrets.push(Secrets::of(played.game()));
            record_views(played.game(), i as u64 + 1, &mut views);
        }
        let first = &secrets[0];
        for seq in first
            .stacks
            .iter()
            .chain(first.hands.iter())
            .filter(|s| s.len() >= 3)
        {
            let mut sorted = seq.clone();
            sorted.sort_unstable();
            for s in [seq, &sorted] {
                secret_renderings.push(format!("[{}, {}, {}", s[0], s[1], s[2]));
                secret_renderings.push(format!("[{},{},{}", s[0], s[1], s[2]));
            }
        }
        let _ = seats;
        for o in &g.outcomes {
            for (k, raw, allowed) in &o.received {
                let msg: Value = serde_json::from_str(raw).unwrap();
                let sec = &secrets[*k as usize];
                let leaks = check(&msg, raw, o.viewer, sec.mask(o.viewer), allowed, seed);
                assert!(!raw.contains(&salt), "the salt reached {:?}", o.viewer);
                if msg["type"] == "snapshot" {
                    assert!(raw.contains(&shown), "a snapshot without the commitment");
                }
                assert!(
                    leaks.is_empty(),
                    "{} to {:?} at version {k}: {leaks:?}\n{raw}",
                    g.invite,
                    o.viewer
                );
                // A spectator never gets a token; a seat only its own.
                for (owner, t) in g.tokens.iter().enumerate() {
                    if o.viewer != Some(owner as u8) {
                        assert!(
                            !raw.contains(t.as_str()),
                            "seat {owner}'s token reached {:?}",
                            o.viewer
                        );
                    }
                }
                messages += 1;
            }
            // The server sends exactly the rules crate's view for the recipient.
            for (k, view) in &o.views {
                assert_eq!(
                    view,
                    &views[&(*k, o.viewer)],
                    "{} {:?} at {k}",
                    g.invite,
                    o.viewer
                );
            }
        }
        for (_, body) in &g.http {
            let msg: Value = serde_json::from_str(body).unwrap_or(Value::Null);
            let hidden = secrets.iter().fold(0, |m, s| m | s.mask(None));
            let leaks = check(&msg, body, None, hidden, &[], seed);
            assert!(!body.contains(&salt), "the salt in an HTTP answer");
            assert!(leaks.is_empty(), "HTTP answer: {leaks:?}");
            for t in &g.tokens {
                assert!(!body.contains(t.as_str()), "a token in an HTTP answer");
            }
            messages += 1;
        }
    }
    let mut lines = Vec::new();
    for server in servers {
        let log = server.log.clone();
        server.stop().await;
        lines.extend(log.lock().unwrap().clone());
    }
    assert!(
        lines.iter().any(|l| l.contains("game finished")),
        "the log was captured"
    );
    for line in &lines {
        let lower = line.to_lowercase();
        for word in ["seed", "\"cards\"", "hands", "stacks"] {
            assert!(!lower.contains(word), "log line mentions {word}: {line}");
        }
        for seed in &seeds {
            for s in seed_forms(*seed) {
                assert!(!line.contains(&s), "log line carries a seed: {line}");
            }
        }
        for salt in &salts {
            assert!(
                !line.contains(salt.as_str()),
                "log line carries a salt: {line}"
            );
        }
        for r in &secret_renderings {
            assert!(
                !line.contains(r.as_str()),
                "log line carries a hand or stack: {line}"
            );
        }
        for g in &done {
            for t in &g.tokens {
                assert!(
                    !line.contains(t.as_str()),
                    "log line carries a seat token: {line}"
                );
            }
        }
        assert!(!line.contains("panicked"), "{line}");
    }
    eprintln!(
        "server leaks: {} games, checked in {:?}, {messages} messages and HTTP answers checked, {} adversarial moves, {} undos, {} log lines checked",
        done.len(),
        started.elapsed(),
        counts.probes.load(Ordering::Relaxed),
        counts.undos.load(Ordering::Relaxed),
        lines.len()
    );
    assert!(
        counts.undos.load(Ordering::Relaxed) > 0,
        "the players took moves back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_messages_http_and_logs_never_leak() {
    let games = env_num("CITYTABLE_LEAK_SERVER_GAMES", 2);
    server_run(games, 2, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_messages_http_and_logs_never_leak_across_nodes() {
    let games = env_num("CITYTABLE_LEAK_SERVER_GAMES", 2);
    server_run(games, 2, 3).await;
}

/// Every card-shaped object (`{"type": "building", ...}` or `{"type": "blocking"}`)
/// anywhere in a My City view.
fn my_city_cards(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            if matches!(
                m.get("type").and_then(Value::as_str),
                Some("building" | "blocking")
            ) {
                out.push(v.clone());
            }
            m.values().for_each(|x| my_city_cards(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| my_city_cards(x, out)),
        _ => {}
    }
}

/// My City (simultaneous decisions): while a round is open, what one seat decided
/// never shows to anyone else — every other seat's view, the spectator's view and
/// the events are the same whichever legal decision it made — and no view holds a
/// card that has not been turned up, nor the seed.
#[test]
fn my_city_sweep_decisions_and_deck_stay_hidden() {
    use engine::{BotLevel, Game};
    use my_city::{Move as CityMove, MyCity};
    let games = env_num("CITYTABLE_LEAK_GAMES", 12);
    let started = std::time::Instant::now();
    let mut rng = Rng::new(env_num("CITYTABLE_LEAK_SEED", 0x1eaf) ^ 0x3c17);
    let (mut views, mut swaps, mut decisions) = (0u64, 0u64, 0u64);
    let view_of = |g: &MyCity, v: Option<u8>| {
        serde_json::to_value(g.view(v.map_or(Viewer::Spectator, Viewer::Seat))).unwrap()
    };
    for _ in 0..games {
        let seats = 1 + rng.below(4) as u8;
        let setup = Setup {
            seats,
            seed: rng.next(),
            options: Default::default(),
            first_seat: None,
        };
        let mut game = MyCity::new(&setup).expect("setup");
        let mut bot_rng = GameRng::new(rng.next());
        let viewers: Vec<Option<u8>> = (0..seats).map(Some).chain([None]).collect();
        while game.outcome().is_none() {
            let awaiting = game.awaiting();
            let seat = awaiting.seats[rng.below(awaiting.seats.len() as u64) as usize];
            let legal = game.legal_moves(seat);
            let mv = match game.bot_move(seat, BotLevel::Greedy, &mut bot_rng) {
                Some(mv) if rng.below(4) > 0 => mv,
                _ => legal[rng.below(legal.len() as u64) as usize],
            };
            let before = game.clone();
            let events = game.apply(seat, &mv).expect("legal");
            decisions += 1;
            let after = game.awaiting();
            if !after.seats.is_empty() && after.period == awaiting.period {
                // Still hidden: other decisions this seat could have made look the same.
                let others: Vec<&CityMove> = legal
                    .iter()
                    .filter(|m| **m != mv && !matches!(m, CityMove::EndParticipation {}))
                    .collect();
                // Taken back, it leaves nothing behind, for anyone.
                let mut undone = engine::Played::new(before.clone());
                undone.apply(&Entry::Move { seat, mv }).expect("legal");
                assert_eq!(undone.undo_seat(), Some(seat));
                assert!(
                    undone
                        .apply(&Entry::Undo { seat })
                        .expect("undo")
                        .is_empty()
                );
                for &v in &viewers {
                    assert_eq!(view_of(undone.game(), v), view_of(&before, v));
                }
                for _ in 0..3.min(others.len()) {
                    let alt_mv = others[rng.below(others.len() as u64) as usize];
                    let mut alt = before.clone();
                    let alt_events = alt.apply(seat, alt_mv).expect("legal");
                    assert_eq!(
                        serde_json::to_value(&events).unwrap(),
                        serde_json::to_value(&alt_events).unwrap(),
                        "events tell seat {seat}'s decision"
                    );
                    for &v in viewers.iter().filter(|&&v| v != Some(seat)) {
                        assert_eq!(
                            view_of(&game, v),
                            view_of(&alt, v),
                            "the view of {v:?} tells seat {seat}'s decision {mv:?} from {alt_mv:?}"
                        );
                    }
                    swaps += 1;
                }
            }
            for &v in &viewers {
                let view = view_of(&game, v);
                let raw = view.to_string();
                assert!(!raw.contains(&setup.seed.to_string()), "the seed shows");
                assert!(!raw.contains("\"seed\""), "a seed field shows");
                // Cards shown: only those turned up (the current, blocked and revealed ones).
                let mut shown_up: Vec<Value> =
                    view["revealed"].as_array().cloned().unwrap_or_default();
                shown_up.extend([view["card"].clone(), view["blocked"].clone()]);
                let mut cards = Vec::new();
                my_city_cards(&view, &mut cards);
                for card in cards {
                    assert!(shown_up.contains(&card), "a face-down card shows: {card}");
                }
                views += 1;
            }
        }
    }
    eprintln!(
        "my city sweep: {games} games, {decisions} decisions, {views} views checked, {swaps} hidden decisions swapped, in {:?}",
        started.elapsed()
    );
}
