//! Tool definitions in the schema subsets the OpenAI Responses API, Anthropic's strict tool use
//! and Gemini document (re-exported in [`tool`](crate::tool)). A rewrite never accepts a value
//! the tool refuses, except that a bound a format cannot state moves into the description and
//! Gemini's `parameters` cannot close an object. A part a format cannot write is left out where
//! the type allows (optional field, union member), else the call is a compile error.
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

/// How many nested copies of a recursive type [`gemini`] and [`anthropic_strict`] write below
/// its first appearance, having no references; a deeper self-reference is left out.
pub const UNROLL_DEPTH: usize = 3;

/// An OpenAI Responses API function tool:
/// `{"type":"function","name","description","parameters","strict":false}`.
///
/// The API defaults `strict` to `true`, so this says `false` and the schema is taken as
/// [`mcp`](crate::tool::mcp) writes it; [`openai_responses_strict`] is the strict one.
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

/// An OpenAI Responses API function tool in strict mode, its parameters as
/// [`openai_strict`](crate::tool::openai_strict) writes them.
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

/// An Anthropic tool for strict tool use: `{"name","description","input_schema","strict":true}`.
///
/// Every object closed (a map can only be sent empty), `oneOf` as `anyOf`, a recursive type
/// unrolled ([`UNROLL_DEPTH`]), a root union as one closed object. Bounds strict mode refuses
/// move into the `description` (`"From 0 to 255."`); stitch still enforces them. A required
/// tuple of different types or required self-reference is a compile error naming the field:
/// make it optional, or use [`anthropic`](crate::tool::anthropic).
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
/// A recursive type is unrolled ([`UNROLL_DEPTH`] levels), a map offered empty
/// (`"maxProperties": 0`), a root union written as one object; bounds stay. Never wider than
/// the tool, except that unknown keys cannot be refused (no `additionalProperties`). A required
/// tuple of different types or a required self-reference no list ends (`next: Box<Node>`) is a
/// compile error naming the field: make it optional, or use [`gemini_json_schema`].
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
/// `{"name","description","parametersJsonSchema"}`, in the JSON Schema subset Gemini's API
/// reference lists. Maps and tuples are kept; a recursive type goes to `$defs`
/// (`"$ref": "#/$defs/Tree"`), which Gemini resolves only in optional properties, so give a
/// self-reference `#[serde(default)]`. `const` becomes a one-value `enum`, `oneOf` an `anyOf`;
/// string lengths move into the `description`.
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

/// `{"name", "description", key: schema}`.
pub(crate) fn declaration(
    name: &str,
    description: Option<String>,
    key: &str,
    schema: Value,
) -> Value {
    let mut tool = Map::new();
    tool.insert("name".to_owned(), json!(name));
    if let Some(d) = description {
        tool.insert("description".to_owned(), Value::String(d));
    }
    tool.insert(key.to_owned(), schema);
    Value::Object(tool)
}
