//! Crash safety and database outages, against the real `citytable` process.
//!
//! - `sigkill_*`: while clients and bots play Big City, the server process is
//!   SIGKILLed at seeded random moments and started again on the same port and
//!   store. After every restart each game resumes at (at least) the last version
//!   anyone saw acknowledged, the clients reconnect by themselves with their seat
//!   tokens and keep playing; at the end every acknowledged move is in the log at
//!   its place and every view any client rebuilt equals a replay of the log.
//! - `postgres_outage_*`, `postgres_stopped_*`: the database goes away during
//!   play and comes back, two ways: the server reaches the machine's Postgres
//!   through a proxy the test cuts and restores, or the test runs a Postgres
//!   server of its own and stops and starts it. Either way the server stays up,
//!   answers `try_again`, reports not ready, acknowledges nothing it did not
//!   commit, and play resumes by itself.
//! - `store_calls_*`: while Postgres is down, store calls fail at once after the
//!   first finds it down, and go through again once it is back.
//!
//! `CITYTABLE_CRASH_KILLS` (3), `CITYTABLE_CRASH_TABLES` (3) and
//! `CITYTABLE_CRASH_SEED` make the run longer or different.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;
use testkit::http::{http, try_http};
use testkit::play::{ThirdSeat, World, big_city_table_in_play, verify_table};
use testkit::postgres::{PgCluster, Proxy, pg_addr};
use testkit::process::Launch;
use testkit::{Rng, TestDb, citytable_bin, env_num};

