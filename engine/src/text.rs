//! Text that people type (player names, a room's card titles): what to strip
//! before anyone else sees it.

/// Bidi controls and zero-width (or otherwise invisible) characters: they show
/// nothing themselves but can reorder or hide the text around them.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}
