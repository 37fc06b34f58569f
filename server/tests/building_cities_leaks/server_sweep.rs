//! Tables played through the real `citytable` process: one or two people
//! (random legal moves: challenge plays, Task Force answers, bids, demands;
//! lists asked whole and in parts; moves the rules refuse; a chat line), bots
//! in the other seats and a spectator. Judged afterwards against the record:
//! every message each client received, at the version it had reached; every
//! view it rebuilt, which must be the rules crate's for it; the API's answers
//! during and after the game; the files served to browsers; every line the
//! process logged at its default level.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::SocketAddr;
use std::time::Duration;

use building_cities::{BuildingCities, Move};
use engine::{Entry, Game, Seat, Viewer};
use serde_json::{Value, json};
use testkit::client::GameView;
use testkit::http::{create_table, http, try_http};
use testkit::process::Launch;
use testkit::{Client, Rng, TestDb, citytable_bin, env_num};

use super::{Truth, contains_token, room, setup};

/// What one client received: (version reached, raw text, an answer to its own
/// request), and the views it rebuilt.
struct Seen {
    viewer: Option<Seat>,
    received: Vec<(usize, String, bool)>,
    views: Vec<(usize, Value)>,
}

/// Moves that bring challenges and the end closer come first.
fn rank(m: &Value) -> u64 {
    match m["type"].as_str() {
        Some("buy_district" | "play_challenge" | "use_task_force") => 9,
        Some("tile") => 8,
        Some("bid" | "accept_demand" | "trade_partner" | "destroy_building") => 6,
        Some("road" | "upgrade") => 3,
        _ => 2,
    }
}

const PARTS: [&str; 3] = ["hotel", "house", "park"];

const PROBES: [&str; 5] = [
    r#"{"type": "play_challenge", "card": 5, "target": 1}"#,
    r#"{"type": "use_task_force"}"#,
    r#"{"type": "bid", "amount": 99999}"#,
    r#"{"type": "destroy_building", "tile": 7}"#,
    r#"{"type": "keep_challenges"}"#,
];

/// A person at `seat`, or the spectator (`None`), until the game is over.
async fn person(
    url: String,
    name: &str,
    token: Option<String>,
    seat: Option<Seat>,
    seed: u64,
) -> Seen {
    let mut rng = Rng::new(seed);
    let mut c = Client::connect(&url).await;
    c.hello(name, token.as_deref()).await;
    let mut seen = Seen {
        viewer: seat,
        received: Vec::new(),
        views: Vec::new(),
    };
    let mut game: Option<GameView> = None;
    let (mut asked, mut chatted, mut next_id) = (false, false, 1u64);
    let mut last = tokio::time::Instant::now();
    loop {
        let m = c
            .next_within(Duration::from_secs(30))
            .await
            .unwrap_or_else(|e| panic!("{name}: the game stalled ({e:?})"));
        let kind = m["type"].as_str().unwrap_or_default().to_owned();
        match kind.as_str() {
            "snapshot" => game = Some(GameView::from_snapshot(&m["game"]).unwrap()),
            "update" => game.as_mut().unwrap().apply_update(&m).unwrap(),
            "legal_moves" | "error" | "move_ok" => asked = false,
            _ => {}
        }
        assert_ne!(m["code"], "rate_limited", "{name} keeps to the rate");
        let version = game.as_ref().map_or(0, |g| g.version as usize);
        let answer = ["legal_moves", "error", "move_ok"].contains(&kind.as_str());
        seen.received.push((version, m.to_string(), answer));
        let Some(g) = game.as_ref() else { continue };
        if ["snapshot", "update"].contains(&kind.as_str()) {
            seen.views.push((version, g.view.clone()));
        }
        if g.over {
            return seen;
        }
        let Some(s) = seat else { continue };
        let awaited = g.awaiting.contains(&u64::from(s));
        let mut move_msg = |mv: &Value| {
            next_id += 1;
            json!({"type": "move", "id": next_id, "version": version, "mv": mv})
        };
        let msg = if kind == "legal_moves" && m["version"] == json!(version) && awaited {
            let moves = m["moves"].as_array().unwrap();
            if moves.is_empty() {
                // A part with nothing in it: the whole list then.
                m["of"].is_string().then(|| json!({"type": "legal_moves"}))
            } else {
                let best = moves.iter().map(rank).max().unwrap();
                let top: Vec<&Value> = moves.iter().filter(|m| rank(m) == best).collect();
                let mv = if rng.below(4) == 0 {
                    &moves[rng.below(moves.len() as u64) as usize]
                } else {
                    top[rng.below(top.len() as u64) as usize]
                };
                Some(move_msg(mv))
            }
        } else if !chatted && version > 5 {
            chatted = true;
            Some(json!({"type": "chat", "text": "good luck"}))
        } else if awaited && !asked && kind != "legal_moves" {
            Some(match rng.below(10) {
                0 => {
                    let probe: Value = serde_json::from_str(PROBES[rng.below(5) as usize]).unwrap();
                    move_msg(&probe)
                }
                1 | 2 => json!({"type": "legal_moves", "of": building_cities::OTHER}),
                3 => {
                    json!({"type": "legal_moves", "of": PARTS[rng.below(3) as usize]})
                }
                _ => json!({"type": "legal_moves"}),
            })
        } else {
            None
        };
        if let Some(msg) = msg {
            // At most about 18 messages a second (the server allows 20).
            tokio::time::sleep_until(last + Duration::from_millis(55)).await;
            last = tokio::time::Instant::now();
            asked |= msg["type"] != "chat";
            c.send(&msg).await;
        }
    }
}

