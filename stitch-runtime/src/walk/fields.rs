//! The walk of a struct's named fields from a table ([`Fields`]): what the derive writes for a
//! struct (or struct variant) with no flattened field and no type parameter, in place of a
//! `match` over the keys. The table is an associated constant (`Coerce::FIELDS`, or a struct
//! variant's in the derive's helpers) of each field's names and constants and a pointer to its
//! type's walk; the loop is compiled here once. A generated `match` was most of what the
//! compiler spent on the derive's output (issue #20; `BENCHMARKS.md`), and the loop costs a
//! walked call an indirect call per field. An associated constant, named from a generic
//! function ([`walk_fields_of`]), is evaluated only where the type is walked: a `const` item in
//! the generated body was evaluated in every build of the crate that defines the type, by the
//! compiler's lints.

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::schema::FieldOf;
use crate::walk::{drop_absent_by, Claims, Coerce, Cx};

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
    /// Whether serde requires it: tracked, and its type is not an `Option`.
    pub required: bool,
}

impl FieldWalk {
    /// The entry of most fields, read under its wire name `name` and walked by `walk` (its
    /// type's, whose constants are `of`), with no item bounds, constraints or leniency: what
    /// the derive writes in one call rather than a struct of ten members (fewer tokens to
    /// parse and check in every user's build). The derive passes `<T as Coerce>::walk` and
    /// `<T as Coerce>::FIELD`, so that a type stitch cannot walk is the one error at the
    /// field the schema's property reports too, not one more for a generic bound.
    pub const fn of(
        walk: WalkFn,
        of: FieldOf,
        name: &'static str,
        ordinal: u32,
        tracked: bool,
        defaulted: bool,
    ) -> FieldWalk {
        FieldWalk {
            name,
            wire: name,
            ordinal,
            walk: Some(walk),
            bounds: Bounds::NONE,
            limits: None,
            lenient: false,
            tracked,
            null_absent: defaulted && of.null_absent,
            required: tracked && !of.optional,
        }
    }
}

/// A struct's named fields, as [`walk_fields`] walks them: the derive's `Coerce::FIELDS`, an
/// associated constant (evaluated where the type is walked, not in every build of the crate
/// that defines it, as a free `const` would be).
#[derive(Debug)]
pub struct Fields {
    /// Every name a field is read under.
    pub names: &'static [FieldWalk],
    /// The tracked fields (wire name, ordinal), for the issue of one missing.
    pub tracked: &'static [(&'static str, u32)],
    /// `#[serde(deny_unknown_fields)]`: the wire names, for the issue of a key none reads.
    pub deny: Option<&'static [&'static str]>,
}

impl Fields {
    /// No field: the table of a type that is not a struct.
    pub const EMPTY: Fields = Fields {
        names: &[],
        tracked: &[],
        deny: None,
    };

    /// Bit `ordinal` for each field serde requires.
    fn required(&self) -> u128 {
        self.names
            .iter()
            .filter(|f| f.required)
            .fold(0, |mask, f| mask | 1u128 << f.ordinal)
    }
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
    let required = fields.required();
    if seen & required != required {
        cx.missing(at, fields.tracked, required & !seen);
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

/// [`walk_fields`] of `T`'s table (`Coerce::FIELDS`): what a struct's `walk_flat` calls. The
/// table is named here, in a generic function, so that the defining crate's lints do not
/// evaluate it in every build (a constant in the generated body would be).
#[inline]
pub fn walk_fields_of<T: Coerce>(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    owned: &Claims<'_>,
) {
    walk_fields(map, cx, at, owned, T::FIELDS);
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
