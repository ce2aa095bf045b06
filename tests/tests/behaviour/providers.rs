//! The provider formats of issue #12: OpenAI Responses (plain and strict), Anthropic strict tool
//! use, Gemini `parameters` and `parametersJsonSchema`. Golden files of the realistic tools; a
//! checker of each provider's documented subset (the allowed keywords written down below, with
//! the page each comes from), run over many shapes; and, where a format is narrower than the
//! tool (a recursive type unrolled), values generated from the emitted schema read by
//! `from_value`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Deserialize;
use serde_json::{json, Map, Value};
use stitch_runtime::__private::{ObjectRoot, StrictPart, StrictRoot};
use stitch_runtime::{tool, OneOrMany, ToolArgs};
use stitch_tests::tools::{
    Act, Edit, EntryKind, Filters, ManyOrOne, Meta, MetasOrNames, Names3, Nesting, NumOrStr, Paths,
    Paths20, Row, Row3, RowWithoutNotes, Rows3, Search, ViewFile,
};

// --- Types beyond the shared ones: each tagging, recursion, maps, sets, tuples -------------

/// A node of a tree.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Tree {
    /// The node's name.
    name: String,
    /// Child nodes.
    #[serde(default)]
    children: Vec<Tree>,
    /// A node to look at first.
    #[serde(default)]
    first: Option<Box<Tree>>,
}

/// An expression: a recursive, externally tagged enum.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Expr {
    /// A literal.
    Lit(u8),
    /// A sum.
    Add(Box<Expr>, Box<Expr>),
    /// A negation.
    Neg {
        /// What to negate.
        of: Box<Expr>,
    },
}

/// Evaluate an expression.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Eval {
    /// The expression.
    expr: Expr,
    /// A tree to label, if any.
    #[serde(default)]
    tree: Option<Tree>,
}

/// Internally tagged.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Stop.
    Stop,
    /// Go somewhere.
    Go {
        /// Where.
        to: String,
        /// How fast.
        #[serde(default)]
        speed: Option<u16>,
    },
}

/// Adjacently tagged.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    /// Nothing.
    Unit,
    /// A pair of the same type.
    Pair(u8, u8),
    /// Named.
    Named {
        /// The names.
        names: OneOrMany<String>,
    },
}

/// A small struct.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Inner {
    /// A number.
    x: i8,
}

/// Every tagging, maps, sets, tuples of one type, any value, a char, nested options.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Kinds {
    /// Internally tagged.
    op: Op,
    /// Adjacently tagged.
    adjacent: Adjacent,
    /// Untagged.
    pick: NumOrStr,
    /// A map of structs.
    #[serde(default)]
    by_name: BTreeMap<String, Inner>,
    /// A map of strings.
    #[serde(default)]
    labels: HashMap<String, String>,
    /// Any object.
    #[serde(default)]
    extra: serde_json::Map<String, Value>,
    /// Any value.
    #[serde(default)]
    any: Value,
    /// A set.
    #[serde(default)]
    set: BTreeSet<u8>,
    /// Another set.
    #[serde(default)]
    tags: HashSet<String>,
    /// A tuple of one type.
    pair: (u8, u8),
    /// An array.
    fixed: [bool; 2],
    /// One character.
    letter: char,
    /// Structs, one or many.
    inners: OneOrMany<Inner>,
    /// An option of an option's struct.
    #[serde(default)]
    maybe: Option<Filters>,
    /// A float.
    #[serde(default)]
    ratio: Option<f64>,
    /// Schema text with keywords outside every subset.
    #[stitch(
        opaque,
        schema = r#"{"type": "string", "format": "uuid", "x-note": "raw", "multipleOf": 2}"#
    )]
    #[serde(default)]
    id: Option<Stamp>,
}

/// A foreign type, read by serde alone.
#[derive(Debug, PartialEq, Deserialize)]
pub struct Stamp(String);

/// An optional tuple of different types: left out where the format has no `prefixItems`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct OptionalTuple {
    /// The name.
    name: String,
    /// A number and a label.
    #[serde(default)]
    pair: Option<(u8, String)>,
}

/// A required tuple of different types: no `parameters` for Gemini, no strict Anthropic tool.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct RequiredTuple {
    /// A number and a label.
    pair: (u8, String),
}

/// A recursive type whose self-reference is required (through a list).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Outline {
    /// The heading.
    title: String,
    /// The sections below it.
    sections: Vec<Outline>,
}

// --- Golden files -----------------------------------------------------------------------

/// The four new definitions of `T` every type whose arguments are an object has, by format
/// name.
fn definitions<T: ToolArgs + ObjectRoot>(name: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("openai_responses", tool::openai_responses::<T>(name, None)),
        ("anthropic_strict", tool::anthropic_strict::<T>(name, None)),
        ("gemini", tool::gemini::<T>(name, None)),
        (
            "gemini_json_schema",
            tool::gemini_json_schema::<T>(name, None),
        ),
    ]
}

fn golden_path(name: &str, format: &str) -> String {
    format!("{}/golden/{name}.{format}.json", env!("CARGO_MANIFEST_DIR"))
}

/// Compares each definition with `tests/golden/<name>.<format>.json`; `STITCH_BLESS=1`
/// rewrites the files instead.
fn compare(name: &str, definitions: Vec<(&'static str, Value)>) {
    for (format, definition) in definitions {
        let path = golden_path(name, format);
        let text = serde_json::to_string_pretty(&definition).unwrap() + "\n";
        if std::env::var_os("STITCH_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}; run with STITCH_BLESS=1"));
        assert_eq!(
            text, want,
            "{name}.{format}: the definition changed; review it and run with STITCH_BLESS=1"
        );
    }
}

/// The golden files of a type OpenAI's strict mode takes: the four definitions and the strict
/// Responses one.
fn golden_strict<T: ToolArgs + ObjectRoot + StrictRoot + StrictPart>(name: &str) {
    assert_eq!(
        stitch_runtime::__private::strict_error::<T>(),
        None,
        "{name}"
    );
    let mut all = definitions::<T>(name);
    all.push((
        "openai_responses_strict",
        tool::openai_responses_strict::<T>(name, None),
    ));
    compare(name, all);
}

