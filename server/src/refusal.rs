//! Refusals as they leave the server: a stable [`ErrorCode`], the game's rule code
//! for an illegal move, and the typed arguments a sentence needs. No sentence
//! travels: each client says it in its language (`web/src/messages.js`).
//!
//! [`english`] is the one English rendering on the server, for its log only.

use axum::extract::ws::Utf8Bytes;
use protocol::{ErrorArgs, ErrorCode, ErrorReason, ServerMsg};
use serde_json::Value;

use crate::games::MoveError;

/// A refused request: what the client is told (nothing changed).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub code: ErrorCode,
    /// The game's own code when `code` is `illegal_move`.
    pub rule: Option<&'static str>,
    /// The sentence's arguments: [`ErrorArgs`], or the game rule's `args`.
    pub args: Option<Value>,
}

impl Refusal {
    /// A refusal whose sentence needs nothing but its code.
    pub fn new(code: ErrorCode) -> Refusal {
        Refusal {
            code,
            rule: None,
            args: None,
        }
    }

    /// A refusal with the arguments its sentence needs.
    pub fn with(code: ErrorCode, args: ErrorArgs) -> Refusal {
        Refusal {
            code,
            rule: None,
            args: serde_json::to_value(args).ok(),
        }
    }

    /// `bad_settings` (or another code) for one of its [`ErrorReason`]s.
    pub fn reason(code: ErrorCode, reason: ErrorReason) -> Refusal {
        Refusal::with(code, ErrorArgs::reason(reason))
    }

    /// The `error` message for a client (`id` echoes a move's id), logged in English.
    pub fn msg(&self, id: Option<u64>) -> Utf8Bytes {
        tracing::debug!(code = ?self.code, rule = self.rule, "refused: {}", english(self));
        let msg = ServerMsg::Error {
            code: self.code,
            id,
            rule: self.rule.map(str::to_owned),
            args: self.args.clone(),
        };
        // Our own message types always serialize.
        serde_json::to_string(&msg).unwrap_or_default().into()
    }
}

impl From<ErrorCode> for Refusal {
    fn from(code: ErrorCode) -> Refusal {
        Refusal::new(code)
    }
}

impl From<MoveError> for Refusal {
    fn from(e: MoveError) -> Refusal {
        match e {
            MoveError::BadMove(detail) => {
                tracing::debug!(%detail, "not a move of this game");
                Refusal::new(ErrorCode::BadMove)
            }
            MoveError::Illegal { rule, args } => Refusal {
                code: ErrorCode::IllegalMove,
                rule: Some(rule),
                args,
            },
        }
    }
}

