//! Provably fair shuffles, for Big City and My City: bots play a whole game
//! while a player and a spectator watch; both are shown the commitment when it
//! starts and never the seed or salt; the record reveals a seed and salt whose
//! SHA-256 is that commitment, and `citytable verify` (and
//! `POST /api/records/verify`) accept the record and refuse every tampered copy.

#![allow(clippy::unwrap_used)]

use std::process::Command;

use protocol::api::{CommitmentCheck, RecordCheck, ReplayCheck};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use testkit::server::TestServer;
use testkit::{TestDb, citytable_bin};

/// A finished bots' game of `game`: the record, and every frame the host (no
/// longer seated) and a spectator received.
async fn bots_game(srv: &TestServer, game: &str, seats: u8) -> (Value, Vec<String>) {
    let (invite, spectate, token) = srv.create_table(game, seats, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut watcher = srv.join(&spectate, "Watcher", None).await;
    host.send(&json!({"type": "kick", "seat": 0})).await;
    for seat in 0..seats {
        host.send(&json!({"type": "add_bot", "seat": seat, "level": "greedy"}))
            .await;
    }
    host.send(&json!({"type": "start"})).await;
    let mut frames = Vec::new();
    for client in [&mut watcher, &mut host] {
        loop {
            let m = client.recv().await;
            frames.push(m.to_string());
            if m["type"] == "update" && m.get("outcome").is_some() {
                break;
            }
        }
    }
    let (status, record) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 200, "{record}");
    (record, frames)
}

