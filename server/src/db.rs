//! The server's view of persistence.
//!
//! [`Db`] is the store contract (tables, games, the move log, group commit) as an
//! object-safe trait so rooms hold one `Arc<dyn Db>`: [`StoreDb`] is the real one
//! (the `store` crate: SQLite or Postgres), [`MemDb`] keeps everything in memory
//! and can be told to fail, which tests use to check that a failed commit applies
//! and acknowledges nothing.
//!
//! Leases and fences are for several nodes on one database (see the `store` crate's
//! `lease` module): each write of a table's game has a `_fenced` form taking the
//! writer's [`Fence`], refused with [`StoreError::Fenced`] once that epoch is no longer
//! the table's. The plain forms pass no fence and behave as with a single node.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use protocol::TableStatus;
use serde_json::Value;
use uuid::Uuid;

pub use store::{Fence, GameRow, Lease, MoveRow, Recovered, StoreError, TableRow};

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
    /// Stores the table; with a fence (of this table), only while it holds.
    fn upsert_table_fenced<'a>(
        &'a self,
        t: &'a TableRow,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>>;
    fn upsert_table<'a>(&'a self, t: &'a TableRow) -> BoxFut<'a, Result<(), StoreError>> {
        self.upsert_table_fenced(t, None)
    }
    /// Stores a new game; with a fence (of its table), only while it holds.
    fn insert_game_fenced<'a>(
        &'a self,
        g: &'a GameRow,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>>;
    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, Result<(), StoreError>> {
        self.insert_game_fenced(g, None)
    }
    /// Appends one move, resolving once it is durable; with a fence (of its game's
    /// table), only while it holds.
    fn append_fenced(
        &self,
        row: MoveRow,
        fence: Option<Fence>,
    ) -> BoxFut<'_, Result<(), StoreError>>;
    /// Appends one move; resolves once it is durable.
    fn append(&self, row: MoveRow) -> BoxFut<'_, Result<(), StoreError>> {
        self.append_fenced(row, None)
    }
    /// Records a game's outcome; with a fence (of its table), only while it holds.
    fn finish_game_fenced<'a>(
        &'a self,
        game_id: Uuid,
        outcome: &'a Value,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>>;
    fn finish_game<'a>(
        &'a self,
        game_id: Uuid,
        outcome: &'a Value,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        self.finish_game_fenced(game_id, outcome, None)
    }
    /// Takes the table's lease for `ttl`: its epoch, or `None` while another node holds
    /// it (see `store::Store::acquire_lease`).
    fn acquire_lease<'a>(
        &'a self,
        table_id: Uuid,
        node_id: &'a str,
        ttl: Duration,
    ) -> BoxFut<'a, Result<Option<i64>, StoreError>>;
    /// Extends each lease of `held` (table and epoch) still held; returns the tables whose
    /// lease was extended: the others are lost.
    fn renew_leases<'a>(
        &'a self,
        node_id: &'a str,
        held: Vec<(Uuid, i64)>,
        ttl: Duration,
    ) -> BoxFut<'a, Result<HashSet<Uuid>, StoreError>>;
    /// [`Db::renew_leases`] of one lease: `false` once it is lost.
    fn renew_lease<'a>(
        &'a self,
        table_id: Uuid,
        node_id: &'a str,
        epoch: i64,
        ttl: Duration,
    ) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let renewed = self.renew_leases(node_id, vec![(table_id, epoch)], ttl);
            Ok(renewed.await?.contains(&table_id))
        })
    }
    /// Gives up a lease held with `epoch`; `false` when it was not held.
    fn release_lease<'a>(
        &'a self,
        table_id: Uuid,
        node_id: &'a str,
        epoch: i64,
    ) -> BoxFut<'a, Result<bool, StoreError>>;
    /// The table's lease, held or not, if it ever had one.
    fn lease(&self, table_id: Uuid) -> BoxFut<'_, Result<Option<Lease>, StoreError>>;
    /// Up to `limit` lapsed or released leases of unfinished tables, longest lapsed first.
    fn expired_leases(&self, limit: u32) -> BoxFut<'_, Result<Vec<Lease>, StoreError>>;
    /// Takes up to `limit` of those for `node_id`, each under its next epoch.
    fn claim_expired_leases<'a>(
        &'a self,
        node_id: &'a str,
        ttl: Duration,
        limit: u32,
    ) -> BoxFut<'a, Result<Vec<Lease>, StoreError>>;
    fn load_unfinished(&self) -> BoxFut<'_, Result<Vec<Recovered>, StoreError>>;
    fn table_by_code<'a>(
        &'a self,
        code: &'a str,
    ) -> BoxFut<'a, Result<Option<TableRow>, StoreError>>;
    fn table_by_id(&self, id: Uuid) -> BoxFut<'_, Result<Option<TableRow>, StoreError>>;
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
    fn upsert_table_fenced<'a>(
        &'a self,
        t: &'a TableRow,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        self.guarded(
            self.committer
                .write_fenced(store::Write::Table(t.clone()), fence),
        )
    }
    fn insert_game_fenced<'a>(
        &'a self,
        g: &'a GameRow,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        self.guarded(
            self.committer
                .write_fenced(store::Write::Game(g.clone()), fence),
        )
    }
    fn append_fenced(
        &self,
        row: MoveRow,
        fence: Option<Fence>,
    ) -> BoxFut<'_, Result<(), StoreError>> {
        self.guarded(self.committer.write_fenced(store::Write::Move(row), fence))
    }
    fn finish_game_fenced<'a>(
        &'a self,
        game_id: Uuid,
        outcome: &'a Value,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        self.guarded(self.committer.write_fenced(
            store::Write::Outcome {
                game_id,
                outcome: outcome.clone(),
            },
            fence,
        ))
    }
    fn acquire_lease<'a>(
        &'a self,
        table_id: Uuid,
        node_id: &'a str,
        ttl: Duration,
    ) -> BoxFut<'a, Result<Option<i64>, StoreError>> {
        self.guarded(self.store.acquire_lease(table_id, node_id, ttl))
    }
    fn renew_leases<'a>(
        &'a self,
        node_id: &'a str,
        held: Vec<(Uuid, i64)>,
        ttl: Duration,
    ) -> BoxFut<'a, Result<HashSet<Uuid>, StoreError>> {
        Box::pin(async move {
            self.guarded(self.store.renew_leases(node_id, &held, ttl))
                .await
        })
    }
    fn release_lease<'a>(
        &'a self,
        table_id: Uuid,
        node_id: &'a str,
        epoch: i64,
    ) -> BoxFut<'a, Result<bool, StoreError>> {
        self.guarded(self.store.release_lease(table_id, node_id, epoch))
    }
    fn lease(&self, table_id: Uuid) -> BoxFut<'_, Result<Option<Lease>, StoreError>> {
        self.guarded(self.store.lease(table_id))
    }
    fn expired_leases(&self, limit: u32) -> BoxFut<'_, Result<Vec<Lease>, StoreError>> {
        self.guarded(self.store.expired_leases(limit))
    }
    fn claim_expired_leases<'a>(
        &'a self,
        node_id: &'a str,
        ttl: Duration,
        limit: u32,
    ) -> BoxFut<'a, Result<Vec<Lease>, StoreError>> {
        self.guarded(self.store.claim_expired_leases(node_id, ttl, limit))
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
    fn table_by_id(&self, id: Uuid) -> BoxFut<'_, Result<Option<TableRow>, StoreError>> {
        self.guarded(self.store.table_by_id(id))
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
    leases: HashMap<Uuid, Lease>,
}

