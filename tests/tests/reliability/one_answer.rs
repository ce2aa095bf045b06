//! One answer on every surface (issue #11), as a property over generated calls.
//!
//! For each shape below (untagged enums with repairable members, `deserialize_with`/`with`,
//! `from`/`try_from`, `flatten`, the three tagged forms, `OneOrMany`, nested structs with
//! `deny_unknown_fields`) proptest generates arguments near the type: valid values, JSON text
//! at structured positions, lists written as text, wrong scalar types, missing and unknown
//! fields. Each call goes through
//! - `from_json` of the compact text, the pretty-printed text and the text with random JSON
//!   whitespace between its tokens;
//! - `from_value`, and `Args<T>` from the value and from each text;
//! - `coerce_value`, then `serde_json::from_value::<T>` of what it left;
//!
//! and all give one answer: equal values, or the same issues (path, kind, message). Where the
//! last surface refuses, it can only be compared as far as it knows: `coerce_value` refuses
//! with issues all among `from_value`'s, leaving the value as it was; serde's error (it has no
//! path) is one of `from_value`'s messages behind its path, when nothing was repaired (after a
//! repair stitch may describe the value as sent).
//!
//! Keys sent twice exist only in text: the same arguments written with a key twice are
//! compared across the text surfaces only (`checks::check_from_json`, which also checks a
//! duplicated declared field is refused only where serde refuses the text).

use std::collections::BTreeMap;
use std::fmt::Debug;

use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::strategy::{BoxedStrategy, Union};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use stitch_runtime::{Args, OneOrMany, ToolArgs};

use stitch_tests::checks;
use stitch_tests::reformat;
use stitch_tests::tools::{ManyOrOne, MetasOrNames, Nesting, NumOrStr};

use crate::properties::CASES;

// --- The shapes --------------------------------------------------------------------------------

// Untagged enums whose members repair differently.

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(crate) struct Unions {
    a: NumOrStr,
    #[serde(default)]
    b: Option<Nesting>,
    #[serde(default)]
    c: Option<MetasOrNames>,
    #[serde(default)]
    d: Option<ManyOrOne>,
}

pub(crate) static UNIONS: G = G::Obj(
    &[
        (
            "a",
            G::Untagged(&[G::Seq(&G::OneOrMany(&G::Num)), G::Seq(&G::Str)]),
            true,
        ),
        (
            "b",
            G::Untagged(&[G::Seq(&G::Seq(&G::Str)), G::Seq(&G::Str)]),
            false,
        ),
        ("c", G::Untagged(&[G::Seq(&META), G::Seq(&G::Str)]), false),
        ("d", G::Untagged(&[G::Seq(&G::Str), G::Str]), false),
    ],
    None,
);

pub(crate) static META: G = G::Obj(&[("x", G::Num, true)], None);

// What serde reads: `deserialize_with`/`with` fields, `from`/`try_from` containers.

/// `"a,b"` → `["a", "b"]`.
fn comma_separated<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let text = String::deserialize(d)?;
    Ok(text.split(',').map(str::to_owned).collect())
}

mod comma_list {
    use serde::Deserializer;

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        super::comma_separated(d)
    }
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(crate) struct RawSpan {
    start: u32,
    #[serde(default)]
    tags: Option<OneOrMany<String>>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(from = "RawSpan")]
pub(crate) struct Span {
    first: u32,
    labels: Vec<String>,
}

impl From<RawSpan> for Span {
    fn from(raw: RawSpan) -> Span {
        Span {
            first: raw.start,
            labels: raw.tags.map(OneOrMany::into_vec).unwrap_or_default(),
        }
    }
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(try_from = "RawSpan")]
pub(crate) struct CheckedSpan {
    first: u32,
    labels: Vec<String>,
}

impl TryFrom<RawSpan> for CheckedSpan {
    type Error = String;

