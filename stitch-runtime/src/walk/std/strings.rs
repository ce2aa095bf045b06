//! String-like types: `String`, `Box<str>`, `Cow<str>`, `PathBuf`, `char`; a container in their
//! place is walked for depth only.

use std::borrow::Cow;
use std::path::PathBuf;

use serde_json::Value;

use crate::bounds::Bounds;
use crate::json::text_list::{is_json_char, is_json_string};
use crate::limits::Limits;
use crate::path::Path;
use crate::schema::{Describe, Schema};
use crate::walk::{walk_leaf, Coerce, Cx, Shape};

macro_rules! string_like {
    ($([$($gen:tt)*] $ty:ty => $schema:expr, default $default:expr, element $element:path, admits $admits:path, holds $holds:path;)*) => {$(
        impl<$($gen)*> Coerce for $ty {
            const SHAPE: Shape = Shape::STRING_LIKE;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
                if $admits(value) {
                    cx.limited(value, at);
                } else {
                    walk_leaf::<Self>(value, cx, at, false);
                }
            }

            #[inline]
            fn accepts_element(text: &str) -> bool {
                $element(text)
            }

            no_array_form!();

            #[inline]
            fn limits_hold(&self, limits: &Limits) -> bool {
                $holds(self, limits)
            }
        }

        impl<$($gen)*> Describe for $ty {
            const SCHEMA: &'static Schema = &$schema;
            const DEFAULT: Option<&'static str> = $default;
        }
    )*};
}

fn is_string(value: &Value) -> bool {
    value.is_string()
}

fn is_one_char(value: &Value) -> bool {
    match value {
        Value::String(s) => s.chars().count() == 1,
        _ => false,
    }
}

fn text_holds(text: &(impl AsRef<str> + ?Sized), limits: &Limits) -> bool {
    limits.text_holds(text.as_ref())
}

/// One read from JSON is UTF-8.
fn path_holds(path: &std::path::Path, limits: &Limits) -> bool {
    path.to_str().is_some_and(|text| limits.text_holds(text))
}

/// The derive refuses constraints on a `char`.
fn no_limits(_: &char, _: &Limits) -> bool {
    false
}

string_like! {
    [] String => Schema::String, default Some("\"\""), element is_json_string, admits is_string, holds text_holds;
    [] Box<str> => Schema::String, default Some("\"\""), element is_json_string, admits is_string, holds text_holds;
    [] PathBuf => Schema::String, default Some("\"\""), element is_json_string, admits is_string, holds path_holds;
    ['a] Cow<'a, str> => Schema::String, default Some("\"\""), element is_json_string, admits is_string, holds text_holds;
    [] char => Schema::Char, default None, element is_json_char, admits is_one_char, holds no_limits;
}
