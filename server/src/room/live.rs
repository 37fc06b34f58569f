//! A game in memory: its state, version, timers, the viewers' last views and the
//! latest moves' events; rebuilt from the move log when a room loads.

use std::collections::VecDeque;

use engine::{Entry, GameRng, Seat};
use protocol::{LoggedEvents, RawJson, TableSettings};
use tokio::time::Instant;
use uuid::Uuid;

use super::away::AwayStreaks;
use super::clocks::Clocks;
use crate::db::{GameRow, MoveRow};
use crate::fanout::ViewCache;
use crate::games::{ErasedGame, GameKind, SetupDoc};

/// Moves whose events are kept for the game log of people who join later.
const RECENT_EVENTS: usize = 60;

pub(super) struct Timer {
    pub(super) period: u64,
    pub(super) deadline: Instant,
}

impl Timer {
    /// Milliseconds left until the deadline.
    pub(super) fn left_ms(&self) -> u64 {
        u64::try_from(
            self.deadline
                .saturating_duration_since(Instant::now())
                .as_millis(),
        )
        .unwrap_or(u64::MAX)
    }
}

/// A game in progress or just finished.
pub(super) struct Live {
    pub(super) id: Uuid,
    pub(super) number: i32,
    pub(super) state: Box<dyn ErasedGame>,
    /// Number of log entries.
    pub(super) version: u64,
    /// Version at which the current decision period began (see [`Live::is_stale`]).
    pub(super) period_start: u64,
    /// Per seat: the version right after that seat's latest own move.
    pub(super) moved_at: Vec<u64>,
    /// Every viewer's view at `version`.
    pub(super) views: ViewCache,
    pub(super) timer: Option<Timer>,
    pub(super) bot_due: Option<Instant>,
    pub(super) bot_rng: GameRng,
    /// SHA-256 of the seed and salt, shown to everyone (`fairness.rs`).
    pub(super) commitment: Option<String>,
    /// Each seat's timeouts in a row.
    pub(super) away: AwayStreaks,
    /// A commit failed: the log may hold more than memory; reload before the next move.
    pub(super) dirty: bool,
    pub(super) recent: RecentEvents,
    /// The players' time banks, at a table that has them (`clocks.rs`).
    pub(super) clocks: Option<Clocks>,
    /// Per seat: the decision period its webhook was last told of.
    pub(super) notified: Vec<Option<u64>>,
    /// The decision period whose "time runs low" moment has passed.
    pub(super) low_told: Option<u64>,
}

/// The events of the latest moves that had any, as JSON text (smaller than
/// `Value` trees, and already serialized for the updates).
#[derive(Default)]
pub(super) struct RecentEvents(VecDeque<(u64, Box<str>)>);

impl RecentEvents {
    pub(super) fn push(&mut self, version: u64, events_json: &str) {
        if events_json == "[]" {
            return;
        }
        if self.0.len() == RECENT_EVENTS {
            self.0.pop_front();
        }
        self.0.push_back((version, events_json.into()));
    }

    pub(super) fn logged(&self) -> Vec<LoggedEvents> {
        self.0
            .iter()
            .map(|(version, json)| LoggedEvents {
                version: *version,
                events: serde_json::from_str(json).unwrap_or_default(),
            })
            .collect()
    }
}

/// The bots' randomness for a game with this seed (separate from the game's own).
pub fn bot_seed(seed: u64) -> u64 {
    seed ^ 0x9e37_79b9_7f4a_7c15
}

pub(super) fn timeout_entry(period: u64) -> RawJson {
    // A plain struct of numbers always serializes.
    RawJson::of(&Entry::<()>::Timeout { period }).unwrap_or_default()
}

impl Live {
    /// A game at `version` (its number of log entries).
    pub(super) fn new(
        game: &GameRow,
        state: Box<dyn ErasedGame>,
        setup: &SetupDoc,
        version: u64,
    ) -> Live {
        let seats = usize::from(setup.seats);
        Live {
            id: game.id,
            number: game.number,
            bot_rng: GameRng::new(bot_seed(setup.seed)),
            commitment: setup
                .salt
                .as_deref()
                .and_then(|salt| crate::fairness::commitment(setup.seed, salt)),
            views: ViewCache::new(state.as_ref(), setup.seats),
            state,
            version,
            // Where the current period began is unknown after a replay: count it
            // from here, so only moves made on the rebuilt state are accepted.
            period_start: version,
            moved_at: vec![0; seats],
            timer: None,
            bot_due: None,
            away: AwayStreaks::new(seats),
            dirty: false,
            recent: RecentEvents::default(),
            clocks: None,
            notified: vec![None; seats],
            low_told: None,
        }
    }

    /// A move made on `version` is stale when anything it could depend on changed
    /// since: a new decision period began, or the same seat moved again. Other seats'
    /// decisions in the same period (simultaneous rounds, trade answers) don't make
    /// it stale, so players deciding at once don't refuse each other's moves; the game
    /// itself refuses a second decision of one seat in one round.
    pub(super) fn is_stale(&self, seat: Seat, version: u64) -> bool {
        let own_last = self.moved_at.get(usize::from(seat)).copied().unwrap_or(0);
        version > self.version || version < self.period_start || version < own_last
    }
}

