//! Table ownership leases and fencing, for several nodes sharing one database.
//!
//! A node runs a table's room only while it holds the table's lease: a `table_lease` row
//! naming the node, an epoch and an expiry. The epoch grows by one whenever the lease changes
//! hands or is taken again after it lapsed, and a released lease keeps its row, so each epoch
//! belongs to exactly one holding. Writes of a table's game can carry the writer's [`Fence`]
//! (table and epoch); [`Store::commit_fenced`] checks it in the same transaction as the
//! writes, under a lock on the lease row, and refuses the whole transaction with
//! [`StoreError::Fenced`] when the epoch is no longer the table's. A node that paused past its
//! expiry (or lost the database for a while) therefore cannot write behind the new owner's
//! back, whatever its clock says.
//!
//! # Time
//! Expiry is decided by the database's clock, read inside each statement, never by the
//! caller's: nodes' clocks differ, and two nodes comparing one expiry against two clocks could
//! both believe they hold the lease. With one clock, "expired" means the same to every node.
//! A holder measures its own deadline on its monotonic clock from the moment it *sent* the
//! acquire or renew (the database started the lease later than that, so the holder gives up
//! first), and fencing covers whatever it still writes after that. In SQLite (one node) the
//! database clock is the machine's.
//!
//! # Node ids
//! Any non-empty text. Use one per process start (say, a fresh UUID): a lease still held by
//! the same node id is simply extended with its epoch unchanged, which is only right if that
//! id cannot belong to a previous run of the process.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use sqlx::Row;
use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;
use uuid::Uuid;

use crate::error::db_error;
use crate::{Db, Store, StoreError};

/// The longest lease: longer TTLs are cut to this (and a lease that long is a mistake: a dead
/// node's tables wait that long for a new owner).
pub const MAX_LEASE_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// A table's lease as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub table_id: Uuid,
    /// The node holding it, or the last one that did once it expired or was released.
    pub node_id: String,
    /// 1 for the first holding, then one more per change of hands.
    pub epoch: i64,
    /// On the database's clock, in milliseconds since the Unix epoch; a lease is free from
    /// this moment on. For display and ordering only: never compare it with a local clock.
    pub expires_at_ms: i64,
}

/// What a fenced write carries: the table it writes and the lease epoch its writer holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fence {
    pub table_id: Uuid,
    pub epoch: i64,
}

/// The database's clock in milliseconds since the Unix epoch, the same value wherever it
/// appears in one statement: Postgres `statement_timestamp()` (the statement's start, so a
/// statement that waited on a lock sees an earlier time: leases it grants end sooner and
/// leases it finds still held are those that were held when it began); SQLite `'now'`, fixed
/// for one statement step.
macro_rules! now_ms {
    (postgres) => {
        "(extract(epoch from statement_timestamp()) * 1000)::bigint"
    };
    (sqlite) => {
        "(cast(strftime('%s', 'now') as integer) * 1000 \
         + cast(substr(strftime('%f', 'now'), 4) as integer))"
    };
}

/// Free (no row, expired or released) or already ours: take it. The epoch stays only when the
/// same node extends a lease it still holds; a takeover, or taking it again after it lapsed,
/// counts one more. Held by another node: no row comes back. On Postgres a racing acquire
/// waits for the first one's row lock and then sees its lease as held.
macro_rules! acquire_sql {
    ($db:ident) => {
        concat!(
            "insert into table_lease (table_id, node_id, epoch, expires_at_ms) \
             values ($1, $2, 1, ",
            now_ms!($db),
            " + $3) on conflict (table_id) do update set \
             epoch = case when table_lease.node_id = excluded.node_id \
             and table_lease.expires_at_ms > ",
            now_ms!($db),
            " then table_lease.epoch else table_lease.epoch + 1 end, \
             node_id = excluded.node_id, expires_at_ms = excluded.expires_at_ms \
             where table_lease.node_id = excluded.node_id or table_lease.expires_at_ms <= ",
            now_ms!($db),
            " returning epoch"
        )
    };
}

/// Only the holder, with its epoch, before expiry: a lapsed lease may already be another
/// node's, and taking it again is an acquire (a new epoch).
macro_rules! renew_sql {
    ($db:ident) => {
        concat!(
            "update table_lease set expires_at_ms = ",
            now_ms!($db),
            " + $4 where table_id = $1 and node_id = $2 and epoch = $3 and expires_at_ms > ",
            now_ms!($db)
        )
    };
}

