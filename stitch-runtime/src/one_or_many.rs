//! [`OneOrMany<T>`], its serde impls, and its walk and schema as a string-bearing union
//! (`docs/rules.md#r2`, `#r3`).

use core::fmt;
use core::marker::PhantomData;
use core::slice;

use serde::de::value::{
    BoolDeserializer, BorrowedStrDeserializer, F64Deserializer, I64Deserializer,
    MapAccessDeserializer, StrDeserializer, StringDeserializer, U64Deserializer, UnitDeserializer,
};
use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::Value;

use crate::bounds::Bounds;
use crate::json::text_list::is_text_list;
use crate::path::Path;
use crate::schema::marks::StrictPart;
use crate::schema::{Describe, Schema};
use crate::walk::items_hold;
use crate::walk::{union_string, walk_items, Coerce, Cx, Kind, Shape};

/// One value or a list of values: `"a.png"` or `["a.png", "b.png"]`.
///
/// Deserializes from either form without buffering and serializes back to the form it came
/// from. In a `#[derive(ToolArgs)]` type, a `OneOrMany<String>` refuses a list written as
/// JSON text (`"[\"a.png\"]"`) instead of reading it as one odd name.
///
/// ```
/// use stitch_runtime::OneOrMany;
///
/// let one: OneOrMany<String> = serde_json::from_str(r#""a.png""#).unwrap();
/// let many: OneOrMany<String> = serde_json::from_str(r#"["a.png", "b.png"]"#).unwrap();
/// assert_eq!(one.len(), 1);
/// assert_eq!(many.into_vec(), ["a.png", "b.png"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OneOrMany<T> {
    /// A single value.
    One(T),
    /// A list of values (possibly empty).
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    /// The values as a slice: one element for [`OneOrMany::One`].
    pub fn as_slice(&self) -> &[T] {
        match self {
            OneOrMany::One(value) => slice::from_ref(value),
            OneOrMany::Many(values) => values,
        }
    }

    /// The values as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match self {
            OneOrMany::One(value) => slice::from_mut(value),
            OneOrMany::Many(values) => values,
        }
    }

    /// Iterates over the values.
    pub fn iter(&self) -> slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// Iterates mutably over the values.
    pub fn iter_mut(&mut self) -> slice::IterMut<'_, T> {
        self.as_mut_slice().iter_mut()
    }

    /// How many values there are.
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// `true` only for an empty list.
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    /// The first value, if any.
    pub fn first(&self) -> Option<&T> {
        self.as_slice().first()
    }

    /// The values as a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        match self {
            OneOrMany::One(value) => vec![value],
            OneOrMany::Many(values) => values,
        }
    }
}

impl<T> Default for OneOrMany<T> {
    /// An empty list.
    fn default() -> Self {
        OneOrMany::Many(Vec::new())
    }
}

impl<T> From<T> for OneOrMany<T> {
    fn from(value: T) -> Self {
        OneOrMany::One(value)
    }
}

impl<T> From<Vec<T>> for OneOrMany<T> {
    fn from(values: Vec<T>) -> Self {
        OneOrMany::Many(values)
    }
}

impl<T> From<OneOrMany<T>> for Vec<T> {
    fn from(value: OneOrMany<T>) -> Self {
        value.into_vec()
    }
}

impl<T> FromIterator<T> for OneOrMany<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        OneOrMany::Many(iter.into_iter().collect())
    }
}

impl<T> IntoIterator for OneOrMany<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a, T> IntoIterator for &'a OneOrMany<T> {
    type Item = &'a T;
    type IntoIter = slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut OneOrMany<T> {
    type Item = &'a mut T;
    type IntoIter = slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T> AsRef<[T]> for OneOrMany<T> {
    fn as_ref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Serialize> Serialize for OneOrMany<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            OneOrMany::One(value) => value.serialize(serializer),
            OneOrMany::Many(values) => values.serialize(serializer),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // A newtype of a private name: stitch's `Value` reader answers it with `visit_some`,
        // handing the one value over so a `String` is moved out (`json::de::ONE_OR_MANY`).
        deserializer
            .deserialize_newtype_struct(crate::json::de::ONE_OR_MANY, OneOrManyVisitor(PhantomData))
    }
}