/// The golden files of a type OpenAI's strict mode cannot take (its strict definition is a
/// compile error, `why`): the four definitions, and no strict file left behind.
fn golden_not_strict<T: ToolArgs + ObjectRoot>(name: &str, why: &str) {
    let error = stitch_runtime::__private::strict_error::<T>().expect("a compile error");
    assert!(error.contains(why), "{name}: {error}");
    compare(name, definitions::<T>(name));
    let stale = golden_path(name, "openai_responses_strict");
    assert!(
        !std::path::Path::new(&stale).exists(),
        "{stale}: the strict definition of {name} does not compile; delete the file"
    );
}

#[test]
fn golden_definitions() {
    golden_strict::<ViewFile>("view_file");
    golden_strict::<Search>("search");
    golden_not_strict::<Edit>("edit", "a map (an object with open keys");
    golden_not_strict::<Act>("act", "a map (an object with open keys");
    golden_strict::<Tree>("tree");
}

// --- The envelopes ----------------------------------------------------------------------

#[test]
fn each_format_has_its_envelope() {
    let responses = tool::openai_responses::<ViewFile>("view_file", None);
    let keys: Vec<&str> = responses
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        keys,
        ["description", "name", "parameters", "strict", "type"]
    );
    assert_eq!(responses["type"], "function");
    assert_eq!(responses["name"], "view_file");
    // The Responses API is strict by default: the plain definition says it is not.
    assert_eq!(responses["strict"], false);
    assert_eq!(&responses["parameters"], ViewFile::input_schema());

    let strict = tool::openai_responses_strict::<Search>("search", Some("Search."));
    assert_eq!(strict["strict"], true);
    assert_eq!(strict["description"], "Search.");
    assert_eq!(
        strict["parameters"],
        tool::openai_strict::<Search>("search", None)["function"]["parameters"]
    );

    let claude = tool::anthropic_strict::<Search>("search", None);
    let keys: Vec<&str> = claude
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys, ["description", "input_schema", "name", "strict"]);
    assert_eq!(claude["strict"], true);
    assert_eq!(claude["description"], "Search the workspace for a text.");

    for (key, definition) in [
        ("parameters", tool::gemini::<Edit>("edit", None)),
        (
            "parametersJsonSchema",
            tool::gemini_json_schema::<Edit>("edit", None),
        ),
    ] {
        let keys: Vec<&str> = definition
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        // serde_json's map keeps keys sorted.
        let mut want = ["description", key, "name"];
        want.sort();
        assert_eq!(keys, want);
        assert_eq!(definition["description"], "Mark names on lines of a file.");
    }
    // A given description wins over the doc comment, on every format.
    for (_, definition) in definitions::<Edit>("edit") {
        assert!(definition.to_string().contains("Mark names"));
    }
    assert_eq!(
        tool::gemini::<Edit>("edit", Some("Edit.")),
        json!({"name": "edit", "description": "Edit.", "parameters": tool::gemini::<Edit>("edit", None)["parameters"]})
    );
}

// --- The documented subsets -------------------------------------------------------------

/// Gemini `FunctionDeclaration.parameters`: the fields of the `Schema` object, "a select subset
/// of an OpenAPI 3.0 schema object" (Gemini API reference, "Caching" page, section "Schema":
/// https://ai.google.dev/api/caching#Schema).
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

/// The values of `Schema.type` (same page, "Type": STRING, NUMBER, INTEGER, BOOLEAN, ARRAY,
/// OBJECT, NULL), written in lower case as the function-calling guide's examples write them
/// (https://ai.google.dev/gemini-api/docs/function-calling). One value: the field is an enum,
/// not a list.
const GEMINI_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// String formats the Gemini API accepts: "enum" and "date-time" (Firebase AI Logic reference,
/// `Schema.format`: "When using the Gemini Developer API … this must be either 'enum' or
/// 'date-time', otherwise requests will fail").
const GEMINI_FORMATS: &[&str] = &["enum", "date-time"];

/// Gemini `FunctionDeclaration.parametersJsonSchema`: "only the following properties are
/// supported" (Gemini API reference, `GenerationConfig.responseJsonSchema`, the JSON Schema
/// field `parametersJsonSchema` mirrors: https://ai.google.dev/api/generate-content), plus the
/// non-standard `propertyOrdering`. "If `$ref` is set on a sub-schema, no other properties,
/// except for those starting as a `$`, may be set."
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

/// Anthropic strict tool use (`"strict": true`): Claude docs, "Structured outputs", section
/// "JSON Schema limitations" (https://platform.claude.com/docs/en/build-with-claude/structured-outputs).
/// Supported: all basic types; `enum` (strings, numbers, booleans, nulls: no complex types);
/// `const`; `anyOf`, `allOf`; `$ref`/`$defs`/`definitions` (local, no recursion); `default`;
/// `required`; `additionalProperties` (must be `false`); string `format`s below; `pattern`;
/// `minItems` of 0 or 1. Not supported: recursive schemas, numerical constraints (`minimum`,
/// `maximum`, `multipleOf`…), string constraints (`minLength`, `maxLength`), array constraints
/// beyond `minItems` 0 or 1.
const ANTHROPIC_STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "default",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "format",
    "pattern",
];

/// The string formats of the same section.
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

/// OpenAI strict mode: "Structured Outputs", section "Supported schemas"
/// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): types string,
/// number, boolean, integer, object, array, enum, anyOf; string `pattern`/`format`; number
/// `multipleOf`/`maximum`/`exclusiveMaximum`/`minimum`/`exclusiveMinimum`; array
/// `minItems`/`maxItems`; `$ref`/`$defs` (recursion allowed); `const`; `description`, `title`.
/// "All fields must be required", "`additionalProperties: false` must always be set in
/// objects", "the root level object must be an object, and not use `anyOf`".
const OPENAI_STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];

