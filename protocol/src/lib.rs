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

/// A message from a browser to the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
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
    Move {
        /// Echoed in the acknowledgement or error.
        id: u64,
        version: u64,
        #[ts(type = "unknown")]
        mv: Value,
    },
    /// Ask for every legal move of one's seat now (to highlight placements).
    LegalMoves,
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
        awaiting: AwaitingInfo,
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<Outcome>,
    },
    /// The move with this `id` was committed and applied.
    MoveOk {
        id: u64,
        version: u64,
    },
    /// The legal moves of the recipient's seat at `version`.
    LegalMoves {
        version: u64,
        #[ts(type = "unknown[]")]
        moves: Vec<Value>,
    },
    Chat {
        line: ChatLine,
    },
    /// A request was refused; nothing changed. `id` echoes the move id when it was a move.
    Error {
        code: ErrorCode,
        message: String,
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// The game's own code when `code` is `illegal_move` (`not_adjacent`, ...).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
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
    /// There is no seat with that number at this table.
    NoSuchSeat,
    /// The request is not allowed for a spectator (or a visitor without a seat).
    Spectator,
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
    pub spectators_allowed: bool,
    /// Listed in the public lobby. Private tables are never listed.
    pub public: bool,
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
        ] {
            assert!(serde_json::from_value::<ClientMsg>(bad).is_err());
        }
    }

    #[test]
    fn absent_optional_fields_are_omitted_not_null() {
        let msg = ServerMsg::Error {
            code: ErrorCode::StaleVersion,
            message: "old".into(),
            id: None,
            rule: None,
        };
        assert_eq!(
            serde_json::to_value(&msg).expect("encode"),
            json!({"type": "error", "code": "stale_version", "message": "old"})
        );
        let you = You {
            token: None,
            seat: None,
            is_host: false,
            name: "Eve".into(),
        };
        assert_eq!(
            serde_json::to_value(&you).expect("encode"),
            json!({"is_host": false, "name": "Eve"})
        );
    }
}
