//! Persistence for CityTable: tables, games and the move log, in embedded SQLite or in Postgres.
//!
//! # Layout
//! - [`Store`]: one handle over either backend (cheap to clone). The server picks Postgres when
//!   it has a database URL and an SQLite file (`<data_dir>/citytable.db`) otherwise; both run the
//!   same operations with the same meaning, and the same test suite runs against both.
//! - [`Committer`] (module `committer`): group commit of moves from many rooms.
//! - [`StoreError`] (module `error`): four kinds a caller can act on.
//! - [`Lease`] and [`Fence`] (module `lease`): table ownership for several nodes on one
//!   database, and writes refused once their writer's lease has changed hands.
//!
//! # Schema
//! Numbered migrations live in `migrations/postgres/` and `migrations/sqlite/` at the workspace
//! root (one dialect each). They are embedded in the binary at compile time and run by
//! [`Store::open`], so a deployment needs no SQL files.
//! - `game_table`: a table people sit at. Its two codes (invite, spectator) are unique; `doc` is
//!   a JSON document owned by the server (settings, seats, names, token hashes, host).
//! - `game`: one game played at a table, numbered from 1 per table; `setup` holds what
//!   `engine::Game::setup` needs (seats, seed, options, first seat); `outcome` is set once the
//!   game is over.
//! - `game_move`: the move log, primary key `(game_id, seq)`. It is the truth: a game's state is
//!   rebuilt by replaying its log from `setup`, so nothing else needs to be stored per move.
//! - `table_lease`: which node owns a table, under which epoch, until when (database clock).
//!   Unused by a single node.
//!
//! # Why group commit
//! A move is acknowledged to players only once it is durable, and a durable commit costs one
//! flush to disk (SQLite WAL `fsync`, Postgres WAL flush) whatever the number of rows in it. A
//! flush takes around a millisecond on ordinary disks, so committing moves one by one caps the
//! whole server near a thousand moves per second. The [`Committer`] therefore commits every move
//! queued from all rooms in one transaction: while a flush is in flight the next batch gathers,
//! so throughput grows with load while each move still waits for at most about two flushes.
//!
//! # Connections
//! SQLite: one write connection (writers queue for it in order rather than contend for the file
//! lock) and a few read connections working alongside it thanks to WAL; every connection uses
//! `synchronous=FULL` so a commit is on disk before it is acknowledged. Postgres: one pool;
//! while the server is down each call fails with [`StoreError::Unavailable`] after a few
//! seconds.
//!
//! # Tests
//! `cargo test -p store` runs one suite against a fresh SQLite file and a fresh Postgres
//! database per test (`citytable_test_<uuid>`, created on the server of `TEST_DATABASE_URL`,
//! default `postgres://postgres@127.0.0.1:5432/postgres`, dropped afterwards). Without a
//! reachable Postgres the Postgres tests fail, unless `CITYTABLE_SKIP_POSTGRES=1`. Throughput:
//! `cargo run -p store --release --example commit_bench -- sqlite|postgres [rooms] [moves]`.
//!
//! # Hidden information
//! Rows hold secrets (seeds, hands, token hashes). No error message of this crate carries row
//! contents, and nothing here logs them (SQL text is logged by sqlx at debug level; values are
//! always bound, never part of it). The row types derive `Debug` for tests: don't log them.
//!
//! # Differences between the backends
//! Postgres `jsonb` rejects the character U+0000 inside JSON strings (the call fails with
//! [`StoreError::Conflict`]) where SQLite stores it; reject control characters in names and
//! chat at the edge.

mod committer;
mod error;
mod lease;

pub use committer::{Committer, CommitterStats, MAX_BATCH};
pub use error::StoreError;
pub use lease::{Fence, Lease, MAX_LEASE_TTL};

use std::collections::HashMap;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use protocol::{RawJson, TableStatus};
use serde_json::Value;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::types::Json;
use sqlx::{Connection, QueryBuilder, Row, Sqlite};
use uuid::Uuid;

use error::db_error;

/// Name of the SQLite file inside the data directory.
pub const SQLITE_FILE: &str = "citytable.db";