/// Each subschema of `schema` (itself included) with its path, for the checkers.
fn subschemas<'a>(
    schema: &'a Value,
    path: String,
    out: &mut Vec<(String, &'a Map<String, Value>)>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    out.push((path.clone(), object));
    for (key, value) in object {
        match (key.as_str(), value) {
            ("properties" | "$defs" | "definitions", Value::Object(members)) => {
                for (name, member) in members {
                    subschemas(member, format!("{path}/{key}/{name}"), out);
                }
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(members)) => {
                for (i, member) in members.iter().enumerate() {
                    subschemas(member, format!("{path}/{key}/{i}"), out);
                }
            }
            ("items" | "additionalProperties" | "not", member @ Value::Object(_)) => {
                subschemas(member, format!("{path}/{key}"), out);
            }
            _ => {}
        }
    }
}

fn all_subschemas(schema: &Value) -> Vec<(String, &Map<String, Value>)> {
    let mut out = Vec::new();
    subschemas(schema, String::new(), &mut out);
    out
}

fn only_keywords(schema: &Value, allowed: &[&str], format: &str) {
    for (path, object) in all_subschemas(schema) {
        for key in object.keys() {
            assert!(
                allowed.contains(&key.as_str()),
                "{format}: `{key}` at {path} is not in the documented subset: {schema}"
            );
        }
    }
}

fn is_object_type(object: &Map<String, Value>) -> bool {
    object.get("type") == Some(&json!("object"))
}

/// Gemini's `parameters`: documented keywords, one `type` string, no reference, string enums,
/// string formats Gemini takes, arrays with `items`, `required` among the properties.
fn check_gemini(schema: &Value) {
    only_keywords(schema, GEMINI_KEYWORDS, "gemini");
    let text = schema.to_string();
    for banned in [
        "$ref",
        "$anchor",
        "$defs",
        "$schema",
        "const",
        "oneOf",
        "additionalProperties",
        "prefixItems",
    ] {
        assert!(
            !text.contains(&format!("\"{banned}\"")),
            "{banned} in {text}"
        );
    }
    for (path, object) in all_subschemas(schema) {
        if let Some(t) = object.get("type") {
            let t = t
                .as_str()
                .unwrap_or_else(|| panic!("type at {path} is not one string: {t}"));
            assert!(GEMINI_TYPES.contains(&t), "type {t} at {path}");
        } else {
            assert!(
                object.contains_key("anyOf"),
                "no type at {path} (Gemini requires one): {schema}"
            );
        }
        if let Some(values) = object.get("enum") {
            assert!(
                values.as_array().unwrap().iter().all(Value::is_string),
                "{path}"
            );
            assert_eq!(object["type"], "string", "{path}: enum values are strings");
        }
        if let Some(f) = object.get("format") {
            assert!(
                GEMINI_FORMATS.contains(&f.as_str().unwrap()),
                "format {f} at {path}"
            );
        }
        if object.get("type") == Some(&json!("array")) {
            assert!(object["items"].is_object(), "array without items at {path}");
        }
        if let Some(required) = object.get("required") {
            for name in required.as_array().unwrap() {
                assert!(
                    object["properties"].get(name.as_str().unwrap()).is_some(),
                    "{path}: required {name} is not a property"
                );
            }
        }
        if let Some(n) = object.get("nullable") {
            assert!(n.is_boolean(), "{path}");
        }
    }
}

/// Anthropic's strict mode: documented keywords, `additionalProperties: false` on every object,
/// no reference (no recursion), `minItems` 0 or 1, primitive enums, supported formats.
fn check_anthropic_strict(schema: &Value) {
    only_keywords(schema, ANTHROPIC_STRICT_KEYWORDS, "anthropic_strict");
    assert!(!schema.to_string().contains("\"$ref\""), "{schema}");
    for (path, object) in all_subschemas(schema) {
        // A union of objects is not closed itself (that would refuse the members' keys).
        let union = object.contains_key("anyOf") && !object.contains_key("properties");
        if (is_object_type(object) && !union) || object.contains_key("properties") {
            assert_eq!(
                object.get("additionalProperties"),
                Some(&json!(false)),
                "object without additionalProperties: false at {path}"
            );
        }
        if let Some(n) = object.get("minItems") {
            assert!(n == 0 || n == 1, "minItems {n} at {path}");
        }
        if let Some(values) = object.get("enum") {
            assert!(
                values
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|v| !v.is_object() && !v.is_array()),
                "complex enum at {path}"
            );
        }
        if let Some(f) = object.get("format") {
            assert!(
                ANTHROPIC_FORMATS.contains(&f.as_str().unwrap()),
                "format {f} at {path}"
            );
        }
    }
}

/// Gemini's `parametersJsonSchema`: documented keywords, every `$ref` resolves into `$defs` (or
/// is the root) and stands alone, and the schema compiles.
fn check_gemini_json(schema: &Value) {
    only_keywords(schema, GEMINI_JSON_KEYWORDS, "gemini_json_schema");
    for (path, object) in all_subschemas(schema) {
        if let Some(target) = object.get("$ref") {
            let target = target.as_str().unwrap();
            assert!(
                object.keys().all(|k| k.starts_with('$')),
                "{path}: a $ref with other keywords"
            );
            if target != "#" {
                let name = target
                    .strip_prefix("#/$defs/")
                    .unwrap_or_else(|| panic!("{target}"));
                assert!(
                    schema["$defs"].get(name).is_some(),
                    "{target} does not resolve"
                );
            }
        }
    }
    jsonschema::validator_for(schema).expect("a schema every reference of which resolves");
}

