//! `soak`: a long run against the real `citytable` process with Big City tables
//! (two players, a bot, a spectator each), chat, and every client dropping its
//! connection and reconnecting with its seat token now and then. Finished games
//! are replaced by new tables. Every `--sample-secs` it prints the server's
//! resident memory, games, versions, acknowledged moves and stuck rooms (an
//! unfinished table with no new version for `--stuck-secs`); at the end it stops
//! the server and checks every table against the committed log (no acknowledged
//! move lost, every view any client rebuilt equals a replay).
//!
//! Rooms of finished games stay in memory until nobody has been connected for
//! 15 minutes (`server::IDLE_ROOM`, `--idle-room-secs` to shorten it), so memory
//! grows for that long and then levels off; the samples print the rooms,
//! connections and the allocator's heap in use and free (`/metrics`) next to the
//! server's RSS, and the summary compares the first and last thirds of the run
//! after that warm-up. Heap in use that stays level while RSS grows is
//! fragmentation; heap in use that grows is state kept alive.
//!
//! ```text
//! cargo build --release -p server --bin citytable
//! cargo run --release -p reliability --bin soak -- --minutes 60
//! ```
//! Flags: `--minutes N` (60), `--tables N` (6), `--seed N`, `--sample-secs N` (10),
//! `--stuck-secs N` (60), `--reconnect-secs N` (20), `--idle-room-secs N` (900),
//! `--database-url URL`
//! (Postgres; SQLite in a fresh temporary directory otherwise), `--bin PATH`
//! (the server binary; `CITYTABLE_BIN`, else `citytable` next to this binary).

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use testkit::http::try_http;
use testkit::play::{TableRec, ThirdSeat, World, big_city_table_in_play, verify_table};
use testkit::process::Launch;
use testkit::{Rng, TestDb, citytable_bin};

struct Args {
    minutes: f64,
    tables: usize,
    seed: u64,
    sample: u64,
    stuck: u64,
    reconnect: u64,
    database_url: Option<String>,
    idle_room: u64,
}

fn args() -> Args {
    let mut a = Args {
        minutes: 60.0,
        tables: 6,
        seed: 0x50a6,
        sample: 10,
        stuck: 60,
        reconnect: 20,
        database_url: None,
        idle_room: server::IDLE_ROOM.as_secs(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next().unwrap_or_else(|| {
                eprintln!("soak: {flag} needs a value");
                std::process::exit(2)
            })
        };
        let num = |v: String| -> u64 {
            v.parse().unwrap_or_else(|_| {
                eprintln!("soak: not a number: {v}");
                std::process::exit(2)
            })
        };
        match flag.as_str() {
            "--minutes" => {
                a.minutes = value().parse().unwrap_or_else(|_| {
                    eprintln!("soak: --minutes takes a number");
                    std::process::exit(2)
                })
            }
            "--tables" => a.tables = num(value()) as usize,
            "--seed" => a.seed = num(value()),
            "--sample-secs" => a.sample = num(value()).max(1),
            "--stuck-secs" => a.stuck = num(value()),
            "--reconnect-secs" => a.reconnect = num(value()).max(1),
            "--database-url" => a.database_url = Some(value()),
            "--idle-room-secs" => {
                a.idle_room = num(value());
                // SAFETY: set before any thread of ours reads the environment;
                // the server process inherits it.
                unsafe { std::env::set_var("IDLE_ROOM_SECS", a.idle_room.to_string()) }
            }
            "--bin" => {
                // SAFETY: set before any thread of ours reads the environment.
                unsafe { std::env::set_var("CITYTABLE_BIN", value()) }
            }
            _ => {
                eprintln!(
                    "usage: soak [--minutes N] [--tables N] [--seed N] [--sample-secs N] [--stuck-secs N] [--reconnect-secs N] [--database-url URL] [--idle-room-secs N] [--bin PATH]"
                );
                std::process::exit(2)
            }
        }
    }
    a
}

