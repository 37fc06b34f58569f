//! What people are called at a table and what they say there: names and chat lines
//! lose the characters that hide or reorder text, a name never repeats another's at
//! the table, and the table keeps only the players it needs. Over real WebSockets
//! and HTTP, against SQLite and Postgres.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use testkit::server::TestServer;
use testkit::{Client, TestDb, both_stores};

fn seat_name(table: &Value, seat: usize) -> String {
    table["seats"][seat]["occupant"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn names_are_cleaned_and_unique_at_a_table(db: &TestDb) {
    let srv = TestServer::start(db).await;
    // The host's name loses its bidi override and zero-width space.
    let (invite, _, token) = srv
        .create_table_with(json!({
            "game": "tic-tac-toe",
            "name": "\u{202E}Ho\u{200B}st",
            "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false}
        }))
        .await;
    let mut host = srv.join(&invite, "ignored", Some(&token)).await;
    assert_eq!(seat_name(&host.table().await, 0), "Host");

    // Only invisible characters, or a control character: no name.
    for bad in ["\u{200B}\u{2066}\u{FEFF}", "Ana\u{1b}[31m", "Ana\u{0}"] {
        let mut c = Client::connect(&srv.ws_url(&invite)).await;
        c.send(&json!({"type": "hello", "name": bad})).await;
        c.expect_error("bad_name").await;
    }

    // Exact duplicates, duplicates but for case and spaces, and duplicates hidden
    // behind invisible characters each get a name of their own.
    let ana = srv.join(&invite, "Ana", None).await;
    let ana2 = srv.join(&invite, "  ana ", None).await;
    let ana3 = srv.join(&invite, "A\u{200D}na\u{2069}", None).await;
    let host2 = srv.join(&invite, "HOST", None).await;
    let long = "x".repeat(protocol::MAX_NAME_CHARS);
    let long1 = srv.join(&invite, &long, None).await;
    let long2 = srv.join(&invite, &long, None).await;
    assert_eq!(ana.you["name"], "Ana");
    assert_eq!(ana2.you["name"], "ana 2");
    assert_eq!(ana3.you["name"], "Ana 3");
    assert_eq!(host2.you["name"], "HOST 2");
    assert_eq!(long1.you["name"], long.as_str());
    let long2_name = long2.you["name"].as_str().unwrap();
    assert_eq!(long2_name.chars().count(), protocol::MAX_NAME_CHARS);
    assert!(long2_name.ends_with(" 2"), "{long2_name}");

    // The name taken to a seat is the one given at the table.
    let mut ana2 = ana2;
    ana2.send(&json!({"type": "take_seat", "seat": 1})).await;
    let w = ana2.recv_type("welcome").await;
    assert_eq!(seat_name(&w["table"], 1), "ana 2");
    srv.stop().await;
}
both_stores!(names, names_are_cleaned_and_unique_at_a_table);

async fn chat_lines_lose_control_and_invisible_characters(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut guest = srv.join(&invite, "Guest", None).await;
    guest
        .send(&json!({"type": "chat", "text": "\u{0}hi\u{1b}[2J\nthere\u{202E}\u{200B}!\u{7}"}))
        .await;
    let line = host.recv_type("chat").await;
    assert_eq!(line["line"]["text"], "hi[2J there!");
    // Nothing left once cleaned: refused, and nobody gets a line.
    guest
        .send(&json!({"type": "chat", "text": "\u{0}\u{1b}\n\u{200B}\u{202E}\u{FEFF} "}))
        .await;
    guest.expect_error("bad_chat").await;
    guest.send(&json!({"type": "chat", "text": "next"})).await;
    assert_eq!(host.recv_type("chat").await["line"]["text"], "next");
    srv.stop().await;
}
both_stores!(chat, chat_lines_lose_control_and_invisible_characters);

async fn players_without_a_seat_leave_the_table_document(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    // The host leaves his seat: he stays (he is the host).
    host.send(&json!({"type": "leave_seat"})).await;
    host.recv_type("table").await;
    // Visitors take seat 1 and leave it, or are kicked from it.
    let mut left_tokens = Vec::new();
    for i in 0..4 {
        let mut v = srv.join(&invite, &format!("Visitor {i}"), None).await;
        v.send(&json!({"type": "take_seat", "seat": 1})).await;
        let w = v.recv_type("welcome").await;
        left_tokens.push(w["you"]["token"].as_str().unwrap().to_owned());
        if i % 2 == 0 {
            v.send(&json!({"type": "leave_seat"})).await;
        } else {
            host.send(&json!({"type": "kick", "seat": 1})).await;
        }
        v.recv_type("welcome").await;
        assert_eq!(v.table().await["seats"][1]["occupant"]["kind"], "empty");
        // Sitting again with the same connection works and shows the name.
        if i == 3 {
            v.send(&json!({"type": "take_seat", "seat": 1})).await;
            let w = v.recv_type("welcome").await;
            assert_eq!(w["you"]["seat"], 1);
            assert_eq!(seat_name(&w["table"], 1), "Visitor 3");
        }
    }
    let mut seated = srv.join(&invite, "Sitter", None).await;
    seated.send(&json!({"type": "take_seat", "seat": 0})).await;
    let w = seated.recv_type("welcome").await;
    let sitter_token = w["you"]["token"].as_str().unwrap().to_owned();
    srv.stop().await;

    let store = store::Store::open(db.url.as_deref(), &db.dir)
        .await
        .expect("open store");
    let row = store.table_by_code(&invite).await.unwrap().unwrap();
    let mut kept: Vec<String> = row.doc["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["token_hash"].as_str().unwrap().to_owned())
        .collect();
    kept.sort();
    let mut expected = vec![
        server::codes::hash_token(&token),
        server::codes::hash_token(&sitter_token),
        server::codes::hash_token(&left_tokens[3]),
    ];
    expected.sort();
    assert_eq!(kept, expected, "only the host and seated players are kept");
}
both_stores!(pruning, players_without_a_seat_leave_the_table_document);
