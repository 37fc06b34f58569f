//! Cluster mode: the lobby lists every node's public tables, whichever node it is
//! asked of (real `citytable` processes on one Postgres and NATS).

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::json;
use testkit::http::{create_table, http};
use testkit::process::Launch;
use testkit::{TestDb, citytable_bin};
use tokio::time::Instant;

fn node(db: &TestDb) -> Launch {
    Launch::new(citytable_bin!(), &db.dir)
        .database_url(db.url.as_deref())
        .env(
            "NATS_URL",
            &std::env::var("TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into()),
        )
        .env("LEASE_TTL_MS", "1500")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_lists_every_public_table() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let a = node(&db).start().await;
    let b = node(&db).start().await;
    let create = |public: bool| {
        json!({"game": "tic-tac-toe", "name": "Host",
               "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": public}})
    };
    let (on_a, _, _) = create_table(a.addr, &create(true)).await;
    let (on_b, _, _) = create_table(b.addr, &create(true)).await;
    let (private, _, _) = create_table(a.addr, &create(false)).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    for n in [&a, &b] {
        loop {
            let (status, page) = http(n.addr, "GET", "/api/tables", None).await;
            assert_eq!(status, 200);
            let mut codes: Vec<String> = page["tables"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["invite_code"].as_str().unwrap().to_owned())
                .collect();
            assert!(!codes.contains(&private), "a private table is never listed");
            codes.sort();
            let mut want = vec![on_a.clone(), on_b.clone()];
            want.sort();
            if codes == want {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{} lists {codes:?}, not {want:?}",
                n.addr
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    a.stop().await;
    b.stop().await;
}