/// A game rebuilt from its stored log.
pub struct Replayed {
    pub setup: SetupDoc,
    pub state: Box<dyn ErasedGame>,
    /// When the current decision period began: the time of the entry that
    /// began it, or of the game's start.
    pub period_started_ms: i64,
    /// The players' time banks, at a table that has them.
    pub clocks: Option<Clocks>,
}

impl Replayed {
    /// The time the current decision period gives, if it is timed: a
    /// rules-imposed window, else the turn's time (and the largest reserve
    /// among the awaited seats, at a table with time banks).
    pub fn period_ms(&self, settings: &TableSettings) -> Option<u64> {
        period_ms(self.state.as_ref(), self.clocks.as_ref(), settings)
    }
}

/// The time the current decision period of `state` gives, if it is timed.
pub(super) fn period_ms(
    state: &dyn ErasedGame,
    clocks: Option<&Clocks>,
    settings: &TableSettings,
) -> Option<u64> {
    let turn = settings.turn_seconds.map(|s| u64::from(s) * 1000);
    state
        .awaiting()
        .window_ms
        .or_else(|| clocks.map(Clocks::period_ms))
        .or(turn)
}

/// The time banks a new game at a table with `settings` starts with, if any.
pub(super) fn new_clocks(
    settings: &TableSettings,
    seats: u8,
    state: &dyn ErasedGame,
    started_ms: i64,
) -> Option<Clocks> {
    let turn = settings.turn_seconds?;
    let cap = settings.time_bank_seconds?;
    Some(Clocks::new(
        seats,
        u64::from(turn) * 1000,
        u64::from(cap) * 1000,
        &state.awaiting(),
        started_ms,
    ))
}

/// Rebuilds a game from its stored log, handing each entry's public events
/// (as JSON text) to `on_events` with the version the entry made.
pub fn replay_log(
    kind: &dyn GameKind,
    settings: &TableSettings,
    game: &GameRow,
    moves: &[MoveRow],
    mut on_events: impl FnMut(u64, &str),
) -> Result<Replayed, String> {
    let setup: SetupDoc =
        serde_json::from_value(game.setup.clone()).map_err(|e| format!("setup: {e}"))?;
    let entries: Vec<&RawJson> = moves.iter().map(|m| &m.entry).collect();
    let start = kind.start(&setup)?;
    let mut clocks = new_clocks(settings, setup.seats, start.as_ref(), game.started_at_ms);
    let mut period = start.awaiting().period;
    let mut period_started_ms = game.started_at_ms;
    let state = kind.replay(&setup, &entries, &mut |index, events, after| {
        on_events(
            index as u64 + 1,
            &serde_json::to_string(&events).unwrap_or_default(),
        );
        let at_ms = moves.get(index).map_or(period_started_ms, |m| m.at_ms);
        if let Some(clocks) = clocks.as_mut() {
            clocks.after_entry(after, at_ms);
        }
        // A turn of several moves is one period: its timer runs from the entry
        // that began it, not from the turn's latest move.
        if after.period != period {
            period = after.period;
            period_started_ms = at_ms;
        }
    })?;
    Ok(Replayed {
        setup,
        state,
        period_started_ms,
        clocks,
    })
}

/// Rebuilds a running game from its log; with it, when its current decision
/// period began.
pub(super) fn live_from(
    kind: &dyn GameKind,
    settings: &TableSettings,
    game: &GameRow,
    moves: &[MoveRow],
) -> Result<(Live, i64), String> {
    // Every entry goes through the ring, as during play, so a reloaded room keeps
    // the same moves' events as the room it replaces.
    let mut recent = RecentEvents::default();
    let replayed = replay_log(kind, settings, game, moves, |version, events| {
        recent.push(version, events)
    })?;
    let mut live = Live::new(game, replayed.state, &replayed.setup, moves.len() as u64);
    live.recent = recent;
    live.clocks = replayed.clocks;
    Ok((live, replayed.period_started_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_events_keep_the_latest_moves_with_events() {
        let mut recent = RecentEvents::default();
        for version in 1..=(3 * RECENT_EVENTS as u64) {
            let events = if version % 2 == 0 {
                "[]".to_owned()
            } else {
                format!(r#"[{{"n":{version}}}]"#)
            };
            recent.push(version, &events);
        }
        let logged = recent.logged();
        assert_eq!(logged.len(), RECENT_EVENTS);
        assert!(logged.iter().all(|l| l.version % 2 == 1));
        let last = logged.last().expect("some events");
        assert_eq!(last.version, 3 * RECENT_EVENTS as u64 - 1);
        assert_eq!(last.events, vec![serde_json::json!({"n": last.version})]);
        assert!(logged.windows(2).all(|w| w[0].version < w[1].version));
    }
}
