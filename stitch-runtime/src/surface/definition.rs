//! Tool definitions in the three formats servers emit, from a type's input schema.
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
//! let mcp = tool::mcp::<ViewFile>("view_file", None);
//! assert_eq!(mcp["description"], "Show one or more images to the model.");
//! assert_eq!(mcp["inputSchema"]["required"], serde_json::json!(["paths"]));
//!
//! let strict = tool::openai_strict::<ViewFile>("view_file", None);
//! let parameters = &strict["function"]["parameters"];
//! assert_eq!(parameters["required"], serde_json::json!(["paths", "zoom"]));
//! assert_eq!(parameters["properties"]["zoom"]["anyOf"][1], serde_json::json!({"type": "null"}));
//! ```

use serde_json::{json, Map, Value};

use crate::ToolArgs;

pub use super::providers::{
    anthropic_strict, gemini, gemini_json_schema, openai_responses, openai_responses_strict,
    UNROLL_DEPTH,
};

/// The description to use: the one given, else the type's doc comment, else none.
pub(crate) fn description<T: ToolArgs>(given: Option<&str>) -> Option<String> {
    given.map(str::to_owned).or_else(|| {
        T::input_schema()
            .get("description")?
            .as_str()
            .map(str::to_owned)
    })
}

fn with_description(mut object: Map<String, Value>, description: Option<String>) -> Value {
    if let Some(d) = description {
        object.insert("description".to_owned(), Value::String(d));
    }
    Value::Object(object)
}

/// An MCP `Tool` (`tools/list`): `{"name", "description", "inputSchema"}`.
pub fn mcp<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
    let mut tool = Map::new();
    tool.insert("name".to_owned(), json!(name));
    let mut tool = match with_description(tool, self::description::<T>(description)) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    tool.insert("inputSchema".to_owned(), T::input_schema().clone());
    Value::Object(tool)
}

/// An Anthropic tool: `{"name", "description", "input_schema"}`.
pub fn anthropic<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
    let mut tool = Map::new();
    tool.insert("name".to_owned(), json!(name));
    if let Some(d) = self::description::<T>(description) {
        tool.insert("description".to_owned(), Value::String(d));
    }
    tool.insert("input_schema".to_owned(), T::input_schema().clone());
    Value::Object(tool)
}

/// An OpenAI function tool: `{"type":"function","function":{"name","description","parameters"}}`.
pub fn openai<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
    function(
        name,
        self::description::<T>(description),
        T::input_schema().clone(),
        false,
    )
}

/// An OpenAI function tool in strict mode (`"strict": true`), its parameters rewritten for it:
/// every property required (an optional one nullable), `"additionalProperties": false` on every
/// object, `oneOf` as `anyOf`, and keywords strict mode refuses dropped.
///
/// Strict mode cannot say "a map with any keys": a map's value schema is dropped and it
/// accepts only `{}`. Give such a tool the non-strict definition ([`openai`]).
pub fn openai_strict<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
    function(
        name,
        self::description::<T>(description),
        strict_schema(T::input_schema()),
        true,
    )
}

fn function(name: &str, description: Option<String>, parameters: Value, strict: bool) -> Value {
    let mut function = Map::new();
    function.insert("name".to_owned(), json!(name));
    if let Some(d) = description {
        function.insert("description".to_owned(), Value::String(d));
    }
    function.insert("parameters".to_owned(), parameters);
    if strict {
        function.insert("strict".to_owned(), Value::Bool(true));
    }
    json!({"type": "function", "function": Value::Object(function)})
}

/// Keywords OpenAI's strict mode does not accept; they are dropped.
const NOT_IN_STRICT: &[&str] = &[
    "default",
    "uniqueItems",
    "minLength",
    "maxLength",
    "$anchor",
];

/// Rewrites a schema for OpenAI's strict mode: every property is required, an optional one
/// becomes `anyOf [T, {"type":"null"}]`, every object gets `"additionalProperties": false`,
/// `oneOf` becomes `anyOf`, a self-reference to the root's `$anchor` becomes `#`, and
/// keywords strict mode refuses are dropped.
///
/// Strict mode cannot say "a map with any keys": a map's value schema is dropped and it
/// accepts only `{}`. Give such a tool the non-strict definition.
pub(crate) fn strict_schema(schema: &Value) -> Value {
    let root_anchor = schema
        .get("$anchor")
        .and_then(Value::as_str)
        .map(|a| format!("#{a}"));
    let mut out = schema.clone();
    strict_in(&mut out, root_anchor.as_deref());
    out
}

fn strict_in(schema: &mut Value, root_anchor: Option<&str>) {
    let Value::Object(object) = schema else {
        return;
    };
    for key in NOT_IN_STRICT {
        object.remove(*key);
    }
    if let Some(one_of) = object.remove("oneOf") {
        object.insert("anyOf".to_owned(), one_of);
    }
    if let (Some(Value::String(target)), Some(root)) = (object.get_mut("$ref"), root_anchor) {
        if target == root {
            *target = "#".to_owned();
        }
    }
    let is_object = object.get("type").and_then(Value::as_str) == Some("object");
    if is_object {
        let required: Vec<String> = match object.get("required") {
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        };
        let properties = object
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        let mut all = Vec::new();
        if let Value::Object(properties) = properties {
            for (name, property) in properties.iter_mut() {
                all.push(Value::String(name.clone()));
                strict_in(property, root_anchor);
                if !required.contains(name) {
                    let description = match property {
                        Value::Object(p) => p.remove("description"),
                        _ => None,
                    };
                    let mut nullable = Map::new();
                    if let Some(d) = description {
                        nullable.insert("description".to_owned(), d);
                    }
                    let inner = std::mem::take(property);
                    nullable.insert("anyOf".to_owned(), json!([inner, {"type": "null"}]));
                    *property = Value::Object(nullable);
                }
            }
        }
        object.insert("required".to_owned(), Value::Array(all));
        object.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    for key in ["items", "anyOf", "prefixItems", "not"] {
        match object.get_mut(key) {
            Some(Value::Array(members)) => {
                members.iter_mut().for_each(|m| strict_in(m, root_anchor))
            }
            Some(member @ Value::Object(_)) => strict_in(member, root_anchor),
            _ => {}
        }
    }
}