struct Played {
    invite: String,
    seats: u8,
    tokens: Vec<String>,
    seen: Vec<Seen>,
    /// API answers while the game ran.
    answers: Vec<String>,
}

async fn play(addr: SocketAddr, n: u64, rng: &mut Rng) -> Played {
    let (seats, options) = room(n, rng, Some(16));
    let (invite, spectate, host_token) = create_table(
        addr,
        &json!({"game": "building-cities", "name": "Ana",
                "settings": {"seats": seats, "options": options, "spectators_allowed": true, "public": n.is_multiple_of(2)}}),
    )
    .await;
    let url = format!("ws://{addr}/ws/{invite}");
    let mut host = Client::join(&url, "Ana", Some(&host_token)).await;
    let mut tokens = vec![host_token.clone()];
    if seats > 1 {
        let mut guest = Client::join(&url, "Bo", None).await;
        tokens.push(guest.take_seat(1).await);
        guest.close().await;
    }
    for s in 2..seats {
        let level = ["random", "greedy"][rng.below(2) as usize];
        host.send(&json!({"type": "add_bot", "seat": s, "level": level}))
            .await;
    }
    let mut people = vec![tokio::spawn(person(
        url.clone(),
        "Ana",
        Some(host_token),
        Some(0),
        rng.next(),
    ))];
    if seats > 1 {
        people.push(tokio::spawn(person(
            url.clone(),
            "Bo",
            Some(tokens[1].clone()),
            Some(1),
            rng.next(),
        )));
    }
    let eve = format!("ws://{addr}/ws/{spectate}");
    people.push(tokio::spawn(person(eve, "Eve", None, None, rng.next())));
    tokio::time::sleep(Duration::from_millis(100)).await;
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    host.close().await;
    let mut answers = Vec::new();
    for path in [
        format!("/api/tables/{spectate}"),
        format!("/api/tables/{invite}"),
        format!("/api/tables/{invite}/record"),
        "/api/tables".to_owned(),
        "/api/games".to_owned(),
    ] {
        let (status, body) = try_http(addr, "GET", &path, None).await.expect("http");
        if path.ends_with("/record") {
            assert_eq!(status, 409, "no record while the game runs: {body}");
        }
        answers.push(body);
    }
    let mut seen = Vec::new();
    for p in people {
        seen.push(p.await.unwrap());
    }
    Played {
        invite,
        seats,
        tokens,
        seen,
        answers,
    }
}

