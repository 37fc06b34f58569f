//! Big Cityz through the real `citytable` process: a table of two people, two bots
//! and a spectator plays to the end, objecting and being objected to, and the
//! facts of a city never leave the server before its card is judged: not in any
//! message a client received, an HTTP answer, the record, a log line, nor in the
//! files the server serves to browsers.
//!
//! A fact is recognised by what belongs to one city alone in `data/cities.json`:
//! its sources, weather station, time zone and airport as whole strings, and its
//! population, latitude, longitude and area as numbers. (Small numbers such as a
//! founding year or an elevation cannot be told apart from versions and scores;
//! the rules crate's property test shows views do not depend on them at all.)
//!
//! `CITYTABLE_CITYZ_GAMES` (default 2) scales the run.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use big_cityz::{CITIES, City};
use serde_json::{Value, json};
use testkit::http::{create_table, try_http};
use testkit::process::Launch;
use testkit::{Client, Rng, TestDb, citytable_bin, env_num};

/// What gives one city's facts away.
#[derive(Default)]
struct Secrets {
    /// Whole JSON strings, quoted as serde_json writes them.
    strings: Vec<String>,
    integers: Vec<u64>,
    floats: Vec<f64>,
}

fn strings_of(c: &City) -> Vec<&'static str> {
    let mut s = vec![
        c.founded.source,
        c.location_source,
        c.elevation_m.source,
        c.temperature_c.source,
        c.station,
        c.time_zone,
        c.airport_source,
        c.population.source,
        c.area_km2.source,
        c.drives_left.source,
        c.coast.source,
        c.capital.source,
    ];
    if let Some(a) = c.airport {
        s.extend([a.iata, a.name]);
    }
    s
}

/// Per city id, the strings and numbers that belong to it alone and to no card's
/// public face.
fn secrets() -> HashMap<&'static str, Secrets> {
    let public: BTreeSet<&str> = CITIES
        .iter()
        .flat_map(|c| [c.id, c.name_en, c.name_fr, c.country])
        .collect();
    let mut owners: HashMap<&str, usize> = HashMap::new();
    for c in CITIES {
        for s in strings_of(c).into_iter().collect::<BTreeSet<_>>() {
            *owners.entry(s).or_default() += 1;
        }
    }
    let unique_u64 = |v: u64| CITIES.iter().filter(|c| c.population.value == v).count() == 1;
    let unique_f64 = |v: f64| {
        CITIES
            .iter()
            .flat_map(|c| {
                [
                    c.latitude,
                    c.longitude,
                    c.area_km2.value,
                    c.temperature_c.value,
                ]
            })
            .filter(|x| *x == v)
            .count()
            == 1
    };
    CITIES
        .iter()
        .map(|c| {
            let strings = strings_of(c)
                .into_iter()
                .filter(|s| owners[s] == 1 && !public.contains(s) && s.len() >= 3)
                .map(|s| serde_json::to_string(s).unwrap())
                .collect();
            let integers = [c.population.value]
                .into_iter()
                .filter(|v| *v >= 10_000 && unique_u64(*v))
                .collect();
            let floats = [c.latitude, c.longitude, c.area_km2.value]
                .into_iter()
                .filter(|v| v.fract() != 0.0 && v.abs() >= 50.0 && unique_f64(*v))
                .collect();
            (
                c.id,
                Secrets {
                    strings,
                    integers,
                    floats,
                },
            )
        })
        .collect()
}

/// The cities whose judgment a message carries (an object with `city` and `facts`).
fn judged_in(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let (Some(city), Some(_)) = (m.get("city"), m.get("facts"))
                && let Some(id) = city["id"].as_str()
            {
                out.insert(id.to_owned());
            }
            m.values().for_each(|x| judged_in(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| judged_in(x, out)),
        _ => {}
    }
}