/// `fairness::check_record` on a record that is one.
fn check_text(record: &Value) -> RecordCheck {
    server::fairness::check_record(
        &server::games::Registry::all(),
        record.to_string().as_bytes(),
    )
    .unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn verify_cli(record: &Value, name: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("citytable-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, record.to_string()).unwrap();
    let out = Command::new(citytable_bin!())
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

async fn the_record_proves_its_shuffles(game: &str, seats: u8) {
    let db = TestDb::sqlite();
    let srv = TestServer::start(&db).await;
    let (record, frames) = bots_game(&srv, game, seats).await;
    let salt = record["salt"].as_str().expect("the salt is revealed");
    let commitment = record["commitment"].as_str().expect("the commitment");
    let seed = record["seed"].as_str().expect("the seed, in hex");
    assert_eq!((seed.len(), salt.len(), commitment.len()), (16, 32, 64));

    // Anyone can recompute it: SHA-256 of the seed's 8 bytes, then the salt's 16.
    let mut bytes = Vec::new();
    for pair in format!("{seed}{salt}").as_bytes().chunks(2) {
        bytes.push(u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap());
    }
    assert_eq!(sha256_hex(&bytes), commitment);

    // Both watchers were shown it at the start, and neither the seed nor the salt.
    let shown = format!("\"commitment\":\"{commitment}\"");
    let snapshots: Vec<&String> = frames
        .iter()
        .filter(|f| f.contains("\"type\":\"snapshot\""))
        .collect();
    assert!(snapshots.len() >= 2, "a snapshot for each");
    assert!(
        snapshots.iter().all(|f| f.contains(&shown)),
        "{snapshots:?}"
    );
    let seed_number = u64::from_str_radix(seed, 16).unwrap().to_string();
    for f in &frames {
        assert!(!f.contains(salt), "the salt leaked: {f}");
        assert!(
            !f.contains(seed) && !f.contains(&seed_number),
            "the seed leaked"
        );
    }

    let (code, said) = verify_cli(&record, "good.json");
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("commitment: matches"), "{said}");
    assert!(said.contains("replay: matches"), "{said}");
    let (status, check) = srv.post("/api/records/verify", &record).await;
    assert_eq!(status, 200, "{check}");
    let check: RecordCheck = serde_json::from_value(check).unwrap();
    assert_eq!(check.commitment, CommitmentCheck::Matches);
    let entries = record["entries"].as_array().unwrap().len() as u32;
    assert_eq!(check.replay, ReplayCheck::Matches { entries });

    // Another seed, even with a salt and commitment that agree with it, does not
    // give the game that was played.
    let mut other = record.clone();
    let other_seed = format!("{:016x}", u64::from_str_radix(seed, 16).unwrap() ^ 1);
    other["seed"] = json!(other_seed);
    let (code, said) = verify_cli(&other, "other-seed.json");
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("commitment: DIFFERS"), "{said}");
    let check = check_text(&other);
    // The other deal shows in a view, or makes a logged move illegal.
    assert!(
        matches!(
            check.replay,
            ReplayCheck::ViewDiffers { .. } | ReplayCheck::Refused { .. }
        ),
        "{check:?}"
    );
    let mut recommitted = other.clone();
    recommitted["commitment"] = json!(
        server::fairness::commitment(u64::from_str_radix(&other_seed, 16).unwrap(), salt).unwrap()
    );
    let (code, said) = verify_cli(&recommitted, "recommitted.json");
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("commitment: matches"), "{said}");
    // As above: a view differs, or a logged move is refused.
    assert!(
        said.contains("replay: DIFFERS") || said.contains("replay: FAILS: the game refuses entry"),
        "{said}"
    );

    // A view changed in the record: the replay finds the step.
    let mut edited = record.clone();
    let last = edited["patches"].as_array().unwrap().len() - 1;
    edited["patches"][last] = json!([]);
    let check = check_text(&edited);
    assert_eq!(check.commitment, CommitmentCheck::Matches);
    assert!(
        matches!(check.replay, ReplayCheck::ViewDiffers { step, seat: None } if step as usize == last + 1)
            || check.replay == ReplayCheck::OutcomeDiffers,
        "{check:?}"
    );
    // Every seat's own views are in the record; one changed is found, with
    // whose it is.
    let seat_views = record["seat_views"].as_array().expect("each seat's views");
    assert_eq!(seat_views.len(), usize::from(seats));
    let mut edited = record.clone();
    let last_seat = usize::from(seats) - 1;
    edited["seat_views"][last_seat]["first"]["edited"] = json!(true);
    assert_eq!(
        check_text(&edited).replay,
        ReplayCheck::ViewDiffers {
            step: 0,
            seat: Some(seats - 1)
        }
    );
    // A record with a commitment but without the seats' views proves nothing
    // of what they were dealt.
    let mut stripped = record.clone();
    stripped.as_object_mut().unwrap().remove("seat_views");
    assert_eq!(check_text(&stripped).replay, ReplayCheck::NoSeatViews);
    let (code, said) = verify_cli(&stripped, "stripped.json");
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("does not show what each seat was dealt"),
        "{said}"
    );
    // A move dropped from the log.
    let mut dropped = record.clone();
    dropped["entries"].as_array_mut().unwrap().remove(0);
    dropped["patches"].as_array_mut().unwrap().remove(0);
    for seat in dropped["seat_views"].as_array_mut().unwrap() {
        seat["patches"].as_array_mut().unwrap().remove(0);
    }
    let (code, said) = verify_cli(&dropped, "dropped.json");
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("replay: "), "{said}");
    assert!(!said.contains("replay: matches"), "{said}");

    // Not a record: a clear refusal, from the command and the API.
    let (code, said) = verify_cli(&json!({"game": game}), "nothing.json");
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("is not a game record"), "{said}");
    let (status, body) = srv.post("/api/records/verify", &json!([1, 2])).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_message")));
    let huge = json!("x".repeat(server::fairness::MAX_RECORD_BYTES + 1));
    let (status, body) = srv.post("/api/records/verify", &huge).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (413, Some("frame_too_large"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn big_city_records_prove_their_shuffles() {
    the_record_proves_its_shuffles("big-city", 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_city_records_prove_their_shuffles() {
    the_record_proves_its_shuffles("my-city", 2).await;
}

/// A Big City game of its starting city alone (nothing drawn, nothing built):
/// every public view is the same whatever the seed, since only the hands were
/// dealt from it. A forged seed with a commitment to match is still caught, by
/// the hands in the seats' views.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_seed_is_caught_by_the_hands_it_deals() {
    let db = TestDb::sqlite();
    let srv = TestServer::start(&db).await;
    let (invite, _, token) = srv.create_table("big-city", 2, false).await;
    let mut ana = srv.join(&invite, "Ana", Some(&token)).await;
    let mut bo = srv.join(&invite, "Bo", None).await;
    bo.take_seat(1).await;
    ana.send(&json!({"type": "start"})).await;
    ana.recv_type("snapshot").await;
    let mut id = 0;
    let mut passes = 0;
    while passes < 2 {
        let game = ana.snapshot().await;
        let seat = game["awaiting"]["seats"][0].as_u64().unwrap();
        let version = game["version"].as_u64().unwrap();
        let player = if seat == 0 { &mut ana } else { &mut bo };
        player.send(&json!({"type": "legal_moves"})).await;
        let moves = player.recv_type("legal_moves").await["moves"].clone();
        let moves = moves.as_array().unwrap();
        // The starting city's neighborhoods, then both pass: the game is over.
        let mv = match moves.iter().find(|m| m["type"] == "pass") {
            Some(pass) => {
                passes += 1;
                pass.clone()
            }
            None => moves[0].clone(),
        };
        id += 1;
        player
            .send(&json!({"type": "move", "id": id, "version": version, "mv": mv}))
            .await;
        player.recv_type("move_ok").await;
    }
    let (status, record) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        check_text(&record).replay,
        ReplayCheck::Matches { entries: 6 }
    );

    let salt = record["salt"].as_str().unwrap();
    let seed = u64::from_str_radix(record["seed"].as_str().unwrap(), 16).unwrap();
    let forge = |other: u64| {
        let mut forged = record.clone();
        forged["seed"] = json!(format!("{other:016x}"));
        forged["commitment"] = json!(server::fairness::commitment(other, salt).unwrap());
        forged
    };
    // A seed that gives the same public game (the same first player: about
    // every other seed), found among the seed's neighbours: its public views
    // alone would pass.
    let public_only = |record: &Value| {
        let mut public = record.clone();
        for key in ["seat_views", "salt", "commitment"] {
            public.as_object_mut().unwrap().remove(key);
        }
        public
    };
    let other = (1..64)
        .map(|k| seed ^ k)
        .find(|&other| {
            check_text(&public_only(&forge(other))).replay == ReplayCheck::Matches { entries: 6 }
        })
        .expect("a seed with the same first player");
    let check = check_text(&forge(other));
    assert_eq!(check.commitment, CommitmentCheck::Matches);
    assert!(
        matches!(
            check.replay,
            ReplayCheck::ViewDiffers {
                step: 0,
                seat: Some(_)
            }
        ),
        "{check:?}"
    );
}
