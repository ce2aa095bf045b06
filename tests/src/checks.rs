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

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `after` is `before` with, at most, strings at structured positions of `schema` replaced by
/// the JSON they parse to, and that JSON in turn repaired (rule R1); nothing else changed, no
/// key added, dropped or reordered, no element added or dropped.
pub fn only_repairs(schema: &Sch, before: &Value, after: &Value) -> Outcome {
    if before == after {
        return Ok(());
    }
    let here = |what: String| Err(format!("at this position: {what}"));
    match (schema, before) {
        (Sch::Ref(s), _) => only_repairs(s, before, after),
        (Sch::Str | Sch::Scalar | Sch::Unit | Sch::Any, _) => here(format!(
            "{} changed at a position that takes no repair ({schema:?})",
            kind(before)
        )),
        (Sch::OneOrMany(item), Value::Array(a)) => items(a, after, |_| Some(item)),
        (Sch::OneOrMany(item), Value::String(_)) if item.strings() => {
            only_repairs(item, before, after)
        }
        (Sch::OneOrMany(_), Value::String(text)) => reparsed(schema, text, after),
        (Sch::OneOrMany(item), _) => only_repairs(item, before, after),
        (Sch::External(_), Value::String(_)) if schema.strings() => {
            here("a string changed at an enum with unit variants".to_owned())
        }
        (Sch::Untagged { strings: true, .. }, Value::String(_)) => {
            here("a string changed at a string-bearing untagged enum".to_owned())
        }
        (_, Value::String(text)) => reparsed(schema, text, after),
        (Sch::Seq(item), Value::Array(a)) => items(a, after, |_| Some(item)),
        (Sch::Tuple(list), Value::Array(a)) => items(a, after, |i| list.get(i)),
        (Sch::Map(v), Value::Object(a)) => entries(a, after, |_| Some(v)),
        (Sch::Obj(fields, rest), Value::Object(a)) => {
            entries(a, after, |k| find(fields, k).or(*rest))
        }
        (Sch::External(variants), Value::Object(a)) if a.len() == 1 => {
            entries(a, after, |k| find(variants, k))
        }
        (Sch::Internal(tag, variants), Value::Object(a)) => {
            match a
                .get(*tag)
                .and_then(Value::as_str)
                .and_then(|t| find(variants, t))
            {
                Some(variant) => only_repairs(variant, before, after),
                None => entries(a, after, |_| None),
            }
        }
        (Sch::Adjacent(tag, content, variants), Value::Object(a)) => {
            let variant = a
                .get(*tag)
                .and_then(Value::as_str)
                .and_then(|t| find(variants, t));
            entries(a, after, |k| if k == *content { variant } else { None })
        }
        (Sch::Untagged { array, .. }, Value::Array(_)) => only_repairs(array, before, after),
        (Sch::Untagged { object, .. }, Value::Object(_)) => only_repairs(object, before, after),
        _ => here(format!(
            "a {} changed where it is not walked ({schema:?})",
            kind(before)
        )),
    }
}

/// A string at a structured position: it must parse, and the result be repaired as the same type.
fn reparsed(schema: &Sch, text: &str, after: &Value) -> Outcome {
    match serde_json::from_str::<Value>(text) {
        Ok(parsed) => only_repairs(schema, &parsed, after)
            .map_err(|e| format!("(inside the JSON text {text:?}) {e}")),
        Err(_) => Err(format!(
            "the string {text:?}, not JSON, changed into {after}"
        )),
    }
}

fn items<'s>(
    before: &[Value],
    after: &Value,
    schema: impl Fn(usize) -> Option<&'s Sch>,
) -> Outcome {
    let Value::Array(after) = after else {
        return Err(format!("an array became a {}", kind(after)));
    };
    if before.len() != after.len() {
        return Err(format!(
            "an array of {} items became one of {}",
            before.len(),
            after.len()
        ));
    }
    for (i, (b, a)) in before.iter().zip(after).enumerate() {
        match schema(i) {
            Some(s) => only_repairs(s, b, a),
            None if a == b => Ok(()),
            None => Err("an item past a tuple's end changed".to_owned()),
        }
        .map_err(|e| format!("{i}.{e}"))?;
    }
    Ok(())
}