fn numbers(v: &Value, ints: &mut BTreeSet<u64>, floats: &mut Vec<f64>) {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_u64() {
                ints.insert(i);
            } else if let Some(f) = n.as_f64() {
                floats.push(f);
            }
        }
        Value::Object(m) => m.values().for_each(|x| numbers(x, ints, floats)),
        Value::Array(a) => a.iter().for_each(|x| numbers(x, ints, floats)),
        _ => {}
    }
}

/// The facts of cities not in `judged` that `raw` (a JSON text, parsed as `msg`) carries.
fn leaks(
    raw: &str,
    msg: &Value,
    judged: &BTreeSet<String>,
    secrets: &HashMap<&'static str, Secrets>,
) -> Vec<String> {
    let mut ints = BTreeSet::new();
    let mut floats = Vec::new();
    numbers(msg, &mut ints, &mut floats);
    let mut found = Vec::new();
    for (id, s) in secrets.iter().filter(|(id, _)| !judged.contains(**id)) {
        found.extend(
            s.strings
                .iter()
                .filter(|t| raw.contains(t.as_str()))
                .map(|t| format!("{id}: {t}")),
        );
        found.extend(
            s.integers
                .iter()
                .filter(|i| ints.contains(i))
                .map(|i| format!("{id}: {i}")),
        );
        found.extend(
            s.floats
                .iter()
                .filter(|f| floats.contains(f))
                .map(|f| format!("{id}: {f}")),
        );
    }
    found
}

/// The facts of cities not in `judged` that a text which is not JSON carries (a
/// log line, a script): strings of 8 characters or more anywhere, populations in
/// decimal.
fn text_leaks(
    text: &str,
    judged: &BTreeSet<String>,
    secrets: &HashMap<&'static str, Secrets>,
) -> Vec<String> {
    let mut found = Vec::new();
    for (id, s) in secrets.iter().filter(|(id, _)| !judged.contains(**id)) {
        for t in &s.strings {
            let bare: String = serde_json::from_str(t).unwrap();
            if bare.len() >= 8 && text.contains(&bare) {
                found.push(format!("{id}: {bare}"));
            }
        }
        for i in &s.integers {
            if text.contains(&i.to_string()) {
                found.push(format!("{id}: {i}"));
            }
        }
    }
    found
}

/// Everything one client received, in order.
struct Received {
    who: &'static str,
    messages: Vec<String>,
    objections: u32,
}

