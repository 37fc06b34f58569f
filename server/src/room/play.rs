//! The game at a table: starting one, the move pipeline (seated → his decision →
//! current version → legal → durable → swapped in → fanned out), and the end of
//! a game.

use engine::{EngineRule, Outcome, Rule, Seat};
use protocol::{ErrorArgs, ErrorCode, RawJson, ServerMsg, TableStatus};
use serde_json::Value;
use tokio::time::Instant;
use uuid::Uuid;

use super::away::AWAY_AFTER;
use super::live::{Live, live_from, new_clocks};
use super::{Refusal, Room, check_settings, encode, now_ms, refuse};
use crate::db::{GameRow, MoveRow};
use crate::games::{Applied, MoveError, SetupDoc};

/// Who made a log entry.
#[derive(Clone, Copy, Debug)]
pub(super) enum Mover {
    /// The seat's player, or the bot in the seat.
    Seat(Seat),
    /// The table's stand-in, for a player who is not there.
    StandIn(Seat),
    /// The turn timer ran out.
    Timer,
}

impl Room {
    pub(super) async fn start_game(&mut self) -> Result<(), Refusal> {
        let doc = self.doc.for_a_game()?;
        check_settings(self.kind.as_ref(), &self.doc.settings)?;
        let setup = SetupDoc {
            seats: self.doc.settings.seats,
            seed: random_seed(),
            salt: Some(crate::fairness::new_salt()),
            options: self.doc.settings.options.clone(),
            first_seat: None,
            names: self.doc.seat_names(),
        };
        let state = self.kind.start(&setup).map_err(|e| {
            tracing::warn!(table = %self.id, error = %e, "the game refused its setup");
            Refusal::new(ErrorCode::BadSettings)
        })?;
        let row = GameRow {
            id: Uuid::new_v4(),
            table_id: self.id,
            number: self.games_played + 1,
            setup: serde_json::to_value(&setup).unwrap_or(Value::Null),
            started_at_ms: now_ms(),
            outcome: None,
        };
        let fence = self.fence()?;
        if let Err(e) = self.ctx.db.insert_game_fenced(&row, fence).await {
            tracing::warn!(table = %self.id, error = %e, "starting a game failed");
            self.write_failed(&e);
            return refuse(ErrorCode::TryAgain);
        }
        if self.save(doc, TableStatus::Playing).await.is_err() {
            // The game row is written; a game without an outcome counts as running
            // after a restart, so carry on.
            self.status = TableStatus::Playing;
        }
        self.games_played = row.number;
        let mut live = Live::new(&row, state, &setup, 0);
        live.clocks = new_clocks(
            &self.doc.settings,
            setup.seats,
            live.state.as_ref(),
            row.started_at_ms,
        );
        self.live = Some(live);
        tracing::info!(table = %self.id, game = %row.id, number = row.number, "game started");
        self.schedule();
        self.notify_turns();
        self.broadcast_table();
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        for id in ids {
            self.welcome(id);
            self.send_snapshot(id);
        }
        Ok(())
    }

    // ----- the move pipeline -----

    pub(super) async fn on_move(
        &mut self,
        conn: u64,
        id: u64,
        version: u64,
        mv: RawJson,
    ) -> Result<(), Refusal> {
        let seat = self.playing_seat(conn).await?;
        self.check_version(seat, version)?;
        let Some(live) = self.live.as_ref() else {
            return Ok(());
        };
        if !live.state.awaiting().includes(seat) {
            return refuse(ErrorCode::NotYourTurn);
        }
        let applied = live.state.try_move(seat, &mv)?;
        self.commit(applied, Mover::Seat(seat)).await?;
        self.move_ok(conn, id);
        Ok(())
    }

    /// Takes back the sender's last move, when the game allows it
    /// (`engine::Game::may_take_back`): logged and shown as any move is.
    pub(super) async fn on_undo(
        &mut self,
        conn: u64,
        id: u64,
        version: u64,
    ) -> Result<(), Refusal> {
        let seat = self.playing_seat(conn).await?;
        let Some(live) = self.live.as_ref() else {
            return Ok(());
        };
        // Nothing to take back says more than a stale version would (the
        // reveal that ended the chance also began a new period).
        if live.state.undo_seat() != Some(seat) {
            return Err(MoveError::Illegal {
                rule: EngineRule::NothingToUndo.code(),
                args: None,
            }
            .into());
        }
        self.check_version(seat, version)?;
        let Some(live) = self.live.as_ref() else {
            return Ok(());
        };
        let applied = live.state.try_undo(seat)?;
        self.commit(applied, Mover::Seat(seat)).await?;
        self.move_ok(conn, id);
        Ok(())
    }

    /// The seat of a move's sender, once the game is on and fresh.
    async fn playing_seat(&mut self, conn: u64) -> Result<Seat, Refusal> {
        if self.live.is_none() || self.status != TableStatus::Playing {
            return refuse(ErrorCode::WrongStatus);
        }
        let seat = self.require_seat(conn)?;
        self.ensure_fresh().await?;
        Ok(seat)
    }

    /// A move made on `version` must still hold: the client must look at the
    /// game again (resync) before deciding when it does not, whatever else is
    /// true of the move.
    fn check_version(&self, seat: Seat, version: u64) -> Result<(), Refusal> {
        match self.live.as_ref() {
            Some(live) if live.is_stale(seat, version) => Err(Refusal::with(
                ErrorCode::StaleVersion,
                ErrorArgs {
                    version: Some(live.version),
                    ..ErrorArgs::default()
                },
            )),
            Some(_) => Ok(()),
            None => refuse(ErrorCode::WrongStatus),
        }
    }

