#![deny(warnings)]
//! The derive's output names nothing by a bare path: with the prelude's names, the crates'
//! names and the runtime's own item names all shadowed here, and every warning an error,
//! each kind of input still compiles and behaves. (Primitive names, `str`, `bool`, `usize`,
//! are not shadowed: serde_derive's own output names them bare.)

// Prelude types and variants.
#[allow(dead_code)]
type Result = ();
#[allow(dead_code)]
type Option = ();
#[allow(dead_code)]
struct Some;
#[allow(dead_code)]
struct None;
#[allow(dead_code)]
struct Ok;
#[allow(dead_code)]
struct Err;
#[allow(dead_code)]
struct Vec;
#[allow(dead_code)]
struct String;
#[allow(dead_code)]
struct Box;
#[allow(dead_code)]
struct ToString;
#[allow(dead_code)]
struct Into;
#[allow(dead_code)]
struct From;
#[allow(dead_code)]
struct Iterator;
#[allow(dead_code)]
struct IntoIterator;
#[allow(dead_code)]
struct Fn;
#[allow(dead_code)]
struct FnOnce;
#[allow(dead_code)]
struct Sized;
#[allow(dead_code)]
struct Drop;
#[allow(dead_code)]
struct Default;
#[allow(dead_code)]
struct Clone;
#[allow(dead_code)]
struct Copy;
#[allow(dead_code)]
struct Send;
#[allow(dead_code)]
struct Sync;
#[allow(dead_code)]
struct PartialEq;
#[allow(dead_code)]
struct Eq;
#[allow(dead_code)]
struct Debug;
#[allow(dead_code)]
struct AsRef;
#[allow(dead_code)]
struct AsMut;
#[allow(dead_code)]
struct ToOwned;
#[allow(dead_code)]
struct Deserialize;
#[allow(dead_code)]
struct Deserializer;
#[allow(dead_code)]
struct Formatter;
#[allow(dead_code)]
struct PhantomData;
#[allow(dead_code)]
struct Unpin;
#[allow(dead_code)]
struct ExactSizeIterator;
#[allow(dead_code)]
struct DoubleEndedIterator;
#[allow(dead_code)]
struct Extend;
#[allow(dead_code)]
struct PartialOrd;
#[allow(dead_code)]
struct Ord;

// Crate names: a path relative to the current module would find these.
#[allow(dead_code)]
mod core {}
#[allow(dead_code)]
mod std {}
#[allow(dead_code)]
mod alloc {}
#[allow(dead_code)]
mod serde {}
#[allow(dead_code)]
mod serde_json {}
#[allow(dead_code)]
mod stitch_runtime {}
#[allow(dead_code)]
mod _stitch {}
#[allow(dead_code)]
mod __private {}
#[allow(dead_code)]
mod _serde {}

// The names the output reaches through the runtime.
#[allow(dead_code)]
struct Coerce;
#[allow(dead_code)]
struct ToolArgs;
#[allow(dead_code)]
struct Cx;
#[allow(dead_code)]
struct Path;
#[allow(dead_code)]
struct Bounds;
#[allow(dead_code)]
struct Shape;
#[allow(dead_code)]
struct Kind;
#[allow(dead_code)]
struct Value;
#[allow(dead_code)]
struct Map;
#[allow(dead_code)]
struct DeserializeOwned;

// Macros the output might call without a path.
#[allow(unused_macros)]
macro_rules! matches {
    ($($tt:tt)*) => {
        ::core::compile_error!("a bare `matches!`")
    };
}
#[allow(unused_macros)]
macro_rules! panic {
    ($($tt:tt)*) => {
        ::core::compile_error!("a bare `panic!`")
    };
}
#[allow(unused_macros)]
macro_rules! unreachable {
    ($($tt:tt)*) => {
        ::core::compile_error!("a bare `unreachable!`")
    };
}

/// A nested struct.
#[derive(
    ::core::fmt::Debug, ::core::cmp::PartialEq, ::serde::Deserialize, ::stitch_runtime::ToolArgs,
)]
struct Inner {
    names: ::std::vec::Vec<::std::string::String>,
}

/// Flattened into [`Everything`].
#[derive(
    ::core::fmt::Debug, ::core::cmp::PartialEq, ::serde::Deserialize, ::stitch_runtime::ToolArgs,
)]
struct Extra {
    #[serde(default)]
    ids: ::std::vec::Vec<u32>,
}

