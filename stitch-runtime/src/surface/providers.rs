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

use crate::surface::definition::{description, strict_schema};
use crate::ToolArgs;

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
/// is taken as it is; [`openai_responses_strict`] is the strict one.
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
pub fn openai_responses<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_object_root::<T>();
    flat_function(
        name,
        self::description::<T>(description),
        T::input_schema().clone(),
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
pub fn openai_responses_strict<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
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
/// optional (strict tool use allows them; no `null` is added).
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
pub fn anthropic_strict<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_anthropic_strict::<T>();
    let schema = subset::<T>(Provider::AnthropicStrict);
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
/// `additionalProperties: false`; the model is given the declared properties only.
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
pub fn gemini<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_gemini::<T>();
    declaration(
        name,
        self::description::<T>(description),
        "parameters",
        subset::<T>(Provider::Gemini),
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
pub fn gemini_json_schema<T: ToolArgs>(name: &str, description: Option<&str>) -> Value {
    super::definition::assert_object_root::<T>();
    declaration(
        name,
        self::description::<T>(description),
        "parametersJsonSchema",
        gemini_json(T::input_schema()),
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

// --- The subsets without references (Gemini's `parameters`, Anthropic's strict mode) ---------

#[derive(Clone, Copy, PartialEq)]
enum Provider {
    Gemini,
    AnthropicStrict,
}

/// Keywords Gemini's `Schema` object has (Gemini API reference, "Schema"); anything else is
/// dropped.
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// String formats the Gemini API takes in `parameters` (others fail the request).
const GEMINI_FORMATS: &[&str] = &["enum", "date-time"];

/// Keywords Anthropic's strict tool use accepts (Claude docs, "Structured outputs", JSON
/// Schema limitations); anything else is dropped.
const ANTHROPIC_STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "default",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "format",
    "pattern",
];

/// String formats Anthropic's strict mode supports.
const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Why a part of a schema cannot be written in a subset: it is left out where that is
/// allowed, and reported where it is not.
struct Never(String);

/// `T`'s input schema in `provider`'s subset. A type whose required part cannot be written is
/// refused during compilation (`check::subset`), so the rewrite meets such a part only in schema
/// text (`#[stitch(schema = "…")]`), which that check takes at its word. There the arguments
/// are offered as an empty object whose description says why: narrower than the tool (it
/// refuses `{}` if anything is required), never a panic.
fn subset<T: ToolArgs>(provider: Provider) -> Value {
    match subset_of(T::input_schema(), provider) {
        Ok(schema) => schema,
        Err(Never(why)) => {
            let mut out = Map::new();
            out.insert("type".to_owned(), json!("object"));
            out.insert("properties".to_owned(), json!({}));
            note(&mut out, &format!("Cannot be described here: {why}."));
            match provider {
                Provider::Gemini => {
                    out.insert("maxProperties".to_owned(), json!(0));
                }
                Provider::AnthropicStrict => {
                    out.insert("additionalProperties".to_owned(), json!(false));
                }
            }
            Value::Object(out)
        }
    }
}

/// `root` (any schema: anchors or `$defs`, whatever keywords) in `provider`'s subset.
fn subset_of(root: &Value, provider: Provider) -> Result<Value, Never> {
    let mut rewrite = Rewrite {
        root,
        provider,
        open: vec![root],
    };
    rewrite.schema(root, "")
}

struct Rewrite<'a> {
    root: &'a Value,
    provider: Provider,
    /// The recursive types being expanded on the current path, by address in `root`.
    open: Vec<&'a Value>,
}

impl<'a> Rewrite<'a> {
    fn format_name(&self) -> &'static str {
        match self.provider {
            Provider::Gemini => "Gemini's `parameters`",
            Provider::AnthropicStrict => "Anthropic's strict mode",
        }
    }

    /// The subschema at `path` (the dotted property path, for messages), rewritten.
    fn schema(&mut self, node: &'a Value, path: &str) -> Result<Value, Never> {
        let object = match node {
            Value::Object(object) => object,
            Value::Bool(true) => return Ok(self.any()),
            _ => return Err(Never(format!("nothing is accepted at {}", at(path)))),
        };
        if let Some(Value::String(target)) = object.get("$ref") {
            return self.reference(object, target, path);
        }
        // An anchored schema met inline opens its type (unless it was just reached by reference).
        let opens = object.contains_key("$anchor")
            && !self.open.last().is_some_and(|o| std::ptr::eq(*o, node));
        if opens {
            self.open.push(node);
        }
        let out = self.object(object, path);
        if opens {
            self.open.pop();
        }
        out
    }

    /// A `$ref`: the schema it points to, expanded in place, until the type is open
    /// `UNROLL_DEPTH + 1` times on this path.
    fn reference(
        &mut self,
        object: &'a Map<String, Value>,
        target: &str,
        path: &str,
    ) -> Result<Value, Never> {
        let Some(resolved) = resolve(self.root, target) else {
            return Err(Never(format!(
                "{} refers to `{target}`, which the schema does not hold",
                at(path)
            )));
        };
        let open = self.open.iter().filter(|o| same_type(o, resolved)).count();
        if open > UNROLL_DEPTH {
            return Err(Never(format!(
                "{} refers to its own type more than {UNROLL_DEPTH} levels deep, and {} has no references",
                at(path),
                self.format_name()
            )));
        }
        self.open.push(resolved);
        let expanded = self.schema(resolved, path);
        self.open.pop();
        let mut expanded = expanded?;
        // The reference's own description (a field's doc comment) is the one to show.
        if let (Some(d), Value::Object(e)) = (object.get("description"), &mut expanded) {
            e.insert("description".to_owned(), d.clone());
        }
        Ok(expanded)
    }

    fn object(&mut self, object: &'a Map<String, Value>, path: &str) -> Result<Value, Never> {
        let mut out = Map::new();
        let required: Vec<&str> = match object.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        for (key, value) in object {
            match key.as_str() {
                "properties" => {
                    let Value::Object(properties) = value else {
                        continue;
                    };
                    let mut kept = Map::new();
                    for (name, property) in properties {
                        match self.schema(property, &join(path, name)) {
                            Ok(p) => {
                                kept.insert(name.clone(), p);
                            }
                            // An optional property the format cannot hold is left out.
                            Err(never) if !required.contains(&name.as_str()) => drop(never),
                            // A required one makes the object unwritable (a compile error for
                            // a derived type: `check::subset`).
                            Err(never) => return Err(never),
                        }
                    }
                    out.insert(key.clone(), Value::Object(kept));
                }
                "items" if value.is_object() => match self.schema(value, path) {
                    Ok(items) => {
                        out.insert(key.clone(), items);
                    }
                    // Items that cannot be written: Gemini can still offer the empty list.
                    Err(never) => {
                        let min = object.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                        if self.provider != Provider::Gemini || min > 0 {
                            return Err(never);
                        }
                        out.insert(key.clone(), json!({"type": "object"}));
                        out.insert("maxItems".to_owned(), json!(0));
                        note(&mut out, "Too deep to describe here: send an empty list.");
                    }
                },
                "prefixItems" => {
                    let Value::Array(members) = value else {
                        continue;
                    };
                    let members = members
                        .iter()
                        .map(|m| self.schema(m, path))
                        .collect::<Result<Vec<_>, _>>()?;
                    out.insert(key.clone(), Value::Array(members));
                }
                "anyOf" | "oneOf" => {
                    let Value::Array(members) = value else {
                        continue;
                    };
                    let mut kept = Vec::new();
                    let mut first_never = None;
                    for member in members {
                        // A union member the format cannot hold is left out.
                        match self.schema(member, path) {
                            Ok(m) => kept.push(m),
                            Err(never) => {
                                first_never.get_or_insert(never);
                            }
                        }
                    }
                    if kept.is_empty() {
                        if let Some(never) = first_never {
                            return Err(never);
                        }
                    }
                    out.insert("anyOf".to_owned(), Value::Array(kept));
                }
                // Any value (`serde_json::Map`): nothing to rewrite.
                "additionalProperties" if value == &json!({}) => {
                    out.insert(key.clone(), json!({}));
                }
                "additionalProperties" if value.is_object() => {
                    let values = match self.schema(value, path) {
                        Ok(v) => v,
                        // A map whose values cannot be written can only be empty.
                        Err(never) => {
                            drop(never);
                            json!({"not": {}})
                        }
                    };
                    out.insert(key.clone(), values);
                }
                // References are expanded where they are used.
                "$anchor" | "$defs" | "definitions" | "$schema" | "$id" => {}
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        match self.provider {
            Provider::Gemini => gemini_node(out, path),
            Provider::AnthropicStrict => anthropic_node(out, path),
        }
    }

    /// A schema for any value.
    fn any(&self) -> Value {
        match self.provider {
            Provider::Gemini => gemini_any(),
            Provider::AnthropicStrict => json!({}),
        }
    }
}

/// Whether two subschemas are one type's: the same node, or the same anchor (a recursive type
/// written inline in two places).
fn same_type(a: &Value, b: &Value) -> bool {
    let anchor = |v: &Value| v.get("$anchor").and_then(Value::as_str).map(str::to_owned);
    std::ptr::eq(a, b) || anchor(a).is_some_and(|x| Some(x) == anchor(b))
}

/// The node `target` points to: `#` (the root), `#Name` (an `$anchor`), `#/$defs/Name`.
fn resolve<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    if target == "#" {
        return Some(root);
    }
    for defs in ["#/$defs/", "#/definitions/"] {
        if let Some(name) = target.strip_prefix(defs) {
            return root.get(&defs[2..defs.len() - 1])?.get(name);
        }
    }
    find_anchor(root, target.strip_prefix('#')?)
}

fn find_anchor<'a>(node: &'a Value, anchor: &str) -> Option<&'a Value> {
    match node {
        Value::Object(object) => {
            if object.get("$anchor").and_then(Value::as_str) == Some(anchor) {
                return Some(node);
            }
            object.values().find_map(|v| find_anchor(v, anchor))
        }
        Value::Array(items) => items.iter().find_map(|v| find_anchor(v, anchor)),
        _ => None,
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn at(path: &str) -> String {
    if path.is_empty() {
        "the arguments".to_owned()
    } else {
        format!("`{path}`")
    }
}

/// A tuple (`prefixItems`, `items: false`) whose members are all one schema, as that schema
/// and its length; a tuple of different types is `Err`.
fn tuple(out: &mut Map<String, Value>, path: &str, format: &str) -> Result<Option<usize>, Never> {
    let Some(Value::Array(members)) = out.remove("prefixItems") else {
        return Ok(None);
    };
    let n = members.len();
    let mut members = members.into_iter();
    let first = members.next();
    if members.any(|m| Some(&m) != first.as_ref()) {
        return Err(Never(format!(
            "{} is a tuple of different types, which {format} cannot describe",
            at(path)
        )));
    }
    // `items: false` closed the tuple; the length says it now.
    out.insert("items".to_owned(), first.unwrap_or_else(|| json!({})));
    out.insert("minItems".to_owned(), json!(n));
    out.insert("maxItems".to_owned(), json!(n));
    Ok(Some(n))
}

/// Appends `note` to the description in `out`.
fn note(out: &mut Map<String, Value>, note: &str) {
    let text = match out.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} {note}"),
        _ => note.to_owned(),
    };
    out.insert("description".to_owned(), Value::String(text));
}

