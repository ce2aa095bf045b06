//! Round trip: every value valid under a schema stitch emits for a provider is accepted by
//! `from_value` of the same type (and by `from_json`, `coerce_value` and `Args<T>`), and every
//! `$ref` in an emitted schema resolves, with no `$anchor` written twice.
//!
//! Instances are generated FROM each emitted schema (a generator over the schema `Value`, so
//! a new provider format is one more row in [`surfaces`] or [`strict_surfaces`]), each checked
//! valid by the `jsonschema` crate first, so the generator is known to generate valid
//! instances, then read by stitch. Each schema is sampled in several modes, so that every
//! nullable is sent as `null` and as a value, and every optional property present and absent.

use std::collections::BTreeSet;

use serde::Deserialize;
use serde_json::{json, Map, Value};
use stitch_runtime::{tool, Args, ObjectArgs, OneOrMany, StrictArgs, ToolArgs};
use stitch_tests::tools::{Act, Edit, Search, ViewFile};

// ---- The types -------------------------------------------------------------------------

/// Options, every one defaulted.
#[derive(Debug, Default, PartialEq, Deserialize, ToolArgs)]
pub struct Options {
    /// Match case.
    #[serde(default)]
    case: bool,
    /// Tags.
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    depth: u8,
    limit: Option<u32>,
    #[serde(default)]
    inner: Inner,
}

#[derive(Debug, Default, PartialEq, Deserialize, ToolArgs)]
pub struct Inner {
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    on: bool,
}

/// Flattened, with a container default.
#[derive(Debug, Default, PartialEq, Deserialize, ToolArgs)]
#[serde(default)]
pub struct Extra {
    verbose: bool,
    level: u8,
}

/// Defaults at every level: nested, flattened, optional lists.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Defaults {
    query: String,
    #[serde(default)]
    options: Options,
    #[serde(default, alias = "caseSensitive")]
    case: bool,
    #[serde(default)]
    paths: Option<Vec<String>>,
    files: Option<OneOrMany<String>>,
    #[serde(default)]
    ids: Vec<Option<u16>>,
    #[serde(flatten)]
    extra: Extra,
    #[serde(skip_deserializing)]
    skipped: u8,
}

/// A recursive type.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Tree {
    name: String,
    #[serde(default)]
    children: Vec<Tree>,
    #[serde(default)]
    note: Option<String>,
}

/// A recursive type used several times, and nested.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Forest {
    left: Tree,
    right: Option<Tree>,
    #[serde(default)]
    more: Vec<Tree>,
}

/// Act on one file.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FileAct {
    /// Open a file.
    Open {
        path: String,
        #[serde(default)]
        line: u32,
    },
    /// Find files.
    Find {
        pattern: String,
        #[serde(default)]
        in_paths: Vec<String>,
    },
    /// Grow a tree.
    Grow(Tree),
    /// Stop.
    Stop,
}

/// Adjacently tagged.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Go { to: String },
    Wait(Options),
    Count(u8),
    Halt,
}

/// Externally tagged, every variant with data.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub enum External {
    Move {
        x: i32,
        #[serde(default)]
        fast: bool,
    },
    Say(String),
}

/// Untagged, every member an object.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum Either {
    ByName { name: String },
    ById { id: u64 },
}

/// Unions and sequences of every kind, inside a struct.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Mixed {
    act: FileAct,
    adjacent: Option<Adjacent>,
    #[serde(default)]
    external: Vec<External>,
    either: Either,
    #[stitch(max_items = 3)]
    many: OneOrMany<u32>,
    set: BTreeSet<i8>,
    letter: Option<char>,
    score: f64,
    #[serde(default)]
    pair: Option<(u8, String)>,
    #[serde(default)]
    any: Value,
}

// ---- The surfaces ------------------------------------------------------------------------

