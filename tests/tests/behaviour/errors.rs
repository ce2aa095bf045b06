//! `ArgsError` and `Issue`: messages, paths of deserialization failures, serialization.

use serde::Deserialize;
use serde_json::json;
use stitch_runtime::{ArgsError, IssueKind, OneOrMany, ToolArgs};
use stitch_tests::issues;

#[derive(Debug, Deserialize, ToolArgs)]
struct WeightedRow {
    names: OneOrMany<String>,
    #[serde(default)]
    weight: u8,
}

#[derive(Debug, Deserialize, ToolArgs)]
struct WeightedEdit {
    file: String,
    rows: Vec<WeightedRow>,
}

fn assert_error_traits<E: std::error::Error + Send + Sync + 'static>() {}

#[test]
fn args_error_is_a_proper_error() {
    assert_error_traits::<ArgsError>();
}

#[test]
fn deserialization_failures_name_their_path() {
    let err = WeightedEdit::from_value(
        json!({"file": "a", "rows": [{"names": "x"}, {"names": "y", "weight": 300}]}),
    )
    .unwrap_err();
    assert_eq!(
        issues(&err),
        [("rows.1.weight".to_owned(), IssueKind::Invalid)]
    );
    assert_eq!(
        err.to_string(),
        "rows.1.weight: invalid value: integer `300`, expected u8"
    );
    // A missing field is reported at the path it would have had (#11).
    let err = WeightedEdit::from_value(json!({"rows": []})).unwrap_err();
    assert_eq!(err.to_string(), "file: missing field `file`");
    assert_eq!(err.issues()[0].path(), "file");
}

#[test]
fn malformed_json_text_is_one_invalid_issue() {
    let err = WeightedEdit::from_json("{\"file\": ").unwrap_err();
    assert_eq!(issues(&err), [(String::new(), IssueKind::Invalid)]);
    assert!(
        err.to_string()
            .starts_with("the arguments are not valid JSON: "),
        "{err}"
    );
}

#[test]
fn serializes_for_a_json_rpc_error() {
    let err = WeightedEdit::from_value(
        json!({"file": "a", "rows": [{"names": "[\"x\"]"}, {"names": "[]"}]}),
    )
    .unwrap_err();
    let value = serde_json::to_value(&err).unwrap();
    assert_eq!(
        value,
        json!({"issues": [
            {"path": "rows.0.names", "kind": "text_list", "message": "rows.0.names is a list written as text \u{2014} pass the array itself, not JSON written as text"},
            {"path": "rows.1.names", "kind": "text_list", "message": "rows.1.names is a list written as text \u{2014} pass the array itself, not JSON written as text"},
        ]})
    );
    assert_eq!(err.to_string().lines().count(), 2);
}

#[test]
fn the_message_uses_an_em_dash_with_single_spaces() {
    let err =
        WeightedEdit::from_value(json!({"file": "a", "rows": [{"names": "[\"x\"]"}]})).unwrap_err();
    let message = err.issues()[0].message();
    assert!(message.contains(" \u{2014} "));
    assert!(!message.contains("  "));
    assert_eq!(message.chars().filter(|c| !c.is_ascii()).count(), 1);
}
