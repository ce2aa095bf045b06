//! Tool definitions for the OpenAI Responses API, Anthropic's strict tool use and Gemini, each
//! written in the schema subset its provider documents (re-exported in [`tool`](crate::tool)).
//!
//! The input schema is JSON Schema (2020-12); these providers take less. Each function here
//! rewrites it into what its provider accepts, and never into a schema that accepts a value the
//! tool refuses, with two documented exceptions: a bound a format cannot state (Anthropic's
//! strict mode has no `minimum`, `maximum`, `maxLength` or `maxItems`) is dropped and said in
//! the `description` instead, and an object cannot be closed where the format has no
//! `additionalProperties` (Gemini's `parameters`).
//!
//! A recursive type cannot be referred to in Gemini's `parameters` nor in Anthropic's strict
//! mode: it is unrolled, [`UNROLL_DEPTH`] levels of itself below its first appearance, and the
//! self-references deeper than that are left out (Gemini offers a list of them empty). A part
//! that cannot be written in a format (a tuple of different types, a self-reference too deep)
//! is left out where the type lets it be left out: an optional field, one member of a union.
//! Where it cannot (a required field), the definition cannot be written: calling [`gemini`] or
//! [`anthropic_strict`] for such a type is a compile error (`cargo build`) naming the field,
//! as [`openai_strict`](crate::tool::openai_strict) is for what strict mode cannot say. Nothing
//! here panics.
//!
//! Schema text given with `#[stitch(schema = "…")]` goes through the same rewrite; a keyword
//! it holds outside a format's subset is dropped.
//!
//! ```
//! use stitch_runtime::{tool, OneOrMany, ToolArgs};
//!
//! /// Show one or more images to the model.
//! #[derive(serde::Deserialize, ToolArgs)]
//! struct ViewFile {
//!     /// One path or a list of paths.
//!     #[stitch(max_items = 20)]
//!     paths: OneOrMany<String>,
//!     /// Zoom level.
//!     zoom: Option<u8>,
//! }
//!
//! let gemini = tool::gemini::<ViewFile>("view_file", None);
//! assert_eq!(gemini["parameters"]["properties"]["zoom"]["maximum"], 255);
//!
//! let claude = tool::anthropic_strict::<ViewFile>("view_file", None);
//! let zoom = &claude["input_schema"]["properties"]["zoom"];
//! assert!(zoom.get("maximum").is_none());
//! assert_eq!(zoom["description"], "Zoom level. From 0 to 255.");
//! ```

use serde_json::{json, Map, Value};

use crate::surface::bounds::{ObjectArgs, StrictArgs};
use crate::surface::definition::{description, strict_schema};
use crate::surface::root::root_object;

mod json_schema;
mod subset;
#[cfg(test)]
mod tests;

use json_schema::gemini_json;
use subset::{subset, Provider};

/// How many levels of itself a recursive type is unrolled to where a format cannot refer to
/// it ([`gemini`], [`anthropic_strict`]): the type's first appearance and this many nested
/// copies below it. A self-reference deeper than that is left out (an optional field or a
/// union member), so the schema accepts trees at most this deep, all of which the tool accepts.
pub const UNROLL_DEPTH: usize = 3;

/// An OpenAI Responses API function tool:
/// `{"type":"function","name","description","parameters","strict":false}`.
///
/// The Responses API's function tools are flat (no `"function"` object inside) and strict by
/// default: its reference documents `strict` as "Whether to enforce strict parameter
/// validation. Default `true`". This one says `"strict": false` explicitly, so the input schema
/// is taken as it is (a union at its root written as one object, as
/// [`mcp`](crate::tool::mcp) writes it); [`openai_responses_strict`] is the strict one.
///
/// ```
/// use stitch_runtime::{tool, ToolArgs};
///
/// /// Look something up.
/// #[derive(serde::Deserialize, ToolArgs)]
/// struct Lookup {
///     /// What to look up.
///     query: String,
/// }
///
/// let def = tool::openai_responses::<Lookup>("lookup", None);
/// assert_eq!(def["type"], "function");
/// assert_eq!(def["name"], "lookup");
/// assert_eq!(def["description"], "Look something up.");
/// assert_eq!(def["strict"], false);
/// assert_eq!(&def["parameters"], Lookup::input_schema());
/// ```
pub fn openai_responses<T: ObjectArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_object_root::<T>();
    flat_function(
        name,
        self::description::<T>(description),
        root_object(T::input_schema()),
        false,
    )
}

/// An OpenAI Responses API function tool in strict mode (`"strict": true`), its parameters
/// rewritten exactly as [`openai_strict`](crate::tool::openai_strict) rewrites them for Chat
/// Completions.
///
/// ```
/// use stitch_runtime::{tool, ToolArgs};
///
/// /// Look something up.
/// #[derive(serde::Deserialize, ToolArgs)]
/// struct Lookup {
///     /// What to look up.
///     query: String,
///     /// At most this many hits.
///     limit: Option<u32>,
/// }
///
/// let def = tool::openai_responses_strict::<Lookup>("lookup", None);
/// assert_eq!(def["strict"], true);
/// assert_eq!(
///     def["parameters"],
///     tool::openai_strict::<Lookup>("lookup", None)["function"]["parameters"]
/// );
/// assert_eq!(def["parameters"]["additionalProperties"], false);
/// ```
pub fn openai_responses_strict<T: StrictArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_strict::<T>();
    flat_function(
        name,
        self::description::<T>(description),
        strict_schema(T::input_schema()),
        true,
    )
}

