//! The client messages of a table: joining, the lobby (seats, host controls),
//! chat, and the dispatch of every other message to the game.

use axum::extract::ws::Utf8Bytes;
use engine::{BotLevel, Seat};
use protocol::{ChatLine, ClientMsg, ErrorCode, ServerMsg, TableSettings, TableStatus};
use serde_json::Value;

use super::doc::prune_players;
use super::names::{clean_chat, clean_name, unique_name};
use super::{
    Conn, Outbox, PlayerDoc, Refusal, Room, SeatDoc, TableDoc, check_settings, encode, error_msg,
    now_ms, refuse, status_str,
};
use crate::codes;
use crate::db::TableRow;

/// Chat lines kept for people who join later.
pub(super) const CHAT_HISTORY: usize = 50;

impl Room {
    pub(super) fn on_join(
        &mut self,
        conn: u64,
        token: Option<String>,
        name: String,
        spectator_link: bool,
        out: Outbox,
    ) -> bool {
        let reply_err = |code, message: &str| {
            out.push(error_msg(code, message, None, None));
            false
        };
        let mut player = None;
        let mut name = name.trim().to_owned();
        if let Some(token) = &token {
            let hash = codes::hash_token(token);
            match self.player_name(&hash) {
                Some(known) => {
                    name = known;
                    player = Some(hash);
                }
                None if hash == self.doc.host => player = Some(hash),
                None => {
                    return reply_err(
                        ErrorCode::BadToken,
                        "That seat token does not belong to this table.",
                    );
                }
            }
        }
        if player.is_none() {
            if spectator_link && !self.doc.settings.spectators_allowed {
                return reply_err(
                    ErrorCode::NoSpectators,
                    "This table does not allow spectators.",
                );
            }
            // A newcomer's name: cleaned, and told apart from everyone's at the
            // table (players with a token, and whoever is connected). Every name
            // at a table enters here or at the table's creation.
            name = match clean_name(&name) {
                Ok(clean) => unique_name(
                    &clean,
                    self.doc
                        .players
                        .iter()
                        .map(|p| p.name.as_str())
                        .chain(self.conns.values().map(|c| c.name.as_str())),
                ),
                Err((code, message)) => return reply_err(code, &message),
            };
        }
        let newly_seated = self.seat_of(player.as_deref()).is_some()
            && !self.conns.values().any(|c| c.player == player);
        self.conns.insert(
            conn,
            Conn {
                out,
                player,
                token,
                name,
                spectator_link,
                chat: crate::Bucket::new(5.0, 0.5),
            },
        );
        self.ctx.metrics.connections.inc();
        self.welcome(conn);
        if let Some(snap) = self.snapshot_for(conn) {
            self.send(conn, snap);
        }
        let history: Vec<Utf8Bytes> = self
            .chat
            .iter()
            .map(|line| encode(&ServerMsg::Chat { line: line.clone() }))
            .collect();
        for line in history {
            self.send(conn, line);
        }
        // Presence and the spectator count changed for everyone else.
        let _ = newly_seated;
        self.broadcast_table();
        true
    }

    // ----- client messages -----

