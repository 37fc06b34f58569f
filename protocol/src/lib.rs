//! The CityTable wire protocol.
//!
//! Browsers talk to the server in two ways:
//! - a small HTTP JSON API (create a table, list public tables, look up a code): [`api`];
//! - one WebSocket per open table page, carrying [`ClientMsg`] up and [`ServerMsg`]
//!   down, one JSON object per text frame, tagged by `"type"`.
//!
//! Game-specific payloads (options, moves, views, events) travel as JSON values whose
//! shape is defined by each game crate (`games/*`); their TypeScript definitions are
//! generated alongside these. PROTOCOL.md at the repository root documents every
//! message with an example.

pub mod api;

use engine::{BotLevel, Outcome, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Largest text frame the server accepts from a client, in bytes.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
/// Longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 500;
/// Longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;
/// Longest `of` of a `legal_moves` request, in characters.
pub const MAX_LEGAL_MOVES_OF_CHARS: usize = 64;

/// A message from a browser to the server. Decode one with [`ClientMsg::decode`]
/// (which `Deserialize` calls): a move's payload stays the JSON text it came as.
//
// `remote = "Self"` makes the derives inherent functions, so that the trait
// impls below can wrap them: serde cannot keep raw JSON inside an internally
// tagged enum, so a move is decoded apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    remote = "Self",
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields
)]
pub enum ClientMsg {
    /// First message on a table socket. `token` is the seat token the server issued
    /// earlier for this table (kept by the browser); without one the connection is a
    /// visitor until it takes a seat. `code` is the invite or spectator code from the
    /// link when the table is private.
    Hello {
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        name: String,
    },
    /// Take a free seat (the lowest free one when `seat` is absent).
    TakeSeat {
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Give up one's seat before the game starts.
    LeaveSeat,
    /// A player a bot stands in for is back: he plays his seat again from his
    /// next decision (saying `hello` with his token does the same).
    Back,
    /// Host only, before the start: change the table's settings.
    Configure { settings: TableSettings },
    /// Host only: put a bot in a seat (a free seat, or an away player's seat during a game).
    AddBot { seat: Seat, level: BotLevel },
    /// Host only: remove a player or bot from a seat (before the start).
    Kick { seat: Seat },
    /// Host only: start the game with the seated players.
    Start,
    /// Play a move. `version` is the state version the move was made on; a move made
    /// on an older version is refused as stale, never applied twice.
    #[serde(skip_deserializing)]
    Move {
        /// Echoed in the acknowledgement or error.
        id: u64,
        version: u64,
        #[ts(type = "unknown")]
        mv: RawJson,
    },
    /// Take back one's last move: a move of the current turn that revealed
    /// nothing and drew nothing, with no other entry since (the game decides:
    /// `engine::Game::may_take_back`; `awaiting.undo` names the seat that may).
    /// Answered as a move is, by `move_ok` or an `error` echoing `id`.
    Undo { id: u64, version: u64 },
    /// Seated, at a turn-based table (one with a time bank): the URL the server
    /// posts to when the table waits for this player and no page of his is
    /// open there (a Discord or Slack incoming webhook); `lang` (`en`, `fr`) is
    /// the language of its lines. No `url`: no more posts.
    SetWebhook {
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lang: Option<String>,
    },
    /// Ask for the legal moves of one's seat now (to highlight placements): all
    /// of them, or the part `of` names (a game's own key, such as a building id:
    /// [`engine::Game::legal_moves_of`]; a game without parts ignores it). `of`
    /// is at most [`MAX_LEGAL_MOVES_OF_CHARS`] characters.
    LegalMoves {
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        of: Option<String>,
    },
    /// Ask for a full snapshot (after missed updates).
    Resync,
    /// Say something to the table.
    Chat { text: String },
    /// Host only, after the game: a new game with the same seats and settings.
    PlayAgain,
    /// Host only, after the game: back to the lobby, where seats and settings
    /// can change before the next game starts.
    BackToLobby,
}

impl ClientMsg {
    /// The id a move (or an undo) is answered with.
    pub fn move_id(&self) -> Option<u64> {
        match self {
            ClientMsg::Move { id, .. } | ClientMsg::Undo { id, .. } => Some(*id),
            _ => None,
        }
    }