async fn crash_run(db: TestDb, seed: u64) {
    let kills = env_num("CITYTABLE_CRASH_KILLS", 3);
    let tables = env_num("CITYTABLE_CRASH_TABLES", 3);
    let seed = env_num("CITYTABLE_CRASH_SEED", seed);
    let mut rng = Rng::new(seed);
    let launch = Launch::new(citytable_bin!(), &db.dir)
        .database_url(db.url.as_deref())
        .bot_delay_ms(5);
    let mut server = launch.start().await;
    let world = World::new(server.addr);

    let mut recs = Vec::new();
    let mut tasks = Vec::new();
    for t in 0..tables {
        let (rec, clients) = big_city_table_in_play(
            server.addr,
            &world,
            ThirdSeat::Bot,
            |seat| seed ^ (t * 16 + seat.unwrap_or(9)),
            15,
        )
        .await;
        tasks.extend(clients);
        recs.push(rec);
    }

    for k in 1..=kills {
        tokio::time::sleep(rng.ms(1500, 4000)).await;
        *world.addr.lock().unwrap() = None;
        server.kill().await;
        // Everything any client saw so far was acknowledged by the dead process.
        for rec in &recs {
            let floor = rec.max_seen.load(Ordering::SeqCst);
            rec.floors.lock().unwrap().insert(k, floor);
        }
        world.epoch.store(k, Ordering::SeqCst);
        tokio::time::sleep(rng.ms(0, 300)).await;
        // The same port and store.
        server = launch.start().await;
        *world.addr.lock().unwrap() = Some(server.addr);
        eprintln!("kill {k}: restarted");
    }
    // Let play go on after the last restart, then check that every table moved on.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let all = recs.iter().all(|r| {
            r.finished.load(Ordering::SeqCst)
                || (r.snapshots_after_restart.load(Ordering::SeqCst) > 0
                    && r.max_seen.load(Ordering::SeqCst)
                        > r.floors.lock().unwrap().get(&kills).copied().unwrap_or(0) + 3)
        });
        if all {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "every game resumes after the last restart"
        );
    }
    world.stop.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = t.await;
    }
    server.kill().await;

    let store = db.open_store().await;
    let mut entries = 0;
    let mut acked = 0;
    for rec in &recs {
        if kills > 0 {
            assert!(
                rec.snapshots_after_restart.load(Ordering::SeqCst) > 0,
                "clients came back to {}",
                rec.invite
            );
        }
        acked += rec.acked.lock().unwrap().len();
        entries += verify_table(&store, rec).await;
    }
    let views: usize = recs.iter().map(|r| r.views.lock().unwrap().len()).sum();
    assert!(acked > 0, "clients had moves acknowledged");
    eprintln!(
        "crash ({}): {kills} kills survived, {tables} games, {entries} log entries, {acked} acknowledged client moves, {views} client views checked against the replay, {} reconnects",
        store.kind(),
        world.reconnects.load(Ordering::SeqCst)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move_sqlite() {
    crash_run(TestDb::sqlite(), 0x5eed_0001).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move_postgres() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    crash_run(db, 0x5eed_0002).await;
}

/// How the test takes the database away and brings it back.
enum Outage {
    /// The server's connections go through a proxy that is cut.
    Cut(Proxy),
    /// The test's own Postgres server is stopped and started.
    Stop(PgCluster),
}

impl Outage {
    async fn begin(&self) {
        match self {
            Outage::Cut(proxy) => proxy.cut(),
            Outage::Stop(pg) => pg.stop().await,
        }
    }

    async fn end(&self) {
        match self {
            Outage::Cut(proxy) => proxy.restore(),
            Outage::Stop(pg) => pg.start().await,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Outage::Cut(_) => "connections cut",
            Outage::Stop(_) => "Postgres stopped",
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_outage_answers_try_again_and_resumes() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let proxy = Proxy::start(pg_addr()).await;
    let url = db.url_via(proxy.addr).expect("a Postgres URL");
    outage_run(&db.dir, &url, Outage::Cut(proxy)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_and_started_again_play_resumes() {
    let Some(pg) = PgCluster::create().await else {
        return;
    };
    pg.start().await;
    // The server's data directory (it keeps nothing there with Postgres).
    let data = TestDb::sqlite();
    let url = pg.url();
    outage_run(&data.dir, &url, Outage::Stop(pg)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_calls_fail_at_once_while_postgres_is_down() {
    use server::db::{Db, StoreDb, StoreError};
    let Some(pg) = PgCluster::create().await else {
        return;
    };
    pg.start().await;
    let data = TestDb::sqlite();
    let store = store::Store::open(Some(&pg.url()), &data.dir)
        .await
        .expect("open store");
    let db = StoreDb::new(store);
    db.ping().await.expect("Postgres answers");

    pg.stop().await;
    // The first call finds out the slow way (the pool retries refused connections).
    let first = db.ping().await;
    assert!(
        matches!(first, Err(StoreError::Unavailable(_))),
        "{first:?}"
    );
    // The next ones fail at once, saying why.
    match db.table_by_code("nosuchcode").await {
        Err(StoreError::Unavailable(why)) => assert_eq!(why, "the database is unreachable"),
        other => panic!("expected a fast failure, got {other:?}"),
    }

    pg.start().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while db.ping().await.is_err() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "calls go through again once Postgres is back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        db.table_by_code("nosuchcode").await.expect("a lookup"),
        None
    );
}

/// Plays a Big City table on the server at `url`, takes the database away during
/// play and brings it back, checking the server's answers on the way and the
/// committed log at the end.
async fn outage_run(dir: &std::path::Path, url: &str, outage: Outage) {
    let server = Launch::new(citytable_bin!(), dir)
        .database_url(Some(url))
        .bot_delay_ms(5)
        .start()
        .await;
    let log = server.log.clone();
    let world = World::new(server.addr);
    // Three players and no bot: whichever seat is awaited when the store goes away
    // has a client that keeps trying to move. (A bot's turn would stall quietly
    // until the store is back; timers.rs checks that on its own.)
    let (rec, tasks) = big_city_table_in_play(
        server.addr,
        &world,
        ThirdSeat::Player,
        |seat| 0x07a6e ^ seat.unwrap_or(9),
        10,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let before_cut = rec.max_seen.load(Ordering::SeqCst);
    assert!(before_cut > 0, "play started");

    outage.begin().await;
    server.readyz_becomes(503, 15).await;
    let (status, body) = try_http(server.addr, "GET", "/healthz", None)
        .await
        .expect("the process is up");
    assert_eq!((status, body.as_str()), (200, "ok"));
    // Moves in flight when the database went away may have committed; from now on
    // nothing can. Wait for clients to hit the outage.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while rec.try_again.load(Ordering::SeqCst) == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "a move during the outage gets try_again"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let during = rec.max_seen.load(Ordering::SeqCst);
    let acked_during = rec.acked.lock().unwrap().len();
    // A new table cannot be created either, and says so.
    let (status, body) = http(
        server.addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "tic-tac-toe", "name": "Cy",
                     "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false}})),
    )
    .await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["code"], "try_again");
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        rec.max_seen.load(Ordering::SeqCst),
        during,
        "nothing is applied or shown while the store is unreachable"
    );
    assert_eq!(rec.acked.lock().unwrap().len(), acked_during);
    let try_again = rec.try_again.load(Ordering::SeqCst);

    outage.end().await;
    server.readyz_becomes(200, 30).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while rec.max_seen.load(Ordering::SeqCst) < during + 5 && !rec.finished.load(Ordering::SeqCst) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "play resumes by itself after the store is back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    world.stop.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = t.await;
    }
    server.stop().await;
    let store = store::Store::open(Some(url), dir)
        .await
        .expect("open store");
    let entries = verify_table(&store, &rec).await;
    let lines = log.lock().unwrap();
    assert!(
        !lines.iter().any(|l| l.contains("panicked")),
        "no panic in the server log"
    );
    eprintln!(
        "outage ({}): {try_again} try_again answers, versions {before_cut} before the cut, {during} during, {entries} entries at the end",
        outage.name()
    );
}
