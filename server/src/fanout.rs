//! The update frames of one move, each view's changes found and written once.
//!
//! What every viewer of a game sees is the public view (the spectators' view); a
//! seat sees the same with its private overlay laid over it ([`engine::Game::Private`]:
//! a Big City hand's faces, a My City decision not yet revealed). So a move is
//! sent as one JSON Patch of the public view, found and serialized once and spliced
//! into every recipient's frame, plus for each seat the few operations that put its
//! private values back where the public patch did not leave them right. Every
//! spectator gets the same bytes. The browser's document is the viewer's whole view,
//! as in a snapshot; patches are RFC 6902 with paths into it.

use axum::extract::ws::Utf8Bytes;
use engine::{Outcome, Seat, Viewer};
use protocol::AwaitingInfo;
use serde::Serialize;

use crate::games::ErasedGame;
use crate::views::{self, Ops, ViewJson, push_token, value_at};

/// The views every viewer of a game holds now: the public one and each seat's
/// overlay, as the game wrote them.
pub struct ViewCache {
    public: ViewJson,
    private: Vec<Overlay>,
}

/// A seat's overlay and the places it writes to in the public view.
struct Overlay {
    text: String,
    places: Vec<String>,
}

/// What one move changed: the public patch for everyone, and each seat's own
/// operations (applied after the public ones).
pub struct Patches {
    pub public: Ops,
    pub seats: Vec<Ops>,
}

impl ViewCache {
    pub fn new(state: &dyn ErasedGame, seats: u8) -> ViewCache {
        let public = ViewJson::new(state.view_json(Viewer::Spectator));
        ViewCache {
            private: (0..seats)
                .map(|s| {
                    let text = state.private_view_json(s);
                    let places = leaves(&text, &public).into_iter().map(|(p, _)| p).collect();
                    Overlay { text, places }
                })
                .collect(),
            public,
        }
    }

    /// Moves every view to `state`, returning the patches that do the same to the
    /// documents of the viewers.
    pub fn advance(&mut self, state: &dyn ErasedGame) -> Patches {
        let public = ViewJson::new(state.view_json(Viewer::Spectator));
        let mut public_ops = Ops::default();
        views::diff_into(&mut public_ops, &self.public, &public);
        let mut seats = Vec::with_capacity(self.private.len());
        for (seat, old) in self.private.iter_mut().enumerate() {
            let seat = Seat::try_from(seat).unwrap_or(Seat::MAX);
            let new = state.private_view_json(seat);
            // Most moves leave most overlays as they were, and the public
            // patch nowhere near their places: nothing to find.
            let near = |q: &String| old.places.iter().any(|p| under(p, q) || under(q, p));
            if new == old.text && !public_ops.paths().iter().any(near) {
                seats.push(Ops::default());
                continue;
            }
            let new_places = leaves(&new, &public);
            let ops = private_ops(&public_ops, &self.public, &old.text, &public, &new_places)
                .unwrap_or_else(|| {
                    // The overlay changed its shape under the patch: the whole view.
                    let mut ops = Ops::default();
                    ops.push("replace", "", Some(&state.view_json(Viewer::Seat(seat))));
                    ops
                });
            seats.push(ops);
            old.places = new_places.into_iter().map(|(p, _)| p).collect();
            old.text = new;
        }
        self.public = public;
        Patches {
            public: public_ops,
            seats,
        }
    }
}

/// The places an overlay (JSON text) writes to, with the text it writes there:
/// it descends into objects of the overlay where the public view holds an
/// object or array.
fn leaves<'a>(overlay: &'a str, public: &ViewJson) -> Vec<(String, &'a str)> {
    let mut out = Vec::new();
    match views::object_members(overlay) {
        Some(members) if public.text().starts_with('{') => {
            let mut pointer = String::new();
            for (key, value) in members {
                push_token(&mut pointer, &key);
                sub_leaves(value, public.field(&key), &mut pointer, &mut out);
                pointer.clear();
            }
        }
        _ => out.push((String::new(), overlay)),
    }
    out
}