/// OpenAI strict mode: documented keywords, `additionalProperties: false` and every property
/// required on every object, an object at the root.
fn check_openai_strict(schema: &Value) {
    only_keywords(schema, OPENAI_STRICT_KEYWORDS, "openai_responses_strict");
    assert_eq!(schema["type"], "object", "the root is an object");
    assert!(schema.get("anyOf").is_none(), "no anyOf at the root");
    for (path, object) in all_subschemas(schema) {
        if is_object_type(object) {
            assert_eq!(
                object.get("additionalProperties"),
                Some(&json!(false)),
                "{path}"
            );
            let names: Vec<&String> = object["properties"].as_object().unwrap().keys().collect();
            let required: Vec<&str> = object["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            assert_eq!(required, names, "{path}: every property is required");
        }
    }
}

/// Runs the subset checkers of the four formats every object-root type has on `T`'s
/// definitions.
fn meets_subsets<T: ToolArgs + ObjectRoot>() {
    let name = std::any::type_name::<T>();
    assert_eq!(stitch_runtime::__private::tool_error::<T>(), None, "{name}");
    assert_eq!(
        stitch_runtime::__private::gemini_error::<T>(),
        None,
        "{name}"
    );
    assert_eq!(
        stitch_runtime::__private::anthropic_strict_error::<T>(),
        None,
        "{name}"
    );
    let gemini = tool::gemini::<T>("t", None);
    check_gemini(&gemini["parameters"]);
    let claude = tool::anthropic_strict::<T>("t", None);
    check_anthropic_strict(&claude["input_schema"]);
    // The compile-time check and the rewrite agree: what the check lets through is written.
    for written in [&gemini, &claude] {
        assert!(
            !written.to_string().contains("Cannot be described here"),
            "{name}: {written}"
        );
    }
    let json_schema = tool::gemini_json_schema::<T>("t", None);
    check_gemini_json(&json_schema["parametersJsonSchema"]);
    let responses = tool::openai_responses::<T>("t", None);
    assert_eq!(&responses["parameters"], T::input_schema(), "{name}");
}

/// [`meets_subsets`], and OpenAI's strict subset for a type strict mode takes.
fn meets_strict_subset<T: ToolArgs + ObjectRoot + StrictRoot + StrictPart>() {
    let name = std::any::type_name::<T>();
    assert_eq!(
        stitch_runtime::__private::strict_error::<T>(),
        None,
        "{name}"
    );
    meets_subsets::<T>();
    check_openai_strict(&tool::openai_responses_strict::<T>("t", None)["parameters"]);
}

/// The compile error `tool::openai_responses_strict::<T>` stops the build with names `why`.
fn strict_refuses<T: ToolArgs>(why: &str) {
    let name = std::any::type_name::<T>();
    let error = stitch_runtime::__private::strict_error::<T>()
        .unwrap_or_else(|| panic!("{name}: strict mode takes it"));
    assert!(error.contains(why), "{name}: {error}");
}

/// The compile error every `tool` function stops the build with for `T` says `T` is `what`.
fn not_a_tool<T: ToolArgs>(what: &str) {
    let name = std::any::type_name::<T>();
    let error = stitch_runtime::__private::tool_error::<T>()
        .unwrap_or_else(|| panic!("{name}: it can be a tool"));
    assert_eq!(
        error,
        format!("stitch: a tool's arguments must be a JSON object (a struct with named fields, or an enum whose every variant is an object: internally or adjacently tagged, or externally tagged with data); this type is {what}"),
        "{name}"
    );
    // Every `tool` function refuses it, the checked ones with the same message.
    assert_eq!(
        stitch_runtime::__private::strict_error::<T>(),
        Some(error.clone())
    );
    assert_eq!(
        stitch_runtime::__private::gemini_error::<T>(),
        Some(error.clone())
    );
    assert_eq!(
        stitch_runtime::__private::anthropic_strict_error::<T>(),
        Some(error)
    );
}

#[test]
fn every_format_stays_in_its_documented_subset() {
    meets_strict_subset::<ViewFile>();
    meets_strict_subset::<Search>();
    meets_strict_subset::<Filters>();
    meets_strict_subset::<Paths20>();
    meets_strict_subset::<Names3>();
    meets_strict_subset::<Rows3>();
    meets_strict_subset::<Row3>();
    meets_strict_subset::<RowWithoutNotes>();
    meets_strict_subset::<Paths>();
    meets_strict_subset::<Meta>();
    meets_strict_subset::<Tree>();
    // Strict mode closes every object and has no tuples and no enum at the root: the strict
    // definition of these is a compile error (read here at run time), the others are checked.
    let map = "a map (an object with open keys: strict mode closes every object)";
    let tuple = "a tuple (`prefixItems`)";
    let enum_root = "its arguments are an enum";
    meets_subsets::<Edit>();
    strict_refuses::<Edit>(map);
    meets_subsets::<Row>();
    strict_refuses::<Row>(&format!("{map} at field `notes`"));
    meets_subsets::<Act>();
    strict_refuses::<Act>(&format!("{map} at field `notes`"));
    meets_subsets::<Eval>();
    strict_refuses::<Eval>(&format!("{tuple} at field `expr`"));
    meets_subsets::<OptionalTuple>();
    strict_refuses::<OptionalTuple>(&format!("{tuple} at field `pair`"));
    meets_subsets::<Kinds>();
    strict_refuses::<Kinds>(&format!("{tuple} at field `adjacent`"));
    meets_subsets::<Op>();
    strict_refuses::<Op>(enum_root);
    meets_subsets::<Adjacent>();
    strict_refuses::<Adjacent>(enum_root);
    meets_subsets::<Expr>();
    strict_refuses::<Expr>(enum_root);
    // A required self-reference: no strict Anthropic definition (see below).
    check_gemini(&tool::gemini::<Outline>("t", None)["parameters"]);
    check_gemini_json(&tool::gemini_json_schema::<Outline>("t", None)["parametersJsonSchema"]);
    // Not an object: no `tool` function compiles for these.
    not_a_tool::<EntryKind>("a string (an enum whose variants are all units)");
    let untagged = "an untagged enum with a member that is not an object";
    not_a_tool::<NumOrStr>(untagged);
    not_a_tool::<Nesting>(untagged);
    not_a_tool::<MetasOrNames>(untagged);
    not_a_tool::<ManyOrOne>(untagged);
}

/// `(object, strict)`: whether `$ty` has the marks the `tool` functions require (every one:
/// `ObjectRoot`; the strict ones: `StrictRoot` and `StrictPart`), read without a compile
/// error: an inherent method applies only where its bounds hold, the trait's is the fallback.
macro_rules! marks {
    ($ty:ty) => {{
        struct Probe<T>(std::marker::PhantomData<T>);
        trait Unmarked {
            fn object(&self) -> bool {
                false
            }
            fn strict(&self) -> bool {
                false
            }
        }
        impl<T> Unmarked for Probe<T> {}
        #[allow(dead_code)]
        impl<T: ObjectRoot> Probe<T> {
            fn object(&self) -> bool {
                true
            }
        }
        #[allow(dead_code)]
        impl<T: StrictRoot + StrictPart> Probe<T> {
            fn strict(&self) -> bool {
                true
            }
        }
        let probe = Probe::<$ty>(std::marker::PhantomData);
        (probe.object(), probe.strict())
    }};
}

/// The marks the derive writes (a type error at the user's call) and the compile-time check
/// of the schema tree (the error behind them) agree on every type of this file's checks:
/// whatever the marks let through, the check lets through, and the reverse.
#[test]
fn the_marks_agree_with_the_compile_time_checks() {
    macro_rules! agree {
        ($($ty:ty),* $(,)?) => {$({
            let name = stringify!($ty);
            let (object, strict) = marks!($ty);
            let tool_ok = stitch_runtime::__private::tool_error::<$ty>().is_none();
            let strict_ok = stitch_runtime::__private::strict_error::<$ty>().is_none();
            assert_eq!(object, tool_ok, "{name}: ObjectRoot");
            assert_eq!(object && strict, strict_ok, "{name}: strict");
        })*};
    }
    agree!(
        ViewFile,
        Search,
        Edit,
        Act,
        Row,
        RowWithoutNotes,
        Meta,
        Paths,
        Filters,
        Tree,
        Eval,
        OptionalTuple,
        Kinds,
        Op,
        Adjacent,
        Expr,
        Outline,
        EntryKind,
        NumOrStr,
        Nesting,
        MetasOrNames,
        ManyOrOne,
    );
    // The marks are not vacuous: some types have each, some lack each.
    assert_eq!(marks!(ViewFile), (true, true));
    assert_eq!(marks!(Edit), (true, false));
    assert_eq!(marks!(Op), (true, false));
    assert_eq!(marks!(EntryKind), (false, false));
}

// --- What each rewrite does -------------------------------------------------------------

#[test]
fn gemini_writes_tags_as_one_value_enums_and_unions_as_any_of() {
    let parameters = &tool::gemini::<Act>("act", None)["parameters"];
    let members = parameters["properties"]["action"]["anyOf"]
        .as_array()
        .unwrap();
    let tags: Vec<&Value> = members.iter().map(|m| &m["properties"]["action"]).collect();
    assert_eq!(
        tags,
        [
            &json!({"type": "string", "enum": ["copy"]}),
            &json!({"type": "string", "enum": ["delete"]}),
            &json!({"type": "string", "enum": ["edit"]}),
            &json!({"type": "string", "enum": ["noop"]}),
        ]
    );
    // Bounds stay.
    assert_eq!(
        members[1]["properties"]["paths"]["anyOf"][1]["maxItems"],
        50
    );
    let kinds = &tool::gemini::<Kinds>("kinds", None)["parameters"]["properties"];
    // A map of structs: only an empty one.
    assert_eq!(kinds["by_name"]["type"], "object");
    assert_eq!(kinds["by_name"]["maxProperties"], 0);
    assert!(kinds["by_name"]["description"]
        .as_str()
        .unwrap()
        .ends_with("send an empty object."));
    assert_eq!(kinds["labels"]["maxProperties"], 0);
    // A map of any value stays open.
    assert_eq!(
        kinds["extra"],
        json!({"type": "object", "description": "Any object.", "default": {}})
    );
    // A tuple of one type: its length.
    assert_eq!(
        kinds["pair"],
        json!({"type": "array", "description": "A tuple of one type.", "items": {"type": "integer", "minimum": 0, "maximum": 255}, "minItems": 2, "maxItems": 2})
    );
    assert_eq!(kinds["letter"]["maxLength"], 1);
    assert_eq!(
        kinds["any"]["anyOf"][0],
        json!({"type": "string", "nullable": true})
    );
    // An optional tuple of different types is left out; a required one cannot be written.
    let optional = &tool::gemini::<OptionalTuple>("t", None)["parameters"];
    assert_eq!(optional["properties"].as_object().unwrap().len(), 1);
    assert_eq!(optional["required"], json!(["name"]));
}

/// The compile error `tool::gemini::<T>` / `tool::anthropic_strict::<T>` stops the build
/// with, read at run time (`cargo check` does not evaluate it; the `compile_fail` doc example on
/// `tool::gemini` shows the build failing).
fn subset_error(function: &str, what: &str, field: &str, format: &str, instead: &str) -> String {
    format!("stitch: `tool::{function}` cannot write {what} at required field `{field}`, which {format} cannot describe; make the field optional (`Option` or `#[serde(default)]`), or give this tool {instead}")
}

const TUPLE: &str = "a tuple of different types (no `prefixItems`)";
const SELF_REFERENCE: &str = "a reference to the type's own type (it has no references, and an unrolled copy cannot end there)";

#[test]
fn a_required_tuple_of_different_types_is_a_compile_error_on_gemini_and_anthropic_strict() {
    use stitch_runtime::__private::{anthropic_strict_error, gemini_error};
    assert_eq!(
        gemini_error::<RequiredTuple>().unwrap(),
        subset_error(
            "gemini",
            TUPLE,
            "pair",
            "Gemini's `parameters`",
            "`tool::gemini_json_schema`"
        )
    );
    assert_eq!(
        anthropic_strict_error::<RequiredTuple>().unwrap(),
        subset_error(
            "anthropic_strict",
            TUPLE,
            "pair",
            "Anthropic's strict mode",
            "the non-strict definition (`tool::anthropic`)"
        )
    );
    // Optional, it is left out instead (see above); JSON Schema formats still take it.
    assert_eq!(gemini_error::<OptionalTuple>(), None);
    assert_eq!(anthropic_strict_error::<OptionalTuple>(), None);
    let json_schema = &tool::gemini_json_schema::<RequiredTuple>("t", None)["parametersJsonSchema"];
    assert_eq!(
        json_schema["properties"]["pair"]["prefixItems"][1]["type"],
        "string"
    );
}

#[test]
fn a_required_self_reference_is_a_compile_error_on_anthropic_strict() {
    use stitch_runtime::__private::{anthropic_strict_error, gemini_error};
    assert_eq!(
        anthropic_strict_error::<Outline>().unwrap(),
        subset_error(
            "anthropic_strict",
            SELF_REFERENCE,
            "sections",
            "Anthropic's strict mode",
            "the non-strict definition (`tool::anthropic`)"
        )
    );
    // Gemini ends the list empty (below); a required `Box` of itself has no such end.
    assert_eq!(gemini_error::<Outline>(), None);
    assert_eq!(
        gemini_error::<Chain>().unwrap(),
        subset_error(
            "gemini",
            SELF_REFERENCE,
            "next",
            "Gemini's `parameters`",
            "`tool::gemini_json_schema`"
        )
    );
    // An optional or defaulted self-reference is cut where it goes too deep.
    assert_eq!(gemini_error::<Tree>(), None);
    assert_eq!(anthropic_strict_error::<Tree>(), None);
    assert_eq!(anthropic_strict_error::<Eval>(), None);
}

/// A required list of itself that may not be empty: Gemini cannot end it either.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct NonEmptyOutline {
    /// The heading.
    title: String,
    /// At least one section.
    #[stitch(min_items = 1)]
    sections: Vec<NonEmptyOutline>,
}

