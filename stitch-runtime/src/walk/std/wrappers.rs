//! Wrappers the walk sees through: `Option<T>` (a `null` is left alone) and `Box`, `Arc`, `Rc`.

use std::rc::Rc;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::schema::{Describe, Schema};
use crate::walk::{Claims, Coerce, Cx, Shape};

impl<T: Coerce> Coerce for Option<T> {
    const SHAPE: Shape = T::SHAPE;
    const LIMITED: bool = T::LIMITED;

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

    /// Flattened: `Some` when `T` reads the shared keys, else `None`
    /// (`docs/rules.md#flattened-unions`).
    fn walk_flat(map: &mut Map<String, Value>, cx: &mut Cx, at: &Path<'_>, claims: &Claims<'_>) {
        crate::walk::walk_flat_option::<T>(map, cx, at, claims);
    }

    fn bounds_hold(&self, bounds: Bounds) -> bool {
        self.as_ref().is_none_or(|item| item.bounds_hold(bounds))
    }

    fn limits_hold(&self, limits: &Limits) -> bool {
        self.as_ref().is_none_or(|item| item.limits_hold(limits))
    }

    fn owns_key(key: &str) -> bool {
        T::owns_key(key)
    }

    fn declares_key(key: &str) -> bool {
        T::declares_key(key)
    }
}

impl<T: Describe> Describe for Option<T> {
    const SCHEMA: &'static Schema = T::SCHEMA;
    const OPTIONAL: bool = true;
    const ITEM_SCHEMA: &'static Schema = &Schema::AnyOf(&[T::SCHEMA, &Schema::Null]);
}

macro_rules! pointer {
    ($($ty:ident),*) => {$(
        impl<T: Coerce> Coerce for $ty<T>
        where
            $ty<T>: DeserializeOwned,
        {
            const SHAPE: Shape = T::SHAPE;
            const LIMITED: bool = T::LIMITED;

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
                claims: &Claims<'_>,
            ) {
                T::walk_flat(map, cx, at, claims);
            }

            fn bounds_hold(&self, bounds: Bounds) -> bool {
                T::bounds_hold(self, bounds)
            }

            fn limits_hold(&self, limits: &Limits) -> bool {
                T::limits_hold(self, limits)
            }

            fn owns_key(key: &str) -> bool {
                T::owns_key(key)
            }

            fn declares_key(key: &str) -> bool {
                T::declares_key(key)
            }
        }

        impl<T: Describe> Describe for $ty<T> {
            const SCHEMA: &'static Schema = T::SCHEMA;
            const OPTIONAL: bool = T::OPTIONAL;
            const NULLABLE: bool = T::NULLABLE;
            const ITEM_SCHEMA: &'static Schema = T::ITEM_SCHEMA;
            const DEFAULT: Option<&'static str> = T::DEFAULT;
        }
    )*};
}

pointer!(Box, Arc, Rc);
