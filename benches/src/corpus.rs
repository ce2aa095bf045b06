//! The corpus every speed measurement runs: four realistic tools and their calls, well-formed
//! and not, shared by the criterion benches (`benches/perf.rs`) and the instruction counts
//! (`src/bin/instructions.rs`, `benches/instructions.sh`).

// The tools' fields exist for serde to fill; the measurements never read them back.
#![allow(dead_code)]

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{OneOrMany, ToolArgs};

/// Show one or more files.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct ViewFile {
    #[stitch(max_items = 20)]
    paths: OneOrMany<String>,
}

#[derive(Debug, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    File,
    Dir,
}

#[derive(Debug, Default, Deserialize, ToolArgs)]
pub struct Filters {
    #[serde(default)]
    kinds: Vec<Kind>,
    #[serde(default)]
    extensions: Option<OneOrMany<String>>,
    #[serde(default)]
    max_bytes: Option<u64>,
}

/// Search for a text.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Search {
    query: String,
    #[serde(default)]
    tags: Option<OneOrMany<String>>,
    #[serde(default)]
    filters: Filters,
    #[serde(default)]
    case_sensitive: bool,
}

#[derive(Debug, Deserialize, ToolArgs)]
pub struct Row {
    line: u32,
    #[stitch(max_items = 8)]
    names: OneOrMany<String>,
}

/// Mark names on lines.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Edit {
    file: String,
    rows: Vec<Row>,
}

#[derive(Debug, Deserialize, ToolArgs)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Copy {
        from: OneOrMany<String>,
        to: String,
    },
    Delete {
        #[stitch(max_items = 50)]
        paths: OneOrMany<String>,
    },
    Noop,
}

/// Act on files.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Act {
    action: Action,
    #[serde(default)]
    reason: Option<String>,
}

pub fn edit_rows(text_lists: bool) -> Value {
    let rows: Vec<Value> = (0..50)
        .map(|i| {
            let names = match (i % 3, text_lists) {
                (0, _) => json!(format!("name{i}.png")),
                (1, false) => json!(["a.png", "[b].png", "c.png"]),
                (1, true) => json!("[\"a.png\", \"b.png\"]"),
                _ => json!(["only.png"]),
            };
            json!({"line": i + 1, "names": names})
        })
        .collect();
    json!({"file": "src/lib.rs", "rows": rows})
}

/// The corpus: realistic well-formed calls, by tool.
pub fn well_formed() -> Vec<(&'static str, Value)> {
    let twenty: Vec<String> = (0..20).map(|i| format!("img/photo-{i:02}.png")).collect();
    vec![
        ("view_file_1", json!({"paths": "img/photo.png"})),
        ("view_file_20", json!({ "paths": twenty })),
        (
            "search",
            json!({"query": "fn main", "tags": ["rust", "[wip]"], "filters": {"kinds": ["file"], "extensions": ["rs", "toml"], "max_bytes": 100000}, "case_sensitive": true}),
        ),
        ("edit_50", edit_rows(false)),
        (
            "action",
            json!({"action": {"action": "copy", "from": ["a.txt", "b.txt"], "to": "backup/"}, "reason": "keep a copy"}),
        ),
    ]
}

/// Calls carrying lists written as text (refused) and JSON text to repair.
pub fn malformed() -> Vec<(&'static str, Value)> {
    vec![
        (
            "view_file_text_list",
            json!({"paths": "[\"a.png\", \"b.png\"]"}),
        ),
        (
            "search_repair",
            json!({"query": "fn main", "filters": "{\"kinds\": [\"file\"], \"extensions\": \"[\\\"rs\\\"]\"}"}),
        ),
        ("edit_50_text_lists", edit_rows(true)),
        (
            "action_repair",
            json!({"action": "{\"action\": \"delete\", \"paths\": [\"a\", \"b\"]}"}),
        ),
    ]
}
