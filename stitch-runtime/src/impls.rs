//! [`Coerce`] for the standard types of `coercion-rules.md`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::coerce::{walk_flat_map, walk_items, walk_leaf, walk_map, walk_seq, Coerce, Cx, Shape};
use crate::one_or_many::OneOrMany;
use crate::path::Path;
use crate::text_list::{is_json_char, is_json_string, is_text_list, Bounds};

macro_rules! string_like {
    ($($ty:ty),* $(,)?) => {$(
        impl Coerce for $ty {
            const SHAPE: Shape = Shape::STRING_LIKE;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
                walk_leaf(value, cx, at);
            }

            #[inline]
            fn accepts_element(text: &str) -> bool {
                is_json_string(text)
            }
        }
    )*};
}

string_like!(String, Box<str>, PathBuf);

impl Coerce for Cow<'_, str> {
    const SHAPE: Shape = Shape::STRING_LIKE;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
        walk_leaf(value, cx, at);
    }

    #[inline]
    fn accepts_element(text: &str) -> bool {
        is_json_string(text)
    }
}

impl Coerce for char {
    const SHAPE: Shape = Shape::STRING_LIKE;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
        walk_leaf(value, cx, at);
    }

    #[inline]
    fn accepts_element(text: &str) -> bool {
        is_json_char(text)
    }
}

macro_rules! scalar {
    ($($ty:ty => $lenient:expr),* $(,)?) => {$(
        impl Coerce for $ty {
            const SHAPE: Shape = Shape::SCALAR;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
                if cx.is_lenient() {
                    if let Value::String(text) = value {
                        if let Some(read) = $lenient(text) {
                            cx.replace(value, read);
                            return;
                        }
                    }
                }
                walk_leaf(value, cx, at);
            }
            // `accepts_element` stays serde_json's own verdict: parsing a number or a
            // literal allocates nothing.
        }
    )*};
}

/// An integer written as text, read only when the text is exactly how the number prints
/// (`"5"`, `"-3"`; not `"5.0"`, `" 5"`, `"+5"`, `"05"` or `"0x5"`).
fn lenient_int<T>(text: &str) -> Option<Value>
where
    T: core::str::FromStr + ToString + Into<serde_json::Number>,
{
    let n: T = text.parse().ok()?;
    (n.to_string() == text).then(|| Value::Number(n.into()))
}

/// 128-bit integers: read when they fit the 64 bits a JSON number holds here.
fn lenient_wide(text: &str) -> Option<Value> {
    if let Some(Value::Number(n)) = lenient_int::<u64>(text) {
        return Some(Value::Number(n));
    }
    lenient_int::<i64>(text)
}

/// A float written as text: exactly a JSON number, and finite.
fn lenient_float(text: &str) -> Option<Value> {
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_digit() || b"-.eE+".contains(&b));
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Number(n)) if plain => Some(Value::Number(n)),
        _ => None,
    }
}

fn lenient_bool(text: &str) -> Option<Value> {
    match text {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ => None,
    }
}

fn lenient_unit(text: &str) -> Option<Value> {
    (text == "null").then_some(Value::Null)
}

scalar! {
    bool => lenient_bool,
    u8 => lenient_int::<u8>,
    u16 => lenient_int::<u16>,
    u32 => lenient_int::<u32>,
    u64 => lenient_int::<u64>,
    u128 => lenient_wide,
    usize => lenient_int::<usize>,
    i8 => lenient_int::<i8>,
    i16 => lenient_int::<i16>,
    i32 => lenient_int::<i32>,
    i64 => lenient_int::<i64>,
    i128 => lenient_wide,
    isize => lenient_int::<isize>,
    f32 => lenient_float,
    f64 => lenient_float,
    () => lenient_unit,
}

macro_rules! sequence {
    ($($ty:ident $(: $($bound:path),+)?;)*) => {$(
        impl<T: Coerce $($(+ $bound)+)?> Coerce for $ty<T> {
            const SHAPE: Shape = Shape::SEQUENCE;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
                walk_seq::<Self, T>(value, cx, at, bounds);
            }

            fn accepts_element(text: &str) -> bool {
                is_text_list(text, T::accepts_element, Bounds::NONE)
            }

            fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
                is_text_list(text, T::accepts_element, bounds)
            }

            fn bounds_hold(&self, bounds: Bounds) -> bool {
                items_hold(self.iter(), self.len(), bounds)
            }
        }
    )*};
}