impl Mem {
    /// Refuses a write whose fence is not its table's current lease epoch, as the
    /// store does inside the write's transaction.
    fn check(&self, fence: Option<Fence>) -> Result<(), StoreError> {
        match fence {
            Some(f) if self.leases.get(&f.table_id).map(|l| l.epoch) != Some(f.epoch) => {
                Err(StoreError::Fenced {
                    table_id: f.table_id,
                    epoch: f.epoch,
                })
            }
            _ => Ok(()),
        }
    }

    /// Lapsed or released leases of unfinished tables, longest lapsed first.
    fn expired(&self, now: i64, limit: u32) -> Vec<Lease> {
        let mut found: Vec<Lease> = self
            .leases
            .values()
            .filter(|l| l.expires_at_ms <= now)
            .filter(|l| {
                self.tables
                    .get(&l.table_id)
                    .is_some_and(|t| t.status != TableStatus::Finished)
            })
            .cloned()
            .collect();
        found.sort_by_key(|l| (l.expires_at_ms, l.table_id));
        found.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        found
    }
}

fn ttl_ms(ttl: Duration) -> i64 {
    i64::try_from(ttl.min(store::MAX_LEASE_TTL).as_millis()).unwrap_or(i64::MAX)
}

/// Everything in memory. `set_failing(true)` makes every call fail as if the
/// database were unreachable. Leases run on the system clock moved by
/// [`MemDb::advance_clock`], so tests can let them lapse without waiting.
#[derive(Default)]
pub struct MemDb {
    mem: Mutex<Mem>,
    failing: AtomicBool,
    clock_offset_ms: AtomicI64,
}