    /// Decodes one client frame. Only a message's own fields are accepted.
    pub fn decode(text: &str) -> Result<ClientMsg, serde_json::Error> {
        #[derive(Deserialize)]
        struct Tag<'a> {
            #[serde(rename = "type", borrow)]
            kind: std::borrow::Cow<'a, str>,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct MoveFields {
            #[serde(rename = "type")]
            _kind: serde::de::IgnoredAny,
            id: u64,
            version: u64,
            mv: RawJson,
        }
        if serde_json::from_str::<Tag>(text)?.kind == "move" {
            let MoveFields {
                id, version, mv, ..
            } = serde_json::from_str(text)?;
            // Raw JSON is taken without serde_json's nesting limit; keep the
            // frame's limit, so no game decoder is handed deeper than that.
            if nests_deeper_than(mv.get(), MAX_MOVE_DEPTH) {
                return Err(serde::de::Error::custom("nested too deep"));
            }
            return Ok(ClientMsg::Move { id, version, mv });
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let msg = ClientMsg::deserialize(&mut de)?;
        de.end()?;
        // serde enforces `deny_unknown_fields` only for variants with fields.
        let fieldless = matches!(
            msg,
            ClientMsg::LeaveSeat
                | ClientMsg::Back
                | ClientMsg::Start
                | ClientMsg::Resync
                | ClientMsg::PlayAgain
                | ClientMsg::BackToLobby
        );
        if fieldless {
            let fields: std::collections::BTreeMap<String, serde::de::IgnoredAny> =
                serde_json::from_str(text)?;
            if fields.len() != 1 {
                return Err(serde::de::Error::custom("unknown field"));
            }
        }
        Ok(msg)
    }
}

/// How deep a move's payload may nest: what serde_json allows a whole frame
/// (128), less the frame's own object.
const MAX_MOVE_DEPTH: usize = 127;

/// Whether JSON text nests arrays and objects deeper than `max`.
fn nests_deeper_than(json: &str, max: usize) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for b in json.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

impl Serialize for ClientMsg {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ClientMsg::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for ClientMsg {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let frame = RawJson::deserialize(deserializer)?;
        ClientMsg::decode(frame.get()).map_err(serde::de::Error::custom)
    }
}

/// JSON text kept as it came, checked to be JSON but not decoded: a game's move
/// on its way to the game, which decodes it once into its own type.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RawJson(Box<serde_json::value::RawValue>);

impl RawJson {
    /// The JSON text of `value`.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<RawJson, serde_json::Error> {
        serde_json::value::to_raw_value(value).map(RawJson)
    }

    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Decoded as a generic JSON value (for tests and tools; the move path
    /// decodes into the game's own types instead).
    pub fn to_value(&self) -> serde_json::Result<Value> {
        serde_json::from_str(self.get())
    }
}

/// `null`.
impl Default for RawJson {
    fn default() -> RawJson {
        RawJson(serde_json::value::RawValue::NULL.to_owned())
    }
}

/// Equal when they are the same JSON value, whatever their spacing and key
/// order (a store may give back the text it was given in another layout).
impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.get() == other.get()
            || matches!((self.to_value(), other.to_value()), (Ok(a), Ok(b)) if a == b)
    }
}

/// A message from the server to a browser.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Answer to `hello`: who you are at this table. Sent again whenever `you`
    /// changes (a seat taken, left or lost to a kick).
    Welcome {
        you: You,
        table: TableInfo,
    },
    /// The table changed (seats, settings, presence, status).
    Table {
        table: TableInfo,
    },
    /// The whole game as this connection may see it.
    Snapshot {
        game: GameSnapshot,
    },
    /// What changed for this recipient since `version - 1`. A client whose own version
    /// is not `version - 1` sends `resync`.
    Update {
        version: u64,
        /// Public descriptions of what happened (game-specific event objects).
        #[ts(type = "unknown[]")]
        events: Vec<Value>,
        /// RFC 6902 JSON Patch from the previous view of this recipient to the new one.
        #[ts(type = "unknown[]")]
        patch: Vec<Value>,
        /// Absent when whose decision it is (and its timer) did not change.
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        awaiting: Option<AwaitingInfo>,
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<Outcome>,
    },
    /// The move with this `id` was committed and applied.
    MoveOk {
        id: u64,
        version: u64,
    },
    /// The legal moves of the recipient's seat at `version`: all of them, or the
    /// part the request's `of` named (echoed).
    LegalMoves {
        version: u64,
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        of: Option<String>,
        #[ts(type = "unknown[]")]
        moves: Vec<Value>,
    },
    Chat {
        line: ChatLine,
    },
    /// A request was refused; nothing changed. `id` echoes the move id when it was a move.
    /// No sentence travels: each client says it in its language from the codes and
    /// arguments.
    Error {
        code: ErrorCode,
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// The game's own code when `code` is `illegal_move` (`not_adjacent`, ...).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
        /// What the sentence needs: for `illegal_move` the arguments of the game's rule
        /// (the `args` of `BigCityRule`, `MyCityRule`, ...), otherwise [`ErrorArgs`].
        /// Absent when the sentence needs nothing.
        #[ts(optional, type = "ErrorArgs | Record<string, unknown>")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        args: Option<Value>,
    },
}

