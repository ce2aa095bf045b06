//! `schemars::JsonSchema` (feature `schemars`) for [`Args<T>`](crate::Args) (stitch's schema
//! of `T`, inline) and [`OneOrMany<T>`], for code that speaks schemars, such as rmcp's
//! `Parameters<T>`. A derived type gets none of its own, so that a user's
//! `#[derive(JsonSchema)]` beside `ToolArgs` compiles with the feature on or off.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::json;

use crate::one_or_many::OneOrMany;
use crate::schema::ONE_OR_MANY_NOTE;

#[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
impl<T: JsonSchema> JsonSchema for OneOrMany<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("OneOrMany_{}", T::schema_name()).into()
    }

    /// The same shape stitch's own schema gives: `anyOf [T, array of T]`, with the note that a
    /// list is passed as an array.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let item = generator.subschema_for::<T>().to_value();
        let schema = json!({
            "description": ONE_OR_MANY_NOTE,
            "anyOf": [item.clone(), {"type": "array", "items": item}],
        });
        Schema::try_from(schema).unwrap_or_default()
    }
}

/// `T`'s input schema as schemars holds it (the schema is always a JSON object), a root union
/// written as one object as the provider formats write it: rmcp's `Parameters<Args<T>>` is a
/// tool's `inputSchema`, which clients pass on to APIs that refuse `anyOf`/`oneOf`/`allOf` at
/// its top (`docs/rules.md#flattened-unions`).
pub(crate) fn stitch_schema<T: crate::ToolArgs>() -> Schema {
    Schema::try_from(crate::surface::root::root_object(T::input_schema())).unwrap_or_default()
}
