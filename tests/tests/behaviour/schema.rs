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

/// A tiny deterministic generator (xorshift), so the agreement runs are reproducible.
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

/// A value near what `schema` describes: mostly conforming, sometimes not.
fn sample(schema: &Value, root: &Value, rng: &mut Rng, depth: usize) -> Value {
    const STRINGS: &[&str] = &[
        "a.png",
        "[preview].png",
        "[\"x\"]",
        "",
        "file",
        "dir",
        "copy",
        "delete",
        "edit",
        "noop",
        "5",
    ];
    // serde also reads a struct from an array, by position; the schema advertises the object
    // form only (like `null` for an `Option`), so the noise below puts no array where an object
    // is described.
    let object_here = schema.get("type") == Some(&json!("object"))
        || schema.get("oneOf").is_some()
        || schema.get("$ref").is_some();
    if depth > 6 || rng.chance(2) {
        return match rng.below(6) {
            4 if object_here => json!({}),
            0 => json!(null),
            1 => json!(STRINGS[rng.below(STRINGS.len())]),
            2 => json!(rng.below(300) as i64 - 20),
            3 => json!(true),
            4 => json!([STRINGS[rng.below(STRINGS.len())]]),
            _ => json!({}),
        };
    }
    if let Some(reference) = schema.get("$ref") {
        let _ = reference;
        return sample(root, root, rng, depth + 1);
    }
    if let Some(Value::String(c)) = schema.get("const") {
        return json!(c);
    }
    if let Some(Value::Array(names)) = schema.get("enum") {
        return names[rng.below(names.len())].clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = schema.get(key) {
            return sample(&members[rng.below(members.len())], root, rng, depth + 1);
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut object = serde_json::Map::new();
            let required = schema.get("required").and_then(Value::as_array);
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (name, property) in properties {
                    let is_required = required.is_some_and(|r| r.iter().any(|n| n == name));
                    if rng.chance(if is_required { 97 } else { 70 }) {
                        object.insert(name.clone(), sample(property, root, rng, depth + 1));
                    }
                }
            }
            if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
                for _ in 0..rng.below(3) {
                    object.insert(
                        format!("k{}", rng.below(5)),
                        sample(values, root, rng, depth + 1),
                    );
                }
            }
            if rng.chance(10) {
                object.insert("unexpected".to_owned(), json!(1));
            }
            Value::Object(object)
        }
        Some("array") => {
            if let Some(Value::Array(prefix)) = schema.get("prefixItems") {
                return Value::Array(
                    prefix
                        .iter()
                        .map(|p| sample(p, root, rng, depth + 1))
                        .collect(),
                );
            }
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = schema
                .get("maxItems")
                .and_then(Value::as_u64)
                .map_or(4, |m| m.min(4) as usize);
            let n = if rng.chance(90) {
                min + rng.below(max.saturating_sub(min) + 1)
            } else {
                rng.below(25)
            };
            Value::Array(
                (0..n)
                    .map(|_| sample(&items, root, rng, depth + 1))
                    .collect(),
            )
        }
        Some("string") if schema.get("maxLength") == Some(&json!(1)) && rng.chance(90) => {
            json!("x")
        }
        Some("string") => json!(STRINGS[rng.below(STRINGS.len())]),
        Some("integer") => {
            let pool = [
                0i64, 1, 7, 100, 255, 256, 65535, 70000, -1, -128, 4294967296,
            ];
            let min = schema
                .get("minimum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MIN);
            let max = schema
                .get("maximum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MAX);
            let fits: Vec<i64> = pool
                .iter()
                .copied()
                .filter(|n| (min..=max).contains(n))
                .collect();
            if rng.chance(85) && !fits.is_empty() {
                json!(fits[rng.below(fits.len())])
            } else {
                json!(pool[rng.below(pool.len())])
            }
        }
        Some("number") => json!(1.5),
        Some("boolean") => json!(rng.chance(50)),
        Some("null") => json!(null),
        _ => json!("anything"),
    }
}