fn entries<'s>(
    before: &Map<String, Value>,
    after: &Value,
    schema: impl Fn(&str) -> Option<&'s Sch>,
) -> Outcome {
    let Value::Object(after) = after else {
        return Err(format!("an object became a {}", kind(after)));
    };
    // R8: a declared field sent as `null` may be dropped (a defaulted field left out); no
    // other key is dropped, added or reordered. (A required field's `null` is refused, so it
    // is never dropped on `Ok`.)
    let dropped =
        |key: &str, b: &Value| b.is_null() && schema(key).is_some() && !after.contains_key(key);
    let kept: Vec<(&String, &Value)> = before.iter().filter(|(k, b)| !dropped(k, b)).collect();
    if !kept.iter().map(|(k, _)| *k).eq(after.keys()) {
        let b: Vec<&String> = before.keys().collect();
        let a: Vec<&String> = after.keys().collect();
        return Err(format!("the keys {b:?} became {a:?}"));
    }
    for ((key, b), a) in kept.into_iter().zip(after.values()) {
        match schema(key) {
            Some(s) => only_repairs(s, b, a),
            None if a == b => Ok(()),
            None => Err("a key the type does not walk changed".to_owned()),
        }
        .map_err(|e| format!("{key}.{e}"))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Property 3: coerce_value.

/// Invariants of any refusal: 1 to `MAX_ISSUES` issues, each with a message that names its
/// path, text lists with the exact message, and the whole serializable.
pub fn check_error(err: &ArgsError) -> Outcome {
    let issues = err.issues();
    if issues.is_empty() || issues.len() > MAX_ISSUES {
        return Err(format!("{} issues in {err:?}", issues.len()));
    }
    for issue in issues {
        let message = issue.message();
        let ok = match issue.kind() {
            IssueKind::TextList => message == text_list_message(issue.path()),
            _ if issue.path().is_empty() => !message.is_empty(),
            _ => message.starts_with(&format!("{}: ", issue.path())),
        };
        if !ok {
            return Err(format!(
                "issue {issue:?}: its message does not name its path"
            ));
        }
    }
    if err.to_string().is_empty() || serde_json::to_string(err).is_err() {
        return Err(format!("{err:?} does not display or serialize"));
    }
    Ok(())
}

/// Property 3 for one type: see the module docs. Also: `from_value` is `coerce_value` then
/// deserialize, with the same error on a refusal.
pub fn check_coerce<T: ToolArgs + Debug>(schema: &Sch, original: &Value) -> Outcome {
    let name = std::any::type_name::<T>();
    let mut value = original.clone();
    let coerced = T::coerce_value(&mut value);
    match &coerced {
        Err(err) => {
            // Equal as values, and byte for byte as text.
            let bytes = |v: &Value| serde_json::to_vec(v).ok();
            if value != *original || bytes(&value) != bytes(original) {
                return Err(format!(
                    "{name}: coerce_value changed the value on Err ({err})\n before {original}\n after  {value}"
                ));
            }
            check_error(err).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(()) => {
            let mut again = value.clone();
            if let Err(err) = T::coerce_value(&mut again) {
                return Err(format!(
                    "{name}: a second coerce_value refused what the first accepted ({err})\n input {original}\n after {value}"
                ));
            }
            if again != value {
                return Err(format!(
                    "{name}: coerce_value is not idempotent\n input  {original}\n first  {value}\n second {again}"
                ));
            }
            only_repairs(schema, original, &value).map_err(|e| {
                format!("{name}: coerce_value changed more than repairs: {e}\n input {original}\n after {value}")
            })?;
        }
    }
    let direct = T::from_value(original.clone());
    match (&coerced, &direct) {
        (Err(a), Err(b)) if a == b => Ok(()),
        (Err(a), _) => Err(format!(
            "{name}: coerce_value refused ({a}) but from_value gave {direct:?}\n input {original}"
        )),
        (Ok(()), _) => {
            let staged = serde_json::from_value::<T>(value.clone());
            if staged.is_ok() == direct.is_ok() {
                Ok(())
            } else {
                Err(format!(
                    "{name}: from_value gave {direct:?} but coerce_value and serde gave {staged:?}\n input {original}"
                ))
            }
        }
    }
}

/// Property 3 for every tool type of this module.
pub fn check_coerce_all(value: &Value) -> Outcome {
    check_coerce::<Paths20>(&PATHS20, value)?;
    check_coerce::<Search>(&SEARCH, value)?;
    check_coerce::<Edit>(&EDIT, value)?;
    check_coerce::<Call>(&CALL, value)?;
    check_coerce::<Node>(&NODE, value)?;
    check_coerce::<Flat>(&FLAT, value)?;
    check_coerce::<Renamed>(&RENAMED, value)?;
    check_coerce::<Misc>(&MISC, value)?;
    // The enums as the arguments themselves.
    check_coerce::<Action>(&ACTION, value)?;
    check_coerce::<External>(&EXTERNAL, value)?;
    check_coerce::<Adjacent>(&ADJACENT, value)?;
    check_coerce::<Pick>(&PICK, value)?;
    Ok(())
}

/// Fuzz entry of property 3: bytes that are JSON text (others are skipped).
pub fn coerce_input(data: &[u8]) -> Outcome {
    match serde_json::from_slice::<Value>(data) {
        Ok(value) => check_coerce_all(&value),
        Err(_) => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// Property 1: from_json.

/// Property 1 for one type: `from_json` never panics, refuses text that is not JSON with one
/// issue at the root, refuses a declared field sent twice only where serde refuses the text
/// too, and otherwise gives exactly what `from_value` gives for the parsed value.
pub fn check_from_json<T: ToolArgs + Debug>(text: &str) -> Outcome {
    let name = std::any::type_name::<T>();
    let got = T::from_json(text);
    let parsed = match serde_json::from_str::<Value>(text) {
        Ok(parsed) => parsed,
        Err(e) => {
            let want = if e.to_string().starts_with("recursion limit exceeded") {
                IssueKind::TooDeep
            } else {
                IssueKind::Invalid
            };
            return match &got {
                Err(err)
                    // Text that is not JSON is refused at the root; text nested too deep at
                    // the path where it stops.
                    if err.issues().len() == 1
                        && (err.issues()[0].path().is_empty() || want == IssueKind::TooDeep)
                        && err.issues()[0].kind() == want =>
                {
                    check_error(err).map_err(|e| format!("{name}: {e}"))
                }
                _ => Err(format!(
                    "{name}: text that is not JSON ({e}) gave {got:?}\n text {text:?}"
                )),
            };
        }
    };
    // JSON text: the same call laid out otherwise gets the same answer, to the issue.
    same_across_layouts(text, &got).map_err(|e| format!("{name}: {e}"))?;
    // Text that sends a key twice: serde's answer for the text is the oracle, where nothing
    // is repaired (a `Value` keeps only the last, so `from_value` answers for another value).
    if crate::duplicates::sends_a_key_twice(text) {
        if let Some(outcome) = crate::duplicates::against_serde::<T>(text, &parsed, &got) {
            if let Err(err) = &got {
                check_error(err).map_err(|e| format!("{name}: {e}\n text {text:?}"))?;
            }
            return outcome.map_err(|e| format!("{name}: {e}"));
        }
    }
    // A declared field the text sends twice is refused, as serde refuses it; a `Value` keeps
    // only the last, so `from_value` cannot see it.
    if let Err(err) = &got {
        let duplicated = |issue: &stitch_runtime::Issue| {
            issue.kind() == IssueKind::Invalid
                && (issue.message().contains(": duplicate field `")
                    || issue
                        .message()
                        .ends_with(": invalid value: map, expected map with a single key")
                    || issue
                        .message()
                        .contains(": data did not match any variant of untagged enum"))
        };
        if err.issues().iter().any(duplicated) {
            return match serde_json::from_str::<T>(text) {
                Err(_) => check_error(err).map_err(|e| format!("{name}: {e}\n text {text:?}")),
                Ok(read) => Err(format!(
                    "{name}: from_json refused a duplicate serde accepts ({read:?}): {err:?}\n text {text:?}"
                )),
            };
        }
    }
    let mut coerced = parsed.clone();
    let staged = T::coerce_value(&mut coerced).map(|()| serde_json::from_value::<T>(coerced));
    let via_value = T::from_value(parsed);
    let same = match (&got, &via_value) {
        (Ok(a), Ok(b)) => format!("{a:?}") == format!("{b:?}"),
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    if !same {
        return Err(format!(
            "{name}: from_json gave {got:?} but from_value gave {via_value:?}\n text {text:?}"
        ));
    }
    match (&got, &staged) {
        // Accepted: exactly what serde reads from the repaired value, nothing lost.
        (Ok(a), Ok(Ok(b))) if format!("{a:?}") == format!("{b:?}") => Ok(()),
        // Refused by the walk: the same issues as coerce_value.
        (Err(a), Err(b)) if a == b => check_error(a),
        // Refused by serde after the walk.
        (Err(a), Ok(Err(_))) if a.issues().len() == 1 => check_error(a),
        _ => Err(format!(
            "from_json gave {got:?} but coerce_value and serde gave {staged:?}"
        )),
    }
    .map_err(|e| format!("{name}: {e}\n text {text:?}"))
}

/// `T::from_json` of `text` (JSON text, whose answer is `got`) compact, pretty-printed and
/// with random whitespace between its tokens (seeded by the text) gives `got` again: the
/// layout of a call never changes its answer (issue #11, item 1).
pub fn same_across_layouts<T: ToolArgs + Debug>(text: &str, got: &Result<T, ArgsError>) -> Outcome {
    use std::hash::{Hash, Hasher};

    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    let compact = reformat::compact(text);
    let pretty = reformat::pretty(&compact);
    let spaced = reformat::spaced(&compact, hasher.finish());
    for (layout, other) in [("compact", compact), ("pretty", pretty), ("spaced", spaced)] {
        let again = T::from_json(&other);
        let same = match (got, &again) {
            (Ok(a), Ok(b)) => format!("{a:?}") == format!("{b:?}"),
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        if !same {
            return Err(format!(
                "from_json gave {got:?} but {again:?} for the text laid out {layout}\n text {text:?}\n {layout} {other:?}"
            ));
        }
    }
    Ok(())
}

/// Property 1 for every tool type of this module.
pub fn check_from_json_all(text: &str) -> Outcome {
    check_from_json::<Paths20>(text)?;
    check_from_json::<Search>(text)?;
    check_from_json::<Edit>(text)?;
    check_from_json::<Call>(text)?;
    check_from_json::<Node>(text)?;
    check_from_json::<Flat>(text)?;
    check_from_json::<Renamed>(text)?;
    check_from_json::<Misc>(text)?;
    check_from_json::<Action>(text)?;
    check_from_json::<External>(text)?;
    check_from_json::<Adjacent>(text)?;
    check_from_json::<Pick>(text)?;
    // Flatten chains, every tagging, untagged members with maps (issue 18).
    check_from_json::<crate::shapes::Chain>(text)?;
    check_from_json::<crate::shapes::FlatTagged>(text)?;
    check_from_json::<crate::shapes::Top>(text)?;
    check_from_json::<crate::shapes::Loose>(text)?;
    Ok(())
}

/// Fuzz entry of property 1: any bytes (not UTF-8 ones are read lossily, as a server would
/// have to).
pub fn from_json_input(data: &[u8]) -> Outcome {
    check_from_json_all(&String::from_utf8_lossy(data))
}

// ---------------------------------------------------------------------------------------------
// Property 2: the text-list verdict.

macro_rules! names_type {
    ($($(#[$attr:meta])* $name:ident, $min:expr, $max:expr;)*) => {$(
        #[derive(Debug, PartialEq, Deserialize, ToolArgs)]
        pub struct $name {
            $(#[$attr])*
            pub names: OneOrMany<String>,
        }

        impl $name {
            pub const BOUNDS: Bounds = Bounds::new($min, $max);
        }
    )*};
}

names_type! {
    Names, None, None;
    #[stitch(max_items = 0)] Names0, None, Some(0);
    #[stitch(max_items = 1)] Names1, None, Some(1);
    #[stitch(max_items = 3)] Names3, None, Some(3);
    #[stitch(min_items = 1)] NamesMin1, Some(1), None;
    #[stitch(min_items = 2, max_items = 3)] Names2To3, Some(2), Some(3);
    #[stitch(max_items = 20)] Names20, None, Some(20);
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Picker {
    pub pick: Pick,
}

/// The oracle's first condition: the text opens with `[` after JSON whitespace.
pub fn starts_with_bracket(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('[')
}

/// The oracle of rule R3 for string items.
pub fn oracle(text: &str, bounds: Bounds) -> bool {
    starts_with_bracket(text)
        && serde_json::from_str::<Vec<String>>(text).is_ok_and(|v| bounds.contains(v.len()))
}

/// One surface's answer for `args`: refused at exactly `path` as a text list when `refused`,
/// otherwise accepted with the string kept (`kept`).
fn verdict<T: ToolArgs + Debug>(
    args: &Value,
    path: &str,
    refused: bool,
    kept: impl Fn(&T) -> bool,
) -> Outcome {
    let name = std::any::type_name::<T>();
    let text = args.to_string();
    for (surface, got) in [
        ("from_value", T::from_value(args.clone())),
        ("from_json", T::from_json(&text)),
    ] {
        let ok = match &got {
            Ok(v) => !refused && kept(v),
            Err(e) => {
                refused
                    && e.issues().len() == 1
                    && e.issues()[0].kind() == IssueKind::TextList
                    && e.issues()[0].path() == path
                    && e.to_string() == text_list_message(path)
            }
        };
        if !ok {
            return Err(format!(
                "{name}::{surface}: the oracle says refused = {refused}, got {got:?}\n args {args}"
            ));
        }
    }
    let mut value = args.clone();
    let got = T::coerce_value(&mut value);
    if got.is_err() != refused || value != *args {
        return Err(format!(
            "{name}::coerce_value: the oracle says refused = {refused}, got {got:?}, value {value}\n args {args}"
        ));
    }
    Ok(())
}

fn one(text: &str) -> OneOrMany<String> {
    OneOrMany::One(text.to_owned())
}

macro_rules! names_verdicts {
    ($text:expr; $($name:ident),*) => {{
        let text: &str = $text;
        $(
            verdict::<$name>(
                &Value::Object(Map::from_iter([("names".to_owned(), Value::from(text))])),
                "names",
                oracle(text, $name::BOUNDS),
                |v| v.names == one(text),
            )?;
        )*
    }};
}

/// Property 2: the fast check on `text` with `bounds` equals the oracle, directly and with
/// serde_json's own element check; and through every surface of the `OneOrMany<String>` types
/// above (bounds from their attributes), a nested row, and a string-bearing untagged enum.
pub fn check_text_list(text: &str, bounds: Bounds) -> Outcome {
    let want = oracle(text, bounds);
    let fast = is_text_list(text, is_json_string, bounds);
    let serde_elements = is_text_list(text, |e| serde_json::from_str::<String>(e).is_ok(), bounds);
    if fast != want || serde_elements != want {
        return Err(format!(
            "is_text_list({text:?}, {bounds:?}) = {fast} (serde elements: {serde_elements}), the oracle says {want}"
        ));
    }
    names_verdicts!(text; Names, Names0, Names1, Names3, NamesMin1, Names2To3, Names20);
    let rows = serde_json::json!({"rows": [{"names": "plain"}, {"names": text}]});
    verdict::<Rows3>(
        &rows,
        "rows.1.names",
        oracle(text, Bounds::new(None, Some(3))),
        |v| v.rows.len() == 2 && v.rows[1].names == Some(one(text)),
    )?;
    let refused = starts_with_bracket(text) && serde_json::from_str::<Vec<u32>>(text).is_ok();
    verdict::<Picker>(&serde_json::json!({ "pick": text }), "pick", refused, |v| {
        v.pick == Pick::Name(text.to_owned())
    })?;
    Ok(())
}

/// The bounds a fuzz input's first two bytes stand for: a byte with its high bit clear is no
/// bound, otherwise its low three bits are the bound (so printable seeds have no bounds).
pub fn bounds_of(min: u8, max: u8) -> Bounds {
    let bound = |b: u8| (b & 0x80 != 0).then_some(usize::from(b & 7));
    Bounds::new(bound(min), bound(max))
}

/// Fuzz entry of property 2: two bytes of bounds, then the string (read lossily).
pub fn text_list_input(data: &[u8]) -> Outcome {
    let (bounds, text) = match data {
        [min, max, text @ ..] => (bounds_of(*min, *max), text),
        _ => (Bounds::NONE, data),
    };
    check_text_list(&String::from_utf8_lossy(text), bounds)
}