/// How long an SQLite writer waits for another writer's lock before giving up.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a Postgres call waits for a free (or new) connection before it fails with
/// [`StoreError::Unavailable`]; also how long a call takes to fail while Postgres is down.
const POSTGRES_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an SQLite call waits for its turn on a connection: only load makes it wait, so
/// waiting long beats failing.
const SQLITE_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);
/// Read connections of the SQLite store.
const SQLITE_READERS: u32 = 4;
/// Rows per `insert` statement on SQLite, largest first (4 parameters per row, well under
/// SQLite's parameter limit). The last one must be 1.
const SQLITE_STATEMENT_ROWS: [usize; 5] = [256, 64, 16, 4, 1];

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

/// A table people sit at, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    pub id: Uuid,
    /// Which game is played here (the rules crate's id, e.g. `"tic-tac-toe"`).
    pub game: String,
    /// Code of the link that lets people take a seat. Unique across tables.
    pub invite_code: String,
    /// Code of the link that lets people watch. Unique across tables.
    pub spectator_code: String,
    /// Stored as `"lobby"`, `"playing"` or `"finished"` (the database rejects
    /// anything else).
    pub status: TableStatus,
    /// Listed publicly in the lobby.
    pub public: bool,
    /// Server-owned JSON: settings, seats, names, token hashes, host.
    pub doc: Value,
    pub updated_at_ms: i64,
}

/// One game played at a table, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    pub id: Uuid,
    pub table_id: Uuid,
    /// 1 for the first game at a table, then 2, 3, ... (unique per table).
    pub number: i32,
    /// Seats, seed, options, first seat: everything needed to set the game up again.
    pub setup: Value,
    pub started_at_ms: i64,
    /// `Some` once the game is over.
    pub outcome: Option<Value>,
}

/// One line of a game's move log.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveRow {
    pub game_id: Uuid,
    /// 0, 1, 2, ... per game; `(game_id, seq)` is unique.
    pub seq: i64,
    /// A serialized `engine::Entry`, stored as it is.
    pub entry: RawJson,
    pub at_ms: i64,
}

/// One write [`Store::commit`] stores with others in a single transaction; what the
/// [`Committer`] queues.
#[derive(Debug, Clone, PartialEq)]
pub enum Write {
    Table(TableRow),
    Game(GameRow),
    Move(MoveRow),
    /// The outcome of a stored game.
    Outcome {
        game_id: Uuid,
        outcome: Value,
    },
}

impl Write {
    /// The game whose move log this write extends, if it is a move.
    pub fn move_of(&self) -> Option<Uuid> {
        match self {
            Write::Move(m) => Some(m.game_id),
            _ => None,
        }
    }
}

const UPSERT_TABLE: &str = "insert into game_table (id, game, invite_code, spectator_code, \
     status, public, doc, updated_at_ms) values ($1, $2, $3, $4, $5, $6, $7, $8) \
     on conflict (id) do update set game = excluded.game, \
     invite_code = excluded.invite_code, spectator_code = excluded.spectator_code, \
     status = excluded.status, public = excluded.public, doc = excluded.doc, \
     updated_at_ms = excluded.updated_at_ms";
const INSERT_GAME: &str = "insert into game (id, table_id, number, setup, started_at_ms, outcome) \
     values ($1, $2, $3, $4, $5, $6)";
const SET_OUTCOME: &str = "update game set outcome = $1 where id = $2";

/// An unfinished table with what is needed to bring its room back after a restart.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovered {
    pub table: TableRow,
    /// The table's latest game (highest number), if any game was ever started there.
    pub game: Option<GameRow>,
    /// The moves of `game`, in `seq` order (empty when there is no game).
    pub moves: Vec<MoveRow>,
}

/// Handle on the database. Cheap to clone: clones share one connection pool.
#[derive(Clone)]
pub struct Store {
    db: Db,
}

#[derive(Clone)]
enum Db {
    /// SQLite lets one writer in at a time. Writers queue fairly for the single write connection
    /// instead of contending for the file lock (where SQLite's busy handler sleeps up to 100 ms
    /// between tries); readers run alongside it on their own connections (WAL).
    Sqlite {
        write: SqlitePool,
        read: SqlitePool,
    },
    Postgres(PgPool),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("kind", &self.kind()).finish()
    }
}

