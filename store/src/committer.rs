//! Group commit: the moves of many rooms stored in one transaction, each caller resumed only
//! once its move is durable.
//!
//! Rooms send rows into a bounded queue. One background task takes everything queued (up to
//! [`MAX_BATCH`] rows), stores it with one [`Store::append_moves`] call (one transaction, one
//! flush) and then answers every caller. While that commit is in flight, new rows wait in the
//! queue and form the next batch, so the batch size follows the load by itself: one row when
//! the server is quiet, hundreds under load.
//!
//! A failed batch acknowledges nothing. When it failed on a conflict (one row's `(game_id, seq)`
//! already stored), the rows are retried one by one so that only the offending caller (and the
//! later rows of the same game, which would leave a gap) gets the error; any other failure
//! (database unreachable) fails every caller of the batch.

use std::collections::HashSet;

use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use crate::{MoveRow, Store, StoreError};

/// Most rows committed in one transaction.
pub const MAX_BATCH: usize = 1024;
/// Rows that may wait in the queue; when it is full, `append` waits (backpressure).
const QUEUE: usize = 4 * MAX_BATCH;

struct Request {
    row: MoveRow,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// Handle to the group-commit task. Cheap to clone; the task stops once every clone is dropped
/// (after committing what is queued).
#[derive(Clone, Debug)]
pub struct Committer {
    tx: mpsc::Sender<Request>,
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
        tokio::spawn(run(store, rx, max_batch));
        Committer { tx }
    }

    /// Queues the move and resolves once the transaction holding it has committed (then the
    /// move is durable) or failed (then it is not stored).
    ///
    /// Errors are those of [`Store::append_moves`]; [`StoreError::Unavailable`] also when the
    /// task has stopped. If this future is dropped before it resolves, the move may or may not
    /// end up stored.
    pub async fn append(&self, row: MoveRow) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.tx
            .send(Request { row, done })
            .await
            .map_err(|_| StoreError::Unavailable("move committer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Unavailable("move committer has stopped".into()))?
    }
}

async fn run(store: Store, mut rx: mpsc::Receiver<Request>, max_batch: usize) {
    let mut batch: Vec<Request> = Vec::with_capacity(max_batch);
    while rx.recv_many(&mut batch, max_batch).await > 0 {
        commit(&store, &mut batch).await;
    }
}

/// Stores the batch and answers every caller in it; leaves `batch` empty.
async fn commit(store: &Store, batch: &mut Vec<Request>) {
    let rows: Vec<MoveRow> = batch.iter().map(|r| r.row.clone()).collect();
    match store.append_moves(&rows).await {
        Ok(()) => {
            tracing::trace!(rows = rows.len(), "committed moves");
            for r in batch.drain(..) {
                // A caller that went away no longer needs the answer.
                let _ = r.done.send(Ok(()));
            }
        }
        Err(StoreError::Conflict(_)) if batch.len() > 1 => {
            tracing::debug!(
                rows = rows.len(),
                "batch conflicted; storing its moves one by one"
            );
            one_by_one(store, batch).await;
        }
        Err(e) => {
            tracing::warn!(rows = rows.len(), error = %e, "storing moves failed");
            for r in batch.drain(..) {
                let _ = r.done.send(Err(e.clone()));
            }
        }
    }
}

/// Stores each row in its own transaction, in queue order. Once a row of a game fails, the
/// later rows of that game are not attempted: storing them would leave a gap in its log.
async fn one_by_one(store: &Store, batch: &mut Vec<Request>) {
    let mut failed_games: HashSet<Uuid> = HashSet::new();
    for r in batch.drain(..) {
        let result = if failed_games.contains(&r.row.game_id) {
            Err(StoreError::Conflict(
                "append moves: an earlier move of the same game was not stored".into(),
            ))
        } else {
            store.append_moves(std::slice::from_ref(&r.row)).await
        };
        if result.is_err() {
            failed_games.insert(r.row.game_id);
        }
        let _ = r.done.send(result);
    }
}
