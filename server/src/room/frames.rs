//! Every message a room sends: the encoder of server messages, the welcome, the
//! table, the snapshot of a game, and the fan-out of a move (one update per
//! viewer, the shared parts serialized once).

use std::collections::{HashMap, HashSet};

use axum::extract::ws::Utf8Bytes;
use engine::{Outcome, Seat, Viewer};
use protocol::{
    AwaitingInfo, ErrorCode, GameSnapshot, Occupant, SeatInfo, ServerMsg, TableInfo, TableStatus,
    api::PublicTable,
};
use serde::Serialize;
use serde_json::Value;
use tokio::time::Instant;

use super::live::Live;
use super::{Conn, Room, SeatDoc};
use crate::views::{self, ViewJson};

pub fn encode(msg: &ServerMsg) -> Utf8Bytes {
    // Our own message types always serialize.
    Utf8Bytes::from(serde_json::to_string(msg).unwrap_or_default())
}

/// `ServerMsg::Update` as text around its patch: `head + patch + tail` is the
/// message, so the shared parts are serialized once per move, not per recipient.
pub(super) fn update_frame_parts(
    version: u64,
    events_json: &str,
    awaiting: &AwaitingInfo,
    outcome: Option<&Outcome>,
) -> (String, String) {
    fn json<T: Serialize + ?Sized>(value: &T) -> String {
        // Our own message types always serialize.
        serde_json::to_string(value).unwrap_or_default()
    }
    let head = format!(r#"{{"type":"update","version":{version},"events":{events_json},"patch":"#);
    let mut tail = format!(r#","awaiting":{}"#, json(awaiting));
    if let Some(outcome) = outcome {
        tail.push_str(&format!(r#","outcome":{}"#, json(outcome)));
    }
    tail.push('}');
    (head, tail)
}

pub fn error_msg(
    code: ErrorCode,
    message: &str,
    id: Option<u64>,
    rule: Option<String>,
) -> Utf8Bytes {
    encode(&ServerMsg::Error {
        code,
        message: message.to_owned(),
        id,
        rule,
    })
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
                        let connected = self
                            .conns
                            .values()
                            .any(|c| c.player.as_deref() == Some(token_hash.as_str()));
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
        let targets: Vec<(u64, bool)> = self
            .conns
            .iter()
            .map(|(id, c)| (*id, self.sees_codes(c)))
            .collect();
        for (id, codes) in targets {
            self.send(id, if codes { with.clone() } else { without.clone() });
        }
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
            timer_ms: live.timer.as_ref().map(|t| {
                u64::try_from(
                    t.deadline
                        .saturating_duration_since(Instant::now())
                        .as_millis(),
                )
                .unwrap_or(u64::MAX)
            }),
        }
    }

    pub(super) fn snapshot_for(&mut self, conn: u64) -> Option<Utf8Bytes> {
        let viewer = self.viewer_of(self.conns.get(&conn)?);
        let live = self.live.as_mut()?;
        let cached = live
            .views
            .entry(viewer)
            .or_insert_with(|| ViewJson::new(live.state.view_json(viewer)));
        let view = serde_json::from_str(cached.text()).unwrap_or(Value::Null);
        Some(encode(&ServerMsg::Snapshot {
            game: GameSnapshot {
                number: u32::try_from(live.number).unwrap_or(0),
                version: live.version,
                view,
                awaiting: Self::awaiting_info(live),
                outcome: live.state.outcome(),
                recent_events: live.recent.logged(),
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
            if let Some(snap) = self.snapshot_for(id) {
                self.send(id, snap);
            }
        }
    }

    /// One update per viewer: the public events, a JSON Patch from the viewer's
    /// previous view, whose decision is awaited. The spectator view is computed and
    /// encoded once and the same bytes go to every spectator.
    pub(super) fn fan_out(&mut self, events: &[Value], outcome: Option<Outcome>) {
        let viewers: HashMap<u64, Viewer> = self
            .conns
            .iter()
            .map(|(id, c)| (*id, self.viewer_of(c)))
            .collect();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        // Everything but the patch is the same for every recipient.
        let events_json = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
        live.recent.push(live.version, &events_json);
        let (head, tail) = update_frame_parts(
            live.version,
            &events_json,
            &Self::awaiting_info(live),
            outcome.as_ref(),
        );
        let distinct: HashSet<Viewer> = viewers.values().copied().collect();
        let mut messages: HashMap<Viewer, Utf8Bytes> = HashMap::new();
        let mut views = HashMap::new();
        for viewer in distinct {
            let new = ViewJson::new(live.state.view_json(viewer));
            let patch = match live.views.get(&viewer) {
                Some(old) => views::diff(old, &new),
                None => format!(r#"[{{"op":"replace","path":"","value":{}}}]"#, new.text()),
            };
            messages.insert(viewer, Utf8Bytes::from(format!("{head}{patch}{tail}")));
            views.insert(viewer, new);
        }
        live.views = views;
        // Players first, then spectators.
        let mut order: Vec<(u64, Viewer)> = viewers.into_iter().collect();
        order.sort_by_key(|(_, v)| matches!(v, Viewer::Spectator));
        for (id, viewer) in order {
            if let Some(msg) = messages.get(&viewer) {
                self.send(id, msg.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn update_frame_is_the_update_message() {
        let events = vec![serde_json::json!({"type": "placed", "text": "A \"quote\""})];
        let awaiting = AwaitingInfo {
            seats: vec![1, 2],
            timer_ms: Some(900),
        };
        let outcome = Outcome {
            scores: vec![3, 4],
            winners: vec![1],
        };
        for outcome in [None, Some(&outcome)] {
            let events_json = serde_json::to_string(&events).expect("JSON");
            let (head, tail) = update_frame_parts(7, &events_json, &awaiting, outcome);
            let patch = r#"[{"op":"replace","path":"/a","value":1}]"#;
            let frame: ServerMsg =
                serde_json::from_str(&format!("{head}{patch}{tail}")).expect("decodes");
            assert_eq!(
                frame,
                ServerMsg::Update {
                    version: 7,
                    events: events.clone(),
                    patch: serde_json::from_str(patch).expect("JSON"),
                    awaiting: awaiting.clone(),
                    outcome: outcome.cloned(),
                }
            );
        }
    }
}
