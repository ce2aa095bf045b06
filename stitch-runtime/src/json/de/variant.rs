//! An externally tagged enum's variant, read in place: its name (lent) and its content.

use serde::de::{self, DeserializeSeed, EnumAccess, Unexpected, VariantAccess, Visitor};
use serde_json::Value;

use super::{failed_at_key, unexpected, visit_array, visit_object, Error, KeyDe, ValueDe};

/// An externally tagged enum's variant: its name and, unless it came as a string, its content.
pub(super) struct Variant<'de> {
    pub(super) name: &'de str,
    pub(super) value: Option<&'de mut Value>,
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = Error;
    type Variant = Content<'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Content<'de>), Error> {
        let read = seed.deserialize(KeyDe(self.name))?;
        Ok((
            read,
            Content {
                name: self.name,
                value: self.value,
            },
        ))
    }
}

pub(super) struct Content<'de> {
    name: &'de str,
    value: Option<&'de mut Value>,
}

impl Content<'_> {
    fn inside<T>(name: &str, result: Result<T, Error>) -> Result<T, Error> {
        match result {
            Ok(read) => Ok(read),
            Err(e) => Err(failed_at_key(name, e)),
        }
    }
}

impl<'de> VariantAccess<'de> for Content<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            None | Some(Value::Null) => Ok(()),
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &"unit variant")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        match self.value {
            Some(value) => Content::inside(self.name, seed.deserialize(ValueDe(value))),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            )),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Array(items)) => Content::inside(self.name, visit_array(items, visitor)),
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &"tuple variant")),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            // As serde_json's `Value` reader: from an object only, not an array.
            Some(Value::Object(map)) => Content::inside(self.name, visit_object(map, visitor)),
            Some(other) => Err(de::Error::invalid_type(
                unexpected(other),
                &"struct variant",
            )),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        }
    }
}
