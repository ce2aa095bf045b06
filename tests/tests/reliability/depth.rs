//! Rule R7 on every surface, on a thread with the default 2 MiB stack: recursive tool types of
//! every kind fed 100 000 levels of nesting are refused with one `TooDeep` issue naming the
//! path where the walk stopped; JSON text nested 100 000 levels inside a string at every kind
//! of structured position is refused at that position; and the deepest value accepted is read
//! without overflowing the stack.
//!
//! (`behaviour/rules.rs` has the first cases for one recursive struct; this covers every kind of
//! recursion and position.)

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::{json, Map, Value};
use stitch_runtime::{ArgsError, IssueKind, OneOrMany, ToolArgs, MAX_DEPTH};
use stitch_tests::{drop_deep, on_small_stack};

use stitch_tests::checks::Node;

const LEVELS: usize = 100_000;

/// Internally tagged and recursive through a `Box` and a `Vec`.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Expr {
    Lit { value: f64 },
    Neg { arg: Box<Expr> },
    Add { args: Vec<Expr> },
}

/// Untagged and recursive.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(untagged)]
enum Tree {
    Leaf(String),
    Branch(Vec<Tree>),
}

/// Externally tagged and recursive.
#[derive(Debug, Deserialize, ToolArgs)]
enum Ext {
    Leaf(u32),
    Wrap(Box<Ext>),
}

/// Adjacently tagged and recursive.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
enum Adj {
    Leaf(u32),
    Wrap(Box<Adj>),
}

/// A recursive tool type and one way it nests.
struct Case {
    name: &'static str,
    /// The JSON text of one level, before and after the inner value.
    open: &'static str,
    close: &'static str,
    /// The innermost value.
    leaf: &'static str,
    /// The path segments one level adds, in order.
    unit: &'static [&'static str],
    /// The surfaces of the type.
    from_value: fn(Value) -> Result<(), ArgsError>,
    from_json: fn(&str) -> Result<(), ArgsError>,
    coerce_value: fn(&mut Value) -> Result<(), ArgsError>,
}

macro_rules! case {
    ($ty:ty, $name:literal, $open:literal, $close:literal, $leaf:literal, [$($unit:literal),+]) => {
        Case {
            name: $name,
            open: $open,
            close: $close,
            leaf: $leaf,
            unit: &[$($unit),+],
            from_value: |v| <$ty>::from_value(v).map(drop),
            from_json: |t| <$ty>::from_json(t).map(drop),
            coerce_value: |v| <$ty>::coerce_value(v),
        }
    };
}

fn cases() -> Vec<Case> {
    vec![
        case!(
            Node,
            "struct through Vec",
            r#"{"children":["#,
            "]}",
            "{}",
            ["children", "0"]
        ),
        case!(
            Node,
            "struct through a map",
            r#"{"by_name":{"k":"#,
            "}}",
            "{}",
            ["by_name", "k"]
        ),
        case!(
            Node,
            "struct through Box",
            r#"{"next":"#,
            "}",
            "{}",
            ["next"]
        ),
        case!(
            Node,
            "struct through OneOrMany, one",
            r#"{"kids":"#,
            "}",
            "{}",
            ["kids"]
        ),
        case!(
            Node,
            "struct through OneOrMany, many",
            r#"{"kids":["#,
            "]}",
            "{}",
            ["kids", "0"]
        ),
        case!(
            Expr,
            "internally tagged through Box",
            r#"{"op":"neg","arg":"#,
            "}",
            r#"{"op":"lit","value":1}"#,
            ["arg"]
        ),
        case!(
            Expr,
            "internally tagged through Vec",
            r#"{"op":"add","args":["#,
            "]}",
            r#"{"op":"lit","value":1}"#,
            ["args", "0"]
        ),
        case!(Tree, "untagged through Vec", "[", "]", r#""x""#, ["0"]),
        case!(
            Ext,
            "externally tagged through Box",
            r#"{"Wrap":"#,
            "}",
            r#"{"Leaf":1}"#,
            ["Wrap"]
        ),
        case!(
            Adj,
            "adjacently tagged through Box",
            r#"{"t":"Wrap","c":"#,
            "}",
            r#"{"t":"Leaf","c":1}"#,
            ["c"]
        ),
    ]
}

impl Case {
    fn text(&self, levels: usize) -> String {
        let mut text = String::with_capacity(levels * (self.open.len() + self.close.len()) + 32);
        for _ in 0..levels {
            text.push_str(self.open);
        }
        text.push_str(self.leaf);
        for _ in 0..levels {
            text.push_str(self.close);
        }
        text
    }

    /// The value of [`Case::text`], built without recursion: the text of one level around a
    /// placeholder tells where the inner value goes.
    fn value(&self, levels: usize) -> Value {
        let template: Value =
            serde_json::from_str(&format!("{}null{}", self.open, self.close)).unwrap();
        let mut value: Value = serde_json::from_str(self.leaf).unwrap();
        for _ in 0..levels {
            let mut level = template.clone();
            *hole(&mut level) = value;
            value = level;
        }
        value
    }
}

/// The `null` of a one-level template.
fn hole(level: &mut Value) -> &mut Value {
    if level.is_null() {
        return level;
    }
    match level {
        Value::Array(items) => hole(items.last_mut().unwrap()),
        Value::Object(map) => hole(
            map.values_mut()
                .find(|v| v.is_null() || v.is_array() || v.is_object())
                .unwrap(),
        ),
        other => panic!("no hole in {other}"),
    }
}

/// Equality without recursion (serde_json's `PartialEq` recurses).
fn same(a: &Value, b: &Value) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                stack.extend(x.iter().zip(y))
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for ((kx, vx), (ky, vy)) in x.iter().zip(y) {
                    if kx != ky {
                        return false;
                    }
                    stack.push((vx, vy));
                }
            }
            (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => {
                return false
            }
            (x, y) if x != y => return false,
            _ => {}
        }
    }
    true
}

