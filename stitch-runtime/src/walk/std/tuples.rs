//! Tuples up to eight, read from an array: each item is walked as its own type; items past
//! the last are walked for depth only.

use serde_json::Value;

use crate::bounds::Bounds;
use crate::path::Path;
use crate::schema::{Describe, Schema};
use crate::walk::{Coerce, Cx, Shape};

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
                    other => cx.check::<Self>(other, at),
                }
            }

            // A tuple is no array member (R3 never refuses at a tuple), and has no bounds.
            fn accepts_text_list(_: &str, _: Bounds) -> bool {
                false
            }

            fn bounds_hold(&self, _: Bounds) -> bool {
                true $(&& self.$n.bounds_hold(Bounds::NONE))+
            }
        }

        impl<$($t: Describe),+> Describe for ($($t,)+) {
            const SCHEMA: &'static Schema = &Schema::Tuple(&[$($t::ITEM_SCHEMA),+]);
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
