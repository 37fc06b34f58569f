//! Views kept as JSON text, and the patches between two of them.
//!
//! Every committed move sends each distinct viewer a JSON Patch from its previous
//! view to its new one. Building whole views as `serde_json::Value` trees and
//! diffing the trees took most of the server's CPU under load, so a view is kept
//! as the text the game serialized, with the byte range of each top-level field.
//! Unchanged fields are skipped after a byte compare; a changed array is patched
//! element by element; any other changed field is replaced whole. The patches are
//! a little coarser than a full tree diff (a changed element is replaced, not
//! descended into) and much cheaper to find.

use std::fmt::Write;
use std::ops::Range;

use serde_json::value::RawValue;

/// One viewer's view as JSON text.
pub struct ViewJson {
    text: String,
    /// Top-level fields in key order (keys unescaped), with their value ranges in `text`.
    /// `None` when the text is not a JSON object (patches then replace it whole).
    fields: Option<Vec<(String, Range<usize>)>>,
}

impl ViewJson {
    pub fn new(text: String) -> ViewJson {
        let fields = top_level_fields(&text);
        ViewJson { text, fields }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    fn value(&self, range: &Range<usize>) -> &str {
        &self.text[range.clone()]
    }
}

fn top_level_fields(text: &str) -> Option<Vec<(String, Range<usize>)>> {
    // A BTreeMap gives the keys in order, which lets `diff` walk both views at once.
    let map: std::collections::BTreeMap<String, &RawValue> = serde_json::from_str(text).ok()?;
    let base = text.as_ptr() as usize;
    Some(
        map.into_iter()
            .map(|(key, raw)| {
                let start = raw.get().as_ptr() as usize - base;
                (key, start..start + raw.get().len())
            })
            .collect(),
    )
}

/// The JSON Patch (RFC 6902) from `old` to `new`, as a JSON array.
pub fn diff(old: &ViewJson, new: &ViewJson) -> String {
    let mut ops = Ops::default();
    match (&old.fields, &new.fields) {
        (Some(old_fields), Some(new_fields)) => {
            let (mut i, mut j) = (0, 0);
            while i < old_fields.len() || j < new_fields.len() {
                let order = match (old_fields.get(i), new_fields.get(j)) {
                    (Some((a, _)), Some((b, _))) => a.cmp(b),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    _ => std::cmp::Ordering::Greater,
                };
                match order {
                    std::cmp::Ordering::Less => {
                        ops.push("remove", &[&old_fields[i].0], None);
                        i += 1;
                    }
                    std::cmp::Ordering::Greater => {
                        let (key, range) = &new_fields[j];
                        ops.push("add", &[key], Some(new.value(range)));
                        j += 1;
                    }
                    std::cmp::Ordering::Equal => {
                        let (key, range) = &new_fields[j];
                        field_diff(&mut ops, key, old.value(&old_fields[i].1), new.value(range));
                        i += 1;
                        j += 1;
                    }
                }
            }
        }
        _ if old.text == new.text => {}
        _ => ops.push("replace", &[], Some(&new.text)),
    }
    ops.finish()
}

fn field_diff(ops: &mut Ops, key: &str, old: &str, new: &str) {
    if old == new {
        return;
    }
    fn elements(text: &str) -> Option<Vec<&RawValue>> {
        if !text.starts_with('[') {
            return None;
        }
        serde_json::from_str(text).ok()
    }
    let (Some(old_items), Some(new_items)) = (elements(old), elements(new)) else {
        ops.push("replace", &[key], Some(new));
        return;
    };
    let mut index = String::new();
    for (i, item) in new_items.iter().enumerate() {
        index.clear();
        let _ = write!(index, "{i}");
        match old_items.get(i) {
            Some(was) if was.get() == item.get() => {}
            Some(_) => ops.push("replace", &[key, &index], Some(item.get())),
            None => ops.push("add", &[key, &index], Some(item.get())),
        }
    }
    for i in (new_items.len()..old_items.len()).rev() {
        index.clear();
        let _ = write!(index, "{i}");
        ops.push("remove", &[key, &index], None);
    }
}

/// A JSON array of patch operations, written as text.
#[derive(Default)]
struct Ops {
    out: String,
}

impl Ops {
    fn push(&mut self, op: &str, path: &[&str], value: Option<&str>) {
        self.out
            .push_str(if self.out.is_empty() { "[" } else { "," });
        let _ = write!(self.out, r#"{{"op":"{op}","path":"#);
        let mut pointer = String::new();
        for token in path {
            pointer.push('/');
            // RFC 6901: `~` and `/` inside a token are escaped.
            pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
        }
        // A JSON string of the pointer (keys may hold characters JSON escapes).
        self.out
            .push_str(&serde_json::to_string(&pointer).unwrap_or_else(|_| "\"\"".into()));
        if let Some(value) = value {
            self.out.push_str(r#","value":"#);
            self.out.push_str(value);
        }
        self.out.push('}');
    }

    fn finish(mut self) -> String {
        if self.out.is_empty() {
            self.out.push('[');
        }
        self.out.push(']');
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn check(old: Value, new: Value) -> Vec<Value> {
        let patch_text = diff(
            &ViewJson::new(old.to_string()),
            &ViewJson::new(new.to_string()),
        );
        let patch: json_patch::Patch = serde_json::from_str(&patch_text).expect("a JSON Patch");
        let mut doc = old.clone();
        json_patch::patch(&mut doc, &patch).expect("the patch applies");
        assert_eq!(doc, new, "patch {patch_text}");
        serde_json::from_str(&patch_text).expect("JSON")
    }

    #[test]
    fn equal_views_give_an_empty_patch() {
        let v = json!({"a": [1, 2], "b": {"c": null}});
        assert!(check(v.clone(), v).is_empty());
    }

    #[test]
    fn changed_scalars_and_objects_are_replaced_whole() {
        let ops = check(
            json!({"a": 1, "b": {"c": 1, "d": 2}, "e": "x"}),
            json!({"a": 2, "b": {"c": 1, "d": 3}, "e": "x"}),
        );
        assert_eq!(
            ops,
            vec![
                json!({"op": "replace", "path": "/a", "value": 2}),
                json!({"op": "replace", "path": "/b", "value": {"c": 1, "d": 3}}),
            ]
        );
    }

    #[test]
    fn arrays_are_patched_element_by_element() {
        let ops = check(
            json!({"cells": [{"p": 1}, {"p": 2}, {"p": 3}]}),
            json!({"cells": [{"p": 1}, {"p": 9}, {"p": 3}, {"p": 4}]}),
        );
        assert_eq!(
            ops,
            vec![
                json!({"op": "replace", "path": "/cells/1", "value": {"p": 9}}),
                json!({"op": "add", "path": "/cells/3", "value": {"p": 4}}),
            ]
        );
        let ops = check(json!({"a": [1, 2, 3, 4]}), json!({"a": [1]}));
        assert_eq!(ops.len(), 3);
    }

    #[test]
    fn fields_come_and_go_and_odd_keys_are_escaped() {
        check(
            json!({"a": 1, "b/c": 2, "d~e": [1], "z": null}),
            json!({"b/c": 3, "d~e": [2], "q\"uote": true, "z": null}),
        );
        check(json!({"a": 1}), json!({}));
        check(json!({}), json!({"a": [1, 2]}));
        check(json!({"a": {"x": 1}}), json!({"a": [1]}));
        check(json!({"a": [1]}), json!({"a": 7}));
    }

    #[test]
    fn a_view_that_is_not_an_object_is_replaced_whole() {
        check(json!([1, 2]), json!({"a": 1}));
        check(json!({"a": 1}), json!(null));
        assert!(check(json!(5), json!(5)).is_empty());
    }

    /// Every viewer of real games (hidden hands, trades, simultaneous reveals):
    /// the patch from each view to the next turns the old view into the new one.
    #[test]
    fn patches_follow_whole_games_exactly() {
        use crate::games::{Adapter, GameKind, SetupDoc};
        use engine::{BotLevel, GameRng, Viewer};
        let kinds: Vec<(std::sync::Arc<dyn GameKind>, u8)> = vec![
            (Adapter::<big_city::BigCity>::kind(), 4),
            (Adapter::<my_city::MyCity>::kind(), 3),
            (Adapter::<tic_tac_toe::TicTacToe>::kind(), 2),
        ];
        for (kind, seats) in kinds {
            let setup = SetupDoc {
                seats,
                seed: 11,
                options: kind.default_options(),
                first_seat: None,
                names: Vec::new(),
            };
            let mut state = kind.start(&setup).expect("starts");
            let viewers: Vec<Viewer> = (0..seats)
                .map(Viewer::Seat)
                .chain([Viewer::Spectator])
                .collect();
            let mut rng = GameRng::new(5);
            let mut old: Vec<ViewJson> = viewers
                .iter()
                .map(|&v| ViewJson::new(state.view_json(v)))
                .collect();
            let mut steps = 0;
            while state.outcome().is_none() && steps < 400 {
                let awaiting = state.awaiting();
                let seat = awaiting.seats[steps % awaiting.seats.len()];
                let mv = state
                    .bot_move(seat, BotLevel::Random, &mut rng)
                    .expect("a bot move");
                state = state.try_move(seat, &mv).expect("legal").state;
                for (i, &viewer) in viewers.iter().enumerate() {
                    let new = ViewJson::new(state.view_json(viewer));
                    let patch: json_patch::Patch =
                        serde_json::from_str(&diff(&old[i], &new)).expect("a JSON Patch");
                    let mut doc: Value = serde_json::from_str(old[i].text()).expect("JSON");
                    json_patch::patch(&mut doc, &patch).expect("applies");
                    assert_eq!(doc, state.view(viewer), "{} step {steps}", kind.id());
                    old[i] = new;
                }
                steps += 1;
            }
        }
    }
}
