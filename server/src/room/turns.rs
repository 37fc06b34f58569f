//! Turn timers, bots and stand-ins: when the current decision period's timer
//! runs out, when a bot's decision is due, and when the table's stand-in bot
//! plays for a player who is away or gone; all feed the move pipeline like a
//! person.

use std::time::Duration;

use tokio::time::Instant;

use engine::{BotLevel, Seat};
use protocol::RawJson;
use serde_json::Value;

use super::live::{Timer, period_ms, timeout_entry};
use super::play::Mover;
use super::{Refusal, Room, SeatDoc};

/// Pause before retrying a bot move or a timeout after the store failed.
const RETRY: Duration = Duration::from_secs(1);

/// A seat played without a person.
struct Autoplay {
    level: BotLevel,
    /// When it may play.
    from: Instant,
    /// The table's stand-in for an absent player, not a bot seat.
    stand_in: bool,
}

/// A move's log entry marked as the stand-in's (`{"move": {..., "stand_in":
/// "greedy"}}`): the games read the move and ignore the mark; the record shows it.
fn stand_in_entry(entry: &RawJson, level: BotLevel) -> RawJson {
    let Ok(mut value) = entry.to_value() else {
        return entry.clone();
    };
    if let Some(Value::Object(mv)) = value.get_mut("move") {
        mv.insert(
            "stand_in".into(),
            serde_json::to_value(level).unwrap_or(Value::Null),
        );
    }
    RawJson::of(&value).unwrap_or_else(|_| entry.clone())
}

impl Room {
    /// Sets the turn timer for the current period and the next bot move.
    pub(super) fn schedule(&mut self) {
        let settings = &self.doc.settings;
        let bot_delay = self.ctx.bot_delay;
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let awaiting = live.state.awaiting();
        if live.state.outcome().is_some() || awaiting.seats.is_empty() {
            live.timer = None;
            live.bot_due = None;
            return;
        }
        if live
            .timer
            .as_ref()
            .is_none_or(|t| t.period != awaiting.period)
        {
            let ms = period_ms(live.state.as_ref(), live.clocks.as_ref(), settings);
            live.timer = ms.map(|ms| Timer {
                period: awaiting.period,
                deadline: Instant::now() + Duration::from_millis(ms),
            });
        }
        let now = Instant::now();
        let due = awaiting
            .seats
            .iter()
            .filter_map(|&seat| self.autoplay(seat))
            .map(|auto| auto.from.max(now + bot_delay))
            .min();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        // An earlier time stays: `on_bot` looks again when it comes.
        live.bot_due = match (live.bot_due, due) {
            (_, None) => None,
            (Some(old), Some(new)) => Some(old.min(new)),
            (None, new) => new,
        };
    }

    /// Who plays `seat` without a person: the bot in it, or the table's
    /// stand-in for a player who is away (his turns timed out) or gone (his
    /// last connection closed `left_grace` ago, or he has not come back since
    /// the room was loaded), and from when.
    fn autoplay(&self, seat: Seat) -> Option<Autoplay> {
        match self.doc.seats.get(usize::from(seat))? {
            // (Due since the room was loaded: at once.)
            SeatDoc::Bot { level } => Some(Autoplay {
                level: *level,
                from: self.loaded_at,
                stand_in: false,
            }),
            SeatDoc::Human { token_hash, away } => {
                let level = self.doc.settings.stand_in?.level;
                let from = if *away {
                    self.loaded_at
                } else if self.has_page(token_hash) {
                    return None;
                } else {
                    let gone = self.gone_since.get(token_hash).copied();
                    gone.unwrap_or(self.loaded_at) + self.ctx.left_grace
                };
                Some(Autoplay {
                    level,
                    from,
                    stand_in: true,
                })
            }
            SeatDoc::Empty => None,
        }
    }

    pub(super) async fn on_bot(&mut self) {
        if self.ensure_fresh().await.is_err() {
            if let Some(live) = self.live.as_mut() {
                live.bot_due = Some(Instant::now() + RETRY);
            }
            return;
        }
        let Some(live) = self.live.as_mut() else {
            return;
        };
        live.bot_due = None;
        let awaiting = live.state.awaiting();
        let now = Instant::now();
        let chosen = awaiting.seats.iter().find_map(|&seat| {
            self.autoplay(seat)
                .filter(|auto| auto.from <= now)
                .map(|auto| (seat, auto))
        });
        let Some((seat, auto)) = chosen else {
            // Nobody to play yet (a player came back, or is not gone long enough).
            self.schedule();
            return;
        };
        if auto.stand_in {
            // The stand-in takes a gone player's seat: the seat is marked away,
            // so everyone sees a bot play for him.
            self.set_away(&[(seat, true)]).await;
        }
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let applied = match live.state.bot_move(seat, auto.level, &mut live.bot_rng) {
            Some(mv) => live.state.try_move(seat, &mv),
            None => live.state.try_entry(&timeout_entry(awaiting.period)),
        };
        let mut applied = match applied {
            Ok(a) => a,
            Err(e) => {
                tracing::error!(table = %self.id, seat, error = ?e, "a bot chose a refused move; its turn times out");
                match live.state.try_entry(&timeout_entry(awaiting.period)) {
                    Ok(a) => a,
                    Err(_) => return,
                }
            }
        };
        let mover = if auto.stand_in {
            applied.entry = stand_in_entry(&applied.entry, auto.level);
            Mover::StandIn(seat)
        } else {
            Mover::Seat(seat)
        };
        if self.commit(applied, mover).await.is_err()
            && let Some(live) = self.live.as_mut()
        {
            live.bot_due = Some(Instant::now() + RETRY);
        }
    }

    /// A player the stand-in plays for is back (`back`, or a new connection
    /// with his token): he plays his seat again from his next decision.
    pub(super) async fn on_back(&mut self, conn: u64) -> Result<(), Refusal> {
        let seat = self.require_seat(conn)?;
        if self.doc.settings.stand_in.is_none() {
            return Ok(());
        }
        if let Some(live) = self.live.as_mut() {
            live.away.reset(seat);
        }
        self.set_away(&[(seat, false)]).await;
        self.schedule();
        Ok(())
    }

    pub(super) async fn on_timer(&mut self) {
        if self.ensure_fresh().await.is_err() {
            if let Some(timer) = self.live.as_mut().and_then(|l| l.timer.as_mut()) {
                timer.deadline = Instant::now() + RETRY;
            }
            return;
        }
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let Some(timer) = live.timer.take() else {
            return;
        };
        let awaiting = live.state.awaiting();
        if awaiting.period != timer.period || live.state.outcome().is_some() {
            self.schedule();
            return;
        }
        let applied = match live.state.try_entry(&timeout_entry(timer.period)) {
            Ok(a) => a,
            Err(e) => {
                tracing::error!(table = %self.id, error = ?e, "the game refused its own timeout");
                return;
            }
        };
        tracing::info!(table = %self.id, period = timer.period, "turn timer ran out");
        if self.commit(applied, Mover::Timer).await.is_err()
            && let Some(live) = self.live.as_mut()
        {
            live.timer = Some(Timer {
                period: timer.period,
                deadline: Instant::now() + RETRY,
            });
        }
    }
}
