//! The input schema: the constant equals the value, golden files of realistic tools, and
//! agreement with serde checked by a real JSON Schema validator (the `jsonschema` crate).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{tool, IssueKind, OneOrMany, ToolArgs};
use stitch_tests::tools::{Act, Edit, Filters, Search, ViewFile};

fn validator<T: ToolArgs>() -> jsonschema::Validator {
    jsonschema::validator_for(T::input_schema()).expect("the schema is a valid JSON Schema")
}

/// The constant, rendered during compilation, is the same schema as the value.
fn constant_matches<T: ToolArgs>() {
    let parsed: Value = serde_json::from_str(T::INPUT_SCHEMA).expect("INPUT_SCHEMA is JSON");
    assert_eq!(&parsed, T::input_schema());
    assert!(jsonschema::meta::is_valid(&parsed), "{parsed}");
}

#[test]
fn the_constant_is_the_schema() {
    constant_matches::<ViewFile>();
    constant_matches::<Search>();
    constant_matches::<Filters>();
    constant_matches::<Edit>();
    constant_matches::<Act>();
    constant_matches::<Tree>();
    constant_matches::<Shapes>();
}

/// Compares the pretty schema of `T` with `tests/golden/<name>.json`; `STITCH_BLESS=1`
/// rewrites the file instead.
fn golden<T: ToolArgs>(name: &str) {
    let path = format!("{}/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = serde_json::to_string_pretty(T::input_schema()).unwrap() + "\n";
    if std::env::var_os("STITCH_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}; run with STITCH_BLESS=1"));
    assert_eq!(
        text, want,
        "{name}: the schema changed; review it and run with STITCH_BLESS=1"
    );
}

#[test]
fn golden_schemas() {
    golden::<ViewFile>("view_file");
    golden::<Search>("search");
    golden::<Edit>("edit");
    golden::<Act>("act");
    golden::<stitch_tests::tools::Schedule>("schedule");
}

#[test]
fn shapes_follow_the_rules() {
    let schema = ViewFile::input_schema();
    assert_eq!(schema["type"], "object");
    assert_eq!(
        schema["description"],
        "Show one or more image or text files to the model."
    );
    assert_eq!(schema["required"], json!(["paths"]));
    assert_eq!(schema["additionalProperties"], false);
    let paths = &schema["properties"]["paths"];
    assert_eq!(paths["anyOf"][0], json!({"type": "string"}));
    assert_eq!(
        paths["anyOf"][1],
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 20})
    );
    let description = paths["description"].as_str().unwrap();
    assert!(
        description.starts_with("A path, or a list of paths"),
        "{description}"
    );
    assert!(
        description.contains("JSON array (not as JSON text)"),
        "{description}"
    );
    // `Option<u32>`: the integer's schema, not required, no type array, no `format`.
    assert_eq!(
        schema["properties"]["max_pixels"],
        json!({"description": "Largest side of an image, in pixels.", "type": "integer", "minimum": 0, "maximum": 4294967295u32})
    );
    let text = ViewFile::INPUT_SCHEMA;
    for banned in [
        "$ref",
        "$defs",
        "nullable",
        "\"format\"",
        "[\"string\",\"null\"]",
    ] {
        assert!(!text.contains(banned), "{banned} in {text}");
    }
}

#[test]
fn wire_names_defaults_and_enums() {
    let schema = Search::input_schema();
    let properties = schema["properties"].as_object().unwrap();
    let names: Vec<&str> = properties.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["caseSensitive", "filters", "maxHits", "query", "tags"]
    );
    assert_eq!(schema["required"], json!(["query"]));
    assert_eq!(properties["maxHits"]["default"], 0);
    assert_eq!(properties["maxHits"]["maximum"], 65535);
    assert_eq!(properties["caseSensitive"]["default"], false);
    let filters = &properties["filters"];
    assert_eq!(
        filters["properties"]["kinds"]["items"],
        json!({
            "description": "Which kinds of entry a search returns.",
            "type": "string",
            "enum": ["file", "dir", "link"]
        }),
        "a unit-only enum is a string, described by its doc comment"
    );
    assert!(
        filters["properties"]["ext"].is_object(),
        "renamed field by its wire name"
    );
    assert!(filters.get("required").is_none());
}

#[test]
fn tagged_enums_are_one_of_with_a_constant_tag() {
    let action = &Act::input_schema()["properties"]["action"];
    assert_eq!(action["type"], "object", "every member is an object");
    let members = action["oneOf"].as_array().unwrap();
    assert_eq!(members.len(), 4);
    let tags: Vec<&Value> = members
        .iter()
        .map(|m| &m["properties"]["action"]["const"])
        .collect();
    assert_eq!(
        tags,
        [
            &json!("copy"),
            &json!("delete"),
            &json!("edit"),
            &json!("noop")
        ]
    );
    for member in members {
        assert_eq!(member["type"], "object");
        assert_eq!(member["required"][0], "action");
    }
    // The newtype variant's struct joins the tag's object.
    assert_eq!(members[2]["required"], json!(["action", "file", "rows"]));
    assert_eq!(
        members[1]["properties"]["paths"]["anyOf"][1]["maxItems"],
        50
    );
}

/// A recursive type: the one place a reference is used.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Tree {
    /// The node's name.
    name: String,
    #[serde(default)]
    children: Vec<Tree>,
    #[serde(default)]
    first: Option<Box<Tree>>,
}

