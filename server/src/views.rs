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

use std::borrow::Cow;
use std::fmt::Write;
use std::ops::Range;

/// One viewer's view as JSON text.
pub struct ViewJson {
    text: String,
    /// Top-level fields sorted by key: the key's range (inside its quotes, as
    /// written) and the value's range in `text`. `None` when the text is not a
    /// JSON object (patches then replace it whole).
    fields: Option<Vec<(Range<usize>, Range<usize>)>>,
}

impl ViewJson {
    pub fn new(text: String) -> ViewJson {
        let fields = object_fields(&text);
        ViewJson { text, fields }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    fn slice(&self, range: &Range<usize>) -> &str {
        &self.text[range.clone()]
    }
}

/// The members of a JSON array or object as written by `serde_json` (no
/// whitespace): ranges of the elements, or of the `"key":value` pairs. A full
/// parse of every view, every move, cost as much as the rest of the fan-out, so
/// this only tracks nesting and strings. `None` if the text is neither.
fn members(text: &str) -> Option<Vec<Range<usize>>> {
    let bytes = text.as_bytes();
    if !matches!(
        (bytes.first(), bytes.last()),
        (Some(b'{'), Some(b'}')) | (Some(b'['), Some(b']'))
    ) {
        return None;
    }
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 1;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Jump to the closing quote (most of a view's bytes are in its keys).
                let mut j = i + 1;
                loop {
                    j += memchr::memchr2(b'"', b'\\', bytes.get(j..)?)?;
                    if bytes[j] == b'"' {
                        break;
                    }
                    j += 2;
                }
                i = j;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    if i + 1 != bytes.len() {
                        return None;
                    }
                    if i > start || !out.is_empty() {
                        out.push(start..i);
                    }
                }
            }
            b',' if depth == 1 => {
                out.push(start..i);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    (depth == 0 && out.iter().all(|r| !r.is_empty())).then_some(out)
}

fn object_fields(text: &str) -> Option<Vec<(Range<usize>, Range<usize>)>> {
    if !text.starts_with('{') {
        return None;
    }
    let mut fields = members(text)?
        .into_iter()
        .map(|member| {
            // `"key":value`: the key ends at the first unescaped quote.
            let bytes = &text.as_bytes()[member.clone()];
            let mut escaped = false;
            let close = bytes.iter().enumerate().skip(1).find_map(|(i, &b)| {
                let end = !escaped && b == b'"';
                escaped = !escaped && b == b'\\';
                end.then_some(i)
            })?;
            (bytes.first() == Some(&b'"') && bytes.get(close + 1) == Some(&b':')).then(|| {
                (
                    member.start + 1..member.start + close,
                    member.start + close + 2..member.end,
                )
            })
        })
        .collect::<Option<Vec<_>>>()?;
    fields.sort_by(|a, b| text[a.0.clone()].cmp(&text[b.0.clone()]));
    Some(fields)
}

/// A key as written between its quotes, unescaped.
fn unescape(key: &str) -> Cow<'_, str> {
    if key.contains('\\') {
        serde_json::from_str::<String>(&format!("\"{key}\""))
            .map(Cow::Owned)
            .unwrap_or(Cow::Borrowed(key))
    } else {
        Cow::Borrowed(key)
    }
}

/// The JSON Patch (RFC 6902) from `old` to `new`, as a JSON array.
pub fn diff(old: &ViewJson, new: &ViewJson) -> String {
    let mut ops = Ops::default();
    match (&old.fields, &new.fields) {
        (Some(old_fields), Some(new_fields)) => {
            let (mut i, mut j) = (0, 0);
            while i < old_fields.len() || j < new_fields.len() {
                let order = match (old_fields.get(i), new_fields.get(j)) {
                    (Some((a, _)), Some((b, _))) => old.slice(a).cmp(new.slice(b)),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    _ => std::cmp::Ordering::Greater,
                };
                match order {
                    std::cmp::Ordering::Less => {
                        ops.push("remove", &[&unescape(old.slice(&old_fields[i].0))], None);
                        i += 1;
                    }
                    std::cmp::Ordering::Greater => {
                        let (key, value) = &new_fields[j];
                        ops.push("add", &[&unescape(new.slice(key))], Some(new.slice(value)));
                        j += 1;
                    }
                    std::cmp::Ordering::Equal => {
                        let (key, value) = &new_fields[j];
                        let (old_value, new_value) =
                            (old.slice(&old_fields[i].1), new.slice(value));
                        if old_value != new_value {
                            field_diff(&mut ops, &unescape(new.slice(key)), old_value, new_value);
                        }
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

/// Ops for one changed top-level field.
fn field_diff(ops: &mut Ops, key: &str, old: &str, new: &str) {
    let elements = |text: &str| text.starts_with('[').then(|| members(text)).flatten();
    let (Some(old_items), Some(new_items)) = (elements(old), elements(new)) else {
        ops.push("replace", &[key], Some(new));
        return;
    };
    let mut index = String::new();
    for (i, item) in new_items.iter().enumerate() {
        index.clear();
        let _ = write!(index, "{i}");
        let item = &new[item.clone()];
        match old_items.get(i) {
            Some(was) if &old[was.clone()] == item => {}
            Some(_) => ops.push("replace", &[key, &index], Some(item)),
            None => ops.push("add", &[key, &index], Some(item)),
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
    fn members_track_strings_and_nesting() {
        let text = r#"{"a":"x,}\\\"]","b\"c":[1,{"d":[]}],"e":{}}"#;
        let fields = object_fields(text).expect("an object");
        let pairs: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (&text[k.clone()], &text[v.clone()]))
            .collect();
        assert_eq!(
            pairs,
            vec![
                ("a", r#""x,}\\\"]""#),
                (r#"b\"c"#, r#"[1,{"d":[]}]"#),
                ("e", "{}"),
            ]
        );
        assert_eq!(unescape(r#"b\"c"#), "b\"c");
        assert_eq!(members("[]"), Some(vec![]));
        assert_eq!(members("{}"), Some(vec![]));
        assert_eq!(members("[1,22]"), Some(vec![1..2, 3..5]));
        for bad in ["", "[", "[1,,2]", "[1]]", "{]", "[1,]", "\"a\""] {
            assert_eq!(members(bad), None, "{bad}");
        }
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
