//! serde attributes that change what serde reads (issue #11, item 3): a field read by
//! `#[serde(deserialize_with)]` / `#[serde(with)]` is left as sent, and a container read
//! through `#[serde(from)]` / `#[serde(try_from)]` is walked, described and read on the command
//! line as its source type. The one-answer tests of `one_answer` cover the plain cases; these
//! cover the schema, variants, generics, nesting, flattening and item bounds.

use std::fmt::Debug;

use serde::{Deserialize, Deserializer};
use serde_json::{json, Value};
use stitch_runtime::{Args, ArgsError, IssueKind, OneOrMany, ToolArgs};
use stitch_tests::{issues, surfaces};

/// Runs `args` through `from_value`, `from_json` (compact and pretty), `Args<T>` and
/// `coerce_value` + serde, checks that they agree, and returns the answer.
#[track_caller]
fn answer<T: ToolArgs + PartialEq + Debug>(args: Value) -> Result<T, ArgsError> {
    let got = surfaces::<T>(&args);
    assert_eq!(got.from_json, got.from_value, "from_json differs on {args}");
    let pretty = serde_json::to_string_pretty(&args).unwrap();
    assert_eq!(
        T::from_json(&pretty),
        got.from_value,
        "pretty from_json differs on {args}"
    );
    let wrapped = serde_json::from_value::<Args<T>>(args.clone()).map(|a| a.0);
    match (&wrapped, &got.from_value) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "Args<T> differs on {args}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "Args<T> differs on {args}"),
        _ => panic!("Args<T> and from_value disagree on {args}"),
    }
    if let Ok(read) = &got.from_value {
        assert_eq!(got.coerced.0, Ok(()), "coerce_value refused {args}");
        let after: T = serde_json::from_value(got.coerced.1).unwrap();
        assert_eq!(&after, read, "coerce_value + serde differ on {args}");
    }
    got.from_value
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// `"a,b"` → `["a", "b"]`.
fn comma_separated<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let text = String::deserialize(d)?;
    Ok(text.split(',').map(str::to_owned).collect())
}

// --- deserialize_with / with ------------------------------------------------------------------

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Described {
    /// Column names.
    #[serde(deserialize_with = "comma_separated")]
    #[stitch(schema = r#"{"type": "string", "pattern": "^[a-z,]+$"}"#)]
    cols: Vec<String>,
    /// Also opaque, written out.
    #[serde(deserialize_with = "comma_separated", default)]
    #[stitch(opaque)]
    keys: Vec<String>,
}

#[test]
fn a_deserialize_with_field_advertises_its_schema() {
    let schema = Described::input_schema();
    assert_eq!(
        schema["properties"]["cols"],
        json!({"type": "string", "pattern": "^[a-z,]+$", "description": "Column names."})
    );
    assert_eq!(
        schema["properties"]["keys"],
        json!({"description": "Also opaque, written out."})
    );
    // The schema says `string`: the flag takes its text as it is.
    let got = Described::from_argv("described", ["--cols", "a,b"]).unwrap();
    assert_eq!(got.cols, strings(&["a", "b"]));
    // JSON text at an opaque field is left to the function, on every surface.
    assert_eq!(
        answer::<Described>(json!({"cols": "[\"a\"]", "keys": "{}"})),
        Ok(Described {
            cols: strings(&["[\"a\"]"]),
            keys: strings(&["{}"]),
        })
    );
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
enum Filter {
    #[serde(deserialize_with = "comma_separated")]
    Cols(Vec<String>),
    Nums(Vec<u32>),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Filtered {
    filter: Filter,
}

#[test]
fn a_deserialize_with_newtype_variant_gets_its_content_as_sent() {
    assert_eq!(
        answer::<Filtered>(json!({"filter": {"Cols": "[\"a\",\"b\"]"}})),
        Ok(Filtered {
            filter: Filter::Cols(strings(&["[\"a\"", "\"b\"]"])),
        })
    );
    // The other variants are walked as before: their JSON text is repaired.
    assert_eq!(
        answer::<Filtered>(json!({"filter": {"Nums": "[1,2]"}})),
        Ok(Filtered {
            filter: Filter::Nums(vec![1, 2]),
        })
    );
    let schema = Filtered::input_schema();
    let members = &schema["properties"]["filter"]["oneOf"];
    assert_eq!(members[0]["properties"]["Cols"], json!({}));
    assert_eq!(members[1]["properties"]["Nums"]["type"], "array");
}

// --- from / try_from --------------------------------------------------------------------------

/// What serde reads for [`Range`].
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct RawRange {
    /// The first line.
    start: u32,
    /// How many lines.
    #[serde(default)]
    len: Option<u32>,
    /// At most two labels.
    #[serde(default)]
    #[stitch(max_items = 2)]
    labels: Vec<String>,
}

/// A type stitch does not know: neither `Deserialize` nor `ToolArgs`.
#[derive(Debug, PartialEq)]
struct Unknown(u32);

/// Built from a [`RawRange`]; its own fields are not what serde reads.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(from = "RawRange")]
struct Range {
    bounds: (u32, u32),
    labels: Vec<String>,
    extra: Unknown,
}

impl From<RawRange> for Range {
    fn from(raw: RawRange) -> Range {
        Range {
            bounds: (raw.start, raw.start + raw.len.unwrap_or(1)),
            labels: raw.labels,
            extra: Unknown(0),
        }
    }
}

/// A tuple struct built from a [`RawRange`].
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(try_from = "RawRange")]
struct Lines(u32, u32);

impl TryFrom<RawRange> for Lines {
    type Error = &'static str;

    fn try_from(raw: RawRange) -> Result<Lines, &'static str> {
        match raw.len {
            Some(0) => Err("an empty range"),
            len => Ok(Lines(raw.start, raw.start + len.unwrap_or(1))),
        }
    }
}

