//! `Deserialize` (and `JsonSchema`) for [`Args<T>`] and [`Reported<T>`], so any serde-based
//! framework gets stitch's rules.

use core::ops::{Deref, DerefMut};

use serde::de::{Deserialize, Deserializer, Error as _};
use serde::ser::{Serialize, Serializer};

use crate::report::{Repairs, Reported};
use crate::ToolArgs;

/// A tool's arguments, deserialized through stitch.
///
/// Name `Args<T>` instead of `T` where a framework deserializes a tool's arguments with serde
/// (rmcp's `Parameters<T>`, a JSON extractor): they are read through
/// [`T::from_value`](ToolArgs::from_value), and a refusal becomes the deserializer's error
/// carrying the [`ArgsError`](crate::ArgsError)'s full text. With the `schemars` feature, its
/// `JsonSchema` is stitch's input schema of `T`, inline.
///
/// ```
/// use stitch_runtime::{Args, OneOrMany, ToolArgs};
///
/// /// Show one or more files to the model.
/// #[derive(Debug, serde::Deserialize, ToolArgs)]
/// struct ViewFile {
///     /// One path or a list of paths.
///     #[stitch(max_items = 20)]
///     paths: OneOrMany<String>,
/// }
///
/// let Args(args) = serde_json::from_str::<Args<ViewFile>>(r#"{"paths": "a.png"}"#).unwrap();
/// assert_eq!(args.paths.as_slice(), ["a.png"]);
///
/// let err = serde_json::from_str::<Args<ViewFile>>(r#"{"paths": "[\"a.png\"]"}"#).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
/// );
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Args<T>(pub T);

impl<T> Args<T> {
    /// The arguments.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> From<T> for Args<T> {
    fn from(args: T) -> Args<T> {
        Args(args)
    }
}

impl<T> Deref for Args<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Args<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<'de, T: ToolArgs> Deserialize<'de> for Args<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Keys sent twice are noted, as `from_json` does, to refuse a declared field sent twice.
        let (value, duplicates) = crate::json::parse::from_deserializer(deserializer)?;
        crate::tool_args::read_with::<T>(value, duplicates, None)
            .map(Args)
            .map_err(D::Error::custom)
    }
}

/// Serializes as `T` does.
impl<T: Serialize> Serialize for Args<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// stitch's input schema of `T`, inline; `T`'s own `JsonSchema`, if any, is not consulted.
#[cfg(feature = "schemars")]
#[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
impl<T: ToolArgs> schemars::JsonSchema for Args<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        let name = std::any::type_name::<T>();
        let base = name.split('<').next().unwrap_or(name);
        base.rsplit("::").next().unwrap_or(base).to_owned().into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        format!("stitch::Args<{}>", std::any::type_name::<T>()).into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        crate::surface::schemars::stitch_schema::<T>()
    }
}

impl<'de, T: ToolArgs> Deserialize<'de> for Reported<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (value, duplicates) = crate::json::parse::from_deserializer(deserializer)?;
        let mut repairs = Vec::new();
        let args = crate::tool_args::read_with::<T>(value, duplicates, Some(&mut repairs))
            .map_err(D::Error::custom)?;
        Ok(Reported {
            args,
            repairs: Repairs::from_walk(repairs),
        })
    }
}

/// As for [`Args<T>`]: stitch's input schema of `T`, inline.
#[cfg(feature = "schemars")]
#[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
impl<T: ToolArgs> schemars::JsonSchema for Reported<T> {
    fn inline_schema() -> bool {
        <Args<T> as schemars::JsonSchema>::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Args<T> as schemars::JsonSchema>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        format!("stitch::Reported<{}>", std::any::type_name::<T>()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Args<T> as schemars::JsonSchema>::json_schema(generator)
    }
}
