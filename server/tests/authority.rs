//! Authority, against the real `citytable` process: a connection cannot act for
//! a seat it does not hold, join a full table, take a seat through a spectator
//! link, start or change a table it does not host, use a seat token at another
//! table, find a private table by listing or by guessing (codes carry 100 random
//! bits; wrong lookups are rate limited), and the store keeps only token hashes.

#![allow(clippy::unwrap_used)]

use std::collections::HashSet;

use serde_json::{Value, json};
use testkit::http::{create_table, http};
use testkit::process::Launch;
use testkit::{Client, Rng, TestDb, citytable_bin};

const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

#[test]
fn codes_carry_enough_randomness() {
    let n = 4000;
    let codes: Vec<String> = (0..n).map(|_| server::codes::new_code()).collect();
    let distinct: HashSet<&String> = codes.iter().collect();
    assert_eq!(distinct.len(), n, "no repeated code");
    // 20 symbols of a 32-symbol alphabet: 100 bits if every symbol is uniform.
    let bits_per_code = 20.0 * (ALPHABET.len() as f64).log2();
    assert!(bits_per_code >= 100.0);
    let mut ones = [0u32; 100];
    let mut per_position = vec![[0u32; 32]; 20];
    for code in &codes {
        assert!(server::codes::plausible_code(code), "{code}");
        for (i, b) in code.bytes().enumerate() {
            let v = ALPHABET.iter().position(|&a| a == b).expect("alphabet") as u32;
            per_position[i][v as usize] += 1;
            for bit in 0..5 {
                ones[i * 5 + bit] += (v >> bit) & 1;
            }
        }
    }
    // Every one of the 100 bits is a fair coin (4000 draws: sigma ~ 32, bounds ~ 6 sigma),
    // and every symbol shows up at every position about n/32 times.
    for (i, &k) in ones.iter().enumerate() {
        assert!((1800..=2200).contains(&k), "bit {i} set {k} times of {n}");
    }
    for (i, counts) in per_position.iter().enumerate() {
        for (s, &c) in counts.iter().enumerate() {
            assert!(
                (60..=200).contains(&c),
                "symbol {s} at position {i}: {c} of {n}"
            );
        }
    }
    let tokens: HashSet<String> = (0..1000).map(|_| server::codes::new_token()).collect();
    assert_eq!(tokens.len(), 1000);
    assert!(
        tokens.iter().all(|t| t.len() == 48),
        "48 symbols = 240 bits"
    );
    eprintln!("codes: {n} codes distinct, 100 fair bits each; tokens 240 bits");
}

