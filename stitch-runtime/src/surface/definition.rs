//! Tool definitions from a type's input schema, in nine formats:
//!
//! | function | what it writes | the schema inside |
//! |---|---|---|
//! | [`mcp`] | an MCP `tools/list` entry: `name`, `description`, `inputSchema` | the input schema, a root union as one object |
//! | [`openai`] | a Chat Completions `{"type":"function","function":{…}}` | the same |
//! | [`openai_strict`] | the same with `"strict": true` | every property required, optional ones nullable, objects closed, recursion in `$defs` |
//! | [`openai_responses`] | a Responses API function tool (`name` at the top) | the same |
//! | [`openai_responses_strict`] | the same, strict | as [`openai_strict`] |
//! | [`anthropic`] | a Messages API tool: `name`, `description`, `input_schema` | the same |
//! | [`anthropic_strict`] | the same with `"strict": true` | Anthropic's strict subset: bounds it lacks move into descriptions, recursion unrolled, a root union as one closed object |
//! | [`gemini`] | a `FunctionDeclaration` with `parameters` | Gemini's OpenAPI 3.0 subset, recursion unrolled, a root union as one object |
//! | [`gemini_json_schema`] | a `FunctionDeclaration` with `parametersJsonSchema` | Gemini's JSON Schema subset |
//!
//! Each takes the tool's name and an optional description (else [`ToolArgs::DESCRIPTION`]).
//! A type a format cannot express is a compile error at the call, naming why.
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

use core::marker::PhantomData;

use serde_json::{json, Map, Value};

use crate::schema::{check, Describe};
use crate::surface::bounds::{ObjectArgs, StrictArgs};
use crate::surface::root::root_object;
use crate::ToolArgs;

use super::providers::declaration;
pub use super::providers::{
    anthropic_strict, gemini, gemini_json_schema, openai_responses, openai_responses_strict,
    UNROLL_DEPTH,
};

pub(crate) fn description<T: ToolArgs>(given: Option<&str>) -> Option<String> {
    given.or(T::DESCRIPTION).map(str::to_owned)
}

/// Constants evaluated where a `tool::…::<T>` call is compiled: they catch what the marks'
/// bounds cannot see (inside a self-referring field) and the Gemini and Anthropic subsets.
struct Checks<T>(PhantomData<T>);

impl<T: ToolArgs> Checks<T> {
    const OBJECT_ROOT: () = if let Some(message) = check::tool_root(<T as Describe>::SCHEMA) {
        panic!("{}", message.as_str())
    };
    const STRICT: () = if let Some(message) = check::strict(<T as Describe>::SCHEMA) {
        panic!("{}", message.as_str())
    };
    const GEMINI: () =
        if let Some(message) = check::subset(<T as Describe>::SCHEMA, check::Subset::Gemini) {
            panic!("{}", message.as_str())
        };
    const ANTHROPIC_STRICT: () = if let Some(message) =
        check::subset(<T as Describe>::SCHEMA, check::Subset::AnthropicStrict)
    {
        panic!("{}", message.as_str())
    };
}

// Each fails the build where compiled for a `T` its format cannot take.
#[inline(always)]
pub(crate) fn assert_object_root<T: ToolArgs>() {
    let () = Checks::<T>::OBJECT_ROOT;
}

#[inline(always)]
pub(crate) fn assert_strict<T: ToolArgs>() {
    let () = Checks::<T>::STRICT;
}

#[inline(always)]
pub(crate) fn assert_gemini<T: ToolArgs>() {
    let () = Checks::<T>::GEMINI;
}

#[inline(always)]
pub(crate) fn assert_anthropic_strict<T: ToolArgs>() {
    let () = Checks::<T>::ANTHROPIC_STRICT;
}