/// Removes `null` values of properties that are not required, at every level the schema
/// describes.
fn drop_optional_nulls(value: &mut Value, schema: &Value, root: &Value) {
    let schema = if schema.get("$ref").is_some() {
        root
    } else {
        schema
    };
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = schema.get(key) {
            for member in members {
                // Only a member the value fits is followed.
                if jsonschema::is_valid(member, value) {
                    drop_optional_nulls(value, member, root);
                }
            }
        }
    }
    match value {
        Value::Object(object) => {
            let required = schema.get("required").and_then(Value::as_array);
            let is_required = |k: &str| required.is_some_and(|r| r.iter().any(|n| n == k));
            object.retain(|k, v| {
                !(v.is_null() && !is_required(k) && schema["properties"].get(k).is_some())
            });
            for (k, v) in object.iter_mut() {
                if let Some(property) = schema.get("properties").and_then(|p| p.get(k)) {
                    drop_optional_nulls(v, property, root);
                } else if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
                    drop_optional_nulls(v, values, root);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items").filter(|i| i.is_object()) {
                items
                    .iter_mut()
                    .for_each(|v| drop_optional_nulls(v, item, root));
            }
        }
        _ => {}
    }
}

#[test]
fn a_struct_written_as_an_array_is_read_but_not_advertised() {
    let args = json!({"action": ["noop"]});
    assert_eq!(
        Act::from_value(args.clone()).unwrap().action,
        stitch_tests::tools::Action::Noop
    );
    assert!(!validator::<Act>().is_valid(&args));
}

#[test]
fn an_explicit_null_for_an_option_is_accepted_but_not_advertised() {
    let args = json!({"paths": "a.png", "max_pixels": null});
    assert_eq!(ViewFile::from_value(args.clone()).unwrap().max_pixels, None);
    assert!(!validator::<ViewFile>().is_valid(&args));
    assert!(validator::<ViewFile>().is_valid(&json!({"paths": "a.png"})));
}

/// Every value that `from_value` accepts validates against the schema once coerced; returns
/// how many generated values were accepted.
fn accepted_values_validate<T: ToolArgs + std::fmt::Debug>(seed: u64, runs: usize) -> usize {
    let schema = T::input_schema();
    let v = validator::<T>();
    let mut rng = Rng(seed);
    let mut accepted = 0;
    let mut positional = 0;
    for _ in 0..runs {
        let args = sample(schema, schema, &mut rng, 0);
        if T::from_value(args.clone()).is_ok() {
            accepted += 1;
            let mut coerced = args.clone();
            T::coerce_value(&mut coerced).unwrap();
            // By design an `Option<T>` is advertised as `T`, not required (no `null`: strict
            // clients reject type arrays); serde also takes an explicit `null` there, which
            // means the same as leaving the key out. Compare on that form.
            drop_optional_nulls(&mut coerced, schema, schema);
            let errors: Vec<jsonschema::ValidationError> = v.iter_errors(&coerced).collect();
            // serde also reads a struct from an array, by position (here JSON text repaired
            // into an array at a struct's position); the schema advertises objects only.
            if !errors.is_empty() && errors.iter().all(|e| e.instance().is_array()) {
                positional += 1;
                continue;
            }
            let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            assert!(
                errors.is_empty(),
                "serde accepts {coerced} but the schema does not: {errors:?}"
            );
        }
    }
    // Positional structs stay the exception.
    assert!(
        positional * 10 <= accepted.max(10),
        "{positional} positional of {accepted}"
    );
    accepted
}

#[test]
fn what_serde_accepts_the_schema_accepts() {
    for (name, accepted) in [
        ("view_file", accepted_values_validate::<ViewFile>(1, 2000)),
        ("search", accepted_values_validate::<Search>(2, 2000)),
        ("edit", accepted_values_validate::<Edit>(3, 2000)),
        ("act", accepted_values_validate::<Act>(4, 3000)),
        ("tree", accepted_values_validate::<Tree>(5, 2000)),
        ("shapes", accepted_values_validate::<Shapes>(6, 4000)),
    ] {
        // The generator must reach real values, or the test proves nothing.
        assert!(
            accepted >= 20,
            "{name}: only {accepted} accepted values generated"
        );
        eprintln!("{name}: {accepted} accepted values validated");
    }
}