/// A person who plays legal moves, objects about one time in three, and now and
/// then sends a move the rules refuse; or a spectator (`seat` none).
async fn player(url: String, who: &'static str, token: Option<String>, seed: u64) -> Received {
    let mut rng = Rng::new(seed);
    let mut c = Client::join(&url, who, token.as_deref()).await;
    let mut out = Received {
        who,
        messages: Vec::new(),
        objections: 0,
    };
    let mut seat: Option<u64> = None;
    let mut version = 0u64;
    let mut awaited = false;
    let mut asked = false;
    let mut next_id = 1u64;
    loop {
        let m = c
            .next_within(Duration::from_secs(30))
            .await
            .unwrap_or_else(|e| panic!("{who}: the game stalled ({e:?})"));
        out.messages.push(m.to_string());
        let game = match m["type"].as_str() {
            Some("welcome") => {
                seat = m["you"]["seat"].as_u64();
                continue;
            }
            Some("snapshot") => Some(&m["game"]),
            Some("update") => Some(&m),
            Some("error") | Some("move_ok") | Some("legal_moves") => {
                asked = false;
                None
            }
            _ => None,
        };
        if let Some(g) = game {
            version = g["version"].as_u64().unwrap_or(version);
            if let Some(a) = g.get("awaiting").filter(|a| !a.is_null()) {
                awaited = seat.is_some_and(|s| a["seats"].as_array().unwrap().contains(&json!(s)));
            }
            if g.get("outcome").is_some_and(|o| !o.is_null()) {
                return out;
            }
        }
        let Some(_) = seat else { continue };
        if m["type"] == "legal_moves" && m["version"] == version && awaited {
            let moves = m["moves"].as_array().unwrap();
            if moves.is_empty() {
                continue;
            }
            let objects = moves.iter().find(|m| m["type"] == "object");
            let mv = match objects {
                Some(o) if rng.below(3) == 0 => o.clone(),
                _ => {
                    // Mostly placements (the game moves on), sometimes anything legal.
                    let places: Vec<&Value> =
                        moves.iter().filter(|m| m["type"] == "place").collect();
                    if places.is_empty() || rng.below(5) == 0 {
                        moves[rng.below(moves.len() as u64) as usize].clone()
                    } else {
                        places[rng.below(places.len() as u64) as usize].clone()
                    }
                }
            };
            if mv["type"] == "object" {
                out.objections += 1;
            }
            tokio::time::sleep(Duration::from_millis(55)).await;
            c.send(&json!({"type": "move", "id": next_id, "version": version, "mv": mv}))
                .await;
            next_id += 1;
            asked = true;
        } else if awaited && !asked {
            tokio::time::sleep(Duration::from_millis(55)).await;
            if rng.below(8) == 0 {
                // A refused move: its error must not say more than the move did.
                let probe = match rng.below(3) {
                    0 => json!({"type": "replace", "board": rng.below(9)}),
                    1 => json!({"type": "object"}),
                    _ => {
                        json!({"type": "place", "square": {"type": "risk", "pair": rng.below(6), "color": "green"}})
                    }
                };
                c.send(&json!({"type": "move", "id": next_id, "version": version, "mv": probe}))
                    .await;
                next_id += 1;
            } else {
                c.send(&json!({"type": "legal_moves"})).await;
            }
            asked = true;
        }
    }
}

struct Played {
    invite: String,
    spectate: String,
    received: Vec<Received>,
}

