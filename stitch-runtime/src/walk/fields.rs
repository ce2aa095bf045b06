//! The walk of a struct's named fields from the derive's table ([`Fields`], `Coerce::FIELDS`),
//! flattened and generic ones included: the loop compiles here once, where a generated `match`
//! would compile for every type.

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::walk::{drop_absent, Claims, Cx};

/// A field's walk: `<T as Coerce>::walk`.
pub type WalkFn = fn(&mut Value, &mut Cx, &Path<'_>, Bounds);

/// A flattened field's walk of the object it shares: `<T as Coerce>::walk_flat`.
pub type FlatFn = fn(&mut Map<String, Value>, &mut Cx, &Path<'_>, &Claims<'_>);

/// A flattened field's type's hooks for an object it shares with its parent
/// (`<T as Coerce>::FLAT_FIELD`).
#[derive(Debug)]
pub struct FlatField {
    /// `Coerce::walk_flat`, run after the parent's own fields.
    pub walk: FlatFn,
    /// `Coerce::declares_key`.
    pub declares: fn(&str) -> bool,
    /// `Coerce::owns_key` (a flattened map reads any key).
    pub owns: fn(&str) -> bool,
    /// `Coerce::FIELDS`, named when `deny_unknown_fields` refuses a key beside them.
    pub fields: Option<&'static Fields>,
}

/// What a [`Fields`] entry reads of its field: `<T as Coerce>::FIELD_TYPE`, or a literal of the
/// derive's for a field with attributes or an alias.
#[derive(Debug)]
pub struct FieldType {
    /// `None` for an opaque field, only kept within the depth limit.
    pub walk: Option<WalkFn>,
    /// The field's `min_items` / `max_items`.
    pub bounds: Bounds,
    /// The field's constraints, set in the walker around its walk.
    pub limits: Option<&'static Limits>,
    /// `#[stitch(lenient_scalars)]`: numbers and literals written as text are read.
    pub lenient: bool,
    /// The type does not read `null` itself: a defaulted field's `null` is the field left out (R8).
    pub null_absent: bool,
    /// serde accepts the field missing (`Option<T>`).
    pub optional: bool,
    /// The field's wire name, for an entry read under an alias (`None`: the entry's name).
    pub wire: Option<&'static str>,
}

/// One name a field is read under (each alias has an entry, so an issue names the key sent):
/// `FieldWalk(type, name, ordinal, flags)`. A tuple struct built in place, not by a `const fn`,
/// which the compiler would check in every build that defines a tool.
#[derive(Debug)]
pub struct FieldWalk(pub &'static FieldType, pub &'static str, pub u32, pub u8);

impl FieldWalk {
    /// A key sent for it marks it seen (a field the struct may miss).
    pub const TRACKED: u8 = 1;
    /// serde defaults it (`#[serde(default)]` on it or on the struct).
    pub const DEFAULTED: u8 = 2;

    fn name(&self) -> &'static str {
        self.1
    }

    /// A key sent twice is refused by the wire name, as serde does.
    fn wire(&self) -> &'static str {
        self.0.wire.unwrap_or(self.1)
    }

    /// Paths sort by it.
    fn ordinal(&self) -> u32 {
        self.2
    }

    fn tracked(&self) -> bool {
        self.3 & Self::TRACKED != 0
    }

    /// R8: defaulted, and its type does not read `null` itself.
    fn null_absent(&self) -> bool {
        self.3 & Self::DEFAULTED != 0 && self.0.null_absent
    }

    fn required(&self) -> bool {
        self.tracked() && !self.0.optional
    }
}

/// A struct's named fields, the derive's `Coerce::FIELDS`: an associated constant, evaluated
/// where the type is walked rather than in every build of its crate.
#[derive(Debug)]
pub struct Fields {
    /// Every name a field is read under.
    pub names: &'static [FieldWalk],
    /// `#[serde(deny_unknown_fields)]`: the wire names, for the issue of a key none reads.
    pub deny: Option<&'static [&'static str]>,
    /// The flattened fields that walk the object too (not opaque ones), in field order.
    pub flat: &'static [&'static FlatField],
}

impl Fields {
    fn required(&self) -> u128 {
        self.names
            .iter()
            .filter(|f| f.required())
            .fold(0, |mask, f| mask | 1u128 << f.ordinal())
    }

    /// Aliases included.
    pub(crate) fn wire_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.names.iter().map(FieldWalk::name)
    }

    /// Whether a field here or declared by a flattened type reads `key`.
    pub fn declares(&self, key: &str) -> bool {
        self.names.iter().any(|f| f.name() == key) || self.flat.iter().any(|f| (f.declares)(key))
    }

    /// Whether anything here reads `key`, a flattened map any key.
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

    pub(crate) fn leaves_out_null_at(&self, key: &str) -> bool {
        self.names
            .iter()
            .any(|f| f.null_absent() && f.name() == key)
    }

    /// The required fields `missing` names (bits by ordinal), by wire name, in field order.
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

/// Walks `map` as `fields` at `at`: each field's key as its type, other keys within the depth
/// limit (or refused under `deny_unknown_fields` unless `owned` claims them); then required
/// fields not sent, R8's `null`s, and the flattened fields.
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
        drop_absent(map, cx, at, &|key: &str| {
            fields
                .names
                .iter()
                .find(|f| f.null_absent() && f.name() == key)
                .map(|f| f.ordinal())
        });
    }
    if !fields.flat.is_empty() {
        // A flattened map reads the keys no declared field claims at any level around it; a
        // flattened struct reads only its own, as serde's flatten does.
        let claims = owned.within_fields(fields);
        for flat in fields.flat {
            (flat.walk)(map, cx, at, &claims);
        }
    }
}

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