    pub(super) async fn on_client(&mut self, conn: u64, msg: ClientMsg) -> Result<(), Refusal> {
        if !self.conns.contains_key(&conn) {
            return Ok(());
        }
        match msg {
            ClientMsg::Hello { .. } => refuse(ErrorCode::HelloFirst, "You already said hello."),
            ClientMsg::Move { id, version, mv } => self.on_move(conn, id, version, mv).await,
            ClientMsg::LegalMoves => {
                let seat = self.require_seat(conn)?;
                let live = self
                    .live
                    .as_ref()
                    .ok_or((ErrorCode::WrongStatus, "No game is running.".to_owned()))?;
                let msg = encode(&ServerMsg::LegalMoves {
                    version: live.version,
                    moves: live.state.legal_moves(seat),
                });
                self.send(conn, msg);
                Ok(())
            }
            ClientMsg::Resync => {
                self.welcome(conn);
                if let Some(snap) = self.snapshot_for(conn) {
                    self.send(conn, snap);
                }
                Ok(())
            }
            ClientMsg::Chat { text } => self.on_chat(conn, text),
            ClientMsg::TakeSeat { seat } => self.on_take_seat(conn, seat).await,
            ClientMsg::LeaveSeat => {
                self.require_lobby()?;
                let hash = self.conn_player(conn);
                let seat = self.require_seat(conn)?;
                let mut doc = self.doc.clone();
                doc.seats[usize::from(seat)] = SeatDoc::Empty;
                self.save_doc(doc).await?;
                if let Some(hash) = hash {
                    self.rewelcome_player(&hash);
                }
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::Configure { settings } => {
                self.require_host(conn)?;
                self.require_lobby()?;
                let mut doc = self.doc.clone();
                let settings = self.check_settings(&settings)?;
                let n = usize::from(settings.seats);
                if doc
                    .seats
                    .iter()
                    .skip(n)
                    .any(|s| !matches!(s, SeatDoc::Empty))
                {
                    return refuse(
                        ErrorCode::BadSettings,
                        "Free the seats you want to remove first.",
                    );
                }
                doc.seats.resize(n, SeatDoc::Empty);
                doc.settings = settings;
                self.save_doc(doc).await?;
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::AddBot { seat, level } => self.on_add_bot(conn, seat, level).await,
            ClientMsg::Kick { seat } => {
                self.require_host(conn)?;
                self.require_lobby()?;
                let i = self.seat_index(seat)?;
                let mut doc = self.doc.clone();
                let was = std::mem::replace(&mut doc.seats[i], SeatDoc::Empty);
                if was == SeatDoc::Empty {
                    return refuse(ErrorCode::NoSuchSeat, "That seat is already empty.");
                }
                self.save_doc(doc).await?;
                if let SeatDoc::Human { token_hash, .. } = was {
                    self.rewelcome_player(&token_hash);
                }
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::Start => {
                self.require_host(conn)?;
                self.require_lobby()?;
                self.start_game().await
            }
            ClientMsg::PlayAgain => {
                self.require_host(conn)?;
                self.require_finished()?;
                self.start_game().await
            }
            ClientMsg::BackToLobby => {
                self.require_host(conn)?;
                self.require_finished()?;
                self.save(self.doc.clone(), TableStatus::Lobby).await?;
                // The finished game stays in the store (its record, the next
                // game's number); the lobby shows none.
                self.live = None;
                self.broadcast_table();
                Ok(())
            }
        }
    }

    pub fn check_settings(&self, settings: &TableSettings) -> Result<TableSettings, Refusal> {
        check_settings(self.kind.as_ref(), settings)
    }

    /// Persists a changed table document, then makes it current.
    pub(super) async fn save_doc(&mut self, doc: TableDoc) -> Result<(), Refusal> {
        self.save(doc, self.status).await
    }

    pub(super) async fn save(
        &mut self,
        mut doc: TableDoc,
        status: TableStatus,
    ) -> Result<(), Refusal> {
        prune_players(&mut doc);
        let row = TableRow {
            id: self.id,
            game: self.kind.id().to_owned(),
            invite_code: self.invite_code.clone(),
            spectator_code: self.spectator_code.clone(),
            status: status_str(status).to_owned(),
            public: doc.settings.public,
            doc: serde_json::to_value(&doc).unwrap_or(Value::Null),
            updated_at_ms: now_ms(),
        };
        if let Err(e) = self.ctx.db.upsert_table(&row).await {
            tracing::warn!(table = %self.id, error = %e, "saving the table failed");
            return refuse(
                ErrorCode::TryAgain,
                "The server could not save that. Try again.",
            );
        }
        self.doc = doc;
        self.status = status;
        Ok(())
    }

    pub(super) fn on_chat(&mut self, conn: u64, text: String) -> Result<(), Refusal> {
        let text = clean_chat(&text);
        let chars = text.chars().count();
        if chars == 0 || chars > protocol::MAX_CHAT_CHARS {
            return refuse(
                ErrorCode::BadChat,
                &format!(
                    "A chat message has 1 to {} characters.",
                    protocol::MAX_CHAT_CHARS
                ),
            );
        }
        let Some(c) = self.conns.get_mut(&conn) else {
            return Ok(());
        };
        if !c.chat.take() {
            return refuse(
                ErrorCode::RateLimited,
                "You are chatting too fast. Wait a moment.",
            );
        }
        let name = c.name.clone();
        let player = c.player.clone();
        let line = ChatLine {
            name,
            seat: self.seat_of(player.as_deref()),
            text,
            at_ms: u64::try_from(now_ms()).unwrap_or(0),
        };
        if self.chat.len() == CHAT_HISTORY {
            self.chat.pop_front();
        }
        self.chat.push_back(line.clone());
        let msg = encode(&ServerMsg::Chat { line });
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        for id in ids {
            self.send(id, msg.clone());
        }
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
            return refuse(ErrorCode::Spectator, "Spectators cannot take a seat.");
        }
        let i = match seat {
            Some(s) => self.seat_index(s)?,
            None => self
                .doc
                .seats
                .iter()
                .position(|s| *s == SeatDoc::Empty)
                .ok_or((ErrorCode::SeatTaken, "The table is full.".to_owned()))?,
        };
        if self.doc.seats[i] != SeatDoc::Empty {
            return refuse(ErrorCode::SeatTaken, "That seat is taken.");
        }
        let mut doc = self.doc.clone();
        let mut new_token = None;
        let hash = match &c.player {
            // A player who left his seat was dropped from the players: he is back.
            Some(h) => {
                if !doc.players.iter().any(|p| p.token_hash == *h) {
                    doc.players.push(PlayerDoc {
                        token_hash: h.clone(),
                        name: c.name.clone(),
                    });
                }
                h.clone()
            }
            None => {
                let token = codes::new_token();
                let hash = codes::hash_token(&token);
                doc.players.push(PlayerDoc {
                    token_hash: hash.clone(),
                    name: c.name.clone(),
                });
                new_token = Some(token);
                hash
            }
        };
        for s in doc.seats.iter_mut() {
            if matches!(s, SeatDoc::Human { token_hash, .. } if *token_hash == hash) {
                *s = SeatDoc::Empty;
            }
        }
        doc.seats[i] = SeatDoc::Human {
            token_hash: hash.clone(),
            away: false,
        };
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
        let i = self.seat_index(seat)?;
        let mut doc = self.doc.clone();
        let replaced = match (self.status, &doc.seats[i]) {
            (TableStatus::Lobby, SeatDoc::Empty) => None,
            (TableStatus::Lobby, _) => return refuse(ErrorCode::SeatTaken, "That seat is taken."),
            (
                TableStatus::Playing,
                SeatDoc::Human {
                    token_hash,
                    away: true,
                },
            ) => Some(token_hash.clone()),
            (TableStatus::Playing, _) => {
                return refuse(
                    ErrorCode::SeatTaken,
                    "During a game only an away player's seat can go to a bot.",
                );
            }
            (TableStatus::Finished, _) => {
                return refuse(ErrorCode::WrongStatus, "The game is over.");
            }
        };
        doc.seats[i] = SeatDoc::Bot { level };
        self.save_doc(doc).await?;
        if let Some(hash) = replaced {
            self.rewelcome_player(&hash);
        }
        if let Some(n) = self
            .live
            .as_mut()
            .and_then(|live| live.timeouts_in_row.get_mut(i))
        {
            *n = 0;
        }
        self.schedule();
        self.broadcast_table();
        Ok(())
    }
}
