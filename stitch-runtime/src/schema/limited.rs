//! The compile-time checks of a field's constraints against its type: the derive asserts them
//! in `const` items spanned at the attribute, so a constraint on a field of the wrong kind
//! (`minimum` on a `String`) or outside the type's own range (`maximum = 300` on a `u8`) is a
//! compile error at its token.

use crate::limits::Num;
use crate::schema::Schema;

/// The value a field's constraints apply to: the leaf of its type, seen through `Option`,
/// lists, sets, `OneOrMany`, map values, bounds and descriptions.
const fn leaf(mut schema: &Schema) -> &Schema {
    loop {
        schema = match schema {
            Schema::Array { items, .. } => items,
            Schema::OneOrMany(item) => item,
            Schema::Map(values) => values,
            Schema::Bounded { inner, .. }
            | Schema::Limited { inner, .. }
            | Schema::Described { inner, .. } => inner,
            other => return other,
        }
    }
}

/// Whether number constraints (`minimum`, `multiple_of`, …) apply to a field of this schema:
/// its leaf is an integer or a float.
#[doc(hidden)]
pub const fn takes_number_limits(schema: &Schema) -> bool {
    matches!(leaf(schema), Schema::Integer { .. } | Schema::Number)
}

/// Whether string constraints (`min_length`, `max_length`, `pattern`) apply to a field of
/// this schema: its leaf is a string (`String`, `PathBuf`, `Box<str>`, `Cow<str>`; not a
/// `char` or a unit-variant enum, whose values are fixed).
#[doc(hidden)]
pub const fn takes_string_limits(schema: &Schema) -> bool {
    matches!(leaf(schema), Schema::String)
}

/// Whether the bound `n` lies within the range of the field's integer type (any bound does
/// for a float).
#[doc(hidden)]
pub const fn within_range(schema: &Schema, n: Num) -> bool {
    match leaf(schema) {
        Schema::Integer { min, max } => match n {
            Num::Int(i) => i >= *min && (i < 0 || i as u128 <= *max),
            Num::Float(f, _) => f >= *min as f64 && f <= *max as f64,
        },
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Describe;
    use crate::OneOrMany;
    use std::collections::HashMap;

    #[test]
    fn kinds_are_seen_through_containers() {
        assert!(takes_number_limits(<Vec<Option<u8>> as Describe>::SCHEMA));
        assert!(takes_number_limits(<OneOrMany<f64> as Describe>::SCHEMA));
        assert!(takes_number_limits(
            <HashMap<String, i32> as Describe>::SCHEMA
        ));
        assert!(!takes_number_limits(<String as Describe>::SCHEMA));
        assert!(takes_string_limits(<OneOrMany<String> as Describe>::SCHEMA));
        assert!(!takes_string_limits(<char as Describe>::SCHEMA));
        assert!(!takes_string_limits(<Vec<u8> as Describe>::SCHEMA));
        assert!(within_range(<u8 as Describe>::SCHEMA, Num::Int(255)));
        assert!(!within_range(<u8 as Describe>::SCHEMA, Num::Int(300)));
        assert!(!within_range(<u8 as Describe>::SCHEMA, Num::Int(-1)));
        assert!(within_range(
            <i8 as Describe>::SCHEMA,
            Num::Float(-1.5, "-1.5")
        ));
        assert!(within_range(<f32 as Describe>::SCHEMA, Num::Int(1 << 100)));
    }
}
