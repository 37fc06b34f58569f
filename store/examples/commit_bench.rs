//! Durable moves per second: many rooms appending moves, each room waiting until its previous
//! move is durable before sending the next (as the server does).
//!
//! ```text
//! cargo run -p store --release --example commit_bench -- [sqlite|postgres] [rooms] [moves per room]
//! ```
//! SQLite uses a fresh temporary directory. Postgres creates a fresh database on the server of
//! `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`) and drops it
//! afterwards. Prints the figures for the group committer and, for comparison, for rooms
//! committing their own moves one transaction each.

use std::time::Instant;

use serde_json::json;
use sqlx::Connection;
use store::{Committer, GameRow, MoveRow, Store, StoreError, TableRow};
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
            (store, Cleanup::Db { admin, name })
        }
        other => return Err(format!("unknown backend {other}: use sqlite or postgres").into()),
    };

    let result = run(&store, rooms, moves).await;
    store.close().await;
    cleanup.run().await?;
    result
}

async fn run(store: &Store, rooms: usize, moves: i64) -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "backend={} rooms={rooms} moves_per_room={moves} cores={}",
        store.kind(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let games = create_games(store, rooms).await?;
    let committer = Committer::spawn(store.clone());
    let handle = committer.clone();
    let (secs, total) = drive(&games, 0, moves, move |row| {
        let committer = handle.clone();
        async move { committer.append(row).await }
    })
    .await?;
    let stats = committer.stats();
    println!(
        "group commit:      {total} durable moves in {secs:.3} s = {:.0} moves/s \
         ({} transactions, mean {:.1} moves each)",
        total as f64 / secs,
        stats.commits,
        stats.rows as f64 / stats.commits.max(1) as f64
    );

    let own = store.clone();
    let (secs, total) = drive(&games, moves, 2 * moves, move |row| {
        let store = own.clone();
        async move { store.append_moves(std::slice::from_ref(&row)).await }
    })
    .await?;
    println!(
        "one per commit:    {total} durable moves in {secs:.3} s = {:.0} moves/s",
        total as f64 / secs
    );
    Ok(())
}

/// Every room appends seqs `from..to` one after the other; returns (seconds, moves).
async fn drive<F, Fut>(
    games: &[Uuid],
    from: i64,
    to: i64,
    append: F,
) -> Result<(f64, usize), Box<dyn std::error::Error>>
where
    F: Fn(MoveRow) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Result<(), StoreError>> + Send,
{
    let start = Instant::now();
    let mut tasks = Vec::new();
    for &game_id in games {
        let append = append.clone();
        tasks.push(tokio::spawn(async move {
            for seq in from..to {
                let entry = protocol::RawJson::of(
                    &json!({"seat": seq % 4, "move": {"type": "place", "tile": seq, "x": 3, "y": 4}}),
                )
                .unwrap_or_default();
                append(MoveRow { game_id, seq, entry, at_ms: seq }).await?;
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

async fn create_games(store: &Store, rooms: usize) -> Result<Vec<Uuid>, StoreError> {
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
        games.push(game.id);
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