/// Runs the same code against whichever pool is behind the store; `read` or `write` picks the
/// SQLite pool. The body is compiled once per backend, so the SQL in it must be valid in both
/// dialects (`$1`-style parameters work in both).
macro_rules! on_pool {
    ($store:expr, $role:ident, $pool:ident => $body:expr) => {
        match &$store.db {
            Db::Sqlite { $role: $pool, .. } => $body,
            Db::Postgres($pool) => $body,
        }
    };
}

/// Reads a column, mapping a failure to [`StoreError::Corrupt`] (without the value).
macro_rules! col {
    ($row:expr, $name:literal, $what:expr) => {
        $row.try_get($name).map_err(|e| db_error($what, e))?
    };
}
pub(crate) use {col, on_pool};

macro_rules! table_from_row {
    ($row:expr, $what:expr) => {
        TableRow {
            id: col!($row, "id", $what),
            game: col!($row, "game", $what),
            invite_code: col!($row, "invite_code", $what),
            spectator_code: col!($row, "spectator_code", $what),
            status: {
                let text: String = col!($row, "status", $what);
                TableStatus::parse(&text)
                    .ok_or_else(|| StoreError::Corrupt(format!("{}: status {text:?}", $what)))?
            },
            public: col!($row, "public", $what),
            doc: {
                let Json(v): Json<Value> = col!($row, "doc", $what);
                v
            },
            updated_at_ms: col!($row, "updated_at_ms", $what),
        }
    };
}

macro_rules! game_from_row {
    ($row:expr, $what:expr) => {
        GameRow {
            id: col!($row, "id", $what),
            table_id: col!($row, "table_id", $what),
            number: col!($row, "number", $what),
            setup: {
                let Json(v): Json<Value> = col!($row, "setup", $what);
                v
            },
            started_at_ms: col!($row, "started_at_ms", $what),
            outcome: {
                let v: Option<Json<Value>> = col!($row, "outcome", $what);
                v.map(|Json(v)| v)
            },
        }
    };
}

macro_rules! move_from_row {
    ($row:expr, $what:expr) => {
        MoveRow {
            game_id: col!($row, "game_id", $what),
            seq: col!($row, "seq", $what),
            entry: {
                let Json(v): Json<RawJson> = col!($row, "entry", $what);
                v
            },
            at_ms: col!($row, "at_ms", $what),
        }
    };
}

const UNFINISHED_TABLES: &str = "select id, game, invite_code, spectator_code, status, public, \
     doc, updated_at_ms from game_table where status in ('lobby', 'playing') \
     order by updated_at_ms, id";

const UNFINISHED_LATEST_GAMES: &str = "select g.id, g.table_id, g.number, g.setup, \
     g.started_at_ms, g.outcome from game g join game_table t on t.id = g.table_id \
     where t.status in ('lobby', 'playing') \
     and g.number = (select max(g2.number) from game g2 where g2.table_id = g.table_id)";

const UNFINISHED_LATEST_MOVES: &str = "select m.game_id, m.seq, m.entry, m.at_ms \
     from game_move m join game g on g.id = m.game_id join game_table t on t.id = g.table_id \
     where t.status in ('lobby', 'playing') \
     and g.number = (select max(g2.number) from game g2 where g2.table_id = g.table_id) \
     order by m.game_id, m.seq";

impl Store {
    /// Opens the store and brings its schema up to date.
    ///
    /// `None` (the default deployment) uses the SQLite file `data_dir/citytable.db`, creating the
    /// directory and the file if needed, in WAL mode with `synchronous=FULL` so a committed
    /// transaction survives a crash or power loss. `Some(url)` connects to Postgres
    /// (`postgres://user@host:port/db`); a `sqlite:` URL is also accepted and opens that file
    /// with the same settings.
    ///
    /// Errors: [`StoreError::Unavailable`] when the directory cannot be created, the database
    /// cannot be reached, the URL is invalid or a migration fails.
    pub async fn open(database_url: Option<&str>, data_dir: &Path) -> Result<Store, StoreError> {
        match database_url {
            Some(url) if url.starts_with("sqlite:") => {
                let options = SqliteConnectOptions::from_str(url)
                    .map_err(|_| StoreError::Unavailable("invalid sqlite url".into()))?;
                Self::open_sqlite(options).await
            }
            Some(url) => Self::open_postgres(url).await,
            None => {
                std::fs::create_dir_all(data_dir).map_err(|e| {
                    StoreError::Unavailable(format!("cannot create the data directory: {e}"))
                })?;
                let options = SqliteConnectOptions::new().filename(data_dir.join(SQLITE_FILE));
                Self::open_sqlite(options).await
            }
        }
    }

