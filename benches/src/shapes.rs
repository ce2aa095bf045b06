//! Call shapes outside the corpus (`corpus.rs`), each a tool of its own, counted beside it by
//! `benches/instructions.sh`. Apart from the corpus so that the derive's token budget
//! (`stitch-derive/src/budget.rs`) keeps measuring the same types.

// The tools' fields exist for serde to fill; the measurements never read them back.
#![allow(dead_code)]

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{OneOrMany, ToolArgs};

/// One required string.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct OneField {
    name: String,
}

#[derive(Debug, Deserialize, ToolArgs)]
pub struct Level3 {
    id: u32,
    labels: Vec<String>,
}

#[derive(Debug, Deserialize, ToolArgs)]
pub struct Level2 {
    name: String,
    inner: Level3,
}

#[derive(Debug, Deserialize, ToolArgs)]
pub struct Level1 {
    enabled: bool,
    inner: Level2,
}

/// Objects nested four deep (the call's own object and three below it).
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Nested {
    title: String,
    inner: Level1,
}

/// Twenty flat fields, half of them optional: the shape of an OpenAI strict-mode tool, which
/// sends `null` for every optional parameter it leaves out.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Flat20 {
    query: String,
    path: String,
    limit: u32,
    offset: u32,
    recursive: bool,
    follow_links: bool,
    mode: String,
    encoding: String,
    depth: u16,
    verbose: bool,
    #[serde(default)]
    pattern: Option<String>,
    #[serde(default)]
    exclude: Option<Vec<String>>,
    #[serde(default)]
    max_bytes: Option<u64>,
    #[serde(default)]
    min_bytes: Option<u64>,
    #[serde(default)]
    after: Option<String>,
    #[serde(default)]
    before: Option<String>,
    #[serde(default)]
    owner: Option<String>,
    #[serde(default)]
    hidden: Option<bool>,
    #[serde(default)]
    tags: Option<OneOrMany<String>>,
    #[serde(default)]
    note: Option<String>,
}

fn flat_20(nulls: usize) -> Value {
    let mut call = json!({
        "query": "fn main", "path": "src", "limit": 50, "offset": 0, "recursive": true,
        "follow_links": false, "mode": "text", "encoding": "utf-8", "depth": 4, "verbose": false,
    });
    let optional = [
        "pattern",
        "exclude",
        "max_bytes",
        "min_bytes",
        "after",
        "before",
        "owner",
        "hidden",
        "tags",
        "note",
    ];
    let map = call.as_object_mut().expect("an object");
    for key in &optional[..nulls] {
        map.insert((*key).to_owned(), Value::Null);
    }
    call
}

/// One field, four levels of objects, and a twenty-field flat call with none, one or all of
/// its ten optional fields sent as `null`.
pub fn shapes() -> Vec<(&'static str, Value)> {
    vec![
        ("one_field", json!({"name": "main.rs"})),
        (
            "nested_4",
            json!({"title": "t", "inner": {"enabled": true, "inner": {"name": "n", "inner": {"id": 7, "labels": ["a", "b", "c"]}}}}),
        ),
        ("flat_20", flat_20(0)),
        ("flat_20_one_null", flat_20(1)),
        ("flat_20_nulls", flat_20(10)),
    ]
}

/// [`Flat20`] with its ten optional fields defaulted instead of `Option`s: a strict-mode call
/// sends them as `null`, which R8 takes as left out (serde alone refuses it).
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Flat20Defaults {
    query: String,
    path: String,
    limit: u32,
    offset: u32,
    recursive: bool,
    follow_links: bool,
    mode: String,
    encoding: String,
    depth: u16,
    verbose: bool,
    #[serde(default)]
    pattern: String,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    max_bytes: u64,
    #[serde(default)]
    min_bytes: u64,
    #[serde(default)]
    after: String,
    #[serde(default)]
    before: String,
    #[serde(default)]
    owner: String,
    #[serde(default)]
    hidden: bool,
    #[serde(default)]
    tags: OneOrMany<String>,
    #[serde(default)]
    note: String,
}

/// The strict-mode calls R8 repairs: twenty flat fields, all ten defaulted ones sent as `null`.
pub fn repaired() -> Vec<(&'static str, Value)> {
    vec![("flat_20_r8_nulls", flat_20(10))]
}