#[test]
fn recursive_types_refer_to_their_anchor() {
    let schema = Tree::input_schema();
    assert_eq!(schema["$anchor"], "Tree");
    assert_eq!(
        schema["properties"]["children"]["items"],
        json!({"$ref": "#Tree"})
    );
    assert_eq!(schema["properties"]["first"], json!({"$ref": "#Tree"}));
    let v = validator::<Tree>();
    assert!(
        v.is_valid(&json!({"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}))
    );
    assert!(!v.is_valid(&json!({"name": "a", "children": [{"children": []}]})));
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Inner {
    x: i8,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum NameOrIds {
    Name(String),
    Ids(Vec<u32>),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Unit,
    Pair(u8, bool),
    Named { inner: Inner },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub enum External {
    Stop,
    Go(Inner),
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Stamp(String);

/// Every kind of position.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Shapes {
    letter: char,
    pair: (u8, String),
    set: std::collections::BTreeSet<i16>,
    fixed: [bool; 2],
    map: BTreeMap<String, Inner>,
    any: Value,
    pick: NameOrIds,
    adjacent: Adjacent,
    external: External,
    #[stitch(opaque, schema = r#"{"type": "string", "format": "date-time"}"#)]
    stamp: Stamp,
    #[stitch(opaque)]
    raw: Stamp,
    #[serde(flatten)]
    flat: Inner,
    #[stitch(description = "Overrides the doc comment.")]
    /// Not shown.
    described: u8,
}

#[test]
fn every_kind_of_position_has_a_schema() {
    let p = &Shapes::input_schema()["properties"];
    assert_eq!(
        p["letter"],
        json!({"type": "string", "minLength": 1, "maxLength": 1})
    );
    assert_eq!(p["pair"]["prefixItems"][1], json!({"type": "string"}));
    assert_eq!(p["pair"]["items"], false);
    assert_eq!(
        p["set"],
        json!({"type": "array", "items": {"type": "integer", "minimum": -32768, "maximum": 32767}})
    );
    assert_eq!(p["fixed"]["minItems"], 2);
    assert_eq!(
        p["map"]["additionalProperties"]["properties"]["x"]["minimum"],
        -128
    );
    assert_eq!(p["any"], json!({}));
    assert_eq!(p["pick"]["anyOf"][1]["items"]["type"], "integer");
    assert_eq!(
        p["adjacent"]["oneOf"][0],
        json!({"type": "object", "properties": {"t": {"type": "string", "const": "Unit"}}, "required": ["t"]})
    );
    assert_eq!(
        p["external"]["oneOf"][0],
        json!({"type": "string", "enum": ["Stop"]})
    );
    assert_eq!(p["external"]["oneOf"][1]["required"], json!(["Go"]));
    assert_eq!(p["stamp"], json!({"type": "string", "format": "date-time"}));
    assert_eq!(p["raw"], json!({}));
    assert_eq!(
        p["x"]["type"], "integer",
        "flattened fields join the object"
    );
    assert_eq!(p["described"]["description"], "Overrides the doc comment.");
    let required = Shapes::input_schema()["required"]
        .as_array()
        .unwrap()
        .clone();
    assert!(required.contains(&json!("x")));
}

/// A documented struct.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Documented {
    n: u8,
}

/// Empty descriptions, with and without item bounds (the derive writes those properties two
/// ways; both must say the same).
#[derive(Debug, Deserialize, ToolArgs)]
pub struct EmptyDescriptions {
    #[stitch(description = "")]
    plain: String,
    #[stitch(description = "")]
    nested: Documented,
    #[stitch(description = "", max_items = 3)]
    bounded: Vec<String>,
    /// Documented here.
    documented: String,
    undocumented: String,
}

#[test]
fn an_empty_description_is_stated_and_a_missing_one_is_left_out() {
    let p = &EmptyDescriptions::input_schema()["properties"];
    assert_eq!(p["plain"], json!({"type": "string", "description": ""}));
    assert_eq!(
        p["nested"]["description"], "",
        "the field's, not the struct's"
    );
    assert_eq!(p["bounded"]["description"], "");
    assert_eq!(p["documented"]["description"], "Documented here.");
    assert_eq!(p["undocumented"], json!({"type": "string"}));
    constant_matches::<EmptyDescriptions>();
}

#[derive(Debug, Deserialize, ToolArgs)]
pub struct Generic<T> {
    items: OneOrMany<T>,
}

#[test]
fn generic_types_build_their_schema_once_per_instantiation() {
    let numbers = Generic::<u8>::input_schema();
    let names = Generic::<String>::input_schema();
    assert_eq!(numbers["properties"]["items"]["anyOf"][0]["maximum"], 255);
    assert_eq!(
        names["properties"]["items"]["anyOf"][0],
        json!({"type": "string"})
    );
    assert!(std::ptr::eq(numbers, Generic::<u8>::input_schema()));
    // The constant is there for generic types too, evaluated where it is named.
    const NUMBERS: &str = Generic::<u8>::INPUT_SCHEMA;
    assert_eq!(&serde_json::from_str::<Value>(NUMBERS).unwrap(), numbers);
    constant_matches::<Generic<String>>();
}

mod accepted;
mod formats;

// The helpers each part lends the others.
#[allow(unused_imports)]
use {accepted::*, formats::*};
