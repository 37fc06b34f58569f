//! A hostile client degrades only itself: idle and silent connections are
//! closed, every connection counts against its address, a client that stops
//! reading is cut off and its queue freed, table options are checked against
//! the game, table creation is budgeted per address, the lobby listing is paged,
//! guessing codes is slowed without refusing right ones, the web surface sends
//! its security headers and refuses cross-site requests, and a long game's
//! record is built once and kept within a memory budget. `X-Forwarded-For`
//! changes no budget unless it comes from a trusted proxy; behind one, each
//! client has budgets of its own, and what it writes into the header itself
//! does not change its address.
//!
//! Nothing here times the server: each test waits (with a generous bound) for
//! an outcome, and asserts counts and outcomes.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::{Value, json};
use testkit::client::{NoMessage, Refused};
use testkit::server::TestServer;
use testkit::{Client, TestDb, WAIT, both_stores};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One figure from `/metrics`.
async fn metric(srv: &TestServer, name: &str) -> f64 {
    let (status, text) = srv.get_text("/metrics").await;
    assert_eq!(status, 200, "metrics: {text}");
    text.lines()
        .find_map(|line| {
            let (key, value) = line.split_once(' ')?;
            (key == name).then(|| value.trim().parse().ok())?
        })
        .unwrap_or_else(|| panic!("no metric {name}"))
}

