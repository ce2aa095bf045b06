//! The reliability checks, shared by the fuzz targets (the `fuzz` crate depends on this
//! library), the corpus replay and the property tests of the `reliability` binary.
//!
//! Three properties, one entry point each for raw fuzz input:
//!
//! 1. [`from_json_input`]: any text through `T::from_json` of realistic tool types neither
//!    panics nor disagrees with its definition (parse, then `from_value`; `from_value` is
//!    `coerce_value` then deserialize), and JSON text gets the same answer compact,
//!    pretty-printed and with random whitespace between its tokens.
//! 2. [`text_list_input`]: any string at a `OneOrMany<String>` position is refused exactly when
//!    the oracle `serde_json::from_str::<Vec<String>>` plus the bounds says it is a list, on
//!    every surface, and is otherwise kept as one value, unchanged.
//! 3. [`coerce_input`]: any JSON through `T::coerce_value`: on `Err` the value is byte for byte
//!    what it was; on `Ok` a second call changes nothing, and the only changes are strings at
//!    structured positions replaced by what they parse to, and a declared field's `null`
//!    dropped (R8: a defaulted field left out); every other key is still there, in its order.
//!
//! A check returns `Err(description)` when a promise is broken; a panic inside stitch goes
//! through (the fuzzer reports it as a crash, a test as a failure).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Debug;
use std::hash::{BuildHasherDefault, DefaultHasher};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value};
use stitch_runtime::__private::{is_json_string, is_text_list, Bounds};
use stitch_runtime::{ArgsError, IssueKind, OneOrMany, ToolArgs, MAX_ISSUES};

use crate::reformat;
use crate::text_list_message;
use crate::tools::{Paths20, Rows3};

/// `Ok` or what went wrong.
pub type Outcome = Result<(), String>;

/// Hashed collections with a fixed hasher, so that two values read from the same arguments
/// print the same (the checks compare typed values by their `Debug` text).
pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<DefaultHasher>>;
/// A `HashSet` with a fixed hasher, as [`HashMap`].
pub type HashSet<T> = std::collections::HashSet<T, BuildHasherDefault<DefaultHasher>>;

// ---------------------------------------------------------------------------------------------
// Realistic tool types, and a description of each position for the coerce check.

/// A unit-variant enum: read from a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Fast,
    Slow,
}

/// One row of an edit: a number, one or more names, a list of tags.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Row {
    pub line: u32,
    #[serde(default)]
    #[stitch(max_items = 8)]
    pub names: Option<OneOrMany<String>>,
    #[serde(default)]
    pub tags: Vec<String>,
}

static ROW: Sch = Sch::Obj(
    &[
        ("line", Sch::Scalar),
        ("names", Sch::OneOrMany(&Sch::Str)),
        ("tags", Sch::Seq(&Sch::Str)),
    ],
    None,
);

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct FileMeta {
    #[stitch(min_items = 1)]
    pub tags: OneOrMany<String>,
    #[serde(default)]
    pub size: Option<u64>,
}

static FILE_META: Sch = Sch::Obj(
    &[("tags", Sch::OneOrMany(&Sch::Str)), ("size", Sch::Scalar)],
    None,
);

/// Nested rows and a map of structs.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Edit {
    pub rows: Vec<Row>,
    #[serde(default)]
    pub files: HashMap<String, FileMeta>,
}

static EDIT: Sch = Sch::Obj(
    &[("rows", Sch::Seq(&ROW)), ("files", Sch::Map(&FILE_META))],
    None,
);

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Filters {
    pub kinds: Vec<Mode>,
    #[serde(default)]
    pub max_size: Option<u64>,
    #[serde(default)]
    pub range: Option<(u32, u32)>,
}

static FILTERS: Sch = Sch::Obj(
    &[
        ("kinds", Sch::Seq(&Sch::Str)),
        ("max_size", Sch::Scalar),
        ("range", Sch::Tuple(&[Sch::Scalar, Sch::Scalar])),
    ],
    None,
);

