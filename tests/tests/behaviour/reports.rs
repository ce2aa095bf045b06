//! Repair reports: every surface answers with exactly the positions it repaired, in order, and
//! a call that needed no repair reports none.

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{Args, IssueKind, OneOrMany, RepairKind, Reported, ToolArgs};
use stitch_tests::tools::{Edit, ViewFile};

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Rows {
    rows: Vec<Vec<u32>>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    either: Option<OneOrMany<Vec<u32>>>,
    #[serde(default)]
    #[stitch(lenient_scalars)]
    limit: Option<u32>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum Pick {
    Row { ids: Vec<u32> },
    Name(String),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Picked {
    pick: Pick,
}

/// `(path, kind)` of each repair, in the report's order.
fn listed(repairs: &stitch_runtime::Repairs) -> Vec<(String, RepairKind)> {
    repairs
        .iter()
        .map(|r| (r.path().to_owned(), r.kind()))
        .collect()
}

/// The repairs of `args` on all four surfaces: they must agree, and the value each accepts must
/// be the one `from_value` reads.
fn on_every_surface<T>(args: Value) -> Vec<(String, RepairKind)>
where
    T: ToolArgs + PartialEq + std::fmt::Debug,
{
    let text = args.to_string();
    let by_value = T::from_value_reported(args.clone()).unwrap();
    let by_json = T::from_json_reported(&text).unwrap();
    let by_serde: Reported<T> = serde_json::from_str(&text).unwrap();
    let mut coerced = args.clone();
    let by_coerce = T::coerce_value_reported(&mut coerced).unwrap();
    assert_eq!(by_value.args, by_json.args);
    assert_eq!(by_value.args, by_serde.args);
    assert_eq!(by_value.args, T::from_value(coerced).unwrap());
    assert_eq!(by_value.repairs, by_json.repairs, "from_json");
    assert_eq!(
        by_value.repairs, by_serde.repairs,
        "Reported<T> through serde"
    );
    assert_eq!(by_value.repairs, by_coerce, "coerce_value");
    // The plain surfaces read the same value.
    assert_eq!(by_value.args, T::from_value(args).unwrap());
    assert_eq!(by_value.args, T::from_json(&text).unwrap());
    let Args(framed) = serde_json::from_str::<Args<T>>(&text).unwrap();
    assert_eq!(by_value.args, framed);
    listed(&by_value.repairs)
}

fn at(path: &str, kind: RepairKind) -> (String, RepairKind) {
    (path.to_owned(), kind)
}

#[test]
fn a_clean_call_reports_no_repair() {
    let clean = json!({"rows": [[1], [2, 3]], "tags": ["a"], "either": [[1]], "limit": 5});
    assert!(on_every_surface::<Rows>(clean).is_empty());
    let view = json!({"paths": "[preview].png"});
    assert!(on_every_surface::<ViewFile>(view).is_empty());
    let reported = ViewFile::from_json_reported(r#"{"paths": ["a.png"]}"#).unwrap();
    assert!(!reported.was_repaired());
    assert_eq!(reported.repairs.to_string(), "");
}

#[test]
fn each_repaired_position_is_reported_by_its_path() {
    let args = json!({"tags": "[\"x\"]", "rows": ["[1, 2]", [3], "[4]"]});
    assert_eq!(
        on_every_surface::<Rows>(args),
        [
            at("rows.0", RepairKind::JsonText),
            at("rows.2", RepairKind::JsonText),
            at("tags", RepairKind::JsonText),
        ]
    );
}

#[test]
fn json_text_inside_json_text_is_reported_at_each_position() {
    // The list of rows was written as text, and inside it one row again.
    let args = json!({"rows": "[\"[1]\", [2]]"});
    assert_eq!(
        on_every_surface::<Rows>(args),
        [
            at("rows", RepairKind::JsonText),
            at("rows.0", RepairKind::JsonText)
        ]
    );
    // Rows of an edit, written as text, holding a row's notes written as text.
    let args = json!({"file": "f", "rows": "[{\"line\": 1, \"names\": \"a\", \"notes\": \"{}\"}]"});
    assert_eq!(
        on_every_surface::<Edit>(args),
        [
            at("rows", RepairKind::JsonText),
            at("rows.0.notes", RepairKind::JsonText)
        ]
    );
}

#[test]
fn text_parsed_more_than_once_at_one_position_is_one_repair() {
    // A list encoded twice: the string's JSON is a string holding the list.
    let twice = serde_json::to_string(&json!([[1, 2]]).to_string()).unwrap();
    let args = json!({"rows": [], "either": twice});
    let got = on_every_surface::<Rows>(args);
    assert_eq!(got, [at("either", RepairKind::NestedJsonText)]);
    let reported = Rows::from_value_reported(json!({"rows": [], "either": twice})).unwrap();
    assert_eq!(
        reported.args.either,
        Some(OneOrMany::Many(vec![vec![1, 2]]))
    );
    assert_eq!(
        reported.repairs.to_string(),
        "either: JSON text parsed more than once"
    );
}

#[test]
fn a_number_written_as_text_under_lenient_scalars_is_reported() {
    let args = json!({"rows": [], "limit": "7"});
    assert_eq!(
        on_every_surface::<Rows>(args),
        [at("limit", RepairKind::ScalarText)]
    );
}

/// Defaulted fields (R8) beside an `Option`, a flattened struct and an alias.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Find {
    query: String,
    #[serde(default)]
    case: bool,
    #[serde(default)]
    filters: Filters,
    #[serde(flatten)]
    paging: Paging,
}

#[derive(Debug, Default, PartialEq, Deserialize, ToolArgs)]
struct Filters {
    #[serde(default)]
    case: bool,
    #[serde(default, alias = "kind")]
    kinds: Vec<String>,
    limit: Option<u32>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Paging {
    #[serde(default)]
    page: u32,
}

#[test]
fn null_at_a_defaulted_field_is_reported_as_the_field_left_out() {
    let args = json!({"query": "q", "case": null});
    assert_eq!(
        on_every_surface::<Find>(args),
        [at("case", RepairKind::NullLeftOut)]
    );
    // In a nested struct (under an alias), in a flattened one, beside JSON text; an `Option`'s
    // `null` is `None`, kept and not reported.
    let args = json!({
        "page": null,
        "filters": "{\"kind\": null, \"case\": null, \"limit\": null}",
        "query": "q",
    });
    assert_eq!(
        on_every_surface::<Find>(args.clone()),
        // A flattened struct's field sorts by its place in that struct, as its issues do.
        [
            at("page", RepairKind::NullLeftOut),
            at("filters", RepairKind::JsonText),
            at("filters.case", RepairKind::NullLeftOut),
            at("filters.kind", RepairKind::NullLeftOut),
        ]
    );
    let mut coerced = args;
    let repairs = Find::coerce_value_reported(&mut coerced).unwrap();
    assert_eq!(coerced, json!({"filters": {"limit": null}, "query": "q"}));
    assert_eq!(
        repairs.to_string(),
        "page: null taken as the field left out\nfilters: JSON text parsed\n\
         filters.case: null taken as the field left out\nfilters.kind: null taken as the field left out"
    );
    assert_eq!(
        serde_json::to_value(&repairs).unwrap()[2],
        json!({"path": "filters.case", "kind": "null_left_out"})
    );
    // Only `Option`s' `null`: nothing repaired.
    let args = json!({"query": "q", "filters": {"limit": null}});
    assert!(on_every_surface::<Find>(args).is_empty());
    // A refused call drops nothing and reports its issues.
    let args = json!({"case": null});
    let mut sent = args.clone();
    assert!(Find::coerce_value_reported(&mut sent).is_err());
    assert_eq!(sent, args);
}

#[test]
fn a_repair_inside_an_untagged_member_is_reported() {
    let args = json!({"pick": {"ids": "[1, 2]"}});
    assert_eq!(
        on_every_surface::<Picked>(args),
        [at("pick.ids", RepairKind::JsonText)]
    );
    // A string member keeps the string: nothing repaired.
    assert!(on_every_surface::<Picked>(json!({"pick": "[1, 2]x"})).is_empty());
}

#[test]
fn a_refused_call_reports_its_issues_not_its_repairs() {
    let args = json!({"file": "f", "rows": "[{\"line\": 1, \"names\": \"[\\\"a\\\"]\"}]"});
    let err = Edit::from_value_reported(args.clone()).unwrap_err();
    assert_eq!(err.issues()[0].kind(), IssueKind::TextList);
    assert_eq!(err.issues()[0].path(), "rows.0.names");
    let mut sent = args.clone();
    assert!(Edit::coerce_value_reported(&mut sent).is_err());
    assert_eq!(sent, args, "a refused call changes nothing");
    let err = serde_json::from_str::<Reported<Edit>>(&args.to_string()).unwrap_err();
    assert!(err
        .to_string()
        .contains("rows.0.names is a list written as text"));
}

#[test]
fn the_report_displays_and_serializes() {
    let reported =
        Rows::from_json_reported(r#"{"rows": "[[1]]", "tags": "[]", "limit": "2"}"#).unwrap();
    assert_eq!(
        reported.repairs.to_string(),
        "rows: JSON text parsed\ntags: JSON text parsed\nlimit: number or boolean written as text read"
    );
    assert_eq!(
        serde_json::to_value(&reported.repairs).unwrap(),
        json!([
            {"path": "rows", "kind": "json_text"},
            {"path": "tags", "kind": "json_text"},
            {"path": "limit", "kind": "scalar_text"},
        ])
    );
    assert_eq!(reported.repairs.len(), 3);
    assert_eq!(reported.into_inner().rows, [[1]]);
}

#[test]
fn reported_advertises_the_arguments_schema() {
    let reported = schemars::schema_for!(Reported<ViewFile>);
    let args = schemars::schema_for!(Args<ViewFile>);
    assert_eq!(reported, args);
    assert_eq!(
        reported.as_value()["properties"],
        ViewFile::input_schema()["properties"]
    );
}
