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

    /// The value of a top-level field.
    pub fn field(&self, key: &str) -> Option<&str> {
        let fields = self.fields.as_ref()?;
        match fields.binary_search_by(|(k, _)| self.slice(k).cmp(key)) {
            Ok(i) => Some(self.slice(&fields[i].1)),
            // Keys are kept as written: one with escapes is found by its meaning.
            Err(_) => fields
                .iter()
                .find(|(k, _)| self.slice(k).contains('\\') && unescape(self.slice(k)) == key)
                .map(|(_, v)| self.slice(v)),
        }
    }

    /// The value at a JSON Pointer (see [`value_at`]).
    pub fn at(&self, pointer: &str) -> Option<&str> {
        let Some(rest) = pointer.strip_prefix('/') else {
            return pointer.is_empty().then_some(self.text.as_str());
        };
        let (token, rest) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        if self.fields.is_none() {
            return value_at(&self.text, pointer);
        }
        let key = token.replace("~1", "/").replace("~0", "~");
        value_at(self.field(&key)?, rest)
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

/// The members of a JSON object written by `serde_json`: each key (unescaped)
/// and the text of its value, in key order. `None` if the text is no object.
pub fn object_members(text: &str) -> Option<Vec<(Cow<'_, str>, &str)>> {
    Some(
        object_fields(text)?
            .into_iter()
            .map(|(k, v)| (unescape(&text[k]), &text[v]))
            .collect(),
    )
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
    diff_into(&mut ops, old, new);
    ops.finish()
}

/// The operations from `old` to `new`, appended to `ops`.
pub fn diff_into(ops: &mut Ops, old: &ViewJson, new: &ViewJson) {
    match (&old.fields, &new.fields) {
        (Some(old_fields), Some(new_fields)) => {
            let old_fields = old_fields.iter().map(|(k, v)| (old.slice(k), old.slice(v)));
            let new_fields = new_fields.iter().map(|(k, v)| (new.slice(k), new.slice(v)));
            merge_fields(ops, &mut String::new(), old_fields, new_fields);
        }
        _ if old.text == new.text => {}
        _ => ops.push("replace", "", Some(&new.text)),
    }
}

/// Ops for two objects given as their fields sorted by key (keys as written).
fn merge_fields<'a>(
    ops: &mut Ops,
    pointer: &mut String,
    old: impl Iterator<Item = (&'a str, &'a str)>,
    new: impl Iterator<Item = (&'a str, &'a str)>,
) {
    let mut old = old.peekable();
    let mut new = new.peekable();
    loop {
        let order = match (old.peek(), new.peek()) {
            (Some((a, _)), Some((b, _))) => a.cmp(b),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => break,
        };
        let at = pointer.len();
        match order {
            std::cmp::Ordering::Less => {
                if let Some((key, _)) = old.next() {
                    push_token(pointer, &unescape(key));
                    ops.push("remove", pointer, None);
                }
            }
            std::cmp::Ordering::Greater => {
                if let Some((key, value)) = new.next() {
                    push_token(pointer, &unescape(key));
                    ops.push("add", pointer, Some(value));
                }
            }
            std::cmp::Ordering::Equal => {
                if let (Some((_, was)), Some((key, value))) = (old.next(), new.next())
                    && was != value
                {
                    push_token(pointer, &unescape(key));
                    value_diff(ops, pointer, was, value);
                }
            }
        }
        pointer.truncate(at);
    }
}

/// Ops for one changed value at `pointer`: objects and arrays are descended into,
/// unless replacing the value whole is shorter.
fn value_diff(ops: &mut Ops, pointer: &mut String, old: &str, new: &str) {
    let mark = ops.mark();
    let descended = match (old.as_bytes().first(), new.as_bytes().first()) {
        (Some(b'{'), Some(b'{')) => match (object_fields(old), object_fields(new)) {
            (Some(old_fields), Some(new_fields)) => {
                merge_fields(
                    ops,
                    pointer,
                    old_fields
                        .iter()
                        .map(|(k, v)| (&old[k.clone()], &old[v.clone()])),
                    new_fields
                        .iter()
                        .map(|(k, v)| (&new[k.clone()], &new[v.clone()])),
                );
                true
            }
            _ => false,
        },
        (Some(b'['), Some(b'[')) => match (members(old), members(new)) {
            (Some(old_items), Some(new_items)) => {
                array_diff(ops, pointer, old, &old_items, new, &new_items);
                true
            }
            _ => false,
        },
        _ => false,
    };
    if !descended || ops.since(&mark) > Ops::size("replace", pointer, Some(new)) {
        ops.rewind(mark);
        ops.push("replace", pointer, Some(new));
    }
}