struct Running {
    rec: Arc<TableRec>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    last_version: u64,
    last_change: Instant,
    stuck_reported: bool,
}

async fn new_table(world: &Arc<World>, addr: std::net::SocketAddr, rng: &mut Rng) -> Running {
    let (rec, tasks) =
        big_city_table_in_play(addr, world, ThirdSeat::Bot, |_| rng.next(), 400).await;
    Running {
        rec,
        tasks,
        last_version: 0,
        last_change: Instant::now(),
        stuck_reported: false,
    }
}

#[tokio::main]
async fn main() {
    let a = args();
    let mut rng = Rng::new(a.seed);
    let db = TestDb::sqlite();
    let url = a.database_url.clone();
    let server = Launch::new(citytable_bin!(), &db.dir)
        .database_url(url.as_deref())
        .bot_delay_ms(150)
        .start()
        .await;
    let log = server.log.clone();
    eprintln!(
        "soak: server {} pid {} ({}), {} tables, {} minutes",
        server.addr,
        server.pid,
        if url.is_some() { "postgres" } else { "sqlite" },
        a.tables,
        a.minutes
    );
    let world = World::new(server.addr);
    world.chat_every_ms.store(15_000, Ordering::SeqCst);
    world.progress_bias.store(true, Ordering::SeqCst);
    let mut live: Vec<Running> = Vec::new();
    let mut done: Vec<Arc<TableRec>> = Vec::new();
    for _ in 0..a.tables {
        live.push(new_table(&world, server.addr, &mut rng).await);
    }
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(a.minutes * 60.0);
    let mut next_sample = start;
    let mut next_drop = start + Duration::from_secs(a.reconnect);
    let mut rss: Vec<u64> = Vec::new();
    let mut heap: Vec<u64> = Vec::new();
    let mut stuck_total = 0u64;
    println!(
        "minute,rss_kib,heap_in_use_kib,heap_free_kib,rooms_in_memory,connections,games_finished,games_running,versions,acked_moves,reconnects,chats,stuck_rooms"
    );
    while Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = Instant::now();
        if now >= next_drop {
            world.drops.fetch_add(1, Ordering::SeqCst);
            next_drop = now + Duration::from_secs(a.reconnect);
        }
        // Replace finished games; watch for rooms that stopped moving.
        let mut i = 0;
        while i < live.len() {
            let r = &mut live[i];
            let v = r.rec.max_seen.load(Ordering::SeqCst);
            if v != r.last_version {
                r.last_version = v;
                r.last_change = now;
            }
            if r.rec.finished.load(Ordering::SeqCst) {
                let r = live.swap_remove(i);
                // Its clients stop on their own only with the world; keep them parked.
                for t in r.tasks {
                    t.abort();
                }
                done.push(r.rec);
                live.push(new_table(&world, server.addr, &mut rng).await);
                continue;
            }
            if a.stuck > 0
                && !r.stuck_reported
                && now.duration_since(r.last_change) > Duration::from_secs(a.stuck)
            {
                r.stuck_reported = true;
                stuck_total += 1;
                eprintln!(
                    "soak: room {} stuck at version {v} for {} s",
                    r.rec.invite, a.stuck
                );
            }
            i += 1;
        }
        if now >= next_sample {
            next_sample = now + Duration::from_secs(a.sample);
            let kib = server.rss_kib().unwrap_or(0);
            rss.push(kib);
            let gauges = server_gauges(server.addr).await;
            heap.push(gauges.heap_in_use_kib.max(0) as u64);
            let all = done.iter().chain(live.iter().map(|r| &r.rec));
            let (mut versions, mut acked) = (0, 0);
            for r in all {
                versions += r.max_seen.load(Ordering::SeqCst);
                acked += r.acked.lock().unwrap().len();
            }
            println!(
                "{:.1},{kib},{},{},{},{},{},{},{versions},{acked},{},{},{stuck_total}",
                start.elapsed().as_secs_f64() / 60.0,
                gauges.heap_in_use_kib,
                gauges.heap_free_kib,
                gauges.rooms,
                gauges.connections,
                done.len(),
                live.len(),
                world.reconnects.load(Ordering::SeqCst),
                world.chats.load(Ordering::SeqCst),
            );
        }
    }
    world.stop.store(true, Ordering::SeqCst);
    let mut recs: Vec<Arc<TableRec>> = done;
    for r in live {
        for t in r.tasks {
            let _ = t.await;
        }
        recs.push(r.rec);
    }
    server.stop().await;
    let store = db_store(&db, url.as_deref()).await;
    let mut entries = 0;
    let mut acked = 0;
    let mut finished = 0;
    let mut by_problem: HashMap<&str, u64> = HashMap::new();
    for r in &recs {
        acked += r.acked.lock().unwrap().len();
        if r.finished.load(Ordering::SeqCst) {
            finished += 1;
        }
        entries += verify_table(&store, r).await;
        *by_problem.entry("verified").or_default() += 1;
    }
    let panics = log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains("panicked"))
        .count();
    let (min, max) = (
        rss.iter().min().copied().unwrap_or(0),
        rss.iter().max().copied().unwrap_or(0),
    );
    // After the warm-up (rooms of finished games start to leave once they have
    // been idle for `idle_room`), the mean RSS and heap in use of the first and
    // the last third of the remaining samples.
    let warm = ((a.idle_room + 5 * 60) / a.sample) as usize;
    let thirds = |xs: &[u64]| {
        let steady = xs.get(warm..).unwrap_or(&[]);
        let third = steady.len() / 3;
        let mean = |xs: &[u64]| xs.iter().sum::<u64>() / xs.len().max(1) as u64;
        (third > 0).then(|| {
            (
                mean(&steady[..third]),
                mean(&steady[steady.len() - third..]),
                steady.len(),
            )
        })
    };
    if let (Some((rss_first, rss_last, n)), Some((heap_first, heap_last, _))) =
        (thirds(&rss), thirds(&heap))
    {
        println!(
            "soak memory after {} min of warm-up ({n} samples), mean of the first and last third: RSS {rss_first} -> {rss_last} KiB, heap in use {heap_first} -> {heap_last} KiB",
            warm as u64 * a.sample / 60
        );
    }
    println!(
        "soak done: {:.1} min, {} tables ({finished} games finished), {entries} log entries, {acked} acknowledged client moves, 0 lost (all {} tables verified against the log), {} reconnects, {} chat lines, {stuck_total} stuck rooms, {panics} panics in the server log, server RSS {min}..{max} KiB (last {})",
        start.elapsed().as_secs_f64() / 60.0,
        recs.len(),
        by_problem.get("verified").copied().unwrap_or(0),
        world.reconnects.load(Ordering::SeqCst),
        world.chats.load(Ordering::SeqCst),
        rss.last().copied().unwrap_or(0),
    );
    if stuck_total > 0 || panics > 0 {
        std::process::exit(1);
    }
}

/// What the server's `/metrics` counts (-1 where it could not be read).
struct Gauges {
    rooms: i64,
    connections: i64,
    heap_in_use_kib: i64,
    heap_free_kib: i64,
}

async fn server_gauges(addr: std::net::SocketAddr) -> Gauges {
    let text = try_http(addr, "GET", "/metrics", None)
        .await
        .map(|(_, body)| body)
        .unwrap_or_default();
    let gauge = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
            .unwrap_or(-1)
    };
    let kib = |bytes: i64| if bytes < 0 { bytes } else { bytes / 1024 };
    Gauges {
        rooms: gauge("citytable_rooms"),
        connections: gauge("citytable_connections"),
        heap_in_use_kib: kib(gauge("citytable_heap_in_use_bytes")),
        heap_free_kib: kib(gauge("citytable_heap_free_bytes")),
    }
}

async fn db_store(db: &TestDb, url: Option<&str>) -> store::Store {
    store::Store::open(url, &db.dir).await.expect("open store")
}
