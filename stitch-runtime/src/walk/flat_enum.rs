//! Flattened unions: an enum (`#[serde(flatten)] act: Act`, any tagging) and an `Option`
//! (`#[serde(flatten)] inner: Option<Inner>`) whose keys are their parent's
//! (`docs/rules.md#flattened-unions`).
//!
//! serde collects the keys no field of the parent reads and hands them to the flattened type:
//! an externally tagged enum takes the first key naming a variant, an internally or adjacently
//! tagged one reads its tag (and content) key, an untagged one tries each variant on them all.
//! The derive writes the tagged walks (`expand/flat_enum.rs`); what they share is here.
//! A flattened `Option<T>` is `Some` when `T` reads the keys and `None` otherwise, never an
//! error: a union of `T` and "anything", decided as an untagged enum is (`docs/rules.md#untagged`).

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::error::Issue;
use crate::path::Path;
use crate::walk::{deserialized, Claims, Coerce, Cx};

/// A flattened externally tagged enum `T` that finds no key naming one of its variants:
/// serde's refusal, in its words.
#[cold]
#[inline(never)]
pub fn no_flat_variant<T>(cx: &mut Cx, at: &Path<'_>) {
    let name = core::any::type_name::<T>();
    let name = name.split('<').next().unwrap_or(name);
    let name = name.rsplit("::").next().unwrap_or(name);
    cx.report(at, || {
        Issue::invalid(
            at.render(),
            format_args!("no variant of enum {name} found in flattened data"),
        )
    });
}

/// A flattened tagged enum `T` whose tag names no variant: serde's verdict on the keys it reads
/// (`keys`, or every key no level around it reads when `None`), read as a `T`.
#[cold]
#[inline(never)]
pub fn flat_refused<T: Coerce>(
    map: &Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    claims: &Claims<'_>,
    keys: Option<&[&str]>,
) {
    let read: Map<String, Value> = map
        .iter()
        .filter(|(key, _)| match keys {
            Some(keys) => keys.contains(&key.as_str()),
            None => !claims.claims(key) || T::declares_key(key),
        })
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    cx.within_parent(|cx| cx.check::<T>(&Value::Object(read), at));
}

/// A flattened untagged enum `T`: serde tries each variant on the keys no level around it
/// reads, so they are walked as one object of `T`'s, at the parent's place and depth.
pub fn walk_flat_whole<T: Coerce>(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    claims: &Claims<'_>,
) {
    walk_handed::<T, _>(map, cx, claims, |value, cx| {
        T::walk(value, cx, at, Bounds::NONE)
    });
}

/// Runs `walk` on the keys handed to a flattened `T` ([`handed`]), as one object at the
/// parent's place and depth, and puts them back. The notes of keys the text sent twice follow
/// the keys there and back, so the walk judges them as serde reads the text
/// (`docs/rules.md#duplicates`): a list written as text among them is refused all the same.
fn walk_handed<T: Coerce, R>(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    claims: &Claims<'_>,
    walk: impl FnOnce(&mut Value, &mut Cx) -> R,
) -> R {
    let noted = cx.noted_in(&[map]);
    let (mut value, parted) = handed::<T>(map, claims);
    let none = Map::new();
    cx.follow(&noted, &[value.as_object().unwrap_or(&none), &parted.kept]);
    let done = cx.within_parent(|cx| walk(&mut value, cx));
    let noted = cx.noted_in(&[value.as_object().unwrap_or(&none), &parted.kept]);
    parted.rejoin(map, value);
    cx.follow(&noted, &[map]);
    done
}

/// A flattened `Option` that is `None`: serde hands its keys to no one, so the walk leaves
/// them as they are (depth only).
#[cold]
#[inline(never)]
fn left_as_sent<T: Coerce>(
    map: &Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    claims: &Claims<'_>,
) {
    for (key, item) in map {
        if T::owns_key(key) && (!claims.claims(key) || T::declares_key(key)) {
            cx.untyped(item, &at.key(key));
        }
    }
}

