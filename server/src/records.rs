//! Records of finished games (`GET /api/tables/{code}/record`), built once and
//! kept within a memory budget.
//!
//! A record carries the first public view and, per log entry, the JSON Patch to
//! the next one (the same diff the fan-out sends), so its size follows what
//! changed, not the length of the game times the size of a view. Each seat's own
//! view is carried the same way by its private overlay on the public one
//! ([`engine::Game::Private`]: a hand's faces, a decision not yet revealed), so a
//! record shows what every player was dealt, to be checked against the revealed
//! seed, for little more than the size of the hands. Building one
//! replays the whole game: it runs on the blocking pool, one build at a time,
//! and the finished text is shared by every request for it until the budget
//! pushes it out.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use std::time::Duration;

use axum::body::{Body, Bytes};
use engine::Viewer;
use protocol::api::RecordCheck;
use protocol::{RawJson, TableStatus};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::Semaphore;
use uuid::Uuid;

use crate::db::{Db, TableRow};
use crate::fairness;
use crate::games::{GameKind, Registry, SetupDoc};
use crate::views::{ViewJson, diff};

/// Bytes of finished records kept for later requests.
const CACHE_BYTES: usize = 32 << 20;
/// Records kept at most.
const CACHE_ENTRIES: usize = 1024;

/// Why there is no record to answer with.
#[derive(Debug)]
pub enum RecordError {
    /// The table's latest game is not over (or there is none).
    NotOver,
    /// The store could not be read.
    Store,
    /// The stored game does not replay (logged; a bug, never the client's).
    Broken,
}

/// One table's record, valid while the table row is unchanged.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    table: Uuid,
    updated_at_ms: i64,
}

/// Records read and checked at once, so their bodies take at most
/// `CHECKS_AT_ONCE * fairness::MAX_RECORD_BYTES` of memory.
const CHECKS_AT_ONCE: usize = 4;
/// How long a record's upload may take.
const CHECK_READ_TIMEOUT: Duration = Duration::from_secs(20);

/// Why a record was not checked.
#[derive(Debug)]
pub enum CheckError {
    /// As many checks as allowed are running.
    Busy,
    /// The upload was over `fairness::MAX_RECORD_BYTES`, or too slow, or broke off.
    TooLarge,
    /// The text is not a game record (the decoder's words, for the log).
    NotARecord(String),
}

pub struct Records {
    /// Builds run one at a time: each replays a whole game.
    building: Semaphore,
    /// Checks of uploaded records (`fairness::check_record`).
    checking: Semaphore,
    /// Newest last; the oldest go first when the budget is exceeded.
    cache: Mutex<VecDeque<(Key, Bytes)>>,
}

impl Default for Records {
    fn default() -> Self {
        Records {
            building: Semaphore::new(1),
            checking: Semaphore::new(CHECKS_AT_ONCE),
            cache: Mutex::new(VecDeque::new()),
        }
    }
}

impl Records {
    fn cached(&self, key: Key) -> Option<Bytes> {
        let cache = self.cache.lock().ok()?;
        cache
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, b)| b.clone())
    }

    fn keep(&self, key: Key, record: Bytes) {
        let Ok(mut cache) = self.cache.lock() else {
            return;
        };
        cache.retain(|(k, _)| k.table != key.table);
        cache.push_back((key, record));
        let mut total: usize = cache.iter().map(|(_, b)| b.len()).sum();
        while (total > CACHE_BYTES || cache.len() > CACHE_ENTRIES) && cache.len() > 1 {
            if let Some((_, old)) = cache.pop_front() {
                total -= old.len();
            }
        }
    }

    /// Reads an uploaded record and checks it (`fairness::check_record`) on the
    /// blocking pool; the check, and how long it took (what the client is
    /// charged). Refused at once when `CHECKS_AT_ONCE` are running, so a slow
    /// upload holds one place, never the record builds.
    pub async fn check(
        &self,
        games: &Registry,
        body: Body,
    ) -> Result<(RecordCheck, Duration), CheckError> {
        let _place = self.checking.try_acquire().map_err(|_| CheckError::Busy)?;
        let text = tokio::time::timeout(
            CHECK_READ_TIMEOUT,
            axum::body::to_bytes(body, fairness::MAX_RECORD_BYTES),
        )
        .await
        .map_err(|_| CheckError::TooLarge)?
        .map_err(|_| CheckError::TooLarge)?;
        let games = games.clone();
        tokio::task::spawn_blocking(move || {
            let started = std::time::Instant::now();
            let check = fairness::check_record(&games, &text);
            check.map(|check| (check, started.elapsed()))
        })
        .await
        .map_err(|e| CheckError::NotARecord(e.to_string()))?
        .map_err(CheckError::NotARecord)
    }

    /// The record of the table's latest game, as JSON text.
    pub async fn get(
        &self,
        db: &Arc<dyn Db>,
        kind: Arc<dyn GameKind>,
        table: &TableRow,
        built_count: &prometheus::IntCounter,
    ) -> Result<Bytes, RecordError> {
        if table.status == TableStatus::Lobby {
            return Err(RecordError::NotOver);
        }
        let key = Key {
            table: table.id,
            updated_at_ms: table.updated_at_ms,
        };
        if let Some(record) = self.cached(key) {
            return Ok(record);
        }
        let _turn = self
            .building
            .acquire()
            .await
            .map_err(|_| RecordError::Store)?;
        // Whoever built it while this request waited has kept it.
        if let Some(record) = self.cached(key) {
            return Ok(record);
        }
        let (game, moves) = match db.latest_game(table.id).await {
            Ok(Some(found)) => found,
            Ok(None) => return Err(RecordError::NotOver),
            Err(e) => {
                tracing::warn!(error = %e, "loading a record failed");
                return Err(RecordError::Store);
            }
        };
        let game_name = table.game.clone();
        let id = table.id;
        let entries: Vec<RawJson> = moves.into_iter().map(|m| m.entry).collect();
        let built = tokio::task::spawn_blocking(move || {
            build(kind.as_ref(), &game_name, &game.setup, entries)
        })
        .await
        .map_err(|_| RecordError::Broken)?;
        let record = match built {
            Ok(Some(record)) => Bytes::from(record),
            // Not kept: the game may end any moment (its last move is committed
            // before the table row says so).
            Ok(None) => return Err(RecordError::NotOver),
            Err(e) => {
                tracing::error!(table = %id, error = %e, "a stored game does not replay");
                return Err(RecordError::Broken);
            }
        };
        built_count.inc();
        self.keep(key, record.clone());
        Ok(record)
    }
}