    fn try_from(raw: RawSpan) -> Result<CheckedSpan, String> {
        if raw.start == 0 {
            return Err("start must be at least 1".to_owned());
        }
        Ok(CheckedSpan {
            first: raw.start,
            labels: raw.tags.map(OneOrMany::into_vec).unwrap_or_default(),
        })
    }
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(crate) struct Reads {
    #[serde(deserialize_with = "comma_separated")]
    cols: Vec<String>,
    #[serde(with = "comma_list", default)]
    keys: Vec<String>,
    span: Span,
    #[serde(default)]
    checked: Option<CheckedSpan>,
    #[serde(default)]
    ids: Vec<u32>,
}

pub(crate) static RAW_SPAN: G = G::Obj(
    &[
        ("start", G::Num, true),
        ("tags", G::OneOrMany(&G::Str), false),
    ],
    None,
);

pub(crate) static READS: G = G::Obj(
    &[
        ("cols", G::Str, true),
        ("keys", G::Str, false),
        ("span", G::Ref(&RAW_SPAN), true),
        ("checked", G::Ref(&RAW_SPAN), false),
        ("ids", G::Seq(&G::Num), false),
    ],
    None,
);

// `flatten`: a struct and a map share the object.

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Inner {
    #[stitch(max_items = 3)]
    names: OneOrMany<String>,
    #[serde(default)]
    span: Option<RawSpan>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(crate) struct Flat {
    id: u32,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    rest: BTreeMap<String, Vec<u32>>,
}

pub(crate) static FLAT: G = G::Obj(
    &[
        ("id", G::Num, true),
        ("names", G::OneOrMany(&G::Str), true),
        ("span", G::Ref(&RAW_SPAN), false),
    ],
    Some(&G::Seq(&G::Num)),
);

// Tagged enums, internally, adjacently and externally.

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub(crate) struct Row {
    line: u32,
    #[serde(default)]
    names: Option<OneOrMany<String>>,
    #[serde(default)]
    tags: Vec<String>,
}

pub(crate) static ROW: G = G::Obj(
    &[
        ("line", G::Num, true),
        ("names", G::OneOrMany(&G::Str), false),
        ("tags", G::Seq(&G::Str), false),
    ],
    None,
);

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind")]
enum Internal {
    Stop,
    Add {
        n: u32,
        #[serde(default)]
        paths: Vec<String>,
    },
    Move(Row),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Stop,
    Add { paths: OneOrMany<String> },
    Swap(String, Vec<u32>),
}

/// With a unit variant: a string is a variant's name.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "snake_case")]
enum External {
    Stop,
    Move(Row),
    EditRows { rows: Vec<Row> },
}

/// Without one: a string is JSON text, repaired.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
enum Op {
    Add(Row),
    Remove { ids: Vec<u32> },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(crate) struct Tagged {
    op: Internal,
    #[serde(default)]
    adj: Option<Adjacent>,
    #[serde(default)]
    ext: Option<External>,
    #[serde(default)]
    ops: Vec<Op>,
}

pub(crate) static TAGGED: G = G::Obj(
    &[
        (
            "op",
            G::Internal(
                "kind",
                &[
                    ("Stop", G::Unit),
                    (
                        "Add",
                        G::Obj(
                            &[("n", G::Num, true), ("paths", G::Seq(&G::Str), false)],
                            None,
                        ),
                    ),
                    ("Move", G::Ref(&ROW)),
                ],
            ),
            true,
        ),
        (
            "adj",
            G::Adjacent(
                "t",
                "c",
                &[
                    ("Stop", G::Unit),
                    (
                        "Add",
                        G::Obj(&[("paths", G::OneOrMany(&G::Str), true)], None),
                    ),
                    ("Swap", G::Tuple(&[G::Str, G::Seq(&G::Num)])),
                ],
            ),
            false,
        ),
        (
            "ext",
            G::External(&[
                ("stop", G::Unit),
                ("move", G::Ref(&ROW)),
                ("edit_rows", G::Obj(&[("rows", G::Seq(&ROW), true)], None)),
            ]),
            false,
        ),
        (
            "ops",
            G::Seq(&G::External(&[
                ("Add", G::Ref(&ROW)),
                ("Remove", G::Obj(&[("ids", G::Seq(&G::Num), true)], None)),
            ])),
            false,
        ),
    ],
    None,
);

// `OneOrMany` and nested structs that deny unknown fields.

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Leaf {
    flag: bool,
    #[serde(default)]
    paths: Vec<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Opts {
    langs: OneOrMany<String>,
    #[serde(default)]
    depth: Option<u8>,
    #[serde(default)]
    leaf: Option<Leaf>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub(crate) struct Query {
    query: String,
    opts: Opts,
    #[serde(default)]
    more: Vec<Opts>,
    #[serde(default)]
    max_hits: Option<u32>,
    #[serde(default)]
    #[stitch(max_items = 3)]
    tags: Option<OneOrMany<String>>,
}

pub(crate) static LEAF: G = G::Obj(
    &[("flag", G::Bool, true), ("paths", G::Seq(&G::Str), false)],
    None,
);

pub(crate) static OPTS: G = G::Obj(
    &[
        ("langs", G::OneOrMany(&G::Str), true),
        ("depth", G::Small, false),
        ("leaf", G::Ref(&LEAF), false),
    ],
    None,
);

pub(crate) static QUERY: G = G::Obj(
    &[
        ("query", G::Str, true),
        ("opts", G::Ref(&OPTS), true),
        ("more", G::Seq(&OPTS), false),
        ("max_hits", G::Num, false),
        ("tags", G::OneOrMany(&G::Str), false),
    ],
    None,
);

// --- Generating arguments near a type ------------------------------------------------------------

/// What a position of a shape reads, for generating values near it.
#[derive(Debug)]
pub(crate) enum G {
    /// A string.
    Str,
    /// An unsigned integer (`u32`).
    Num,
    /// A `u8`.
    Small,
    Bool,
    /// A unit variant's content: nothing.
    Unit,
    Ref(&'static G),
    Seq(&'static G),
    Tuple(&'static [G]),
    OneOrMany(&'static G),
    /// A struct: its fields (wire name, what it reads, required) and what other keys read (a
    /// flattened map), if anything.
    Obj(&'static [(&'static str, G, bool)], Option<&'static G>),
    External(&'static [(&'static str, G)]),
    Internal(&'static str, &'static [(&'static str, G)]),
    Adjacent(&'static str, &'static str, &'static [(&'static str, G)]),
    Untagged(&'static [G]),
}

/// Strings that mean something somewhere: JSON text, lists written as text, numbers and
/// variant names as text, commas for `comma_separated`.
const WORDS: &[&str] = &[
    "a",
    "a,b",
    "5",
    "",
    "[preview].png",
    "[\"a\"]",
    " [\"a\",\"b\"]",
    "[1]",
    "[[\"a\"]]",
    "{\"x\":1}",
    "[{\"x\":1}]",
    "{\"line\":1}",
    "null",
    "true",
    "stop",
    "Stop",
    "x y",
];

/// Keys no shape declares (under a flattened map: its keys).
const OTHER_KEYS: &[&str] = &["other", "extra", "x", "kind", "t"];

/// A value of the wrong type almost anywhere.
fn wrong() -> impl Strategy<Value = Value> {
    select(vec![
        Value::Null,
        Value::Bool(true),
        Value::from(-1),
        Value::from(1.5),
        Value::from(4_294_967_296u64),
        Value::from("x"),
        Value::from("5"),
        Value::Array(Vec::new()),
        Value::Object(Map::new()),
    ])
}

/// A list of words written as text, with or without whitespace.
fn text_list() -> impl Strategy<Value = Value> {
    (
        select(&["", " ", "\n"][..]),
        prop::collection::vec(select(WORDS), 0..4),
    )
        .prop_map(|(ws, words)| {
            Value::from(format!("{ws}{}", serde_json::to_string(&words).unwrap()))
        })
}

/// Values near what `g` reads: mostly [`valid`] ones (themselves made of values near their
/// parts), sometimes a wrong type, JSON text of a nearby value, or a list written as text.
pub(crate) fn near(g: &'static G) -> BoxedStrategy<Value> {
    let g: &'static G = match g {
        G::Ref(inner) => inner,
        g => g,
    };
    let scalar = matches!(g, G::Str | G::Num | G::Small | G::Bool | G::Unit);
    let mut options: Vec<(u32, BoxedStrategy<Value>)> = vec![
        (10, valid(g)),
        (1, wrong().boxed()),
        (1, text_list().boxed()),
    ];
    if !scalar {
        // JSON text of a value near this one, compact or pretty-printed.
        options.push((
            3,
            (valid(g), any::<bool>())
                .prop_map(|(v, pretty)| {
                    Value::String(if pretty {
                        serde_json::to_string_pretty(&v).unwrap()
                    } else {
                        v.to_string()
                    })
                })
                .boxed(),
        ));
    }
    Union::new_weighted(options).boxed()
}

/// A value `g` reads as it is (made of values near its parts, so not always valid).
fn valid(g: &'static G) -> BoxedStrategy<Value> {
    match g {
        G::Str => select(WORDS).prop_map(Value::from).boxed(),
        G::Num => prop_oneof![6 => 0u32..10, 1 => Just(0), 1 => Just(u32::MAX)]
            .prop_map(Value::from)
            .boxed(),
        G::Small => (0u32..300).prop_map(Value::from).boxed(),
        G::Bool => any::<bool>().prop_map(Value::from).boxed(),
        G::Unit => Just(Value::Null).boxed(),
        G::Ref(g) => valid(g),
        G::Seq(item) => prop::collection::vec(near(item), 0..4)
            .prop_map(Value::Array)
            .boxed(),
        G::Tuple(items) => items
            .iter()
            .map(near)
            .collect::<Vec<_>>()
            .prop_map(Value::Array)
            .boxed(),
        G::OneOrMany(item) => prop_oneof![
            near(item),
            prop::collection::vec(near(item), 0..5).prop_map(Value::Array),
        ]
        .boxed(),
        G::Obj(fields, rest) => object(fields, *rest).prop_map(Value::Object).boxed(),
        G::External(variants) => Union::new(variants.iter().map(|(name, content)| {
            let name = name.to_string();
            match content {
                G::Unit => Just(Value::String(name)).boxed(),
                content => near(content)
                    .prop_map(move |c| Value::Object(Map::from_iter([(name.clone(), c)])))
                    .boxed(),
            }
        }))
        .boxed(),
        G::Internal(tag, variants) => {
            Union::new(variants.iter().map(|(name, content)| {
                let content: &'static G = match content {
                    G::Ref(inner) => inner,
                    g => g,
                };
                let fields = match content {
                    G::Obj(fields, rest) => object(fields, *rest).boxed(),
                    _ => Just(Map::new()).boxed(),
                };
                // The tag where serde looks for it, sometimes not a variant's name.
                (
                    fields,
                    prop_oneof![4 => Just(name.to_string()), 1 => Just("Nope".to_owned())],
                )
                    .prop_map(move |(mut map, name)| {
                        map.insert(tag.to_string(), Value::String(name));
                        Value::Object(map)
                    })
            }))
            .boxed()
        }
        G::Adjacent(tag, content_key, variants) => {
            Union::new(variants.iter().map(|(name, content)| {
                let name = Value::from(*name);
                let content = match content {
                    G::Unit => Just(None).boxed(),
                    content => prop::option::weighted(0.9, near(content)).boxed(),
                };
                content.prop_map(move |content| {
                    let mut map = Map::from_iter([(tag.to_string(), name.clone())]);
                    if let Some(content) = content {
                        map.insert(content_key.to_string(), content);
                    }
                    Value::Object(map)
                })
            }))
            .boxed()
        }
        G::Untagged(members) => Union::new(members.iter().map(near)).boxed(),
    }
}

/// An object with the fields of a struct: a required one missing one time in ten, an optional
/// one half the time, and sometimes a key it does not declare.
fn object(
    fields: &'static [(&'static str, G, bool)],
    rest: Option<&'static G>,
) -> impl Strategy<Value = Map<String, Value>> {
    let entries: Vec<_> = fields
        .iter()
        .map(|(name, g, required)| {
            let p = if *required { 0.9 } else { 0.5 };
            prop::option::weighted(p, near(g)).prop_map(move |v| v.map(|v| (name.to_string(), v)))
        })
        .collect();
    let other = match rest {
        Some(rest) => near(rest),
        None => prop_oneof![near(&G::Str), wrong()].boxed(),
    };
    let unknown = prop::option::weighted(0.2, (select(OTHER_KEYS), other));
    (entries, unknown).prop_map(|(entries, unknown)| {
        let mut map: Map<String, Value> = entries.into_iter().flatten().collect();
        if let Some((key, value)) = unknown {
            map.insert(key.to_owned(), value);
        }
        map
    })
}

/// A key sent twice: which object (in pre-order) and which of its keys, the other value, and
/// whether it comes first.
#[derive(Debug, Clone)]
pub(crate) struct Twice {
    object: Index,
    key: Index,
    pub(crate) other: Option<Value>,
    first: bool,
}

pub(crate) fn twice() -> impl Strategy<Value = Twice> {
    (
        any::<Index>(),
        any::<Index>(),
        prop::option::of(prop_oneof![
            wrong(),
            text_list(),
            select(WORDS).prop_map(Value::from)
        ]),
        any::<bool>(),
    )
        .prop_map(|(object, key, other, first)| Twice {
            object,
            key,
            other,
            first,
        })
}

/// The compact text of `value` with one key of one object sent twice (the other value, or the
/// same again), or `None` when `value` holds no object with a key.
pub(crate) fn with_a_key_twice(value: &Value, twice: &Twice) -> Option<String> {
    fn objects(value: &Value) -> usize {
        match value {
            Value::Object(map) => {
                usize::from(!map.is_empty()) + map.values().map(objects).sum::<usize>()
            }
            Value::Array(items) => items.iter().map(objects).sum(),
            _ => 0,
        }
    }
    fn write(value: &Value, target: &mut Option<usize>, twice: &Twice, out: &mut String) {
        match value {
            Value::Object(map) if !map.is_empty() => {
                let here = *target == Some(0);
                *target = target.and_then(|n| n.checked_sub(1));
                let chosen = twice.key.index(map.len());
                out.push('{');
                let mut sep = "";
                for (i, (key, v)) in map.iter().enumerate() {
                    let key = Value::from(key.as_str()).to_string();
                    let mut entry = |v: &Value, out: &mut String| {
                        out.push_str(sep);
                        sep = ",";
                        out.push_str(&key);
                        out.push(':');
                        write(v, target, twice, out);
                    };
                    if here && i == chosen {
                        let other = twice.other.as_ref().unwrap_or(v);
                        if twice.first {
                            entry(other, out);
                            entry(v, out);
                        } else {
                            entry(v, out);
                            entry(other, out);
                        }
                    } else {
                        entry(v, out);
                    }
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(v, target, twice, out);
                }
                out.push(']');
            }
            v => out.push_str(&v.to_string()),
        }
    }
    let n = objects(value);
    if n == 0 {
        return None;
    }
    let mut out = String::new();
    write(value, &mut Some(twice.object.index(n)), twice, &mut out);
    Some(out)
}

// --- The property --------------------------------------------------------------------------

/// How a call ended, for the guard that the generator reaches every outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ending {
    /// Accepted as sent.
    Accepted,
    /// Accepted after a repair.
    Repaired,
    /// Refused by the walk for stitch's own reasons only: a list written as text, too deep, an
    /// array outside its bounds.
    Refused,
    /// Refused for a value that does not fit its type, in serde's words (a type error, a
    /// missing or unknown field): by the walk, which checks what serde would say, or by serde
    /// after it.
    TypeError,
}

/// Whether `issue` is a value that does not fit its type, in serde's words: an `Invalid`
/// issue other than an item count (`at most 3 items`, which is stitch's own).
fn type_error(issue: &stitch_runtime::Issue) -> bool {
    let message = issue.message();
    let reason = message
        .strip_prefix(issue.path())
        .and_then(|m| m.strip_prefix(": "))
        .unwrap_or(message);
    let count = (reason.starts_with("at least ") || reason.starts_with("at most "))
        && (reason.ends_with(" item") || reason.ends_with(" items"));
    issue.kind() == stitch_runtime::IssueKind::Invalid && !count
}

/// Every surface gives `args` one answer (see the module docs); returns how it ended.
fn one_answer<T>(args: &Value, seed: u64) -> Result<Ending, String>
where
    T: ToolArgs + PartialEq + Debug,
{
    let from_value = T::from_value(args.clone());
    let compact = args.to_string();
    let pretty = serde_json::to_string_pretty(args).unwrap();
    let spaced = reformat::spaced(&compact, seed);
    for (layout, text) in [
        ("compact", &compact),
        ("pretty", &pretty),
        ("spaced", &spaced),
    ] {
        let got = T::from_json(text);
        if got != from_value {
            return Err(format!(
                "from_json ({layout}) gave {got:?}, from_value {from_value:?}\n text {text}"
            ));
        }
        let through_args = serde_json::from_str::<Args<T>>(text);
        let agree = match (&through_args, &from_value) {
            (Ok(a), Ok(b)) => a.0 == *b,
            (Err(a), Err(b)) => a.to_string() == b.to_string(),
            _ => false,
        };
        if !agree {
            return Err(format!(
                "Args<T> from the text ({layout}) gave {through_args:?}, from_value {from_value:?}\n text {text}"
            ));
        }
    }
    let through_args = serde_json::from_value::<Args<T>>(args.clone());
    let agree = match (&through_args, &from_value) {
        (Ok(a), Ok(b)) => a.0 == *b,
        (Err(a), Err(b)) => a.to_string() == b.to_string(),
        _ => false,
    };
    if !agree {
        return Err(format!(
            "Args<T> from the value gave {through_args:?}, from_value {from_value:?}\n args {compact}"
        ));
    }
    let mut coerced = args.clone();
    match (T::coerce_value(&mut coerced), &from_value) {
        (Err(walk), Err(refusal)) => {
            if coerced != *args {
                return Err(format!(
                    "a refused coerce_value changed the value\n args {compact}"
                ));
            }
            if let Some(issue) = walk.issues().iter().find(|i| !refusal.issues().contains(i)) {
                return Err(format!(
                    "coerce_value's {issue:?} is not among from_value's {refusal:?}\n args {compact}"
                ));
            }
            Ok(if walk.issues().iter().any(type_error) {
                Ending::TypeError
            } else {
                Ending::Refused
            })
        }
        (Err(walk), Ok(read)) => Err(format!(
            "coerce_value refused ({walk:?}), from_value gave {read:?}\n args {compact}"
        )),
        (Ok(()), _) => {
            let repaired = coerced != *args;
            match (serde_json::from_value::<T>(coerced), &from_value) {
                (Ok(a), Ok(b)) if a == *b => Ok(if repaired {
                    Ending::Repaired
                } else {
                    Ending::Accepted
                }),
                (Err(e), Err(refusal)) => {
                    // serde's error has no path: it is one of stitch's messages behind one.
                    let e = e.to_string();
                    let found = refusal.issues().iter().any(|i| {
                        i.message() == e || i.message().ends_with(&format!(": {e}"))
                    });
                    if repaired || found {
                        Ok(Ending::TypeError)
                    } else {
                        Err(format!(
                            "coerce_value + serde refused with {e:?}, not among from_value's {refusal:?}\n args {compact}"
                        ))
                    }
                }
                (staged, _) => Err(format!(
                    "coerce_value + serde gave {staged:?}, from_value {from_value:?}\n args {compact}"
                )),
            }
        }
    }
}

/// The same with a key sent twice, on the text surfaces.
fn one_answer_twice<T>(args: &Value, twice: &Twice) -> Result<(), String>
where
    T: ToolArgs + PartialEq + Debug,
{
    let Some(text) = with_a_key_twice(args, twice) else {
        return Ok(());
    };
    checks::check_from_json::<T>(&text)?;
    let got = T::from_json(&text);
    let through_args = serde_json::from_str::<Args<T>>(&text);
    let agree = match (&through_args, &got) {
        (Ok(a), Ok(b)) => a.0 == *b,
        (Err(a), Err(b)) => a.to_string() == b.to_string(),
        _ => false,
    };
    if agree {
        Ok(())
    } else {
        Err(format!(
            "Args<T> from the text gave {through_args:?}, from_json {got:?}\n text {text}"
        ))
    }
}

macro_rules! shapes {
    ($($test:ident: $ty:ty = $g:expr;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(stitch_tests::cases(CASES)))]
            $(
                /// Every surface gives one answer for arguments near this shape, whatever
                /// their layout, and with a key sent twice, every text surface does.
                #[test]
                fn $test(args in near($g), seed in any::<u64>(), twice in twice()) {
                    if let Err(e) = one_answer::<$ty>(&args, seed) {
                        prop_assert!(false, "{}", e);
                    }
                    if let Err(e) = one_answer_twice::<$ty>(&args, &twice) {
                        prop_assert!(false, "{}", e);
                    }
                }
            )*
        }

        /// The generator reaches every ending for every shape (so the property is not passing
        /// on easy cases only), and writes keys twice.
        #[test]
        fn the_generator_reaches_every_ending_for_every_shape() {
            use proptest::strategy::ValueTree;
            use proptest::test_runner::TestRunner;

            $({
                let mut runner = TestRunner::deterministic();
                let strategy = (near($g), twice());
                let mut seen = BTreeMap::<Ending, u32>::new();
                let mut doubled = 0;
                for _ in 0..CASES {
                    let (args, twice) = strategy.new_tree(&mut runner).unwrap().current();
                    // A case that breaks the property is the property test's to report.
                    if let Ok(ending) = one_answer::<$ty>(&args, 0) {
                        *seen.entry(ending).or_default() += 1;
                    }
                    doubled += usize::from(with_a_key_twice(&args, &twice).is_some());
                }
                for ending in [Ending::Accepted, Ending::Repaired, Ending::Refused, Ending::TypeError] {
                    assert!(
                        seen.get(&ending).copied().unwrap_or(0) > 0,
                        "{}: no {ending:?} in {seen:?}",
                        stringify!($ty)
                    );
                }
                assert!(doubled > 0, "{}: no key sent twice", stringify!($ty));
            })*
        }
    };
}

shapes! {
    untagged_enums_with_repairable_members: Unions = &UNIONS;
    deserialize_with_and_from_fields: Reads = &READS;
    a_from_container_at_the_root: Span = &RAW_SPAN;
    a_try_from_container_at_the_root: CheckedSpan = &RAW_SPAN;
    flattened_struct_and_map: Flat = &FLAT;
    internally_adjacently_externally_tagged: Tagged = &TAGGED;
    one_or_many_in_structs_denying_unknown_fields: Query = &QUERY;
}
