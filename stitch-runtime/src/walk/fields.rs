//! The walk of a struct's named fields from a table ([`Fields`]): what the derive writes for a
//! struct (or struct variant) with no flattened field and no type parameter, in place of a
//! `match` over the keys. The table is an associated constant (`Coerce::FIELDS`, or a struct
//! variant's in the derive's helpers) of each field's names and a reference to what its type
//! says ([`FieldType`]); the loop is compiled here once, where a generated `match` would be
//! compiled for every type. The table is read by `Coerce`'s default `walk_flat` and
//! `declares_key`, generic methods compiled only where the type is walked.

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::walk::{drop_absent_by, Claims, Cx};

/// A field's walk: `<T as Coerce>::walk`.
pub type WalkFn = fn(&mut Value, &mut Cx, &Path<'_>, Bounds);

/// What an entry of a [`Fields`] table reads of its field: `<T as Coerce>::FIELD_TYPE`, the
/// type's own, for most fields; a literal of the derive's for a field with attributes (opaque,
/// item bounds, constraints, leniency) or an alias.
#[derive(Debug)]
pub struct FieldType {
    /// The field type's walk; `None` for an opaque field, only kept within the depth limit.
    pub walk: Option<WalkFn>,
    /// The field's `min_items` / `max_items`.
    pub bounds: Bounds,
    /// The field's constraints, set in the walker around its walk.
    pub limits: Option<&'static Limits>,
    /// `#[stitch(lenient_scalars)]`: numbers and literals written as text are read.
    pub lenient: bool,
    /// The type does not read `null` itself (`null_is_absent`): a defaulted field's `null`
    /// is the field left out (R8).
    pub null_absent: bool,
    /// serde accepts the field missing (`Option<T>`).
    pub optional: bool,
    /// The field's wire name, for an entry read under an alias (`None`: the entry's name).
    pub wire: Option<&'static str>,
}

/// One name a field is read under (its wire name, or one of its aliases: each has an entry,
/// so an issue names the key actually sent): `FieldWalk(type, name, ordinal, flags)`, with
/// [`FieldWalk::TRACKED`] and [`FieldWalk::DEFAULTED`] in `flags`.
///
/// A tuple struct built in place, not by a `const fn`: the compiler checks each value of a
/// type with fields that a call returns in a constant, in every build that defines a tool.
#[derive(Debug)]
pub struct FieldWalk(pub &'static FieldType, pub &'static str, pub u32, pub u8);

impl FieldWalk {
    /// A key sent for it marks it seen (a field the struct may miss).
    pub const TRACKED: u8 = 1;
    /// serde defaults it (`#[serde(default)]` on it or on the struct).
    pub const DEFAULTED: u8 = 2;

    /// The key.
    fn name(&self) -> &'static str {
        self.1
    }

    /// The field's wire name (a key sent twice is refused by it, as serde does).
    fn wire(&self) -> &'static str {
        self.0.wire.unwrap_or(self.1)
    }

    /// The field's place among the struct's fields (paths sort by it).
    fn ordinal(&self) -> u32 {
        self.2
    }

    /// Whether a key sent for it marks it seen.
    fn tracked(&self) -> bool {
        self.3 & Self::TRACKED != 0
    }

    /// Whether its `null` is the field left out (R8: defaulted, and its type does not read
    /// `null` itself).
    fn null_absent(&self) -> bool {
        self.3 & Self::DEFAULTED != 0 && self.0.null_absent
    }

    /// Whether serde requires it: tracked, and its type is not an `Option`.
    fn required(&self) -> bool {
        self.tracked() && !self.0.optional
    }
}

/// A struct's named fields, as [`walk_fields`] walks them: the derive's `Coerce::FIELDS`, an
/// associated constant (evaluated where the type is walked, not in every build of the crate
/// that defines it, as a free `const` would be).
#[derive(Debug)]
pub struct Fields {
    /// Every name a field is read under.
    pub names: &'static [FieldWalk],
    /// `#[serde(deny_unknown_fields)]`: the wire names, for the issue of a key none reads.
    pub deny: Option<&'static [&'static str]>,
}

impl Fields {
    /// Bit `ordinal` for each field serde requires.
    fn required(&self) -> u128 {
        self.names
            .iter()
            .filter(|f| f.required())
            .fold(0, |mask, f| mask | 1u128 << f.ordinal())
    }

    /// Whether a field reads `key`.
    pub fn declares(&self, key: &str) -> bool {
        self.names.iter().any(|f| f.name() == key)
    }

    /// Whether some field takes its `null` as the field left out (R8).
    pub(crate) const fn leaves_out_null(&self) -> bool {
        let mut i = 0;
        while i < self.names.len() {
            let f = &self.names[i];
            if f.3 & FieldWalk::DEFAULTED != 0 && f.0.null_absent {
                return true;
            }
            i += 1;
        }
        false
    }

    /// Whether the field read under `key` takes its `null` as the field left out (R8).
    pub(crate) fn leaves_out_null_at(&self, key: &str) -> bool {
        self.names
            .iter()
            .any(|f| f.null_absent() && f.name() == key)
    }

    /// The required fields `missing` names (bits by ordinal), by wire name, in the order of
    /// the fields.
    fn missing(&self, missing: u128) -> Vec<(&'static str, u32)> {
        let mut left = missing;
        let mut named = Vec::new();
        for f in self.names {
            let bit = 1u128 << f.ordinal();
            if f.tracked() && left & bit != 0 {
                left &= !bit;
                named.push((f.wire(), f.ordinal()));
            }
        }
        named
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
        let Some(field) = fields.names.iter().find(|f| f.name() == key.as_str()) else {
            if let Some(expected) = fields.deny {
                if owned.denies(key) {
                    cx.unknown_field(at, key, expected);
                }
            }
            cx.untyped(item, &at.key(key));
            continue;
        };
        if field.tracked() {
            seen |= 1u128 << field.ordinal();
        }
        let here = at.field(field.name(), field.ordinal());
        if !cx.sent_once(item, &here, field.wire()) {
            continue;
        }
        if field.null_absent() && item.is_null() {
            absent = true;
        } else {
            walk_field(field, item, cx, &here);
        }
    }
    let required = fields.required();
    if seen & required != required {
        cx.missing(at, &fields.missing(required & !seen), required & !seen);
    }
    if absent {
        drop_absent_by(map, cx, at, &|key: &str| {
            fields
                .names
                .iter()
                .find(|f| f.null_absent() && f.name() == key)
                .map(|f| f.ordinal())
        });
    }
}

/// One field's value, walked as its type with its constraints and leniency set around it.
fn walk_field(field: &FieldWalk, item: &mut Value, cx: &mut Cx, here: &Path<'_>) {
    let field = field.0;
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