/// Each provider format's schema of `T`: add a format here.
pub(crate) fn surfaces<T: ObjectArgs>() -> Vec<(&'static str, Value)> {
    vec![
        ("input_schema", T::input_schema().clone()),
        (
            "INPUT_SCHEMA",
            serde_json::from_str(T::INPUT_SCHEMA).unwrap(),
        ),
        ("mcp", tool::mcp::<T>("t", None)["inputSchema"].clone()),
        (
            "anthropic",
            tool::anthropic::<T>("t", None)["input_schema"].clone(),
        ),
        (
            "openai",
            tool::openai::<T>("t", None)["function"]["parameters"].clone(),
        ),
    ]
}

/// The formats a strict provider mode can express, for the types it takes.
fn strict_surfaces<T: StrictArgs>() -> Vec<(&'static str, Value)> {
    let mut all = surfaces::<T>();
    all.push((
        "openai_strict",
        tool::openai_strict::<T>("t", None)["function"]["parameters"].clone(),
    ));
    all
}

/// The schema inside a tool definition: its parameters, whatever the provider calls them.
pub(crate) fn parameters(definition: &Value) -> Value {
    let function = definition.get("function").unwrap_or(definition);
    for key in [
        "parameters",
        "input_schema",
        "parametersJsonSchema",
        "parameters_json_schema",
    ] {
        if let Some(schema) = function.get(key) {
            return schema.clone();
        }
    }
    panic!("no schema in {definition}");
}

/// The formats every tool type takes, and those of the providers' subsets that take `T`.
pub(crate) fn open_formats<T: ObjectArgs>() -> Vec<(&'static str, Value)> {
    let mut all = surfaces::<T>();
    all.push((
        "openai_responses",
        parameters(&tool::openai_responses::<T>("t", None)),
    ));
    all.push((
        "anthropic_strict",
        parameters(&tool::anthropic_strict::<T>("t", None)),
    ));
    all.push((
        "gemini_json_schema",
        parameters(&tool::gemini_json_schema::<T>("t", None)),
    ));
    all
}

/// [`open_formats`] and OpenAI's strict modes, for a type they take (an object at the root).
pub(crate) fn strict_formats<T: StrictArgs>() -> Vec<(&'static str, Value)> {
    let mut all = open_formats::<T>();
    all.push((
        "openai_strict",
        parameters(&tool::openai_strict::<T>("t", None)),
    ));
    all.push((
        "openai_responses_strict",
        parameters(&tool::openai_responses_strict::<T>("t", None)),
    ));
    all
}

mod constraints;
mod generator;

use generator::*;

// ---- The properties ----------------------------------------------------------------------

/// Samples each schema of `T` in every mode; each instance must validate, then be read.
pub(crate) fn round_trip<T: ToolArgs + std::fmt::Debug>(
    schemas: Vec<(&'static str, Value)>,
    runs: usize,
) {
    for (surface, schema) in schemas {
        let validator = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("{surface}: not a valid schema: {e}\n{schema}"));
        // A root union a provider format writes as one object (`docs/rules.md#flattened-unions`)
        // is wider than the tool: the calls come from the type's own schema, and the format
        // must take every one of them.
        let merged = root_union(T::input_schema()) && !root_union(&schema);
        let source = if merged { T::input_schema() } else { &schema };
        let source_validator = jsonschema::validator_for(source).expect("a valid schema");
        let mut seen_null = false;
        for run in 0..runs {
            let mode = [Mode::Least, Mode::Nulls, Mode::Values, Mode::Random][run % 4];
            let mut generator = Gen {
                root: source,
                rng: Rng(0x9e37_79b9_7f4a_7c15 ^ ((run as u64 + 1) * 0x2545_f491)),
                mode,
            };
            let instance = generator.value(source, 0);
            seen_null |= instance.to_string().contains("null");
            assert!(
                source_validator.is_valid(&instance),
                "{surface}: the generator made an invalid instance {instance}\n{source}"
            );
            assert!(
                validator.is_valid(&instance),
                "{surface}: refuses {instance}, a call the type's schema takes\n{schema}"
            );
            let read = |what: &str, result: Result<(), String>| {
                if let Err(e) = result {
                    panic!("{surface} ({mode:?}): {what} refused {instance}: {e}\n{schema}");
                }
            };
            read(
                "from_value",
                T::from_value(instance.clone())
                    .map(drop)
                    .map_err(|e| e.to_string()),
            );
            read(
                "from_json",
                T::from_json(&instance.to_string())
                    .map(drop)
                    .map_err(|e| e.to_string()),
            );
            read(
                "Args<T>",
                serde_json::from_value::<Args<T>>(instance.clone())
                    .map(drop)
                    .map_err(|e| e.to_string()),
            );
            let mut coerced = instance.clone();
            read(
                "coerce_value",
                T::coerce_value(&mut coerced).map_err(|e| e.to_string()),
            );
            // What `coerce_value` leaves, serde reads.
            read(
                "serde after coerce_value",
                serde_json::from_value::<T>(coerced)
                    .map(drop)
                    .map_err(|e| e.to_string()),
            );
        }
        if surface == "openai_strict" {
            assert!(seen_null, "{surface}: no null was generated for {schema}");
        }
    }
}