/// One `TooDeep` issue whose path follows the nesting (the segments of `unit` over and over)
/// down to about `MAX_DEPTH` levels, with the message naming it.
fn assert_stopped(case: &Case, surface: &str, err: &ArgsError) {
    let what = format!("{} via {surface}: {err:?}", case.name);
    assert_eq!(err.issues().len(), 1, "{what}");
    let issue = &err.issues()[0];
    assert_eq!(issue.kind(), IssueKind::TooDeep, "{what}");
    let path = issue.path();
    let segments: Vec<&str> = path.split('.').collect();
    for (i, segment) in segments.iter().enumerate() {
        assert_eq!(*segment, case.unit[i % case.unit.len()], "{what}");
    }
    assert!(
        (MAX_DEPTH - 2..=MAX_DEPTH).contains(&segments.len()),
        "{what}: stopped after {} segments",
        segments.len()
    );
    assert_eq!(
        issue.message(),
        format!("{path}: nested deeper than {MAX_DEPTH} levels; send a flatter value"),
    );
}

#[test]
#[ignore = "long (100 000 levels through every surface): the full run, `cargo test -- --include-ignored`"]
fn recursive_types_100_000_levels_deep_are_refused_where_they_stop() {
    on_small_stack(|| {
        for case in cases() {
            let err = (case.from_value)(case.value(LEVELS)).unwrap_err();
            assert_stopped(&case, "from_value", &err);

            let mut value = case.value(LEVELS);
            let err = (case.coerce_value)(&mut value).unwrap_err();
            assert_stopped(&case, "coerce_value", &err);
            let original = case.value(LEVELS);
            assert!(
                same(&value, &original),
                "{}: coerce_value changed the value",
                case.name
            );
            drop_deep(value);
            drop_deep(original);

            // The text is refused by the parser itself; the path is checked below.
            let err = (case.from_json)(&case.text(LEVELS)).unwrap_err();
            assert_eq!(err.issues().len(), 1, "{}", case.name);
            assert_eq!(err.issues()[0].kind(), IssueKind::TooDeep, "{}", case.name);
        }
    });
}

/// `from_json` names the path where text nested too deep stops, as the other surfaces do
/// (serde_json's parser refuses the text before any walk; a scan of the text finds the path).
#[test]
fn from_json_names_the_path_where_it_stopped() {
    on_small_stack(|| {
        for case in cases() {
            let err = (case.from_json)(&case.text(LEVELS)).unwrap_err();
            assert_stopped(&case, "from_json", &err);
        }
    });
}

#[test]
fn the_deepest_accepted_value_is_read_on_a_small_stack() {
    on_small_stack(|| {
        for case in cases() {
            // Find where refusal starts; everything above must be read completely.
            let mut deepest = None;
            for levels in 0..=MAX_DEPTH + 1 {
                let value = case.value(levels);
                let text = case.text(levels);
                let by_value = (case.from_value)(value);
                let by_json = (case.from_json)(&text);
                match (&by_value, &by_json) {
                    (Ok(()), Ok(())) => deepest = Some(levels),
                    _ => {
                        for (surface, result) in [("from_value", by_value), ("from_json", by_json)]
                        {
                            if let Err(err) = result {
                                assert_eq!(
                                    err.issues()[0].kind(),
                                    IssueKind::TooDeep,
                                    "{} at {levels} levels via {surface}: {err}",
                                    case.name
                                );
                            }
                        }
                        break;
                    }
                }
            }
            let deepest = deepest.unwrap();
            let per_level = case.unit.len();
            assert!(
                deepest * per_level >= MAX_DEPTH / 2 - 2,
                "{}: only {deepest} levels are accepted",
                case.name
            );
        }
    });
}