/// Every kind of field.
#[derive(::core::fmt::Debug, ::serde::Deserialize, ::stitch_runtime::ToolArgs)]
#[serde(rename_all = "camelCase")]
struct Everything {
    #[stitch(min_items = 1, max_items = 3)]
    paths: ::stitch_runtime::OneOrMany<::std::string::String>,
    #[serde(default)]
    tag_list: ::std::vec::Vec<::std::string::String>,
    #[serde(default)]
    limit: ::core::option::Option<u32>,
    #[serde(default)]
    labels: ::std::collections::BTreeMap<::std::string::String, ::std::vec::Vec<u32>>,
    #[serde(default)]
    inner: ::core::option::Option<Inner>,
    #[serde(default)]
    boxed: ::core::option::Option<::std::boxed::Box<Inner>>,
    #[serde(flatten)]
    extra: Extra,
    #[serde(rename = "q", alias = "query")]
    search_text: ::std::string::String,
    #[serde(default)]
    #[stitch(opaque)]
    timeout: ::core::option::Option<::std::time::Duration>,
    #[serde(skip)]
    cache: (),
    #[serde(default)]
    mode: ::core::option::Option<Mode>,
}

/// A generic struct: `T: Coerce` is required only because a walked field uses `T`.
#[derive(::core::fmt::Debug, ::serde::Deserialize, ::stitch_runtime::ToolArgs)]
struct Wrapper<T> {
    #[stitch(max_items = 2)]
    items: ::stitch_runtime::OneOrMany<T>,
}

/// A unit-variant enum, read from a string.
#[derive(
    ::core::fmt::Debug, ::core::cmp::PartialEq, ::serde::Deserialize, ::stitch_runtime::ToolArgs,
)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Fast,
    Slow,
}

/// Internally tagged.
#[derive(
    ::core::fmt::Debug, ::core::cmp::PartialEq, ::serde::Deserialize, ::stitch_runtime::ToolArgs,
)]
#[serde(tag = "kind")]
enum Figure {
    Circle {
        radius: f64,
        #[serde(default)]
        labels: ::std::vec::Vec<::std::string::String>,
    },
    Named(Inner),
    Empty,
}

/// Adjacently tagged.
#[derive(
    ::core::fmt::Debug, ::core::cmp::PartialEq, ::serde::Deserialize, ::stitch_runtime::ToolArgs,
)]
#[serde(tag = "t", content = "c")]
enum Op {
    Add(u32),
    Tags(::std::vec::Vec<::std::string::String>),
    Move { to: Inner },
    Pair(u32, ::std::vec::Vec<u32>),
    Stop,
}

/// Externally tagged, with every variant style.
#[derive(
    ::core::fmt::Debug, ::core::cmp::PartialEq, ::serde::Deserialize, ::stitch_runtime::ToolArgs,
)]
enum Action {
    Open {
        paths: ::stitch_runtime::OneOrMany<::std::string::String>,
    },
    Resize(u32, ::std::vec::Vec<u32>),
    Tags(::std::vec::Vec<::std::string::String>),
    Close,
}

/// Untagged, string-bearing (a `String` member) with an array member.
#[derive(
    ::core::fmt::Debug, ::core::cmp::PartialEq, ::serde::Deserialize, ::stitch_runtime::ToolArgs,
)]
#[serde(untagged)]
enum Target {
    Many(::std::vec::Vec<::std::string::String>),
    One(::std::string::String),
    Object { id: u32 },
}

/// Holds the enums as fields, so that paths have a name.
#[derive(::core::fmt::Debug, ::serde::Deserialize, ::stitch_runtime::ToolArgs)]
struct Holder {
    #[serde(default)]
    figure: ::core::option::Option<Figure>,
    #[serde(default)]
    op: ::core::option::Option<Op>,
    #[serde(default)]
    action: ::core::option::Option<Action>,
    #[serde(default)]
    target: ::core::option::Option<Target>,
}