/// `OneOrMany` of strings, numbers, enums and structs; a nested struct; a map; a `Value`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Search {
    pub query: String,
    #[serde(default)]
    #[stitch(max_items = 5)]
    pub tags: Option<OneOrMany<String>>,
    #[serde(default)]
    pub ids: Option<OneOrMany<u64>>,
    #[serde(default)]
    pub modes: Option<OneOrMany<Mode>>,
    #[serde(default)]
    #[stitch(max_items = 3)]
    pub rows: Option<OneOrMany<Row>>,
    #[serde(default)]
    pub filters: Option<Filters>,
    #[serde(default)]
    pub meta: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub extra: Value,
}

static SEARCH: Sch = Sch::Obj(
    &[
        ("query", Sch::Str),
        ("tags", Sch::OneOrMany(&Sch::Str)),
        ("ids", Sch::OneOrMany(&Sch::Scalar)),
        ("modes", Sch::OneOrMany(&Sch::Str)),
        ("rows", Sch::OneOrMany(&ROW)),
        ("filters", Sch::Ref(&FILTERS)),
        ("meta", Sch::Map(&Sch::Seq(&Sch::Str))),
        ("extra", Sch::Any),
    ],
    None,
);

/// Internally tagged.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    Stop,
    Move(Row),
    Edit {
        rows: Vec<Row>,
    },
    View {
        #[stitch(max_items = 20)]
        paths: OneOrMany<String>,
    },
}

static ACTION: Sch = Sch::Internal(
    "type",
    &[
        ("stop", Sch::Obj(&[], None)),
        ("move", Sch::Ref(&ROW)),
        ("edit", Sch::Obj(&[("rows", Sch::Seq(&ROW))], None)),
        (
            "view",
            Sch::Obj(&[("paths", Sch::OneOrMany(&Sch::Str))], None),
        ),
    ],
);

/// Externally tagged, with a unit variant (so a string is a variant name, kept).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum External {
    Stop,
    Move(Row),
    Swap(String, Vec<u32>),
    EditRows { rows: Vec<Row> },
}

static EXTERNAL: Sch = Sch::External(&[
    ("stop", Sch::Unit),
    ("move", Sch::Ref(&ROW)),
    ("swap", Sch::Tuple(&[Sch::Str, Sch::Seq(&Sch::Scalar)])),
    ("edit_rows", Sch::Obj(&[("rows", Sch::Seq(&ROW))], None)),
]);

/// Externally tagged, no unit variant (so a string is JSON text, repaired).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub enum Op {
    Add(Row),
    Remove { ids: Vec<u32> },
}

static OP: Sch = Sch::External(&[
    ("Add", Sch::Ref(&ROW)),
    ("Remove", Sch::Obj(&[("ids", Sch::Seq(&Sch::Scalar))], None)),
]);

/// Adjacently tagged.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Stop,
    Move(Row),
    Swap(String, Vec<u32>),
    Edit { rows: Vec<Row> },
}

static ADJACENT: Sch = Sch::Adjacent(
    "t",
    "c",
    &[
        ("Stop", Sch::Unit),
        ("Move", Sch::Ref(&ROW)),
        ("Swap", Sch::Tuple(&[Sch::Str, Sch::Seq(&Sch::Scalar)])),
        ("Edit", Sch::Obj(&[("rows", Sch::Seq(&ROW))], None)),
    ],
);

/// Untagged and string-bearing: a list of numbers written as text is refused.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum Pick {
    Ids(Vec<u32>),
    Row { names: OneOrMany<String> },
    Pair(u8, u8),
    Name(String),
}

static PICK: Sch = Sch::Untagged {
    strings: true,
    array: &Sch::Seq(&Sch::Scalar),
    object: &Sch::Obj(&[("names", Sch::OneOrMany(&Sch::Str))], None),
};

