//! The lobby: seats and host controls. Each change is a pure function from the
//! table document to the next one (or a refusal), tested without a runtime; the
//! room's handlers below check who asks, persist the new document, then tell
//! everyone.

use engine::{BotLevel, Seat};
use protocol::{ErrorCode, ErrorReason, TableSettings, TableStatus};

use super::{PlayerDoc, Refusal, Room, SeatDoc, TableDoc, check_settings, refuse};
use crate::codes;

impl TableDoc {
    /// `seat` emptied.
    pub fn leave_seat(&self, seat: Seat) -> TableDoc {
        let mut doc = self.clone();
        if let Some(s) = doc.seats.get_mut(usize::from(seat)) {
            *s = SeatDoc::Empty;
        }
        doc
    }

    /// New settings (already checked against the game); the seats beyond the
    /// new count must be free.
    pub fn configure(&self, settings: TableSettings) -> Result<TableDoc, Refusal> {
        let n = usize::from(settings.seats);
        if self.seats.iter().skip(n).any(|s| *s != SeatDoc::Empty) {
            return Err(Refusal::reason(
                ErrorCode::BadSettings,
                ErrorReason::SeatsOccupied,
            ));
        }
        let mut doc = self.clone();
        doc.seats.resize(n, SeatDoc::Empty);
        doc.settings = settings;
        Ok(doc)
    }

    /// `seat` emptied by the host; with whoever sat there.
    pub fn kick(&self, seat: Seat) -> Result<(TableDoc, SeatDoc), Refusal> {
        let i = self.seat_index(seat)?;
        let mut doc = self.clone();
        let was = std::mem::replace(&mut doc.seats[i], SeatDoc::Empty);
        if was == SeatDoc::Empty {
            return refuse(ErrorCode::NoSuchSeat);
        }
        Ok((doc, was))
    }

    /// The player `hash` (named `name`) in `seat`, or in the first free seat; he
    /// leaves any seat he held. A player who left his seat was dropped from the
    /// players: he is back.
    pub fn take_seat(
        &self,
        seat: Option<Seat>,
        hash: &str,
        name: &str,
    ) -> Result<TableDoc, Refusal> {
        let i = match seat {
            Some(s) => self.seat_index(s)?,
            None => self
                .seats
                .iter()
                .position(|s| *s == SeatDoc::Empty)
                .ok_or(Refusal::new(ErrorCode::SeatTaken))?,
        };
        if self.seats[i] != SeatDoc::Empty {
            return refuse(ErrorCode::SeatTaken);
        }
        let mut doc = self.clone();
        if !doc.players.iter().any(|p| p.token_hash == hash) {
            doc.players.push(PlayerDoc {
                token_hash: hash.to_owned(),
                name: name.to_owned(),
                webhook: None,
            });
        }
        for s in doc.seats.iter_mut() {
            if matches!(s, SeatDoc::Human { token_hash, .. } if token_hash == hash) {
                *s = SeatDoc::Empty;
            }
        }
        doc.seats[i] = SeatDoc::Human {
            token_hash: hash.to_owned(),
            away: false,
        };
        Ok(doc)
    }

    /// A bot in `seat`: an empty seat in the lobby, or during a game the seat of
    /// a player marked away (whose token hash comes back with the document).
    pub fn add_bot(
        &self,
        status: TableStatus,
        seat: Seat,
        level: BotLevel,
    ) -> Result<(TableDoc, Option<String>), Refusal> {
        let i = self.seat_index(seat)?;
        let replaced = match (status, &self.seats[i]) {
            (TableStatus::Lobby, SeatDoc::Empty) => None,
            (TableStatus::Lobby, _) => return refuse(ErrorCode::SeatTaken),
            (
                TableStatus::Playing,
                SeatDoc::Human {
                    token_hash,
                    away: true,
                },
            ) => Some(token_hash.clone()),
            (TableStatus::Playing, _) => {
                return refuse(ErrorCode::SeatTaken);
            }
            (TableStatus::Finished, _) => {
                return refuse(ErrorCode::WrongStatus);
            }
        };
        let mut doc = self.clone();
        doc.seats[i] = SeatDoc::Bot { level };
        Ok((doc, replaced))
    }

