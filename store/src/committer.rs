//! Group commit: the writes of many rooms (moves, and the table and game rows a game's start
//! and end change) stored in one transaction, each caller resumed only once its write is
//! durable.
//!
//! Rooms send writes into a bounded queue. One background task takes everything queued (up to
//! [`MAX_BATCH`] writes), stores it with one [`Store::commit`] call (one transaction, one
//! flush) and then answers every caller. Up to [`IN_FLIGHT`] such transactions run at once:
//! with one, a write that arrived just after a commit began waited for that whole commit (its
//! disk flush included) before its own could start. While every slot is busy, new rows wait in
//! the queue and form the next batch, so the batch size follows the load by itself: one row
//! when the server is quiet, hundreds under load.
//!
//! Transactions in flight together never hold two writes of one room: a room waits for each
//! write's answer before it sends the next, so the order of a game's moves is the order of
//! their transactions.
//!
//! A failed transaction acknowledges nothing. When it failed on a conflict (a row's
//! `(game_id, seq)` already stored, a code taken), its halves are retried separately,
//! recursively, so that only the offending caller (and the later moves of the same game, which
//! would leave a gap) gets the error; any other failure (database unreachable) fails every
//! caller of the batch.
//!
//! Fenced writes (see the `lease` module): a batch carries the fences of its writes and is
//! stored only if all of them hold. When one does not, the store names it, having written
//! nothing (the check comes first in the transaction, so the failed attempt costs a round
//! trip, not a flush); every write under that fence is refused with [`StoreError::Fenced`]
//! and the rest of the batch is tried again whole. A stale fence costs its batch one extra
//! transaction rather than a split: it names its table, so there is nothing to search for,
//! and the other rooms' writes keep sharing one flush.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc, oneshot};
use uuid::Uuid;

use crate::{Fence, MoveRow, Store, StoreError, Write};

/// Most rows committed in one transaction.
pub const MAX_BATCH: usize = 1024;
/// Rows that may wait in the queue; when it is full, `append` waits (backpressure).
const QUEUE: usize = 4 * MAX_BATCH;
/// Transactions in flight at once. Postgres flushes the commit records of concurrent
/// transactions together; SQLite has one writer, so there they simply queue for it.
pub const IN_FLIGHT: usize = 4;

struct Request {
    write: Write,
    /// Checked in the transaction that stores `write`.
    fence: Option<Fence>,
    done: oneshot::Sender<Result<(), StoreError>>,
    queued_at: Instant,
}

/// Handle to the group-commit task. Cheap to clone; the task stops once every clone is dropped
/// (after committing what is queued).
#[derive(Clone, Debug)]
pub struct Committer {
    tx: mpsc::Sender<Request>,
    counters: Arc<Counters>,
}

/// Totals since the committer started (for metrics). `rows / commits` is the mean batch size.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CommitterStats {
    /// Transactions committed.
    pub commits: u64,
    /// Writes acknowledged as stored.
    pub rows: u64,
    /// Writes answered with an error (not stored).
    pub failed: u64,
    /// Microseconds writes spent queued before their transaction began, summed over writes
    /// (`queued_micros / (rows + failed)` is the mean wait for a free slot).
    pub queued_micros: u64,
    /// Microseconds spent in transactions, summed over transactions (`storing_micros /
    /// commits` is the mean time of one, its flush included).
    pub storing_micros: u64,
}

#[derive(Debug, Default)]
struct Counters {
    commits: AtomicU64,
    rows: AtomicU64,
    failed: AtomicU64,
    queued_micros: AtomicU64,
    storing_micros: AtomicU64,
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

impl Counters {
    fn queued(&self, requests: &[Request], now: Instant) {
        let total: u64 = requests
            .iter()
            .map(|r| micros(now.saturating_duration_since(r.queued_at)))
            .sum();
        self.queued_micros.fetch_add(total, Ordering::Relaxed);
    }

    fn stored(&self, took: Duration) {
        self.storing_micros
            .fetch_add(micros(took), Ordering::Relaxed);
    }

    fn committed(&self, rows: usize) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.rows.fetch_add(rows as u64, Ordering::Relaxed);
    }

    fn failed(&self, rows: usize) {
        self.failed.fetch_add(rows as u64, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the row: it may hold hidden information.
        f.write_str("Request")
    }
}

impl Committer {
    /// Starts the background task on the current Tokio runtime (panics outside one, like
    /// `tokio::spawn`).
    pub fn spawn(store: Store) -> Committer {
        Committer::spawn_with(store, MAX_BATCH)
    }