    fn move_ok(&mut self, conn: u64, id: u64) {
        let version = self.live.as_ref().map_or(0, |l| l.version);
        self.send(conn, encode(&ServerMsg::MoveOk { id, version }));
    }

    /// Reloads the game from the log after a failed commit (the commit may have
    /// landed even though it reported an error).
    pub(super) async fn ensure_fresh(&mut self) -> Result<(), Refusal> {
        if !self.live.as_ref().is_some_and(|l| l.dirty) {
            return Ok(());
        }
        let loaded = self.ctx.db.latest_game(self.id).await;
        let (game, moves) = match loaded {
            Ok(Some(x)) => x,
            Ok(None) => {
                return refuse(ErrorCode::TryAgain);
            }
            Err(e) => {
                tracing::warn!(table = %self.id, error = %e, "reloading the game failed");
                return refuse(ErrorCode::TryAgain);
            }
        };
        let (live, _) =
            live_from(self.kind.as_ref(), &self.doc.settings, &game, &moves).map_err(|e| {
                tracing::error!(table = %self.id, error = %e, "the move log does not replay");
                Refusal::new(ErrorCode::TryAgain)
            })?;
        let changed = self.live.as_ref().map(|l| l.version) != Some(live.version);
        self.live = Some(live);
        self.schedule();
        if changed {
            let ids: Vec<u64> = self.conns.keys().copied().collect();
            for id in ids {
                self.send_snapshot(id);
            }
        }
        Ok(())
    }

    /// Persists an applied entry, then makes it current and tells everyone.
    /// On a store error nothing changes in memory.
    pub(super) async fn commit(&mut self, applied: Applied, mover: Mover) -> Result<(), Refusal> {
        let away_after = self
            .doc
            .settings
            .stand_in
            .map_or(AWAY_AFTER, |s| s.after_misses);
        let fence = self.fence()?;
        let Some(live) = self.live.as_mut() else {
            return Ok(());
        };
        let at_ms = now_ms();
        let row = MoveRow {
            game_id: live.id,
            seq: i64::try_from(live.version).unwrap_or(i64::MAX),
            entry: applied.entry,
            at_ms,
        };
        let started = Instant::now();
        if let Err(e) = self.ctx.db.append_fenced(row, fence).await {
            tracing::warn!(table = %self.id, error = %e, "committing a move failed");
            live.dirty = true;
            self.write_failed(&e);
            return refuse(ErrorCode::TryAgain);
        }
        self.ctx
            .metrics
            .commit_seconds
            .observe(started.elapsed().as_secs_f64());
        self.ctx.metrics.moves.inc();
        let previous = live.state.awaiting();
        let previous_undo = live.state.undo_seat();
        live.state = applied.state;
        live.version += 1;
        let awaiting = live.state.awaiting();
        if awaiting.period != previous.period {
            live.period_start = live.version;
        }
        // The same time the log keeps, so a replay finds the same banks.
        if let Some(clocks) = live.clocks.as_mut() {
            clocks.after_entry(&awaiting, at_ms);
        }
        let awaiting_changed = awaiting != previous || live.state.undo_seat() != previous_undo;
        let seat = match mover {
            Mover::Seat(seat) | Mover::StandIn(seat) => Some(seat),
            Mover::Timer => None,
        };
        if let Some(slot) = seat.and_then(|seat| live.moved_at.get_mut(usize::from(seat))) {
            *slot = live.version;
        }
        let outcome = live.state.outcome();

        // Away streaks (ruling O1): a seat's own move ends its streak; a
        // stand-in's leaves the seat away.
        let away = match mover {
            Mover::Seat(seat) => live
                .away
                .after_entry(Some(seat), &previous.seats, away_after),
            Mover::Timer => live.away.after_entry(None, &previous.seats, away_after),
            Mover::StandIn(_) => Vec::new(),
        };

        self.schedule();
        self.fan_out(&applied.events, outcome.clone(), awaiting_changed);
        self.notify_turns();

        self.set_away(&away).await;
        if let Some(outcome) = outcome {
            self.finish(outcome).await;
        }
        Ok(())
    }

    /// Saves and shows seats' new away flags, if any changed. Best effort: the
    /// flag is advisory and rebuilt by later timeouts.
    pub(super) async fn set_away(&mut self, changes: &[(Seat, bool)]) {
        if let Some(doc) = self.doc.with_away(changes) {
            if self.save_doc(doc).await.is_err() {
                tracing::warn!(table = %self.id, "could not save away flags");
            }
            self.broadcast_table();
        }
    }

    pub(super) async fn finish(&mut self, outcome: Outcome) {
        let Some(live) = self.live.as_mut() else {
            return;
        };
        live.timer = None;
        live.bot_due = None;
        let game_id = live.id;
        let number = live.number;
        let value = serde_json::to_value(&outcome).unwrap_or(Value::Null);
        let written = match self.fence() {
            Ok(fence) => self.ctx.db.finish_game_fenced(game_id, &value, fence).await,
            Err(_) => return,
        };
        if let Err(e) = written {
            // The outcome follows from the log; a restart recomputes it.
            tracing::warn!(table = %self.id, error = %e, "saving the outcome failed");
            self.write_failed(&e);
            if e.is_fenced() {
                return;
            }
        }
        if self
            .save(self.doc.clone(), TableStatus::Finished)
            .await
            .is_err()
        {
            self.status = TableStatus::Finished;
        }
        tracing::info!(table = %self.id, game = %game_id, number, "game finished");
        self.broadcast_table();
    }
}

pub(super) fn random_seed() -> u64 {
    let b = Uuid::new_v4().into_bytes();
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[9], b[10]])
}