impl MemDb {
    pub fn set_failing(&self, failing: bool) {
        self.failing.store(failing, Ordering::SeqCst);
    }

    /// Moves the lease clock forward.
    pub fn advance_clock(&self, by: Duration) {
        self.clock_offset_ms.fetch_add(ttl_ms(by), Ordering::SeqCst);
    }

    fn now_ms(&self) -> i64 {
        let system = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        system.saturating_add(self.clock_offset_ms.load(Ordering::SeqCst))
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
    fn upsert_table_fenced<'a>(
        &'a self,
        t: &'a TableRow,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        let t = t.clone();
        self.with(move |m| {
            m.check(fence)?;
            m.tables.insert(t.id, t);
            Ok(())
        })
    }
    fn insert_game_fenced<'a>(
        &'a self,
        g: &'a GameRow,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        let g = g.clone();
        self.with(move |m| {
            m.check(fence)?;
            if m.games.iter().any(|x| x.id == g.id) {
                return Err(StoreError::Conflict("game exists".into()));
            }
            m.games.push(g);
            Ok(())
        })
    }
    fn append_fenced(
        &self,
        row: MoveRow,
        fence: Option<Fence>,
    ) -> BoxFut<'_, Result<(), StoreError>> {
        self.with(move |m| {
            m.check(fence)?;
            let log = m.moves.entry(row.game_id).or_default();
            if log.iter().any(|x| x.seq == row.seq) {
                return Err(StoreError::Conflict("move exists".into()));
            }
            log.push(row);
            Ok(())
        })
    }
    fn finish_game_fenced<'a>(
        &'a self,
        game_id: Uuid,
        outcome: &'a Value,
        fence: Option<Fence>,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        let outcome = outcome.clone();
        self.with(move |m| {
            m.check(fence)?;
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
    fn table_by_id(&self, id: Uuid) -> BoxFut<'_, Result<Option<TableRow>, StoreError>> {
        self.with(move |m| Ok(m.tables.get(&id).cloned()))
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
            let tables = &m.tables;
            m.leases.retain(|id, _| tables.contains_key(id));
            Ok((before - m.tables.len()) as u64)
        })
    }
    fn acquire_lease<'a>(
        &'a self,
        table_id: Uuid,
        node_id: &'a str,
        ttl: Duration,
    ) -> BoxFut<'a, Result<Option<i64>, StoreError>> {
        let (now, node_id) = (self.now_ms(), node_id.to_owned());
        self.with(move |m| {
            if !m.tables.contains_key(&table_id) || node_id.is_empty() {
                return Err(StoreError::Conflict(
                    "acquire lease: no such table, or no node id".into(),
                ));
            }
            let expires_at_ms = now.saturating_add(ttl_ms(ttl));
            let epoch = match m.leases.get(&table_id) {
                None => 1,
                Some(l) if l.expires_at_ms <= now => l.epoch + 1,
                Some(l) if l.node_id == node_id => l.epoch,
                Some(_) => return Ok(None),
            };
            m.leases.insert(
                table_id,
                Lease {
                    table_id,
                    node_id,
                    epoch,
                    expires_at_ms,
                },
            );
            Ok(Some(epoch))
        })
    }
    fn renew_leases<'a>(
        &'a self,
        node_id: &'a str,
        held: Vec<(Uuid, i64)>,
        ttl: Duration,
    ) -> BoxFut<'a, Result<HashSet<Uuid>, StoreError>> {
        let (now, node_id) = (self.now_ms(), node_id.to_owned());
        self.with(move |m| {
            let mut renewed = HashSet::new();
            for (table_id, epoch) in held {
                match m.leases.get_mut(&table_id) {
                    Some(l)
                        if l.node_id == node_id && l.epoch == epoch && l.expires_at_ms > now =>
                    {
                        l.expires_at_ms = now.saturating_add(ttl_ms(ttl));
                        renewed.insert(table_id);
                    }
                    _ => {}
                }
            }
            Ok(renewed)
        })
    }
    fn release_lease<'a>(
        &'a self,
        table_id: Uuid,
        node_id: &'a str,
        epoch: i64,
    ) -> BoxFut<'a, Result<bool, StoreError>> {
        let (now, node_id) = (self.now_ms(), node_id.to_owned());
        self.with(move |m| {
            Ok(match m.leases.get_mut(&table_id) {
                Some(l) if l.node_id == node_id && l.epoch == epoch && l.expires_at_ms > now => {
                    l.expires_at_ms = now;
                    true
                }
                _ => false,
            })
        })
    }
    fn lease(&self, table_id: Uuid) -> BoxFut<'_, Result<Option<Lease>, StoreError>> {
        self.with(move |m| Ok(m.leases.get(&table_id).cloned()))
    }
    fn expired_leases(&self, limit: u32) -> BoxFut<'_, Result<Vec<Lease>, StoreError>> {
        let now = self.now_ms();
        self.with(move |m| Ok(m.expired(now, limit)))
    }
    fn claim_expired_leases<'a>(
        &'a self,
        node_id: &'a str,
        ttl: Duration,
        limit: u32,
    ) -> BoxFut<'a, Result<Vec<Lease>, StoreError>> {
        let (now, node_id) = (self.now_ms(), node_id.to_owned());
        self.with(move |m| {
            let found = m.expired(now, limit);
            if node_id.is_empty() && !found.is_empty() {
                return Err(StoreError::Conflict(
                    "claim expired leases: no node id".into(),
                ));
            }
            let mut claimed = Vec::new();
            for old in found {
                let lease = Lease {
                    table_id: old.table_id,
                    node_id: node_id.clone(),
                    epoch: old.epoch + 1,
                    expires_at_ms: now.saturating_add(ttl_ms(ttl)),
                };
                m.leases.insert(lease.table_id, lease.clone());
                claimed.push(lease);
            }
            claimed.sort_by_key(|l| l.table_id);
            Ok(claimed)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const HELD: Duration = Duration::from_secs(60);

    fn table() -> TableRow {
        let id = Uuid::new_v4();
        TableRow {
            id,
            game: "tic-tac-toe".into(),
            invite_code: format!("i-{id}"),
            spectator_code: format!("s-{id}"),
            status: TableStatus::Playing,
            public: false,
            doc: json!({}),
            updated_at_ms: 0,
        }
    }

    fn mv(game_id: Uuid, seq: i64) -> MoveRow {
        MoveRow {
            game_id,
            seq,
            entry: protocol::RawJson::of(&json!({"seq": seq})).expect("JSON"),
            at_ms: 0,
        }
    }

    async fn moves(db: &dyn Db, table_id: Uuid) -> Vec<i64> {
        db.latest_game(table_id)
            .await
            .expect("latest")
            .map(|(_, m)| m.iter().map(|m| m.seq).collect())
            .unwrap_or_default()
    }

    /// The same lease and fencing behaviour from the in-memory double as from the store.
    async fn leases_and_fences(db: &dyn Db) {
        let t = table();
        db.upsert_table(&t).await.expect("table");
        let g = GameRow {
            id: Uuid::new_v4(),
            table_id: t.id,
            number: 1,
            setup: json!({}),
            started_at_ms: 0,
            outcome: None,
        };
        db.insert_game(&g).await.expect("game");
        assert!(
            db.acquire_lease(Uuid::new_v4(), "a", HELD)
                .await
                .is_err_and(|e| e.is_conflict())
        );

        assert_eq!(db.acquire_lease(t.id, "a", HELD).await, Ok(Some(1)));
        assert_eq!(db.acquire_lease(t.id, "b", HELD).await, Ok(None));
        assert_eq!(db.acquire_lease(t.id, "a", HELD).await, Ok(Some(1)));
        assert_eq!(db.renew_lease(t.id, "a", 1, HELD).await, Ok(true));
        assert_eq!(db.renew_lease(t.id, "b", 1, HELD).await, Ok(false));
        let a = Fence {
            table_id: t.id,
            epoch: 1,
        };
        db.append_fenced(mv(g.id, 0), Some(a))
            .await
            .expect("a's move");
        assert_eq!(db.expired_leases(10).await, Ok(vec![]));

        // a lets go, b takes the table: a's writes are refused, b's and unfenced ones stored.
        assert_eq!(db.release_lease(t.id, "a", 1).await, Ok(true));
        assert_eq!(db.release_lease(t.id, "a", 1).await, Ok(false));
        let expired = db.expired_leases(10).await.expect("expired");
        assert_eq!(
            expired
                .iter()
                .map(|l| (l.table_id, l.epoch))
                .collect::<Vec<_>>(),
            vec![(t.id, 1)]
        );
        let claimed = db.claim_expired_leases("b", HELD, 10).await.expect("claim");
        assert_eq!(
            claimed
                .iter()
                .map(|l| (l.table_id, l.node_id.as_str(), l.epoch))
                .collect::<Vec<_>>(),
            vec![(t.id, "b", 2)]
        );
        assert_eq!(db.lease(t.id).await, Ok(claimed.first().cloned()));
        let fenced = Err(StoreError::Fenced {
            table_id: t.id,
            epoch: 1,
        });
        assert_eq!(db.append_fenced(mv(g.id, 1), Some(a)).await, fenced);
        assert_eq!(db.upsert_table_fenced(&t, Some(a)).await, fenced);
        let mut next = g.clone();
        next.id = Uuid::new_v4();
        next.number = 2;
        assert_eq!(db.insert_game_fenced(&next, Some(a)).await, fenced);
        assert_eq!(
            db.finish_game_fenced(g.id, &json!({}), Some(a)).await,
            fenced
        );
        assert_eq!(moves(db, t.id).await, vec![0]);
        let b = Fence {
            table_id: t.id,
            epoch: 2,
        };
        db.append_fenced(mv(g.id, 1), Some(b))
            .await
            .expect("b's move");
        db.append(mv(g.id, 2)).await.expect("unfenced move");
        assert_eq!(moves(db, t.id).await, vec![0, 1, 2]);

        // A lapsed lease goes to the next taker under the next epoch.
        assert_eq!(
            db.acquire_lease(t.id, "b", Duration::ZERO).await,
            Ok(Some(2))
        );
        assert_eq!(db.renew_lease(t.id, "b", 2, HELD).await, Ok(false));
        assert_eq!(db.acquire_lease(t.id, "c", HELD).await, Ok(Some(3)));
        assert!(
            db.append_fenced(mv(g.id, 3), Some(b))
                .await
                .is_err_and(|e| e.is_fenced())
        );
        assert_eq!(moves(db, t.id).await, vec![0, 1, 2]);
    }

    #[tokio::test]
    async fn memory_leases_and_fences() {
        leases_and_fences(&MemDb::default()).await;
    }

    #[tokio::test]
    async fn store_leases_and_fences() {
        let dir = std::env::temp_dir().join(format!("citytable-db-lease-{}", Uuid::new_v4()));
        let store = store::Store::open(None, &dir).await.expect("open");
        leases_and_fences(&StoreDb::new(store.clone())).await;
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test]
    async fn memory_leases_lapse_when_the_clock_moves_on() {
        let db = MemDb::default();
        let t = table();
        db.upsert_table(&t).await.expect("table");
        assert_eq!(db.acquire_lease(t.id, "a", HELD).await, Ok(Some(1)));
        db.advance_clock(HELD / 2);
        assert_eq!(db.acquire_lease(t.id, "b", HELD).await, Ok(None));
        assert_eq!(db.renew_lease(t.id, "a", 1, HELD).await, Ok(true));
        db.advance_clock(HELD / 2 + Duration::from_secs(1));
        assert_eq!(db.acquire_lease(t.id, "b", HELD).await, Ok(None));
        db.advance_clock(HELD / 2);
        assert_eq!(db.renew_lease(t.id, "a", 1, HELD).await, Ok(false));
        assert_eq!(db.acquire_lease(t.id, "b", HELD).await, Ok(Some(2)));
    }
}