    /// Like [`Committer::spawn`] with another bound on rows per transaction (at least 1).
    pub fn spawn_with(store: Store, max_batch: usize) -> Committer {
        let max_batch = max_batch.max(1);
        let (tx, rx) = mpsc::channel(QUEUE.max(max_batch));
        let counters = Arc::new(Counters::default());
        tokio::spawn(run(store, rx, max_batch, Arc::clone(&counters)));
        Committer { tx, counters }
    }

    /// Totals since the committer started.
    pub fn stats(&self) -> CommitterStats {
        CommitterStats {
            commits: self.counters.commits.load(Ordering::Relaxed),
            rows: self.counters.rows.load(Ordering::Relaxed),
            failed: self.counters.failed.load(Ordering::Relaxed),
            queued_micros: self.counters.queued_micros.load(Ordering::Relaxed),
            storing_micros: self.counters.storing_micros.load(Ordering::Relaxed),
        }
    }

    /// Queues the move and resolves once the transaction holding it has committed (then the
    /// move is durable) or failed (then it is not stored).
    ///
    /// Errors are those of [`Store::append_moves`]; [`StoreError::Unavailable`] also when the
    /// task has stopped. If this future is dropped before it resolves, the move may or may not
    /// end up stored.
    pub async fn append(&self, row: MoveRow) -> Result<(), StoreError> {
        self.write(Write::Move(row)).await
    }

    /// Like [`Committer::append`] for any write; errors are those of [`Store::commit`].
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.write_fenced(write, None).await
    }