    async fn open_sqlite(options: SqliteConnectOptions) -> Result<Store, StoreError> {
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(SQLITE_BUSY_TIMEOUT)
            .foreign_keys(true);
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(SQLITE_ACQUIRE_TIMEOUT)
            .connect_with(options.clone())
            .await
            .map_err(|e| db_error("open sqlite", e))?;
        SQLITE_MIGRATIONS
            .run(&write)
            .await
            .map_err(|e| error::migrate_error("sqlite", e))?;
        let read = SqlitePoolOptions::new()
            .max_connections(SQLITE_READERS)
            .acquire_timeout(SQLITE_ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await
            .map_err(|e| db_error("open sqlite", e))?;
        Ok(Store {
            db: Db::Sqlite { write, read },
        })
    }

    async fn open_postgres(url: &str) -> Result<Store, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|_| StoreError::Unavailable("invalid postgres url".into()))?;
        // One direct connection first: it fails at once with the real cause (connection
        // refused, bad password, unknown database), where the pool would retry until its
        // timeout and report only that.
        let probe = PgConnection::connect_with(&options)
            .await
            .map_err(|e| db_error("connect to postgres", e))?;
        probe
            .close()
            .await
            .map_err(|e| db_error("connect to postgres", e))?;
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(POSTGRES_ACQUIRE_TIMEOUT)
            .connect_lazy_with(options);
        POSTGRES_MIGRATIONS
            .run(&pool)
            .await
            .map_err(|e| error::migrate_error("postgres", e))?;
        Ok(Store {
            db: Db::Postgres(pool),
        })
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn kind(&self) -> &'static str {
        match self.db {
            Db::Sqlite { .. } => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    /// Checks that the database answers (for a readiness probe).
    pub async fn ping(&self) -> Result<(), StoreError> {
        on_pool!(self, read, pool => {
            sqlx::query("select 1").execute(pool).await.map_err(|e| db_error("ping", e))?;
        });
        Ok(())
    }

    /// Whether one new connection to the database opens right now, tried once (the
    /// pool instead keeps retrying a refused connection until its acquire timeout).
    /// SQLite is a file: always reachable.
    pub async fn reachable(&self) -> bool {
        match &self.db {
            Db::Sqlite { .. } => true,
            Db::Postgres(pool) => {
                let options = pool.connect_options();
                let connect = PgConnection::connect_with(&options);
                match tokio::time::timeout(POSTGRES_ACQUIRE_TIMEOUT, connect).await {
                    Ok(Ok(conn)) => {
                        let _ = conn.close().await;
                        true
                    }
                    _ => false,
                }
            }
        }
    }

    /// Closes every connection, waiting for calls in progress to finish. Calls made afterwards
    /// fail with [`StoreError::Unavailable`].
    pub async fn close(&self) {
        match &self.db {
            Db::Sqlite { write, read } => {
                write.close().await;
                read.close().await;
            }
            Db::Postgres(pool) => pool.close().await,
        }
    }

    /// Inserts the table, or replaces every column of the stored table with the same id.
    ///
    /// Errors: [`StoreError::Conflict`] when another table already uses one of its codes, or the
    /// status is not one of `lobby`, `playing`, `finished`.
    pub async fn upsert_table(&self, t: &TableRow) -> Result<(), StoreError> {
        self.commit(&[Write::Table(t.clone())]).await
    }

    /// Inserts a new game.
    ///
    /// Errors: [`StoreError::Conflict`] when the id or the table's game number is taken, or the
    /// table does not exist.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        self.commit(&[Write::Game(g.clone())]).await
    }

    /// Appends moves (of any number of games) in ONE transaction: either all are stored or none.
    ///
    /// Errors: [`StoreError::Conflict`] when a `(game_id, seq)` is already stored or appears
    /// twice in `moves`, or a game does not exist; nothing is stored then.
    pub async fn append_moves(&self, moves: &[MoveRow]) -> Result<(), StoreError> {
        self.append_move_refs(&moves.iter().collect::<Vec<_>>())
            .await
    }