#[test]
fn what_serde_rejects_the_schema_rejects() {
    fn rejected<T: ToolArgs + std::fmt::Debug>(args: Value) {
        assert!(T::from_value(args.clone()).is_err(), "serde accepts {args}");
        assert!(
            !validator::<T>().is_valid(&args),
            "the schema accepts {args}"
        );
    }
    let many: Vec<String> = (0..21).map(|i| format!("{i}.png")).collect();
    rejected::<ViewFile>(json!({}));
    rejected::<ViewFile>(json!({"paths": 5}));
    rejected::<ViewFile>(json!({"paths": "a", "extra": 1}));
    rejected::<ViewFile>(json!({ "paths": many }));
    rejected::<ViewFile>(json!({"paths": []}));
    rejected::<ViewFile>(json!({"paths": "a", "max_pixels": -1}));
    rejected::<Search>(json!({"query": 5}));
    rejected::<Search>(json!({"query": "q", "maxHits": 70000}));
    rejected::<Search>(json!({"query": "q", "filters": {"kinds": ["socket"]}}));
    rejected::<Edit>(json!({"file": "f"}));
    rejected::<Edit>(json!({"file": "f", "rows": []}));
    rejected::<Edit>(
        json!({"file": "f", "rows": [{"line": 1, "names": ["1", "2", "3", "4", "5", "6", "7", "8", "9"]}]}),
    );
    rejected::<Act>(json!({"action": {"action": "fly"}}));
    rejected::<Act>(json!({"action": {"action": "copy", "to": "x"}}));
    rejected::<Act>(json!({"action": "noop"}));
    rejected::<Shapes>(json!({}));
}

#[test]
fn tool_definitions_in_three_formats() {
    let mcp = tool::mcp::<ViewFile>("view_file", None);
    assert_eq!(mcp["name"], "view_file");
    assert_eq!(
        mcp["description"],
        "Show one or more image or text files to the model."
    );
    assert_eq!(&mcp["inputSchema"], ViewFile::input_schema());
    let anthropic = tool::anthropic::<ViewFile>("view_file", Some("Look at files."));
    assert_eq!(anthropic["description"], "Look at files.");
    assert_eq!(&anthropic["input_schema"], ViewFile::input_schema());
    let openai = tool::openai::<Search>("search", None);
    assert_eq!(openai["type"], "function");
    assert_eq!(&openai["function"]["parameters"], Search::input_schema());
    assert!(openai["function"].get("strict").is_none());
}

