//! Scalars: integers, floats, `bool`, `()`. Nothing to repair; with `lenient_scalars`, a number
//! or literal written as text is read.

use serde_json::Value;

use crate::bounds::Bounds;
use crate::error::Issue;
use crate::limits::{Limits, Num};
use crate::path::Path;
use crate::report::RepairKind;
use crate::schema::{Describe, Schema};
use crate::walk::{walk_leaf, Coerce, Cx, Shape};

macro_rules! scalar {
    ($($ty:ty => $lenient:expr, $admits:expr, $schema:expr, default $default:expr, holds $holds:expr $(, judged $judged:expr, read $read:expr)?;)*) => {$(
        impl Coerce for $ty {
            const SHAPE: Shape = Shape::SCALAR;

            #[inline]
            fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
                if cx.is_lenient() {
                    if let Value::String(text) = value {
                        if let Some(read) = $lenient(text) {
                            judged!(cx, &read, at $(, $judged)?);
                            cx.repaired(at, RepairKind::ScalarText, value);
                            cx.replace(value, read);
                            return;
                        }
                    }
                }
                if $admits(&*value) {
                    judged!(cx, value, at $(, $judged)?);
                } else {
                    walk_leaf::<Self>(value, cx, at, false);
                }
            }
            // `accepts_element` stays serde_json's own verdict: parsing a number allocates nothing.

            #[inline]
            fn accepts_text_list(_: &str, _: Bounds) -> bool {
                false
            }

            // The walk refuses an `f32` that overflowed to infinity.
            #[inline]
            fn bounds_hold(&self, _: Bounds) -> bool {
                true $(&& $read(*self))?
            }

            #[inline]
            fn limits_hold(&self, limits: &Limits) -> bool {
                $holds(*self, limits)
            }
        }

        impl Describe for $ty {
            const SCHEMA: &'static Schema = &$schema;
            const DEFAULT: Option<&'static str> = $default;
            // `()` is read from `null`.
            const NULLABLE: bool = matches!($schema, Schema::Null);
        }
    )*};
}

/// The constraints are judged on the JSON value, or (`f32`) on what it becomes once read.
macro_rules! judged {
    ($cx:ident, $value:expr, $at:ident) => {
        $cx.limited($value, $at)
    };
    ($cx:ident, $value:expr, $at:ident, $judged:expr) => {
        $judged($cx, $value, $at)
    };
}

macro_rules! integer {
    ($ty:ty) => {
        Schema::Integer {
            min: <$ty>::MIN as i128,
            max: <$ty>::MAX as u128,
        }
    };
}

/// Read only when the text is exactly how the number prints (not `"5.0"`, `"+5"`, `"05"`).
fn lenient_int<T>(text: &str) -> Option<Value>
where
    T: core::str::FromStr + ToString + Into<serde_json::Number>,
{
    let n: T = text.parse().ok()?;
    (n.to_string() == text).then(|| Value::Number(n.into()))
}

/// Read when they fit the 64 bits a JSON number holds here.
fn lenient_wide(text: &str) -> Option<Value> {
    if let Some(Value::Number(n)) = lenient_int::<u64>(text) {
        return Some(Value::Number(n));
    }
    lenient_int::<i64>(text)
}

/// Exactly a JSON number, and finite.
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

fn int_holds<T: TryInto<i128>>(n: T, limits: &Limits) -> bool {
    n.try_into().is_ok_and(|n| limits.number_holds(Num::Int(n)))
}

/// The same number serde_json's `Value` holds.
fn f64_holds(n: f64, limits: &Limits) -> bool {
    Num::from_f64(n).is_some_and(|n| limits.number_holds(n))
}

/// An `f32` was rounded from the JSON number, so the full path judges it.
fn never<T>(_: T, _: &Limits) -> bool {
    false
}

/// An `f32` past `f32::MAX` is refused whatever serde_json's features; a bound is judged on the
/// `f32` the tool gets.
fn judge_f32(cx: &mut Cx, value: &Value, at: &Path<'_>) {
    let Some(sent) = value.as_f64() else {
        return;
    };
    let rounded = sent as f32;
    if rounded.is_infinite() {
        cx.report(at, || {
            Issue::invalid(
                at.render(),
                format!("{value} is out of the range of an f32"),
            )
        });
    } else if cx.has_limits() {
        // The `f32` as its shortest decimal (`0.1`), as bounds are written.
        let got: f64 = rounded.to_string().parse().unwrap_or(sent);
        match serde_json::Number::from_f64(got) {
            Some(n) if got != sent => cx.limited(&Value::Number(n), at),
            _ => cx.limited(value, at),
        }
    }
}

/// A JSON integer within the type's range.
fn admits_int<T: TryFrom<u64> + TryFrom<i64>>(value: &Value) -> bool {
    match value {
        Value::Number(n) => match n.as_u64() {
            Some(u) => T::try_from(u).is_ok(),
            None => n.as_i64().is_some_and(|i| T::try_from(i).is_ok()),
        },
        _ => false,
    }
}

scalar! {
    bool => lenient_bool, Value::is_boolean, Schema::Boolean, default Some("false"), holds never;
    u8 => lenient_int::<u8>, admits_int::<u8>, integer!(u8), default Some("0"), holds int_holds;
    u16 => lenient_int::<u16>, admits_int::<u16>, integer!(u16), default Some("0"), holds int_holds;
    u32 => lenient_int::<u32>, admits_int::<u32>, integer!(u32), default Some("0"), holds int_holds;
    u64 => lenient_int::<u64>, admits_int::<u64>, integer!(u64), default Some("0"), holds int_holds;
    u128 => lenient_wide, admits_int::<u128>, integer!(u128), default Some("0"), holds int_holds;
    usize => lenient_int::<usize>, admits_int::<usize>, integer!(usize), default Some("0"), holds int_holds;
    i8 => lenient_int::<i8>, admits_int::<i8>, integer!(i8), default Some("0"), holds int_holds;
    i16 => lenient_int::<i16>, admits_int::<i16>, integer!(i16), default Some("0"), holds int_holds;
    i32 => lenient_int::<i32>, admits_int::<i32>, integer!(i32), default Some("0"), holds int_holds;
    i64 => lenient_int::<i64>, admits_int::<i64>, integer!(i64), default Some("0"), holds int_holds;
    i128 => lenient_wide, admits_int::<i128>, integer!(i128), default Some("0"), holds int_holds;
    isize => lenient_int::<isize>, admits_int::<isize>, integer!(isize), default Some("0"), holds int_holds;
    f32 => lenient_float, Value::is_number, Schema::Float32, default Some("0.0"), holds never, judged judge_f32, read f32::is_finite;
    f64 => lenient_float, Value::is_number, Schema::Number, default Some("0.0"), holds f64_holds;
    () => lenient_unit, Value::is_null, Schema::Null, default Some("null"), holds never;
}