/// "From 0 to 255.", "At most 20 items.", "Exactly 1 character.": the bounds a format cannot
/// state, as text.
fn range(min: Option<&Value>, max: Option<&Value>, unit: Option<(&str, &str)>) -> Option<String> {
    let with_unit = |n: &Value| match unit {
        Some((one, many)) => format!("{n} {}", if n == &json!(1) { one } else { many }),
        None => n.to_string(),
    };
    Some(match (min, max) {
        (Some(a), Some(b)) if a == b => format!("Exactly {}.", with_unit(a)),
        (Some(a), Some(b)) => format!("From {a} to {}.", with_unit(b)),
        (Some(a), None) => format!("At least {}.", with_unit(a)),
        (None, Some(b)) => format!("At most {}.", with_unit(b)),
        (None, None) => return None,
    })
}

/// Drops `format` unless it is one of `allowed`.
fn keep_format(out: &mut Map<String, Value>, allowed: &[&str]) {
    let known = out
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| allowed.contains(&f));
    if !known {
        out.remove("format");
    }
}

fn is_object_schema(out: &Map<String, Value>) -> bool {
    out.get("type").and_then(Value::as_str) == Some("object") || out.contains_key("properties")
}

/// A map's value schema: `Some(true)` if any value goes (`{}`), `None` if not a map.
fn map_values(out: &Map<String, Value>) -> Option<bool> {
    match out.get("additionalProperties") {
        Some(Value::Object(values)) => Some(values.is_empty()),
        Some(Value::Bool(true)) => Some(true),
        _ => None,
    }
}