    async fn append_move_refs(&self, moves: &[&MoveRow]) -> Result<(), StoreError> {
        const WHAT: &str = "append moves";
        if moves.is_empty() {
            return Ok(());
        }
        match &self.db {
            Db::Sqlite { write: pool, .. } => {
                let chunks = sqlite_chunks(moves);
                if let [only] = chunks.as_slice() {
                    // One statement is atomic by itself.
                    sqlite_insert_moves(only)
                        .build()
                        .execute(pool)
                        .await
                        .map_err(|e| db_error(WHAT, e))?;
                } else {
                    let mut tx = pool.begin().await.map_err(|e| db_error(WHAT, e))?;
                    for chunk in chunks {
                        sqlite_insert_moves(chunk)
                            .build()
                            .execute(&mut *tx)
                            .await
                            .map_err(|e| db_error(WHAT, e))?;
                    }
                    tx.commit().await.map_err(|e| db_error(WHAT, e))?;
                }
            }
            Db::Postgres(pool) => {
                // One statement (atomic by itself), whatever the count.
                postgres_insert_moves(moves)
                    .execute(pool)
                    .await
                    .map_err(|e| db_error(WHAT, e))?;
            }
        }
        Ok(())
    }

    /// Deletes the tables abandoned in their lobby: no game ever started there and
    /// nothing changed since `before_ms`. Returns how many were deleted.
    pub async fn delete_abandoned_tables(&self, before_ms: i64) -> Result<u64, StoreError> {
        const WHAT: &str = "delete abandoned tables";
        const SQL: &str = "delete from game_table where status = 'lobby' and updated_at_ms < $1 \
             and not exists (select 1 from game where game.table_id = game_table.id)";
        let deleted = on_pool!(self, write, pool => {
            sqlx::query(SQL)
                .bind(before_ms)
                .execute(pool)
                .await
                .map_err(|e| db_error(WHAT, e))?
                .rows_affected()
        });
        Ok(deleted)
    }

    /// Records the outcome of a game (replacing any earlier one).
    ///
    /// Errors: [`StoreError::Conflict`] when no such game is stored.
    pub async fn finish_game(&self, game_id: Uuid, outcome: &Value) -> Result<(), StoreError> {
        self.commit(&[Write::Outcome {
            game_id,
            outcome: outcome.clone(),
        }])
        .await
    }

    /// Stores every write in ONE transaction: all or nothing, one flush. A batch holds at
    /// most one write per room (each room waits for its write before the next), so writes
    /// are grouped by kind, in an order that satisfies every reference: tables, games,
    /// moves, outcomes; within a kind they keep their order.
    ///
    /// Errors: those of [`Store::upsert_table`], [`Store::insert_game`],
    /// [`Store::append_moves`] and [`Store::finish_game`]; nothing is stored then.
    pub async fn commit(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.commit_fenced(writes, &[]).await
    }

