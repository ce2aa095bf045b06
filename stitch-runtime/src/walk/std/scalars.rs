//! Scalars: integers, floats, `bool`, `()`. Nothing to repair; with `lenient_scalars`, a
//! number or literal written as text is read.

use serde_json::Value;

use crate::bounds::Bounds;
use crate::path::Path;
use crate::schema::{Describe, Schema};
use crate::walk::{walk_leaf, Coerce, Cx, Shape};

macro_rules! scalar {
    ($($ty:ty => $lenient:expr, $schema:expr, default $default:expr;)*) => {$(
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

            no_array_form!();
        }

        impl Describe for $ty {
            const SCHEMA: &'static Schema = &$schema;
            const DEFAULT: Option<&'static str> = $default;
        }
    )*};
}

/// The schema of an integer type: its whole range.
macro_rules! integer {
    ($ty:ty) => {
        Schema::Integer {
            min: <$ty>::MIN as i128,
            max: <$ty>::MAX as u128,
        }
    };
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
    bool => lenient_bool, Schema::Boolean, default Some("false");
    u8 => lenient_int::<u8>, integer!(u8), default Some("0");
    u16 => lenient_int::<u16>, integer!(u16), default Some("0");
    u32 => lenient_int::<u32>, integer!(u32), default Some("0");
    u64 => lenient_int::<u64>, integer!(u64), default Some("0");
    u128 => lenient_wide, integer!(u128), default Some("0");
    usize => lenient_int::<usize>, integer!(usize), default Some("0");
    i8 => lenient_int::<i8>, integer!(i8), default Some("0");
    i16 => lenient_int::<i16>, integer!(i16), default Some("0");
    i32 => lenient_int::<i32>, integer!(i32), default Some("0");
    i64 => lenient_int::<i64>, integer!(i64), default Some("0");
    i128 => lenient_wide, integer!(i128), default Some("0");
    isize => lenient_int::<isize>, integer!(isize), default Some("0");
    f32 => lenient_float, Schema::Number, default Some("0.0");
    f64 => lenient_float, Schema::Number, default Some("0.0");
    () => lenient_unit, Schema::Null, default Some("null");
}
