//! Names and chat text as a table shows them: invisible characters stripped,
//! control characters refused (names) or removed (chat), names told apart.

use std::collections::HashSet;

use engine::text::is_invisible;
use protocol::{ErrorArgs, ErrorCode};

use super::Refusal;

/// A name as the table shows it, or why it cannot be one.
///
/// Control characters are refused: nobody types one into a name field, so a
/// name holding one was forged, and refusing it says so. Bidi controls and
/// zero-width characters are stripped instead: they arrive innocently with
/// copied text and from some keyboards (a Persian name may hold a zero-width
/// non-joiner), and stripping them cannot make one name pass for another
/// because duplicates are found after cleaning ([`unique_name`]).
pub fn clean_name(name: &str) -> Result<String, Refusal> {
    if name.chars().any(char::is_control) {
        return Err(bad_name());
    }
    let visible: String = name.chars().filter(|&c| !is_invisible(c)).collect();
    let name = visible.trim();
    let n = name.chars().count();
    if n == 0 || n > protocol::MAX_NAME_CHARS {
        return Err(bad_name());
    }
    Ok(name.to_owned())
}

fn bad_name() -> Refusal {
    Refusal::with(
        ErrorCode::BadName,
        ErrorArgs {
            max_chars: Some(protocol::MAX_NAME_CHARS as u32),
            ..ErrorArgs::default()
        },
    )
}

/// How names are compared at a table: case-insensitively, ends trimmed.
pub(super) fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// `name` itself when nobody in `taken` has it, else the first free of
/// `name 2`, `name 3`, ... (shortened to fit the longest name).
pub fn unique_name<'a>(name: &str, taken: impl IntoIterator<Item = &'a str>) -> String {
    let taken: HashSet<String> = taken.into_iter().map(name_key).collect();
    if !taken.contains(&name_key(name)) {
        return name.to_owned();
    }
    (2u32..)
        .map(|n| {
            let suffix = format!(" {n}");
            let room = protocol::MAX_NAME_CHARS.saturating_sub(suffix.chars().count());
            let base: String = name.chars().take(room).collect();
            format!("{}{suffix}", base.trim_end())
        })
        .find(|candidate| !taken.contains(&name_key(candidate)))
        .unwrap_or_else(|| name.to_owned())
}

/// Chat text as shown: control characters removed (newlines and tabs become
/// spaces: a chat line is one line), bidi controls and zero-width characters
/// removed, ends trimmed.
pub(super) fn clean_chat(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() || is_invisible(c) => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim().to_owned()
}