fn anthropic_node(mut out: Map<String, Value>, path: &str) -> Result<Value, Never> {
    if let Some(n) = tuple(&mut out, path, "Anthropic's strict mode")? {
        out.remove("maxItems");
        out.insert("minItems".to_owned(), json!(n.min(1)));
        let length = range(Some(&json!(n)), Some(&json!(n)), Some(("item", "items")));
        if let Some(text) = length {
            note(&mut out, &text);
        }
    }
    // Strict mode requires `additionalProperties: false` on every object; a map can then only
    // be empty, which the tool accepts.
    // (Not on a union of objects without properties of its own: there, `false` would refuse
    // every key the members declare; each member is closed instead.)
    let union = out.contains_key("anyOf") && !out.contains_key("properties");
    if is_object_schema(&out) && !union {
        if map_values(&out).is_some() && !out.contains_key("properties") {
            note(
                &mut out,
                "Strict mode cannot describe a map: send an empty object.",
            );
        }
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    // Bounds strict mode refuses, kept as text.
    let numbers = range(out.get("minimum"), out.get("maximum"), None);
    let lengths = range(
        out.get("minLength"),
        out.get("maxLength"),
        Some(("character", "characters")),
    );
    let min_items = out.get("minItems").and_then(Value::as_u64).unwrap_or(0);
    let items = if min_items > 1 || out.contains_key("maxItems") {
        range(
            out.get("minItems").filter(|_| min_items > 1),
            out.get("maxItems"),
            Some(("item", "items")),
        )
    } else {
        None
    };
    for text in [numbers, lengths, items].into_iter().flatten() {
        note(&mut out, &text);
    }
    if min_items > 1 {
        out.insert("minItems".to_owned(), json!(1));
    }
    keep_format(&mut out, ANTHROPIC_FORMATS);
    out.retain(|k, _| ANTHROPIC_STRICT_KEYWORDS.contains(&k.as_str()));
    Ok(Value::Object(out))
}

/// Any value, in what Gemini's `Schema` takes: a string or null, a number, a boolean, an
/// object, a list of strings.
fn gemini_any() -> Value {
    json!({"anyOf": [
        {"type": "string", "nullable": true},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "object"},
        {"type": "array", "items": {"type": "string"}},
    ]})
}

