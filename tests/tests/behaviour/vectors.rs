//! Every row of the test vector table of `docs/rules.md#test-vectors`, through all three surfaces.

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
use stitch_tests::shapes::{five, one_x, seven, Maybe};
use stitch_tests::tools::{Names3, Paths, Paths20, Rows3};
use stitch_tests::{issues, surfaces, text_list_message};

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Tags {
    tags: Vec<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Meta {
    x: f64,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct WithMeta {
    meta: Meta,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct OptionalTags {
    tags: Option<Vec<String>>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Names1 {
    #[stitch(max_items = 1)]
    names: OneOrMany<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum Pick {
    Name(String),
    Ids(Vec<u32>),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Picker {
    pick: Pick,
}

/// A row whose outcome is a value: all three surfaces agree, and `coerce_value` leaves
/// exactly `expected`.
fn repaired<T: ToolArgs + PartialEq + std::fmt::Debug>(args: Value, expected: Value) {
    let s = surfaces::<T>(&args);
    let want: T = serde_json::from_value(expected.clone()).expect("expected value deserializes");
    assert_eq!(
        s.from_value.as_ref().unwrap(),
        &want,
        "from_value of {args}"
    );
    assert_eq!(s.from_json.as_ref().unwrap(), &want, "from_json of {args}");
    assert!(
        s.coerced.0.is_ok(),
        "coerce_value of {args}: {:?}",
        s.coerced.0
    );
    assert_eq!(s.coerced.1, expected, "coerce_value of {args}");
}

/// A row whose outcome is a refusal at `path`: all three surfaces refuse with the exact
/// message, and `coerce_value` leaves the value as it was.
fn refused<T: ToolArgs + std::fmt::Debug>(args: Value, path: &str) {
    let s = surfaces::<T>(&args);
    for (surface, result) in [
        ("from_value", s.from_value.as_ref().err()),
        ("from_json", s.from_json.as_ref().err()),
    ] {
        let err = result.unwrap_or_else(|| panic!("{surface} accepted {args}"));
        assert_eq!(
            issues(err),
            [(path.to_owned(), IssueKind::TextList)],
            "{surface} of {args}"
        );
        assert_eq!(
            err.to_string(),
            text_list_message(path),
            "{surface} of {args}"
        );
    }
    let err = s.coerced.0.expect_err("coerce_value refuses");
    assert_eq!(issues(&err), [(path.to_owned(), IssueKind::TextList)]);
    assert_eq!(
        s.coerced.1, args,
        "a refused call leaves the value as it was"
    );
}

/// A row whose outcome is the value kept as it is.
fn kept<T: ToolArgs + PartialEq + std::fmt::Debug>(args: Value) {
    repaired::<T>(args.clone(), args);
}

#[test]
fn text_list_for_vec_is_repaired() {
    repaired::<Tags>(
        json!({"tags": "[\"a\",\"b\"]"}),
        json!({"tags": ["a", "b"]}),
    );
}

#[test]
fn object_text_for_struct_is_repaired() {
    repaired::<WithMeta>(json!({"meta": "{\"x\":42}"}), json!({"meta": {"x": 42}}));
}

#[test]
fn text_list_for_optional_vec_is_repaired() {
    repaired::<OptionalTags>(json!({"tags": "[\"x\"]"}), json!({"tags": ["x"]}));
}

#[test]
fn not_json_for_vec_is_a_type_error_at_the_field() {
    let args = json!({"tags": "not-json"});
    let s = surfaces::<Tags>(&args);
    let refusal = s.from_value.unwrap_err();
    for err in [refusal.clone(), s.from_json.unwrap_err()] {
        assert_eq!(issues(&err), [("tags".to_owned(), IssueKind::Invalid)]);
        assert!(
            err.to_string()
                .starts_with("tags: invalid type: string \"not-json\""),
            "{err}"
        );
    }
    // The raw surface runs the same check: the same issue, the value left as it was.
    assert_eq!(s.coerced.0, Err(refusal));
    assert_eq!(s.coerced.1, args);
}

#[test]
fn text_list_for_one_or_many_is_refused() {
    refused::<Names3>(json!({"names": "[\"a\",\"b\"]"}), "names");
}

#[test]
fn text_list_in_nested_row_is_refused_with_dotted_path() {
    refused::<Rows3>(json!({"rows": [{"names": " [\"a\"]"}]}), "rows.0.names");
}

#[test]
fn empty_text_list_is_refused() {
    refused::<Names3>(json!({"names": "[]"}), "names");
}

#[test]
fn plain_values_stay_one_value() {
    for text in [
        "[preview].png",
        "plain",
        "[\"a\",\"b\"]",
        "[1,2",
        "[{\"a\":1}]",
        "123",
    ] {
        kept::<Names1>(json!({ "names": text }));
        let got = Names1::from_value(json!({ "names": text })).unwrap();
        assert_eq!(got.names, OneOrMany::One(text.to_owned()));
    }
}

#[test]
fn untagged_string_variant_keeps_a_string_list() {
    kept::<Picker>(json!({"pick": "[\"a\"]"}));
    let got = Picker::from_value(json!({"pick": "[\"a\"]"})).unwrap();
    assert_eq!(got.pick, Pick::Name("[\"a\"]".to_owned()));
}

#[test]
fn untagged_number_list_is_refused() {
    refused::<Picker>(json!({"pick": "[1,2]"}), "pick");
}

#[test]
fn whitespace_around_text_list_is_refused() {
    refused::<Paths20>(
        json!({"paths": "  [\"https://example.com/pic.png\"]\n"}),
        "paths",
    );
}

#[test]
fn text_list_inside_real_array_is_a_plain_string() {
    kept::<Paths>(json!({"paths": ["[\"nested/pic.png\"]"]}));
    let got = Paths::from_value(json!({"paths": ["[\"nested/pic.png\"]"]})).unwrap();
    assert_eq!(
        got.paths,
        OneOrMany::Many(vec!["[\"nested/pic.png\"]".to_owned()])
    );
}

#[test]
fn bracketed_names_in_real_array_are_kept() {
    kept::<Paths>(json!({"paths": ["nested/pic.png", "[preview].PNG"]}));
}

#[derive(Debug, Default, PartialEq, Deserialize, ToolArgs)]
struct Filters {
    #[serde(default)]
    case: bool,
    #[serde(default)]
    tags: Vec<String>,
    limit: Option<u32>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct WithFilters {
    query: String,
    #[serde(default)]
    filters: Filters,
    #[serde(default)]
    names: OneOrMany<String>,
}

/// Defaulted fields whose types serde reads `null` into (not as the field left out).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Nulls {
    #[serde(default = "seven")]
    maybe: Maybe,
    #[serde(default = "five")]
    count: Option<u32>,
    #[serde(default = "one_x")]
    names: OneOrMany<Option<String>>,
    #[serde(default)]
    limit: u32,
}

#[test]
fn null_that_serde_reads_is_read_not_left_out() {
    // Each `null` but `limit`'s is a value of its field's type: serde's reading stands, on
    // every surface; `limit`'s is the field left out (R8).
    let args = json!({"maybe": null, "count": null, "names": null, "limit": null});
    let want = Nulls {
        maybe: Maybe::Nothing,
        count: None,
        names: OneOrMany::One(None),
        limit: 0,
    };
    repaired::<Nulls>(args, json!({"maybe": null, "count": null, "names": null}));
    assert_eq!(
        serde_json::from_value::<Nulls>(json!({"maybe": null, "count": null, "names": null}))
            .unwrap(),
        want
    );
    assert_eq!(
        Nulls::from_value(json!({})).unwrap(),
        Nulls {
            maybe: Maybe::Count(7),
            count: Some(5),
            names: one_x(),
            limit: 0,
        }
    );
}

/// A newtype around an `Option`: serde requires it, and reads its `null`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Wrap(Option<u32>);

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Wrapped {
    w: Wrap,
}

#[test]
fn a_newtype_of_an_option_is_required_as_serde_requires_it() {
    assert!(serde_json::from_value::<Wrapped>(json!({})).is_err());
    let s = surfaces::<Wrapped>(&json!({}));
    assert!(s.from_value.is_err() && s.from_json.is_err());
    assert_eq!(
        issues(&s.coerced.0.unwrap_err()),
        [("w".to_owned(), IssueKind::Invalid)]
    );
    assert_eq!(Wrapped::input_schema()["required"], json!(["w"]));
    kept::<Wrapped>(json!({"w": 3}));
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Wraps {
    w: Wrap,
    ws: Vec<Wrap>,
}

#[test]
fn a_newtype_of_an_option_says_null_where_serde_reads_it() {
    // Required, and its `null` is `Wrap(None)`; in a list, an item's `null` too: the schema
    // says so, and the coercer built from it reads what the derive reads.
    let args = json!({"w": null, "ws": [null, 2]});
    kept::<Wraps>(args.clone());
    let coercer = stitch_runtime::json_schema::Coercer::new(Wraps::input_schema()).unwrap();
    let mut value = args.clone();
    coercer.coerce(&mut value).unwrap();
    assert_eq!(value, args);
    let schema = Wraps::input_schema();
    assert!(
        jsonschema::validator_for(schema).unwrap().is_valid(&args),
        "{schema}"
    );
}

#[test]
fn null_at_a_defaulted_field_is_the_field_left_out() {
    repaired::<WithFilters>(
        json!({"query": "q", "filters": {"case": null, "tags": null, "limit": null}}),
        json!({"query": "q", "filters": {"limit": null}}),
    );
    repaired::<WithFilters>(
        json!({"query": "q", "filters": null, "names": null}),
        json!({"query": "q"}),
    );
    let read = WithFilters::from_value(json!({"query": "q", "filters": null})).unwrap();
    assert_eq!(read.filters, Filters::default());
    // On a refusal nothing is dropped.
    let args = json!({"query": 5, "filters": {"case": null}});
    let s = surfaces::<WithFilters>(&args);
    assert_eq!(
        issues(&s.coerced.0.unwrap_err()),
        [("query".to_owned(), IssueKind::Invalid)]
    );
    assert_eq!(s.coerced.1, args);
    // A required field's null is still serde's type error.
    let err = WithFilters::from_value(json!({"query": null})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "query: invalid type: null, expected a string"
    );
}