    /// Like [`Store::commit`], only while every fence holds: in the same transaction, before
    /// anything is written, each fence's epoch must be its table's current lease epoch (see
    /// the `lease` module). Fences are the writers' claims on their tables; they are not
    /// matched against the writes, so give the fence of every table written.
    ///
    /// Errors: [`StoreError::Fenced`] naming the first fence (in the order given) that no
    /// longer holds, its table's lease having changed hands (or never existed); nothing is
    /// stored then. Otherwise those of [`Store::commit`].
    pub async fn commit_fenced(
        &self,
        writes: &[Write],
        fences: &[Fence],
    ) -> Result<(), StoreError> {
        const WHAT: &str = "commit";
        let moves: Vec<&MoveRow> = writes
            .iter()
            .filter_map(|w| match w {
                Write::Move(m) => Some(m),
                _ => None,
            })
            .collect();
        if fences.is_empty() && moves.len() == writes.len() {
            return self.append_move_refs(&moves).await;
        }
        macro_rules! rows_before_moves {
            ($tx:ident) => {
                for w in writes {
                    if let Write::Table(t) = w {
                        bind_table(sqlx::query(UPSERT_TABLE), t)
                            .execute(&mut *$tx)
                            .await
                            .map_err(|e| db_error("upsert table", e))?;
                    }
                }
                for w in writes {
                    if let Write::Game(g) = w {
                        bind_game(sqlx::query(INSERT_GAME), g)
                            .execute(&mut *$tx)
                            .await
                            .map_err(|e| db_error("insert game", e))?;
                    }
                }
            };
        }
        macro_rules! outcomes {
            ($tx:ident) => {
                for w in writes {
                    if let Write::Outcome { game_id, outcome } = w {
                        let updated = sqlx::query(SET_OUTCOME)
                            .bind(Json(outcome))
                            .bind(game_id)
                            .execute(&mut *$tx)
                            .await
                            .map_err(|e| db_error("finish game", e))?
                            .rows_affected();
                        if updated == 0 {
                            return Err(StoreError::Conflict("finish game: no such game".into()));
                        }
                    }
                }
            };
        }
        match &self.db {
            Db::Sqlite { write: pool, .. } => {
                let mut tx = pool.begin().await.map_err(|e| db_error(WHAT, e))?;
                lease::check_fences_sqlite(&mut tx, fences).await?;
                rows_before_moves!(tx);
                for chunk in sqlite_chunks(&moves) {
                    sqlite_insert_moves(chunk)
                        .build()
                        .execute(&mut *tx)
                        .await
                        .map_err(|e| db_error("append moves", e))?;
                }
                outcomes!(tx);
                tx.commit().await.map_err(|e| db_error(WHAT, e))?;
            }
            Db::Postgres(pool) => {
                let mut tx = pool.begin().await.map_err(|e| db_error(WHAT, e))?;
                lease::check_fences_postgres(&mut tx, fences).await?;
                rows_before_moves!(tx);
                if !moves.is_empty() {
                    postgres_insert_moves(&moves)
                        .execute(&mut *tx)
                        .await
                        .map_err(|e| db_error("append moves", e))?;
                }
                outcomes!(tx);
                tx.commit().await.map_err(|e| db_error(WHAT, e))?;
            }
        }
        Ok(())
    }

    /// Every table in `lobby` or `playing`, with its latest game and that game's moves in `seq`
    /// order, read from one consistent snapshot. Finished tables are left out. Tables come in
    /// order of `updated_at_ms`.
    pub async fn load_unfinished(&self) -> Result<Vec<Recovered>, StoreError> {
        const WHAT: &str = "load unfinished tables";
        let (tables, games, moves) = on_pool!(self, read, pool => {
            let mut tx = pool.begin().await.map_err(|e| db_error(WHAT, e))?;
            if matches!(self.db, Db::Postgres(_)) {
                sqlx::query("set transaction isolation level repeatable read, read only")
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| db_error(WHAT, e))?;
            }
            let mut tables = Vec::new();
            for row in sqlx::query(UNFINISHED_TABLES)
                .fetch_all(&mut *tx)
                .await
                .map_err(|e| db_error(WHAT, e))?
            {
                tables.push(table_from_row!(row, WHAT));
            }
            let mut games = HashMap::new();
            for row in sqlx::query(UNFINISHED_LATEST_GAMES)
                .fetch_all(&mut *tx)
                .await
                .map_err(|e| db_error(WHAT, e))?
            {
                let game = game_from_row!(row, WHAT);
                games.insert(game.table_id, game);
            }
            let mut moves: HashMap<Uuid, Vec<MoveRow>> = HashMap::new();
            for row in sqlx::query(UNFINISHED_LATEST_MOVES)
                .fetch_all(&mut *tx)
                .await
                .map_err(|e| db_error(WHAT, e))?
            {
                let m = move_from_row!(row, WHAT);
                moves.entry(m.game_id).or_default().push(m);
            }
            tx.commit().await.map_err(|e| db_error(WHAT, e))?;
            (tables, games, moves)
        });
        let mut games = games;
        let mut moves = moves;
        Ok(tables
            .into_iter()
            .map(|table| {
                let game = games.remove(&table.id);
                let moves = game
                    .as_ref()
                    .and_then(|g| moves.remove(&g.id))
                    .unwrap_or_default();
                Recovered { table, game, moves }
            })
            .collect())
    }

    /// The table whose invite code or spectator code is `code` (the caller compares the codes
    /// to learn which one matched).
    pub async fn table_by_code(&self, code: &str) -> Result<Option<TableRow>, StoreError> {
        const WHAT: &str = "find table by code";
        const SQL: &str = "select id, game, invite_code, spectator_code, status, public, doc, \
             updated_at_ms from game_table where invite_code = $1 or spectator_code = $1 \
             order by (invite_code = $1) desc limit 1";
        let table = on_pool!(self, read, pool => {
            match sqlx::query(SQL)
                .bind(code)
                .fetch_optional(pool)
                .await
                .map_err(|e| db_error(WHAT, e))?
            {
                Some(row) => Some(table_from_row!(row, WHAT)),
                None => None,
            }
        });
        Ok(table)
    }

    /// The table with this id.
    pub async fn table_by_id(&self, id: Uuid) -> Result<Option<TableRow>, StoreError> {
        const WHAT: &str = "find table by id";
        let table = on_pool!(self, read, pool => {
            match sqlx::query(
                "select id, game, invite_code, spectator_code, status, public, doc, \
                 updated_at_ms from game_table where id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await
            .map_err(|e| db_error(WHAT, e))?
            {
                Some(row) => Some(table_from_row!(row, WHAT)),
                None => None,
            }
        });
        Ok(table)
    }

    /// The table's latest game (highest number) with its moves in `seq` order, if any game was
    /// started there.
    pub async fn latest_game(
        &self,
        table_id: Uuid,
    ) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        const WHAT: &str = "load latest game";
        let found = on_pool!(self, read, pool => {
            let game = match sqlx::query(
                "select id, table_id, number, setup, started_at_ms, outcome from game \
                 where table_id = $1 order by number desc limit 1",
            )
            .bind(table_id)
            .fetch_optional(pool)
            .await
            .map_err(|e| db_error(WHAT, e))?
            {
                Some(row) => game_from_row!(row, WHAT),
                None => return Ok(None),
            };
            let mut moves = Vec::new();
            for row in sqlx::query(
                "select game_id, seq, entry, at_ms from game_move where game_id = $1 order by seq",
            )
            .bind(game.id)
            .fetch_all(pool)
            .await
            .map_err(|e| db_error(WHAT, e))?
            {
                moves.push(move_from_row!(row, WHAT));
            }
            (game, moves)
        });
        Ok(Some(found))
    }
}