/// Calls generated from `T`'s own schema (every mode), each one `from_value` accepts: what a
/// format that writes a root union as one object must take.
pub(crate) fn calls<T: ToolArgs>(runs: usize) -> Vec<Value> {
    let schema = T::input_schema();
    let mut out = Vec::new();
    for run in 0..runs {
        let mode = [Mode::Least, Mode::Nulls, Mode::Values, Mode::Random][run % 4];
        let mut generator = Gen {
            root: schema,
            rng: Rng(0x2545_f491 ^ ((run as u64 + 1) * 0x9e37_79b9)),
            mode,
        };
        let call = generator.value(schema, 0);
        if T::from_value(call.clone()).is_ok() {
            out.push(call);
        }
    }
    out
}

/// Whether `schema` has an `anyOf`, `oneOf` or `allOf` at its top.
pub(crate) fn root_union(schema: &Value) -> bool {
    ["anyOf", "oneOf", "allOf"]
        .iter()
        .any(|k| schema.get(k).is_some())
}

#[test]
fn every_value_a_schema_advertises_is_accepted() {
    round_trip::<ViewFile>(strict_surfaces::<ViewFile>(), 40);
    round_trip::<Search>(strict_surfaces::<Search>(), 80);
    round_trip::<Defaults>(strict_surfaces::<Defaults>(), 120);
    round_trip::<Options>(strict_surfaces::<Options>(), 40);
    round_trip::<Tree>(strict_surfaces::<Tree>(), 40);
    round_trip::<Forest>(strict_surfaces::<Forest>(), 80);
    round_trip::<Edit>(surfaces::<Edit>(), 80);
    round_trip::<Act>(surfaces::<Act>(), 120);
    round_trip::<FileAct>(surfaces::<FileAct>(), 80);
    round_trip::<Adjacent>(surfaces::<Adjacent>(), 40);
    round_trip::<External>(surfaces::<External>(), 40);
    round_trip::<Either>(surfaces::<Either>(), 40);
    round_trip::<Mixed>(surfaces::<Mixed>(), 200);
}