/// One or many of itself, required: Gemini ends it in an empty list, Anthropic cannot.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Branches {
    /// A name.
    name: String,
    /// One branch or a list of them.
    below: OneOrMany<Box<Branches>>,
}

/// A required tuple of different types inside a flattened struct, and one in an untagged
/// union beside a member that can be written.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Flat {
    /// A name.
    name: String,
    #[serde(flatten)]
    inner: RequiredTuple,
}

/// A tuple of different types or a string.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum PairOrName {
    /// A number and a label.
    Pair(u8, String),
    /// A name.
    Name(String),
}

/// Holds [`PairOrName`].
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Either2 {
    /// The pair or the name.
    pick: PairOrName,
}

#[test]
fn the_compile_time_check_follows_what_the_rewrite_can_leave_out() {
    use stitch_runtime::__private::{anthropic_strict_error, gemini_error};
    let gemini = |field: &str, what: &str| {
        subset_error(
            "gemini",
            what,
            field,
            "Gemini's `parameters`",
            "`tool::gemini_json_schema`",
        )
    };
    let anthropic = |field: &str, what: &str| {
        subset_error(
            "anthropic_strict",
            what,
            field,
            "Anthropic's strict mode",
            "the non-strict definition (`tool::anthropic`)",
        )
    };
    assert_eq!(
        gemini_error::<NonEmptyOutline>(),
        Some(gemini("sections", SELF_REFERENCE))
    );
    assert_eq!(gemini_error::<Branches>(), None);
    assert_eq!(
        anthropic_strict_error::<Branches>(),
        Some(anthropic("below", SELF_REFERENCE))
    );
    assert_eq!(gemini_error::<Flat>(), Some(gemini("pair", TUPLE)));
    assert_eq!(
        anthropic_strict_error::<Flat>(),
        Some(anthropic("pair", TUPLE))
    );
    // The union's string member is written; the tuple member is left out.
    assert_eq!(gemini_error::<Either2>(), None);
    assert_eq!(anthropic_strict_error::<Either2>(), None);
    // What the check lets through, the rewrite writes (no fallback), and what it writes is
    // read back.
    meets_subsets::<Either2>();
    let pick = &tool::gemini::<Either2>("t", None)["parameters"]["properties"]["pick"];
    assert_eq!(pick["anyOf"], json!([{"type": "string"}]), "{pick}");
    check_gemini(&tool::gemini::<Branches>("t", None)["parameters"]);
    round_trip::<Branches>(&tool::gemini::<Branches>("t", None)["parameters"], 29, 100);
}

