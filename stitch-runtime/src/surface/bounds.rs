//! [`ObjectArgs`] and [`StrictArgs`], the bounds of the `tool::*` functions, implemented by the
//! derive where `schema::marks` hold, so an unfit type is refused at the user's line.

use crate::ToolArgs;

/// Arguments that are a JSON object (a struct with named fields, or an enum whose every
/// variant is an object): the bound of every `tool::*` function and of generic code calling one.
///
/// ```
/// use serde_json::Value;
/// use stitch_runtime::{tool, ObjectArgs};
///
/// /// Every definition a registry offers for one tool type.
/// fn definitions<T: ObjectArgs>(name: &str) -> Vec<Value> {
///     vec![
///         tool::mcp::<T>(name, None),
///         tool::openai::<T>(name, None),
///         tool::openai_responses::<T>(name, None),
///         tool::anthropic::<T>(name, None),
///         tool::anthropic_strict::<T>(name, None),
///         tool::gemini::<T>(name, None),
///         tool::gemini_json_schema::<T>(name, None),
///     ]
/// }
///
/// /// Look a word up.
/// #[derive(serde::Deserialize, stitch_runtime::ToolArgs)]
/// struct Lookup {
///     word: String,
/// }
///
/// assert_eq!(definitions::<Lookup>("lookup")[0]["name"], "lookup");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's arguments: a tool takes a JSON object",
    label = "not an object at the root",
    note = "every provider takes an object: a struct with named fields, or an enum whose every variant is an object (internally or adjacently tagged, externally tagged with data in every variant, or untagged with object members only); generic code names this bound: `T: stitch_runtime::ObjectArgs`"
)]
pub trait ObjectArgs: ToolArgs {}

/// Arguments OpenAI's strict mode can express (a struct with named fields, no map or tuple
/// anywhere): the bound of [`tool::openai_strict`](crate::tool::openai_strict) and
/// [`tool::openai_responses_strict`](crate::tool::openai_responses_strict).
///
/// ```
/// use serde_json::Value;
/// use stitch_runtime::{tool, StrictArgs};
///
/// fn strict_definitions<T: StrictArgs>(name: &str) -> [Value; 3] {
///     [
///         tool::openai_strict::<T>(name, None),
///         tool::openai_responses_strict::<T>(name, None),
///         // A strict type is an object too: every other function takes it.
///         tool::mcp::<T>(name, None),
///     ]
/// }
///
/// /// Look a word up.
/// #[derive(serde::Deserialize, stitch_runtime::ToolArgs)]
/// struct Lookup {
///     word: String,
/// }
///
/// assert_eq!(strict_definitions::<Lookup>("lookup")[0]["function"]["strict"], true);
/// ```
#[diagnostic::on_unimplemented(
    message = "OpenAI's strict mode cannot express `{Self}`",
    label = "not a struct strict mode can say",
    note = "strict mode wants a struct with named fields at the root (not an enum's `anyOf`: give this tool the non-strict definition, `tool::openai`, or wrap the enum in a struct field) and no map or tuple anywhere; generic code names this bound: `T: stitch_runtime::StrictArgs`"
)]
pub trait StrictArgs: ObjectArgs {}