/// Stable error codes. When the game refuses a move ([`ErrorCode::IllegalMove`]) the
/// error also carries the game's own stable code in `rule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not valid JSON, or not a known message.
    BadMessage,
    /// The frame was larger than [`MAX_FRAME_BYTES`].
    FrameTooLarge,
    /// Too many messages too fast.
    RateLimited,
    /// `hello` is required first (or was sent twice).
    HelloFirst,
    /// The table does not exist or the code is wrong.
    NoSuchTable,
    /// The token does not belong to this table.
    BadToken,
    /// Only the host may do that.
    NotHost,
    /// The table is full, or that seat is taken.
    SeatTaken,
    /// The connection holds no seat.
    NotSeated,
    /// Spectators are not allowed at this table.
    NoSpectators,
    /// Not possible in the table's current status (e.g. configure after start).
    WrongStatus,
    /// The settings are not valid for this game.
    BadSettings,
    /// The move was made on an older state version.
    StaleVersion,
    /// It is not this seat's decision.
    NotYourTurn,
    /// The game refused the move; `rule` holds the game's own code.
    IllegalMove,
    /// The move's JSON does not describe a move of this game.
    BadMove,
    /// Chat text empty or too long.
    BadChat,
    /// The store is unavailable; nothing was applied. Try again.
    TryAgain,
    /// The display name is empty or too long.
    BadName,
    /// The `of` of a `legal_moves` request is longer than `max_chars`.
    BadLegalMovesOf,
    /// There is no seat with that number at this table.
    NoSuchSeat,
    /// The request is not allowed for a spectator (or a visitor without a seat).
    Spectator,
    /// The table is served by another server of the cluster right now; try again
    /// in a moment.
    TableElsewhere,
}

/// What the sentence of a server-level error needs beyond its code. Each error sets
/// the fields its sentence uses and no other; none carries hidden information.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ErrorArgs {
    /// Which case of the code, when one code covers several (`bad_settings`).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<ErrorReason>,
    /// `frame_too_large`: the largest message, in bytes.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u32>,
    /// `bad_chat`, `bad_name`, `bad_legal_moves_of`: the longest text, in characters.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_chars: Option<u32>,
    /// `stale_version`: the game's version now.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// `rate_limited`: how long to wait before trying again, in milliseconds.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// `bad_settings`: the allowed range (seats, turn seconds, an option's value).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// `bad_settings` with reason `option_range` or `option_invalid`: the
    /// option's field name.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
    /// `bad_settings` with reason `option_invalid`: the entry of a list option,
    /// counted from 1.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<u32>,
    /// `bad_settings` with reason `option_invalid`: the game's code for what is
    /// wrong (its bound, if any, in `max`).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

impl ErrorArgs {
    /// Arguments with only a reason.
    pub fn reason(reason: ErrorReason) -> ErrorArgs {
        ErrorArgs {
            reason: Some(reason),
            ..ErrorArgs::default()
        }
    }
}

/// Which case of an error code covering several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorReason {
    /// `bad_settings`: this server has no such game.
    UnknownGame,
    /// `bad_settings`: the game is played by `min` to `max` seats.
    Seats,
    /// `bad_settings`: the starting seat is not at the table.
    FirstSeat,
    /// `bad_settings`: the game option `option` lies between `min` and `max`.
    OptionRange,
    /// `bad_settings`: the game option `option` (its entry `item`, if a list) is
    /// refused for the game's `problem` (with its bound in `max`, if any).
    OptionInvalid,
    /// `bad_settings`: these are not options of the game (or one is unknown).
    NotOptions,
    /// `bad_settings`: a turn timer lasts `min` to `max` seconds.
    TurnSeconds,
    /// `bad_settings`: free the seats to remove first.
    SeatsOccupied,
    /// `bad_settings`: every seat needs a player or a bot to start.
    EmptySeats,
    /// `bad_settings`: a stand-in takes over after `min` to `max` missed turns.
    StandInMisses,
    /// `bad_settings`: a time bank holds `min` to `max` seconds, beside a turn timer.
    TimeBank,
    /// `bad_settings`: a webhook is an `https` URL of at most `max_chars`
    /// characters, for a seated player at a turn-based table.
    Webhook,
}