/// Untagged with no string member: JSON text is repaired.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum NoStrings {
    Ids(Vec<u32>),
    Row { names: OneOrMany<String> },
}

static NO_STRINGS: Sch = Sch::Untagged {
    strings: false,
    array: &Sch::Seq(&Sch::Scalar),
    object: &Sch::Obj(&[("names", Sch::OneOrMany(&Sch::Str))], None),
};

/// Every kind of enum in one call.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Call {
    pub action: Action,
    #[serde(default)]
    pub pick: Option<Pick>,
    #[serde(default)]
    pub ext: Option<External>,
    #[serde(default)]
    pub op: Option<Op>,
    #[serde(default)]
    pub adj: Option<Adjacent>,
    #[serde(default)]
    pub ns: Option<NoStrings>,
}

static CALL: Sch = Sch::Obj(
    &[
        ("action", Sch::Ref(&ACTION)),
        ("pick", Sch::Ref(&PICK)),
        ("ext", Sch::Ref(&EXTERNAL)),
        ("op", Sch::Ref(&OP)),
        ("adj", Sch::Ref(&ADJACENT)),
        ("ns", Sch::Ref(&NO_STRINGS)),
    ],
    None,
);

/// A recursive type, through a `Vec`, a map, a `Box` and a `OneOrMany`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Node {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub children: Vec<Node>,
    #[serde(default)]
    pub by_name: BTreeMap<String, Node>,
    #[serde(default)]
    pub next: Option<Box<Node>>,
    #[serde(default)]
    pub labels: Option<OneOrMany<String>>,
    #[serde(default)]
    pub kids: Option<OneOrMany<Box<Node>>>,
}

pub static NODE: Sch = Sch::Obj(
    &[
        ("name", Sch::Str),
        ("children", Sch::Seq(&NODE)),
        ("by_name", Sch::Map(&NODE)),
        ("next", Sch::Ref(&NODE)),
        ("labels", Sch::OneOrMany(&Sch::Str)),
        ("kids", Sch::OneOrMany(&NODE)),
    ],
    None,
);

/// [`Paths20`], the README's tool reduced to its bounded list.
static PATHS20: Sch = Sch::Obj(&[("paths", Sch::OneOrMany(&Sch::Str))], None);

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Inner {
    #[stitch(max_items = 3)]
    pub names: OneOrMany<String>,
}

/// Flattened struct and map sharing the object.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Flat {
    pub id: u32,
    #[serde(flatten)]
    pub inner: Inner,
    #[serde(flatten)]
    pub rest: HashMap<String, Vec<u32>>,
}

static FLAT: Sch = Sch::Obj(
    &[("id", Sch::Scalar), ("names", Sch::OneOrMany(&Sch::Str))],
    Some(&Sch::Seq(&Sch::Scalar)),
);

/// serde's names: `rename_all`, `rename`, `alias`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    pub file_paths: OneOrMany<String>,
    #[serde(default, alias = "tags")]
    pub tag_list: Vec<String>,
    #[serde(default, rename = "Meta")]
    pub meta: Option<FileMeta>,
}

static RENAMED: Sch = Sch::Obj(
    &[
        ("filePaths", Sch::OneOrMany(&Sch::Str)),
        ("tagList", Sch::Seq(&Sch::Str)),
        ("tags", Sch::Seq(&Sch::Str)),
        ("Meta", Sch::Ref(&FILE_META)),
    ],
    None,
);

