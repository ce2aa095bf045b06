//! Sequences: `Vec`, `VecDeque`, `BTreeSet`, `HashSet`, `Box<[T]>`, `[T; N]`.
//!
//! Every sequence is written by the one macro below, which takes the sequence's *form* (a
//! list, a set, an array of fixed length) and writes the whole array form from it: the walk
//! (length checked against the field's bounds, items walked), R3's check of a list written as
//! text (`accepts_text_list`, bounds included, items counted as sent), the fast path's bounds
//! check (`bounds_hold`) and the schema. So a sequence cannot have a walk without its bounds or its text-list check:
//! `Coerce`'s defaults for those two are for the derive's types without an array form.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::bounds::Bounds;
use crate::json::text_list::is_text_list;
use crate::limits::Limits;
use crate::path::Path;
use crate::schema::{Describe, Schema};
use crate::walk::{items_hold, set_holds};
use crate::walk::{walk_seq, Coerce, Cx, Shape};

/// `sequence! { form: impl[generics] for Type where [predicates], describe[generics]; }`
/// with `form` one of `list` (every length), `set` (repeats collapse) or `array(N)` (exactly
/// `N` items). `T` is the item type.
macro_rules! sequence {
    ($(
        $form:ident $(($n:ident))?:
        impl[$($gen:tt)*] for $ty:ty where [$($pred:tt)*],
        describe[$($dgen:tt)*];
    )*) => {$(
        impl<$($gen)*> Coerce for $ty where $($pred)* {
            const SHAPE: Shape = Shape::SEQUENCE;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
                walk_seq::<Self, T>(value, cx, at, bounds);
            }

            sequence!(@element $form);

            fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
                sequence!(@text_list $form $(($n))?, text, bounds)
            }

            fn bounds_hold(&self, bounds: Bounds) -> bool {
                sequence!(@bounds_hold $form, self, bounds)
            }

            fn limits_hold(&self, limits: &Limits) -> bool {
                self.iter().all(|item| item.limits_hold(limits))
            }
        }

        impl<$($dgen)*> Describe for $ty {
            sequence!(@describe $form $(($n))?);
        }
    )*};

    // An element of a list of lists: the same check, without bounds. A set or an array keeps
    // serde_json's verdict (a set's repeats and an array's length are serde's to judge).
    (@element list) => {
        fn accepts_element(text: &str) -> bool {
            is_text_list(text, T::accepts_element, Bounds::NONE)
        }
    };
    (@element $form:ident) => {};

    (@text_list array($n:ident), $text:ident, $bounds:ident) => {
        $bounds.contains($n) && is_text_list($text, T::accepts_element, Bounds::exactly($n))
    };
    // Bounds count the array's items as sent, for a set too (repeats count, as in a real
    // array: the walk checks the array's length before serde collapses them).
    (@text_list $form:ident, $text:ident, $bounds:ident) => {
        is_text_list($text, T::accepts_element, $bounds)
    };

    (@bounds_hold set, $self:ident, $bounds:ident) => {
        set_holds($self.iter(), $bounds)
    };
    (@bounds_hold $form:ident, $self:ident, $bounds:ident) => {
        items_hold($self.iter(), $self.len(), $bounds)
    };

    (@describe array($n:ident)) => {
        const SCHEMA: &'static Schema = &Schema::Array {
            items: T::ITEM_SCHEMA,
            min_items: $n,
            max_items: Some($n),
            unique: false,
        };
    };
    // Sets are not `uniqueItems`: serde reads a list with repeats into a set (they collapse),
    // so the schema must accept it too.
    (@describe $form:ident) => {
        const SCHEMA: &'static Schema = &Schema::Array {
            items: T::ITEM_SCHEMA,
            min_items: 0,
            max_items: None,
            unique: false,
        };
        const DEFAULT: Option<&'static str> = Some("[]");
    };
}

sequence! {
    list: impl[T: Coerce] for Vec<T> where [], describe[T: Describe];
    list: impl[T: Coerce] for VecDeque<T> where [], describe[T: Describe];
    list: impl[T: Coerce] for Box<[T]> where [], describe[T: Describe];
    set: impl[T: Coerce + Ord] for BTreeSet<T> where [], describe[T: Describe];
    set: impl[T: Coerce + Eq + Hash, S: BuildHasher + Default] for HashSet<T, S> where [],
        describe[T: Describe, S];
    array(N): impl[T: Coerce, const N: usize] for [T; N] where [[T; N]: DeserializeOwned],
        describe[T: Describe, const N: usize];
}
