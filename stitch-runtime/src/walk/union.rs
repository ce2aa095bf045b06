//! R2/R3 at a union position (`OneOrMany<T>`, an untagged enum): the one place that decides
//! what a string found there gets (`docs/rules.md#r3`).

use serde_json::Value;

use crate::bounds::Bounds;
use crate::json::text_list::is_text_list;
use crate::path::Path;
use crate::walk::{Coerce, Cx};

/// Whether a string member's `pattern` claims `text`, a list written as text: it matches the
/// whole text but not every item, so the schema told the readings apart (`docs/rules.md#r3`).
pub(crate) fn pattern_claims(text: &str, matches: impl Fn(&str) -> bool) -> bool {
    let item_matches =
        |item: &str| serde_json::from_str::<String>(item).is_ok_and(|item| matches(&item));
    matches(text) && !is_text_list(text, item_matches, Bounds::NONE)
}

/// Walks a string at a position of the union `U`: repaired as `U` when no member reads strings
/// (R1); else refused by name when it is a list written as text that `U` accepts within `bounds`
/// (R3); else handed to `keep` (R2). Any other value is left to the caller.
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
        cx.repair::<U>(value, at, bounds);
    } else if U::accepts_text_list(text, bounds) && !cx.pattern_claims(text) {
        cx.text_list(at);
    } else {
        keep(value, cx);
    }
}
