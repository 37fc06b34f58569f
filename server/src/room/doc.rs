//! The table document the store keeps (`table.doc`): settings, host, players
//! and seats; who is who in it; the one check of table settings; and the
//! document and row of a new table.

use engine::{BotLevel, Seat};
use protocol::{ErrorArgs, ErrorCode, ErrorReason, TableSettings, TableStatus};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::names::clean_name;
use super::{Refusal, refuse};
use crate::clock::now_ms;
use crate::codes;
use crate::db::TableRow;
use crate::games::GameKind;

/// Shortest turn timer a host may set.
pub const MIN_TURN_SECONDS: u32 = 5;
/// Longest turn timer a host may set: a week (turn-based tables).
pub const MAX_TURN_SECONDS: u32 = 7 * 86_400;
/// Smallest and largest time bank a host may set: a minute, two weeks.
pub const MIN_TIME_BANK_SECONDS: u32 = 60;
pub const MAX_TIME_BANK_SECONDS: u32 = 14 * 86_400;
/// A stand-in takes over after at most this many missed turns in a row.
pub const MAX_STAND_IN_MISSES: u8 = 5;

/// The server-owned JSON document of a table (`table.doc`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableDoc {
    pub settings: TableSettings,
    /// Token hash of the host.
    pub host: String,
    /// Everyone who holds a token for this table.
    pub players: Vec<PlayerDoc>,
    pub seats: Vec<SeatDoc>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerDoc {
    /// SHA-256 of the player's token.
    pub token_hash: String,
    pub name: String,
    /// Where to post when the table waits for him (`notify.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<WebhookDoc>,
}

/// A player's webhook and the language of its lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookDoc {
    pub url: String,
    pub lang: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatDoc {
    Empty,
    Human { token_hash: String, away: bool },
    Bot { level: BotLevel },
}

/// A table just created: its row as stored, its document, and the host's token
/// (the only time it exists in plain).
pub struct NewTable {
    pub row: TableRow,
    pub doc: TableDoc,
    pub token: String,
}

/// A new table of `kind` in its lobby, its host (named `name`) in seat 0; or why
/// the name or the settings cannot be.
pub fn new_table(
    kind: &dyn GameKind,
    name: &str,
    settings: &TableSettings,
) -> Result<NewTable, Refusal> {
    let name = clean_name(name)?;
    let settings = check_settings(kind, settings)?;
    let token = codes::new_token();
    let hash = codes::hash_token(&token);
    let mut seats = vec![SeatDoc::Empty; usize::from(settings.seats)];
    if let Some(first) = seats.first_mut() {
        *first = SeatDoc::Human {
            token_hash: hash.clone(),
            away: false,
        };
    }
    let doc = TableDoc {
        settings,
        host: hash.clone(),
        players: vec![PlayerDoc {
            token_hash: hash,
            name,
            webhook: None,
        }],
        seats,
    };
    let row = doc.row(
        Uuid::new_v4(),
        kind.id(),
        [codes::new_code(), codes::new_code()],
        TableStatus::Lobby,
    );
    Ok(NewTable { row, doc, token })
}

impl TableDoc {
    /// The table's row as stored, with this document.
    pub fn row(
        &self,
        id: Uuid,
        game: &str,
        [invite_code, spectator_code]: [String; 2],
        status: TableStatus,
    ) -> TableRow {
        TableRow {
            id,
            game: game.to_owned(),
            invite_code,
            spectator_code,
            status,
            public: self.settings.public,
            // Our own plain data always serializes.
            doc: serde_json::to_value(self).unwrap_or(serde_json::Value::Null),
            updated_at_ms: now_ms(),
        }
    }

    /// The seat of the player with this token hash.
    pub fn seat_of(&self, player: Option<&str>) -> Option<Seat> {
        let player = player?;
        self.seats
            .iter()
            .position(|s| matches!(s, SeatDoc::Human { token_hash, .. } if token_hash == player))
            .and_then(|i| Seat::try_from(i).ok())
    }

    /// The player with this token hash.
    pub fn player(&self, hash: &str) -> Option<&PlayerDoc> {
        self.players.iter().find(|p| p.token_hash == hash)
    }

    /// The name of the player with this token hash.
    pub fn player_name(&self, hash: &str) -> Option<&str> {
        self.player(hash).map(|p| p.name.as_str())
    }

    pub fn host_name(&self) -> &str {
        self.player_name(&self.host).unwrap_or_default()
    }

    /// Seats held by a player or a bot.
    pub fn seats_taken(&self) -> u8 {
        let n = self.seats.iter().filter(|s| **s != SeatDoc::Empty).count();
        u8::try_from(n).unwrap_or(u8::MAX)
    }

    /// The index of `seat`, if the table has it.
    pub fn seat_index(&self, seat: Seat) -> Result<usize, Refusal> {
        let i = usize::from(seat);
        if i < self.seats.len() {
            Ok(i)
        } else {
            refuse(ErrorCode::NoSuchSeat)
        }
    }

    /// Keeps in `players` only the host and the players holding a seat: nobody
    /// else needs a token for the table, and finished games keep their players'
    /// names in their own setup.
    pub fn prune_players(&mut self) {
        let TableDoc {
            host,
            players,
            seats,
            ..
        } = self;
        players.retain(|p| {
            p.token_hash == *host
                || seats.iter().any(
                    |s| matches!(s, SeatDoc::Human { token_hash, .. } if *token_hash == p.token_hash),
                )
        });
    }
}

/// Checks table settings; the settings as they are kept (see [`GameKind::check`]).
/// Every table's settings pass here: at creation, when the host changes them,
/// and before each game.
pub fn check_settings(
    kind: &dyn GameKind,
    settings: &TableSettings,
) -> Result<TableSettings, Refusal> {
    if let Some(s) = settings.turn_seconds
        && !(MIN_TURN_SECONDS..=MAX_TURN_SECONDS).contains(&s)
    {
        return Err(Refusal::with(
            ErrorCode::BadSettings,
            ErrorArgs {
                min: Some(u64::from(MIN_TURN_SECONDS)),
                max: Some(u64::from(MAX_TURN_SECONDS)),
                ..ErrorArgs::reason(ErrorReason::TurnSeconds)
            },
        ));
    }
    if let Some(stand_in) = settings.stand_in
        && !(1..=MAX_STAND_IN_MISSES).contains(&stand_in.after_misses)
    {
        return Err(Refusal::with(
            ErrorCode::BadSettings,
            ErrorArgs {
                min: Some(1),
                max: Some(u64::from(MAX_STAND_IN_MISSES)),
                ..ErrorArgs::reason(ErrorReason::StandInMisses)
            },
        ));
    }
    if let Some(bank) = settings.time_bank_seconds
        && (settings.turn_seconds.is_none()
            || !(MIN_TIME_BANK_SECONDS..=MAX_TIME_BANK_SECONDS).contains(&bank))
    {
        return Err(Refusal::with(
            ErrorCode::BadSettings,
            ErrorArgs {
                min: Some(u64::from(MIN_TIME_BANK_SECONDS)),
                max: Some(u64::from(MAX_TIME_BANK_SECONDS)),
                ..ErrorArgs::reason(ErrorReason::TimeBank)
            },
        ));
    }
    let options = kind
        .check(settings.seats, &settings.options)
        .map_err(|args| Refusal::with(ErrorCode::BadSettings, *args))?;
    Ok(TableSettings {
        options,
        ..settings.clone()
    })
}
