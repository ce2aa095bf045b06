//! The walk of a struct's named fields from a table ([`Fields`]): what the derive writes for a
//! struct (or struct variant) with no flattened field and no type parameter, in place of a
//! `match` over the keys. The table is a `const` of each field's names and constants and a
//! pointer to its type's walk; the loop is compiled here once. A generated `match` was most of
//! what the compiler spent on the derive's output (issue #20; `BENCHMARKS.md`), and the loop
//! costs a walked call an indirect call per field.

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::walk::{drop_absent_by, Claims, Cx};

/// A field's walk: `<T as Coerce>::walk`.
pub type WalkFn = fn(&mut Value, &mut Cx, &Path<'_>, Bounds);

/// One name a field is read under (its wire name, or one of its aliases: each has an entry,
/// so an issue names the key actually sent).
#[derive(Debug)]
pub struct FieldWalk {
    /// The key.
    pub name: &'static str,
    /// The field's wire name (a key sent twice is refused by it, as serde does).
    pub wire: &'static str,
    /// The field's place among the struct's fields (paths sort by it).
    pub ordinal: u32,
    /// The field type's walk; `None` for an opaque field, only kept within the depth limit.
    pub walk: Option<WalkFn>,
    /// The field's `min_items` / `max_items`.
    pub bounds: Bounds,
    /// The field's constraints, set in the walker around its walk.
    pub limits: Option<&'static Limits>,
    /// `#[stitch(lenient_scalars)]`: numbers and literals written as text are read.
    pub lenient: bool,
    /// Whether a key sent for it marks it seen (a field the struct may miss).
    pub tracked: bool,
    /// Whether its `null` is the field left out (R8: defaulted, and its type does not read
    /// `null` itself).
    pub null_absent: bool,
}

/// A struct's named fields, as [`walk_fields`] walks them.
#[derive(Debug)]
pub struct Fields {
    /// Every name a field is read under.
    pub names: &'static [FieldWalk],
    /// The tracked fields (wire name, ordinal), for the issue of one missing.
    pub tracked: &'static [(&'static str, u32)],
    /// Bit `ordinal` for each tracked field serde requires.
    pub required: u128,
    /// `#[serde(deny_unknown_fields)]`: the wire names, for the issue of a key none reads.
    pub deny: Option<&'static [&'static str]>,
}

/// Walks `map` as the fields `fields` at `at` (a struct's `walk_flat`): each key a field reads
/// is walked as its type, every other key kept within the depth limit (or refused under
/// `deny_unknown_fields`, when `owned` does not claim it either); then each required field
/// not sent is an issue, and each defaulted field sent as `null` is left out (R8).
pub fn walk_fields(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    owned: &Claims<'_>,
    fields: &'static Fields,
) {
    let mut seen: u128 = 0;
    let mut absent = false;
    for (key, item) in map.iter_mut() {
        let Some(field) = fields.names.iter().find(|f| f.name == key.as_str()) else {
            if let Some(expected) = fields.deny {
                if owned.denies(key) {
                    cx.unknown_field(at, key, expected);
                }
            }
            cx.untyped(item, &at.key(key));
            continue;
        };
        if field.tracked {
            seen |= 1u128 << field.ordinal;
        }
        let here = at.field(field.name, field.ordinal);
        if !cx.sent_once(item, &here, field.wire) {
            continue;
        }
        if field.null_absent && item.is_null() {
            absent = true;
        } else {
            walk_field(field, item, cx, &here);
        }
    }
    if seen & fields.required != fields.required {
        cx.missing(at, fields.tracked, fields.required & !seen);
    }
    if absent {
        drop_absent_by(map, cx, at, &|key: &str| {
            fields
                .names
                .iter()
                .find(|f| f.null_absent && f.name == key)
                .map(|f| f.ordinal)
        });
    }
}

/// One field's value, walked as its type with its constraints and leniency set around it.
fn walk_field(field: &FieldWalk, item: &mut Value, cx: &mut Cx, here: &Path<'_>) {
    let Some(walk) = field.walk else {
        cx.untyped(item, here);
        return;
    };
    let limits = field.limits.map(|limits| cx.set_limits(Some(limits)));
    let lenient = field.lenient.then(|| cx.set_lenient(true));
    walk(item, cx, here, field.bounds);
    if let Some(lenient) = lenient {
        cx.set_lenient(lenient);
    }
    if let Some(limits) = limits {
        cx.set_limits(limits);
    }
}
