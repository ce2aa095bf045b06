//! `schemars::JsonSchema` for [`OneOrMany<T>`] and the schema behind `Args<T>`'s. A derived
//! type gets none, so a user's `#[derive(JsonSchema)]` beside `ToolArgs` still compiles.

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

    /// As stitch's own schema: `anyOf [T, array of T]`, with its note.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let item = generator.subschema_for::<T>().to_value();
        let schema = json!({
            "description": ONE_OR_MANY_NOTE,
            "anyOf": [item.clone(), {"type": "array", "items": item}],
        });
        Schema::try_from(schema).unwrap_or_default()
    }
}

/// A root union as one object: clients pass rmcp's `inputSchema` on to APIs that refuse it
/// (`docs/rules.md#flattened-unions`).
pub(crate) fn stitch_schema<T: crate::ToolArgs>() -> Schema {
    Schema::try_from(crate::surface::root::root_object(T::input_schema())).unwrap_or_default()
}
