//! Maps with string keys: `HashMap<String, T>`, `BTreeMap<String, T>`, `serde_json::Map`;
//! flattened, a map takes every key its parent's fields do not claim.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::schema::{Describe, Schema};
use crate::walk::{walk_flat_map, walk_map, Claims, Coerce, Cx, Shape};

macro_rules! map {
    ($(
        impl[$($gen:tt)*] for $ty:ty, values $value:ty,
        describe[$($dgen:tt)*] $schema:expr;
    )*) => {$(
        impl<$($gen)*> Coerce for $ty {
            const SHAPE: Shape = Shape::MAP;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
                walk_map::<Self, $value>(value, cx, at);
            }

            fn walk_flat(
                map: &mut Map<String, Value>,
                cx: &mut Cx,
                at: &Path<'_>,
                claims: &Claims<'_>,
            ) {
                walk_flat_map::<$value>(map, cx, at, claims);
            }

            // A map is no array member (R3 never refuses at a map); its values keep theirs.
            fn accepts_text_list(_: &str, _: Bounds) -> bool {
                false
            }

            fn bounds_hold(&self, _: Bounds) -> bool {
                self.values().all(|item| item.bounds_hold(Bounds::NONE))
            }

            fn limits_hold(&self, limits: &Limits) -> bool {
                self.values().all(|item| item.limits_hold(limits))
            }

            fn owns_key(_: &str) -> bool {
                true
            }
        }

        impl<$($dgen)*> Describe for $ty {
            const SCHEMA: &'static Schema = &$schema;
            const DEFAULT: Option<&'static str> = Some("{}");
        }
    )*};
}

map! {
    impl[T: Coerce, S: BuildHasher + Default] for HashMap<String, T, S>, values T,
        describe[T: Describe, S] Schema::Map(T::ITEM_SCHEMA);
    impl[T: Coerce] for BTreeMap<String, T>, values T,
        describe[T: Describe] Schema::Map(T::ITEM_SCHEMA);
    impl[] for Map<String, Value>, values Value,
        describe[] Schema::Map(&Schema::Any);
}