/// The keys of a shared object serde hands a flattened `T`: those no level around it reads
/// (`claims` holds the levels' fields and what `T` itself declares), as an object of their
/// own, and the rest kept aside with the object's order ([`Parted::rejoin`]).
fn handed<T: Coerce>(map: &mut Map<String, Value>, claims: &Claims<'_>) -> (Value, Parted) {
    let order: Vec<String> = map.keys().cloned().collect();
    let mut handed = Map::new();
    let mut kept = Map::new();
    for (key, item) in core::mem::take(map) {
        if claims.claims(&key) && !T::declares_key(&key) {
            kept.insert(key, item);
        } else {
            handed.insert(key, item);
        }
    }
    (Value::Object(handed), Parted { order, kept })
}

/// The keys of a shared object not handed to a flattened type, and the object's order.
struct Parted {
    order: Vec<String>,
    kept: Map<String, Value>,
}

impl Parted {
    /// Puts the handed keys (`value`, walked) back beside the kept ones, in the first order.
    fn rejoin(mut self, map: &mut Map<String, Value>, value: Value) {
        let Value::Object(mut handed) = value else {
            return;
        };
        for key in self.order {
            if let Some(item) = handed.remove(&key).or_else(|| self.kept.remove(&key)) {
                map.insert(key, item);
            }
        }
    }
}

/// A flattened `Option<T>`: `T`'s keys walked as `T` when they need nothing (the quick test);
/// otherwise serde's reading of them as sent decides ([`flat_option_decided`]).
#[inline]
pub(crate) fn walk_flat_option<T: Coerce>(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    claims: &Claims<'_>,
) {
    let mut probe = cx.probe();
    T::walk_flat(map, &mut probe, at, claims);
    if !cx.end_probe(probe) {
        flat_option_decided::<T>(map, cx, at, claims);
    }
}

/// A flattened `Option<T>` whose keys the walk of `T` refuses or repairs: serde's reading of
/// them as sent decides ([`decide`]); a `None` leaves them as sent (depth only).
#[cold]
#[inline(never)]
fn flat_option_decided<T: Coerce>(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    claims: &Claims<'_>,
) {
    let some = walk_handed::<T, _>(map, cx, claims, |value, cx| decide::<T>(value, cx, at));
    if !some {
        left_as_sent::<T>(map, cx, at, claims);
    }
}

/// Whether a flattened `Option<T>` holding the keys `value` is `Some`: serde reads a `T` from
/// them as sent. Then `T` is walked, its own refusals standing (a list written as text, a
/// constraint), nothing repaired. Otherwise it is `None`, serde's reading: nothing is refused,
/// and nothing is repaired into a `Some` that serde reads as `None` (a repair never changes
/// the meaning of a value serde accepts, `docs/rules.md#untagged`), R8's `null`s included.
fn decide<T: Coerce>(value: &mut Value, cx: &mut Cx, at: &Path<'_>) -> bool {
    if !cx.is_apply() {
        // Past the depth limit the keys are refused as every walk refuses them, and serde is
        // not asked to read them (it would recurse as deep as they go).
        let mut depth = cx.value_probe();
        depth.untyped(value, at);
        if depth.too_deep() {
            cx.absorb(depth);
            return true;
        }
    }
    if deserialized::<T>(value).is_none() {
        return false;
    }
    if !cx.is_apply() || cx.has_duplicates() {
        let mut probe = cx.probe();
        flat_member::<T>(value, &mut probe, at, Bounds::NONE);
        // A key of `T`'s sent twice: serde refuses `T` for the text, so the field is `None`.
        if probe.met_duplicate() {
            cx.end_probe(probe);
            return false;
        }
        cx.absorb(probe);
    }
    true
}

/// `T`'s walk of the shared keys, as a member of the union `Option<T>` flattened. Every key
/// is taken as claimed around it: a `deny_unknown_fields` inside judges nothing (serde hands a
/// flattened struct only its own fields).
fn flat_member<T: Coerce>(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
    if let Value::Object(map) = value {
        T::walk_flat(map, cx, at, &Claims::beside(claims_everything));
    }
}

fn claims_everything(_: &str) -> bool {
    true
}