/// The recipient at this table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct You {
    /// Seat token: keep it (per table) to get the seat back after a reload.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    pub is_host: bool,
    pub name: String,
    /// The webhook this player gave (`set_webhook`), sent to him alone.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<String>,
}

/// Settings chosen in the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TableSettings {
    /// Number of seats at the table.
    pub seats: u8,
    /// The game's own options (variants), as defined by the game crate.
    #[ts(type = "unknown")]
    pub options: Value,
    /// Per-turn time limit in seconds; none when absent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_seconds: Option<u32>,
    /// With `turn_seconds`: each player's reserve, in seconds, that a decision
    /// may take beyond the turn's time and that the unused part of each turn's
    /// time refills, up to this cap (turn-based tables: hours to days a move).
    /// Everyone starts with a full reserve.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_bank_seconds: Option<u32>,
    pub spectators_allowed: bool,
    /// Listed in the public lobby. Private tables are never listed.
    pub public: bool,
    /// During a game, a bot plays for a seated player who misses his turns or
    /// leaves the table, until he comes back; absent: nobody stands in (the
    /// host may still hand an away seat to a bot for good).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_in: Option<StandIn>,
}

/// Who stands in for a player who is not there, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct StandIn {
    pub level: BotLevel,
    /// The bot takes over after this many of the player's decisions in a row
    /// timed out (1 to 5), or once his last connection has been closed for
    /// a while when it is his decision.
    pub after_misses: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    Lobby,
    Playing,
    Finished,
}

impl TableStatus {
    /// The status as serde writes it (`"lobby"`, `"playing"`, `"finished"`): also
    /// its text in the store.
    pub const fn as_str(self) -> &'static str {
        match self {
            TableStatus::Lobby => "lobby",
            TableStatus::Playing => "playing",
            TableStatus::Finished => "finished",
        }
    }

    /// The status written `text` ([`TableStatus::as_str`]).
    pub fn parse(text: &str) -> Option<TableStatus> {
        [
            TableStatus::Lobby,
            TableStatus::Playing,
            TableStatus::Finished,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// A table as everyone at it sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TableInfo {
    /// Game identifier (`"big-city"`).
    pub game: String,
    pub status: TableStatus,
    pub settings: TableSettings,
    pub seats: Vec<SeatInfo>,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_seat: Option<Seat>,
    /// Number of spectators watching.
    pub spectators: u32,
    /// Invite links' codes, only sent to the seated players.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite_code: Option<String>,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spectator_code: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SeatInfo {
    pub seat: Seat,
    pub occupant: Occupant,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Occupant {
    Empty,
    Human {
        name: String,
        connected: bool,
        /// While not connected: how long ago his last connection closed, in
        /// milliseconds when this was sent (absent if not known since the server
        /// started).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gone_ms: Option<u64>,
        /// Timed out three turns in a row (Big City ruling O1).
        away: bool,
    },
    Bot {
        level: BotLevel,
    },
}

/// Whose decision the game waits for, as the clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AwaitingInfo {
    pub seats: Vec<Seat>,
    /// Milliseconds left on the running timer, if any, when this was sent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timer_ms: Option<u64>,
    /// The seat that may take back its last move now (with `undo`), if any.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo: Option<Seat>,
    /// At a table with a time bank: each seat's reserve in milliseconds, by
    /// seat, as it stood when this decision period began (`timer_ms` counts
    /// the turn's time and the reserve together).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banks_ms: Option<Vec<u64>>,
}

/// A full picture of the game for one recipient.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GameSnapshot {
    /// Which game of the table this is: 1 for the first, 2 after one play-again,
    /// and so on (a page keeping a log can tell an older game's lines apart).
    #[serde(default)]
    pub number: u32,
    pub version: u64,
    /// The game's view for this recipient (game-specific).
    #[ts(type = "unknown")]
    pub view: Value,
    pub awaiting: AwaitingInfo,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The events of the latest moves, oldest first, so someone who joins or
    /// comes back mid-game can show the game log (the same events their
    /// updates carried).
    #[serde(default)]
    pub recent_events: Vec<LoggedEvents>,
    /// SHA-256 of the game's secret seed and salt, as 64 hex digits: the
    /// record reveals both once the game is over, so anyone can check that the
    /// shuffles were the ones committed to here (`GameRecord`).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
}