/// Moves split into statements of a few fixed sizes, so each statement is prepared once
/// per connection and then served from the statement cache whatever the batch size.
fn sqlite_chunks<'a, 'q>(moves: &'a [&'q MoveRow]) -> Vec<&'a [&'q MoveRow]> {
    let mut rest = moves;
    let mut chunks = Vec::new();
    while !rest.is_empty() {
        let size = SQLITE_STATEMENT_ROWS
            .iter()
            .copied()
            .find(|&n| n <= rest.len())
            .unwrap_or(1);
        let (chunk, tail) = rest.split_at(size);
        chunks.push(chunk);
        rest = tail;
    }
    chunks
}

/// One Postgres statement inserting any number of moves, one array per column.
fn postgres_insert_moves<'q>(
    moves: &[&'q MoveRow],
) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    let mut ids = Vec::with_capacity(moves.len());
    let mut seqs = Vec::with_capacity(moves.len());
    let mut entries = Vec::with_capacity(moves.len());
    let mut ats = Vec::with_capacity(moves.len());
    for m in moves {
        ids.push(m.game_id);
        seqs.push(m.seq);
        entries.push(Json(&m.entry));
        ats.push(m.at_ms);
    }
    sqlx::query(
        "insert into game_move (game_id, seq, entry, at_ms) \
         select * from unnest($1::uuid[], $2::int8[], $3::jsonb[], $4::int8[])",
    )
    .bind(ids)
    .bind(seqs)
    .bind(entries)
    .bind(ats)
}

fn bind_table<'q, DB: sqlx::Database>(
    q: sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments>,
    t: &'q TableRow,
) -> sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments>
where
    Uuid: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    bool: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Json<&'q Value>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    q.bind(t.id)
        .bind(&t.game)
        .bind(&t.invite_code)
        .bind(&t.spectator_code)
        .bind(t.status.as_str())
        .bind(t.public)
        .bind(Json(&t.doc))
        .bind(t.updated_at_ms)
}

