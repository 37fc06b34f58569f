//! The HTTP JSON API under `/api`: what the home page needs before a table socket opens.
//!
//! - `GET  /api/games` → `Vec<GameInfo>`
//! - `POST /api/tables` with [`CreateTable`] → [`TableCreated`]
//! - `GET  /api/tables[?after=CURSOR]` → [`PublicTables`] (public tables only, a page at a time)
//! - `GET  /api/tables/{code}` → [`CodeInfo`] (what an invite or spectator code opens)
//! - `GET  /api/tables/{code}/record` → [`GameRecord`] once the game is finished
//! - `POST /api/my-tables` with [`KeptSeats`] → [`MyTables`] (the tables a browser holds seats at)
//!
//! Errors are `{"code": "...", "args": {...}}` with a 4xx status (`args` only when the
//! sentence needs them; each client says it in its language).

use crate::{ErrorArgs, ErrorCode, TableSettings, TableStatus};
use engine::{Outcome, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GameInfo {
    /// `"big-city"`.
    pub id: String,
    pub name: String,
    pub min_seats: u8,
    pub max_seats: u8,
    #[ts(type = "unknown")]
    pub default_options: Value,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    pub game: String,
    pub settings: TableSettings,
    /// The host's display name; the host takes seat 0.
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TableCreated {
    /// Invite code: the link `/t/{invite_code}` lets friends join.
    pub invite_code: String,
    /// The link `/t/{spectator_code}` lets people watch.
    pub spectator_code: String,
    /// The host's seat token for this table.
    pub token: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct PublicTable {
    pub invite_code: String,
    pub game: String,
    pub status: TableStatus,
    pub seats: u8,
    pub seats_taken: u8,
    pub spectators_allowed: bool,
    pub host_name: String,
}

/// A page of the public lobby.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct PublicTables {
    pub tables: Vec<PublicTable>,
    /// The `after` of the next page; absent on the last one.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// Most seats one `POST /api/my-tables` asks about.
pub const MAX_KEPT_SEATS: usize = 20;

/// The seats a browser keeps: each table's code and the seat token it was given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct KeptSeats {
    /// At most [`MAX_KEPT_SEATS`].
    pub seats: Vec<KeptSeat>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct KeptSeat {
    pub code: String,
    pub token: String,
}

/// The tables of the kept seats that still hold a seat, in the order asked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct MyTables {
    pub tables: Vec<MyTable>,
}

/// A table as its seated player sees it from the outside: whose turn, and his time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct MyTable {
    /// The code it was asked by.
    pub code: String,
    pub game: String,
    pub status: TableStatus,
    pub seat: Seat,
    /// The other seated players' names, in seat order.
    pub others: Vec<String>,
    /// Bots at the table.
    pub bots: u8,
    /// The seats whose decision the game awaits (while it is played).
    pub awaiting: Vec<Seat>,
    /// Milliseconds left on the running turn clock (while it is played and one runs).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_left_ms: Option<u64>,
    /// When the table last changed: its latest move, or the row's update (ms since the epoch).
    pub changed_ms: i64,
}

/// What a code opens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct CodeInfo {
    pub game: String,
    pub status: TableStatus,
    /// `true` when the code is a spectator code.
    pub spectator: bool,
    /// Who hosts the table (for "Ana invited you to ...").
    pub host_name: String,
    pub seats: u8,
    pub seats_taken: u8,
}

/// The full record of a finished game: enough to replay it move by move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GameRecord {
    pub game: String,
    pub seats: u8,
    /// The game's seed as 16 hex digits (its 8 bytes, big-endian), revealed only
    /// once the game is over.
    pub seed: String,
    /// 32 hex digits (16 bytes) drawn with the seed and kept secret with it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// What every player was shown when the game started: the SHA-256 of the
    /// seed's 8 bytes followed by the salt's 16, as 64 hex digits. Absent (with
    /// `salt`) for games started before commitments were made.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    #[ts(type = "unknown")]
    pub options: Value,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_seat: Option<Seat>,
    pub names: Vec<String>,
    /// The move log (`engine::Entry` values).
    #[ts(type = "unknown[]")]
    pub entries: Vec<Value>,
    /// The public view before the first entry.
    #[ts(type = "unknown")]
    pub first_view: Value,
    /// Per entry, the JSON Patch (RFC 6902) from the public view before it to
    /// the one after it.
    #[ts(type = "unknown[][]")]
    pub patches: Vec<Value>,
    /// Each seat's own views (its hand, its pending decisions: what it was
    /// dealt and drew, step by step), shown once the game is over. Absent from
    /// records of games started before commitments were made.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_views: Option<Vec<SeatViews>>,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// One seat's views through a record, by its private overlay on the public view
/// (`engine::Game::Private`: a hand's faces, a decision not yet revealed): the
/// seat's view after `k` entries is the public view after `k` entries with the
/// overlay after `k` entries laid over it (an object of the overlay over the
/// object, or the array by indices, at the same place; any other value
/// replaces what is there). `first` is the first overlay and `patches[k]` the
/// JSON Patch from the overlay before entry `k` to the one after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct SeatViews {
    #[ts(type = "unknown")]
    pub first: Value,
    #[ts(type = "unknown[][]")]
    pub patches: Vec<Value>,
}

/// The answer of `POST /api/records/verify` (and what `citytable verify` prints
/// in words): whether a record's revealed seed is the one committed to at the
/// start, and whether replaying it with the record's moves gives the record's
/// views and outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RecordCheck {
    pub commitment: CommitmentCheck,
    pub replay: ReplayCheck,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CommitmentCheck {
    /// SHA-256(seed ‖ salt) is the commitment.
    Matches,
    /// It is not: the seed or the salt is not the one committed to.
    Differs,
    /// The record carries no commitment (a game started before they were made).
    Absent,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum ReplayCheck {
    /// Every step's public view, every seat's view and the outcome are the
    /// record's.
    Matches { entries: u32 },
    /// The game does not start from the record's setup (unknown game, seats or
    /// options).
    BadSetup,
    /// The game refuses the record's entry at this index (0-based).
    Refused { entry: u32 },
    /// The view after this many entries is not the record's (0: the first
    /// view, before any entry): the public one, or with `seat`, that seat's.
    ViewDiffers {
        step: u32,
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// The record has a commitment but not every seat's views, so what the
    /// players were dealt cannot be checked.
    NoSeatViews,
    /// The replayed game's outcome is not the record's (or one of them is over
    /// and the other is not).
    OutcomeDiffers,
}

/// The body of every 4xx/5xx answer of the HTTP API.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ApiError {
    pub code: ErrorCode,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<ErrorArgs>,
}