/// The events of one move, as its `update` carried them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct LoggedEvents {
    pub version: u64,
    #[ts(type = "unknown[]")]
    pub events: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChatLine {
    pub name: String,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    pub text: String,
    /// Milliseconds since the Unix epoch.
    pub at_ms: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_status_is_written_as_serde_writes_it() {
        for status in [
            TableStatus::Lobby,
            TableStatus::Playing,
            TableStatus::Finished,
        ] {
            assert_eq!(json!(status), json!(status.as_str()));
            assert_eq!(TableStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(TableStatus::parse("abandoned"), None);
    }

    #[test]
    fn client_messages_parse_as_documented() {
        let cases = [
            json!({"type": "hello", "name": "Bo", "token": "t"}),
            json!({"type": "take_seat", "seat": 1}),
            json!({"type": "take_seat"}),
            json!({"type": "leave_seat"}),
            json!({"type": "add_bot", "seat": 1, "level": "greedy"}),
            json!({"type": "kick", "seat": 1}),
            json!({"type": "start"}),
            json!({"type": "move", "id": 7, "version": 3, "mv": {"cell": 4}}),
            json!({"type": "legal_moves"}),
            json!({"type": "legal_moves", "of": "house"}),
            json!({"type": "resync"}),
            json!({"type": "chat", "text": "gg"}),
            json!({"type": "play_again"}),
        ];
        for case in cases {
            let msg: ClientMsg = serde_json::from_value(case.clone()).expect("documented shape");
            assert_eq!(serde_json::to_value(&msg).expect("encode"), case);
        }
        for bad in [
            json!({"type": "fly"}),
            json!({"type": "chat", "text": "x", "extra": 1}),
            json!({"type": "move", "id": 1, "mv": {}}),
            json!({"type": "move", "id": 1, "version": 2, "mv": {}, "x": 1}),
            json!({"type": "start", "x": 1}),
            json!({"type": "legal_moves", "x": 1}),
            json!({"type": "legal_moves", "of": 3}),
            json!({"id": 1, "version": 2, "mv": {}}),
        ] {
            assert!(serde_json::from_value::<ClientMsg>(bad).is_err());
        }
    }

    #[test]
    fn a_move_keeps_its_payload_as_sent() {
        let text = r#"{"type":"move","id":7,"version":3,"mv":{ "cell" : 4 }}"#;
        let Ok(ClientMsg::Move { id, version, mv }) = ClientMsg::decode(text) else {
            panic!("a move");
        };
        assert_eq!((id, version, mv.get()), (7, 3, r#"{ "cell" : 4 }"#));
        assert!(ClientMsg::decode(r#"{"type":"move","id":7,"version":3,"mv":{]}"#).is_err());
    }

    #[test]
    fn a_move_nests_as_deep_as_a_frame_may_and_no_deeper() {
        let frame = |depth: usize| {
            let mv = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            format!(r#"{{"type":"move","id":1,"version":0,"mv":{mv}}}"#)
        };
        assert!(ClientMsg::decode(&frame(MAX_MOVE_DEPTH)).is_ok());
        assert!(ClientMsg::decode(&frame(MAX_MOVE_DEPTH + 1)).is_err());
        // Brackets inside strings are text, not nesting.
        let quoted = format!(
            r#"{{"type":"move","id":1,"version":0,"mv":["{}\\\"{}"]}}"#,
            "[".repeat(200),
            "{".repeat(200)
        );
        assert!(ClientMsg::decode(&quoted).is_ok());
    }

    #[test]
    fn absent_optional_fields_are_omitted_not_null() {
        let msg = ServerMsg::Error {
            code: ErrorCode::StaleVersion,
            id: None,
            rule: None,
            args: None,
        };
        assert_eq!(
            serde_json::to_value(&msg).expect("encode"),
            json!({"type": "error", "code": "stale_version"})
        );
        let args = ErrorArgs {
            max_chars: Some(500),
            ..ErrorArgs::default()
        };
        assert_eq!(
            serde_json::to_value(&args).expect("encode"),
            json!({"max_chars": 500})
        );
        let you = You {
            token: None,
            seat: None,
            is_host: false,
            name: "Eve".into(),
            webhook: None,
        };
        assert_eq!(
            serde_json::to_value(&you).expect("encode"),
            json!({"is_host": false, "name": "Eve"})
        );
    }
}
