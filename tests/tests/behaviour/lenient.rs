//! `#[stitch(lenient_scalars)]`: numbers and booleans written as text, read only on request.

use serde::Deserialize;
use serde_json::json;
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
use stitch_tests::issues;

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Inner {
    count: u32,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum NameOrCount {
    Count(u32),
    Name(String),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct PerField {
    #[stitch(lenient_scalars)]
    limit: u32,
    #[serde(default)]
    strict: Option<u32>,
    #[serde(default)]
    #[stitch(lenient_scalars)]
    sizes: Vec<i16>,
    #[serde(default)]
    #[stitch(lenient_scalars)]
    ratio: Option<f64>,
    #[serde(default)]
    #[stitch(lenient_scalars)]
    on: Option<bool>,
}

/// On the container, the option reaches every field, but not into a nested struct, nor into a
/// string-bearing union (on such a field itself it is a compile error).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[stitch(lenient_scalars)]
struct Holder {
    #[serde(default)]
    inner: Option<Inner>,
    #[serde(default)]
    pick: Option<NameOrCount>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[stitch(lenient_scalars)]
struct PerType {
    limit: u8,
    on: bool,
    names: OneOrMany<String>,
}

#[test]
fn only_texts_that_round_trip_are_read() {
    let got = PerField::from_value(
        json!({"limit": "5", "sizes": ["-3", 4], "ratio": "0.5", "on": "true"}),
    )
    .unwrap();
    assert_eq!(got.limit, 5);
    assert_eq!(got.sizes, [-3, 4]);
    assert_eq!(got.ratio, Some(0.5));
    assert_eq!(got.on, Some(true));
    for text in ["5.0", " 5", "+5", "05", "0x5", "-0", "5 ", "4294967296", ""] {
        let err = PerField::from_value(json!({ "limit": text })).unwrap_err();
        assert_eq!(
            issues(&err),
            [("limit".to_owned(), IssueKind::Invalid)],
            "{text:?}"
        );
    }
    for text in ["1.5e", "NaN", "inf", " 1"] {
        assert!(
            PerField::from_value(json!({"limit": 1, "ratio": text})).is_err(),
            "{text:?}"
        );
    }
    assert!(PerField::from_value(json!({"limit": 1, "on": "True"})).is_err());
}

#[test]
fn off_by_default_and_not_inherited_by_nested_structs() {
    let err = PerField::from_value(json!({"limit": 1, "strict": "5"})).unwrap_err();
    assert_eq!(issues(&err), [("strict".to_owned(), IssueKind::Invalid)]);
    let err = Holder::from_value(json!({"inner": {"count": "5"}})).unwrap_err();
    assert_eq!(
        issues(&err),
        [("inner.count".to_owned(), IssueKind::Invalid)]
    );
}

#[test]
fn never_in_a_string_bearing_union() {
    let got = Holder::from_value(json!({"pick": "5"})).unwrap();
    assert_eq!(got.pick, Some(NameOrCount::Name("5".to_owned())));
}

#[test]
fn per_type_applies_to_every_field_and_leaves_strings_alone() {
    let got = PerType::from_value(json!({"limit": "200", "on": "false", "names": "5"})).unwrap();
    assert_eq!(
        got,
        PerType {
            limit: 200,
            on: false,
            names: OneOrMany::One("5".to_owned())
        }
    );
    let err = PerType::from_value(json!({"limit": "300", "on": "no", "names": "x"})).unwrap_err();
    assert_eq!(err.issues()[0].path(), "limit");
}

#[test]
fn the_raw_surface_writes_the_numbers_and_refusals_change_nothing() {
    let mut args = json!({"limit": "7", "sizes": ["1"]});
    PerField::coerce_value(&mut args).unwrap();
    assert_eq!(args, json!({"limit": 7, "sizes": [1]}));
    let before = json!({"limit": "7", "on": "true", "names": "[\"a\"]"});
    let mut args = before.clone();
    let err = PerType::coerce_value(&mut args).unwrap_err();
    assert_eq!(issues(&err), [("names".to_owned(), IssueKind::TextList)]);
    assert_eq!(args, before);
}
