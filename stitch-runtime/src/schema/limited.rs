//! Compile-time checks of a field's constraints against its type, asserted by the derive in
//! `const` items spanned at the attribute: `minimum` on a `String`, or `maximum = 300` on a
//! `u8`, is a compile error at its token.

use crate::limits::Num;
use crate::schema::Schema;

/// Seen through `Option`, lists, sets, `OneOrMany`, map values, bounds and descriptions.
const fn leaf(mut schema: &Schema) -> &Schema {
    loop {
        schema = match schema {
            // An `Option` item: the value or `null`.
            Schema::AnyOf([inner, Schema::Null]) => inner,
            Schema::Array { items, .. } => items,
            Schema::OneOrMany(item) => item,
            Schema::Map(values) => values,
            Schema::Bounded { inner, .. }
            | Schema::Limited { inner, .. }
            | Schema::Lenient(inner)
            | Schema::Described { inner, .. } => inner,
            other => return other,
        }
    }
}

/// Number constraints apply: the leaf is an integer or a float.
#[doc(hidden)]
pub const fn takes_number_limits(schema: &Schema) -> bool {
    matches!(
        leaf(schema),
        Schema::Integer { .. } | Schema::Number | Schema::Float32
    )
}

/// String constraints apply: the leaf is a string (not a `char` or a unit-variant enum,
/// whose values are fixed).
#[doc(hidden)]
pub const fn takes_string_limits(schema: &Schema) -> bool {
    matches!(leaf(schema), Schema::String)
}

/// A plain call must be walked before it is read (`tool_args::read_value`): the walk judges
/// some string by its content, which a failed first read may have moved out of the value.
pub(crate) const fn walk_first(schema: &Schema) -> bool {
    match schema {
        Schema::Limited { inner, limits } => {
            limits.min_length.is_some()
                || limits.max_length.is_some()
                || limits.pattern.is_some()
                || walk_first(inner)
        }
        Schema::Array { items: inner, .. }
        | Schema::Map(inner)
        | Schema::OneOrMany(inner)
        | Schema::Tagged { body: inner, .. }
        | Schema::Adjacent {
            content: Some(inner),
            ..
        }
        | Schema::External { content: inner, .. }
        | Schema::Anchored { inner, .. }
        | Schema::Described { inner, .. }
        | Schema::Lenient(inner)
        | Schema::Bounded { inner, .. } => walk_first(inner),
        Schema::Tuple(members) | Schema::AnyOf(members) | Schema::OneOf(members) => {
            let mut i = 0;
            while i < members.len() {
                if walk_first(members[i]) {
                    return true;
                }
                i += 1;
            }
            false
        }
        Schema::Object(object) => {
            let mut i = 0;
            while i < object.properties.len() {
                if walk_first(object.properties[i].schema()) {
                    return true;
                }
                i += 1;
            }
            let mut i = 0;
            while i < object.flatten.len() {
                if walk_first(object.flatten[i].schema) {
                    return true;
                }
                i += 1;
            }
            false
        }
        Schema::Any
        | Schema::Null
        | Schema::Boolean
        | Schema::Integer { .. }
        | Schema::Number
        | Schema::Float32
        | Schema::String
        | Schema::Char
        | Schema::Enum(_)
        | Schema::Adjacent { content: None, .. }
        | Schema::Raw(_)
        | Schema::Ref(_) => false,
    }
}

/// Any bound is within a float's range.
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

/// `minimum = 1.5` on a `u32` is a mistake, not a bound; true for any other leaf.
#[doc(hidden)]
pub const fn whole_for_integers(schema: &Schema, n: Num) -> bool {
    match (leaf(schema), n) {
        (Schema::Integer { .. }, Num::Float(f, _)) => (f as i128) as f64 == f,
        _ => true,
    }
}

/// Some value of an integer type lies within its `(bound, exclusive)` bounds
/// (`exclusive_maximum = 0` on a `u8` leaves none); true for any other leaf.
#[doc(hidden)]
pub const fn admits_an_integer(
    schema: &Schema,
    low: Option<(Num, bool)>,
    high: Option<(Num, bool)>,
) -> bool {
    let Schema::Integer { min, max } = leaf(schema) else {
        return true;
    };
    let mut lowest = *min;
    if let Some((n, exclusive)) = low {
        let from = match n {
            Num::Int(i) => i,
            // The least whole number at or above `f`.
            Num::Float(f, _) => (f as i128) + (((f as i128) as f64) < f) as i128,
        };
        let from = if exclusive && whole(n) {
            from + 1
        } else {
            from
        };
        if from > lowest {
            lowest = from;
        }
    }
    let mut highest = if *max > i128::MAX as u128 {
        i128::MAX
    } else {
        *max as i128
    };
    if let Some((n, exclusive)) = high {
        let to = match n {
            Num::Int(i) => i,
            // The greatest whole number at or below `f`.
            Num::Float(f, _) => (f as i128) - (((f as i128) as f64) > f) as i128,
        };
        let to = if exclusive && whole(n) { to - 1 } else { to };
        if to < highest {
            highest = to;
        }
    }
    lowest <= highest
}