/// The refusal in English, for the server's log (clients render their own).
pub fn english(r: &Refusal) -> String {
    let a: ErrorArgs = r
        .args
        .as_ref()
        .filter(|_| r.rule.is_none())
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    let n = |x: Option<u64>| x.map_or_else(|| "?".to_owned(), |x| x.to_string());
    match r.code {
        ErrorCode::BadMessage => "That is not a message this server understands.".into(),
        ErrorCode::FrameTooLarge => format!(
            "Messages are at most {} bytes.",
            n(a.max_bytes.map(u64::from))
        ),
        ErrorCode::RateLimited => match a.retry_after_ms {
            Some(ms) => format!("Too many requests. Try again in {ms} ms."),
            None => "Too many requests. Slow down.".into(),
        },
        ErrorCode::HelloFirst => "Say hello first.".into(),
        ErrorCode::NoSuchTable => "There is no table with that code.".into(),
        ErrorCode::BadToken => "That seat token does not belong to this table.".into(),
        ErrorCode::NotHost => "Only the host may do that.".into(),
        ErrorCode::SeatTaken => "That seat is taken.".into(),
        ErrorCode::NotSeated => "You do not hold a seat at this table.".into(),
        ErrorCode::NoSpectators => "This table does not allow spectators.".into(),
        ErrorCode::WrongStatus => "Not possible in the table's current status.".into(),
        ErrorCode::BadSettings => match a.reason {
            Some(ErrorReason::UnknownGame) => "This server has no such game.".into(),
            Some(ErrorReason::Seats) => {
                format!(
                    "The game is played by {} to {} players.",
                    n(a.min),
                    n(a.max)
                )
            }
            Some(ErrorReason::FirstSeat) => "The starting seat is not at the table.".into(),
            Some(ErrorReason::OptionRange) => format!(
                "The option {} lies between {} and {}.",
                a.option.as_deref().unwrap_or("?"),
                n(a.min),
                n(a.max)
            ),
            Some(ErrorReason::OptionInvalid) => {
                let item = a.item.map(|i| format!(" (entry {i})")).unwrap_or_default();
                let limit = a.max.map(|m| format!(", limit {m}")).unwrap_or_default();
                format!(
                    "The option {}{item} is refused: {}{limit}.",
                    a.option.as_deref().unwrap_or("?"),
                    a.problem.as_deref().unwrap_or("?"),
                )
            }
            Some(ErrorReason::NotOptions) => "These are not options of this game.".into(),
            Some(ErrorReason::TurnSeconds) => {
                format!("A turn timer lasts {} to {} seconds.", n(a.min), n(a.max))
            }
            Some(ErrorReason::SeatsOccupied) => "Free the seats you want to remove first.".into(),
            Some(ErrorReason::EmptySeats) => "Every seat needs a player or a bot.".into(),
            Some(ErrorReason::TimeBank) => format!(
                "A time bank holds {} to {} seconds, beside a turn timer.",
                n(a.min),
                n(a.max)
            ),
            Some(ErrorReason::Webhook) => format!(
                "A webhook is an https URL of at most {} characters, at a turn-based table.",
                n(a.max_chars.map(u64::from))
            ),
            Some(ErrorReason::StandInMisses) => format!(
                "A bot stands in after {} to {} missed turns.",
                n(a.min),
                n(a.max)
            ),
            None => "These settings are not valid for this game.".into(),
        },
        ErrorCode::StaleVersion => format!(
            "That move was made on an older version; the game is at version {}. Nothing was applied.",
            n(a.version)
        ),
        ErrorCode::NotYourTurn => "It is not your turn to decide.".into(),
        ErrorCode::IllegalMove => {
            let args = r.args.as_ref().map(Value::to_string).unwrap_or_default();
            format!(
                "The game refused the move: {} {args}",
                r.rule.unwrap_or("?")
            )
        }
        ErrorCode::BadMove => "That is not a move of this game.".into(),
        ErrorCode::BadChat => format!(
            "A chat message has 1 to {} characters.",
            n(a.max_chars.map(u64::from))
        ),
        ErrorCode::TryAgain => "The server could not do that now. Try again.".into(),
        ErrorCode::BadName => format!(
            "A name has 1 to {} characters, none of them control characters.",
            n(a.max_chars.map(u64::from))
        ),
        ErrorCode::BadLegalMovesOf => format!(
            "A legal-move request names at most {} characters.",
            n(a.max_chars.map(u64::from))
        ),
        ErrorCode::NoSuchSeat => "There is no such seat.".into(),
        ErrorCode::Spectator => "Spectators cannot take a seat.".into(),
        ErrorCode::TableElsewhere => {
            "This table is served elsewhere right now. Try again in a moment.".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_carries_codes_and_arguments_only() {
        let r = Refusal::with(
            ErrorCode::BadChat,
            ErrorArgs {
                max_chars: Some(500),
                ..ErrorArgs::default()
            },
        );
        let v: Value = serde_json::from_str(r.msg(Some(3)).as_str()).unwrap_or_default();
        assert_eq!(
            v,
            serde_json::json!({"type": "error", "code": "bad_chat", "id": 3, "args": {"max_chars": 500}})
        );
        assert_eq!(english(&r), "A chat message has 1 to 500 characters.");
    }
}