/// Waits until `metric` reaches `want` (or fails after a generous bound).
async fn wait_for_metric(srv: &TestServer, name: &str, want: impl Fn(f64) -> bool) -> f64 {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let v = metric(srv, name).await;
        if want(v) {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{name} stayed at {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether the server closes `tcp` (end of stream or reset) within the bound.
async fn closed_by_server(tcp: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio::time::timeout_at(deadline, tcp.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

fn short_timeouts() -> server::Config {
    server::Config {
        header_timeout: Duration::from_millis(500),
        hello_timeout: Duration::from_millis(500),
        write_timeout: Duration::from_millis(500),
        ..testkit::server::test_config()
    }
}

/// A connection that never sends its request headers is closed; so is a
/// WebSocket that never says hello.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_are_closed() {
    let db = TestDb::sqlite();
    let srv = TestServer::start_config(&db, short_timeouts()).await;
    let mut idle = TcpStream::connect(srv.addr).await.unwrap();
    assert!(
        closed_by_server(&mut idle).await,
        "a connection without a request is closed"
    );
    let mut half = TcpStream::connect(srv.addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n")
        .await
        .unwrap();
    assert!(
        closed_by_server(&mut half).await,
        "a request whose headers never end is closed"
    );

    let (invite, _, _) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut ws = Client::connect(&srv.ws_url(&invite)).await;
    let mut refused = None;
    let ended = tokio::time::timeout(WAIT, async {
        loop {
            match ws.next_within(WAIT).await {
                Ok(msg) => refused = Some(msg),
                Err(NoMessage::Closed) => break,
                Err(NoMessage::Quiet) => {}
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "a socket that never says hello is closed");
    assert_eq!(refused.expect("an error first")["code"], "hello_first");
    srv.stop().await;
}

/// Plain HTTP connections count against the address's budget as WebSockets do;
/// one over the budget is answered 429, and a closed one frees its place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_connection_counts_against_its_address() {
    let db = TestDb::sqlite();
    let config = server::Config {
        max_connections_per_address: 3,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(TcpStream::connect(srv.addr).await.unwrap());
    }
    // Let the server accept all three before the fourth arrives.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, body) = srv.get("/healthz").await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["code"], "rate_limited");
    drop(idle.pop());
    let mut answered = false;
    for _ in 0..100 {
        if srv.get("/healthz").await.0 == 200 {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(answered, "a closed connection frees its place");
    drop(idle);
    assert!(
        wait_for_metric(&srv, "citytable_refused_connections_total", |v| v >= 1.0).await >= 1.0
    );
    srv.stop().await;
}

/// A spectator who asks for snapshots and never reads what comes back is cut
/// off once his socket stops draining: the connection closes and is no longer
/// counted, while the table plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_cut_off() {
    let db = TestDb::sqlite();
    let srv = TestServer::start_config(&db, short_timeouts()).await;
    let (invite, spectate, token) = srv.create_table("my-city", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    host.send(&json!({"type": "add_bot", "seat": 1, "level": "greedy"}))
        .await;
    host.recv_type("table").await;
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;

    // A tiny receive window, and nothing ever read.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let tcp = socket.connect(srv.addr).await.unwrap();
    let mut ws = Client::open_on(tcp, &srv.ws_url(&spectate)).await.unwrap();
    ws.hello("Lurker", None).await;
    wait_for_metric(&srv, "citytable_connections", |v| v == 2.0).await;
    let mut sent = 0;
    for _ in 0..2_000 {
        // Within the message rate, so only the unread answers can stop it.
        if !ws.try_send(&json!({"type": "resync"})).await {
            break;
        }
        sent += 1;
        if metric(&srv, "citytable_stalled_connections_total").await >= 1.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    eprintln!("cut off after {sent} unread resyncs");
    wait_for_metric(&srv, "citytable_stalled_connections_total", |v| v == 1.0).await;
    wait_for_metric(&srv, "citytable_connections", |v| v == 1.0).await;
    // The table is unharmed: the host still gets his answers.
    host.send(&json!({"type": "resync"})).await;
    host.recv_type("snapshot").await;
    drop(ws);
    srv.stop().await;
}

/// Raw HTTP with chosen headers; returns the status, the head and the body.
async fn raw(srv: &TestServer, request: &str) -> (u16, String, String) {
    let mut tcp = TcpStream::connect(srv.addr).await.unwrap();
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(WAIT, tcp.read_to_end(&mut buf))
        .await
        .expect("an answer in time")
        .unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_ascii_lowercase(), body.to_owned())
}

fn post(path: &str, headers: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n{headers}content-length: {}\r\n\r\n{body}",
        body.len()
    )
}

fn table_request(options: Value) -> Value {
    json!({
        "game": "big-city", "name": "Ana",
        "settings": {"seats": 3, "options": options, "spectators_allowed": true, "public": true}
    })
}

/// Options are checked against the game: unknown fields, wrong types, huge
/// bodies and NUL characters get a clear 4xx and store nothing, on both stores.
async fn options_are_checked(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let cases = [
        (json!({"trade_cards": true, "note": "x"}), 400),
        (json!({"trade_cards": "yes"}), 400),
        (json!({"nul\u{0}": true}), 400),
        (
            json!({"trade_cards": true, "blob": "x".repeat(2 << 20)}),
            413,
        ),
        (json!([1, 2]), 400),
    ];
    for (options, want) in cases {
        let (status, body) = srv.post("/api/tables", &table_request(options)).await;
        assert_eq!(status, want, "{body}");
        if want == 400 {
            assert_eq!(body["code"], "bad_settings", "{body}");
            assert!(
                body.to_string().len() < 300,
                "the error does not echo the input"
            );
        }
    }
    let (_, list) = srv.get("/api/tables").await;
    assert_eq!(list["tables"], json!([]), "nothing was created");
    // The options a table keeps are the game's, every one named.
    let (invite, _, token) = srv
        .create_table_with(table_request(json!({"trade_cards": true})))
        .await;
    let host = srv.join(&invite, "Ana", Some(&token)).await;
    let mut host = host;
    let table = host.table().await;
    let options = table["settings"]["options"].as_object().unwrap();
    assert_eq!(options["trade_cards"], true);
    assert!(options.contains_key("single_streetcar_line"));
    // The host cannot slip an unknown option in later either.
    host.send(&json!({"type": "configure", "settings": {"seats": 3, "options": {"x": 1}, "spectators_allowed": true, "public": true}})).await;
    host.expect_error("bad_settings").await;
    srv.stop().await;
}
both_stores!(options, options_are_checked);

/// One address may create a burst of tables, then a table a minute; the lobby
/// lists public tables a page at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_creation_is_budgeted_and_the_lobby_paged() {
    let db = TestDb::sqlite();
    let config = server::Config {
        table_burst: 5.0,
        tables_per_minute: 1.0,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    for _ in 0..5 {
        srv.create_table("tic-tac-toe", 2, true).await;
    }
    let (status, body) = srv.post("/api/tables", &table_request(json!({}))).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")));
    srv.stop().await;

    let srv = TestServer::start(&db).await;
    for _ in 0..(server::LOBBY_PAGE + 5) {
        srv.create_table("tic-tac-toe", 2, true).await;
    }
    let (status, first) = srv.get("/api/tables").await;
    assert_eq!(status, 200);
    let page = first["tables"].as_array().unwrap();
    assert_eq!(page.len(), server::LOBBY_PAGE);
    let after = first["next"].as_str().expect("a next page");
    let (_, second) = srv.get(&format!("/api/tables?after={after}")).await;
    let rest = second["tables"].as_array().unwrap();
    assert!(rest.len() >= 5, "the rest");
    assert!(
        rest.iter().all(|t| !page.contains(t)),
        "pages do not overlap"
    );
    srv.stop().await;
}

/// Every answer carries the security headers; another site can neither create
/// a table from its visitor's browser nor open a socket; `/metrics` is not
/// public when a token is set.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_surface_refuses_other_sites() {
    let db = TestDb::sqlite();
    let config = server::Config {
        metrics_token: Some("s3cret".to_owned()),
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    let (status, head, _) = raw(
        &srv,
        "GET / HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status, 200);
    for h in [
        "content-security-policy: default-src 'self'",
        "frame-ancestors 'none'",
        "x-frame-options: deny",
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
    ] {
        assert!(head.contains(h), "{h} in {head}");
    }
    let body = table_request(json!({})).to_string();
    // A cross-site form: text/plain.
    let (status, _, _) = raw(
        &srv,
        &post("/api/tables", "content-type: text/plain\r\n", &body),
    )
    .await;
    assert_eq!(status, 415);
    // Another site's script (it would need a preflight, but a server must not count on it).
    let (status, _, answer) = raw(
        &srv,
        &post(
            "/api/tables",
            "content-type: application/json\r\norigin: https://evil.example\r\n",
            &body,
        ),
    )
    .await;
    assert_eq!(status, 403, "{answer}");
    // The server's own page.
    let (status, _, answer) = raw(
        &srv,
        &post(
            "/api/tables",
            "content-type: application/json\r\norigin: http://test\r\n",
            &body,
        ),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let code = serde_json::from_str::<Value>(&answer).unwrap()["invite_code"]
        .as_str()
        .unwrap()
        .to_owned();
    match Client::open_with(&srv.ws_url(&code), &[("origin", "https://evil.example")]).await {
        Err(refused) => assert_eq!(refused.status(), Some(403), "{refused:?}"),
        Ok(_) => panic!("a cross-site socket was not refused"),
    }
    let (status, _, _) = raw(
        &srv,
        "GET /metrics HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status, 404, "no token, no metrics");
    let (status, _, text) = raw(
        &srv,
        "GET /metrics HTTP/1.1\r\nhost: test\r\nauthorization: Bearer s3cret\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status, 200);
    assert!(text.contains("citytable_rooms"));
    srv.stop().await;
}

/// A finished game's record is built once however many ask at the same time,
/// and carries patches, not a whole view per entry: it is a fraction of the
/// views it replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_is_built_once_and_stays_small() {
    let db = TestDb::sqlite();
    let srv = TestServer::start(&db).await;
    let (invite, spectate, token) = srv.create_table("big-city", 3, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    for seat in [1, 2] {
        host.send(&json!({"type": "add_bot", "seat": seat, "level": "greedy"}))
            .await;
        host.recv_type("table").await;
    }
    // The host's seat goes to a bot too, so bots play the whole game.
    host.send(&json!({"type": "leave_seat"})).await;
    host.recv_type("table").await;
    host.send(&json!({"type": "add_bot", "seat": 0, "level": "random"}))
        .await;
    host.recv_type("table").await;
    host.send(&json!({"type": "start"})).await;
    // The table says the game is finished once its row is saved so.
    loop {
        let m = host.recv().await;
        if m["type"] == "table" && m["table"]["status"] == "finished" {
            break;
        }
    }
    let fetches = (0..8).map(|i| {
        let path = format!(
            "/api/tables/{}/record",
            if i % 2 == 0 { &invite } else { &spectate }
        );
        let addr = srv.addr;
        async move {
            let mut tcp = TcpStream::connect(addr).await.unwrap();
            let req = format!("GET {path} HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n");
            tcp.write_all(req.as_bytes()).await.unwrap();
            let mut buf = Vec::new();
            tcp.read_to_end(&mut buf).await.unwrap();
            let text = String::from_utf8_lossy(&buf).to_string();
            text.split_once("\r\n\r\n")
                .map(|(_, b)| b.to_owned())
                .unwrap_or_default()
        }
    });
    let bodies = futures_util::future::join_all(fetches).await;
    assert!(
        bodies.windows(2).all(|w| w[0] == w[1]),
        "one record for all"
    );
    assert_eq!(metric(&srv, "citytable_records_built_total").await, 1.0);
    let record: Value = serde_json::from_str(&bodies[0]).expect("a JSON record");
    let entries = record["entries"].as_array().unwrap().len();
    assert_eq!(record["patches"].as_array().unwrap().len(), entries);
    assert!(entries > 100, "a whole game ({entries} entries)");
    let views = testkit::client::record_views(&record);
    let whole: usize = views.iter().map(|v| v.to_string().len()).sum();
    eprintln!(
        "record: {entries} entries, {} bytes; the views it replays: {whole} bytes",
        bodies[0].len()
    );
    assert!(bodies[0].len() * 4 < whole, "patches, not views");
    srv.stop().await;
}

/// A table nobody ever played, untouched for the retention period, is deleted
/// (its codes no longer open anything); a table that saw a game is kept.
async fn abandoned_tables_are_deleted(db: &TestDb) {
    let srv = TestServer::start(db).await;
    let (abandoned, _, _) = srv.create_table("tic-tac-toe", 2, true).await;
    let (played, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&played, "Host", Some(&token)).await;
    host.send(&json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.recv_type("table").await;
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    host.close().await;
    srv.stop().await;

    let config = server::Config {
        abandoned_table: Duration::ZERO,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(db, config).await;
    let (status, _) = srv.get(&format!("/api/tables/{abandoned}")).await;
    assert_eq!(status, 404, "the abandoned lobby is gone");
    let (_, list) = srv.get("/api/tables").await;
    assert!(!list.to_string().contains(&abandoned));
    let (status, _) = srv.get(&format!("/api/tables/{played}")).await;
    assert_eq!(status, 200, "a table that saw a game stays");
    srv.stop().await;
}
both_stores!(abandoned, abandoned_tables_are_deleted);

/// Records are heavy to send: one address may fetch 20, then a few a minute.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn record_fetches_are_budgeted() {
    let db = TestDb::sqlite();
    let config = server::Config {
        records_per_minute: 1.0,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    let (invite, _, _) = srv.create_table("tic-tac-toe", 2, false).await;
    for _ in 0..20 {
        let (status, _) = srv.get(&format!("/api/tables/{invite}/record")).await;
        assert_eq!(status, 409, "no game yet");
    }
    let (status, body) = srv.get(&format!("/api/tables/{invite}/record")).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")));
    srv.stop().await;
}

/// `GET path` as sent with `X-Forwarded-For: forwarded_for`: `(status, body)`.
async fn get_as(srv: &TestServer, path: &str, forwarded_for: &str) -> (u16, Value) {
    let (status, _, body) = raw(
        srv,
        &format!(
            "GET {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\nx-forwarded-for: {forwarded_for}\r\n\r\n"
        ),
    )
    .await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

/// A table created with `X-Forwarded-For: forwarded_for`: `(status, body)`.
async fn create_as(srv: &TestServer, forwarded_for: &str) -> (u16, Value) {
    let headers = format!("content-type: application/json\r\nx-forwarded-for: {forwarded_for}\r\n");
    let request = json!({
        "game": "tic-tac-toe", "name": "Ana",
        "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false}
    });
    let (status, _, body) = raw(srv, &post("/api/tables", &headers, &request.to_string())).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

/// A table socket opened with `X-Forwarded-For: forwarded_for`.
async fn socket_as(srv: &TestServer, invite: &str, forwarded_for: &str) -> Result<Client, Refused> {
    Client::open_with(&srv.ws_url(invite), &[("x-forwarded-for", forwarded_for)]).await
}

/// Asserts that `answer` is the 429 of an address over its budget.
fn assert_refused(answer: (u16, Value), what: &str) {
    let (status, body) = answer;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{what}: {body}"
    );
}

/// Asserts that a socket was refused with that 429.
fn assert_socket_refused(opened: Result<Client, Refused>, what: &str) {
    match opened {
        Err(refused) => assert_refused((refused.status().unwrap_or(0), refused.json()), what),
        Ok(_) => panic!("{what}: the socket was opened"),
    }
}

/// Without trusted proxies `X-Forwarded-For` is ignored: a client naming a new
/// address in every request is still counted as the address it connects from.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_for_is_ignored_without_trusted_proxies() {
    let db = TestDb::sqlite();
    let config = server::Config {
        max_connections_per_address: 3,
        table_burst: 3.0,
        tables_per_minute: 1.0,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    let (invite, _, _) = srv.create_table("tic-tac-toe", 2, false).await;
    for i in 1..=2 {
        let (status, body) = create_as(&srv, &format!("10.0.0.{i}")).await;
        assert_eq!(status, 200, "{body}");
    }
    assert_refused(create_as(&srv, "10.0.0.3").await, "a fourth table");

    let mut sockets = Vec::new();
    for i in 1..=3 {
        let opened = socket_as(&srv, &invite, &format!("10.0.1.{i}")).await;
        sockets.push(opened.expect("a socket within the address's places"));
    }
    assert_socket_refused(
        socket_as(&srv, &invite, "10.0.1.4").await,
        "a fourth socket",
    );
    assert_refused(get_as(&srv, "/healthz", "10.0.1.5").await, "a request");
    drop(sockets);
    srv.stop().await;
}

/// Behind a trusted proxy (every request comes from 127.0.0.1) each client named
/// by `X-Forwarded-For` has budgets of its own: one that used up its sockets or
/// table creations is refused while another still gets through, the proxy's
/// own connections are not limited, and a request holds its client's place only
/// until it is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_client_behind_a_trusted_proxy_has_its_own_budget() {
    let db = TestDb::sqlite();
    let config = server::Config {
        trusted_proxies: server::TrustedProxies::parse("127.0.0.1").unwrap(),
        max_connections_per_address: 2,
        table_burst: 2.0,
        tables_per_minute: 1.0,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    let (ana, bea) = ("10.0.0.1", "10.0.0.2");

    for _ in 0..2 {
        let (status, body) = create_as(&srv, ana).await;
        assert_eq!(status, 200, "{body}");
    }
    assert_refused(create_as(&srv, ana).await, "Ana's third table");
    let (status, body) = create_as(&srv, bea).await;
    assert_eq!(status, 200, "Bea's first table: {body}");
    let invite = body["invite_code"].as_str().unwrap().to_owned();

    let mut anas = Vec::new();
    for _ in 0..2 {
        anas.push(socket_as(&srv, &invite, ana).await.expect("Ana's socket"));
    }
    assert_socket_refused(socket_as(&srv, &invite, ana).await, "Ana's third socket");
    assert_refused(get_as(&srv, "/healthz", ana).await, "Ana's request");
    // Bea's places are her own, and the proxy holds more connections than any
    // one address may.
    let mut beas = Vec::new();
    for _ in 0..2 {
        beas.push(socket_as(&srv, &invite, bea).await.expect("Bea's socket"));
    }
    assert_eq!(srv.get("/healthz").await.0, 200, "the proxy itself");
    assert_socket_refused(socket_as(&srv, &invite, bea).await, "Bea's third socket");

    // A closed socket frees its place.
    drop(anas.pop());
    let mut answered = false;
    for _ in 0..100 {
        if get_as(&srv, "/healthz", ana).await.0 == 200 {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(answered, "Ana's closed socket frees her place");
    // A request gives its place back once answered.
    for i in 0..6 {
        let (status, body) = get_as(&srv, "/healthz", "10.0.0.3").await;
        assert_eq!(status, 200, "request {i}: {body}");
    }
    // `/metrics` is for this machine: not for a client behind a proxy on it.
    assert_eq!(get_as(&srv, "/metrics", "203.0.113.5").await.0, 404);
    assert_eq!(srv.get_text("/metrics").await.0, 200);
    drop((anas, beas));
    srv.stop().await;
}

/// Behind a trusted proxy the rate of new connections is counted per client
/// and per request: a client past it is answered 429, another is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_behind_a_trusted_proxy_are_rated_per_client() {
    let db = TestDb::sqlite();
    let config = server::Config {
        trusted_proxies: server::TrustedProxies::parse("127.0.0.0/8").unwrap(),
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    // A burst of 400, then 40 a second: far fewer than these requests.
    let mut refused_after = None;
    for i in 0..2000 {
        let (status, body) = get_as(&srv, "/healthz", "10.0.0.1").await;
        if status != 200 {
            assert_refused((status, body), "past the rate");
            refused_after = Some(i);
            break;
        }
    }
    let refused_after = refused_after.expect("a client past the rate is refused");
    assert!(
        refused_after >= 400,
        "the burst is allowed: {refused_after}"
    );
    assert_eq!(
        get_as(&srv, "/healthz", "10.0.0.2").await.0,
        200,
        "another client"
    );
    srv.stop().await;
}

/// What the client writes into `X-Forwarded-For` itself does not change its
/// address: the proxy appends the address it saw, and that is the one counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_forwarded_for_entry_does_not_help() {
    let db = TestDb::sqlite();
    let config = server::Config {
        trusted_proxies: server::TrustedProxies::parse("127.0.0.1").unwrap(),
        max_connections_per_address: 2,
        table_burst: 1.0,
        tables_per_minute: 1.0,
        ..testkit::server::test_config()
    };
    let srv = TestServer::start_config(&db, config).await;
    let (status, body) = create_as(&srv, "10.0.0.7").await;
    assert_eq!(status, 200, "{body}");
    let invite = body["invite_code"].as_str().unwrap().to_owned();
    for forged in [
        "1.2.3.4, 10.0.0.7",
        "5.6.7.8,10.0.0.7",
        "nonsense, 10.0.0.7",
    ] {
        assert_refused(create_as(&srv, forged).await, forged);
    }
    let mut sockets = Vec::new();
    for forged in ["1.2.3.4, 10.0.0.7", "5.6.7.8, 10.0.0.7"] {
        sockets.push(
            socket_as(&srv, &invite, forged)
                .await
                .expect("a socket within 10.0.0.7's places"),
        );
    }
    assert_socket_refused(
        socket_as(&srv, &invite, "9.9.9.9, 10.0.0.7").await,
        "a third socket",
    );
    assert_refused(
        get_as(&srv, "/healthz", "10.0.0.7").await,
        "10.0.0.7's request",
    );
    // Another client is not affected.
    assert_eq!(get_as(&srv, "/healthz", "1.2.3.4").await.0, 200);
    let (status, body) = create_as(&srv, "10.0.0.8").await;
    assert_eq!(status, 200, "{body}");
    drop(sockets);
    srv.stop().await;
}
