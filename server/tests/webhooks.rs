//! Webhook notices at a turn-based table, against a local HTTP receiver: a
//! player with no page open is told when the table waits for him, in his
//! language and with nothing hidden; posts to one table come at most once per
//! interval, the notices in between together; a failed post is tried again;
//! after a restart the player the table waits for is reminded.

#![allow(clippy::unwrap_used)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::{Value, json};
use testkit::server::{TestServer, test_config};
use testkit::{Client, TestDb};

/// What the receiver got, and how many posts it should still refuse.
#[derive(Default)]
struct Received {
    posts: Mutex<Vec<(Instant, Value)>>,
    refuse: AtomicUsize,
    refused: AtomicUsize,
}

async fn receiver() -> (SocketAddr, Arc<Received>) {
    let got = Arc::new(Received::default());
    let app = axum::Router::new()
        .route(
            "/hook",
            post(
                |State(got): State<Arc<Received>>, Json(body): Json<Value>| async move {
                    if got
                        .refuse
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_ok()
                    {
                        got.refused.fetch_add(1, Ordering::SeqCst);
                        return StatusCode::SERVICE_UNAVAILABLE;
                    }
                    got.posts.lock().unwrap().push((Instant::now(), body));
                    StatusCode::NO_CONTENT
                },
            ),
        )
        .with_state(got.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (addr, got)
}

/// Waits until the receiver holds `n` posts; returns them.
async fn posts(got: &Received, n: usize) -> Vec<(Instant, Value)> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let posts = got.posts.lock().unwrap().clone();
        if posts.len() >= n {
            return posts;
        }
        assert!(
            Instant::now() < deadline,
            "{} posts of {n}: {posts:?}",
            posts.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `client` plays its seat's first legal move.
async fn play(client: &mut Client, id: u64) {
    let version = client.snapshot().await["version"].as_u64().unwrap();
    client.send(&json!({"type": "legal_moves"})).await;
    let mv = client.recv_type("legal_moves").await["moves"][0].clone();
    client
        .send(&json!({"type": "move", "id": id, "version": version, "mv": mv}))
        .await;
    client.recv_type("move_ok").await;
}

const INTERVAL: Duration = Duration::from_secs(2);

/// A turn-based tic-tac-toe table of Ana's (`turn_seconds` a move and a reserve
/// of `bank_seconds`): its invite code, Ana's seat token and Ana, joined.
async fn turn_based_table(
    srv: &TestServer,
    turn_seconds: u32,
    bank_seconds: u32,
) -> (String, String, Client) {
    let (invite, _, ana_token) = srv
        .create_table_with(json!({
            "game": "tic-tac-toe",
            "name": "Ana",
            "settings": {"seats": 2, "options": {}, "turn_seconds": turn_seconds, "time_bank_seconds": bank_seconds,
                         "spectators_allowed": true, "public": false}
        }))
        .await;
    let ana = srv.join(&invite, "Ana", Some(&ana_token)).await;
    (invite, ana_token, ana)
}

/// Bo closes his connection; returns once the table (as `host` sees it) shows
/// seat 1 without a page open.
async fn leave(bo: Client, host: &mut Client) {
    bo.close().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while host.table().await["seats"][1]["occupant"]["connected"] != json!(false) {
        assert!(Instant::now() < deadline, "the server did not see Bo go");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_from_a_turn_based_table_hears_of_his_turn() {
    let db = TestDb::sqlite();
    let config = || server::Config {
        webhook_allow_local: true,
        webhook_interval: INTERVAL,
        public_url: Some("https://citytable.example".into()),
        ..test_config()
    };
    let (addr, got) = receiver().await;
    let hook = format!("http://{addr}/hook");
    let srv = TestServer::start_config(&db, config()).await;
    let (invite, ana_token, mut ana) = turn_based_table(&srv, 86_400, 172_800).await;
    let mut bo = srv.join(&invite, "Bo", None).await;
    let bo_token = bo.take_seat(1).await;
    // Only an https URL, or http where the server allows it.
    bo.send(&json!({"type": "set_webhook", "url": "ftp://example.com/x"}))
        .await;
    let e = bo.expect_error("bad_settings").await;
    assert_eq!(e["args"]["reason"], "webhook", "{e}");
    bo.send(&json!({"type": "set_webhook", "url": hook, "lang": "fr"}))
        .await;
    let you = loop {
        let w = bo.recv_type("welcome").await;
        if w["you"].get("webhook").is_some() {
            break w["you"].clone();
        }
    };
    assert_eq!(you["webhook"], hook.as_str());
    // Nobody else is told where it posts.
    let table = ana.table().await;
    assert!(!table.to_string().contains(&hook));
    leave(bo, &mut ana).await;

    ana.send(&json!({"type": "start"})).await;
    let first = ana.recv_type("snapshot").await["game"]["awaiting"]["seats"][0].clone();
    if first == 0 {
        play(&mut ana, 1).await;
    }
    // Bo's turn, and no page of his open: one post.
    let [(at, body)] = <[_; 1]>::try_from(posts(&got, 1).await).unwrap();
    let line = body["content"].as_str().unwrap();
    assert!(
        line.starts_with("À vous de jouer à la table de Tic-tac-toe (encore 2 j 23 h")
            || line.starts_with("À vous de jouer à la table de Tic-tac-toe (encore 3 j 0 h"),
        "{line}"
    );
    assert!(
        line.ends_with(&format!(": https://citytable.example/t/{invite}")),
        "{line}"
    );
    assert_eq!(body["text"], body["content"], "Slack reads `text`");
    let event = &body["citytable"][0];
    assert_eq!(
        (&event["event"], &event["seat"], &event["game"]),
        (&json!("your_turn"), &json!(1), &json!("tic-tac-toe"))
    );
    let raw = body.to_string();
    assert!(!raw.contains(&bo_token) && !raw.contains(&ana_token) && !raw.contains("seed"));
    // Nothing hidden can ride along: a post has exactly these fields, each
    // notice exactly these (a game's name and code, a seat, a time, a link).
    let keys = |v: &Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(&body), ["citytable", "content", "text", "username"]);
    assert_eq!(
        keys(event),
        ["event", "game", "link", "seat", "table", "time_left_ms"]
    );

    // Bo comes, plays, goes; Ana plays: his turn again within the interval.
    // The receiver fails once: the post is tried again.
    let mut bo = srv.join(&invite, "Bo", Some(&bo_token)).await;
    play(&mut bo, 1).await;
    leave(bo, &mut ana).await;
    got.refuse.store(1, Ordering::SeqCst);
    play(&mut ana, 2).await;
    let posts_now = posts(&got, 2).await;
    let (second_at, second) = &posts_now[1];
    assert_eq!(
        got.refused.load(Ordering::SeqCst),
        1,
        "the first try was refused"
    );
    assert!(
        second_at.duration_since(at) >= INTERVAL - Duration::from_millis(100),
        "at most one post per interval"
    );
    assert_eq!(second["citytable"].as_array().unwrap().len(), 1);

    // The server stops and starts again while the table waits for Bo: he is
    // reminded.
    srv.kill();
    drop(ana);
    let srv = TestServer::start_config(&db, config()).await;
    let posts_now = posts(&got, 3).await;
    let third = &posts_now[2].1;
    assert_eq!(third["citytable"][0]["event"], "your_turn");
    assert_eq!(third["citytable"][0]["table"], invite.as_str());

    // A page of his open: nothing more, and no webhook: nothing at all.
    let mut bo = srv.join(&invite, "Bo", Some(&bo_token)).await;
    bo.send(&json!({"type": "set_webhook"})).await;
    loop {
        let w = bo.recv_type("welcome").await;
        if w["you"].get("webhook").is_none() {
            break;
        }
    }
    play(&mut bo, 2).await;
    let mut ana = srv.join(&invite, "Ana", Some(&ana_token)).await;
    leave(bo, &mut ana).await;
    play(&mut ana, 3).await;
    tokio::time::sleep(INTERVAL + Duration::from_millis(500)).await;
    assert_eq!(got.posts.lock().unwrap().len(), 3);
}

/// Five seconds a move and a minute's reserve: once the turn's own time is
/// over, the player's webhook hears that his time runs low, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_hears_when_his_reserve_starts_to_run() {
    let db = TestDb::sqlite();
    let (addr, got) = receiver().await;
    let srv = TestServer::start_config(
        &db,
        server::Config {
            webhook_allow_local: true,
            webhook_interval: Duration::from_millis(500),
            ..test_config()
        },
    )
    .await;
    let (invite, _, mut ana) = turn_based_table(&srv, 5, 60).await;
    let mut bo = srv.join(&invite, "Bo", None).await;
    bo.take_seat(1).await;
    bo.send(&json!({"type": "set_webhook", "url": format!("http://{addr}/hook")}))
        .await;
    bo.recv_type("welcome").await;
    leave(bo, &mut ana).await;
    ana.send(&json!({"type": "start"})).await;
    let first = ana.recv_type("snapshot").await["game"]["awaiting"]["seats"][0].clone();
    if first == 0 {
        play(&mut ana, 1).await;
    }
    let posts = posts(&got, 2).await;
    let [(turn_at, turn), (low_at, low)] = <[_; 2]>::try_from(posts).unwrap();
    assert_eq!(turn["citytable"][0]["event"], "your_turn");
    assert_eq!(low["citytable"][0]["event"], "time_low");
    let line = low["content"].as_str().unwrap();
    assert!(
        line.starts_with("Your time runs low at the Tic-tac-toe table: 1:0"),
        "{line}"
    );
    assert!(
        low_at.duration_since(turn_at) >= Duration::from_millis(4_500),
        "after the turn's 5 s"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(got.posts.lock().unwrap().len(), 2, "once");
}

/// A webhook is an address anyone seated may give: a server that does not
/// allow local webhooks (the default) takes none of its own machine or
/// networks, so nobody can make it post inside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_inside_the_servers_network_is_refused() {
    let db = TestDb::sqlite();
    let srv = TestServer::start_config(&db, test_config()).await;
    let (_, _, mut ana) = turn_based_table(&srv, 86_400, 172_800).await;
    for inside in [
        format!("https://{}/hook", srv.addr),
        "https://localhost/hook".to_owned(),
        "https://10.0.0.5/hook".to_owned(),
        "https://169.254.169.254/latest/meta-data".to_owned(),
        "https://[::1]/hook".to_owned(),
        "http://discord.com/api/webhooks/1/abc".to_owned(),
    ] {
        ana.send(&json!({"type": "set_webhook", "url": inside}))
            .await;
        let e = ana.expect_error("bad_settings").await;
        assert_eq!(e["args"]["reason"], "webhook", "{inside}: {e}");
    }
    let public = "https://discord.com/api/webhooks/1/abc";
    ana.send(&json!({"type": "set_webhook", "url": public}))
        .await;
    let you = loop {
        let w = ana.recv_type("welcome").await;
        if w["you"].get("webhook").is_some() {
            break w["you"].clone();
        }
    };
    assert_eq!(you["webhook"], public);
}