fn random_code(rng: &mut Rng) -> String {
    (0..20)
        .map(|_| char::from(ALPHABET[rng.below(32) as usize]))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_codes_is_refused_then_slowed_never_locking_out() {
    let db = TestDb::sqlite();
    let srv = Launch::new(citytable_bin!(), &db.dir).start().await;
    let (invite, _, _) = create_table(
        srv.addr,
        &json!({"game": "tic-tac-toe", "name": "Ana",
                "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false}}),
    )
    .await;
    // A private table is not listed.
    let (status, list) = http(srv.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200);
    assert!(
        !list.to_string().contains(&invite),
        "a private table is never listed"
    );
    let (status, info) = http(srv.addr, "GET", &format!("/api/tables/{invite}"), None).await;
    assert_eq!((status, info["game"].as_str()), (200, Some("tic-tac-toe")));

    let mut rng = Rng::new(0xc0de);
    let slowed = |text: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix("citytable_slowed_lookups_total "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    };
    // Wrong codes answer 404 every time; past a few dozen from one address each
    // further miss is slowed (counted, never timed here).
    let mut misses = 0;
    let limited = loop {
        let code = random_code(&mut rng);
        let path = if misses % 2 == 0 {
            format!("/api/tables/{code}")
        } else {
            format!("/api/tables/{code}/record")
        };
        let (status, body) = http(srv.addr, "GET", &path, None).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("no_such_table"))
        );
        misses += 1;
        let (_, metrics) = http(srv.addr, "GET", "/metrics", None).await;
        if slowed(metrics.as_str().unwrap_or_default()) > 0 {
            break misses;
        }
        assert!(misses <= 100, "wrong lookups are slowed");
    };
    assert!(limited >= 10, "a few typos are allowed ({limited})");
    // A wrong code on the socket is refused as well, and slowed too.
    match Client::open(srv.ws_url(&random_code(&mut rng))).await {
        Err(refused) => assert_eq!(refused.status(), Some(404), "{refused:?}"),
        Ok(_) => panic!("expected 404 before the upgrade, got a socket"),
    }
    let (_, metrics) = http(srv.addr, "GET", "/metrics", None).await;
    assert!(slowed(metrics.as_str().unwrap_or_default()) >= 2);
    // A right code from the same address is still answered, over HTTP and the
    // socket: a guesser behind a shared address locks nobody out.
    let (status, _) = http(srv.addr, "GET", &format!("/api/tables/{invite}"), None).await;
    assert_eq!(status, 200);
    let ws = Client::open(srv.ws_url(&invite))
        .await
        .expect("a right code opens its socket");
    drop(ws);
    eprintln!("guessing: slowed after {limited} wrong lookups; 100-bit codes");
    srv.stop().await;
}

async fn error_code(c: &mut Client, msg: Value) -> String {
    c.send(&msg).await;
    c.recv_type("error").await["code"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_hosts_and_tokens_are_guarded() {
    let db = TestDb::sqlite();
    let srv = Launch::new(citytable_bin!(), &db.dir).start().await;
    let settings = json!({"seats": 2, "options": {}, "spectators_allowed": true, "public": false});
    let (invite, spectate, host_token) = create_table(
        srv.addr,
        &json!({"game": "tic-tac-toe", "name": "Ana", "settings": settings}),
    )
    .await;
    let (invite2, spectate2, host2_token) = create_table(
        srv.addr,
        &json!({"game": "tic-tac-toe", "name": "Cy", "settings": settings}),
    )
    .await;
    let mut host = Client::join(&srv.ws_url(&invite), "Ana", Some(&host_token)).await;
    let mut bo = Client::join(&srv.ws_url(&invite), "Bo", None).await;
    bo.send(&json!({"type": "take_seat"})).await;
    let bo_token = loop {
        let w = bo.recv_type("welcome").await;
        if w["you"]["seat"] == 1 {
            break w["you"]["token"].as_str().unwrap().to_owned();
        }
    };
    // The table is full: a third visitor cannot sit, and is no host.
    let mut eve = Client::join(&srv.ws_url(&invite), "Eve", None).await;
    assert_eq!(
        error_code(&mut eve, json!({"type": "take_seat"})).await,
        "seat_taken"
    );
    assert_eq!(
        error_code(&mut eve, json!({"type": "take_seat", "seat": 0})).await,
        "seat_taken"
    );
    for msg in [
        json!({"type": "start"}),
        json!({"type": "kick", "seat": 1}),
        json!({"type": "add_bot", "seat": 1, "level": "random"}),
        json!({"type": "configure", "settings": settings}),
        json!({"type": "play_again"}),
    ] {
        assert_eq!(error_code(&mut eve, msg.clone()).await, "not_host", "{msg}");
        assert_eq!(error_code(&mut bo, msg.clone()).await, "not_host", "{msg}");
    }
    // A spectator link never shows the invite code and never gives a seat.
    let mut spy = Client::join(&srv.ws_url(&spectate), "Spy", None).await;
    spy.send(&json!({"type": "resync"})).await;
    let w = spy.recv_type("welcome").await;
    assert!(w["table"].get("invite_code").is_none(), "{w}");
    assert!(!w.to_string().contains(&invite));
    assert_eq!(
        error_code(&mut spy, json!({"type": "take_seat"})).await,
        "spectator"
    );

    // Tokens work only at their own table.
    for token in [&host_token, &bo_token] {
        let mut c = Client::connect(&srv.ws_url(&invite2)).await;
        assert_eq!(
            error_code(
                &mut c,
                json!({"type": "hello", "name": "X", "token": token})
            )
            .await,
            "bad_token"
        );
        // Still nobody there: the next hello without a token makes a visitor.
        c.send(&json!({"type": "hello", "name": "X"})).await;
        let w = c.recv_type("welcome").await;
        assert!(
            w["you"].get("seat").is_none() && w["you"]["is_host"] == false,
            "{w}"
        );
        let mut s = Client::connect(&srv.ws_url(&spectate2)).await;
        assert_eq!(
            error_code(
                &mut s,
                json!({"type": "hello", "name": "X", "token": token})
            )
            .await,
            "bad_token"
        );
    }
    // The second table's host turns spectators away.
    let mut cy = Client::join(&srv.ws_url(&invite2), "Cy", Some(&host2_token)).await;
    cy.send(&json!({"type": "configure", "settings": {"seats": 2, "options": {}, "spectators_allowed": false, "public": false}}))
        .await;
    cy.recv_type("table").await;
    let mut late = Client::connect(&srv.ws_url(&spectate2)).await;
    assert_eq!(
        error_code(&mut late, json!({"type": "hello", "name": "Late"})).await,
        "no_spectators"
    );

    // In play: only the awaited seat moves, and a move cannot name another seat.
    host.send(&json!({"type": "start"})).await;
    let snap = host.recv_type("snapshot").await;
    let version = snap["game"]["version"].clone();
    let first = snap["game"]["awaiting"]["seats"][0].as_u64().unwrap();
    let (mover, waiter) = if first == 0 {
        (&mut host, &mut bo)
    } else {
        (&mut bo, &mut host)
    };
    let mv = json!({"type": "move", "id": 1, "version": version, "mv": {"cell": 4}});
    assert_eq!(error_code(waiter, mv.clone()).await, "not_your_turn");
    assert_eq!(error_code(&mut eve, mv.clone()).await, "not_seated");
    assert_eq!(error_code(&mut spy, mv.clone()).await, "not_seated");
    let mut as_other = mv.clone();
    as_other["seat"] = json!(first);
    assert_eq!(error_code(waiter, as_other).await, "bad_message");
    assert_eq!(
        error_code(&mut eve, json!({"type": "legal_moves"})).await,
        "not_seated"
    );
    // The rightful seat still moves.
    mover.send(&mv).await;
    assert_eq!(mover.recv_type("move_ok").await["version"], 1);
    // A seat token brings its seat back on a new connection.
    let again = Client::join(&srv.ws_url(&invite), "whoever", Some(&bo_token)).await;
    assert_eq!(again.you["seat"], 1);
    srv.stop().await;

    // Only hashes of tokens are stored.
    let store = db.open_store().await;
    for code in [&invite, &invite2] {
        let row = store.table_by_code(code).await.unwrap().unwrap();
        let doc = row.doc.to_string();
        for t in [&host_token, &bo_token, &host2_token] {
            assert!(
                !doc.contains(t.as_str()),
                "a plain token in the stored table"
            );
        }
        assert!(doc.contains(&server::codes::hash_token(if code == &invite {
            &host_token
        } else {
            &host2_token
        })));
    }
}