    /// The document a new game starts with: every seat taken, nobody away.
    pub fn for_a_game(&self) -> Result<TableDoc, Refusal> {
        if self.seats.contains(&SeatDoc::Empty) {
            return Err(Refusal::reason(
                ErrorCode::BadSettings,
                ErrorReason::EmptySeats,
            ));
        }
        let mut doc = self.clone();
        for s in doc.seats.iter_mut() {
            if let SeatDoc::Human { away, .. } = s {
                *away = false;
            }
        }
        Ok(doc)
    }

    /// The names by seat a game is set up with.
    pub fn seat_names(&self) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| match s {
                SeatDoc::Human { token_hash, .. } => {
                    self.player_name(token_hash).unwrap_or_default().to_owned()
                }
                SeatDoc::Bot { level } => format!("Bot ({})", level_name(*level)),
                SeatDoc::Empty => String::new(),
            })
            .collect()
    }

    /// Seats whose away flag changes, with the new flag. `None` when nothing does.
    pub fn with_away(&self, changes: &[(Seat, bool)]) -> Option<TableDoc> {
        let mut doc = self.clone();
        let mut changed = false;
        for &(seat, now_away) in changes {
            if let Some(SeatDoc::Human { away, .. }) = doc.seats.get_mut(usize::from(seat))
                && *away != now_away
            {
                *away = now_away;
                changed = true;
            }
        }
        changed.then_some(doc)
    }
}

fn level_name(level: BotLevel) -> &'static str {
    match level {
        BotLevel::Random => "random",
        BotLevel::Greedy => "greedy",
    }
}

impl Room {
    pub(super) async fn on_leave_seat(&mut self, conn: u64) -> Result<(), Refusal> {
        self.require_lobby()?;
        let hash = self.conn_player(conn);
        let seat = self.require_seat(conn)?;
        self.save_doc(self.doc.leave_seat(seat)).await?;
        if let Some(hash) = hash {
            self.rewelcome_player(&hash);
        }
        self.broadcast_table();
        Ok(())
    }

    pub(super) async fn on_configure(
        &mut self,
        conn: u64,
        settings: TableSettings,
    ) -> Result<(), Refusal> {
        self.require_host(conn)?;
        self.require_lobby()?;
        let settings = check_settings(self.kind.as_ref(), &settings)?;
        self.save_doc(self.doc.configure(settings)?).await?;
        self.broadcast_table();
        Ok(())
    }

    pub(super) async fn on_kick(&mut self, conn: u64, seat: Seat) -> Result<(), Refusal> {
        self.require_host(conn)?;
        self.require_lobby()?;
        let (doc, was) = self.doc.kick(seat)?;
        self.save_doc(doc).await?;
        if let SeatDoc::Human { token_hash, .. } = was {
            self.rewelcome_player(&token_hash);
        }
        self.broadcast_table();
        Ok(())
    }

    pub(super) async fn on_take_seat(
        &mut self,
        conn: u64,
        seat: Option<Seat>,
    ) -> Result<(), Refusal> {
        self.require_lobby()?;
        let Some(c) = self.conns.get(&conn) else {
            return Ok(());
        };
        if c.spectator_link && c.player.is_none() {
            return refuse(ErrorCode::Spectator);
        }
        let (hash, new_token) = match &c.player {
            Some(h) => (h.clone(), None),
            None => {
                let token = codes::new_token();
                (codes::hash_token(&token), Some(token))
            }
        };
        let doc = self.doc.take_seat(seat, &hash, &c.name)?;
        self.save_doc(doc).await?;
        if let Some(c) = self.conns.get_mut(&conn) {
            c.player = Some(hash.clone());
            if new_token.is_some() {
                c.token = new_token;
            }
        }
        self.rewelcome_player(&hash);
        self.broadcast_table();
        Ok(())
    }