/// Checks OpenAI's strict-mode rules on every object of a schema.
fn assert_strict(schema: &Value) {
    match schema {
        Value::Object(object) => {
            assert!(!object.contains_key("oneOf"), "oneOf in strict mode");
            assert!(!object.contains_key("default"), "default in strict mode");
            if object.get("type") == Some(&json!("object")) {
                assert_eq!(object["additionalProperties"], false, "{schema}");
                let properties = object["properties"].as_object().unwrap();
                let required: Vec<&str> = object["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap())
                    .collect();
                let names: Vec<&str> = properties.keys().map(String::as_str).collect();
                assert_eq!(required, names, "every property is required");
            }
            object.values().for_each(assert_strict);
        }
        Value::Array(items) => items.iter().for_each(assert_strict),
        _ => {}
    }
}

#[test]
fn strict_openai_tools_meet_strict_mode_rules() {
    let strict = tool::openai_strict::<Search>("search", None);
    assert_eq!(strict["function"]["strict"], true);
    let parameters = &strict["function"]["parameters"];
    assert_strict(parameters);
    // An optional property may be null instead.
    assert_eq!(
        parameters["properties"]["filters"]["anyOf"][1],
        json!({"type": "null"})
    );
    let view = tool::openai_strict::<ViewFile>("view_file", None);
    assert_strict(&view["function"]["parameters"]);
    let tree = tool::openai_strict::<Tree>("tree", None);
    assert_strict(&tree["function"]["parameters"]);
    assert_eq!(
        tree["function"]["parameters"]["properties"]["children"]["anyOf"][0]["items"],
        json!({"$ref": "#"})
    );
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BesideSchemars {
    paths: OneOrMany<String>,
    edit: stitch_runtime::Args<Edit>,
}

#[test]
fn schemars_sees_the_same_schema() {
    let generated = schemars::schema_for!(BesideSchemars).to_value();
    let paths = &generated["properties"]["paths"];
    let ours = &Generic::<String>::input_schema()["properties"]["items"];
    assert_eq!(paths, ours, "a OneOrMany field is described the same way");
    assert_eq!(
        &generated["properties"]["edit"],
        Edit::input_schema(),
        "a derived type, through Args, is inline"
    );
    assert!(generated.get("$defs").is_none(), "{generated}");
}

/// stitch reads a coerced value exactly as serde_json's own `Value` deserializer does: the
/// same verdict and the same message (stitch adds the path in front).
fn reads_as_serde_json<T: ToolArgs + PartialEq + std::fmt::Debug>(
    seed: u64,
    runs: usize,
) -> (usize, usize) {
    let schema = T::input_schema();
    let mut rng = Rng(seed);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..runs {
        let mut args = sample(schema, schema, &mut rng, 0);
        if let Err(walk) = T::coerce_value(&mut args) {
            // The check pass refuses a type error only where serde refuses it too.
            // (Item bounds are stitch's own: serde does not know them.)
            let bounds = |m: &str| m.ends_with(" item") || m.ends_with(" items");
            let typed = walk
                .issues()
                .iter()
                .all(|i| i.kind() == IssueKind::Invalid && !bounds(i.message()));
            if typed {
                assert!(serde_json::from_value::<T>(args.clone()).is_err(), "{args}");
                err += 1;
            }
            continue;
        }
        match (
            T::from_value(args.clone()),
            serde_json::from_value::<T>(args.clone()),
        ) {
            (Ok(ours), Ok(theirs)) => {
                assert_eq!(ours, theirs, "{args}");
                ok += 1;
            }
            (Err(ours), Err(theirs)) => {
                let message = ours.issues()[0].message();
                assert!(
                    message.ends_with(&theirs.to_string()),
                    "{args}: {message} vs {theirs}"
                );
                err += 1;
            }
            (ours, theirs) => panic!("{args}: stitch {ours:?}, serde_json {theirs:?}"),
        }
    }
    (ok, err)
}

#[test]
fn deserialization_agrees_with_serde_json() {
    for (name, (ok, err)) in [
        ("view_file", reads_as_serde_json::<ViewFile>(11, 1500)),
        ("search", reads_as_serde_json::<Search>(12, 1500)),
        ("edit", reads_as_serde_json::<Edit>(13, 1500)),
        ("act", reads_as_serde_json::<Act>(14, 1500)),
        ("tree", reads_as_serde_json::<Tree>(15, 1500)),
        ("shapes", reads_as_serde_json::<Shapes>(16, 3000)),
    ] {
        assert!(
            ok >= 20 && err >= 20,
            "{name}: {ok} accepted, {err} refused"
        );
    }
}

/// `from_json` (which deserializes plain text directly) and `from_value` (which always walks)
/// give the same answer: the same value, or the same issues.
fn surfaces_agree<T: ToolArgs + PartialEq + std::fmt::Debug>(
    seed: u64,
    runs: usize,
) -> (usize, usize) {
    let schema = T::input_schema();
    let mut rng = Rng(seed);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..runs {
        let args = sample(schema, schema, &mut rng, 0);
        let text = if rng.chance(50) {
            args.to_string()
        } else {
            serde_json::to_string_pretty(&args).unwrap()
        };
        match (T::from_json(&text), T::from_value(args.clone())) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{text}");
                ok += 1;
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "{text}");
                err += 1;
            }
            (a, b) => panic!("{text}: from_json {a:?}, from_value {b:?}"),
        }
    }
    (ok, err)
}

#[test]
fn from_json_and_from_value_agree() {
    for (name, (ok, err)) in [
        ("view_file", surfaces_agree::<ViewFile>(21, 1500)),
        ("search", surfaces_agree::<Search>(22, 1500)),
        ("edit", surfaces_agree::<Edit>(23, 1500)),
        ("act", surfaces_agree::<Act>(24, 1500)),
        ("tree", surfaces_agree::<Tree>(25, 1500)),
        ("shapes", surfaces_agree::<Shapes>(26, 3000)),
    ] {
        assert!(
            ok >= 20 && err >= 20,
            "{name}: {ok} accepted, {err} refused"
        );
    }
}