fn array_diff(
    ops: &mut Ops,
    pointer: &mut String,
    old: &str,
    old_items: &[Range<usize>],
    new: &str,
    new_items: &[Range<usize>],
) {
    let at = pointer.len();
    for (i, item) in new_items.iter().enumerate() {
        let _ = write!(pointer, "/{i}");
        let item = &new[item.clone()];
        match old_items.get(i) {
            Some(was) if &old[was.clone()] == item => {}
            Some(was) => value_diff(ops, pointer, &old[was.clone()], item),
            None => ops.push("add", pointer, Some(item)),
        }
        pointer.truncate(at);
    }
    for i in (new_items.len()..old_items.len()).rev() {
        let _ = write!(pointer, "/{i}");
        ops.push("remove", pointer, None);
        pointer.truncate(at);
    }
}

/// Appends `/token` to a JSON Pointer (RFC 6901: `~` and `/` escaped).
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    if token.contains(['~', '/']) {
        pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
    } else {
        pointer.push_str(token);
    }
}

/// The value at a JSON Pointer of a JSON text written by `serde_json` (`None`
/// where nothing is: a missing key, an index past the end, a path through a
/// scalar).
pub fn value_at<'a>(text: &'a str, pointer: &str) -> Option<&'a str> {
    let Some(rest) = pointer.strip_prefix('/') else {
        return pointer.is_empty().then_some(text);
    };
    let (token, rest) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let token = token.replace("~1", "/").replace("~0", "~");
    let inner = match text.as_bytes().first()? {
        b'{' => object_fields(text)?
            .into_iter()
            .find(|(k, _)| unescape(&text[k.clone()]) == token.as_str())
            .map(|(_, v)| &text[v])?,
        b'[' => {
            let index: usize = token.parse().ok()?;
            members(text)?.get(index).map(|r| &text[r.clone()])?
        }
        _ => return None,
    };
    value_at(inner, rest)
}

/// JSON Patch operations written as text, with their paths.
#[derive(Default)]
pub struct Ops {
    out: String,
    paths: Vec<String>,
}

/// A point to [`Ops::rewind`] to.
pub struct Mark(usize, usize);

impl Ops {
    /// Appends one operation; `pointer` is a JSON Pointer (escaped per RFC 6901).
    pub fn push(&mut self, op: &str, pointer: &str, value: Option<&str>) {
        if !self.out.is_empty() {
            self.out.push(',');
        }
        Self::write(&mut self.out, op, pointer, value);
        self.paths.push(pointer.to_owned());
    }

