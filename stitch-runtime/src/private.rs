//! Not public API: exactly what `#[derive(ToolArgs)]`'s code names, plus helpers for stitch's
//! own tests. It may change in any release: the runtime pins `stitch-derive = "=x.y.z"`.
//!
//! Version marker of this module's contents: 0.2 (bump with any change the derive must follow).

pub use crate::bounds::Bounds;
#[cfg(feature = "pattern")]
pub use crate::limits::compile_once;
#[cfg(feature = "pattern")]
pub use crate::limits::PatternMatcher;
pub use crate::limits::{Limits, Num, Pattern};
pub use crate::path::Path;
pub use crate::schema::limited::{
    admits_an_integer, takes_lenient_scalars, takes_number_limits, takes_string_limits,
    whole_for_integers, within_range,
};
pub use crate::schema::marks::{ObjectRoot, StrictPart, StrictRoot};
pub use crate::schema::{Describe, FieldOf, Flattened, Object, Property, Schema};
pub use crate::surface::bounds::{ObjectArgs, StrictArgs};
pub use crate::walk::{
    deserialized, flat_refused, no_flat_variant, null_is_absent, union_string, untagged,
    untyped_entries, walk_fields, walk_flat_whole, walk_leaf, Claims, Coerce, Cx, FieldType,
    FieldWalk, Fields, Kind, Member, Shape,
};
pub use crate::ToolArgs;
pub use core;
pub use core::option::Option::{self, None, Some};
pub use serde::de::DeserializeOwned;
pub use serde_json::{Map, Value};
pub use std::string::String;
#[cfg(feature = "pattern")]
pub use std::sync::OnceLock;

/// A walked type's schema. Going through `Coerce` (not `Describe`) keeps a missing impl
/// to one error per field.
pub const fn schema_of<T: Coerce>() -> &'static Schema {
    T::SCHEMA
}

/// `Bounds::NONE` in fewer tokens.
pub const NONE: Bounds = Bounds::NONE;

pub const fn optional_of<T: Coerce>() -> bool {
    T::OPTIONAL
}

pub const fn nullable_of<T: Coerce>() -> bool {
    T::NULLABLE
}

pub const fn item_schema_of<T: Coerce>() -> &'static crate::schema::Schema {
    T::ITEM_SCHEMA
}

pub const fn default_of<T: Coerce>() -> Option<&'static str> {
    T::DEFAULT
}

/// The `Raw` of `#[serde(from = "Raw")]`, which stitch walks instead, so it needs a walk.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not derive `ToolArgs`, so stitch cannot read a type serde builds from it",
    label = "serde reads this type, then converts it: stitch walks and describes it instead",
    note = "add `#[derive(ToolArgs)]` to `{Self}`"
)]
pub trait SerdeSource: Coerce {}

impl<T: Coerce> SerdeSource for T {}

/// Spanned at `from = "Raw"`'s string.
pub const fn serde_source<T: SerdeSource>() {}

pub const fn takes_item_bounds(shape: Shape) -> bool {
    shape.arrays && matches!(shape.kind, Kind::Sequence | Kind::Union)
}

// For stitch's own tests, benchmarks and fuzz targets; not for the derive.

pub use crate::json::text_list::{decode_json_string, is_json_char, is_json_string, is_text_list};

// The compile errors of the `tool` functions for `T`, or `None`, read at run time: `cargo
// check` (compile-fail tests) does not evaluate post-monomorphization constants.
pub fn tool_error<T: ToolArgs>() -> Option<String> {
    crate::schema::check::tool_root(T::SCHEMA).map(|m| m.as_str().to_owned())
}

pub fn strict_error<T: ToolArgs>() -> Option<String> {
    crate::schema::check::strict(T::SCHEMA).map(|m| m.as_str().to_owned())
}

pub fn gemini_error<T: ToolArgs>() -> Option<String> {
    use crate::schema::check::{subset, Subset};
    subset(T::SCHEMA, Subset::Gemini).map(|m| m.as_str().to_owned())
}

pub fn anthropic_strict_error<T: ToolArgs>() -> Option<String> {
    use crate::schema::check::{subset, Subset};
    subset(T::SCHEMA, Subset::AnthropicStrict).map(|m| m.as_str().to_owned())
}