/// The strict-mode failure this closes: a defaulted field sent as `null`.
#[test]
fn strict_mode_nulls_are_the_defaults() {
    let parameters = &tool::openai_strict::<Defaults>("d", None)["function"]["parameters"];
    let all_null = json!({
        "query": "q", "options": null, "case": null, "paths": null, "files": null, "ids": null,
        "verbose": null, "level": null,
    });
    assert!(jsonschema::is_valid(parameters, &all_null));
    let read = Defaults::from_value(all_null).unwrap();
    assert_eq!(read.options, Options::default());
    assert_eq!((read.case, read.extra.verbose), (false, false));
    let nested = json!({"query": "q", "options": {"case": null, "tags": null, "depth": null,
        "limit": null, "inner": {"names": null, "on": true}}});
    let read = Defaults::from_value(nested).unwrap();
    assert_eq!(read.options.limit, None);
    assert!(read.options.inner.on);
    // In a variant's fields, under an alias, and in a flattened struct too.
    let open = FileAct::from_value(json!({"kind": "open", "path": "p", "line": null})).unwrap();
    assert_eq!(
        open,
        FileAct::Open {
            path: "p".to_owned(),
            line: 0
        }
    );
    let read = Defaults::from_json(r#"{"query":"q","caseSensitive":null,"level":null}"#).unwrap();
    assert_eq!((read.case, read.extra.level), (false, 0));
    // A key serde skips is left as sent (serde ignores it).
    let mut skipped = json!({"query": "q", "skipped": null});
    Defaults::coerce_value(&mut skipped).unwrap();
    assert_eq!(skipped, json!({"query": "q", "skipped": null}));
    // `Value` reads `null` itself: kept.
    let mut any = json!({"act": {"kind": "stop"}, "either": {"id": 1}, "many": 1, "set": [],
        "score": 1.0, "any": null});
    Mixed::coerce_value(&mut any).unwrap();
    assert_eq!(any["any"], Value::Null);
}

/// Every `$ref` of every emitted schema resolves, and no `$anchor` is written twice.
fn refs_resolve(schemas: Vec<(&'static str, Value)>) -> usize {
    let mut count = 0;
    for (surface, schema) in schemas {
        let mut found = Vec::new();
        anchors(&schema, &mut found);
        let mut names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(
            before,
            names.len(),
            "{surface}: an $anchor repeats in {schema}"
        );
        let mut refs = Vec::new();
        references(&schema, &mut refs);
        for reference in refs {
            assert!(
                resolve(&schema, &reference).is_some(),
                "{surface}: {reference} does not resolve in {schema}"
            );
            count += 1;
        }
    }
    count
}

#[test]
fn every_ref_resolves_and_no_anchor_repeats() {
    let mut count = 0;
    count += refs_resolve(strict_surfaces::<Tree>());
    count += refs_resolve(strict_surfaces::<Forest>());
    count += refs_resolve(strict_surfaces::<Defaults>());
    count += refs_resolve(strict_surfaces::<Search>());
    count += refs_resolve(surfaces::<FileAct>());
    count += refs_resolve(surfaces::<Mixed>());
    count += refs_resolve(surfaces::<Act>());
    assert!(count >= 20, "{count} references checked");

    // The cases that broke: a recursive type under a nested field, in strict mode, and one
    // used twice.
    let strict = &tool::openai_strict::<Forest>("f", None)["function"]["parameters"];
    assert_eq!(
        strict["properties"]["left"],
        json!({"$ref": "#/$defs/Tree", "description": "A recursive type."})
    );
    assert_eq!(
        strict["$defs"]["Tree"]["properties"]["children"]["anyOf"][0]["items"],
        json!({"$ref": "#/$defs/Tree"})
    );
    let plain = Forest::input_schema();
    assert_eq!(plain["properties"]["left"]["$anchor"], "Tree");
    assert_eq!(plain["properties"]["right"], json!({"$ref": "#Tree"}));
    assert_eq!(
        plain["properties"]["more"]["items"],
        json!({"$ref": "#Tree"})
    );
    // A recursive struct as an internally tagged variant's content: the plain struct, under
    // `$defs`, carries the anchor its self-references mean.
    let grow = &FileAct::input_schema()["oneOf"][2];
    assert_eq!(grow["$defs"]["Tree"]["$anchor"], "Tree");
    assert!(grow["$defs"]["Tree"]["properties"].get("kind").is_none());
    assert_eq!(grow["properties"]["kind"]["const"], "grow");
}

#[test]
fn enums_are_objects_at_the_root() {
    for (surface, schema) in surfaces::<FileAct>()
        .into_iter()
        .chain(surfaces::<Adjacent>())
        .chain(surfaces::<External>())
        .chain(surfaces::<Either>())
    {
        assert_eq!(schema["type"], "object", "{surface}: {schema}");
    }
    assert_eq!(FileAct::input_schema()["description"], "Act on one file.");
    assert_eq!(FileAct::DESCRIPTION, Some("Act on one file."));
    let mcp = tool::mcp::<FileAct>("act", None);
    assert_eq!(mcp["description"], "Act on one file.");
    assert_eq!(
        tool::anthropic::<Either>("e", Some("given"))["description"],
        "given"
    );
}

/// A unit-only enum.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub enum Speed {
    Fast,
    Slow,
}

/// An externally tagged enum with a unit variant (written as a string).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub enum StopOrGo {
    Stop,
    Go { to: String },
}

