//! The rules R1–R7 of `docs/rules.md` beyond its vector table, for every kind of position.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs, MAX_DEPTH};
use stitch_tests::tools::Paths;
use stitch_tests::{drop_deep, issues, on_small_stack};

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct FileMeta {
    tags: OneOrMany<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Files {
    files: HashMap<String, FileMeta>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Everything {
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    deque: VecDeque<u32>,
    #[serde(default)]
    set: HashSet<String>,
    #[serde(default)]
    ordered: BTreeSet<i64>,
    #[serde(default)]
    boxed: Option<Box<[String]>>,
    #[serde(default)]
    pair: Option<[u8; 2]>,
    #[serde(default)]
    tuple: Option<(String, Vec<u32>)>,
    #[serde(default)]
    map: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    json_map: serde_json::Map<String, Value>,
    #[serde(default)]
    any: Value,
    #[serde(default)]
    cow: Option<Cow<'static, str>>,
    #[serde(default)]
    path: Option<PathBuf>,
    #[serde(default)]
    letter: Option<char>,
    #[serde(default)]
    boxed_meta: Option<Box<Inner>>,
    #[serde(default)]
    shared: Option<Arc<Inner>>,
    #[serde(default)]
    counted: Option<Rc<Inner>>,
    #[serde(default)]
    numbers: Option<OneOrMany<u32>>,
    #[serde(default)]
    modes: Option<OneOrMany<Mode>>,
    #[serde(default)]
    letters: Option<OneOrMany<char>>,
    #[serde(default)]
    count: Option<u32>,
}

#[derive(Debug, PartialEq, Eq, Hash, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Fast,
    Slow,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Inner {
    names: OneOrMany<String>,
}

fn coerce<T: ToolArgs>(args: Value) -> Result<Value, stitch_runtime::ArgsError> {
    let mut value = args;
    T::coerce_value(&mut value).map(|()| value)
}

#[test]
fn r1_text_is_repaired_at_every_structured_position() {
    let args = json!({
        "tags": "[\"a\"]",
        "deque": "[1, 2]",
        "set": "[\"x\"]",
        "ordered": "[3]",
        "boxed": "[\"b\"]",
        "pair": "[1, 2]",
        "tuple": "[\"a\", \"[1]\"]",
        "map": "{\"k\": \"[\\\"v\\\"]\"}",
        "json_map": "{\"k\": 1}",
        "boxed_meta": "{\"names\": \"n\"}",
        "shared": "{\"names\": [\"s\"]}",
        "counted": "{\"names\": \"c\"}",
        "numbers": "5",
    });
    let coerced = coerce::<Everything>(args).unwrap();
    assert_eq!(
        coerced,
        json!({
            "tags": ["a"],
            "deque": [1, 2],
            "set": ["x"],
            "ordered": [3],
            "boxed": ["b"],
            "pair": [1, 2],
            "tuple": ["a", [1]],
            "map": {"k": ["v"]},
            "json_map": {"k": 1},
            "boxed_meta": {"names": "n"},
            "shared": {"names": ["s"]},
            "counted": {"names": "c"},
            "numbers": 5,
        })
    );
    let typed = Everything::from_value(coerced).unwrap();
    assert_eq!(typed.tuple, Some(("a".to_owned(), vec![1])));
    assert_eq!(typed.numbers, Some(OneOrMany::One(5)));
    assert_eq!(
        typed.shared.unwrap().names,
        OneOrMany::Many(vec!["s".to_owned()])
    );
}

#[test]
fn r1_text_written_twice_is_repaired() {
    let twice = serde_json::to_string(&json!(["a", "b"]).to_string()).unwrap();
    let args = json!({ "tags": serde_json::from_str::<Value>(&twice).unwrap() });
    assert_eq!(
        coerce::<Everything>(args).unwrap(),
        json!({"tags": ["a", "b"]})
    );
}

#[test]
fn r1_a_union_with_no_string_member_parses_scalars_and_lists() {
    let got = Everything::from_value(json!({"numbers": "[1, 2]"})).unwrap();
    assert_eq!(got.numbers, Some(OneOrMany::Many(vec![1, 2])));
}

#[test]
fn r1_leaves_scalar_positions_alone() {
    // Numbers written as text are not coerced by default; the check pass reports them, on
    // the raw surface too, and changes nothing.
    let err = Everything::from_value(json!({"count": "5"})).unwrap_err();
    assert_eq!(issues(&err), [("count".to_owned(), IssueKind::Invalid)]);
    let mut args = json!({"count": "5"});
    assert_eq!(Everything::coerce_value(&mut args), Err(err));
    assert_eq!(args, json!({"count": "5"}));
}

#[test]
fn r1_any_and_strings_are_never_touched() {
    let args = json!({"any": "[1, 2]", "cow": "[\"a\"]", "path": "[\"p\"]", "letter": "[", "json_map": {"k": "[1]"}});
    assert_eq!(coerce::<Everything>(args.clone()).unwrap(), args);
}

#[test]
fn r2_string_bearing_union_keeps_strings() {
    for text in ["123", "null", "true", "{\"a\": 1}", "\"quoted\""] {
        let got = Inner::from_value(json!({ "names": text })).unwrap();
        assert_eq!(got.names, OneOrMany::One(text.to_owned()));
    }
}

#[test]
fn r3_element_types_decide() {
    // A list of variant names is a list the array form takes; an unknown name is not.
    let err = Everything::from_value(json!({"modes": "[\"fast\", \"slow\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("modes".to_owned(), IssueKind::TextList)]);
    // Not a list the array form takes: one value, which is no variant (a type error).
    let err = Everything::coerce_value(&mut json!({"modes": "[\"warp\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("modes".to_owned(), IssueKind::Invalid)]);
    // `char` elements must be one character each.
    let err = Everything::from_value(json!({"letters": "[\"a\", \"b\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("letters".to_owned(), IssueKind::TextList)]);
    let err = Everything::coerce_value(&mut json!({"letters": "[\"ab\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("letters".to_owned(), IssueKind::Invalid)]);
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Bounded {
    #[stitch(min_items = 2, max_items = 3)]
    names: OneOrMany<String>,
    #[serde(default)]
    #[stitch(max_items = 2)]
    tags: Vec<String>,
}

#[test]
fn r3_bounds_decide_and_real_arrays_are_checked() {
    // Too short or too long as text: one plain value.
    for text in ["[\"a\"]", "[\"a\",\"b\",\"c\",\"d\"]"] {
        let got = Bounded::from_value(json!({ "names": text })).unwrap();
        assert_eq!(got.names, OneOrMany::One(text.to_owned()));
    }
    let err = Bounded::from_value(json!({"names": "[\"a\",\"b\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("names".to_owned(), IssueKind::TextList)]);
    // Real arrays outside the bounds are refused, all at once.
    let err = Bounded::from_value(json!({"names": ["a"], "tags": ["x", "y", "z"]})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "names: at least 2 items\ntags: at most 2 items"
    );
    // A repaired list is checked too.
    let err = Bounded::from_value(json!({"names": ["a", "b"], "tags": "[\"x\", \"y\", \"z\"]"}))
        .unwrap_err();
    assert_eq!(err.to_string(), "tags: at most 2 items");
}

#[test]
fn r3_only_json_whitespace_counts() {
    for text in ["\u{a0}[\"a\"]", "\u{feff}[\"a\"]", "x[\"a\"]"] {
        let got = Inner::from_value(json!({ "names": text })).unwrap();
        assert_eq!(got.names, OneOrMany::One(text.to_owned()));
    }
    for text in ["\t[\"a\"]", "\r\n [\"a\"] \n"] {
        assert!(
            Inner::from_value(json!({ "names": text })).is_err(),
            "{text:?}"
        );
    }
}

#[test]
fn r4_walks_map_values_and_names_their_keys() {
    let err = Files::from_value(json!({"files": {"readme": {"tags": "[\"x\"]"}}})).unwrap_err();
    assert_eq!(
        issues(&err),
        [("files.readme.tags".to_owned(), IssueKind::TextList)]
    );
    // The same map written as text is repaired, then walked.
    let err = Files::from_value(json!({"files": "{\"readme\": {\"tags\": \"[\\\"x\\\"]\"}}"}))
        .unwrap_err();
    assert_eq!(
        issues(&err),
        [("files.readme.tags".to_owned(), IssueKind::TextList)]
    );
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Denying {
    paths: OneOrMany<String>,
}

#[test]
fn r4_unknown_keys_are_kept_exactly() {
    let args = json!({"paths": "a", "extra": "[\"x\"]", "nested": {"deep": "{\"a\": 1}"}});
    assert_eq!(coerce::<Paths>(args.clone()).unwrap(), args);
    assert!(Paths::from_value(args.clone()).is_ok());
    let err = Denying::from_value(args).unwrap_err();
    assert_eq!(err.issues()[0].kind(), IssueKind::Invalid);
    assert!(err.to_string().contains("unknown field `extra`"), "{err}");
}

#[test]
fn r4_key_order_is_kept() {
    let text = r#"{"z": 1, "paths": "[preview].png", "a": "[\"x\"]"}"#;
    let mut value: Value = serde_json::from_str(text).unwrap();
    Paths::coerce_value(&mut value).unwrap();
    assert_eq!(
        value.to_string(),
        serde_json::from_str::<Value>(text).unwrap().to_string()
    );
}

#[test]
fn r6_every_issue_at_once_in_walk_order_and_nothing_changed() {
    let args = json!({
        "tags": "[\"repairable\"]",
        "numbers": "[1]",
        "boxed_meta": {"names": "[\"one\"]"},
        "shared": {"names": "[\"two\"]"},
    });
    let mut value = args.clone();
    let err = Everything::coerce_value(&mut value).unwrap_err();
    assert_eq!(
        issues(&err),
        [
            ("boxed_meta.names".to_owned(), IssueKind::TextList),
            ("shared.names".to_owned(), IssueKind::TextList),
        ]
    );
    assert_eq!(
        value, args,
        "the repairable fields were not repaired on a refused call"
    );
}

#[derive(Debug, Deserialize, ToolArgs)]
struct ManyRows {
    rows: Vec<Inner>,
}

#[test]
fn r6_issues_are_capped_with_a_count() {
    let rows: Vec<Value> = (0..25).map(|_| json!({"names": "[\"a\"]"})).collect();
    let err = ManyRows::from_value(json!({ "rows": rows })).unwrap_err();
    assert_eq!(err.issues().len(), stitch_runtime::MAX_ISSUES);
    assert_eq!(err.omitted(), 5);
    assert_eq!(err.issues()[19].path(), "rows.19.names");
    let text = err.to_string();
    assert_eq!(text.lines().count(), 21);
    assert_eq!(text.lines().last(), Some("\u{2026} and 5 more issues"));
}

#[test]
fn roots_that_are_not_objects_are_errors_not_panics() {
    for args in [json!(null), json!(1), json!("text"), json!(true)] {
        let err = Paths::from_value(args.clone()).unwrap_err();
        assert_eq!(err.issues()[0].kind(), IssueKind::Invalid, "{args}");
        assert_eq!(err.issues()[0].path(), "");
    }
    // serde reads a struct from an array too, field by field; a tool's arguments are an
    // object by its schema, so stitch refuses any array at the root (issue 18).
    for args in [json!(["a"]), json!([1])] {
        let err = Paths::from_value(args).unwrap_err();
        assert_eq!(issues(&err), [(String::new(), IssueKind::Invalid)]);
        assert!(err.to_string().ends_with("not an array"), "{err}");
    }
    // The arguments object itself written as text is repaired like any object.
    let got = Paths::from_value(json!("{\"paths\": \"a\"}")).unwrap();
    assert_eq!(got.paths, OneOrMany::One("a".to_owned()));
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Node {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    children: Vec<Node>,
}

/// `{"children": [{"children": [ … {} … ]}]}`, built without `json!` (which would clone the
/// inner value recursively).
fn nested_value(levels: usize) -> Value {
    let mut value = json!({});
    for _ in 0..levels {
        let mut map = serde_json::Map::new();
        map.insert("children".to_owned(), Value::Array(vec![value]));
        value = Value::Object(map);
    }
    value
}

#[test]
fn r7_deep_values_are_refused_on_every_surface() {
    on_small_stack(|| {
        let err = Node::from_value(nested_value(100_000)).unwrap_err();
        assert_eq!(err.issues().len(), 1);
        assert_eq!(err.issues()[0].kind(), IssueKind::TooDeep);
        let path = err.issues()[0].path().to_owned();
        assert!(path.starts_with("children.0.children.0."), "{path}");
        // The container one past the limit: one segment for it and one for each container
        // open above it but the arguments' object.
        assert_eq!(path.split('.').count(), MAX_DEPTH);

        let mut value = nested_value(100_000);
        let err = Node::coerce_value(&mut value).unwrap_err();
        assert_eq!(err.issues()[0].kind(), IssueKind::TooDeep);
        drop_deep(value);

        let text = "{\"children\":[".repeat(100_000) + &"]}".repeat(100_000);
        let err = Node::from_json(&text).unwrap_err();
        assert_eq!(err.issues()[0].kind(), IssueKind::TooDeep);
    });
}

#[test]
fn r7_deep_text_inside_a_string_is_refused_at_its_field() {
    on_small_stack(|| {
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let err = Node::from_value(json!({ "children": text })).unwrap_err();
        assert_eq!(issues(&err), [("children".to_owned(), IssueKind::TooDeep)]);
    });
}

#[test]
fn r7_deep_values_under_unknown_keys_and_any_are_refused() {
    on_small_stack(|| {
        let mut deep = json!(1);
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        let mut args = serde_json::Map::new();
        args.insert("paths".to_owned(), json!("a"));
        args.insert("junk".to_owned(), deep);
        let err = Paths::from_value(Value::Object(args)).unwrap_err();
        assert_eq!(err.issues()[0].kind(), IssueKind::TooDeep);
        assert!(err.issues()[0].path().starts_with("junk.0.0"));
    });
}

#[test]
fn r7_depth_within_the_limit_is_fine() {
    let got = Node::from_value(nested_value(40)).unwrap();
    let mut depth = 0;
    let mut node = &got;
    while let Some(child) = node.children.first() {
        depth += 1;
        node = child;
    }
    assert_eq!(depth, 40);
    assert!(node.name.is_none());
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Flat {
    id: u32,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    rest: HashMap<String, Vec<u32>>,
}

#[test]
fn flatten_adds_no_segment_and_shares_the_object() {
    let err = Flat::from_value(json!({"id": 1, "names": "[\"a\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("names".to_owned(), IssueKind::TextList)]);
    let got = Flat::from_value(json!({"id": 1, "names": "a", "extra": "[1, 2]"})).unwrap();
    assert_eq!(got.rest.get("extra"), Some(&vec![1, 2]));
    assert_eq!(got.inner.names, OneOrMany::One("a".to_owned()));
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Wrapper<T> {
    #[stitch(max_items = 4)]
    items: OneOrMany<T>,
}

#[test]
fn generic_types_follow_their_parameter() {
    let err = Wrapper::<String>::from_value(json!({"items": "[\"a\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("items".to_owned(), IssueKind::TextList)]);
    let got = Wrapper::<u32>::from_value(json!({"items": "[1, 2]"})).unwrap();
    assert_eq!(got.items, OneOrMany::Many(vec![1, 2]));
    let err = Wrapper::<u32>::from_value(json!({"items": [1, 2, 3, 4, 5]})).unwrap_err();
    assert_eq!(err.to_string(), "items: at most 4 items");
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Name(String);

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(transparent)]
struct Ids {
    ids: Vec<u32>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Newtypes {
    names: OneOrMany<Name>,
    #[serde(default)]
    ids: Option<Ids>,
}

#[test]
fn newtypes_and_transparent_structs_are_their_field() {
    let err = Newtypes::from_value(json!({"names": "[\"a\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("names".to_owned(), IssueKind::TextList)]);
    let got = Newtypes::from_value(json!({"names": "a", "ids": "[1, 2]"})).unwrap();
    assert_eq!(got.ids, Some(Ids { ids: vec![1, 2] }));
}

#[derive(Debug, PartialEq, Deserialize)]
struct Stamp(u64);

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct WithOpaque {
    #[stitch(opaque)]
    stamp: Stamp,
    #[stitch(opaque)]
    raw: Vec<String>,
}

#[test]
fn opaque_fields_are_left_to_serde() {
    let args = json!({"stamp": 5, "raw": "[\"a\"]"});
    assert_eq!(coerce::<WithOpaque>(args.clone()).unwrap(), args);
    let err = WithOpaque::from_value(args).unwrap_err();
    assert_eq!(issues(&err), [("raw".to_owned(), IssueKind::Invalid)]);
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Skips {
    #[serde(skip)]
    skipped: Vec<String>,
    #[serde(skip_deserializing, default)]
    also: Vec<String>,
    kept: Vec<String>,
}

#[test]
fn skipped_fields_are_unknown_keys() {
    let args = json!({"skipped": "[\"a\"]", "also": "[\"b\"]", "kept": "[\"c\"]"});
    assert_eq!(
        coerce::<Skips>(args).unwrap(),
        json!({"skipped": "[\"a\"]", "also": "[\"b\"]", "kept": ["c"]})
    );
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Depth {
    depth: u32,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Scan {
    name: String,
    #[serde(flatten)]
    depth: Depth,
}

#[test]
fn an_unknown_key_beside_a_flattened_struct_is_named_where_it_was_sent() {
    // serde refuses it too, at no path and naming no field (flatten hides them from it).
    let args = json!({"name": "a", "depth": 1, "bogus": [2]});
    assert!(serde_json::from_value::<Scan>(args.clone()).is_err());
    let want = "bogus: unknown field `bogus`, expected `depth` or `name`";
    let messages = |e: stitch_runtime::ArgsError| -> Vec<String> {
        e.issues().iter().map(|i| i.message().to_owned()).collect()
    };
    assert_eq!(
        messages(Scan::from_value(args.clone()).unwrap_err()),
        [want]
    );
    assert_eq!(
        messages(Scan::from_json(&args.to_string()).unwrap_err()),
        [want]
    );
    let mut value = args.clone();
    assert_eq!(
        messages(Scan::coerce_value(&mut value).unwrap_err()),
        [want]
    );
    assert_eq!(value, args);
    // The coercer built from the schema says the same.
    let coercer = stitch_runtime::json_schema::Coercer::new(Scan::input_schema()).unwrap();
    assert_eq!(
        messages(coercer.coerce(&mut args.clone()).unwrap_err()),
        [want]
    );
    assert_eq!(
        Scan::from_value(json!({"name": "a", "depth": 1})).unwrap(),
        Scan {
            name: "a".to_owned(),
            depth: Depth { depth: 1 }
        }
    );
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Reach {
    reach: u32,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Within {
    within: u32,
    #[serde(flatten)]
    reach: Reach,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Holds<T> {
    held: T,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Around {
    name: String,
    #[serde(flatten)]
    within: Within,
    #[serde(flatten)]
    holds: Holds<u32>,
}

/// Beside a struct that flattens another and a generic one, an unknown key is named with
/// every field that any level reads, as the coercer built from the schema names them.
#[test]
fn an_unknown_key_beside_nested_and_generic_flattened_structs_names_every_field() {
    let args = json!({"name": "a", "within": 1, "reach": 2, "held": 3, "bogus": 4});
    assert!(serde_json::from_value::<Around>(args.clone()).is_err());
    let messages = |e: stitch_runtime::ArgsError| -> Vec<String> {
        e.issues().iter().map(|i| i.message().to_owned()).collect()
    };
    let coercer = stitch_runtime::json_schema::Coercer::new(Around::input_schema()).unwrap();
    let want = messages(coercer.coerce(&mut args.clone()).unwrap_err());
    assert_eq!(
        want,
        ["bogus: unknown field `bogus`, expected one of `held`, `name`, `reach`, `within`"]
    );
    assert_eq!(
        messages(Around::from_value(args.clone()).unwrap_err()),
        want
    );
    assert_eq!(
        messages(Around::from_json(&args.to_string()).unwrap_err()),
        want
    );
    let mut value = args.clone();
    assert_eq!(
        messages(Around::coerce_value(&mut value).unwrap_err()),
        want
    );
    assert_eq!(value, args);
    // Without it, the verdict is serde's own (its flatten under `deny_unknown_fields` refuses
    // the nested struct's key).
    let sent = json!({"name": "a", "within": 1, "reach": 2, "held": 3});
    assert_eq!(
        Around::from_value(sent.clone()).map_err(|e| e.to_string()),
        serde_json::from_value::<Around>(sent).map_err(|e| format!("{e}"))
    );
}

mod reexported {
    pub use stitch_runtime as rt;
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[stitch(crate = "reexported::rt")]
struct ThroughReexport {
    paths: OneOrMany<String>,
}

#[test]
fn the_runtime_can_be_named_through_a_reexport() {
    let err = ThroughReexport::from_value(json!({"paths": "[\"a\"]"})).unwrap_err();
    assert_eq!(issues(&err), [("paths".to_owned(), IssueKind::TextList)]);
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Tree {
    #[serde(default)]
    #[stitch(max_items = 2)]
    children: Vec<Self>,
}

#[test]
fn bounds_on_a_recursive_field_naming_self() {
    let err = Tree::from_value(json!({"children": [{}, {"children": [{}, {}, {}]}]})).unwrap_err();
    assert_eq!(err.to_string(), "children.1.children: at most 2 items");
}

#[derive(Debug, PartialEq, Deserialize)]
struct Foreign {
    color: String,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct WithOpaqueFlatten {
    tags: Vec<String>,
    #[serde(flatten)]
    #[stitch(opaque)]
    extra: Foreign,
}

#[test]
fn an_opaque_flattened_field_is_left_to_serde() {
    let got =
        WithOpaqueFlatten::from_value(json!({"tags": "[\"a\"]", "color": "[\"red\"]"})).unwrap();
    assert_eq!(got.tags, ["a"]);
    assert_eq!(got.extra.color, "[\"red\"]");
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(transparent)]
struct Tagged<T> {
    tags: Vec<String>,
    #[serde(skip)]
    marker: std::marker::PhantomData<T>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(transparent)]
struct Query {
    #[serde(default)]
    limit: u32,
    tags: OneOrMany<String>,
}

#[test]
fn transparent_reads_through_the_field_serde_picks() {
    let got = Tagged::<u8>::from_value(json!("[\"a\", \"b\"]")).unwrap();
    assert_eq!(got.tags, ["a", "b"]);
    let err = Query::from_value(json!("[\"a\"]")).unwrap_err();
    assert_eq!(err.issues()[0].kind(), IssueKind::TextList);
    assert_eq!(
        Query::from_value(json!("a")).unwrap().tags,
        OneOrMany::One("a".into())
    );
}
