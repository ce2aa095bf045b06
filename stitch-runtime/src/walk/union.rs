//! R2/R3 at a union position: the one place that decides what a string found there gets.
//!
//! A union (`OneOrMany<T>`, an untagged enum) is *string-bearing* when one of its members
//! reads a string. There a string is kept (R2), except a list written as text that the
//! union's array form accepts, elements and bounds included, which is refused (R3). A union
//! with no string member reads no string at all, so a string there is JSON text to repair (R1).

use serde_json::Value;

use crate::bounds::Bounds;
use crate::path::Path;
use crate::walk::{Coerce, Cx};

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
    } else if U::accepts_text_list(text, bounds) {
        // R3: a list written as text where one value is also valid.
        cx.text_list(at);
    } else {
        // R2: one plain value.
        keep(value, cx);
    }
}
