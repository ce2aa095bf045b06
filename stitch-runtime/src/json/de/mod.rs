//! Deserializing an owned `Value` into a type as serde_json does (same visits, same messages), with
//! the path of a failure built only as the error travels back up. A string is moved out only where
//! the type asks for an owned one (`deserialize_string`); elsewhere it is lent, so a failed read
//! leaves the walk every string it did not hand to an owned `String` (`tool_args::read_value`).

use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    Visitor,
};
use serde_json::{Map, Number, Value};

mod error;
mod variant;

pub(crate) use self::error::Error;
use self::error::Segment;
use self::variant::Variant;

/// Deserializes `value` into `T`, or says where and why not.
pub(crate) fn from_value<T: de::DeserializeOwned>(mut value: Value) -> Result<T, Error> {
    read(&mut value)
}

/// [`from_value`] of a value left to the caller, emptied only of the strings `T` took as owned.
pub(crate) fn read<T: de::DeserializeOwned>(value: &mut Value) -> Result<T, Error> {
    T::deserialize(ValueDe(value))
}

/// [`from_value`] of a copy, so each type's `Deserialize` compiles for this one reader only.
pub(crate) fn from_copy<T: de::DeserializeOwned>(value: &Value) -> Result<T, Error> {
    from_value(value.clone())
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => number_unexpected(n),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

fn number_unexpected(n: &Number) -> Unexpected<'static> {
    if let Some(u) = n.as_u64() {
        Unexpected::Unsigned(u)
    } else if let Some(i) = n.as_i64() {
        Unexpected::Signed(i)
    } else {
        Unexpected::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

fn visit_number<'de, V: Visitor<'de>>(n: &Number, visitor: V) -> Result<V::Value, Error> {
    if let Some(u) = n.as_u64() {
        visitor.visit_u64(u)
    } else if let Some(i) = n.as_i64() {
        visitor.visit_i64(i)
    } else {
        visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
    }
}

fn visit_array<'de, V: Visitor<'de>>(
    items: &'de mut [Value],
    visitor: V,
) -> Result<V::Value, Error> {
    let len = items.len();
    let mut seq = Seq {
        items: items.iter_mut(),
        len,
    };
    match visitor.visit_seq(&mut seq) {
        Ok(out) if seq.items.len() == 0 => Ok(out),
        Ok(_) => Err(fewer(len, "fewer elements in array")),
        Err(e) => Err(e),
    }
}

/// serde_json's refusal of an array or object its visitor did not read to the end.
#[cold]
#[inline(never)]
fn fewer(len: usize, expected: &'static str) -> Error {
    de::Error::invalid_length(len, &expected)
}

fn visit_object<'de, V: Visitor<'de>>(
    map: &'de mut Map<String, Value>,
    visitor: V,
) -> Result<V::Value, Error> {
    let len = map.len();
    let mut access = Entries {
        entries: map.iter_mut(),
        current: None,
    };
    match visitor.visit_map(&mut access) {
        Ok(out) if access.entries.len() == 0 => Ok(out),
        Ok(_) => Err(fewer(len, "fewer elements in map")),
        Err(e) => Err(e),
    }
}

/// The name `OneOrMany<T>` deserializes itself under; this reader answers with the array or with
/// the one value (`visit_some` of itself).
pub(crate) const ONE_OR_MANY: &str = "$stitch::OneOrMany";

struct ValueDe<'de>(&'de mut Value);

macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match &*self.0 {
                Value::Number(n) => visit_number(n, visitor),
                other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for ValueDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => visit_number(n, visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(map) => visit_object(map, visitor),
        }
    }

    numbers!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64);

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Bool(b) => visitor.visit_bool(*b),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_borrowed_str(s),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_string(core::mem::take(s)),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => visit_array(items, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_string(core::mem::take(s)),
            Value::Array(items) => visit_array(items, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == ONE_OR_MANY {
            // Its array, or its one value as this reader, for `T` to read as it asks.
            return match self.0 {
                Value::Array(items) => visit_array(items, visitor),
                Value::Null => visitor.visit_unit(),
                other => visitor.visit_some(ValueDe(other)),
            };
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(map) => visit_object(map, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(map) => visit_object(map, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(map) => {
                let mut entries = map.iter_mut();
                let (variant, value) = match (entries.next(), entries.next()) {
                    (Some(entry), None) => entry,
                    _ => {
                        return Err(de::Error::invalid_value(
                            Unexpected::Map,
                            &"map with a single key",
                        ))
                    }
                };
                visitor.visit_enum(Variant {
                    name: variant,
                    value: Some(value),
                })
            }
            Value::String(name) => visitor.visit_enum(Variant { name, value: None }),
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

struct Seq<'de> {
    items: core::slice::IterMut<'de, Value>,
    /// An item's index is this less the items left after it.
    len: usize,
}

impl Seq<'_> {
    /// Out of line: the element reads are generic.
    #[cold]
    #[inline(never)]
    fn failed(&self, e: Error) -> Error {
        e.at(Segment::Index(self.len - self.items.len() - 1))
    }
}

impl<'de> SeqAccess<'de> for Seq<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        // `match`, not `map_err`: a closure would add a function per element type.
        match seed.deserialize(ValueDe(item)) {
            Ok(read) => Ok(Some(read)),
            Err(e) => Err(self.failed(e)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// Out of line: the member reads are generic.
#[cold]
#[inline(never)]
fn failed_at_key(key: &str, e: Error) -> Error {
    e.at(Segment::Key(key.to_owned()))
}

struct Entries<'de> {
    entries: serde_json::map::IterMut<'de>,
    current: Option<(&'de str, &'de mut Value)>,
}

impl<'de> MapAccess<'de> for Entries<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        match seed.deserialize(KeyDe(key)) {
            Ok(read) => {
                self.current = Some((key, value));
                Ok(Some(read))
            }
            Err(e) => Err(e),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        match self.current.take() {
            Some((key, value)) => match seed.deserialize(ValueDe(value)) {
                Ok(read) => Ok(read),
                Err(e) => Err(failed_at_key(key, e)),
            },
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// A map key, lent; read as a number or a boolean where the type asks (integer-keyed maps).
struct KeyDe<'de>(&'de str);

macro_rules! parsed_keys {
    ($($method:ident => $ty:ty, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.0.parse::<$ty>() {
                Ok(n) => visitor.$visit(n),
                Err(_) => Err(de::Error::invalid_type(Unexpected::Str(self.0), &visitor)),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for KeyDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.0)
    }

    parsed_keys! {
        deserialize_i8 => i8, visit_i8;
        deserialize_i16 => i16, visit_i16;
        deserialize_i32 => i32, visit_i32;
        deserialize_i64 => i64, visit_i64;
        deserialize_i128 => i128, visit_i128;
        deserialize_u8 => u8, visit_u8;
        deserialize_u16 => u16, visit_u16;
        deserialize_u32 => u32, visit_u32;
        deserialize_u64 => u64, visit_u64;
        deserialize_u128 => u128, visit_u128;
        deserialize_f32 => f32, visit_f32;
        deserialize_f64 => f64, visit_f64;
        deserialize_bool => bool, visit_bool;
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_enum(self.0.into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}
