//! Finding a table by its invite or spectator code: the one lookup the socket
//! and the HTTP API share, with the one limiter of wrong guesses. Once an
//! address has missed [`MAX_MISSES_PER_MINUTE`] times in a minute, each further
//! miss is answered only after [`GUESS_DELAY`], one at a time per address:
//! guessing crawls, while a right code (a player coming back behind the same
//! address) is answered at once.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;
use uuid::Uuid;

use crate::AppState;
use crate::codes;
use crate::db::TableRow;
use crate::room::RoomMsg;

/// Failed code lookups per IP address per minute before its lookups are slowed.
const MAX_MISSES_PER_MINUTE: u32 = 30;
/// The wait of each lookup from an address that guesses codes.
const GUESS_DELAY: Duration = Duration::from_secs(1);

/// Why a code could not be looked up.
#[derive(Debug)]
pub enum LookupError {
    Store,
    /// Cluster mode: another node owns the table (`spectator`: the code was its
    /// spectator code); a connection plays through that node (`forward`).
    Elsewhere {
        table: Uuid,
        spectator: bool,
    },
}

/// Wrong-code lookups per address.
#[derive(Default)]
pub struct Misses(Mutex<HashMap<IpAddr, AddressMisses>>);

/// An address's wrong-code lookups in the current minute.
struct AddressMisses {
    since: Instant,
    count: u32,
    /// The turn its slowed lookups take, one after another.
    turn: Arc<tokio::sync::Mutex<()>>,
}

impl Misses {
    /// Counts a miss; the address's turn if it is to be slowed.
    fn record(&self, ip: IpAddr) -> Option<Arc<tokio::sync::Mutex<()>>> {
        let mut misses = self.0.lock().ok()?;
        if misses.len() > 100_000 {
            misses.retain(|_, m| m.since.elapsed() < Duration::from_secs(60));
        }
        let entry = misses.entry(ip).or_insert_with(|| AddressMisses {
            since: Instant::now(),
            count: 0,
            turn: Arc::default(),
        });
        if entry.since.elapsed() >= Duration::from_secs(60) {
            entry.since = Instant::now();
            entry.count = 0;
        }
        entry.count += 1;
        (entry.count > MAX_MISSES_PER_MINUTE).then(|| Arc::clone(&entry.turn))
    }
}

impl AppState {
    /// Counts a wrong code looked up from `ip`, and slows the answer once the
    /// address guesses.
    async fn miss(&self, ip: IpAddr) {
        let Some(turn) = self.0.misses.record(ip) else {
            return;
        };
        self.0.metrics.slowed_lookups.inc();
        let _turn = turn.lock_owned().await;
        tokio::time::sleep(GUESS_DELAY).await;
    }

    /// The stored table with this invite or spectator code; `Ok(None)` (counted
    /// as a miss of `ip`) when no table has it.
    pub async fn table_by_code(
        &self,
        code: &str,
        ip: IpAddr,
    ) -> Result<Option<TableRow>, LookupError> {
        if !codes::plausible_code(code) {
            self.miss(ip).await;
            return Ok(None);
        }
        let row = self.0.db.table_by_code(code).await.map_err(|e| {
            tracing::warn!(error = %e, "looking up a code failed");
            LookupError::Store
        })?;
        if row.is_none() {
            self.miss(ip).await;
        }
        Ok(row)
    }

    /// The room of a code, and whether the code is its spectator code (loading
    /// the table from the store if its room is not in memory). `Ok(None)` when no
    /// table has that code.
    pub async fn room_by_code(
        &self,
        code: &str,
        ip: IpAddr,
    ) -> Result<Option<(mpsc::Sender<RoomMsg>, bool)>, LookupError> {
        if let Some(live) = self.0.rooms.get(code) {
            return Ok(Some(live));
        }
        let Some(row) = self.table_by_code(code, ip).await? else {
            return Ok(None);
        };
        let spectator = row.spectator_code == code;
        if let Some(cluster) = &self.0.cluster {
            // Only under the table's lease; the rows are read again after it was
            // taken, to hold every write of its previous owner.
            let hold = match cluster.acquire(self.0.db.as_ref(), row.id).await {
                Ok(hold) => hold,
                Err(crate::cluster::TakeError::Elsewhere) => {
                    return Err(LookupError::Elsewhere {
                        table: row.id,
                        spectator,
                    });
                }
                Err(crate::cluster::TakeError::Store) => return Err(LookupError::Store),
            };
            let id = row.id;
            return match self.load_held(hold).await {
                Ok(tx) => Ok(Some((tx, spectator))),
                Err(e) => {
                    tracing::error!(table = %id, error = %e, "table could not be loaded");
                    Err(LookupError::Store)
                }
            };
        }
        let game = self.0.db.latest_game(row.id).await.map_err(|e| {
            tracing::warn!(error = %e, "loading a table failed");
            LookupError::Store
        })?;
        let id = row.id;
        match self.room_from_rows(row, game, None) {
            Ok(tx) => Ok(Some((tx, spectator))),
            Err(e) => {
                tracing::error!(table = %id, error = %e, "table could not be loaded");
                Err(LookupError::Store)
            }
        }
    }
}