/// A node's renewals of one round in one statement (Postgres): each lease as [`renew_sql`]
/// would renew it, locked in table order first, as the fence of a commit locks them, so a
/// round and a commit that share tables never wait on each other in a circle.
const RENEW_MANY_POSTGRES: &str = concat!(
    "with held as (select l.table_id from table_lease l \
     join unnest($1::uuid[], $2::int8[]) as h(table_id, epoch) \
     on h.table_id = l.table_id and h.epoch = l.epoch \
     where l.node_id = $3 and l.expires_at_ms > ",
    now_ms!(postgres),
    " order by l.table_id for update of l) \
     update table_lease set expires_at_ms = ",
    now_ms!(postgres),
    " + $4 where table_id in (select table_id from held) returning table_id"
);

/// How many leases one renewal statement carries.
const RENEW_BATCH: usize = 1000;

/// Expires the lease now; the row stays so the next holder's epoch is higher.
macro_rules! release_sql {
    ($db:ident) => {
        concat!(
            "update table_lease set expires_at_ms = ",
            now_ms!($db),
            " where table_id = $1 and node_id = $2 and epoch = $3 and expires_at_ms > ",
            now_ms!($db)
        )
    };
}

/// Lapsed or released leases of tables in play, the longest lapsed first. A lobby runs
/// nothing by itself (no timer, no bot): it is opened again when someone asks for it, so
/// an idle lobby is not taken over only to be unloaded again.
macro_rules! expired_sql {
    ($db:ident) => {
        concat!(
            "select l.table_id, l.node_id, l.epoch, l.expires_at_ms from table_lease l \
             join game_table t on t.id = l.table_id \
             where l.expires_at_ms <= ",
            now_ms!($db),
            " and t.status = 'playing' \
             order by l.expires_at_ms, l.table_id limit $1"
        )
    };
}

const LEASE: &str =
    "select table_id, node_id, epoch, expires_at_ms from table_lease where table_id = $1";

/// Claims up to `$3` leases found as in `expired_sql`. Rows locked right now (a commit
/// checking its fence, a racing acquire or claim) are skipped rather than waited for, so
/// concurrent claims share the work instead of queueing, and a claim never waits on (or
/// deadlocks with) the commits of a node still writing.
const CLAIM_POSTGRES: &str = concat!(
    "with taken as (select l.table_id from table_lease l \
     join game_table t on t.id = l.table_id \
     where l.expires_at_ms <= ",
    now_ms!(postgres),
    " and t.status = 'playing' \
     order by l.expires_at_ms, l.table_id limit $3 for update of l skip locked) \
     update table_lease l set node_id = $1, epoch = l.epoch + 1, expires_at_ms = ",
    now_ms!(postgres),
    " + $2 from taken where l.table_id = taken.table_id \
     returning l.table_id, l.node_id, l.epoch, l.expires_at_ms"
);

/// SQLite has one writer at a time: the statement sees no concurrent claim.
const CLAIM_SQLITE: &str = concat!(
    "update table_lease set node_id = $1, epoch = epoch + 1, expires_at_ms = ",
    now_ms!(sqlite),
    " + $2 where table_id in (select l.table_id from table_lease l \
     join game_table t on t.id = l.table_id where l.expires_at_ms <= ",
    now_ms!(sqlite),
    " and t.status = 'playing' \
     order by l.expires_at_ms, l.table_id limit $3) \
     returning table_id, node_id, epoch, expires_at_ms"
);

/// The fence check of a Postgres transaction. `for share` holds off any change of the lease
/// (a takeover, a renewal) until the transaction ends, so a takeover that commits later also
/// sees these writes when it reloads the log; share locks of concurrent commits do not block
/// one another.
const FENCE_POSTGRES: &str = "select table_id, epoch from table_lease \
     where table_id = any($1) order by table_id for share";

/// On SQLite the transaction runs on the single write connection, which every lease change
/// also needs: nothing can change the lease between this read and the commit.
const FENCE_SQLITE: &str = "select epoch from table_lease where table_id = $1";

fn ttl_ms(ttl: Duration) -> i64 {
    i64::try_from(ttl.min(MAX_LEASE_TTL).as_millis()).unwrap_or(i64::MAX)
}

macro_rules! lease_from_row {
    ($row:expr, $what:expr) => {
        Lease {
            table_id: crate::col!($row, "table_id", $what),
            node_id: crate::col!($row, "node_id", $what),
            epoch: crate::col!($row, "epoch", $what),
            expires_at_ms: crate::col!($row, "expires_at_ms", $what),
        }
    };
}