struct OneOrManyVisitor<T>(PhantomData<T>);

impl<T> OneOrManyVisitor<T> {
    fn one<'de, D: Deserializer<'de>>(de: D) -> Result<OneOrMany<T>, D::Error>
    where
        T: Deserialize<'de>,
    {
        T::deserialize(One(de)).map(OneOrMany::One)
    }
}

/// serde's value deserializers refuse a newtype struct and `Some` around a value, which a
/// self-describing format reads transparently; this wrapper reads them so too.
struct One<D>(D);

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method($($arg,)* visitor)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for One<D> {
    type Error = D::Error;

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        visitor.visit_newtype_struct(self)
    }

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for OneOrManyVisitor<T> {
    type Value = OneOrMany<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("one value or an array of values")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(value) = seq.next_element()? {
            values.push(value);
        }
        Ok(OneOrMany::Many(values))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Self::one(MapAccessDeserializer::new(map))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Self::one(BoolDeserializer::<E>::new(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Self::one(I64Deserializer::<E>::new(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Self::one(U64Deserializer::<E>::new(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Self::one(F64Deserializer::<E>::new(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Self::one(StrDeserializer::<E>::new(v))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Self::one(BorrowedStrDeserializer::<E>::new(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Self::one(StringDeserializer::<E>::new(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        // Not wrapped: `null` is `None` for an `Option<T>`.
        T::deserialize(UnitDeserializer::<E>::new()).map(OneOrMany::One)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        T::deserialize(UnitDeserializer::<E>::new()).map(OneOrMany::One)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    // Only stitch's `Value` reader calls this (`json::de::ONE_OR_MANY`).
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Self::one(deserializer)
    }
}

impl<T: Coerce> Coerce for OneOrMany<T> {
    const SHAPE: Shape = Shape::new(Kind::Union, T::SHAPE.strings, true, T::SHAPE.objects);

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
        match value {
            Value::Array(items) => {
                cx.check_len(items.len(), bounds, at);
                walk_items::<T>(items, cx, at);
            }
            // A string kept is walked as a `T`, which may be a union with array members.
            Value::String(_) => union_string::<Self>(value, cx, at, bounds, |value, cx| {
                cx.as_one_of_many(at, T::SCHEMA, |cx| T::walk(value, cx, at, Bounds::NONE))
            }),
            _ => cx.as_one_of_many(at, T::SCHEMA, |cx| T::walk(value, cx, at, Bounds::NONE)),
        }
    }

    #[inline]
    fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
        is_text_list(text, T::accepts_element, bounds)
    }

    fn limits_hold(&self, limits: &crate::limits::Limits) -> bool {
        match self {
            OneOrMany::One(item) => item.limits_hold(limits),
            OneOrMany::Many(items) => items.iter().all(|item| item.limits_hold(limits)),
        }
    }

    fn bounds_hold(&self, bounds: Bounds) -> bool {
        match self {
            // Bounds are the array form's.
            OneOrMany::One(item) => item.bounds_hold(Bounds::NONE),
            OneOrMany::Many(items) => items_hold(items, items.len(), bounds),
        }
    }
}

impl<T: StrictPart> StrictPart for OneOrMany<T> {}

impl<T: Describe> Describe for OneOrMany<T> {
    const SCHEMA: &'static Schema = &Schema::OneOrMany(T::ITEM_SCHEMA);
    const DEFAULT: Option<&'static str> = Some("[]");
    // `null` is one value when `T` reads it.
    const NULLABLE: bool = T::NULLABLE;
}