/// An MCP `Tool` (`tools/list`): `{"name", "description", "inputSchema"}`.
///
/// A union at the root (a tagged or flattened enum) is written as one object with every
/// variant's properties, since clients pass `inputSchema` on to APIs that refuse `anyOf` at the
/// top; it is wider than the union (`docs/rules.md#flattened-unions`).
///
/// Every `tool` function takes only arguments that are an object ([`ObjectArgs`]):
///
/// ```compile_fail
/// use stitch_runtime::ToolArgs;
///
/// /// A unit-only enum is a string, not an object.
/// #[derive(serde::Deserialize, ToolArgs)]
/// enum Mode {
///     Fast,
///     Slow,
/// }
///
/// let _ = stitch_runtime::tool::mcp::<Mode>("mode", None);
/// ```
pub fn mcp<T: ObjectArgs>(name: &str, description: Option<&str>) -> Value {
    assert_object_root::<T>();
    declaration(
        name,
        self::description::<T>(description),
        "inputSchema",
        root_object(T::input_schema()),
    )
}

/// An Anthropic tool: `{"name", "description", "input_schema"}`, a root union written as one
/// object, as [`mcp`] writes it.
pub fn anthropic<T: ObjectArgs>(name: &str, description: Option<&str>) -> Value {
    assert_object_root::<T>();
    declaration(
        name,
        self::description::<T>(description),
        "input_schema",
        root_object(T::input_schema()),
    )
}

/// An OpenAI function tool: `{"type":"function","function":{"name","description","parameters"}}`,
/// a root union written as one object, as [`mcp`] writes it.
pub fn openai<T: ObjectArgs>(name: &str, description: Option<&str>) -> Value {
    assert_object_root::<T>();
    function(
        name,
        self::description::<T>(description),
        root_object(T::input_schema()),
        false,
    )
}

/// An OpenAI function tool in strict mode (`"strict": true`): every property required (an
/// optional one nullable; stitch reads its `null` as left out, R8), every object closed,
/// `oneOf` as `anyOf`, a recursive type under `$defs`, keywords strict mode refuses dropped.
///
/// A type whose arguments are an enum, or that holds a map or tuple anywhere, is not
/// [`StrictArgs`]: an error at the call, naming the field. Use [`openai`] for it.
///
/// ```compile_fail
/// use stitch_runtime::ToolArgs;
///
/// /// Label files.
/// #[derive(serde::Deserialize, ToolArgs)]
/// struct Label {
///     file: String,
///     #[serde(default)]
///     labels: std::collections::BTreeMap<String, String>,
/// }
///
/// // error: stitch: `tool::openai_strict` cannot express a map (…) at field `labels`; …
/// let _ = stitch_runtime::tool::openai_strict::<Label>("label", None);
/// ```
pub fn openai_strict<T: StrictArgs>(name: &str, description: Option<&str>) -> Value {
    assert_strict::<T>();
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

const NOT_IN_STRICT: &[&str] = &["default", "uniqueItems", "$anchor"];

/// From OpenAI's "Supported schemas"; string lengths are not listed, so they go to descriptions.
const STRICT_STATES: &[&str] = &[
    "pattern",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];

/// Strict mode has no `$anchor`: anchored subschemas move to `$defs/Name` (the root's anchor
/// becomes `#`). What it cannot say at all was refused by [`assert_strict`].
pub(crate) fn strict_schema(schema: &Value) -> Value {
    let mut out = without_aliases(schema);
    let root_anchor = match &mut out {
        Value::Object(root) => match root.remove("$anchor") {
            Some(Value::String(anchor)) => Some(anchor),
            _ => None,
        },
        _ => None,
    };
    let mut defs = Map::new();
    hoist(&mut out, &mut defs);
    let target = |anchor: &str| {
        if root_anchor.as_deref() == Some(anchor) {
            "#".to_owned()
        } else {
            format!("#/$defs/{anchor}")
        }
    };
    retarget(&mut out, &target);
    for def in defs.values_mut() {
        retarget(def, &target);
        strict_in(def);
    }
    strict_in(&mut out);
    if let (Value::Object(root), false) = (&mut out, defs.is_empty()) {
        root.insert("$defs".to_owned(), Value::Object(defs));
    }
    out
}

/// Leaves a `$ref` (with the description) where an anchored subschema was.
fn hoist(schema: &mut Value, defs: &mut Map<String, Value>) {
    match schema {
        Value::Array(items) => items.iter_mut().for_each(|item| hoist(item, defs)),
        Value::Object(object) => {
            if let Some(Value::Object(nested)) = object.remove("$defs") {
                for (_, mut def) in nested {
                    hoist(&mut def, defs);
                }
            }
            object.values_mut().for_each(|v| hoist(v, defs));
            let Some(Value::String(anchor)) = object.remove("$anchor") else {
                return;
            };
            let mut reference = Map::new();
            if let Some(description) = object.remove("description") {
                reference.insert("description".to_owned(), description);
            }
            reference.insert("$ref".to_owned(), Value::String(format!("#{anchor}")));
            let def = std::mem::replace(schema, Value::Object(reference));
            defs.entry(anchor).or_insert(def);
        }
        _ => {}
    }
}

/// Points every `{"$ref": "#Name"}` at `target(Name)`.
fn retarget(schema: &mut Value, target: &dyn Fn(&str) -> String) {
    match schema {
        Value::Array(items) => items.iter_mut().for_each(|item| retarget(item, target)),
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                if let Some(anchor) = reference.strip_prefix('#').filter(|a| !a.starts_with('/')) {
                    if !anchor.is_empty() {
                        *reference = target(anchor);
                    }
                }
            }
            object.values_mut().for_each(|v| retarget(v, target));
        }
        _ => {}
    }
}