/// The first fence whose epoch is not the table's current one (or whose table has no lease).
fn first_stale(fences: &[Fence], current: &HashMap<Uuid, i64>) -> Result<(), StoreError> {
    match fences
        .iter()
        .find(|f| current.get(&f.table_id) != Some(&f.epoch))
    {
        Some(f) => Err(StoreError::Fenced {
            table_id: f.table_id,
            epoch: f.epoch,
        }),
        None => Ok(()),
    }
}

/// Checks `fences` inside a Postgres transaction (see [`FENCE_POSTGRES`]).
pub(crate) async fn check_fences_postgres(
    conn: &mut PgConnection,
    fences: &[Fence],
) -> Result<(), StoreError> {
    const WHAT: &str = "check lease";
    if fences.is_empty() {
        return Ok(());
    }
    let ids: Vec<Uuid> = fences.iter().map(|f| f.table_id).collect();
    let mut current = HashMap::new();
    for row in sqlx::query(FENCE_POSTGRES)
        .bind(ids)
        .fetch_all(conn)
        .await
        .map_err(|e| db_error(WHAT, e))?
    {
        let id: Uuid = crate::col!(row, "table_id", WHAT);
        let epoch: i64 = crate::col!(row, "epoch", WHAT);
        current.insert(id, epoch);
    }
    first_stale(fences, &current)
}

/// Checks `fences` inside an SQLite transaction (see [`FENCE_SQLITE`]).
pub(crate) async fn check_fences_sqlite(
    conn: &mut SqliteConnection,
    fences: &[Fence],
) -> Result<(), StoreError> {
    const WHAT: &str = "check lease";
    let mut current = HashMap::new();
    let mut seen = HashSet::new();
    for f in fences {
        if !seen.insert(f.table_id) {
            continue;
        }
        let epoch: Option<i64> = sqlx::query_scalar(FENCE_SQLITE)
            .bind(f.table_id)
            .fetch_optional(&mut *conn)
            .await
            .map_err(|e| db_error(WHAT, e))?;
        if let Some(epoch) = epoch {
            current.insert(f.table_id, epoch);
        }
    }
    first_stale(fences, &current)
}

