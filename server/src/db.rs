//! The server's view of persistence.
//!
//! [`Db`] is the store contract (tables, games, the move log, group commit) as an
//! object-safe trait so rooms hold one `Arc<dyn Db>`: [`StoreDb`] is the real one
//! (the `store` crate: SQLite or Postgres), [`MemDb`] keeps everything in memory
//! and can be told to fail, which tests use to check that a failed commit applies
//! and acknowledges nothing.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use protocol::TableStatus;
use serde_json::Value;
use uuid::Uuid;

pub use store::{GameRow, MoveRow, Recovered, StoreError, TableRow};

pub type BoxFut<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A game row with its move log in order.
pub type GameWithMoves = (GameRow, Vec<MoveRow>);

/// Persistence as rooms and the HTTP API use it.
pub trait Db: Send + Sync + 'static {
    fn kind(&self) -> &'static str;
    /// The group commit's totals, for metrics (`None` without a store).
    fn committer_stats(&self) -> Option<store::CommitterStats> {
        None
    }
    fn ping(&self) -> BoxFut<'_, Result<(), StoreError>>;
    fn upsert_table<'a>(&'a self, t: &'a TableRow) -> BoxFut<'a, Result<(), StoreError>>;
    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, Result<(), StoreError>>;
    /// Appends one move; resolves once it is durable.
    fn append(&self, row: MoveRow) -> BoxFut<'_, Result<(), StoreError>>;
    fn finish_game<'a>(
        &'a self,
        game_id: Uuid,
        outcome: &'a Value,
    ) -> BoxFut<'a, Result<(), StoreError>>;
    fn load_unfinished(&self) -> BoxFut<'_, Result<Vec<Recovered>, StoreError>>;
    fn table_by_code<'a>(
        &'a self,
        code: &'a str,
    ) -> BoxFut<'a, Result<Option<TableRow>, StoreError>>;
    fn latest_game(&self, table_id: Uuid) -> BoxFut<'_, Result<Option<GameWithMoves>, StoreError>>;
    /// Deletes lobby tables where no game ever started and nothing changed since
    /// `before_ms`; how many.
    fn delete_abandoned_tables(&self, before_ms: i64) -> BoxFut<'_, Result<u64, StoreError>>;
}

/// The `store` crate: SQLite or Postgres. Every write (moves, tables, games, outcomes) goes
/// through its group commit ([`store::Committer`]), so many rooms share each flush.
///
/// When a call finds the database unavailable, later calls fail at once until a probe
/// connects again: while Postgres is down, each call would otherwise wait out the pool's
/// connect retries (its acquire timeout) before failing, and a room answers in order.
pub struct StoreDb {
    store: store::Store,
    committer: store::Committer,
    unreachable: Arc<AtomicBool>,
}

/// How often a probe tries to connect while the database is unreachable.
const PROBE_EVERY: Duration = Duration::from_millis(250);

impl StoreDb {
    /// Must be called inside a tokio runtime (the committer is a task).
    pub fn new(store: store::Store) -> StoreDb {
        let committer = store::Committer::spawn(store.clone());
        StoreDb {
            store,
            committer,
            unreachable: Arc::default(),
        }
    }

    /// Runs a store call unless the database is known to be unreachable; an
    /// `Unavailable` answer marks it so and starts a probe.
    fn guarded<'a, T: Send + 'a>(
        &'a self,
        call: impl Future<Output = Result<T, StoreError>> + Send + 'a,
    ) -> BoxFut<'a, Result<T, StoreError>> {
        Box::pin(async move {
            if self.unreachable.load(Ordering::SeqCst) {
                return Err(StoreError::Unavailable(
                    "the database is unreachable".into(),
                ));
            }
            let result = call.await;
            if matches!(result, Err(StoreError::Unavailable(_))) {
                self.probe_until_reachable();
            }
            result
        })
    }

    fn probe_until_reachable(&self) {
        if self.unreachable.swap(true, Ordering::SeqCst) {
            return; // a probe is running
        }
        tracing::warn!("the database is unavailable; calls fail at once until it answers");
        let (store, unreachable) = (self.store.clone(), self.unreachable.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PROBE_EVERY).await;
                if store.reachable().await {
                    unreachable.store(false, Ordering::SeqCst);
                    tracing::info!("the database answers again");
                    return;
                }
            }
        });
    }
}

impl Db for StoreDb {
    fn kind(&self) -> &'static str {
        self.store.kind()
    }
    fn committer_stats(&self) -> Option<store::CommitterStats> {
        Some(self.committer.stats())
    }
    fn ping(&self) -> BoxFut<'_, Result<(), StoreError>> {
        self.guarded(self.store.ping())
    }
    fn upsert_table<'a>(&'a self, t: &'a TableRow) -> BoxFut<'a, Result<(), StoreError>> {
        self.guarded(self.committer.write(store::Write::Table(t.clone())))
    }
    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, Result<(), StoreError>> {
        self.guarded(self.committer.write(store::Write::Game(g.clone())))
    }
    fn append(&self, row: MoveRow) -> BoxFut<'_, Result<(), StoreError>> {
        self.guarded(self.committer.append(row))
    }
    fn finish_game<'a>(
        &'a self,
        game_id: Uuid,
        outcome: &'a Value,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        self.guarded(self.committer.write(store::Write::Outcome {
            game_id,
            outcome: outcome.clone(),
        }))
    }
    fn load_unfinished(&self) -> BoxFut<'_, Result<Vec<Recovered>, StoreError>> {
        self.guarded(self.store.load_unfinished())
    }
    fn table_by_code<'a>(
        &'a self,
        code: &'a str,
    ) -> BoxFut<'a, Result<Option<TableRow>, StoreError>> {
        self.guarded(self.store.table_by_code(code))
    }
    fn latest_game(&self, table_id: Uuid) -> BoxFut<'_, Result<Option<GameWithMoves>, StoreError>> {
        self.guarded(self.store.latest_game(table_id))
    }
    fn delete_abandoned_tables(&self, before_ms: i64) -> BoxFut<'_, Result<u64, StoreError>> {
        self.guarded(self.store.delete_abandoned_tables(before_ms))
    }
}