    /// Like [`Committer::write`], stored only if `fence` (when given) is still its table's
    /// lease epoch when the transaction holding the write runs; otherwise the write is refused
    /// with [`StoreError::Fenced`] and the other writes of its batch are stored without it.
    /// Give the fence of the table the write belongs to.
    pub async fn write_fenced(&self, write: Write, fence: Option<Fence>) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.tx
            .send(Request {
                write,
                fence,
                done,
                queued_at: Instant::now(),
            })
            .await
            .map_err(|_| StoreError::Unavailable("move committer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Unavailable("move committer has stopped".into()))?
    }
}

async fn run(
    store: Store,
    mut rx: mpsc::Receiver<Request>,
    max_batch: usize,
    counters: Arc<Counters>,
) {
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    loop {
        // A free slot first, then whatever is queued: while every slot is busy the queue
        // grows into the next batch.
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        let mut batch: Vec<Request> = Vec::with_capacity(max_batch);
        if rx.recv_many(&mut batch, max_batch).await == 0 {
            break;
        }
        let (store, counters) = (store.clone(), Arc::clone(&counters));
        tokio::spawn(async move {
            commit(&store, &mut batch, &counters).await;
            drop(slot);
        });
    }
    // Every handle is gone: let the transactions in flight finish before the task ends.
    let _ = slots.acquire_many(IN_FLIGHT as u32).await;
}

/// What a batch has refused so far: its later writes that depend on it are refused unread.
#[derive(Default)]
struct Refused {
    /// Games with a move that was not stored: their later moves would leave a gap.
    games: HashSet<Uuid>,
    /// Fences that no longer hold.
    fences: HashSet<Fence>,
}

impl Refused {
    /// Why `r` must be refused without trying it, if it must.
    fn reason(&self, r: &Request) -> Option<StoreError> {
        if let Some(fence) = r.fence.filter(|f| self.fences.contains(f)) {
            return Some(StoreError::Fenced {
                table_id: fence.table_id,
                epoch: fence.epoch,
            });
        }
        if r.write.move_of().is_some_and(|g| self.games.contains(&g)) {
            return Some(StoreError::Conflict(
                "append moves: an earlier move of the same game was not stored".into(),
            ));
        }
        None
    }
}

/// Stores the batch and answers every caller in it; leaves `batch` empty.
async fn commit(store: &Store, batch: &mut Vec<Request>, counters: &Counters) {
    let mut refused = Refused::default();
    let requests = std::mem::take(batch);
    counters.queued(&requests, Instant::now());
    store_part(store, requests, &mut refused, counters).await;
}

/// Stores `requests` in one transaction. If that fails on a conflict, the two halves are
/// stored separately (recursively), so one bad row costs about `2 * log2(n)` transactions
/// instead of failing the whole batch or retrying every row alone. Halves go in queue order,
/// and once a move of a game has failed the later moves of that game are refused without being
/// tried: storing them would leave a gap in its log. A fence that no longer holds refuses the
/// writes under it, and the rest is tried again whole.
fn store_part<'a>(
    store: &'a Store,
    requests: Vec<Request>,
    refused: &'a mut Refused,
    counters: &'a Counters,
) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
    Box::pin(async move {
        let mut kept = Vec::with_capacity(requests.len());
        for r in requests {
            match refused.reason(&r) {
                Some(e) => {
                    counters.failed(1);
                    if let Some(g) = r.write.move_of() {
                        refused.games.insert(g);
                    }
                    let _ = r.done.send(Err(e));
                }
                None => kept.push(r),
            }
        }
        let requests = kept;
        if requests.is_empty() {
            return;
        }
        // Each fence once, in queue order (the store names the first stale one).
        let mut seen = HashSet::new();
        let fences: Vec<Fence> = requests
            .iter()
            .filter_map(|r| r.fence)
            .filter(|f| seen.insert(*f))
            .collect();
        let queued_at: Vec<Instant> = requests.iter().map(|r| r.queued_at).collect();
        let request_fences: Vec<Option<Fence>> = requests.iter().map(|r| r.fence).collect();
        let (writes, dones): (Vec<Write>, Vec<_>) =
            requests.into_iter().map(|r| (r.write, r.done)).unzip();
        let started = Instant::now();
        let stored = store.commit_fenced(&writes, &fences).await;
        counters.stored(started.elapsed());
        let rebuild = |writes: Vec<Write>, dones: Vec<_>| -> Vec<Request> {
            writes
                .into_iter()
                .zip(dones)
                .zip(queued_at)
                .zip(request_fences)
                .map(|(((write, done), queued_at), fence)| Request {
                    write,
                    fence,
                    done,
                    queued_at,
                })
                .collect()
        };
        match stored {
            Ok(()) => {
                tracing::trace!(rows = writes.len(), "committed writes");
                counters.committed(writes.len());
                for done in dones {
                    // A caller that went away no longer needs the answer.
                    let _ = done.send(Ok(()));
                }
            }
            Err(StoreError::Fenced { table_id, epoch })
                if fences.contains(&Fence { table_id, epoch }) =>
            {
                tracing::debug!(%table_id, epoch, "a fence no longer holds; storing the rest");
                refused.fences.insert(Fence { table_id, epoch });
                store_part(store, rebuild(writes, dones), refused, counters).await;
            }
            Err(StoreError::Conflict(_)) if writes.len() > 1 => {
                tracing::debug!(rows = writes.len(), "batch conflicted; splitting it");
                let mut left = rebuild(writes, dones);
                let right = left.split_off(left.len() / 2);
                store_part(store, left, refused, counters).await;
                store_part(store, right, refused, counters).await;
            }
            Err(e) => {
                tracing::warn!(rows = writes.len(), error = %e, "storing writes failed");
                counters.failed(writes.len());
                for (write, done) in writes.iter().zip(dones) {
                    refused.games.extend(write.move_of());
                    let _ = done.send(Err(e.clone()));
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameRow, TableRow};
    use protocol::RawJson;
    use serde_json::json;

    async fn store_with_games(n: usize) -> (Store, std::path::PathBuf, Vec<Uuid>) {
        let (store, dir, tables) = store_with_tables(n).await;
        (store, dir, tables.into_iter().map(|(_, g)| g).collect())
    }

    /// A store with `n` tables playing a game each: `(table id, game id)`.
    async fn store_with_tables(n: usize) -> (Store, std::path::PathBuf, Vec<(Uuid, Uuid)>) {
        let dir = std::env::temp_dir().join(format!("citytable-committer-{}", Uuid::new_v4()));
        let store = Store::open(None, &dir).await.expect("open");
        let mut games = Vec::new();
        for i in 0..n {
            let table = TableRow {
                id: Uuid::new_v4(),
                game: "tic-tac-toe".into(),
                invite_code: format!("i{i}"),
                spectator_code: format!("s{i}"),
                status: protocol::TableStatus::Playing,
                public: false,
                doc: json!({}),
                updated_at_ms: 0,
            };
            store.upsert_table(&table).await.expect("table");
            let game = GameRow {
                id: Uuid::new_v4(),
                table_id: table.id,
                number: 1,
                setup: json!({}),
                started_at_ms: 0,
                outcome: None,
            };
            store.insert_game(&game).await.expect("game");
            games.push((table.id, game.id));
        }
        (store, dir, games)
    }

    fn row(game_id: Uuid, seq: i64) -> MoveRow {
        MoveRow {
            game_id,
            seq,
            entry: RawJson::of(&json!({"seq": seq})).expect("JSON"),
            at_ms: 0,
        }
    }

    fn requests(
        rows: Vec<MoveRow>,
    ) -> (Vec<Request>, Vec<oneshot::Receiver<Result<(), StoreError>>>) {
        fenced_requests(rows.into_iter().map(|r| (r, None)).collect())
    }

    fn fenced_requests(
        rows: Vec<(MoveRow, Option<Fence>)>,
    ) -> (Vec<Request>, Vec<oneshot::Receiver<Result<(), StoreError>>>) {
        rows.into_iter()
            .map(|(row, fence)| {
                let (done, answer) = oneshot::channel();
                (
                    Request {
                        write: Write::Move(row),
                        fence,
                        done,
                        queued_at: Instant::now(),
                    },
                    answer,
                )
            })
            .unzip()
    }

    async fn answers(
        receivers: Vec<oneshot::Receiver<Result<(), StoreError>>>,
    ) -> Vec<Result<(), StoreError>> {
        let mut out = Vec::new();
        for r in receivers {
            out.push(r.await.expect("every caller is answered"));
        }
        out
    }

    async fn stored_seqs(store: &Store, game_id: Uuid) -> Vec<i64> {
        let Some(table) = store
            .load_unfinished()
            .await
            .expect("load")
            .into_iter()
            .find(|r| r.game.as_ref().is_some_and(|g| g.id == game_id))
        else {
            return vec![];
        };
        table.moves.iter().map(|m| m.seq).collect()
    }

    /// One batch holding a duplicate: the other games' moves are stored and acknowledged; the
    /// duplicate and the later move of its game are refused.
    #[tokio::test]
    async fn a_conflict_fails_only_its_caller_and_the_later_moves_of_its_game() {
        let (store, dir, games) = store_with_games(2).await;
        let (a, b) = (games[0], games[1]);
        store.append_moves(&[row(a, 0)]).await.expect("a0");

        let (mut batch, receivers) = requests(vec![row(b, 0), row(a, 0), row(a, 1), row(b, 1)]);
        let counters = Counters::default();
        commit(&store, &mut batch, &counters).await;
        assert_eq!(counters.rows.load(Ordering::Relaxed), 2);
        assert_eq!(counters.failed.load(Ordering::Relaxed), 2);
        assert!(batch.is_empty());
        let got = answers(receivers).await;
        assert_eq!(got[0], Ok(()));
        assert!(
            got[1].as_ref().is_err_and(StoreError::is_conflict),
            "{:?}",
            got[1]
        );
        assert!(
            got[2].as_ref().is_err_and(StoreError::is_conflict),
            "{:?}",
            got[2]
        );
        assert_eq!(got[3], Ok(()));
        assert_eq!(stored_seqs(&store, a).await, vec![0]);
        assert_eq!(stored_seqs(&store, b).await, vec![0, 1]);
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    /// In a large batch one duplicate costs a few transactions, not one per row, and only its
    /// game's rows fail.
    #[tokio::test]
    async fn a_large_batch_with_one_conflict_is_split_not_replayed_row_by_row() {
        let (store, dir, games) = store_with_games(8).await;
        let bad = games[3];
        store.append_moves(&[row(bad, 0)]).await.expect("bad 0");
        let rows: Vec<MoveRow> = (0..8)
            .flat_map(|seq| games.iter().map(move |&g| row(g, seq)))
            .collect();
        let (mut batch, receivers) = requests(rows.clone());
        let counters = Counters::default();
        commit(&store, &mut batch, &counters).await;
        for (r, answer) in rows.iter().zip(answers(receivers).await) {
            if r.game_id == bad {
                assert!(answer.is_err_and(|e| e.is_conflict()));
            } else {
                assert_eq!(answer, Ok(()));
            }
        }
        assert_eq!(counters.rows.load(Ordering::Relaxed), 56);
        assert_eq!(counters.failed.load(Ordering::Relaxed), 8);
        let commits = counters.commits.load(Ordering::Relaxed);
        assert!(
            commits <= 8,
            "{commits} transactions for one conflict among 64 rows"
        );
        for &g in &games {
            let expected: Vec<i64> = if g == bad { vec![0] } else { (0..8).collect() };
            assert_eq!(stored_seqs(&store, g).await, expected);
        }
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    /// One batch with writes of two tables whose leases changed hands: exactly their writes
    /// are refused as fenced, each stale fence costs one attempt that writes nothing, and the
    /// rest (fenced with current epochs, or not fenced) is stored in one transaction.
    #[tokio::test]
    async fn stale_fences_refuse_only_their_writes_and_the_rest_is_stored_whole() {
        let (store, dir, tables) = store_with_tables(4).await;
        let ttl = Duration::from_secs(60);
        let mut fences = Vec::new();
        for (i, &(table_id, _)) in tables.iter().enumerate() {
            let epoch = store
                .acquire_lease(table_id, "a", Duration::ZERO)
                .await
                .expect("lease");
            assert_eq!(epoch, Some(1));
            if i < 2 {
                // Taken over by another node: epoch 1 is stale.
                let taken = store.acquire_lease(table_id, "b", ttl).await.expect("take");
                assert_eq!(taken, Some(2));
            }
            fences.push(Fence { table_id, epoch: 1 });
        }
        let (_, unfenced) = tables[3];
        let (stale_a, stale_b, (_, current)) = (tables[0].1, tables[1].1, tables[2]);
        let rows = vec![
            (row(current, 0), Some(fences[2])),
            (row(stale_a, 0), Some(fences[0])),
            (row(unfenced, 0), None),
            (row(stale_b, 0), Some(fences[1])),
            (row(current, 1), Some(fences[2])),
            (row(stale_a, 1), Some(fences[0])),
        ];
        let (mut batch, receivers) = fenced_requests(rows);
        let counters = Counters::default();
        commit(&store, &mut batch, &counters).await;
        let got = answers(receivers).await;
        let fenced = |i: usize| {
            Err(StoreError::Fenced {
                table_id: tables[i].0,
                epoch: 1,
            })
        };
        assert_eq!(
            got,
            vec![Ok(()), fenced(0), Ok(()), fenced(1), Ok(()), fenced(0)]
        );
        assert_eq!(counters.commits.load(Ordering::Relaxed), 1);
        assert_eq!(counters.rows.load(Ordering::Relaxed), 3);
        assert_eq!(counters.failed.load(Ordering::Relaxed), 3);
        assert_eq!(stored_seqs(&store, current).await, vec![0, 1]);
        assert_eq!(stored_seqs(&store, unfenced).await, vec![0]);
        assert_eq!(stored_seqs(&store, stale_a).await, Vec::<i64>::new());
        assert_eq!(stored_seqs(&store, stale_b).await, Vec::<i64>::new());
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A batch that cannot be stored at all fails every caller.
    #[tokio::test]
    async fn an_unavailable_database_fails_every_caller() {
        let (store, dir, games) = store_with_games(2).await;
        store.close().await;
        let (mut batch, receivers) = requests(vec![row(games[0], 0), row(games[1], 0)]);
        commit(&store, &mut batch, &Counters::default()).await;
        for answer in answers(receivers).await {
            assert!(answer.is_err_and(|e| e.is_unavailable()));
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A caller that stopped waiting does not disturb the others.
    #[tokio::test]
    async fn a_departed_caller_is_skipped() {
        let (store, dir, games) = store_with_games(1).await;
        let (mut batch, mut receivers) = requests(vec![row(games[0], 0), row(games[0], 1)]);
        drop(receivers.remove(0));
        commit(&store, &mut batch, &Counters::default()).await;
        assert_eq!(answers(receivers).await, vec![Ok(())]);
        assert_eq!(stored_seqs(&store, games[0]).await, vec![0, 1]);
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    /// The task ends once every handle is gone; a handle whose task has ended reports it.
    #[tokio::test]
    async fn append_after_the_task_stopped_is_unavailable() {
        let (tx, rx) = mpsc::channel::<Request>(1);
        drop(rx);
        let committer = Committer {
            tx,
            counters: Arc::default(),
        };
        let err = committer
            .append(row(Uuid::new_v4(), 0))
            .await
            .expect_err("stopped");
        assert!(err.is_unavailable());
    }
}