fn strict_in(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for key in NOT_IN_STRICT {
        object.remove(*key);
    }
    crate::surface::unstated::unstated(object, STRICT_STATES);
    if let Some(one_of) = object.remove("oneOf") {
        object.insert("anyOf".to_owned(), one_of);
    }
    let is_object = object.get("type").and_then(Value::as_str) == Some("object");
    // A union of objects: closing the `"type": "object"` beside its members would admit no
    // value, so only the `anyOf` stays (`docs/rules.md#strict-schemas`).
    let union = object.contains_key("anyOf") && !object.contains_key("properties");
    if is_object && union {
        object.remove("type");
        object.remove("required");
        object.remove("additionalProperties");
    }
    if is_object && !union {
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
                strict_in(property);
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
            Some(Value::Array(members)) => members.iter_mut().for_each(strict_in),
            Some(member @ Value::Object(_)) => strict_in(member),
            _ => {}
        }
    }
}

/// For formats that cannot say "one of these names" (`docs/rules.md#schema-differences`): an
/// alias's `deprecated` property is dropped, and a name group in `not` becomes a plain
/// `required` of the wire name.
pub(crate) fn without_aliases(schema: &Value) -> Value {
    let mut out = schema.clone();
    drop_aliases(&mut out);
    out
}

fn drop_aliases(schema: &mut Value) {
    match schema {
        Value::Array(items) => items.iter_mut().for_each(drop_aliases),
        Value::Object(object) => {
            if let Some(groups) = object.get("not").and_then(name_groups) {
                let deprecated = |name: &str| {
                    object
                        .get("properties")
                        .and_then(|p| p.get(name))
                        .and_then(|p| p.get("deprecated"))
                        == Some(&Value::Bool(true))
                };
                let wire: Vec<Value> = groups
                    .iter()
                    .filter_map(|names| names.iter().find(|n| !deprecated(n)))
                    .map(|n| Value::String((*n).to_owned()))
                    .collect();
                object.remove("not");
                let required = object.entry("required").or_insert_with(|| json!([]));
                if let Value::Array(required) = required {
                    required.extend(wire);
                }
            }
            let required = object.get("required").cloned().unwrap_or(Value::Null);
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                properties.retain(|name, property| {
                    let listed = required
                        .as_array()
                        .is_some_and(|r| r.iter().any(|n| n == name.as_str()));
                    listed || property.get("deprecated") != Some(&Value::Bool(true))
                });
            }
            object.values_mut().for_each(drop_aliases);
        }
        _ => {}
    }
}

/// The names of each group of `{"anyOf": [{"properties": {name: false, …}}, …]}`.
fn name_groups(not: &Value) -> Option<Vec<Vec<String>>> {
    let not = not.as_object().filter(|o| o.len() == 1)?;
    not.get("anyOf")?
        .as_array()?
        .iter()
        .map(|group| {
            let group = group.as_object().filter(|o| o.len() == 1)?;
            let names = group.get("properties")?.as_object()?;
            names
                .values()
                .all(|v| *v == Value::Bool(false))
                .then(|| names.keys().cloned().collect())
        })
        .collect()
}
