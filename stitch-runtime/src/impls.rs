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
    ($($ty:ty),* $(,)?) => {$(
        impl Coerce for $ty {
            const SHAPE: Shape = Shape::SCALAR;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
                walk_leaf(value, cx, at);
            }
            // `accepts_element` stays serde_json's own verdict: parsing a number or a
            // literal allocates nothing.
        }
    )*};
}

scalar!(
    bool,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    ()
);

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
        }
    )*};
}

sequence! {
    Vec;
    VecDeque;
    BTreeSet: Ord;
}

impl<T: Coerce + Eq + Hash, S: BuildHasher + Default> Coerce for HashSet<T, S> {
    const SHAPE: Shape = Shape::SEQUENCE;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
        walk_seq::<Self, T>(value, cx, at, bounds);
    }

    fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
        // Duplicates collapse in a set, so the length bound is checked on the set itself.
        is_text_list(text, T::accepts_element, Bounds::NONE)
            && serde_json::from_str::<Self>(text).is_ok_and(|set| bounds.contains(set.len()))
    }
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
}
