//! The table document the store keeps (`table.doc`): settings, host, players
//! and seats; and the checks over it.

use engine::BotLevel;
use protocol::{ErrorCode, TableSettings, TableStatus};
use serde::{Deserialize, Serialize};

use super::{Refusal, refuse};
use crate::games::GameKind;

/// Shortest turn timer a host may set.
pub const MIN_TURN_SECONDS: u32 = 5;

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
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatDoc {
    Empty,
    Human { token_hash: String, away: bool },
    Bot { level: BotLevel },
}

pub fn status_str(status: TableStatus) -> &'static str {
    match status {
        TableStatus::Lobby => "lobby",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
    }
}

/// Keeps in `doc.players` only the host and the players holding a seat: nobody
/// else needs a token for the table, and finished games keep their players'
/// names in their own setup.
pub(super) fn prune_players(doc: &mut TableDoc) {
    let TableDoc {
        host,
        players,
        seats,
        ..
    } = doc;
    players.retain(|p| {
        p.token_hash == *host
            || seats.iter().any(
                |s| matches!(s, SeatDoc::Human { token_hash, .. } if *token_hash == p.token_hash),
            )
    });
}

/// Checks table settings; the settings as they are kept (see [`GameKind::check`]).
pub fn check_settings(
    kind: &dyn GameKind,
    settings: &TableSettings,
) -> Result<TableSettings, Refusal> {
    if let Some(s) = settings.turn_seconds
        && !(MIN_TURN_SECONDS..=86_400).contains(&s)
    {
        return refuse(
            ErrorCode::BadSettings,
            &format!("A turn timer lasts {MIN_TURN_SECONDS} seconds to one day."),
        );
    }
    let options = kind
        .check(settings.seats, &settings.options)
        .map_err(|message| (ErrorCode::BadSettings, message))?;
    Ok(TableSettings {
        options,
        ..settings.clone()
    })
}
