//! Random edits to a text, for property tests that feed broken JSON: each test draws its own
//! mix of [`TextEdit`]s (its strategy) and [`apply`]s them.

use proptest::sample::Index;

/// One change to a text, at a char position drawn by proptest.
#[derive(Clone, Copy, Debug)]
pub enum TextEdit {
    /// Cut the text at a position (its end included).
    Truncate(Index),
    /// Insert a char at a position (its end included).
    Insert(Index, char),
    /// Delete the char at a position.
    Delete(Index),
    /// Replace the char at a position.
    Replace(Index, char),
}

/// Applies `edits` in order; each position is taken within the text as it is by then (an edit
/// that needs a char does nothing to an empty text).
pub fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        match *edit {
            TextEdit::Truncate(i) => chars.truncate(i.index(chars.len() + 1)),
            TextEdit::Insert(i, c) => chars.insert(i.index(chars.len() + 1), c),
            TextEdit::Delete(i) if !chars.is_empty() => {
                chars.remove(i.index(chars.len()));
            }
            TextEdit::Replace(i, c) if !chars.is_empty() => {
                let k = i.index(chars.len());
                chars[k] = c;
            }
            TextEdit::Delete(_) | TextEdit::Replace(..) => {}
        }
    }
    chars.into_iter().collect()
}
