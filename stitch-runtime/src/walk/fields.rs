//! The walk of a struct's named fields from a table ([`Fields`]): what the derive writes for
//! every struct and struct variant with named fields, flattened and generic ones included.
//! The table is an associated constant (`Coerce::FIELDS`, or a struct variant's in the
//! derive's helpers) of each field's names and a reference to what its type says
//! ([`FieldType`]), and of what each flattened field's type does with a shared object
//! ([`FlatField`]); the loop is compiled here once, where a generated `match` would be
//! compiled for every type. The table is read by `Coerce`'s default `walk_flat`,
//! `declares_key` and `owns_key`, generic methods compiled only where the type is walked.

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::walk::{drop_absent_by, Claims, Cx};

/// A field's walk: `<T as Coerce>::walk`.
pub type WalkFn = fn(&mut Value, &mut Cx, &Path<'_>, Bounds);

/// A flattened field's walk of the object it shares: `<T as Coerce>::walk_flat`.
pub type FlatFn = fn(&mut Map<String, Value>, &mut Cx, &Path<'_>, &Claims<'_>);

/// What a struct's table reads of a flattened field's type (`#[serde(flatten)]`, not opaque):
/// `<T as Coerce>::FLAT_FIELD`, the type's hooks for an object it shares with its parent.
#[derive(Debug)]
pub struct FlatField {
    /// `Coerce::walk_flat`: walks the keys the type reads, after the parent's own fields.
    pub walk: FlatFn,
    /// `Coerce::declares_key`: a declared field of the type reads the key.
    pub declares: fn(&str) -> bool,
    /// `Coerce::owns_key`: the type reads the key at all (a flattened map reads any).
    pub owns: fn(&str) -> bool,
    /// `Coerce::FIELDS`: the type's own fields, named when `deny_unknown_fields` refuses a
    /// key beside them.
    pub fields: Option<&'static Fields>,
}

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
    /// The flattened fields that walk the object too (an opaque one is serde's alone), in
    /// the order of the fields.
    pub flat: &'static [&'static FlatField],
}

impl Fields {
    /// Bit `ordinal` for each field serde requires.
    fn required(&self) -> u128 {
        self.names
            .iter()
            .filter(|f| f.required())
            .fold(0, |mask, f| mask | 1u128 << f.ordinal())
    }

    /// The keys the fields are read under, aliases included.
    pub(crate) fn wire_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.names.iter().map(FieldWalk::name)
    }

    /// Whether a field reads `key`: one of these, or a declared field of a flattened type
    /// (what a flattened map beside them leaves alone).
    pub fn declares(&self, key: &str) -> bool {
        self.names.iter().any(|f| f.name() == key) || self.flat.iter().any(|f| (f.declares)(key))
    }

    /// Whether anything here reads `key`: [`Fields::declares`], or a flattened type that reads
    /// more than it declares (a map, any key).
    pub fn owns(&self, key: &str) -> bool {
        self.names.iter().any(|f| f.name() == key) || self.flat.iter().any(|f| (f.owns)(key))
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
/// is walked as its type, every other key that no flattened type owns kept within the depth
/// limit (or refused under `deny_unknown_fields`, when `owned` does not claim it either);
/// then each required field not sent is an issue, each defaulted field sent as `null` is
/// left out (R8), and each flattened field walks the keys it reads, handed what this level
/// and `owned` declare.
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
            // A flattened type's key is its own walk's, after this loop.
            if fields.flat.iter().any(|f| (f.owns)(key)) {
                continue;
            }
            if let Some(expected) = fields.deny {
                if owned.denies(key) {
                    if fields.flat.is_empty() {
                        cx.unknown_field(at, key, expected);
                    } else {
                        cx.unknown_among(at, key, expected, fields.flat);
                    }
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
    if !fields.flat.is_empty() {
        // A flattened map reads the keys no declared field claims, at this level or any
        // around it; a flattened struct reads only its own fields, as serde's flatten does.
        let claims = owned.within_fields(fields);
        for flat in fields.flat {
            (flat.walk)(map, cx, at, &claims);
        }
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