#[derive(Default)]
struct Mem {
    tables: HashMap<Uuid, TableRow>,
    games: Vec<GameRow>,
    moves: HashMap<Uuid, Vec<MoveRow>>,
}

/// Everything in memory. `set_failing(true)` makes every call fail as if the
/// database were unreachable.
#[derive(Default)]
pub struct MemDb {
    mem: Mutex<Mem>,
    failing: AtomicBool,
}

impl MemDb {
    pub fn set_failing(&self, failing: bool) {
        self.failing.store(failing, Ordering::SeqCst);
    }

    fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Mem) -> Result<T, StoreError>,
    ) -> BoxFut<'static, Result<T, StoreError>> {
        let result = if self.failing.load(Ordering::SeqCst) {
            Err(StoreError::Unavailable("memory store set to fail".into()))
        } else {
            match self.mem.lock() {
                Ok(mut mem) => f(&mut mem),
                Err(_) => Err(StoreError::Unavailable("memory store poisoned".into())),
            }
        };
        Box::pin(std::future::ready(result))
    }
}

fn latest(mem: &Mem, table_id: Uuid) -> Option<GameWithMoves> {
    let game = mem
        .games
        .iter()
        .filter(|g| g.table_id == table_id)
        .max_by_key(|g| g.number)?
        .clone();
    let moves = mem.moves.get(&game.id).cloned().unwrap_or_default();
    Some((game, moves))
}

impl Db for MemDb {
    fn kind(&self) -> &'static str {
        "memory"
    }
    fn ping(&self) -> BoxFut<'_, Result<(), StoreError>> {
        self.with(|_| Ok(()))
    }
    fn upsert_table<'a>(&'a self, t: &'a TableRow) -> BoxFut<'a, Result<(), StoreError>> {
        let t = t.clone();
        self.with(move |m| {
            m.tables.insert(t.id, t);
            Ok(())
        })
    }
    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, Result<(), StoreError>> {
        let g = g.clone();
        self.with(move |m| {
            if m.games.iter().any(|x| x.id == g.id) {
                return Err(StoreError::Conflict("game exists".into()));
            }
            m.games.push(g);
            Ok(())
        })
    }
    fn append(&self, row: MoveRow) -> BoxFut<'_, Result<(), StoreError>> {
        self.with(move |m| {
            let log = m.moves.entry(row.game_id).or_default();
            if log.iter().any(|x| x.seq == row.seq) {
                return Err(StoreError::Conflict("move exists".into()));
            }
            log.push(row);
            Ok(())
        })
    }
    fn finish_game<'a>(
        &'a self,
        game_id: Uuid,
        outcome: &'a Value,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        let outcome = outcome.clone();
        self.with(move |m| {
            for g in m.games.iter_mut().filter(|g| g.id == game_id) {
                g.outcome = Some(outcome.clone());
            }
            Ok(())
        })
    }
    fn load_unfinished(&self) -> BoxFut<'_, Result<Vec<Recovered>, StoreError>> {
        self.with(|m| {
            Ok(m.tables
                .values()
                .filter(|t| t.status != TableStatus::Finished)
                .map(|t| {
                    let (game, moves) = match latest(m, t.id) {
                        Some((g, mv)) => (Some(g), mv),
                        None => (None, Vec::new()),
                    };
                    Recovered {
                        table: t.clone(),
                        game,
                        moves,
                    }
                })
                .collect())
        })
    }
    fn table_by_code<'a>(
        &'a self,
        code: &'a str,
    ) -> BoxFut<'a, Result<Option<TableRow>, StoreError>> {
        let code = code.to_owned();
        self.with(move |m| {
            Ok(m.tables
                .values()
                .find(|t| t.invite_code == code || t.spectator_code == code)
                .cloned())
        })
    }
    fn latest_game(&self, table_id: Uuid) -> BoxFut<'_, Result<Option<GameWithMoves>, StoreError>> {
        self.with(move |m| Ok(latest(m, table_id)))
    }
    fn delete_abandoned_tables(&self, before_ms: i64) -> BoxFut<'_, Result<u64, StoreError>> {
        self.with(move |m| {
            let played: std::collections::HashSet<Uuid> =
                m.games.iter().map(|g| g.table_id).collect();
            let before = m.tables.len();
            m.tables.retain(|id, t| {
                t.status != TableStatus::Lobby
                    || t.updated_at_ms >= before_ms
                    || played.contains(id)
            });
            Ok((before - m.tables.len()) as u64)
        })
    }
}