/// The wire shape of `protocol::api::GameRecord`, with the views and patches
/// kept as the text they were written as.
#[derive(Serialize)]
struct RecordText<'a> {
    game: &'a str,
    seats: u8,
    seed: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    salt: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    commitment: Option<String>,
    options: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_seat: Option<u8>,
    names: &'a [String],
    entries: &'a [RawJson],
    first_view: Box<RawValue>,
    patches: Vec<Box<RawValue>>,
    seat_views: Vec<Patched>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<engine::Outcome>,
}

/// A document through the game, as a record writes it: the first, then per
/// entry the JSON Patch to the next. The public view, and each seat's private
/// overlay (`protocol::api::SeatViews`).
#[derive(Serialize)]
struct Patched {
    first: Box<RawValue>,
    patches: Vec<Box<RawValue>>,
    #[serde(skip)]
    last: ViewJson,
}

impl Patched {
    fn new(first: String, entries: usize) -> Result<Patched, String> {
        Ok(Patched {
            first: RawValue::from_string(first.clone()).map_err(|e| e.to_string())?,
            patches: Vec::with_capacity(entries),
            last: ViewJson::new(first),
        })
    }

    /// Adds the patch to `next`, the document after the next entry.
    fn push(&mut self, next: String) -> Result<(), String> {
        let next = ViewJson::new(next);
        let patch = RawValue::from_string(diff(&self.last, &next)).map_err(|e| e.to_string())?;
        self.patches.push(patch);
        self.last = next;
        Ok(())
    }
}

/// Replays a game and writes its record; `None` if the game is not over.
pub fn build(
    kind: &dyn GameKind,
    game: &str,
    setup: &Value,
    entries: Vec<RawJson>,
) -> Result<Option<String>, String> {
    let setup: SetupDoc = serde_json::from_value(setup.clone()).map_err(|e| e.to_string())?;
    let mut state = kind.start(&setup)?;
    let seats = 0..setup.seats;
    let mut public = Patched::new(state.view_json(Viewer::Spectator), entries.len())?;
    let mut seat_views = seats
        .clone()
        .map(|seat| Patched::new(state.private_view_json(seat), entries.len()))
        .collect::<Result<Vec<_>, _>>()?;
    for (seq, entry) in entries.iter().enumerate() {
        state = state
            .try_entry(entry)
            .map_err(|e| format!("entry {seq}: {e:?}"))?
            .state;
        public.push(state.view_json(Viewer::Spectator))?;
        for (seat, overlays) in seats.clone().zip(&mut seat_views) {
            overlays.push(state.private_view_json(seat))?;
        }
    }
    let Some(outcome) = state.outcome() else {
        return Ok(None);
    };
    let record = RecordText {
        game,
        seats: setup.seats,
        seed: fairness::seed_hex(setup.seed),
        salt: setup.salt.as_deref(),
        commitment: setup
            .salt
            .as_deref()
            .and_then(|salt| fairness::commitment(setup.seed, salt)),
        options: &setup.options,
        first_seat: setup.first_seat,
        names: &setup.names,
        entries: &entries,
        first_view: public.first,
        patches: public.patches,
        seat_views,
        outcome: Some(outcome),
    };
    serde_json::to_string(&record)
        .map(Some)
        .map_err(|e| e.to_string())
}