/// A sequence's length is within `bounds` and its items keep theirs.
fn items_hold<'a, T: Coerce + 'a>(
    items: impl IntoIterator<Item = &'a T>,
    len: usize,
    bounds: Bounds,
) -> bool {
    bounds.contains(len) && items.into_iter().all(|item| item.bounds_hold(Bounds::NONE))
}

/// A set collapses repeats, so its length says nothing about the array it came from: a
/// bounded set always takes the full path.
fn set_holds<'a, T: Coerce + 'a>(items: impl IntoIterator<Item = &'a T>, bounds: Bounds) -> bool {
    bounds.is_none() && items.into_iter().all(|item| item.bounds_hold(Bounds::NONE))
}

sequence! {
    Vec;
    VecDeque;
}

macro_rules! set {
    ($($ty:ident<T $(, $s:ident)?> where $($bound:path),+;)*) => {$(
        impl<T: Coerce $(+ $bound)+ $(, $s: BuildHasher + Default)?> Coerce for $ty<T $(, $s)?> {
            const SHAPE: Shape = Shape::SEQUENCE;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
                walk_seq::<Self, T>(value, cx, at, bounds);
            }

            fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
                // Repeats collapse in a set, so the length bound is checked on the set itself.
                is_text_list(text, T::accepts_element, Bounds::NONE)
                    && serde_json::from_str::<Self>(text).is_ok_and(|set| bounds.contains(set.len()))
            }

            fn bounds_hold(&self, bounds: Bounds) -> bool {
                set_holds(self, bounds)
            }
        }
    )*};
}

set! {
    BTreeSet<T> where Ord;
    HashSet<T, S> where Eq, Hash;
}

impl<T: Coerce> Coerce for Box<[T]> {
    const SHAPE: Shape = Shape::SEQUENCE;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
        walk_seq::<Self, T>(value, cx, at, bounds);
    }

    fn accepts_element(text: &str) -> bool {
        is_text_list(text, T::accepts_element, Bounds::NONE)
    }

    fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
        is_text_list(text, T::accepts_element, bounds)
    }

    fn bounds_hold(&self, bounds: Bounds) -> bool {
        items_hold(self.iter(), self.len(), bounds)
    }
}

impl<T: Coerce, const N: usize> Coerce for [T; N]
where
    [T; N]: DeserializeOwned,
{
    const SHAPE: Shape = Shape::SEQUENCE;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
        walk_seq::<Self, T>(value, cx, at, bounds);
    }

    fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
        let exact = Bounds::new(Some(N), Some(N));
        bounds.contains(N) && is_text_list(text, T::accepts_element, exact)
    }

    fn bounds_hold(&self, bounds: Bounds) -> bool {
        items_hold(self.iter(), N, bounds)
    }
}

impl<T: Coerce, S: BuildHasher + Default> Coerce for HashMap<String, T, S> {
    const SHAPE: Shape = Shape::MAP;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
        walk_map::<Self, T>(value, cx, at);
    }

    fn walk_flat(
        map: &mut Map<String, Value>,
        cx: &mut Cx,
        at: &Path<'_>,
        owned: fn(&str) -> bool,
    ) {
        walk_flat_map::<T>(map, cx, at, owned);
    }

    fn bounds_hold(&self, _: Bounds) -> bool {
        self.values().all(|item| item.bounds_hold(Bounds::NONE))
    }

    fn owns_key(_: &str) -> bool {
        true
    }
}

impl<T: Coerce> Coerce for BTreeMap<String, T> {
    const SHAPE: Shape = Shape::MAP;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
        walk_map::<Self, T>(value, cx, at);
    }

    fn walk_flat(
        map: &mut Map<String, Value>,
        cx: &mut Cx,
        at: &Path<'_>,
        owned: fn(&str) -> bool,
    ) {
        walk_flat_map::<T>(map, cx, at, owned);
    }

    fn bounds_hold(&self, _: Bounds) -> bool {
        self.values().all(|item| item.bounds_hold(Bounds::NONE))
    }

    fn owns_key(_: &str) -> bool {
        true
    }
}

impl Coerce for Map<String, Value> {
    const SHAPE: Shape = Shape::MAP;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
        walk_map::<Self, Value>(value, cx, at);
    }

    fn walk_flat(
        map: &mut Map<String, Value>,
        cx: &mut Cx,
        at: &Path<'_>,
        owned: fn(&str) -> bool,
    ) {
        walk_flat_map::<Value>(map, cx, at, owned);
    }

    fn owns_key(_: &str) -> bool {
        true
    }
}

impl Coerce for Value {
    const SHAPE: Shape = Shape::ANY;

