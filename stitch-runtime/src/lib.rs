//! Typed arguments for agent and MCP tools that refuse a list written as JSON text.
//!
//! Language models call tools with JSON arguments and get one shape wrong in a classic way: a
//! list arrives written as JSON text, `{"paths": "[\"a.png\"]"}` instead of
//! `{"paths": ["a.png"]}`. For a field that takes one value or a list ([`OneOrMany<String>`]),
//! that string is a valid single value, so a typed framework reads it as one wrong file name and
//! the tool fails later, far from the cause. stitch refuses it by name before the tool runs:
//!
//! ```text
//! paths is a list written as text — pass the array itself, not JSON written as text
//! ```
//!
//! Where no string is expected at all (a `Vec<T>`, a nested struct, a map), the same JSON text
//! is unambiguous and is repaired instead.
//!
//! ```
//! use stitch_runtime::{OneOrMany, ToolArgs};
//!
//! /// Show one or more images to the model.
//! #[derive(Debug, serde::Deserialize, ToolArgs)]
//! struct ViewFile {
//!     /// One path or a list of paths.
//!     #[stitch(max_items = 20)]
//!     paths: OneOrMany<String>,
//!     /// Tags to attach; JSON text here is repaired.
//!     #[serde(default)]
//!     tags: Vec<String>,
//! }
//!
//! // A list written as text where one value is also valid: refused, by name.
//! let err = ViewFile::from_value(serde_json::json!({"paths": "[\"a.png\"]"})).unwrap_err();
//! assert_eq!(err.issues()[0].path(), "paths");
//! assert_eq!(err.issues()[0].kind(), stitch_runtime::IssueKind::TextList);
//!
//! // A string that is not such a list stays one plain value.
//! let one = ViewFile::from_json(r#"{"paths": "[preview].png"}"#).unwrap();
//! assert_eq!(one.paths.as_slice(), ["[preview].png"]);
//!
//! // JSON text where no string is expected is repaired.
//! let fixed = ViewFile::from_json(r#"{"paths": ["a.png"], "tags": "[\"x\", \"y\"]"}"#).unwrap();
//! assert_eq!(fixed.tags, ["x", "y"]);
//! ```
//!
//! # The rules
//! - **R1, repair.** At a sequence, struct, map, tuple or non-string-bearing union position, a
//!   string is parsed as JSON; if it parses, the result replaces it and the walk goes on into
//!   it. If not, the string is left for serde to reject with its ordinary type error.
//! - **R2, keep.** At a *string-bearing* union (a [`OneOrMany`] of a string-like type, an
//!   untagged enum with a `String` newtype variant) a string is never parsed: `"123"`, `"null"`
//!   stay strings.
//! - **R3, refuse.** …except a string that (after JSON whitespace) starts with `[`, parses as a
//!   JSON array, and is accepted by one of the union's array members, elements and
//!   `min_items`/`max_items` included. That string is refused with an issue of kind
//!   [`IssueKind::TextList`]. `[preview].png`, `[1,2`, `123`, a list of objects for a string
//!   list, or a list longer than `max_items` stay one plain value.
//! - **R4, where.** Into struct fields by their serde wire names, sequence elements, map
//!   values, the matched variant of a tagged enum, the members of `OneOrMany` and of untagged
//!   enums. Keys the type does not declare are left exactly as they are.
//! - **R5, paths.** Keys as the caller sent them joined with `.`, indices in decimal:
//!   `rows.0.names`. A flattened field and an internally tagged enum add no segment; the keys
//!   that carry an externally tagged variant or an adjacently tagged content are keys the caller
//!   sent, so they are segments.
//! - **R6, errors.** Every issue is reported at once, in walk order (up to [`MAX_ISSUES`]); a
//!   refused call changes nothing the caller holds.
//! - **R7, limits.** Nesting deeper than [`MAX_DEPTH`] is refused with an
//!   [`IssueKind::TooDeep`] issue, never a stack overflow.
//!
//! # Types stitch walks
//! string-like: `String`, `Box<str>`, `Cow<str>`, `PathBuf`, `char`, unit-variant enums;
//! scalars: integers, floats, `bool`, `()`; sequences: `Vec`, `VecDeque`, `HashSet`,
//! `BTreeSet`, `Box<[T]>`, `[T; N]`; maps: `HashMap<String, T>`, `BTreeMap<String, T>`,
//! `serde_json::Map`; tuples up to eight; [`OneOrMany<T>`]; `serde_json::Value` (never
//! touched); `Option`, `Box`, `Arc`, `Rc` (seen through); and every type deriving
//! [`ToolArgs`]. A field of any other type is marked `#[stitch(opaque)]` and left to serde.
//!
//! # The input schema
//! The same derive gives each type its input schema, rendered as JSON text during compilation
//! ([`ToolArgs::INPUT_SCHEMA`], [`ToolArgs::input_schema`]): `properties` by serde's wire
//! names, `required` exactly as serde requires, doc comments as descriptions, every subschema
//! inline. [`tool`] wraps it as an MCP, OpenAI (plain or strict) or Anthropic tool definition.
//!
//! # Through a framework
//! [`Args<T>`] is `T` for any framework that deserializes a tool's arguments with serde: its
//! `Deserialize` runs [`ToolArgs::from_value`] and turns a refusal into the deserializer's
//! error, carrying the full message; with the `schemars` feature its `JsonSchema` is `T`'s. In
//! rmcp, a tool takes `Parameters(Args(args)): Parameters<Args<ViewFile>>` and needs no glue.
//!
//! # Features
//! - `derive` (default): re-exports `#[derive(ToolArgs)]`.
//! - `schemars`: `schemars::JsonSchema` for [`OneOrMany`] and every derived type, returning
//!   stitch's schema inline, so rmcp's `Parameters<T>` advertises it.