fn flat_function(
    name: &str,
    description: Option<String>,
    parameters: Value,
    strict: bool,
) -> Value {
    let mut tool = Map::new();
    tool.insert("type".to_owned(), json!("function"));
    tool.insert("name".to_owned(), json!(name));
    if let Some(d) = description {
        tool.insert("description".to_owned(), Value::String(d));
    }
    tool.insert("parameters".to_owned(), parameters);
    tool.insert("strict".to_owned(), Value::Bool(strict));
    Value::Object(tool)
}

/// An Anthropic tool for strict tool use (structured outputs):
/// `{"name","description","input_schema","strict":true}`, the schema in the JSON Schema subset
/// Anthropic documents for it.
///
/// The rewrite: `"additionalProperties": false` on every object (required there; so a map can
/// only be sent empty, and its description says so), `oneOf` as `anyOf`, a recursive type
/// unrolled ([`UNROLL_DEPTH`]), a tuple of one type as an array of it. Optional properties stay
/// optional (strict tool use allows them; no `null` is added). A union at the root (a tagged
/// enum as the arguments, a flattened enum) is one closed object listing every variant's keys,
/// as [`mcp`](crate::tool::mcp) writes it: the API refuses `anyOf` at the top.
///
/// **Bounds it cannot state.** Strict mode refuses `minimum`/`maximum`, `minLength`/`maxLength`,
/// `maxItems` and a `minItems` above 1. They are dropped and written into the `description`
/// (`"From 0 to 255."`, `"At most 20 items."`): the schema is wider than the tool there, and a
/// value beyond such a bound is refused by stitch when the call arrives, by name. Anthropic
/// also limits how many optional and union-typed parameters strict tools may have in all; a
/// large or deeply recursive type can exceed that.
///
/// **What it cannot write.** A required field that is a tuple of different types (strict mode
/// has no `prefixItems`), or a required reference to the type's own type (the unrolled copy
/// cannot end there): such a type is a compile error where this function is compiled for it
/// (`cargo build`), naming the field. Make the field optional, or give the tool the
/// non-strict definition ([`anthropic`](crate::tool::anthropic)).
///
/// ```
/// use stitch_runtime::{tool, ToolArgs};
///
/// /// Rename a file.
/// #[derive(serde::Deserialize, ToolArgs)]
/// struct Rename {
///     /// The file.
///     from: String,
///     /// Its new name.
///     to: String,
///     /// How many times to retry.
///     retries: Option<u8>,
/// }
///
/// let def = tool::anthropic_strict::<Rename>("rename", None);
/// assert_eq!(def["strict"], true);
/// let schema = &def["input_schema"];
/// assert_eq!(schema["additionalProperties"], false);
/// assert_eq!(schema["required"], serde_json::json!(["from", "to"]));
/// assert_eq!(
///     schema["properties"]["retries"],
///     serde_json::json!({"type": "integer", "description": "How many times to retry. From 0 to 255."})
/// );
/// ```
pub fn anthropic_strict<T: ObjectArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_anthropic_strict::<T>();
    let schema = root_object(&subset::<T>(Provider::AnthropicStrict));
    let mut tool = Map::new();
    tool.insert("name".to_owned(), json!(name));
    if let Some(d) = self::description::<T>(description) {
        tool.insert("description".to_owned(), Value::String(d));
    }
    tool.insert("input_schema".to_owned(), schema);
    tool.insert("strict".to_owned(), Value::Bool(true));
    Value::Object(tool)
}

