//! Durable moves per second: many rooms appending moves, each room waiting until its previous
//! move is durable before sending the next (as the server does).
//!
//! ```text
//! cargo run -p store --release --example commit_bench -- [sqlite|postgres] [rooms] [moves per room]
//! ```
//! SQLite uses a fresh temporary directory. Postgres creates a fresh database on the server of
//! `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`) and drops it
//! afterwards. Prints the figures for the group committer, unfenced (one node) and fenced by
//! each table's lease (cluster mode), for comparison those of rooms committing their own
//! moves one transaction each, and the rate of lease renewals in one round, as a node's
//! renew loop sends them, and one after another. On Postgres each phase also prints the WAL it wrote (from
//! `pg_current_wal_lsn()`) and the WAL flushes (`pg_stat_wal.wal_sync`, read 11 s after the
//! phase: backends publish their statistics within 10 s of going idle). Both count the whole
//! Postgres server: other databases' work in the same seconds is included.

use std::time::{Duration, Instant};

use serde_json::json;
use sqlx::Connection;
use store::{Committer, Fence, GameRow, MoveRow, Store, StoreError, TableRow, Write};
use uuid::Uuid;

const DEFAULT_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let backend = args
        .first()
        .map(String::as_str)
        .unwrap_or("sqlite")
        .to_string();
    let rooms: usize = args.get(1).map(|s| s.parse()).transpose()?.unwrap_or(1000);
    let moves: i64 = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(20);

    let mut wal = Wal(None);
    let (store, cleanup) = match backend.as_str() {
        "sqlite" => {
            let dir = std::env::temp_dir().join(format!("citytable-bench-{}", Uuid::new_v4()));
            (Store::open(None, &dir).await?, Cleanup::Dir(dir))
        }
        "postgres" => {
            let admin = std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| DEFAULT_URL.into());
            let name = format!("citytable_bench_{}", Uuid::new_v4().simple());
            let mut conn = sqlx::PgConnection::connect(&admin).await?;
            sqlx::raw_sql(sqlx::AssertSqlSafe(format!("create database {name}")))
                .execute(&mut conn)
                .await?;
            let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(&admin);
            let url = format!("{base}/{name}");
            let store = Store::open(Some(&url), std::path::Path::new(".")).await?;
            wal = Wal(Some(sqlx::PgConnection::connect(&admin).await?));
            (store, Cleanup::Db { admin, name })
        }
        other => return Err(format!("unknown backend {other}: use sqlite or postgres").into()),
    };

    let result = run(&store, &mut wal, rooms, moves).await;
    store.close().await;
    cleanup.run().await?;
    result
}

