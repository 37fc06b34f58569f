//! What people are called at a table and what they say there: names and chat lines
//! lose the characters that hide or reorder text, and a name never repeats another's
//! at the table. Over real WebSockets and HTTP, against SQLite and Postgres.

#![allow(clippy::unwrap_used)]

mod support;

use serde_json::{Value, json};
use support::{TestDb, TestServer};

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
        let mut c = support::Client::connect(&srv.ws_url(&invite)).await;
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