#[test]
fn the_schema_of_a_from_type_is_its_source_types() {
    assert_eq!(Range::INPUT_SCHEMA, RawRange::INPUT_SCHEMA);
    assert_eq!(Lines::INPUT_SCHEMA, RawRange::INPUT_SCHEMA);
    assert_eq!(Range::input_schema(), RawRange::input_schema());
}

#[test]
fn a_from_type_is_walked_as_its_source_type() {
    let range = |start, end, labels: &[&str]| Range {
        bounds: (start, end),
        labels: strings(labels),
        extra: Unknown(0),
    };
    assert_eq!(
        answer::<Range>(json!({"start": 3, "len": 2, "labels": "[\"a\"]"})),
        Ok(range(3, 5, &["a"]))
    );
    // Raw's item bounds hold, on the fast path of `from_json` too.
    let err = answer::<Range>(json!({"start": 3, "labels": ["a", "b", "c"]})).unwrap_err();
    assert_eq!(issues(&err), [("labels".to_owned(), IssueKind::Invalid)]);
    // try_from's refusal is serde's, at the root.
    let err = answer::<Lines>(json!({"start": 3, "len": 0})).unwrap_err();
    assert_eq!(err.to_string(), "an empty range");
    assert_eq!(
        answer::<Lines>(json!({"start": 3, "labels": "[]"})),
        Ok(Lines(3, 4))
    );
}

/// A from type inside arguments: as a field, flattened, and in a list.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Holder {
    range: Range,
    #[serde(default)]
    more: OneOrMany<Lines>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Flat {
    name: String,
    #[serde(flatten)]
    range: Range,
}

#[test]
fn a_from_type_is_walked_as_its_source_type_wherever_it_is() {
    let got = answer::<Holder>(json!({
        "range": "{\"start\": 1, \"labels\": \"[\\\"x\\\"]\"}",
        "more": [{"start": 2, "len": 2}]
    }))
    .unwrap();
    assert_eq!(got.range.bounds, (1, 2));
    assert_eq!(got.range.labels, strings(&["x"]));
    assert_eq!(got.more, OneOrMany::Many(vec![Lines(2, 4)]));
    let got = answer::<Flat>(json!({"name": "n", "start": 4, "labels": "[\"y\"]"})).unwrap();
    assert_eq!(got.range.bounds, (4, 5));
    assert_eq!(got.range.labels, strings(&["y"]));
    let properties = Flat::input_schema()["properties"].clone();
    assert_eq!(
        properties.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["labels", "len", "name", "start"]
    );
}

#[test]
fn a_from_type_reads_its_source_types_flags() {
    let got = Range::from_argv("range", ["--start", "7", "--labels", "a", "--labels", "b"]);
    assert_eq!(got.unwrap().bounds, (7, 8));
    let err = Range::from_argv("range", ["--bounds", "[1,2]"]).unwrap_err();
    assert_eq!(err.issues()[0].kind(), IssueKind::Usage);
    let help = Range::from_argv("range", ["--help"])
        .unwrap_err()
        .to_string();
    assert!(help.contains("--start"), "{help}");
    assert!(!help.contains("--bounds"), "{help}");
}

/// Generic: `Raw<T>` decides the bounds of the impls.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct RawPair<T> {
    items: Vec<T>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(from = "RawPair<T>")]
struct Pair<T> {
    first: Option<T>,
}

impl<T> From<RawPair<T>> for Pair<T> {
    fn from(raw: RawPair<T>) -> Pair<T> {
        Pair {
            first: raw.items.into_iter().next(),
        }
    }
}

#[test]
fn a_generic_from_type_is_walked_as_its_source_type() {
    assert_eq!(
        answer::<Pair<u32>>(json!({"items": "[5,6]"})),
        Ok(Pair { first: Some(5) })
    );
    assert_eq!(
        Pair::<String>::input_schema(),
        RawPair::<String>::input_schema()
    );
}