/// Replays the record: the truth at every version and each viewer's view.
async fn replay(
    addr: SocketAddr,
    g: &Played,
) -> (Truth, HashMap<(usize, Option<Seat>), Value>, Value) {
    let (status, record) = http(
        addr,
        "GET",
        &format!("/api/tables/{}/record", g.invite),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    let seed = testkit::record_seed(&record).unwrap();
    let mut state = BuildingCities::new(&setup(g.seats, seed, &record["options"])).unwrap();
    let mut truth = Truth::start(&state, seed);
    let viewers: Vec<Option<Seat>> = (0..g.seats).map(Some).chain([None]).collect();
    let mut views = HashMap::new();
    let mut note = |state: &BuildingCities, k: usize| {
        for &v in &viewers {
            views.insert(
                (k, v),
                json!(state.view(v.map_or(Viewer::Spectator, Viewer::Seat))),
            );
        }
    };
    note(&state, 0);
    let entries: Vec<Entry<Move>> = serde_json::from_value(record["entries"].clone()).unwrap();
    for (i, e) in entries.iter().enumerate() {
        let events = engine::apply_entry(&mut state, e).expect("the record replays");
        truth.step(&state, &events);
        note(&state, i + 1);
    }
    (truth, views, record)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_sweep_messages_answers_files_and_logs() {
    let db = TestDb::sqlite();
    let server = Launch::new(citytable_bin!(), &db.dir).start().await;
    let addr = server.addr;
    let started = std::time::Instant::now();
    let handbook = reference(addr).await;
    let mut rng = Rng::new(env_num("CITYTABLE_LEAK_SEED", 0xb0c2));
    let games = env_num("CITYTABLE_BC_LEAK_SERVER_GAMES", 3);
    let mut played = Vec::new();
    let mut next = 0;
    while next < games {
        let mut batch = tokio::task::JoinSet::new();
        for _ in 0..2.min(games - next) {
            let mut r = Rng::new(rng.next());
            let n = next;
            batch.spawn(async move { play(addr, n, &mut r).await });
            next += 1;
        }
        while let Some(p) = batch.join_next().await {
            played.push(p.expect("a table"));
        }
    }
    let (mut messages, mut views, mut answers) = (0u64, 0u64, 0u64);
    let mut people: BTreeMap<String, u64> = BTreeMap::new();
    let mut plays = 0u64;
    let mut seeds = Vec::new();
    let mut objectives = BTreeSet::new();
    for g in &played {
        let (truth, truth_views, record) = replay(addr, g).await;
        seeds.push(truth.seed);
        objectives.insert(truth.public[0].first().cloned().unwrap());
        // The people's own moves (seats 0 and 1; bots sit after them).
        for e in record["entries"].as_array().unwrap() {
            let kind = e["move"]["mv"]["type"].as_str().unwrap_or_default();
            plays += u64::from(kind == "play_challenge");
            if e["move"]["seat"].as_u64().is_some_and(|s| s < 2) {
                *people.entry(kind.to_owned()).or_default() += 1;
            }
        }
        for s in &g.seen {
            for (k, raw, answer) in &s.received {
                let msg: Value = serde_json::from_str(raw).unwrap();
                let found = truth.leaks(raw, &msg, s.viewer, *k, *answer);
                assert!(
                    found.is_empty(),
                    "{} to {:?} at {k}: {found:?}\n{raw}",
                    g.invite,
                    s.viewer
                );
                for (owner, t) in g.tokens.iter().enumerate() {
                    let own = s.viewer == Some(owner as u8);
                    assert!(
                        own || !raw.contains(t.as_str()),
                        "seat {owner}'s token reached {:?}",
                        s.viewer
                    );
                }
                messages += 1;
            }
            for (k, view) in &s.views {
                assert_eq!(
                    view,
                    &truth_views[&(*k, s.viewer)],
                    "{:?} rebuilt another view at {k}",
                    s.viewer
                );
                views += 1;
            }
        }
        // During the game nothing but the objective is public to the API.
        for body in &g.answers {
            let msg: Value = serde_json::from_str(body).unwrap_or(Value::Null);
            let found = truth.leaks(body, &msg, None, 0, false);
            assert!(found.is_empty(), "an API answer: {found:?}\n{body}");
            answers += 1;
        }
    }
    let statics = served_files(addr).await;
    assert_eq!(
        handbook,
        reference(addr).await,
        "the reference is catalogue"
    );
    let log = server.log.clone();
    server.stop().await;
    let lines = log.lock().unwrap().clone();
    assert!(
        lines.iter().any(|l| l.contains("game finished")),
        "the log was captured"
    );
    let ids = super::catalogue(&BuildingCities::new(&setup(1, 1, &json!({}))).unwrap());
    for line in &lines {
        assert!(!line.contains("panicked"), "{line}");
        for id in ids.iter().filter(|id| !objectives.contains(*id)) {
            assert!(!contains_token(line, id), "a log line names {id}: {line}");
        }
        for seed in &seeds {
            for s in super::seed_forms(*seed) {
                assert!(
                    !contains_token(line, &s),
                    "a log line carries a seed: {line}"
                );
            }
        }
        for t in played.iter().flat_map(|g| &g.tokens) {
            assert!(
                !line.contains(t.as_str()),
                "a log line carries a seat token: {line}"
            );
        }
    }
    assert!(plays > 0, "challenges were played");
    eprintln!(
        "building cities server sweep: {} tables, {messages} messages, {views} rebuilt views, {answers} API answers, {statics} static files (and a reference: {}), {} log lines checked; {plays} challenges played, the people's moves: {people:?}; in {:?}",
        played.len(),
        handbook.is_some(),
        lines.len(),
        started.elapsed()
    );
}

/// The game's reference (a handbook naming every card), where the server
/// serves one: the same before any table and after every game, so catalogue,
/// not order; not judged card by card.
async fn reference(addr: SocketAddr) -> Option<String> {
    let path = "/api/games/building-cities/reference";
    match try_http(addr, "GET", path, None).await.expect("http") {
        (200, body) => Some(body),
        (status, _) => {
            assert_eq!(status, 404, "{path}");
            None
        }
    }
}

/// Every file under `web/` the server serves is the repository's own, byte for
/// byte: catalogue, the same for every table and version, never game data.
async fn served_files(addr: SocketAddr) -> u64 {
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
    let mut files = vec![web.join("index.html")];
    let mut dirs = vec![web.join("src")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_none_or(|x| x != "ts") {
                files.push(p);
            }
        }
    }
    for f in &files {
        let path = f.strip_prefix(&web).unwrap().display().to_string();
        let (status, body) = try_http(addr, "GET", &format!("/{path}"), None)
            .await
            .expect("http");
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            body,
            std::fs::read_to_string(f).unwrap(),
            "{path} is served as it is"
        );
    }
    files.len() as u64
}