/// A Gemini `FunctionDeclaration`: `{"name","description","parameters"}`, the parameters in the
/// OpenAPI 3.0 subset Gemini's `Schema` takes.
///
/// The rewrite: `type` is one string (a union with `null` becomes `"nullable": true`), `const`
/// a one-value string `enum`, `oneOf` an `anyOf` (a tagged enum is an `anyOf` of objects whose
/// tag is a one-value `enum`), a recursive type unrolled ([`UNROLL_DEPTH`] levels; no `$ref`,
/// `$anchor` or `$defs`), a tuple of one type an array with `minItems` = `maxItems`. Bounds
/// stay (`minimum`, `maximum`, `minItems`, `maxItems`, `minLength`, `maxLength`).
///
/// What Gemini's `Schema` cannot say, and what stitch writes instead (never wider than the
/// tool):
/// - a map (no `additionalProperties`): `"maxProperties": 0`, so only an empty map can be sent,
///   and the description says so; a map of any value (`serde_json::Map`) stays an open object;
/// - any value (`serde_json::Value`, `{}`): an `anyOf` of a string (nullable), a number, a
///   boolean, an object and a list of strings;
/// - a self-reference deeper than [`UNROLL_DEPTH`]: a list of it is offered empty
///   (`"maxItems": 0`), an optional field or a union member of it is left out;
/// - a tuple of different types (no `prefixItems`): left out where optional.
///
/// An object's unknown keys cannot be refused (`deny_unknown_fields`): Gemini has no
/// `additionalProperties: false`; the model is given the declared properties only. A union at
/// the root (a tagged enum as the arguments, a flattened enum) is one object, as
/// [`mcp`](crate::tool::mcp) writes it: Vertex AI wants `parameters` of type `OBJECT` and an
/// `anyOf` with no other field beside it.
/// For a schema in JSON Schema with `$ref`s, tuples and maps, use [`gemini_json_schema`].
///
/// **What it cannot write.** A required field that is a tuple of different types, or a
/// required reference to the type's own type that no list can end (`next: Box<Node>`; a
/// required `Vec<Node>` ends in an empty list): such a type is a compile error where this
/// function is compiled for it (`cargo build`), naming the field. Make the field optional, or
/// use [`gemini_json_schema`].
///
/// ```compile_fail
/// use stitch_runtime::ToolArgs;
///
/// /// Place a label.
/// #[derive(serde::Deserialize, ToolArgs)]
/// struct Place {
///     /// A line and a label.
///     at: (u32, String),
/// }
///
/// // error: stitch: `tool::gemini` cannot write a tuple of different types (…) at required
/// // field `at`, which Gemini's `parameters` cannot describe; …
/// let _ = stitch_runtime::tool::gemini::<Place>("place", None);
/// ```
///
/// ```
/// use stitch_runtime::{tool, ToolArgs};
///
/// /// Walk a tree.
/// #[derive(serde::Deserialize, ToolArgs)]
/// struct Node {
///     /// The node's name.
///     name: String,
///     #[serde(default)]
///     children: Vec<Node>,
/// }
///
/// let def = tool::gemini::<Node>("walk", None);
/// assert_eq!(def["description"], "Walk a tree.");
/// let parameters = &def["parameters"];
/// assert!(!parameters.to_string().contains("$ref"));
/// // Three levels of children below the root, then an empty list.
/// let mut level = parameters;
/// for _ in 0..tool::UNROLL_DEPTH {
///     level = &level["properties"]["children"]["items"];
///     assert_eq!(level["type"], "object");
/// }
/// assert_eq!(level["properties"]["children"]["maxItems"], 0);
/// ```
pub fn gemini<T: ObjectArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_gemini::<T>();
    declaration(
        name,
        self::description::<T>(description),
        "parameters",
        root_object(&subset::<T>(Provider::Gemini)),
    )
}

/// A Gemini `FunctionDeclaration` with `parametersJsonSchema`:
/// `{"name","description","parametersJsonSchema"}`, the JSON Schema subset Gemini's API
/// reference lists (`$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`,
/// `description`, `enum`, `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`,
/// `maximum`, `anyOf`, `oneOf`, `properties`, `additionalProperties`, `required`,
/// `propertyOrdering`).
///
/// Maps and tuples are kept (`additionalProperties`, `prefixItems` with `maxItems`). A
/// recursive type's anchor becomes an entry of `$defs` (`"$ref": "#/$defs/Tree"`); Gemini
/// unrolls such a reference to a limited depth itself, and its reference says only within
/// properties that are not required: a type whose self-reference is required
/// (`sections: Vec<Outline>` without `#[serde(default)]`) may be refused there, and is better
/// given `#[serde(default)]`. `const` becomes a one-value `enum`,
/// `oneOf` an `anyOf`. `minLength`/`maxLength` (a `char`) and `default` are dropped, the
/// lengths written into the `description`.
///
/// ```
/// use stitch_runtime::{tool, ToolArgs};
///
/// /// Walk a tree.
/// #[derive(serde::Deserialize, ToolArgs)]
/// struct Node {
///     /// The node's name.
///     name: String,
///     #[serde(default)]
///     children: Vec<Node>,
/// }
///
/// let def = tool::gemini_json_schema::<Node>("walk", None);
/// let schema = &def["parametersJsonSchema"];
/// assert_eq!(schema["properties"]["children"]["items"], serde_json::json!({"$ref": "#/$defs/Node"}));
/// assert_eq!(schema["$defs"]["Node"]["properties"]["name"]["type"], "string");
/// assert!(schema.get("$anchor").is_none());
/// ```
pub fn gemini_json_schema<T: ObjectArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_object_root::<T>();
    declaration(
        name,
        self::description::<T>(description),
        "parametersJsonSchema",
        gemini_json(&super::definition::without_aliases(T::input_schema())),
    )
}

fn declaration(name: &str, description: Option<String>, key: &str, schema: Value) -> Value {
    let mut tool = Map::new();
    tool.insert("name".to_owned(), json!(name));
    if let Some(d) = description {
        tool.insert("description".to_owned(), Value::String(d));
    }
    tool.insert(key.to_owned(), schema);
    Value::Object(tool)
}