/// A required self-reference that is not a list: no finite schema.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Chain {
    /// A value.
    v: u8,
    /// The rest.
    next: Box<Chain>,
}

/// Schema text the compile-time check takes at its word: a required part the rewrite cannot
/// write there leaves an empty object that says why, not a panic.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct RawPair {
    /// A name.
    name: String,
    /// A number and a label, as schema text.
    #[stitch(
        opaque,
        schema = r#"{"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false}"#
    )]
    pair: Stamp2,
}

/// A foreign pair, read by serde alone.
#[derive(Debug, Deserialize)]
pub struct Stamp2(u8, String);

#[test]
fn schema_text_a_format_cannot_write_is_offered_empty_without_a_panic() {
    use stitch_runtime::__private::{anthropic_strict_error, gemini_error};
    assert_eq!(gemini_error::<RawPair>(), None);
    assert_eq!(anthropic_strict_error::<RawPair>(), None);
    let gemini = &tool::gemini::<RawPair>("t", None)["parameters"];
    let claude = &tool::anthropic_strict::<RawPair>("t", None)["input_schema"];
    check_gemini(gemini);
    check_anthropic_strict(claude);
    for (schema, format) in [
        (gemini, "Gemini's `parameters`"),
        (claude, "Anthropic's strict mode"),
    ] {
        assert_eq!(schema["properties"], json!({}), "{schema}");
        assert_eq!(
            schema["description"],
            format!("Cannot be described here: `pair` is a tuple of different types, which {format} cannot describe."),
        );
    }
    // Nothing but `{}` is offered, which the tool refuses by name.
    assert_eq!(gemini["maxProperties"], 0);
    assert_eq!(claude["additionalProperties"], false);
    assert!(RawPair::from_value(json!({})).is_err());
}