/// An untagged enum with a member that is not an object.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum NameOrTree {
    Name(String),
    Tree(Tree),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Ids(Vec<u32>);

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Point {
    at: (i32, i32),
}

/// Tuples deep inside.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Draw {
    points: Vec<Point>,
}

/// A map field.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Label {
    #[serde(default)]
    labels: std::collections::BTreeMap<String, String>,
}

/// A flattened map.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Open {
    name: String,
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, Value>,
}

/// The compile errors of `tool::*` (constants evaluated where a `tool` function is built for
/// the type; `compile_fail` doc tests on `tool::mcp` and `tool::openai_strict` show the build
/// failing), read here through the same check.
#[test]
fn a_type_that_cannot_be_a_tool_is_named_why() {
    use stitch_runtime::__private::{strict_error, tool_error};
    let not_object = |why: &str| {
        format!("stitch: a tool's arguments must be a JSON object (a struct with named fields, or an enum whose every variant is an object: internally or adjacently tagged, or externally tagged with data); this type is {why}")
    };
    assert_eq!(
        tool_error::<Speed>().unwrap(),
        not_object("a string (an enum whose variants are all units)")
    );
    assert_eq!(
        tool_error::<StopOrGo>().unwrap(),
        not_object("an enum with a unit variant, which serde writes as a string (tag the enum: `#[serde(tag = \"…\")]`)")
    );
    assert_eq!(
        tool_error::<NameOrTree>().unwrap(),
        not_object("an untagged enum with a member that is not an object")
    );
    assert_eq!(
        tool_error::<Ids>().unwrap(),
        not_object("an array (a sequence or a `OneOrMany`)")
    );
    for ok in [
        tool_error::<FileAct>(),
        tool_error::<Adjacent>(),
        tool_error::<External>(),
        tool_error::<Either>(),
        tool_error::<Label>(),
        tool_error::<Open>(),
        tool_error::<Draw>(),
    ] {
        assert_eq!(ok, None);
    }
    assert_eq!(strict_error::<Speed>(), tool_error::<Speed>());

    let strict = |what: &str, field: &str| {
        format!("stitch: `tool::openai_strict` cannot express {what} at field `{field}`; strict mode would accept other values than the type does, so give this tool the non-strict definition (`tool::openai`)")
    };
    assert_eq!(
        strict_error::<Draw>().unwrap(),
        strict("a tuple (`prefixItems`)", "at")
    );
    assert_eq!(
        strict_error::<Label>().unwrap(),
        strict(
            "a map (an object with open keys: strict mode closes every object)",
            "labels"
        )
    );
    assert_eq!(
        strict_error::<Mixed>().unwrap(),
        strict("a tuple (`prefixItems`)", "pair")
    );
    assert_eq!(
        strict_error::<Open>().unwrap(),
        "stitch: `tool::openai_strict` cannot express a flattened map (open keys beside the fields); strict mode would accept other values than the type does, so give this tool the non-strict definition (`tool::openai`)"
    );
    assert_eq!(
        strict_error::<FileAct>().unwrap(),
        "stitch: `tool::openai_strict` cannot take this type: its arguments are an enum: strict mode requires the root to be an object with properties, not `anyOf`; give it the non-strict definition (`tool::openai`)"
    );
    for ok in [
        strict_error::<Defaults>(),
        strict_error::<Forest>(),
        strict_error::<Search>(),
        strict_error::<ViewFile>(),
    ] {
        assert_eq!(ok, None);
    }
}

/// Which way.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Way {
    Up,
    Down,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Ways {
    ways: OneOrMany<Way>,
}

/// An enum's description changes what its schema says, not what kind of value it is.
#[test]
fn a_described_enum_is_still_a_string() {
    let err = Ways::from_value(json!({"ways": 5})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ways: invalid type: integer `5`, expected a string or an array of strings"
    );
    let ways = &Ways::input_schema()["properties"]["ways"];
    assert_eq!(
        ways["anyOf"][0],
        json!({"description": "Which way.", "type": "string", "enum": ["up", "down"]})
    );
}
