//! A connection's messages: joining (who it is, its name), the dispatch of
//! every client message, and chat.

use axum::extract::ws::Utf8Bytes;
use protocol::{ChatLine, ClientMsg, ErrorArgs, ErrorCode, ServerMsg};

use super::names::{clean_chat, clean_name, unique_name};
use super::{Bucket, Conn, Outbox, Refusal, Room, encode, now_ms, refuse};
use crate::codes;

/// Chat lines kept for people who join later.
pub(super) const CHAT_HISTORY: usize = 50;
/// Chat lines one connection may send at once, then per second.
const CHAT_BURST: f64 = 5.0;
const CHAT_PER_SECOND: f64 = 0.5;

impl Room {
    /// A connection said `hello`: whether it joined (else it was told why).
    pub(super) fn on_join(
        &mut self,
        conn: u64,
        token: Option<String>,
        name: String,
        spectator_link: bool,
        mut out: Outbox,
    ) -> bool {
        // Refusals go to the connection alone; the shared stream is for admitted
        // spectators (who can never take a seat, so stay on it).
        let shared = out.shared.take();
        let reply_err = |refusal: Refusal| {
            out.push(refusal.msg(None));
            false
        };
        let mut player = None;
        let mut name = name.trim().to_owned();
        if let Some(token) = &token {
            let hash = codes::hash_token(token);
            match self.doc.player_name(&hash) {
                Some(known) => {
                    name = known.to_owned();
                    player = Some(hash);
                }
                None if hash == self.doc.host => player = Some(hash),
                None => {
                    return reply_err(ErrorCode::BadToken.into());
                }
            }
        }
        if player.is_none() {
            if spectator_link && !self.doc.settings.spectators_allowed {
                return reply_err(ErrorCode::NoSpectators.into());
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
                Err(refusal) => return reply_err(refusal),
            };
        }
        out.shared = shared.filter(|_| spectator_link && player.is_none());
        self.conns.insert(
            conn,
            Conn {
                out,
                player,
                token,
                name,
                spectator_link,
                chat: Bucket::new(CHAT_BURST, CHAT_PER_SECOND),
            },
        );
        self.ctx.metrics.connections.inc();
        self.welcome(conn);
        self.send_snapshot(conn);
        let history: Vec<Utf8Bytes> = self
            .chat
            .iter()
            .map(|line| encode(&ServerMsg::Chat { line: line.clone() }))
            .collect();
        for line in history {
            self.send(conn, line);
        }
        // Presence and the spectator count changed for everyone else.
        self.broadcast_table();
        true
    }

    /// One client message of a joined connection.
    pub(super) async fn on_client(&mut self, conn: u64, msg: ClientMsg) -> Result<(), Refusal> {
        if !self.conns.contains_key(&conn) {
            return Ok(());
        }
        match msg {
            ClientMsg::Hello { .. } => refuse(ErrorCode::HelloFirst),
            ClientMsg::Move { id, version, mv } => self.on_move(conn, id, version, mv).await,
            ClientMsg::Undo { id, version } => self.on_undo(conn, id, version).await,
            ClientMsg::SetWebhook { url, lang } => self.on_set_webhook(conn, url, lang).await,
            ClientMsg::LegalMoves { of } => self.on_legal_moves(conn, of),
            ClientMsg::Resync => {
                self.welcome(conn);
                self.send_snapshot(conn);
                Ok(())
            }
            ClientMsg::Chat { text } => self.on_chat(conn, text),
            ClientMsg::TakeSeat { seat } => self.on_take_seat(conn, seat).await,
            ClientMsg::LeaveSeat => self.on_leave_seat(conn).await,
            ClientMsg::Back => self.on_back(conn).await,
            ClientMsg::Configure { settings } => self.on_configure(conn, settings).await,
            ClientMsg::AddBot { seat, level } => self.on_add_bot(conn, seat, level).await,
            ClientMsg::Kick { seat } => self.on_kick(conn, seat).await,
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
            ClientMsg::BackToLobby => self.on_back_to_lobby(conn).await,
        }
    }

    /// The seat's legal moves, or the part `of` names (echoed in the answer).
    fn on_legal_moves(&mut self, conn: u64, of: Option<String>) -> Result<(), Refusal> {
        if of
            .as_deref()
            .is_some_and(|of| of.chars().count() > protocol::MAX_LEGAL_MOVES_OF_CHARS)
        {
            return Err(Refusal::with(
                ErrorCode::BadLegalMovesOf,
                ErrorArgs {
                    max_chars: Some(protocol::MAX_LEGAL_MOVES_OF_CHARS as u32),
                    ..ErrorArgs::default()
                },
            ));
        }
        let seat = self.require_seat(conn)?;
        let live = self
            .live
            .as_ref()
            .ok_or(Refusal::new(ErrorCode::WrongStatus))?;
        let moves = live.state.legal_moves(seat, of.as_deref());
        let msg = encode(&ServerMsg::LegalMoves {
            version: live.version,
            of,
            moves,
        });
        self.send(conn, msg);
        Ok(())
    }

    fn on_chat(&mut self, conn: u64, text: String) -> Result<(), Refusal> {
        let text = clean_chat(&text);
        let chars = text.chars().count();
        if chars == 0 || chars > protocol::MAX_CHAT_CHARS {
            return Err(Refusal::with(
                ErrorCode::BadChat,
                ErrorArgs {
                    max_chars: Some(protocol::MAX_CHAT_CHARS as u32),
                    ..ErrorArgs::default()
                },
            ));
        }
        let Some(c) = self.conns.get_mut(&conn) else {
            return Ok(());
        };
        if !c.chat.take() {
            return Err(Refusal::with(
                ErrorCode::RateLimited,
                ErrorArgs {
                    retry_after_ms: Some(c.chat.retry_after_ms().max(1)),
                    ..ErrorArgs::default()
                },
            ));
        }
        let name = c.name.clone();
        let player = c.player.clone();
        let line = ChatLine {
            name,
            seat: self.doc.seat_of(player.as_deref()),
            text,
            at_ms: u64::try_from(now_ms()).unwrap_or(0),
        };
        if self.chat.len() == CHAT_HISTORY {
            self.chat.pop_front();
        }
        self.chat.push_back(line.clone());
        let msg = encode(&ServerMsg::Chat { line });
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        self.send_many(ids, &msg);
        Ok(())
    }
}
