//! The provider formats of issue #12: OpenAI Responses (plain and strict), Anthropic strict tool
//! use, Gemini `parameters` and `parametersJsonSchema`. Golden files of the realistic tools; a
//! checker of each provider's documented subset (the allowed keywords written down below, with
//! the page each comes from), run over many shapes; and, where a format is narrower than the
//! tool (a recursive type unrolled), values generated from the emitted schema read by
//! `from_value`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Deserialize;
use serde_json::{json, Map, Value};
use stitch_runtime::{tool, ObjectArgs, OneOrMany, StrictArgs, ToolArgs};
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
fn definitions<T: ObjectArgs>(name: &str) -> Vec<(&'static str, Value)> {
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
fn golden_strict<T: StrictArgs>(name: &str) {
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
fn golden_not_strict<T: ObjectArgs>(name: &str, why: &str) {
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
    golden_strict::<stitch_tests::tools::Schedule>("schedule");
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

mod rewrites;
mod round_trips;
mod subsets;

// The helpers each part lends the others.
#[allow(unused_imports)]
use {rewrites::*, round_trips::*, subsets::*};
