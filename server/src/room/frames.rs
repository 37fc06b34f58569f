//! Every message a room sends: the encoder of server messages, the welcome, the
//! table, the snapshot of a game, and the fan-out of a move (one update per
//! viewer, the shared parts serialized once).

use std::collections::HashMap;

use axum::extract::ws::Utf8Bytes;
use engine::{Outcome, Seat, Viewer};
use protocol::{
    AwaitingInfo, GameSnapshot, Occupant, SeatInfo, ServerMsg, TableInfo, TableStatus,
    api::PublicTable,
};
use serde_json::Value;

use super::live::{Live, Timer};
use super::{Conn, Room, SeatDoc};
use crate::fanout::Frames;

pub fn encode(msg: &ServerMsg) -> Utf8Bytes {
    // Our own message types always serialize.
    Utf8Bytes::from(serde_json::to_string(msg).unwrap_or_default())
}

impl Room {
    pub(super) fn table_info(&self, with_codes: bool) -> TableInfo {
        let seats = self
            .doc
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatInfo {
                seat: Seat::try_from(i).unwrap_or(Seat::MAX),
                occupant: match s {
                    SeatDoc::Empty => Occupant::Empty,
                    SeatDoc::Bot { level } => Occupant::Bot { level: *level },
                    SeatDoc::Human { token_hash, away } => {
                        let connected = self.has_page(token_hash);
                        Occupant::Human {
                            name: self
                                .doc
                                .player_name(token_hash)
                                .unwrap_or_default()
                                .to_owned(),
                            connected,
                            gone_ms: if connected {
                                None
                            } else {
                                self.gone_since.get(token_hash).map(|since| {
                                    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
                                })
                            },
                            away: *away,
                        }
                    }
                },
            })
            .collect();
        let spectators = self
            .conns
            .values()
            .filter(|c| self.doc.seat_of(c.player.as_deref()).is_none())
            .count();
        TableInfo {
            game: self.kind.id().to_owned(),
            status: self.status,
            settings: self.doc.settings.clone(),
            seats,
            host_seat: self.doc.seat_of(Some(&self.doc.host)),
            spectators: u32::try_from(spectators).unwrap_or(u32::MAX),
            invite_code: with_codes.then(|| self.invite_code.clone()),
            spectator_code: with_codes.then(|| self.spectator_code.clone()),
        }
    }

    /// Whether a connection may see the invite and spectator codes.
    pub(super) fn sees_codes(&self, conn: &Conn) -> bool {
        conn.player.is_some() || !conn.spectator_link
    }

    pub(super) fn broadcast_table(&mut self) {
        // The listing first: whoever hears of the change can already see it there.
        self.publish();
        let with = encode(&ServerMsg::Table {
            table: self.table_info(true),
        });
        let without = encode(&ServerMsg::Table {
            table: self.table_info(false),
        });
        let (seeing, blind): (Vec<_>, Vec<_>) =
            self.conns.iter().partition(|(_, c)| self.sees_codes(c));
        let ids =
            |conns: Vec<(&u64, &Conn)>| conns.into_iter().map(|(id, _)| *id).collect::<Vec<_>>();
        let (seeing, blind) = (ids(seeing), ids(blind));
        self.send_many(seeing, &with);
        self.send_many(blind, &without);
    }

    /// Keeps the public lobby listing in step. Private tables are never listed.
    pub(super) fn publish(&self) {
        if self.doc.settings.public && self.status != TableStatus::Finished {
            self.ctx.rooms.list(
                self.id,
                PublicTable {
                    invite_code: self.invite_code.clone(),
                    game: self.kind.id().to_owned(),
                    status: self.status,
                    seats: self.doc.settings.seats,
                    seats_taken: self.doc.seats_taken(),
                    spectators_allowed: self.doc.settings.spectators_allowed,
                    host_name: self.doc.host_name().to_owned(),
                },
            );
        } else {
            self.ctx.rooms.unlist(self.id);
        }
    }

    pub(super) fn awaiting_info(live: &Live) -> AwaitingInfo {
        AwaitingInfo {
            seats: live.state.awaiting().seats,
            timer_ms: live.timer.as_ref().map(Timer::left_ms),
            undo: live.state.undo_seat(),
            banks_ms: live.clocks.as_ref().map(|c| c.banks_ms().to_vec()),
        }
    }

    /// Sends `conn` the game as it may see it, when a game is on.
    pub(super) fn send_snapshot(&mut self, conn: u64) {
        if let Some(snap) = self.snapshot_for(conn) {
            self.send(conn, snap);
        }
    }

    pub(super) fn snapshot_for(&mut self, conn: u64) -> Option<Utf8Bytes> {
        let viewer = self.viewer_of(self.conns.get(&conn)?);
        let live = self.live.as_ref()?;
        let view = live.state.view(viewer);
        Some(encode(&ServerMsg::Snapshot {
            game: GameSnapshot {
                number: u32::try_from(live.number).unwrap_or(0),
                version: live.version,
                view,
                awaiting: Self::awaiting_info(live),
                outcome: live.state.outcome(),
                recent_events: live.recent.logged(),
                commitment: live.commitment.clone(),
            },
        }))
    }

    pub(super) fn welcome(&mut self, conn: u64) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        let msg = encode(&ServerMsg::Welcome {
            you: self.you(c),
            table: self.table_info(self.sees_codes(c)),
        });
        self.send(conn, msg);
    }

    /// Welcome (and the game as it now looks) for every connection of a player.
    pub(super) fn rewelcome_player(&mut self, hash: &str) {
        let ids: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| c.player.as_deref() == Some(hash))
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            self.welcome(id);
            self.send_snapshot(id);
        }
    }

    /// One update per viewer of the entry just committed: the public events, a JSON
    /// Patch from the viewer's previous view and, when it or its period changed
    /// (`awaiting_changed`), whose decision is awaited. The public view's patch is
    /// found and written once for everyone (`fanout.rs`); every spectator gets the
    /// same bytes.
    pub(super) fn fan_out(
        &mut self,
        events: &[Value],
        outcome: Option<Outcome>,
        awaiting_changed: bool,
    ) {
        let viewers: HashMap<u64, Viewer> = self
            .conns
            .iter()
            .map(|(id, c)| (*id, self.viewer_of(c)))
            .collect();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let events_json = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
        live.recent.push(live.version, &events_json);
        let patches = live.views.advance(live.state.as_ref());
        let frames = Frames::new(
            live.version,
            &events_json,
            awaiting_changed.then(|| Self::awaiting_info(live)).as_ref(),
            outcome.as_ref(),
            &patches,
        );
        // Players first, then spectators, who all get the same frame.
        let mut spectators = Vec::new();
        for (id, viewer) in viewers {
            match viewer {
                Viewer::Spectator => spectators.push(id),
                seat => self.send(id, frames.for_viewer(seat).clone()),
            }
        }
        self.send_many(spectators, frames.for_viewer(Viewer::Spectator));
    }
}
