//! Realistic tool argument types, shared by the integration tests: the README's `ViewFile` and
//! its siblings, then the smaller shapes several tests walk (a bare list of paths, a row of
//! names). A test that needs a variant of one declares it under a name of its own.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use stitch_runtime::{OneOrMany, ToolArgs};

/// Show one or more image or text files to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub struct ViewFile {
    /// A path, or a list of paths, relative to the workspace.
    #[stitch(min_items = 1, max_items = 20)]
    pub paths: OneOrMany<String>,
    /// Largest side of an image, in pixels.
    #[serde(default)]
    pub max_pixels: Option<u32>,
}

/// Which kinds of entry a search returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    /// Regular files.
    File,
    /// Directories.
    Dir,
    /// Symbolic links.
    Link,
}

/// Narrow a search.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToolArgs)]
pub struct Filters {
    /// Only these kinds of entry.
    #[serde(default)]
    pub kinds: Vec<EntryKind>,
    /// Only files with one of these extensions, without the dot.
    #[serde(default, rename = "ext")]
    pub extensions: Option<OneOrMany<String>>,
    /// Only files of at most this many bytes.
    #[serde(default)]
    pub max_bytes: Option<u64>,
}

/// Search the workspace for a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolArgs)]
#[serde(rename_all = "camelCase")]
pub struct Search {
    /// The text to look for.
    pub query: String,
    /// Labels for the search, one or many.
    #[serde(default)]
    pub tags: Option<OneOrMany<String>>,
    /// Narrow the search.
    #[serde(default)]
    pub filters: Filters,
    /// Stop after this many hits.
    #[serde(default)]
    pub max_hits: u16,
    /// Whether case matters.
    #[serde(default)]
    pub case_sensitive: bool,
}

/// One line of an edit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolArgs)]
pub struct Row {
    /// 1-based line number.
    pub line: u32,
    /// The names to mark on that line.
    #[stitch(max_items = 8)]
    pub names: OneOrMany<String>,
    /// Free-form notes about the row.
    #[serde(default)]
    pub notes: BTreeMap<String, String>,
}

/// Mark names on lines of a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolArgs)]
pub struct Edit {
    /// The file to edit.
    pub file: String,
    /// One row per line.
    #[stitch(min_items = 1)]
    pub rows: Vec<Row>,
    /// Check the edit without writing it.
    #[serde(default)]
    pub dry_run: bool,
}

/// What to do with files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolArgs)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Copy files into a folder.
    Copy {
        /// The files to copy.
        from: OneOrMany<String>,
        /// The folder to copy into.
        to: String,
    },
    /// Delete files.
    Delete {
        /// The files to delete.
        #[stitch(max_items = 50)]
        paths: OneOrMany<String>,
    },
    /// Apply an edit.
    Edit(Edit),
    /// Do nothing.
    Noop,
}

/// Run an action on files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolArgs)]
pub struct Act {
    /// The action to run.
    pub action: Action,
    /// Why, in a sentence.
    #[serde(default)]
    pub reason: Option<String>,
}

/// The README's tool reduced to its list: `paths`, one or many, with no bounds.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
pub struct Paths {
    /// A path, or a list of paths.
    pub paths: OneOrMany<String>,
}

/// [`Paths`] with the README's bound: at most 20 paths.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
pub struct Paths20 {
    /// A path, or a list of at most 20.
    #[stitch(max_items = 20)]
    pub paths: OneOrMany<String>,
}

/// One or more names, at most three.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
pub struct Names3 {
    /// A name, or a list of at most three.
    #[stitch(max_items = 3)]
    pub names: OneOrMany<String>,
}

/// A row whose names may be left out, and are at most three.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
pub struct Row3 {
    /// A name, or a list of at most three.
    #[stitch(max_items = 3)]
    pub names: Option<OneOrMany<String>>,
}

/// A list of [`Row3`]s, for paths through a sequence (`rows.1.names`).
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
pub struct Rows3 {
    /// The rows.
    pub rows: Vec<Row3>,
}

/// [`Row`] without its notes: a line number and at most eight names.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
pub struct RowWithoutNotes {
    /// 1-based line number.
    pub line: u32,
    /// The names on that line.
    #[stitch(max_items = 8)]
    pub names: OneOrMany<String>,
}

// Untagged enums whose members repair differently (issue #11, item 2): the member serde picks
// for the value as sent must win, untouched.

/// Numbers (one or many each) or strings: `["5"]` is `Strs` as sent.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum NumOrStr {
    /// Lists of numbers.
    Nums(Vec<OneOrMany<u32>>),
    /// Strings.
    Strs(Vec<String>),
}

/// Nested or flat lists of strings: `["[\"a\"]","b"]` is `Flat` as sent.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum Nesting {
    /// Lists of lists.
    Nested(Vec<Vec<String>>),
    /// One list.
    Flat(Vec<String>),
}

/// A small struct that refuses other keys.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// A number.
    pub x: u32,
}

/// Structs or strings: `["{\"x\":1}"]` is `Names` as sent.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum MetasOrNames {
    /// Structs.
    Metas(Vec<Meta>),
    /// Strings.
    Names(Vec<String>),
}

/// String-bearing: a list written as text is refused before any member is tried.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum ManyOrOne {
    /// A list.
    Many(Vec<String>),
    /// One string.
    One(String),
}

/// Run a job on a schedule.
// Every value constraint stitch knows, on the kinds of field they apply to
// (`docs/rules.md#constraints`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolArgs)]
pub struct Schedule {
    /// The job's name: lowercase letters, digits and dashes.
    #[stitch(min_length = 1, max_length = 32, pattern = "^[a-z0-9-]+$")]
    pub name: String,
    /// Seconds before the job is stopped.
    #[stitch(minimum = 1, maximum = 3600)]
    pub timeout_secs: u32,
    /// Minutes between runs, in steps of 5.
    #[stitch(exclusive_minimum = 0, multiple_of = 5)]
    #[serde(default)]
    pub every_minutes: Option<u16>,
    /// The share of the machine it may use.
    #[stitch(exclusive_minimum = 0, exclusive_maximum = 1)]
    #[serde(default)]
    pub share: Option<f64>,
    /// Labels, one or many, in lowercase.
    #[stitch(max_items = 5, min_length = 2, max_length = 16, pattern = "^[a-z]+$")]
    #[serde(default)]
    pub tags: Option<OneOrMany<String>>,
    /// Seconds to wait before each retry.
    #[stitch(maximum = 600)]
    #[serde(default)]
    pub retry_delays: Vec<u32>,
}
