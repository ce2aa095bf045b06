//! The walk of a struct's named fields from a table ([`Fields`]).

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::walk::{drop_absent_by, Claims, Cx};

/// A field's walk: `<T as Coerce>::walk`.
pub type WalkFn = fn(&mut Value, &mut Cx, &Path<'_>, Bounds);

/// One name a field is read under.
#[derive(Debug)]
pub struct FieldWalk {
    /// The key.
    pub name: &'static str,
    /// The field's wire name.
    pub wire: &'static str,
    /// The field's place among the struct's fields.
    pub ordinal: u32,
    /// The field type's walk; `None` for an opaque field.
    pub walk: Option<WalkFn>,
    /// The field's `min_items` / `max_items`.
    pub bounds: Bounds,
    /// The field's constraints.
    pub limits: Option<&'static Limits>,
    /// `#[stitch(lenient_scalars)]`.
    pub lenient: bool,
    /// Whether a key sent for it marks it seen.
    pub tracked: bool,
    /// R8.
    pub null_absent: bool,
}

/// A struct's named fields.
#[derive(Debug)]
pub struct Fields {
    /// Every name a field is read under.
    pub names: &'static [FieldWalk],
    /// The tracked fields.
    pub tracked: &'static [(&'static str, u32)],
    /// Required bits.
    pub required: u128,
    /// `deny_unknown_fields`.
    pub deny: Option<&'static [&'static str]>,
}

/// Walks `map` as the fields `fields` at `at`.
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