fn sub_leaves<'a>(
    overlay: &'a str,
    public: Option<&str>,
    pointer: &mut String,
    out: &mut Vec<(String, &'a str)>,
) {
    let members = match public {
        Some(text) if text.starts_with(['{', '[']) => {
            views::object_members(overlay).map(|members| (text, members))
        }
        _ => None,
    };
    match members {
        Some((text, members)) => {
            let at = pointer.len();
            let mut token = String::new();
            for (key, value) in members {
                token.clear();
                push_token(&mut token, &key);
                pointer.push_str(&token);
                sub_leaves(value, value_at(text, &token), pointer, out);
                pointer.truncate(at);
            }
        }
        None => out.push((pointer.clone(), overlay)),
    }
}

/// `pointer` is `ancestor` or lies under it.
fn under(pointer: &str, ancestor: &str) -> bool {
    pointer
        .strip_prefix(ancestor)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// One seat's operations after the public ones (its new overlay given by its
/// places, [`leaves`]), or `None` when the overlay's places changed in a way
/// these operations cannot follow. Values are compared
/// as the JSON text the game and the public view wrote (`serde_json` writes a
/// value one way), so nothing is decoded.
fn private_ops(
    public_ops: &Ops,
    old_public: &ViewJson,
    old: &str,
    new_public: &ViewJson,
    new_leaves: &[(String, &str)],
) -> Option<Ops> {
    let mut ops = Ops::default();
    let old_leaves = leaves(old, old_public);
    let touched = |p: &str| public_ops.paths().iter().any(|op| under(p, op));
    for (p, _) in &old_leaves {
        // A public operation inside a private value, or places nested in each
        // other: not followed.
        if public_ops.paths().iter().any(|op| op != p && under(op, p))
            || new_leaves
                .iter()
                .any(|(q, _)| q != p && (under(q, p) || under(p, q)))
        {
            return None;
        }
    }
    let public_at = |p: &str| new_public.at(p);
    let mut emit = |p: &str, current: Option<&str>, desired: Option<&str>| {
        if current == desired {
            return;
        }
        match (current, desired) {
            (None, Some(v)) => ops.push("add", p, Some(v)),
            (Some(_), Some(v)) => ops.push("replace", p, Some(v)),
            (Some(_), None) => ops.push("remove", p, None),
            (None, None) => {}
        }
    };
    // Places the overlay no longer writes to get the public value back.
    for (p, value) in &old_leaves {
        if new_leaves.iter().any(|(q, _)| q == p) {
            continue;
        }
        let current = if touched(p) {
            public_at(p)
        } else {
            Some(*value)
        };
        emit(p, current, public_at(p));
    }
    for (p, value) in new_leaves {
        let kept = old_leaves.iter().find(|(q, _)| q == p);
        let current = match kept {
            Some((_, was)) if !touched(p) => Some(*was),
            _ => public_at(p),
        };
        emit(p, current, Some(value));
    }
    Some(ops)
}

/// One move's update frames: one for every spectator, one per seat.
pub struct Frames {
    spectators: Utf8Bytes,
    seats: Vec<Utf8Bytes>,
}

impl Frames {
    /// `ServerMsg::Update` for every viewer, the shared text written once.
    pub fn new(
        version: u64,
        events_json: &str,
        awaiting: Option<&AwaitingInfo>,
        outcome: Option<&Outcome>,
        patches: &Patches,
    ) -> Frames {
        fn json<T: Serialize + ?Sized>(value: &T) -> String {
            // Our own message types always serialize.
            serde_json::to_string(value).unwrap_or_default()
        }
        let head = format!(
            r#"{{"type":"update","version":{version},"events":{events_json},"patch":[{}"#,
            patches.public.text()
        );
        let mut tail = String::from("]");
        if let Some(awaiting) = awaiting {
            tail.push_str(&format!(r#","awaiting":{}"#, json(awaiting)));
        }
        if let Some(outcome) = outcome {
            tail.push_str(&format!(r#","outcome":{}"#, json(outcome)));
        }
        tail.push('}');
        let seats = patches
            .seats
            .iter()
            .map(|own| {
                let mut frame =
                    String::with_capacity(head.len() + own.text().len() + tail.len() + 1);
                frame.push_str(&head);
                if !patches.public.is_empty() && !own.is_empty() {
                    frame.push(',');
                }
                frame.push_str(own.text());
                frame.push_str(&tail);
                Utf8Bytes::from(frame)
            })
            .collect();
        Frames {
            spectators: Utf8Bytes::from(head + &tail),
            seats,
        }
    }

    /// The frame of `viewer` (a seat the game does not have sees what spectators see).
    pub fn for_viewer(&self, viewer: Viewer) -> &Utf8Bytes {
        match viewer {
            Viewer::Seat(seat) => self
                .seats
                .get(usize::from(seat))
                .unwrap_or(&self.spectators),
            Viewer::Spectator => &self.spectators,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Adapter, GameKind, SetupDoc};
    use engine::{BotLevel, GameRng};
    use protocol::ServerMsg;
    use serde_json::Value;
    use std::sync::Arc;

    fn kinds() -> Vec<(Arc<dyn GameKind>, u8)> {
        vec![
            (Adapter::<big_city::BigCity>::kind(), 4),
            (Adapter::<big_city::BigCity>::kind(), 5),
            (Adapter::<big_cityz::BigCityz>::kind(), 4),
            (Adapter::<building_cities::BuildingCities>::kind(), 2),
            (Adapter::<my_city::MyCity>::kind(), 3),
            (Adapter::<tic_tac_toe::TicTacToe>::kind(), 2),
        ]
    }

    /// Every non-null value a frame's operations write under a key named `key`
    /// anywhere, with the path of the operation.
    fn written<'a>(ops: &'a [Value], key: &str) -> Vec<(&'a str, &'a Value)> {
        fn walk<'a>(path: &'a str, v: &'a Value, key: &str, out: &mut Vec<(&'a str, &'a Value)>) {
            match v {
                Value::Object(map) => {
                    for (k, v) in map {
                        if k == key && !v.is_null() {
                            out.push((path, v));
                        }
                        walk(path, v, key, out);
                    }
                }
                Value::Array(items) => items.iter().for_each(|v| walk(path, v, key, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        for op in ops {
            let path = op["path"].as_str().unwrap_or_default();
            let last = path.rsplit('/').next().unwrap_or_default();
            if last == key && !op["value"].is_null() && op.get("value").is_some() {
                out.push((path, &op["value"]));
            }
            if let Some(value) = op.get("value") {
                walk(path, value, key, &mut out);
            }
        }
        out
    }

    /// Random play-outs with bots: each viewer's document, built from the first
    /// view by applying every update frame's patch, is that viewer's view after
    /// every move; and no frame writes another seat's hidden values.
    #[test]
    fn frames_rebuild_every_view_and_hide_the_rest() {
        for (kind, seats) in kinds() {
            for seed in 0..4u64 {
                let mut options = kind.default_options();
                if kind.id() == "big-city" && seed % 2 == 1 {
                    options["trade_cards"] = Value::Bool(true);
                }
                if kind.id() == "building-cities" {
                    // Face-down challenge hands or rotating trade partners.
                    let mode = if seed % 2 == 0 {
                        "despicable"
                    } else {
                        "fair_play"
                    };
                    options["mode"] = Value::from(mode);
                }
                let setup = SetupDoc {
                    seats,
                    seed,
                    salt: None,
                    options,
                    first_seat: None,
                    names: Vec::new(),
                };
                let mut state = kind.start(&setup).expect("starts");
                let mut cache = ViewCache::new(state.as_ref(), seats);
                let viewers: Vec<Viewer> = (0..seats)
                    .map(Viewer::Seat)
                    .chain([Viewer::Spectator])
                    .collect();
                let mut docs: Vec<Value> = viewers.iter().map(|&v| state.view(v)).collect();
                let mut rng = GameRng::new(seed + 100);
                let mut version = 0;
                while state.outcome().is_none() && version < 600 {
                    let awaiting = state.awaiting();
                    let seat = awaiting.seats[version as usize % awaiting.seats.len()];
                    let level = if seed % 3 == 0 {
                        BotLevel::Greedy
                    } else {
                        BotLevel::Random
                    };
                    let applied = match state.bot_move(seat, level, &mut rng) {
                        Some(mv) => state.try_move(seat, &mv).expect("legal"),
                        None => state
                            .try_entry(
                                &protocol::RawJson::of(
                                    &serde_json::json!({"timeout": {"period": awaiting.period}}),
                                )
                                .expect("JSON"),
                            )
                            .expect("a timeout"),
                    };
                    state = applied.state;
                    version += 1;
                    let patches = cache.advance(state.as_ref());
                    let awaiting = AwaitingInfo {
                        seats: state.awaiting().seats,
                        timer_ms: None,
                        undo: state.undo_seat(),
                        banks_ms: None,
                    };
                    let events = serde_json::to_string(&applied.events).expect("JSON");
                    let outcome = state.outcome();
                    let frames = Frames::new(
                        version,
                        &events,
                        Some(&awaiting),
                        outcome.as_ref(),
                        &patches,
                    );
                    for (i, &viewer) in viewers.iter().enumerate() {
                        let frame = frames.for_viewer(viewer);
                        let msg: ServerMsg = serde_json::from_str(frame).expect("an update");
                        let ServerMsg::Update { patch, .. } = msg else {
                            panic!("not an update: {frame}");
                        };
                        let ops: json_patch::Patch =
                            serde_json::from_value(Value::Array(patch.clone())).expect("ops");
                        json_patch::patch(&mut docs[i], &ops).expect("the patch applies");
                        let view = state.view(viewer);
                        assert_eq!(
                            docs[i],
                            view,
                            "{} seed {seed} v{version} {viewer:?}",
                            kind.id()
                        );
                        // Hidden values of others are never written.
                        let me = match viewer {
                            Viewer::Seat(s) => Some(s),
                            Viewer::Spectator => None,
                        };
                        for (path, _) in written(&patch, "cards") {
                            let own = me.is_some_and(|s| path == format!("/hands/{s}/cards"));
                            assert!(own, "{} {viewer:?} got cards at {path}: {frame}", kind.id());
                        }
                        for key in ["offered_cards", "my_decision"] {
                            for (path, value) in written(&patch, key) {
                                let mine = path
                                    .trim_start_matches('/')
                                    .split('/')
                                    .try_fold(&view, |v, t| {
                                        v.get(t).or_else(|| v.get(t.parse::<usize>().ok()?))
                                    })
                                    .is_some();
                                assert!(
                                    me.is_some()
                                        && mine
                                        && view.to_string().contains(&value.to_string()),
                                    "{} {viewer:?} got {key} at {path}: {frame}",
                                    kind.id()
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn update_frame_is_the_update_message() {
        let events = vec![serde_json::json!({"type": "placed", "text": "A \"quote\""})];
        let awaiting = AwaitingInfo {
            seats: vec![1, 2],
            timer_ms: Some(900),
            undo: None,
            banks_ms: None,
        };
        let outcome = Outcome {
            scores: vec![3, 4],
            winners: vec![1],
        };
        let mut public = Ops::default();
        public.push("replace", "/a", Some("1"));
        let mut own = Ops::default();
        own.push("add", "/b/0", Some("[2]"));
        let patches = Patches {
            public,
            seats: vec![Ops::default(), own],
        };
        for (outcome, awaiting) in [
            (None, None),
            (None, Some(&awaiting)),
            (Some(&outcome), Some(&awaiting)),
        ] {
            let events_json = serde_json::to_string(&events).expect("JSON");
            let frames = Frames::new(7, &events_json, awaiting, outcome, &patches);
            for (viewer, patch) in [
                (
                    Viewer::Spectator,
                    serde_json::json!([{"op":"replace","path":"/a","value":1}]),
                ),
                (
                    Viewer::Seat(0),
                    serde_json::json!([{"op":"replace","path":"/a","value":1}]),
                ),
                (
                    Viewer::Seat(9),
                    serde_json::json!([{"op":"replace","path":"/a","value":1}]),
                ),
                (
                    Viewer::Seat(1),
                    serde_json::json!([
                        {"op":"replace","path":"/a","value":1},
                        {"op":"add","path":"/b/0","value":[2]}
                    ]),
                ),
            ] {
                let frame: ServerMsg =
                    serde_json::from_str(frames.for_viewer(viewer)).expect("decodes");
                assert_eq!(
                    frame,
                    ServerMsg::Update {
                        version: 7,
                        events: events.clone(),
                        patch: serde_json::from_value(patch).expect("JSON"),
                        awaiting: awaiting.cloned(),
                        outcome: outcome.cloned(),
                    }
                );
            }
        }
    }
}