impl Store {
    /// The statement written for this store's database.
    fn by_backend(&self, sqlite: &'static str, postgres: &'static str) -> &'static str {
        match self.db {
            Db::Sqlite { .. } => sqlite,
            Db::Postgres(_) => postgres,
        }
    }

    /// Takes the table's lease for `node_id` for `ttl` (at most [`MAX_LEASE_TTL`]) and returns
    /// its epoch, or `None` while another node holds it. Succeeds when the lease is free (never
    /// taken, expired or released) or already held by `node_id`: extending our own live lease
    /// keeps its epoch; taking it from another node or after it lapsed increments it. Of two
    /// nodes racing for one free lease exactly one gets it.
    ///
    /// Errors: [`StoreError::Conflict`] when the table does not exist or `node_id` is empty.
    pub async fn acquire_lease(
        &self,
        table_id: Uuid,
        node_id: &str,
        ttl: Duration,
    ) -> Result<Option<i64>, StoreError> {
        const WHAT: &str = "acquire lease";
        let ttl = ttl_ms(ttl);
        let sql = self.by_backend(acquire_sql!(sqlite), acquire_sql!(postgres));
        let epoch = crate::on_pool!(self, write, pool => sqlx::query_scalar(sql)
            .bind(table_id)
            .bind(node_id)
            .bind(ttl)
            .fetch_optional(pool)
            .await
            .map_err(|e| db_error(WHAT, e))?);
        Ok(epoch)
    }

    /// Extends the lease by `ttl` from now, if `node_id` still holds it with `epoch` and it has
    /// not expired. `false`: the lease is lost (expired, released or taken over); stop writing
    /// and drop the table, or [`Store::acquire_lease`] it again under a new epoch.
    pub async fn renew_lease(
        &self,
        table_id: Uuid,
        node_id: &str,
        epoch: i64,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        const WHAT: &str = "renew lease";
        let ttl = ttl_ms(ttl);
        let sql = self.by_backend(renew_sql!(sqlite), renew_sql!(postgres));
        let updated = crate::on_pool!(self, write, pool => sqlx::query(sql)
            .bind(table_id)
            .bind(node_id)
            .bind(epoch)
            .bind(ttl)
            .execute(pool)
            .await
            .map_err(|e| db_error(WHAT, e))?
            .rows_affected());
        Ok(updated == 1)
    }

    /// [`Store::renew_lease`] for each of `held` (table and epoch), in one statement per
    /// thousand leases on Postgres: returns the tables whose lease was renewed; the others
    /// are lost.
    pub async fn renew_leases(
        &self,
        node_id: &str,
        held: &[(Uuid, i64)],
        ttl: Duration,
    ) -> Result<HashSet<Uuid>, StoreError> {
        const WHAT: &str = "renew leases";
        let mut renewed = HashSet::with_capacity(held.len());
        match &self.db {
            crate::Db::Postgres(pool) => {
                for batch in held.chunks(RENEW_BATCH) {
                    let (tables, epochs): (Vec<Uuid>, Vec<i64>) = batch.iter().copied().unzip();
                    let rows = sqlx::query(RENEW_MANY_POSTGRES)
                        .bind(tables)
                        .bind(epochs)
                        .bind(node_id)
                        .bind(ttl_ms(ttl))
                        .fetch_all(pool)
                        .await
                        .map_err(|e| db_error(WHAT, e))?;
                    for row in rows {
                        renewed.insert(row.try_get("table_id").map_err(|e| db_error(WHAT, e))?);
                    }
                }
            }
            // One node, one write connection: a statement each costs no more.
            crate::Db::Sqlite { .. } => {
                for &(table_id, epoch) in held {
                    if self.renew_lease(table_id, node_id, epoch, ttl).await? {
                        renewed.insert(table_id);
                    }
                }
            }
        }
        Ok(renewed)
    }

    /// Gives the lease up now so another node can take it at once, if `node_id` holds it with
    /// `epoch`; `false` when it did not (any more). The epoch stays the table's until someone
    /// acquires it, so stop writing first.
    pub async fn release_lease(
        &self,
        table_id: Uuid,
        node_id: &str,
        epoch: i64,
    ) -> Result<bool, StoreError> {
        const WHAT: &str = "release lease";
        let sql = self.by_backend(release_sql!(sqlite), release_sql!(postgres));
        let updated = crate::on_pool!(self, write, pool => sqlx::query(sql)
            .bind(table_id)
            .bind(node_id)
            .bind(epoch)
            .execute(pool)
            .await
            .map_err(|e| db_error(WHAT, e))?
            .rows_affected());
        Ok(updated == 1)
    }

    /// The table's lease (held or not), if it ever had one.
    pub async fn lease(&self, table_id: Uuid) -> Result<Option<Lease>, StoreError> {
        const WHAT: &str = "read lease";
        let lease = crate::on_pool!(self, write, pool => {
            match sqlx::query(LEASE)
                .bind(table_id)
                .fetch_optional(pool)
                .await
                .map_err(|e| db_error(WHAT, e))?
            {
                Some(row) => Some(lease_from_row!(row, WHAT)),
                None => None,
            }
        });
        Ok(lease)
    }

    /// Up to `limit` leases that expired or were released, of tables in play, the longest
    /// lapsed first: tables whose owner is gone. Tables that never had a
    /// lease are not listed.
    pub async fn expired_leases(&self, limit: u32) -> Result<Vec<Lease>, StoreError> {
        const WHAT: &str = "list expired leases";
        let mut leases = Vec::new();
        let sql = self.by_backend(expired_sql!(sqlite), expired_sql!(postgres));
        crate::on_pool!(self, write, pool => {
            for row in sqlx::query(sql)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await
                .map_err(|e| db_error(WHAT, e))?
            {
                leases.push(lease_from_row!(row, WHAT));
            }
        });
        Ok(leases)
    }

    /// Takes up to `limit` of the leases [`Store::expired_leases`] would list for `node_id`
    /// (each under its next epoch, for `ttl`) and returns them as now held, by table id. Nodes
    /// claiming at once get disjoint sets; a lease locked at that moment (its old holder is
    /// committing) is left for a later claim.
    ///
    /// Errors: [`StoreError::Conflict`] when `node_id` is empty.
    pub async fn claim_expired_leases(
        &self,
        node_id: &str,
        ttl: Duration,
        limit: u32,
    ) -> Result<Vec<Lease>, StoreError> {
        const WHAT: &str = "claim expired leases";
        let ttl = ttl_ms(ttl);
        let mut leases = Vec::new();
        crate::on_pool!(self, write, pool => {
            let sql = self.by_backend(CLAIM_SQLITE, CLAIM_POSTGRES);
            for row in sqlx::query(sql)
                .bind(node_id)
                .bind(ttl)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await
                .map_err(|e| db_error(WHAT, e))?
            {
                leases.push(lease_from_row!(row, WHAT));
            }
        });
        leases.sort_by_key(|l| l.table_id);
        Ok(leases)
    }
}
