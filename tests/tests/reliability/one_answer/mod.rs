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

mod generate;

pub(crate) use generate::*;

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