fn bind_game<'q, DB: sqlx::Database>(
    q: sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments>,
    g: &'q GameRow,
) -> sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments>
where
    Uuid: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i32: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Json<&'q Value>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<Json<&'q Value>>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    q.bind(g.id)
        .bind(g.table_id)
        .bind(g.number)
        .bind(Json(&g.setup))
        .bind(g.started_at_ms)
        .bind(g.outcome.as_ref().map(Json))
}

/// `insert into game_move ... values (..), (..), ...` for SQLite.
fn sqlite_insert_moves(chunk: &[&MoveRow]) -> QueryBuilder<Sqlite> {
    let mut qb = QueryBuilder::<Sqlite>::new("insert into game_move (game_id, seq, entry, at_ms) ");
    qb.push_values(chunk, |mut b, m| {
        b.push_bind(m.game_id)
            .push_bind(m.seq)
            .push_bind(Json(&m.entry))
            .push_bind(m.at_ms);
    });
    qb
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings that make an acknowledged commit durable, as every store connection (the
    /// writer and the readers) sees them.
    #[tokio::test]
    async fn sqlite_connections_use_wal_full_sync_and_a_busy_timeout() {
        let dir = std::env::temp_dir().join(format!("citytable-store-unit-{}", Uuid::new_v4()));
        let store = Store::open(None, &dir).await.expect("open");
        let Db::Sqlite { write, read } = &store.db else {
            panic!("expected sqlite");
        };
        for pool in [write, read] {
            let mut conn = pool.acquire().await.expect("connection");
            let journal: String = sqlx::query_scalar("pragma journal_mode")
                .fetch_one(&mut *conn)
                .await
                .expect("journal_mode");
            let synchronous: i64 = sqlx::query_scalar("pragma synchronous")
                .fetch_one(&mut *conn)
                .await
                .expect("synchronous");
            let busy: i64 = sqlx::query_scalar("pragma busy_timeout")
                .fetch_one(&mut *conn)
                .await
                .expect("busy_timeout");
            let foreign_keys: i64 = sqlx::query_scalar("pragma foreign_keys")
                .fetch_one(&mut *conn)
                .await
                .expect("foreign_keys");
            assert_eq!(journal, "wal");
            assert_eq!(synchronous, 2, "2 is FULL");
            assert_eq!(busy, 10_000);
            assert_eq!(foreign_keys, 1);
        }
        store.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Compile-time check: every call can run on a multi-threaded runtime (`tokio::spawn`,
    /// boxed `Send` futures).
    #[allow(dead_code)]
    fn calls_are_send(store: &Store, committer: &Committer, row: &TableRow, game: &GameRow) {
        fn send<T: Send>(_: T) {}
        fn shared<T: Send + Sync>(_: &T) {}
        shared(store);
        shared(committer);
        send(store.clone());
        send(Store::open(None, Path::new(".")));
        send(store.ping());
        send(store.close());
        send(store.upsert_table(row));
        send(store.insert_game(game));
        send(store.append_moves(&[]));
        send(store.finish_game(game.id, &game.setup));
        send(store.load_unfinished());
        send(store.table_by_code(""));
        send(store.table_by_id(row.id));
        send(store.latest_game(row.id));
        send(store.commit_fenced(&[], &[]));
        send(store.acquire_lease(row.id, "", Duration::ZERO));
        send(store.renew_lease(row.id, "", 1, Duration::ZERO));
        send(store.release_lease(row.id, "", 1));
        send(store.lease(row.id));
        send(store.expired_leases(1));
        send(store.claim_expired_leases("", Duration::ZERO, 1));
        send(committer.write_fenced(
            Write::Table(row.clone()),
            Some(Fence {
                table_id: row.id,
                epoch: 1,
            }),
        ));
        send(committer.append(MoveRow {
            game_id: game.id,
            seq: 0,
            entry: RawJson::of(&Value::Null).expect("null"),
            at_ms: 0,
        }));
    }

    #[test]
    fn sqlite_and_postgres_codes_are_told_apart() {
        assert!(error::is_sqlite_code("5"));
        assert!(error::is_sqlite_code("2067"));
        assert!(!error::is_sqlite_code("23505"));
        assert!(!error::is_sqlite_code("57P01"));
        assert!(!error::is_sqlite_code(""));
    }
}