// ---------------------------------------------------------------------------------------------
// JSON text nested 100 000 levels inside a string.

#[derive(Debug, Deserialize, ToolArgs)]
struct Point {
    x: u32,
}

#[derive(Debug, Deserialize, ToolArgs)]
enum Op {
    Add(Point),
    Remove { ids: Vec<u32> },
}

#[derive(Debug, Deserialize, ToolArgs)]
#[serde(untagged)]
enum NoStrings {
    Ids(Vec<u32>),
    Point { x: u32 },
}

#[derive(Debug, Deserialize, ToolArgs)]
#[serde(untagged)]
enum Pick {
    Ids(Vec<u32>),
    Name(String),
}

/// A field of every kind of position; all optional.
#[derive(Debug, Deserialize, ToolArgs)]
struct Positions {
    #[serde(default)]
    seq: Option<Vec<u32>>,
    #[serde(default)]
    lists: Option<Vec<Vec<u32>>>,
    #[serde(default)]
    object: Option<Point>,
    #[serde(default)]
    map: Option<HashMap<String, u32>>,
    #[serde(default)]
    tuple: Option<(u32, u32)>,
    #[serde(default)]
    numbers: Option<OneOrMany<u32>>,
    #[serde(default)]
    internal: Option<Expr>,
    #[serde(default)]
    external: Option<Op>,
    #[serde(default)]
    adjacent: Option<Adj>,
    #[serde(default)]
    untagged: Option<NoStrings>,
    #[serde(default)]
    node: Option<Node>,
    #[serde(default)]
    json_map: Option<Map<String, Value>>,
    // String-bearing: the text is a plain string here.
    #[serde(default)]
    names: Option<OneOrMany<String>>,
    #[serde(default)]
    pick: Option<Pick>,
    #[serde(default)]
    any: Option<Value>,
    #[serde(default)]
    text: Option<String>,
}

fn deep_texts() -> [String; 2] {
    [
        "[".repeat(LEVELS) + &"]".repeat(LEVELS),
        "{\"a\":".repeat(LEVELS) + "1" + &"}".repeat(LEVELS),
    ]
}

#[test]
fn deep_text_inside_a_string_is_refused_at_every_structured_position() {
    on_small_stack(|| {
        let fields = [
            "seq", "lists", "object", "map", "tuple", "numbers", "internal", "external",
            "adjacent", "untagged", "node", "json_map",
        ];
        for deep in deep_texts() {
            for field in fields {
                let args = json!({ field: deep });
                let want = [(field.to_owned(), IssueKind::TooDeep)];
                let got = |r: Result<(), ArgsError>| {
                    r.map_err(|e| stitch_tests::issues(&e))
                        .expect_err(&format!("{field} accepted deep text"))
                };
                assert_eq!(got(Positions::from_value(args.clone()).map(drop)), want);
                assert_eq!(got(Positions::from_json(&args.to_string()).map(drop)), want);
                let mut value = args.clone();
                assert_eq!(got(Positions::coerce_value(&mut value)), want);
                assert_eq!(value, args);
            }
            // Written twice: the list is repaired, then its element is deep text at `Vec<u32>`.
            let twice = Value::Array(vec![Value::String(deep.clone())]).to_string();
            let args = json!({ "lists": twice });
            let err = Positions::from_value(args).unwrap_err();
            assert_eq!(
                stitch_tests::issues(&err),
                [("lists.0".to_owned(), IssueKind::TooDeep)]
            );
        }
    });
}

#[test]
fn deep_text_at_a_string_position_is_one_plain_value() {
    on_small_stack(|| {
        for deep in deep_texts() {
            for field in ["names", "pick", "any", "text"] {
                let args = json!({ field: deep });
                let mut value = args.clone();
                Positions::coerce_value(&mut value).unwrap();
                assert_eq!(value, args, "{field}");
                let got = Positions::from_json(&args.to_string()).unwrap();
                let kept = match field {
                    "names" => got.names == Some(OneOrMany::One(deep.clone())),
                    "pick" => matches!(&got.pick, Some(Pick::Name(s)) if *s == deep),
                    "any" => got.any == Some(Value::String(deep.clone())),
                    _ => got.text.as_ref() == Some(&deep),
                };
                assert!(kept, "{field}");
            }
        }
    });
}