async fn run(
    store: &Store,
    wal: &mut Wal,
    rooms: usize,
    moves: i64,
) -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "backend={} rooms={rooms} moves_per_room={moves} cores={}",
        store.kind(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let games = create_games(store, rooms).await?;
    let committer = Committer::spawn(store.clone());
    let handle = committer.clone();
    let before = wal.read().await;
    let (secs, total) = drive(&games, 0, moves, move |_, row| {
        let committer = handle.clone();
        async move { committer.append(row).await }
    })
    .await?;
    let stats = committer.stats();
    println!(
        "group commit:      {total} durable moves in {secs:.3} s = {:.0} moves/s \
         ({} transactions, mean {:.1} moves each){}",
        total as f64 / secs,
        stats.commits,
        stats.rows as f64 / stats.commits.max(1) as f64,
        wal.since(before, total).await
    );

    // Cluster mode: every move carries its table's lease, checked in the transaction.
    const NODE: &str = "bench-node";
    const TTL: Duration = Duration::from_secs(600);
    let mut fences = Vec::with_capacity(games.len());
    for &(table_id, _) in &games {
        match store.acquire_lease(table_id, NODE, TTL).await? {
            Some(epoch) => fences.push(Fence { table_id, epoch }),
            None => return Err("a fresh table's lease was taken".into()),
        }
    }
    let fenced = Committer::spawn(store.clone());
    let handle = fenced.clone();
    let fence_of: std::collections::HashMap<Uuid, Fence> = games
        .iter()
        .zip(&fences)
        .map(|(&(_, game_id), &fence)| (game_id, fence))
        .collect();
    let fence_of = std::sync::Arc::new(fence_of);
    let before = wal.read().await;
    let (secs, total) = drive(&games, moves, 2 * moves, move |game_id, row| {
        let committer = handle.clone();
        let fence = fence_of.get(&game_id).copied();
        async move { committer.write_fenced(Write::Move(row), fence).await }
    })
    .await?;
    let stats = fenced.stats();
    println!(
        "fenced group commit: {total} durable moves in {secs:.3} s = {:.0} moves/s \
         ({} transactions, mean {:.1} moves each){}",
        total as f64 / secs,
        stats.commits,
        stats.rows as f64 / stats.commits.max(1) as f64,
        wal.since(before, total).await
    );

    let own = store.clone();
    let before = wal.read().await;
    let (secs, total) = drive(&games, 2 * moves, 3 * moves, move |_, row| {
        let store = own.clone();
        async move { store.append_moves(std::slice::from_ref(&row)).await }
    })
    .await?;
    println!(
        "one per commit:    {total} durable moves in {secs:.3} s = {:.0} moves/s{}",
        total as f64 / secs,
        wal.since(before, total).await
    );

    // As a node's renew loop does: all its leases in one round, a statement per thousand.
    let held: Vec<(Uuid, i64)> = fences.iter().map(|f| (f.table_id, f.epoch)).collect();
    let before = wal.read().await;
    let start = Instant::now();
    let renewed = store.renew_leases(NODE, &held, TTL).await?;
    if renewed.len() != held.len() {
        return Err("a held lease was not renewed".into());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "lease renewals in one round: {} in {secs:.3} s = {:.0}/s{}",
        held.len(),
        held.len() as f64 / secs,
        wal.since(before, held.len()).await
    );

    // For comparison, one statement per lease, each awaited before the next.
    let before = wal.read().await;
    let start = Instant::now();
    for fence in &fences {
        if !store
            .renew_lease(fence.table_id, NODE, fence.epoch, TTL)
            .await?
        {
            return Err("a held lease was not renewed".into());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "lease renewals one at a time: {} in {secs:.3} s = {:.0}/s ({:.3} ms each){}",
        fences.len(),
        fences.len() as f64 / secs,
        1000.0 * secs / fences.len().max(1) as f64,
        wal.since(before, fences.len()).await
    );
    Ok(())
}

/// The Postgres server's WAL position and flushes, when the store is Postgres.
struct Wal(Option<sqlx::PgConnection>);

impl Wal {
    /// The WAL position in bytes.
    async fn position(&mut self) -> Option<i64> {
        let conn = self.0.as_mut()?;
        sqlx::query_scalar("select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::int8")
            .fetch_one(conn)
            .await
            .ok()
    }

    /// WAL flushes counted so far.
    async fn flushes(&mut self) -> Option<i64> {
        let conn = self.0.as_mut()?;
        sqlx::query_scalar("select wal_sync from pg_stat_wal")
            .fetch_one(conn)
            .await
            .ok()
    }

    /// Where the WAL is and how many flushes it took so far.
    async fn read(&mut self) -> Option<(i64, i64)> {
        Some((self.position().await?, self.flushes().await?))
    }

    /// What was written since `before`, per item of `items`, as text to print.
    async fn since(&mut self, before: Option<(i64, i64)>, items: usize) -> String {
        let Some((position, flushes)) = before else {
            return String::new();
        };
        let Some(now) = self.position().await else {
            return String::new();
        };
        // An idle backend publishes its statistics within 10 s.
        tokio::time::sleep(Duration::from_secs(11)).await;
        let Some(flushed) = self.flushes().await else {
            return String::new();
        };
        format!(
            "; WAL {:.0} B each, {} flushes (server-wide, within 11 s)",
            (now - position) as f64 / items.max(1) as f64,
            flushed - flushes
        )
    }
}

/// Every room appends seqs `from..to` one after the other; returns (seconds, moves).
async fn drive<F, Fut>(
    games: &[(Uuid, Uuid)],
    from: i64,
    to: i64,
    append: F,
) -> Result<(f64, usize), Box<dyn std::error::Error>>
where
    F: Fn(Uuid, MoveRow) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Result<(), StoreError>> + Send,
{
    let start = Instant::now();
    let mut tasks = Vec::new();
    for &(_, game_id) in games {
        let append = append.clone();
        tasks.push(tokio::spawn(async move {
            for seq in from..to {
                let entry = protocol::RawJson::of(
                    &json!({"seat": seq % 4, "move": {"type": "place", "tile": seq, "x": 3, "y": 4}}),
                )
                .unwrap_or_default();
                append(game_id, MoveRow { game_id, seq, entry, at_ms: seq }).await?;
            }
            Ok::<(), StoreError>(())
        }));
    }
    for task in tasks {
        task.await??;
    }
    let secs = start.elapsed().as_secs_f64();
    Ok((secs, games.len() * usize::try_from(to - from)?))
}

/// `rooms` tables in play, each with its game: (table id, game id).
async fn create_games(store: &Store, rooms: usize) -> Result<Vec<(Uuid, Uuid)>, StoreError> {
    let mut games = Vec::with_capacity(rooms);
    for i in 0..rooms {
        let table = TableRow {
            id: Uuid::new_v4(),
            game: "big-city".into(),
            invite_code: format!("bench-i-{i}"),
            spectator_code: format!("bench-s-{i}"),
            status: protocol::TableStatus::Playing,
            public: false,
            doc: json!({"seats": 4}),
            updated_at_ms: 0,
        };
        store.upsert_table(&table).await?;
        let game = GameRow {
            id: Uuid::new_v4(),
            table_id: table.id,
            number: 1,
            setup: json!({"seed": 42}),
            started_at_ms: 0,
            outcome: None,
        };
        store.insert_game(&game).await?;
        games.push((table.id, game.id));
    }
    Ok(games)
}

enum Cleanup {
    Dir(std::path::PathBuf),
    Db { admin: String, name: String },
}

impl Cleanup {
    async fn run(self) -> Result<(), Box<dyn std::error::Error>> {
        match self {
            Cleanup::Dir(dir) => std::fs::remove_dir_all(dir)?,
            Cleanup::Db { admin, name } => {
                let mut conn = sqlx::PgConnection::connect(&admin).await?;
                sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                    "drop database if exists {name} with (force)"
                )))
                .execute(&mut conn)
                .await?;
            }
        }
        Ok(())
    }
}