#[test]
fn derived_types_behave_under_shadowed_names() {
    use ::serde_json::json;
    use ::stitch_runtime::{IssueKind, OneOrMany, ToolArgs as _};

    // A list written as text where one path is also valid: refused, by its wire name.
    let err = Everything::from_value(json!({"paths": "[\"a.png\"]", "q": "x"})).unwrap_err();
    ::core::assert_eq!(err.issues().len(), 1);
    ::core::assert_eq!(err.issues()[0].path(), "paths");
    ::core::assert_eq!(err.issues()[0].kind(), IssueKind::TextList);

    // A real array past `max_items`.
    let err = Everything::from_value(json!({"paths": ["a", "b", "c", "d"], "q": "x"})).unwrap_err();
    ::core::assert_eq!(err.issues()[0].path(), "paths");
    ::core::assert_eq!(err.issues()[0].message(), "paths: at most 3 items");

    // JSON text where no string is expected is repaired: renamed, aliased, nested, boxed,
    // flattened and map fields.
    let ok = Everything::from_value(json!({
        "paths": "[preview].png",
        "tagList": "[\"x\", \"y\"]",
        "labels": "{\"a\": \"[1, 2]\"}",
        "inner": "{\"names\": \"[\\\"n\\\"]\"}",
        "boxed": {"names": "[\"m\"]"},
        "ids": "[7]",
        "query": "find",
        "timeout": {"secs": 1, "nanos": 0},
        "mode": "slow",
    }))
    .unwrap();
    ::core::assert_eq!(ok.paths, OneOrMany::One("[preview].png".to_owned()));
    ::core::assert_eq!(ok.tag_list, ["x", "y"]);
    ::core::assert_eq!(ok.limit, ::core::option::Option::None);
    ::core::assert_eq!(ok.labels["a"], [1, 2]);
    ::core::assert_eq!(ok.inner.unwrap().names, ["n"]);
    ::core::assert_eq!(ok.boxed.unwrap().names, ["m"]);
    ::core::assert_eq!(
        ok.extra,
        Extra {
            ids: ::std::vec![7]
        }
    );
    ::core::assert_eq!(ok.search_text, "find");
    ::core::assert_eq!(
        ok.timeout,
        ::core::option::Option::Some(::core::time::Duration::from_secs(1))
    );
    ::core::assert_eq!(ok.cache, ());
    ::core::assert_eq!(ok.mode, ::core::option::Option::Some(Mode::Slow));

    // The generic struct.
    let err = Wrapper::<::std::string::String>::from_value(json!({"items": "[\"a\", \"b\"]"}))
        .unwrap_err();
    ::core::assert_eq!(err.issues()[0].path(), "items");
    ::core::assert_eq!(err.issues()[0].kind(), IssueKind::TextList);
    // Longer than `max_items`: one plain value.
    let ok =
        Wrapper::<::std::string::String>::from_value(json!({"items": "[\"a\", \"b\", \"c\"]"}))
            .unwrap();
    ::core::assert_eq!(ok.items.as_slice(), ["[\"a\", \"b\", \"c\"]"]);
    let ok = Wrapper::<u32>::from_value(json!({"items": [1, 2]})).unwrap();
    ::core::assert_eq!(ok.items.as_slice(), [1, 2]);

    // Each tagging, with a repair inside the chosen variant.
    let ok = Holder::from_value(json!({
        "figure": {"kind": "Circle", "radius": 1.5, "labels": "[\"r\"]"},
        "op": {"t": "Tags", "c": "[\"a\", \"b\"]"},
        "action": {"Resize": [3, "[4, 5]"]},
        "target": {"id": 9},
    }))
    .unwrap();
    ::core::assert_eq!(
        ok.figure,
        ::core::option::Option::Some(Figure::Circle {
            radius: 1.5,
            labels: ::std::vec!["r".to_owned()]
        })
    );
    ::core::assert_eq!(
        ok.op,
        ::core::option::Option::Some(Op::Tags(::std::vec!["a".to_owned(), "b".to_owned()]))
    );
    ::core::assert_eq!(
        ok.action,
        ::core::option::Option::Some(Action::Resize(3, ::std::vec![4, 5]))
    );
    ::core::assert_eq!(
        ok.target,
        ::core::option::Option::Some(Target::Object { id: 9 })
    );

    let ok = Holder::from_value(json!({
        "figure": {"kind": "Named", "names": "[\"n\"]"},
        "op": {"t": "Move", "c": {"to": "{\"names\": []}"}},
        "action": {"Tags": "[\"t\"]"},
        "target": "[not a list",
    }))
    .unwrap();
    ::core::assert_eq!(
        ok.figure,
        ::core::option::Option::Some(Figure::Named(Inner {
            names: ::std::vec!["n".to_owned()]
        }))
    );
    ::core::assert_eq!(
        ok.op,
        ::core::option::Option::Some(Op::Move {
            to: Inner {
                names: ::std::vec::Vec::new()
            }
        })
    );
    ::core::assert_eq!(
        ok.action,
        ::core::option::Option::Some(Action::Tags(::std::vec!["t".to_owned()]))
    );
    ::core::assert_eq!(
        ok.target,
        ::core::option::Option::Some(Target::One("[not a list".to_owned()))
    );

    // Refusals name the path the caller sent: an externally tagged variant's key is a segment,
    // an internally tagged enum adds none; every issue at once.
    let err = Holder::from_value(json!({
        "figure": {"kind": "Empty"},
        "op": {"t": "Stop"},
        "action": {"Open": {"paths": "[\"a\"]"}},
        "target": "[\"a\", \"b\"]",
    }))
    .unwrap_err();
    let paths: ::std::vec::Vec<&str> = err.issues().iter().map(|issue| issue.path()).collect();
    ::core::assert_eq!(paths, ["action.Open.paths", "target"]);
    ::core::assert!(err
        .issues()
        .iter()
        .all(|issue| issue.kind() == IssueKind::TextList));
}