fn gemini_node(mut out: Map<String, Value>, path: &str) -> Result<Value, Never> {
    tuple(&mut out, path, "Gemini's `parameters`")?;
    // `type` is one value: a union with `null` is `nullable`.
    if let Some(Value::Array(types)) = out.get("type") {
        let nullable = types.iter().any(|t| t == "null");
        let others: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        match others.as_slice() {
            [one] => {
                out.insert("type".to_owned(), one.clone());
            }
            _ => {
                out.remove("type");
                let members = others.iter().map(|t| json!({ "type": t })).collect();
                out.insert("anyOf".to_owned(), Value::Array(members));
            }
        }
        if nullable {
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
    }
    if let Some(Value::Array(members)) = out.get_mut("anyOf") {
        let before = members.len();
        members.retain(|m| m != &json!({"type": "null"}));
        if members.len() < before {
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
    }
    // `const` is a one-value `enum` (Gemini's enums are strings).
    if let Some(value) = out.remove("const") {
        if value.is_string() {
            out.insert("type".to_owned(), json!("string"));
            out.insert("enum".to_owned(), json!([value]));
        }
    }
    if out
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|e| !e.iter().all(Value::is_string))
    {
        out.remove("enum");
    }
    // A map cannot be described (no `additionalProperties`): only an empty one is offered,
    // unless any value goes.
    if map_values(&out) == Some(false) && !out.contains_key("properties") {
        out.insert("maxProperties".to_owned(), json!(0));
        note(
            &mut out,
            "Gemini cannot describe this map's values: send an empty object.",
        );
    }
    out.remove("additionalProperties");
    // `{}` (any value) has no type, which Gemini requires.
    let typed = out.contains_key("type") || out.contains_key("anyOf") || out.contains_key("enum");
    if let (false, Value::Object(any)) = (typed, gemini_any()) {
        out.extend(any);
    }
    keep_format(&mut out, GEMINI_FORMATS);
    out.retain(|k, _| GEMINI_KEYWORDS.contains(&k.as_str()));
    Ok(Value::Object(out))
}

// --- Gemini's `parametersJsonSchema` -------------------------------------------------------

/// Keywords Gemini's JSON Schema fields take (Gemini API reference, `responseJsonSchema`, which
/// `parametersJsonSchema` shares); anything else is dropped.
const GEMINI_JSON_KEYWORDS: &[&str] = &[
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

/// The input schema for `parametersJsonSchema`: anchors as `$defs`, `const` as `enum`, `oneOf`
/// as `anyOf`, a tuple closed by `maxItems`, other keywords dropped.
fn gemini_json(schema: &Value) -> Value {
    let mut anchored = Vec::new();
    collect_anchors(schema, &mut anchored);
    let mut out = gemini_json_node(schema);
    if !anchored.is_empty() {
        let mut defs = match out.get_mut("$defs").map(Value::take) {
            Some(Value::Object(defs)) => defs,
            _ => Map::new(),
        };
        for (name, node) in anchored {
            defs.insert(name, gemini_json_node(node));
        }
        if let Value::Object(root) = &mut out {
            root.insert("$defs".to_owned(), Value::Object(defs));
        }
    }
    out
}

/// Every anchored subschema, by anchor, first appearance first.
fn collect_anchors<'a>(node: &'a Value, found: &mut Vec<(String, &'a Value)>) {
    match node {
        Value::Object(object) => {
            if let Some(Value::String(anchor)) = object.get("$anchor") {
                if !found.iter().any(|(a, _)| a == anchor) {
                    found.push((anchor.clone(), node));
                }
            }
            object.values().for_each(|v| collect_anchors(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_anchors(v, found)),
        _ => {}
    }
}

fn gemini_json_node(node: &Value) -> Value {
    let Value::Object(object) = node else {
        return node.clone();
    };
    let mut out = Map::new();
    if let Some(Value::String(target)) = object.get("$ref") {
        // An anchor is an entry of `$defs` now; a `$ref` holds nothing else.
        let target = match target.strip_prefix('#') {
            Some(name) if !name.is_empty() && !name.starts_with('/') => format!("#/$defs/{name}"),
            _ => target.clone(),
        };
        out.insert("$ref".to_owned(), Value::String(target));
        return Value::Object(out);
    }
    for (key, value) in object {
        let value = match key.as_str() {
            "properties" | "$defs" => match value {
                Value::Object(members) => Value::Object(
                    members
                        .iter()
                        .map(|(k, v)| (k.clone(), gemini_json_node(v)))
                        .collect(),
                ),
                other => other.clone(),
            },
            "anyOf" | "oneOf" | "prefixItems" => match value {
                Value::Array(members) => {
                    Value::Array(members.iter().map(gemini_json_node).collect())
                }
                other => other.clone(),
            },
            "items" | "additionalProperties" => gemini_json_node(value),
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    out.remove("$anchor");
    if let Some(one_of) = out.remove("oneOf") {
        out.insert("anyOf".to_owned(), one_of);
    }
    if let Some(value) = out.remove("const") {
        out.insert("enum".to_owned(), json!([value]));
    }
    // `items: false` closed a tuple; `maxItems` says it in the subset.
    if out.get("items") == Some(&Value::Bool(false)) {
        out.remove("items");
        if let Some(Value::Array(prefix)) = out.get("prefixItems") {
            let n = prefix.len();
            out.insert("maxItems".to_owned(), json!(n));
        }
    }
    let lengths = range(
        out.get("minLength"),
        out.get("maxLength"),
        Some(("character", "characters")),
    );
    if let Some(text) = lengths {
        note(&mut out, &text);
    }
    out.retain(|k, _| GEMINI_JSON_KEYWORDS.contains(&k.as_str()));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    //! The rewrites on schemas the derive does not write today: an enum root that says
    //! `"type": "object"`, references into `$defs`, type lists and unions with `null`, schema
    //! text with keywords outside every subset.

    use super::*;

    fn gemini(schema: Value) -> Value {
        subset_of(&schema, Provider::Gemini).unwrap_or_else(|Never(why)| panic!("{why}"))
    }

    fn anthropic(schema: Value) -> Value {
        subset_of(&schema, Provider::AnthropicStrict).unwrap_or_else(|Never(why)| panic!("{why}"))
    }

    fn tagged_root() -> Value {
        json!({
            "type": "object",
            "description": "Do something.",
            "oneOf": [
                {"type": "object", "properties": {"op": {"type": "string", "const": "stop"}}, "required": ["op"]},
                {"type": "object", "properties": {"op": {"type": "string", "const": "go"}, "to": {"type": "string"}}, "required": ["op", "to"]},
            ],
        })
    }

    #[test]
    fn an_enum_root_that_says_object() {
        let g = gemini(tagged_root());
        assert_eq!(g["type"], "object");
        assert_eq!(
            g["anyOf"][1]["properties"]["op"],
            json!({"type": "string", "enum": ["go"]})
        );
        assert!(g.get("oneOf").is_none());
        let a = anthropic(tagged_root());
        // The union is not closed (that would refuse `op`); its members are.
        assert!(a.get("additionalProperties").is_none());
        assert_eq!(a["anyOf"][0]["additionalProperties"], false);
        assert_eq!(a["anyOf"][1]["required"], json!(["op", "to"]));
    }

    #[test]
    fn references_into_defs_are_unrolled() {
        let schema = json!({
            "type": "object",
            "properties": {"head": {"$ref": "#/$defs/Node"}},
            "required": ["head"],
            "$defs": {"Node": {
                "type": "object",
                "properties": {"v": {"type": "integer"}, "next": {"$ref": "#/$defs/Node"}},
                "required": ["v"],
            }},
        });
        for out in [gemini(schema.clone()), anthropic(schema)] {
            let text = out.to_string();
            assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
            // The first Node and UNROLL_DEPTH more, then `next` is left out.
            let mut node = &out["properties"]["head"];
            for _ in 0..UNROLL_DEPTH {
                node = &node["properties"]["next"];
                assert_eq!(node["required"], json!(["v"]));
            }
            assert!(node["properties"].get("next").is_none(), "{text}");
        }
    }

    #[test]
    fn null_becomes_nullable_for_gemini() {
        let out = gemini(json!({
            "type": "object",
            "properties": {
                "a": {"type": ["integer", "null"]},
                "b": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "B."},
                "c": {"type": ["string", "integer"]},
            },
        }));
        let p = &out["properties"];
        assert_eq!(p["a"], json!({"type": "integer", "nullable": true}));
        assert_eq!(
            p["b"],
            json!({"anyOf": [{"type": "string"}], "nullable": true, "description": "B."})
        );
        assert_eq!(
            p["c"],
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
        );
    }

    #[test]
    fn keywords_outside_a_subset_are_dropped() {
        let raw = json!({
            "type": "object",
            "properties": {
                "when": {"type": "string", "format": "date-time", "x-extra": 1},
                "id": {"type": "string", "format": "uuid", "pattern": "^[a-f0-9-]+$"},
                "n": {"type": "number", "multipleOf": 0.5, "exclusiveMinimum": 0},
            },
        });
        let g = gemini(raw.clone());
        assert_eq!(
            g["properties"]["when"],
            json!({"type": "string", "format": "date-time"})
        );
        assert_eq!(
            g["properties"]["id"],
            json!({"type": "string", "pattern": "^[a-f0-9-]+$"})
        );
        assert_eq!(g["properties"]["n"], json!({"type": "number"}));
        let a = anthropic(raw.clone());
        assert_eq!(a["properties"]["id"]["format"], "uuid");
        assert!(a["properties"]["when"].get("x-extra").is_none());
        let j = gemini_json(&raw);
        assert_eq!(
            j["properties"]["id"],
            json!({"type": "string", "format": "uuid"})
        );
    }

    #[test]
    fn gemini_json_keeps_defs_and_moves_anchors_into_them() {
        let schema = json!({
            "type": "object",
            "properties": {"head": {"$ref": "#/$defs/Node", "description": "dropped beside a $ref"}},
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        });
        let out = gemini_json(&schema);
        assert_eq!(out["properties"]["head"], json!({"$ref": "#/$defs/Node"}));
        assert_eq!(
            out["$defs"]["Node"]["properties"]["next"],
            json!({"$ref": "#/$defs/Node"})
        );
        let anchored = json!({
            "$anchor": "T",
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#T"}}},
        });
        let out = gemini_json(&anchored);
        assert!(out.get("$anchor").is_none());
        assert_eq!(
            out["properties"]["kids"]["items"],
            json!({"$ref": "#/$defs/T"})
        );
        assert_eq!(
            out["$defs"]["T"]["properties"]["kids"]["items"],
            json!({"$ref": "#/$defs/T"})
        );
    }
}
