//! Turn timers and bots: when the current decision period's timer runs out, and
//! when a bot's decision is due; both feed the move pipeline like a person.

use std::time::Duration;

use tokio::time::Instant;

use super::live::{Timer, timeout_entry};
use super::{Room, SeatDoc};

/// Pause before retrying a bot move or a timeout after the store failed.
const RETRY: Duration = Duration::from_secs(1);

impl Room {
    /// Sets the turn timer for the current period and the next bot move.
    pub(super) fn schedule(&mut self) {
        let turn_seconds = self.doc.settings.turn_seconds;
        let bot_delay = self.ctx.bot_delay;
        let seats = self.doc.seats.clone();
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
            let ms = awaiting
                .window_ms
                .or(turn_seconds.map(|s| u64::from(s) * 1000));
            live.timer = ms.map(|ms| Timer {
                period: awaiting.period,
                deadline: Instant::now() + Duration::from_millis(ms),
            });
        }
        let bot_awaited = awaiting
            .seats
            .iter()
            .any(|&s| matches!(seats.get(usize::from(s)), Some(SeatDoc::Bot { .. })));
        if !bot_awaited {
            live.bot_due = None;
        } else if live.bot_due.is_none() {
            live.bot_due = Some(Instant::now() + bot_delay);
        }
    }

    pub(super) async fn on_bot(&mut self) {
        if self.ensure_fresh().await.is_err() {
            if let Some(live) = self.live.as_mut() {
                live.bot_due = Some(Instant::now() + RETRY);
            }
            return;
        }
        let seats = self.doc.seats.clone();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        live.bot_due = None;
        let awaiting = live.state.awaiting();
        let Some((seat, level)) =
            awaiting
                .seats
                .iter()
                .find_map(|&s| match seats.get(usize::from(s)) {
                    Some(SeatDoc::Bot { level }) => Some((s, *level)),
                    _ => None,
                })
        else {
            return;
        };
        let applied = match live.state.bot_move(seat, level, &mut live.bot_rng) {
            Some(mv) => live.state.try_move(seat, &mv),
            None => live.state.try_entry(&timeout_entry(awaiting.period)),
        };
        let applied = match applied {
            Ok(a) => a,
            Err(e) => {
                tracing::error!(table = %self.id, seat, error = ?e, "a bot chose a refused move; its turn times out");
                match live.state.try_entry(&timeout_entry(awaiting.period)) {
                    Ok(a) => a,
                    Err(_) => return,
                }
            }
        };
        if self.commit(applied, Some(seat)).await.is_err()
            && let Some(live) = self.live.as_mut()
        {
            live.bot_due = Some(Instant::now() + RETRY);
        }
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
        if self.commit(applied, None).await.is_err()
            && let Some(live) = self.live.as_mut()
        {
            live.timer = Some(Timer {
                period: timer.period,
                deadline: Instant::now() + RETRY,
            });
        }
    }
}
