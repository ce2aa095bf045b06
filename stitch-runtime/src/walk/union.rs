//! R2/R3 at a union position: the one place that decides what a string found there gets.
//!
//! A union (`OneOrMany<T>`, an untagged enum) is *string-bearing* when one of its members
//! reads a string. There a string is kept (R2), except a list written as text that the
//! union's array form accepts, elements and bounds included, which is refused (R3). A union
//! with no string member reads no string at all, so a string there is JSON text to repair (R1).

use serde_json::Value;

use crate::bounds::Bounds;
use crate::json::text_list::is_text_list;
use crate::path::Path;
use crate::walk::{Coerce, Cx};

/// Whether a string member's `pattern` (`matches`) claims `text`, a list written as text: it
/// matches the whole text but not every item of the list (an item that is not a string never
/// matches), so the schema has told the two readings apart (`docs/rules.md#r3`). Runs only on
/// a text the array form accepts, so a pattern runs only where R3 would refuse.
pub(crate) fn pattern_claims(text: &str, matches: impl Fn(&str) -> bool) -> bool {
    let item_matches =
        |item: &str| serde_json::from_str::<String>(item).is_ok_and(|item| matches(&item));
    matches(text) && !is_text_list(text, item_matches, Bounds::NONE)
}

/// Walks a string `value` found at a position of the union type `U`: refused by name when it
/// is a list written as text that `U` accepts ([`Coerce::accepts_text_list`] with the field's
/// `bounds`), handed to `keep` when `U` reads strings, repaired as `U` otherwise. Any other
/// value is left alone (the caller walks arrays, objects and scalars itself).
///
/// `OneOrMany<T>` keeps a string by walking it as its `T` (which may be a union itself); the
/// derive's untagged enums have nothing more to do with it.
#[inline]
pub fn union_string<U: Coerce>(
    value: &mut Value,
    cx: &mut Cx,
    at: &Path<'_>,
    bounds: Bounds,
    keep: impl FnOnce(&mut Value, &mut Cx),
) {
    let Value::String(text) = value else {
        return;
    };
    if !U::SHAPE.strings {
        // R1: no member reads a string, so it can only be JSON text.
        cx.repair::<U>(value, at, bounds);
    } else if U::accepts_text_list(text, bounds) && !cx.pattern_claims(text) {
        // R3: a list written as text where one value is also valid.
        cx.text_list(at);
    } else {
        // R2: one plain value.
        keep(value, cx);
    }
}