/// The other standard types stitch walks.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Misc {
    #[serde(default)]
    pub deque: VecDeque<u32>,
    #[serde(default)]
    #[stitch(max_items = 3)]
    pub set: HashSet<String>,
    #[serde(default)]
    pub ordered: BTreeSet<i64>,
    #[serde(default)]
    pub boxed: Option<Box<[String]>>,
    #[serde(default)]
    pub pair: Option<[u8; 2]>,
    #[serde(default)]
    pub json_map: Map<String, Value>,
    #[serde(default)]
    pub letters: Option<OneOrMany<char>>,
    #[serde(default)]
    pub floats: Option<OneOrMany<f64>>,
    #[serde(default)]
    pub lists: Option<OneOrMany<Vec<String>>>,
    #[serde(default)]
    pub shared: Option<Arc<Row>>,
    #[serde(default)]
    pub flags: Option<OneOrMany<bool>>,
}

static MISC: Sch = Sch::Obj(
    &[
        ("deque", Sch::Seq(&Sch::Scalar)),
        ("set", Sch::Seq(&Sch::Str)),
        ("ordered", Sch::Seq(&Sch::Scalar)),
        ("boxed", Sch::Seq(&Sch::Str)),
        ("pair", Sch::Seq(&Sch::Scalar)),
        ("json_map", Sch::Map(&Sch::Any)),
        ("letters", Sch::OneOrMany(&Sch::Str)),
        ("floats", Sch::OneOrMany(&Sch::Scalar)),
        ("lists", Sch::OneOrMany(&Sch::Seq(&Sch::Str))),
        ("shared", Sch::Ref(&ROW)),
        ("flags", Sch::OneOrMany(&Sch::Scalar)),
    ],
    None,
);

/// What a position of a tool type is, as far as the coerce check needs to know: where a
/// string may be replaced by the JSON it holds (rule R1) and where nothing may change.
/// `Option<T>` is `T` (a `null` never changes anywhere).
#[derive(Debug)]
pub enum Sch {
    /// A string-like leaf: never changes.
    Str,
    /// A number, `bool`, `()`: never changes (R1 does not parse scalars).
    Scalar,
    /// A unit variant: never changes.
    Unit,
    /// `serde_json::Value`: never changes.
    Any,
    /// Another schema, by reference (for recursion and sharing).
    Ref(&'static Sch),
    /// A sequence of elements.
    Seq(&'static Sch),
    /// A tuple, item by item; items past the end never change.
    Tuple(&'static [Sch]),
    /// A map with values of one schema.
    Map(&'static Sch),
    /// A struct: its wire names, and the schema of the other keys (a flattened map), if any.
    /// Other keys never change.
    Obj(&'static [(&'static str, Sch)], Option<&'static Sch>),
    /// `OneOrMany<T>`.
    OneOrMany(&'static Sch),
    /// An externally tagged enum's variants, by wire name.
    External(&'static [(&'static str, Sch)]),
    /// An internally tagged enum: the tag, the variants (each an `Obj`, or a `Ref` to one).
    Internal(&'static str, &'static [(&'static str, Sch)]),
    /// An adjacently tagged enum: the tag, the content key, the variants' content.
    Adjacent(&'static str, &'static str, &'static [(&'static str, Sch)]),
    /// An untagged enum: whether a member reads strings, and the members that arrays and
    /// objects go to.
    Untagged {
        strings: bool,
        array: &'static Sch,
        object: &'static Sch,
    },
}

impl Sch {
    /// Whether a string is a value here: then a string is never parsed (rule R2).
    fn strings(&self) -> bool {
        match self {
            Sch::Str | Sch::Any => true,
            Sch::Ref(s) | Sch::OneOrMany(s) => s.strings(),
            Sch::External(variants) => variants.iter().any(|(_, s)| matches!(s, Sch::Unit)),
            Sch::Untagged { strings, .. } => *strings,
            _ => false,
        }
    }
}

fn find<'s>(entries: &'s [(&'static str, Sch)], key: &str) -> Option<&'s Sch> {
    entries
        .iter()
        .find(|(name, _)| *name == key)
        .map(|(_, s)| s)
}

mod coerce;
mod from_json;
mod repairs;
mod text_list;

pub use coerce::*;
pub use from_json::*;
pub use repairs::*;
pub use text_list::*;
