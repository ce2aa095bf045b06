//! [`Describe`] for the standard types: the schema side of `impls.rs`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::one_or_many::OneOrMany;
use crate::schema::{Describe, Schema};

macro_rules! describe {
    ($($ty:ty => $schema:expr, $default:expr;)*) => {$(
        impl Describe for $ty {
            const SCHEMA: &'static Schema = &$schema;
            const DEFAULT: Option<&'static str> = $default;
        }
    )*};
}

describe! {
    String => Schema::String, Some("\"\"");
    Box<str> => Schema::String, Some("\"\"");
    PathBuf => Schema::String, Some("\"\"");
    char => Schema::Char, None;
    bool => Schema::Boolean, Some("false");
    f32 => Schema::Number, Some("0.0");
    f64 => Schema::Number, Some("0.0");
    () => Schema::Null, Some("null");
    Value => Schema::Any, Some("null");
    Map<String, Value> => Schema::Map(&Schema::Any), Some("{}");
}

impl Describe for Cow<'_, str> {
    const SCHEMA: &'static Schema = &Schema::String;
    const DEFAULT: Option<&'static str> = Some("\"\"");
}

macro_rules! integer {
    ($($ty:ty),*) => {$(
        impl Describe for $ty {
            const SCHEMA: &'static Schema = &Schema::Integer {
                min: <$ty>::MIN as i128,
                max: <$ty>::MAX as u128,
            };
            const DEFAULT: Option<&'static str> = Some("0");
        }
    )*};
}

integer!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

macro_rules! sequence {
    ($($ty:ident $(<$s:ident>)? => $unique:expr;)*) => {$(
        impl<T: Describe $(, $s)?> Describe for $ty<T $(, $s)?> {
            const SCHEMA: &'static Schema = &Schema::Array {
                items: T::SCHEMA,
                min_items: 0,
                max_items: None,
                unique: $unique,
            };
            const DEFAULT: Option<&'static str> = Some("[]");
        }
    )*};
}

// Sets are not `uniqueItems`: serde reads a list with repeats into a set (they collapse), so
// the schema must accept it too.
sequence! {
    Vec => false;
    VecDeque => false;
    BTreeSet => false;
    HashSet<S> => false;
}

impl<T: Describe> Describe for Box<[T]> {
    const SCHEMA: &'static Schema = <Vec<T> as Describe>::SCHEMA;
    const DEFAULT: Option<&'static str> = Some("[]");
}

impl<T: Describe, const N: usize> Describe for [T; N] {
    const SCHEMA: &'static Schema = &Schema::Array {
        items: T::SCHEMA,
        min_items: N,
        max_items: Some(N),
        unique: false,
    };
}

impl<T: Describe, S> Describe for HashMap<String, T, S> {
    const SCHEMA: &'static Schema = &Schema::Map(T::SCHEMA);
    const DEFAULT: Option<&'static str> = Some("{}");
}

impl<T: Describe> Describe for BTreeMap<String, T> {
    const SCHEMA: &'static Schema = &Schema::Map(T::SCHEMA);
    const DEFAULT: Option<&'static str> = Some("{}");
}

impl<T: Describe> Describe for Option<T> {
    const SCHEMA: &'static Schema = T::SCHEMA;
    const OPTIONAL: bool = true;
}

macro_rules! pointer {
    ($($ty:ident),*) => {$(
        impl<T: Describe> Describe for $ty<T> {
            const SCHEMA: &'static Schema = T::SCHEMA;
            const OPTIONAL: bool = T::OPTIONAL;
            const DEFAULT: Option<&'static str> = T::DEFAULT;
        }
    )*};
}

pointer!(Box, Arc, Rc);

macro_rules! tuple {
    ($(($($t:ident),+))*) => {$(
        impl<$($t: Describe),+> Describe for ($($t,)+) {
            const SCHEMA: &'static Schema = &Schema::Tuple(&[$($t::SCHEMA),+]);
        }
    )*};
}

tuple! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
}

impl<T: Describe> Describe for OneOrMany<T> {
    const SCHEMA: &'static Schema = &Schema::OneOrMany(T::SCHEMA);
    const DEFAULT: Option<&'static str> = Some("[]");
}