/// An exclusive bound that is whole excludes itself.
const fn whole(n: Num) -> bool {
    match n {
        Num::Int(_) => true,
        Num::Float(f, _) => (f as i128) as f64 == f,
    }
}

/// `lenient_scalars` applies: the leaf, through `Option`, lists and map values, is a number or
/// a boolean (a `OneOrMany` reads text by R1 and R3 already).
#[doc(hidden)]
pub const fn takes_lenient_scalars(mut schema: &Schema) -> bool {
    loop {
        schema = match schema {
            Schema::AnyOf([inner, Schema::Null])
            | Schema::Array { items: inner, .. }
            | Schema::Map(inner)
            | Schema::Bounded { inner, .. }
            | Schema::Limited { inner, .. }
            | Schema::Lenient(inner)
            | Schema::Described { inner, .. } => inner,
            other => {
                return matches!(
                    other,
                    Schema::Integer { .. } | Schema::Number | Schema::Float32 | Schema::Boolean
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::schema::Describe;
    use crate::OneOrMany;
    use std::collections::HashMap;

    #[test]
    fn the_walk_goes_first_where_a_string_is_judged() {
        use crate::schema::{FieldOf, Flattened, Object, Property};
        assert!(!walk_first(
            <Vec<Option<OneOrMany<String>>> as Describe>::SCHEMA
        ));
        assert!(!walk_first(<HashMap<String, Vec<u32>> as Describe>::SCHEMA));
        static PATTERN: Limits = Limits {
            min_length: Some(3),
            ..Limits::NONE
        };
        static RANGE: Limits = Limits {
            minimum: Some(Num::Int(1)),
            ..Limits::NONE
        };
        let limited = |limits| Schema::Limited {
            inner: <String as Describe>::SCHEMA,
            limits,
        };
        let (named, counted) = (limited(&PATTERN), limited(&RANGE));
        assert!(walk_first(&named));
        let named: Schema = limited(&PATTERN);
        assert!(!walk_first(&counted));
        let members: &[&Schema] = &[&Schema::String, &Schema::Integer { min: 0, max: 9 }];
        assert!(!walk_first(&Schema::AnyOf(members)));
        let constrained = vec![&Schema::Null, &*Box::leak(Box::new(limited(&PATTERN)))];
        assert!(walk_first(&Schema::AnyOf(Vec::leak(constrained))));
        assert!(!walk_first(&Schema::OneOf(&[&Schema::Enum(&["a"])])));
        // Objects, built as the derive's are (`'static`), here by leaking them.
        let object = |properties: Vec<Property>, flatten: Vec<Flattened>| -> &'static Schema {
            let object = Object {
                properties: Vec::leak(properties),
                flatten: Vec::leak(flatten),
                deny_unknown_fields: false,
                description: None,
            };
            Box::leak(Box::new(Schema::Object(Box::leak(Box::new(object)))))
        };
        let property = |schema| {
            let of = FieldOf {
                schema,
                optional: false,
                default: None,
            };
            Property(Box::leak(Box::new(of)), "a", 0, "")
        };
        let deep = || vec![property(<OneOrMany<String> as Describe>::SCHEMA)];
        assert!(!walk_first(object(deep(), vec![])));
        let flattened = Flattened {
            schema: <String as Describe>::SCHEMA,
            optional: false,
        };
        assert!(!walk_first(object(deep(), vec![flattened])));
        let constrained_flat = Flattened {
            schema: Box::leak(Box::new(limited(&PATTERN))),
            optional: false,
        };
        assert!(walk_first(object(deep(), vec![constrained_flat])));
        let constrained = vec![property(Box::leak(Box::new(named)))];
        assert!(walk_first(object(constrained, vec![])));
        let node = object(vec![property(&Schema::Ref("Node"))], vec![]);
        let anchored = Schema::Anchored {
            anchor: "Node",
            inner: node,
        };
        assert!(!walk_first(&anchored));
    }

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
