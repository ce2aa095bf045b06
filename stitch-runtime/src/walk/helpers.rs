//! The walks every kind of position shares (leaves, sequences, maps, structs, R8's `null`s),
//! called by the std impls and the derive's output.

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::path::Path;
use crate::report::RepairKind;
use crate::walk::{Claims, Coerce, Cx, Kind};

/// Walks a leaf: nothing to repair; serde checks what `admits` (the quick test) does not.
#[inline]
pub fn walk_leaf<T: Coerce>(value: &Value, cx: &mut Cx, at: &Path<'_>, admits: bool) {
    if !admits {
        cx.check::<T>(value, at);
    }
}

/// Walks a sequence of element type `T` (`S` is the sequence type, for R1).
#[inline]
pub fn walk_seq<S: Coerce, T: Coerce>(
    value: &mut Value,
    cx: &mut Cx,
    at: &Path<'_>,
    bounds: Bounds,
) {
    match value {
        Value::Array(items) => {
            cx.check_len(items.len(), bounds, at);
            walk_items::<T>(items, cx, at);
        }
        Value::String(_) => cx.repair::<S>(value, at, bounds),
        other => cx.check::<S>(other, at),
    }
}

/// Walks each item of a real array as a `T`.
#[inline]
pub fn walk_items<T: Coerce>(items: &mut [Value], cx: &mut Cx, at: &Path<'_>) {
    if !cx.enter(at) {
        return;
    }
    if const { takes_any_string::<T>() } && !T::LIMITED && !cx.has_limits() {
        // An item taking any string has nothing to repair or judge; a `char` or unit-variant enum
        // judges its string, so it goes the other way.
        for (i, item) in items.iter_mut().enumerate() {
            if !item.is_string() {
                T::walk(item, cx, &at.index(i), Bounds::NONE);
            }
        }
    } else {
        for (i, item) in items.iter_mut().enumerate() {
            T::walk(item, cx, &at.index(i), Bounds::NONE);
        }
    }
    cx.leave();
}

/// `String`, `PathBuf` and newtypes of them; not a `char` or a unit-variant enum.
const fn takes_any_string<T: Coerce>() -> bool {
    T::SHAPE.kind as u8 == Kind::StringLike as u8
        && matches!(
            crate::schema::core(T::SCHEMA),
            crate::schema::Schema::String
        )
}

/// Walks a map with values of type `T` (`M` is the map type, for R1).
#[inline]
pub fn walk_map<M: Coerce, T: Coerce>(value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
    match value {
        Value::Object(map) => {
            if cx.enter(at) {
                for (key, item) in map.iter_mut() {
                    T::walk(item, cx, &at.key(key), Bounds::NONE);
                }
                cx.leave();
            }
        }
        Value::String(_) => cx.repair::<M>(value, at, Bounds::NONE),
        other => cx.check::<M>(other, at),
    }
}

/// Walks a struct `T`'s position: R1 for a string, then its fields.
#[inline]
pub fn walk_object<T: Coerce>(value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
    match value {
        Value::Object(map) => {
            if cx.enter(at) {
                // A struct's fields follow its own `lenient_scalars`, not the parent's.
                let lenient = cx.set_lenient(false);
                T::walk_flat(map, cx, at, &Claims::NONE);
                cx.set_lenient(lenient);
                cx.leave();
            }
        }
        Value::String(_) => cx.repair::<T>(value, at, Bounds::NONE),
        // serde reads a struct from an array too, field by field.
        Value::Array(_) => cx.untyped(value, at),
        other => cx.check::<T>(other, at),
    }
}

/// Walks every entry of `map` for depth only (an object whose variant is unknown).
pub fn untyped_entries(map: &Map<String, Value>, cx: &mut Cx, at: &Path<'_>) {
    for (key, item) in map {
        cx.untyped(item, &at.key(key));
    }
}

/// Whether a defaulted field of type `T` takes `null` as left out (`docs/rules.md#r8`).
#[inline]
pub const fn null_is_absent<T: Coerce>() -> bool {
    !T::NULLABLE && !matches!(T::SHAPE.kind, Kind::Any)
}

/// R8: drops each `null` key `absent` names (with its field's ordinal), so serde defaults it.
#[cold]
pub(crate) fn drop_absent(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    absent: &dyn Fn(&str) -> Option<u32>,
) {
    for (key, value) in map.iter() {
        if value.is_null() {
            if let Some(ordinal) = absent(key) {
                cx.repaired(&at.declared(key, ordinal), RepairKind::NullLeftOut, value);
            }
        }
    }
    if cx.is_apply() {
        map.retain(|key, value| !(value.is_null() && absent(key).is_some()));
    }
}

/// The fast path's check of a deserialized sequence: its length and its items' bounds hold.
pub(crate) fn items_hold<'a, T: Coerce + 'a>(
    items: impl IntoIterator<Item = &'a T>,
    len: usize,
    bounds: Bounds,
) -> bool {
    bounds.contains(len) && items.into_iter().all(|item| item.bounds_hold(Bounds::NONE))
}

/// Bounds count the items as sent and a set collapses repeats: a bounded set takes the full path.
pub(crate) fn set_holds<'a, T: Coerce + 'a>(
    items: impl IntoIterator<Item = &'a T>,
    bounds: Bounds,
) -> bool {
    bounds.is_none() && items.into_iter().all(|item| item.bounds_hold(Bounds::NONE))
}