#[test]
fn a_required_self_reference_ends_in_an_empty_list_on_gemini() {
    // A required `Vec<Outline>`: at the cut the list can only be empty, which Gemini says
    // with `maxItems: 0`.
    let mut level = &tool::gemini::<Outline>("t", None)["parameters"];
    for _ in 0..tool::UNROLL_DEPTH {
        assert_eq!(level["required"], json!(["title", "sections"]));
        level = &level["properties"]["sections"]["items"];
    }
    assert_eq!(level["properties"]["sections"]["maxItems"], 0);
}

#[test]
fn anthropic_strict_states_the_bounds_it_cannot_keep() {
    let schema = &tool::anthropic_strict::<ViewFile>("view_file", None)["input_schema"];
    let paths = &schema["properties"]["paths"]["anyOf"][1];
    assert_eq!(paths["minItems"], 1);
    assert!(paths.get("maxItems").is_none());
    assert_eq!(paths["description"], "At most 20 items.");
    assert_eq!(
        schema["properties"]["max_pixels"]["description"],
        "Largest side of an image, in pixels. From 0 to 4294967295."
    );
    let kinds = &tool::anthropic_strict::<Kinds>("kinds", None)["input_schema"]["properties"];
    assert_eq!(
        kinds["letter"]["description"],
        "One character. Exactly 1 character."
    );
    assert_eq!(
        kinds["fixed"],
        json!({"type": "array", "description": "An array. Exactly 2 items.", "items": {"type": "boolean"}, "minItems": 1})
    );
    assert_eq!(
        kinds["by_name"],
        json!({"type": "object", "description": "A map of structs. Strict mode cannot describe a map: send an empty object.", "additionalProperties": false, "default": {}})
    );
    // Optional properties stay optional: no `null` is offered.
    assert_eq!(schema["required"], json!(["paths"]));
    assert!(!schema.to_string().contains("null"));
}

#[test]
fn gemini_json_schema_keeps_maps_tuples_and_references() {
    let schema = &tool::gemini_json_schema::<Kinds>("kinds", None)["parametersJsonSchema"];
    let p = &schema["properties"];
    assert_eq!(
        p["by_name"]["additionalProperties"]["properties"]["x"]["minimum"],
        -128
    );
    assert_eq!(p["pair"]["prefixItems"].as_array().unwrap().len(), 2);
    assert_eq!(p["pair"]["maxItems"], 2);
    assert!(p["pair"].get("items").is_none());
    assert_eq!(
        p["op"]["anyOf"][0]["properties"]["op"],
        json!({"type": "string", "enum": ["stop"]})
    );
    assert_eq!(
        p["letter"]["description"],
        "One character. Exactly 1 character."
    );
    // A recursive type nested in another: its anchor is a `$defs` entry.
    let eval = &tool::gemini_json_schema::<Eval>("eval", None)["parametersJsonSchema"];
    assert_eq!(eval["$defs"].as_object().unwrap().len(), 2);
    assert_eq!(
        eval["properties"]["tree"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Tree"})
    );
    let v = jsonschema::validator_for(eval).unwrap();
    let deep = json!({"expr": {"neg": {"of": {"add": [{"lit": 1}, {"neg": {"of": {"neg": {"of": {"lit": 2}}}}}]}}}});
    assert!(v.is_valid(&deep));
    assert!(Eval::from_value(deep).is_ok());
    assert!(!v.is_valid(&json!({"expr": {"lit": 300}})));
}

// --- Round trips where a format is narrower than the tool -------------------------------

/// A tiny deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Which optional properties a generated value holds.
#[derive(Clone, Copy)]
enum Optional {
    All,
    None,
    Some,
}

/// The bounds a description states ("From 0 to 255.", "At most 20 items.", "Exactly 2
/// items."), as Anthropic's strict definitions write them: a model is told them there.
fn stated(description: Option<&str>, unit: &str) -> (Option<i64>, Option<i64>) {
    let Some(text) = description else {
        return (None, None);
    };
    let number = |s: &str| s.trim_end_matches('.').parse::<i64>().ok();
    let words: Vec<&str> = text.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let unit_follows = |j: usize| {
            let next = words.get(j + 1).map(|u| u.trim_end_matches('.'));
            if unit.is_empty() {
                next.is_none() || words[j].ends_with('.')
            } else {
                next.is_some_and(|u| u.starts_with(unit))
            }
        };
        match *w {
            "From" if words.get(i + 2) == Some(&"to") && unit_follows(i + 3) => {
                return (number(words[i + 1]), number(words[i + 3]));
            }
            "At" if words.get(i + 1) == Some(&"most") && unit_follows(i + 2) => {
                return (None, number(words[i + 2]));
            }
            "At" if words.get(i + 1) == Some(&"least") && unit_follows(i + 2) => {
                return (number(words[i + 2]), None);
            }
            "Exactly" if unit_follows(i + 1) => {
                let n = number(words[i + 1]);
                return (n, n);
            }
            _ => {}
        }
    }
    (None, None)
}

