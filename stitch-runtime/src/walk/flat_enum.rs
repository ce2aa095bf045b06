//! Flattened unions, an enum or an `Option` whose keys are its parent's
//! (`docs/rules.md#flattened-unions`): what the derive's tagged walks (`expand/flat_enum.rs`)
//! share. A flattened `Option<T>` is never an error: `Some` when `T` reads the keys, else `None`,
//! decided as an untagged enum is (`docs/rules.md#untagged`).

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::error::Issue;
use crate::path::Path;
use crate::walk::{deserialized, Claims, Coerce, Cx};

/// A flattened externally tagged enum `T` with no key naming a variant: serde's refusal.
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

/// A flattened tagged enum `T` whose tag names no variant: serde's verdict on the keys it reads.
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

/// A flattened untagged enum: the keys no level around it reads, walked as one object.
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

/// Runs `walk` on the keys handed to a flattened `T`, at the parent's depth, and puts them back.
/// The notes of keys sent twice follow the keys there and back (`docs/rules.md#duplicates`).
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

/// A flattened `Option` that is `None`: serde hands its keys to no one (depth only).
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

/// The keys serde hands a flattened `T` as an object, and the rest kept aside in order.
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

struct Parted {
    order: Vec<String>,
    kept: Map<String, Value>,
}

impl Parted {
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

/// A flattened `Option<T>`: walked as `T` when that finds nothing; else serde's reading decides.
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

/// A `None` leaves the keys as sent (depth only).
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

/// Whether a flattened `Option<T>` is `Some` as serde reads it as sent: then `T`'s refusals
/// stand, nothing repaired; a `None` refuses nothing (`docs/rules.md#untagged`).
fn decide<T: Coerce>(value: &mut Value, cx: &mut Cx, at: &Path<'_>) -> bool {
    if !cx.is_apply() {
        // Past the depth limit the keys are refused and serde, which would recurse, is not asked.
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
        if let Value::Object(map) = value {
            // Every key claimed around it: serde hands a flattened struct only its own fields.
            T::walk_flat(map, &mut probe, at, &Claims::beside(claims_everything));
        }
        // A key of `T`'s sent twice: serde refuses `T` for the text, so the field is `None`.
        if probe.met_duplicate() {
            cx.end_probe(probe);
            return false;
        }
        cx.absorb(probe);
    }
    true
}

fn claims_everything(_: &str) -> bool {
    true
}