    fn write(out: &mut String, op: &str, pointer: &str, value: Option<&str>) {
        let _ = write!(out, r#"{{"op":"{op}","path":"#);
        if pointer.contains(|c: char| c == '"' || c == '\\' || c.is_control()) {
            // A JSON string of the pointer (keys may hold characters JSON escapes).
            out.push_str(&serde_json::to_string(pointer).unwrap_or_else(|_| "\"\"".into()));
        } else {
            out.push('"');
            out.push_str(pointer);
            out.push('"');
        }
        if let Some(value) = value {
            out.push_str(r#","value":"#);
            out.push_str(value);
        }
        out.push('}');
    }

    /// Bytes of one operation written alone, with its separating comma.
    /// (Pointers that need escaping in JSON are counted as written raw: this only
    /// chooses between two correct patches.)
    fn size(op: &str, pointer: &str, value: Option<&str>) -> usize {
        r#"{"op":"","path":""}"#.len()
            + op.len()
            + pointer.len()
            + value.map_or(0, |v| r#","value":"#.len() + v.len())
            + 1
    }

    fn mark(&self) -> Mark {
        Mark(self.out.len(), self.paths.len())
    }

    /// Bytes written since `mark`.
    fn since(&self, mark: &Mark) -> usize {
        self.out.len() - mark.0
    }

    fn rewind(&mut self, mark: Mark) {
        self.out.truncate(mark.0);
        self.paths.truncate(mark.1);
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// The operations, comma-separated, without the brackets of their array.
    pub fn text(&self) -> &str {
        &self.out
    }

    /// The path of every operation, in order.
    pub fn paths(&self) -> &[String] {
        &self.paths
    }

    /// The operations as a JSON array.
    pub fn finish(self) -> String {
        format!("[{}]", self.out)
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
    fn changed_objects_are_descended_into() {
        let ops = check(
            json!({"a": 1, "b": {"c": 1, "d": 2, "long": "a value nobody resends"}, "e": "x"}),
            json!({"a": 2, "b": {"c": 1, "d": 3, "long": "a value nobody resends"}, "e": "x"}),
        );
        assert_eq!(
            ops,
            vec![
                json!({"op": "replace", "path": "/a", "value": 2}),
                json!({"op": "replace", "path": "/b/d", "value": 3}),
            ]
        );
        let same = "a long value that stays the same";
        let ops = check(
            json!({"b": {"c": same, "gone": 1}}),
            json!({"b": {"c": same, "new": 2}}),
        );
        assert_eq!(
            ops,
            vec![
                json!({"op": "remove", "path": "/b/gone"}),
                json!({"op": "add", "path": "/b/new", "value": 2}),
            ]
        );
    }

    #[test]
    fn a_value_is_replaced_whole_when_that_is_shorter() {
        let ops = check(
            json!({"b": {"c": 1, "d": 2}}),
            json!({"b": {"c": 3, "d": 4}}),
        );
        assert_eq!(
            ops,
            vec![json!({"op": "replace", "path": "/b", "value": {"c": 3, "d": 4}})]
        );
        let ops = check(json!({"a": [1, 2, 3]}), json!({"a": [4, 5, 6]}));
        assert_eq!(
            ops,
            vec![json!({"op": "replace", "path": "/a", "value": [4, 5, 6]})]
        );
    }

    #[test]
    fn arrays_are_patched_element_by_element() {
        let cell = |p: u32| json!({"property": p, "outskirts": false, "building": null});
        let ops = check(
            json!({"cells": [cell(1), cell(2), cell(3)]}),
            json!({"cells": [cell(1), cell(9), cell(3), cell(4)]}),
        );
        assert_eq!(
            ops,
            vec![
                json!({"op": "replace", "path": "/cells/1/property", "value": 9}),
                json!({"op": "add", "path": "/cells/3", "value": cell(4)}),
            ]
        );
        let long: Vec<u32> = (100..130).collect();
        let mut changed = long.clone();
        changed[29] = 7;
        let ops = check(json!({"a": [long, 2, 3]}), json!({"a": [changed]}));
        assert_eq!(
            ops,
            vec![
                json!({"op": "replace", "path": "/a/0/29", "value": 7}),
                json!({"op": "remove", "path": "/a/2"}),
                json!({"op": "remove", "path": "/a/1"}),
            ]
        );
    }

    #[test]
    fn values_are_found_by_pointer() {
        let text = json!({"a": [1, {"b~/c": [true]}], "d": null}).to_string();
        let view = ViewJson::new(text.clone());
        assert_eq!(view.at(""), Some(text.as_str()));
        assert_eq!(view.at("/a/1/b~0~1c/0"), Some("true"));
        assert_eq!(view.at("/a/0"), Some("1"));
        assert_eq!(view.at("/d"), Some("null"));
        assert_eq!(view.field("d"), Some("null"));
        for missing in ["/a/2", "/a/x", "/d/0", "/e", "/a/0/0"] {
            assert_eq!(view.at(missing), None, "{missing}");
        }
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
            (Adapter::<big_cityz::BigCityz>::kind(), 4),
            (Adapter::<building_cities::BuildingCities>::kind(), 2),
            (Adapter::<my_city::MyCity>::kind(), 3),
            (Adapter::<tic_tac_toe::TicTacToe>::kind(), 2),
        ];
        for (kind, seats) in kinds {
            let mut options = kind.default_options();
            if kind.id() == "building-cities" {
                // Face-down challenge hands: the mode with a private overlay.
                options["mode"] = serde_json::json!("despicable");
            }
            let setup = SetupDoc {
                seats,
                seed: 11,
                salt: None,
                options,
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