/// A value valid under `schema` (Gemini's or Anthropic's strict subset, no references).
fn instance(schema: &Value, rng: &mut Rng, optional: Optional) -> Value {
    let description = schema.get("description").and_then(Value::as_str);
    if schema.get("nullable") == Some(&json!(true)) && rng.chance(30) {
        return Value::Null;
    }
    if let Some(Value::Array(members)) = schema.get("anyOf") {
        return instance(&members[rng.below(members.len())], rng, optional);
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values[rng.below(values.len())].clone();
    }
    let bound = |key: &str| schema.get(key).and_then(Value::as_i64);
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut object = Map::new();
            let required = schema.get("required").and_then(Value::as_array);
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (name, property) in properties {
                    let is_required = required.is_some_and(|r| r.iter().any(|n| n == name));
                    let present = match optional {
                        Optional::All => true,
                        Optional::None => false,
                        Optional::Some => rng.chance(50),
                    };
                    if is_required || present {
                        object.insert(name.clone(), instance(property, rng, optional));
                    }
                }
            }
            // An object the schema leaves open (no properties, no `maxProperties: 0`, no
            // `additionalProperties: false`) takes any key: offer one.
            let closed = schema.get("maxProperties") == Some(&json!(0))
                || schema.get("additionalProperties") == Some(&json!(false));
            if schema.get("properties").is_none() && !closed && rng.chance(50) {
                object.insert("k".to_owned(), json!("v"));
            }
            Value::Object(object)
        }
        Some("array") => {
            let (said_min, said_max) = stated(description, "item");
            let min = bound("minItems").max(said_min).unwrap_or(0);
            let max = bound("maxItems")
                .or(said_max)
                .unwrap_or(min + 2)
                .min(min + 2);
            let n = min + rng.below((max - min + 1) as usize) as i64;
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            Value::Array((0..n).map(|_| instance(&items, rng, optional)).collect())
        }
        Some("string") => {
            let (said_min, said_max) = stated(description, "character");
            let max = bound("maxLength").or(said_max);
            let min = bound("minLength").or(said_min);
            match (min, max) {
                (_, Some(1)) => json!("x"),
                _ => json!(["a.png", "[preview].png", "", "notes"][rng.below(4)]),
            }
        }
        Some("integer") => {
            let (said_min, said_max) = stated(description, "");
            let min = bound("minimum").or(said_min).unwrap_or(0);
            let max = bound("maximum").or(said_max).unwrap_or(7);
            let pool = [min, max, min.max(0).min(max), 7.clamp(min, max)];
            json!(pool[rng.below(pool.len())])
        }
        Some("number") => json!(1.5),
        Some("boolean") => json!(rng.chance(50)),
        Some("null") => Value::Null,
        _ => json!("anything"),
    }
}

/// Gemini's `nullable` in JSON Schema, for the validator.
fn nullable_as_json_schema(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            object.values_mut().for_each(nullable_as_json_schema);
            if object.remove("nullable") == Some(json!(true)) {
                let inner = Value::Object(std::mem::take(object));
                object.insert("anyOf".to_owned(), json!([inner, {"type": "null"}]));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(nullable_as_json_schema),
        _ => {}
    }
}

/// Every value generated from the emitted schema (every optional property present, absent, and
/// at random; each nullable both ways) validates against it and is accepted by `from_value`.
fn round_trip<T: ToolArgs + std::fmt::Debug>(parameters: &Value, seed: u64, runs: usize) -> usize {
    let mut for_validator = parameters.clone();
    nullable_as_json_schema(&mut for_validator);
    let validator = jsonschema::validator_for(&for_validator).expect("a valid schema");
    let mut rng = Rng(seed);
    let mut accepted = 0;
    for run in 0..runs {
        let optional = [Optional::All, Optional::None, Optional::Some][run % 3];
        let value = instance(parameters, &mut rng, optional);
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "generated {value}, not valid: {errors:?}"
        );
        if let Err(e) = T::from_value(value.clone()) {
            panic!(
                "{}: the schema accepts {value}, the tool refuses: {e}",
                std::any::type_name::<T>()
            );
        }
        accepted += 1;
    }
    accepted
}

fn round_trips<T: ToolArgs + ObjectRoot + std::fmt::Debug>(seed: u64) {
    round_trip::<T>(&tool::gemini::<T>("t", None)["parameters"], seed, 300);
    round_trip::<T>(
        &tool::anthropic_strict::<T>("t", None)["input_schema"],
        seed + 1,
        300,
    );
}

#[test]
fn values_valid_under_the_narrower_formats_are_accepted() {
    round_trips::<ViewFile>(1);
    round_trips::<Search>(3);
    round_trips::<Edit>(5);
    round_trips::<Act>(7);
    round_trips::<Tree>(9);
    round_trips::<Eval>(11);
    round_trips::<Kinds>(13);
    round_trips::<OptionalTuple>(15);
    // No strict Anthropic definition compiles for it (a required self-reference).
    round_trip::<Outline>(&tool::gemini::<Outline>("t", None)["parameters"], 17, 300);
    round_trips::<Rows3>(19);
    round_trips::<Op>(21);
    round_trips::<Adjacent>(23);
    round_trips::<Expr>(25);
}

#[test]
fn an_unrolled_tree_reaches_its_depth() {
    // The deepest tree the Gemini schema describes is accepted, one level more is not
    // described.
    fn chain(levels: usize) -> Value {
        let mut node = json!({"name": "leaf"});
        for i in 0..levels {
            node = json!({"name": format!("n{i}"), "children": [node]});
        }
        node
    }
    let mut parameters = tool::gemini::<Tree>("tree", None)["parameters"].clone();
    nullable_as_json_schema(&mut parameters);
    // Gemini's objects cannot be closed; close them here to see what the model is offered.
    fn close(schema: &mut Value) {
        if let Value::Object(object) = schema {
            if object.get("type") == Some(&json!("object")) {
                object.insert("additionalProperties".to_owned(), json!(false));
            }
            object.values_mut().for_each(close);
        }
    }
    close(&mut parameters);
    let v = jsonschema::validator_for(&parameters).unwrap();
    assert!(v.is_valid(&chain(tool::UNROLL_DEPTH)));
    assert!(Tree::from_value(chain(tool::UNROLL_DEPTH)).is_ok());
    assert!(!v.is_valid(&chain(tool::UNROLL_DEPTH + 1)));
    let claude = &tool::anthropic_strict::<Tree>("tree", None)["input_schema"];
    let v = jsonschema::validator_for(claude).unwrap();
    assert!(v.is_valid(&chain(tool::UNROLL_DEPTH)));
    assert!(!v.is_valid(&chain(tool::UNROLL_DEPTH + 1)));
}