async fn play(addr: std::net::SocketAddr, rng: &mut Rng) -> Played {
    let (invite, spectate, host_token) = create_table(
        addr,
        &json!({"game": "big-cityz", "name": "Ana",
                "settings": {"seats": 4, "options": {"objection_ms": 2000}, "spectators_allowed": true, "public": true}}),
    )
    .await;
    let url = format!("ws://{addr}/ws/{invite}");
    let mut host = Client::join(&url, "Ana", Some(&host_token)).await;
    let mut guest = Client::join(&url, "Bo", None).await;
    let guest_token = guest.take_seat(1).await;
    guest.close().await;
    for (seat, level) in [(2, "random"), (3, "greedy")] {
        host.send(&json!({"type": "add_bot", "seat": seat, "level": level}))
            .await;
    }
    let clients = [
        tokio::spawn(player(url.clone(), "Ana", Some(host_token), rng.next())),
        tokio::spawn(player(url.clone(), "Bo", Some(guest_token), rng.next())),
        tokio::spawn(player(
            format!("ws://{addr}/ws/{spectate}"),
            "Eve",
            None,
            rng.next(),
        )),
    ];
    tokio::time::sleep(Duration::from_millis(100)).await;
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    host.close().await;
    let mut received = Vec::new();
    for c in clients {
        received.push(c.await.unwrap());
    }
    Played {
        invite,
        spectate,
        received,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_sweep_unjudged_facts_never_leave() {
    let secrets = secrets();
    assert!(
        secrets.values().all(|s| !s.strings.is_empty()),
        "every city has facts of its own to look for"
    );
    let db = TestDb::sqlite();
    let server = Launch::new(citytable_bin!(), &db.dir).start().await;
    let addr = server.addr;
    let mut rng = Rng::new(env_num("CITYTABLE_LEAK_SEED", 0xc172));
    let mut judged_anywhere = BTreeSet::new();
    let mut checked = 0u64;
    for _ in 0..env_num("CITYTABLE_CITYZ_GAMES", 2) {
        let played = play(addr, &mut rng).await;
        let mut judgments = 0;
        for r in &played.received {
            let mut judged = BTreeSet::new();
            for raw in &r.messages {
                let msg: Value = serde_json::from_str(raw).unwrap();
                judged_in(&msg, &mut judged);
                let found = leaks(raw, &msg, &judged, &secrets);
                assert!(found.is_empty(), "{} received {found:?} in {raw}", r.who);
                checked += 1;
            }
            judgments = judgments.max(judged.len());
            judged_anywhere.extend(judged);
        }
        assert!(judgments >= 4, "cards were judged: {judgments}");
        let over = played.received[2].messages.last().unwrap();
        assert!(over.contains("game_over"), "the spectator saw the end");
        // The people objected, each at least once over the game.
        let objections: Vec<u32> = played.received[..2].iter().map(|r| r.objections).collect();
        assert!(
            objections.iter().all(|n| *n > 0),
            "objections: {objections:?}"
        );
        // HTTP: the table, its listing and the record of the finished game.
        for path in [
            format!("/api/tables/{}", played.invite),
            format!("/api/tables/{}", played.spectate),
            format!("/api/tables/{}/record", played.invite),
            "/api/tables".to_owned(),
        ] {
            let (status, body) = try_http(addr, "GET", &path, None).await.expect("http");
            assert_eq!(status, 200, "{path}: {body}");
            let msg: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            let found = leaks(&body, &msg, &judged_anywhere, &secrets);
            assert!(found.is_empty(), "{path}: {found:?}");
            checked += 1;
        }
    }
    // The browser's files: the page and every file under web/ the server serves.
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
    let mut served = vec!["index.html".to_owned()];
    let mut dirs = vec![web.join("src")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_none_or(|x| x != "ts") {
                served.push(p.strip_prefix(&web).unwrap().display().to_string());
            }
        }
    }
    for path in &served {
        let (status, body) = try_http(addr, "GET", &format!("/{path}"), None)
            .await
            .expect("http");
        assert_eq!(status, 200, "{path}");
        let found = text_leaks(&body, &BTreeSet::new(), &secrets);
        assert!(found.is_empty(), "{path} ships city facts: {found:?}");
        checked += 1;
    }
    let log = server.log.clone();
    server.stop().await;
    let lines = log.lock().unwrap().clone();
    assert!(
        lines.iter().any(|l| l.contains("game finished")),
        "the log was captured"
    );
    for line in &lines {
        let found = text_leaks(line, &judged_anywhere, &secrets);
        assert!(found.is_empty(), "a log line carries {found:?}: {line}");
    }
    eprintln!(
        "big cityz leaks: {checked} messages, HTTP answers and files checked, {} log lines",
        lines.len()
    );
}

/// The sweep sees a fact when one is there, and lets it pass once judged.
#[test]
fn the_sweep_recognises_a_citys_facts() {
    let secrets = secrets();
    let city = &CITIES[0];
    let judged = BTreeSet::from([city.id.to_owned()]);
    for raw in [
        json!({"evidence": {"population": city.population.value}}).to_string(),
        format!(
            r#"{{"source": {}}}"#,
            secrets[city.id].strings.last().unwrap()
        ),
        format!(r#"{{"station": {}}}"#, secrets[city.id].strings[0]),
    ] {
        let msg: Value = serde_json::from_str(&raw).unwrap();
        assert!(
            !leaks(&raw, &msg, &BTreeSet::new(), &secrets).is_empty(),
            "{raw}"
        );
        assert!(leaks(&raw, &msg, &judged, &secrets).is_empty(), "{raw}");
    }
    let fact: String = serde_json::from_str(&secrets[city.id].strings[0]).unwrap();
    let line = format!("moved: {fact} ({})", city.population.value);
    assert_eq!(
        text_leaks(&line, &BTreeSet::new(), &secrets).len(),
        2,
        "{line}"
    );
}