    /// Never touched; checked for depth only.
    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
        walk_leaf(value, cx, at);
    }
    // `accepts_element` stays serde_json's verdict: a `Value` refuses numbers out of range.
}

impl<T: Coerce> Coerce for Option<T> {
    const SHAPE: Shape = T::SHAPE;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
        if !value.is_null() {
            T::walk(value, cx, at, bounds);
        }
    }

    fn accepts_element(text: &str) -> bool {
        text == "null" || T::accepts_element(text)
    }

    fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
        T::accepts_text_list(text, bounds)
    }

    fn walk_flat(
        map: &mut Map<String, Value>,
        cx: &mut Cx,
        at: &Path<'_>,
        owned: fn(&str) -> bool,
    ) {
        T::walk_flat(map, cx, at, owned);
    }

    fn bounds_hold(&self, bounds: Bounds) -> bool {
        self.as_ref().is_none_or(|item| item.bounds_hold(bounds))
    }

    fn owns_key(key: &str) -> bool {
        T::owns_key(key)
    }
}

macro_rules! pointer {
    ($($ty:ident),*) => {$(
        impl<T: Coerce> Coerce for $ty<T>
        where
            $ty<T>: DeserializeOwned,
        {
            const SHAPE: Shape = T::SHAPE;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
                T::walk(value, cx, at, bounds);
            }

            fn accepts_element(text: &str) -> bool {
                T::accepts_element(text)
            }

            fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
                T::accepts_text_list(text, bounds)
            }

            fn walk_flat(
                map: &mut Map<String, Value>,
                cx: &mut Cx,
                at: &Path<'_>,
                owned: fn(&str) -> bool,
            ) {
                T::walk_flat(map, cx, at, owned);
            }

            fn bounds_hold(&self, bounds: Bounds) -> bool {
                T::bounds_hold(self, bounds)
            }

            fn owns_key(key: &str) -> bool {
                T::owns_key(key)
            }
        }
    )*};
}

pointer!(Box, Arc, Rc);

macro_rules! tuple {
    ($(($($n:tt $t:ident),+))*) => {$(
        impl<$($t: Coerce),+> Coerce for ($($t,)+) {
            const SHAPE: Shape = Shape::TUPLE;

            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
                match value {
                    Value::Array(items) => {
                        if cx.enter(at) {
                            for (i, item) in items.iter_mut().enumerate() {
                                let here = at.index(i);
                                match i {
                                    $($n => $t::walk(item, cx, &here, Bounds::NONE),)+
                                    _ => cx.untyped(item, &here),
                                }
                            }
                            cx.leave();
                        }
                    }
                    Value::String(_) => cx.repair::<Self>(value, at, Bounds::NONE),
                    other => walk_leaf(other, cx, at),
                }
            }

            fn bounds_hold(&self, _: Bounds) -> bool {
                true $(&& self.$n.bounds_hold(Bounds::NONE))+
            }
        }
    )*};
}

tuple! {
    (0 A)
    (0 A, 1 B)
    (0 A, 1 B, 2 C)
    (0 A, 1 B, 2 C, 3 D)
    (0 A, 1 B, 2 C, 3 D, 4 E)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H)
}

impl<T: Coerce> Coerce for OneOrMany<T> {
    const SHAPE: Shape = Shape::new(
        crate::coerce::Kind::Union,
        T::SHAPE.strings,
        true,
        T::SHAPE.objects,
    );

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
        match value {
            Value::Array(items) => {
                cx.check_len(items.len(), bounds, at);
                walk_items::<T>(items, cx, at);
            }
            // R2/R3: a string-bearing union keeps its strings, except a list written as text.
            Value::String(text) if T::SHAPE.strings => {
                if is_text_list(text, T::accepts_element, bounds) {
                    cx.text_list(at);
                } else {
                    // The member may be a union with array members of its own.
                    T::walk(value, cx, at, Bounds::NONE);
                }
            }
            // R1: no member takes a string, so it is JSON text.
            Value::String(_) => cx.repair::<Self>(value, at, bounds),
            // One value: walk it as a `T`.
            _ => T::walk(value, cx, at, Bounds::NONE),
        }
    }

    fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
        is_text_list(text, T::accepts_element, bounds)
    }

    fn bounds_hold(&self, bounds: Bounds) -> bool {
        match self {
            // The bounds are the array form's; one value is not an array.
            OneOrMany::One(item) => item.bounds_hold(Bounds::NONE),
            OneOrMany::Many(items) => items_hold(items, items.len(), bounds),
        }
    }
}
