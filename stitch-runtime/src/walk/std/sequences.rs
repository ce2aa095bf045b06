//! Sequences: `Vec`, `VecDeque`, `BTreeSet`, `HashSet`, `Box<[T]>`, `[T; N]`. One macro writes
//! each whole array form from the sequence's form (walk, R3's text-list check, the fast path's
//! bounds check, schema), so none can have a walk without its bounds or text-list check.

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

/// `sequence! { form: impl[generics] for Type where [predicates], describe[generics]; }`, `form`
/// one of `list`, `set` (repeats collapse) or `array(N)`; `T` is the item type.
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

    // A list of lists' element: the same check, without bounds. A set's repeats and an array's
    // length are serde's to judge.
    (@element list) => {
        fn accepts_element(text: &str) -> bool {
            is_text_list(text, T::accepts_element, Bounds::NONE)
        }
    };
    (@element $form:ident) => {};

    (@text_list array($n:ident), $text:ident, $bounds:ident) => {
        $bounds.contains($n) && is_text_list($text, T::accepts_element, Bounds::exactly($n))
    };
    // Bounds count the items as sent, for a set too.
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
    // Not `uniqueItems`: serde reads a list with repeats into a set, so the schema must accept it.
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