    pub(super) async fn on_add_bot(
        &mut self,
        conn: u64,
        seat: Seat,
        level: BotLevel,
    ) -> Result<(), Refusal> {
        self.require_host(conn)?;
        let (doc, replaced) = self.doc.add_bot(self.status, seat, level)?;
        self.save_doc(doc).await?;
        if let Some(hash) = replaced {
            self.rewelcome_player(&hash);
        }
        if let Some(live) = self.live.as_mut() {
            live.away.reset(seat);
        }
        self.schedule();
        self.broadcast_table();
        Ok(())
    }

    pub(super) async fn on_back_to_lobby(&mut self, conn: u64) -> Result<(), Refusal> {
        self.require_host(conn)?;
        self.require_finished()?;
        self.save(self.doc.clone(), TableStatus::Lobby).await?;
        // The finished game stays in the store (its record, the next game's
        // number); the lobby shows none.
        self.live = None;
        self.broadcast_table();
        Ok(())
    }

    /// Persists a changed table document, then makes it current.
    pub(super) async fn save_doc(&mut self, doc: TableDoc) -> Result<(), Refusal> {
        self.save(doc, self.status).await
    }

    /// Persists the table document and status, then makes them current.
    pub(super) async fn save(
        &mut self,
        mut doc: TableDoc,
        status: TableStatus,
    ) -> Result<(), Refusal> {
        doc.prune_players();
        let codes = [self.invite_code.clone(), self.spectator_code.clone()];
        let row = doc.row(self.id, self.kind.id(), codes, status);
        let fence = self.fence()?;
        if let Err(e) = self.ctx.db.upsert_table_fenced(&row, fence).await {
            tracing::warn!(table = %self.id, error = %e, "saving the table failed");
            self.write_failed(&e);
            return refuse(ErrorCode::TryAgain);
        }
        self.doc = doc;
        self.status = status;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(seats: u8) -> TableSettings {
        TableSettings {
            seats,
            public: false,
            stand_in: None,
            spectators_allowed: true,
            turn_seconds: None,
            time_bank_seconds: None,
            options: serde_json::json!({}),
        }
    }

    fn human(hash: &str, away: bool) -> SeatDoc {
        SeatDoc::Human {
            token_hash: hash.to_owned(),
            away,
        }
    }

    /// A lobby of `seats` seats: the host ("h", named "Host") in seat 0.
    fn lobby(seats: u8) -> TableDoc {
        let mut s = vec![SeatDoc::Empty; usize::from(seats)];
        s[0] = human("h", false);
        TableDoc {
            settings: settings(seats),
            host: "h".into(),
            players: vec![PlayerDoc {
                token_hash: "h".into(),
                name: "Host".into(),
                webhook: None,
            }],
            seats: s,
        }
    }

    #[test]
    fn taking_a_seat_adds_the_player_and_frees_his_old_seat() {
        let doc = lobby(3);
        let doc = doc.take_seat(None, "g", "Guest").expect("a free seat");
        assert_eq!(doc.seats[1], human("g", false));
        assert_eq!(doc.player_name("g"), Some("Guest"));
        assert_eq!(doc.seat_of(Some("g")), Some(1));
        let doc = doc
            .take_seat(Some(2), "g", "Guest")
            .expect("seat 2 is free");
        assert_eq!(
            doc.seats,
            vec![human("h", false), SeatDoc::Empty, human("g", false)]
        );
        assert_eq!(doc.players.len(), 2, "a player is listed once");
        assert_eq!(doc.seats_taken(), 2);
    }

    #[test]
    fn a_taken_seat_a_full_table_and_a_missing_seat_are_refused() {
        let doc = lobby(2).take_seat(None, "g", "Guest").expect("seat 1");
        let code = |r: Result<TableDoc, Refusal>| r.map(|_| ()).expect_err("refused").code;
        assert_eq!(code(doc.take_seat(Some(0), "x", "X")), ErrorCode::SeatTaken);
        assert_eq!(code(doc.take_seat(None, "x", "X")), ErrorCode::SeatTaken);
        assert_eq!(
            code(doc.take_seat(Some(7), "x", "X")),
            ErrorCode::NoSuchSeat
        );
    }

    #[test]
    fn configure_keeps_taken_seats() {
        let doc = lobby(4).take_seat(Some(3), "g", "Guest").expect("seat 3");
        let refused = doc.configure(settings(2)).map(|_| ()).expect_err("refused");
        assert_eq!(refused.code, ErrorCode::BadSettings);
        let doc = doc
            .leave_seat(3)
            .configure(settings(2))
            .expect("seats free");
        assert_eq!(doc.seats.len(), 2);
        assert_eq!(doc.settings.seats, 2);
        let doc = doc.configure(settings(5)).expect("more seats");
        assert_eq!(
            doc.seats[2..],
            [SeatDoc::Empty, SeatDoc::Empty, SeatDoc::Empty]
        );
    }

    #[test]
    fn kick_empties_a_seat_and_says_who_sat_there() {
        let doc = lobby(2).take_seat(None, "g", "Guest").expect("seat 1");
        let (doc, was) = doc.kick(1).expect("seat 1 taken");
        assert_eq!(was, human("g", false));
        assert_eq!(doc.seats[1], SeatDoc::Empty);
        assert_eq!(
            doc.kick(1).map(|_| ()).expect_err("refused").code,
            ErrorCode::NoSuchSeat
        );
    }

    #[test]
    fn a_bot_takes_an_empty_seat_in_the_lobby_and_only_an_away_seat_in_a_game() {
        let doc = lobby(3);
        let (doc, replaced) = doc
            .add_bot(TableStatus::Lobby, 1, BotLevel::Greedy)
            .expect("an empty seat");
        assert_eq!(replaced, None);
        assert_eq!(
            doc.seats[1],
            SeatDoc::Bot {
                level: BotLevel::Greedy
            }
        );
        let code = |r: Result<(TableDoc, Option<String>), Refusal>| {
            r.map(|_| ()).expect_err("refused").code
        };
        assert_eq!(
            code(doc.add_bot(TableStatus::Lobby, 1, BotLevel::Random)),
            ErrorCode::SeatTaken
        );
        assert_eq!(
            code(doc.add_bot(TableStatus::Playing, 0, BotLevel::Random)),
            ErrorCode::SeatTaken
        );
        assert_eq!(
            code(doc.add_bot(TableStatus::Finished, 2, BotLevel::Random)),
            ErrorCode::WrongStatus
        );
        let doc = doc.with_away(&[(0, true)]).expect("seat 0 goes away");
        let (doc, replaced) = doc
            .add_bot(TableStatus::Playing, 0, BotLevel::Random)
            .expect("an away seat");
        assert_eq!(replaced.as_deref(), Some("h"));
        assert_eq!(
            doc.seats[0],
            SeatDoc::Bot {
                level: BotLevel::Random
            }
        );
    }

    #[test]
    fn a_game_needs_every_seat_and_starts_with_nobody_away() {
        let doc = lobby(2);
        assert_eq!(
            doc.for_a_game().map(|_| ()).expect_err("refused").code,
            ErrorCode::BadSettings
        );
        let doc = doc
            .take_seat(None, "g", "Guest")
            .expect("seat 1")
            .with_away(&[(1, true)])
            .expect("away");
        let doc = doc.for_a_game().expect("full");
        assert_eq!(doc.seats[1], human("g", false));
        assert_eq!(
            doc.seat_names(),
            vec!["Host".to_owned(), "Guest".to_owned()]
        );
        assert_eq!(doc.with_away(&[(1, false)]), None, "nothing changes");
    }

    #[test]
    fn pruning_keeps_the_host_and_the_seated() {
        let mut doc = lobby(2).take_seat(None, "g", "Guest").expect("seat 1");
        doc.players.push(PlayerDoc {
            token_hash: "gone".into(),
            name: "Gone".into(),
            webhook: None,
        });
        let mut left = doc.leave_seat(0).leave_seat(1);
        left.prune_players();
        assert_eq!(left.players.len(), 1);
        assert_eq!(left.host_name(), "Host");
        doc.prune_players();
        assert_eq!(doc.players.len(), 2);
    }
}