#![deny(missing_docs)]

mod args;
pub mod cli;
mod coerce;
mod de;
mod describe;
mod error;
mod fast;
mod impls;
mod one_or_many;
mod path;
pub mod schema;
#[cfg(feature = "schemars")]
mod schemars_impl;
pub mod text_list;
pub mod tool;
mod wrapper;

pub use crate::args::ToolArgs;
pub use crate::coerce::{Coerce, Cx, Kind, Shape, MAX_DEPTH};
pub use crate::error::{ArgsError, Issue, IssueKind, MAX_ISSUES};
pub use crate::one_or_many::OneOrMany;
pub use crate::path::Path;
pub use crate::schema::{Describe, Schema};
pub use crate::text_list::{is_text_list, Bounds};
pub use crate::wrapper::Args;

#[cfg(feature = "derive")]
pub use stitch_derive::ToolArgs;

/// `schemars::JsonSchema` for a derived type, when the `schemars` feature is on (the feature
/// is the runtime's, so the derive asks through this macro). Not a public API.
#[cfg(feature = "schemars")]
#[doc(hidden)]
#[macro_export]
macro_rules! __stitch_json_schema {
    ([$($impl_generics:tt)*] [$($ty:tt)*] [$($where_clause:tt)*] $name:literal) => {
        #[automatically_derived]
        impl $($impl_generics)* $crate::__private::schemars::JsonSchema for $($ty)* $($where_clause)* {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> $crate::__private::Cow<'static, str> {
                $crate::__private::Cow::Borrowed($name)
            }

            fn json_schema(
                _: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::derived_schema(
                    <Self as $crate::__private::ToolArgs>::input_schema(),
                )
            }
        }
    };
}

/// Without the `schemars` feature there is nothing to implement.
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __stitch_json_schema {
    ($($anything:tt)*) => {};
}

/// What the derive's generated code names. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::__stitch_json_schema;
    pub use crate::coerce::{
        owns_nothing, untyped_entries, walk_flat_map, walk_items, walk_leaf, walk_map, walk_object,
        walk_seq, Coerce, Cx, Kind, Shape,
    };
    pub use crate::path::Path;
    pub use crate::schema::{
        as_str as schema_str, bytes as schema_bytes, len as schema_len, Describe, Flattened,
        Object, Property, Schema,
    };
    pub use crate::text_list::{is_text_list, Bounds};
    pub use crate::ToolArgs;
    pub use core;
    pub use serde::de::DeserializeOwned;
    pub use serde_json::{from_str, Map, Value};
    pub use std::borrow::Cow;

    #[cfg(feature = "schemars")]
    pub use crate::schemars_impl::derived_schema;
    #[cfg(feature = "schemars")]
    pub use schemars;

    /// A walked type's schema. Going through `Coerce` (not `Describe`) keeps a missing impl
    /// to one error per field.
    pub const fn schema_of<T: Coerce>() -> &'static Schema {
        T::SCHEMA
    }

    /// The property `name` of type `T`: required unless serde has a default for it
    /// (`serde_default`) or accepts it missing (`Option`); `type_default` lists `T`'s
    /// default; an empty `description` is none.
    pub const fn property<T: Coerce>(
        name: &'static str,
        serde_default: bool,
        type_default: bool,
        description: &'static str,
    ) -> Property {
        Property {
            name,
            schema: T::SCHEMA,
            required: !serde_default && !T::OPTIONAL,
            description: if description.is_empty() {
                None
            } else {
                Some(description)
            },
            default: if type_default { T::DEFAULT } else { None },
        }
    }

    /// Whether serde accepts a field of type `T` missing.
    pub const fn optional_of<T: Coerce>() -> bool {
        T::OPTIONAL
    }

    /// `T::default()` as JSON text, where known.
    pub const fn default_of<T: Coerce>() -> Option<&'static str> {
        T::DEFAULT
    }

    pub use std::string::String;

    /// Whether `max_items` / `min_items` mean something at a position of this shape: a
    /// sequence, or a union with an array member.
    pub const fn takes_item_bounds(shape: Shape) -> bool {
        shape.arrays && matches!(shape.kind, Kind::Sequence | Kind::Union)
    }

    /// Whether `text` parses as a `T` (the element check of derived types).
    #[inline]
    pub fn parses_as<T: DeserializeOwned>(text: &str) -> bool {
        serde_json::from_str::<T>(text).is_ok()
    }
}
