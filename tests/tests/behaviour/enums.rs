//! Enums in every tagging serde offers: the matched variant is walked, with serde's names.

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
use stitch_tests::issues;
use stitch_tests::tools::Names3;

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "snake_case")]
enum External {
    Stop,
    Move(Names3),
    Swap(String, Vec<u32>),
    EditRows { rows: Vec<Names3> },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(
    tag = "type",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
enum Internal {
    Stop,
    Move(Names3),
    EditRows {
        row_list: Vec<Names3>,
    },
    #[serde(alias = "view")]
    ViewFile {
        #[stitch(max_items = 20)]
        file_paths: OneOrMany<String>,
    },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Stop,
    Move(Names3),
    Swap(String, Vec<u32>),
    Edit { rows: Vec<Names3> },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum Untagged {
    Ids(Vec<u32>),
    Row { names: OneOrMany<String> },
    Pair(u8, u8),
    Name(String),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Call<A> {
    action: A,
}

fn refused_at<T: ToolArgs + std::fmt::Debug>(args: Value, path: &str) {
    let err = T::from_value(args.clone()).unwrap_err();
    assert_eq!(
        issues(&err),
        [(path.to_owned(), IssueKind::TextList)],
        "{args}"
    );
    let mut value = args.clone();
    assert!(T::coerce_value(&mut value).is_err());
    assert_eq!(value, args);
}

#[test]
fn external_variants_are_walked_under_their_key() {
    refused_at::<Call<External>>(
        json!({"action": {"move": {"names": "[\"a\"]"}}}),
        "action.move.names",
    );
    refused_at::<Call<External>>(
        json!({"action": {"edit_rows": {"rows": [{"names": "[\"a\"]"}]}}}),
        "action.edit_rows.rows.0.names",
    );
    let got = Call::<External>::from_value(json!({"action": {"swap": ["[1]", "[1, 2]"]}})).unwrap();
    assert_eq!(got.action, External::Swap("[1]".to_owned(), vec![1, 2]));
    let got = Call::<External>::from_value(json!({"action": "stop"})).unwrap();
    assert_eq!(got.action, External::Stop);
    // Variant content written as text is repaired.
    let got = Call::<External>::from_value(
        json!({"action": {"edit_rows": "{\"rows\": [{\"names\": \"a\"}]}"}}),
    )
    .unwrap();
    assert_eq!(
        got.action,
        External::EditRows {
            rows: vec![Names3 {
                names: OneOrMany::One("a".to_owned())
            }]
        }
    );
}

#[test]
fn internal_variants_add_no_segment() {
    refused_at::<Call<Internal>>(
        json!({"action": {"type": "edit-rows", "rowList": [{"names": "[\"a\"]"}]}}),
        "action.rowList.0.names",
    );
    refused_at::<Call<Internal>>(
        json!({"action": {"type": "move", "names": "[\"a\"]"}}),
        "action.names",
    );
    refused_at::<Call<Internal>>(
        json!({"action": {"type": "view", "filePaths": "[\"a\"]"}}),
        "action.filePaths",
    );
    // The whole action written as text is repaired, then walked.
    let got = Call::<Internal>::from_value(
        json!({"action": "{\"type\": \"move\", \"names\": [\"a\", \"b\"]}"}),
    )
    .unwrap();
    assert_eq!(
        got.action,
        Internal::Move(Names3 {
            names: OneOrMany::Many(vec!["a".into(), "b".into()])
        })
    );
    // An unknown tag is left to serde.
    let err = Call::<Internal>::from_value(json!({"action": {"type": "fly", "names": "[\"a\"]"}}))
        .unwrap_err();
    assert_eq!(err.issues()[0].kind(), IssueKind::Invalid);
}

#[test]
fn adjacent_content_is_walked_under_the_content_key() {
    refused_at::<Call<Adjacent>>(
        json!({"action": {"t": "Move", "c": {"names": "[\"a\"]"}}}),
        "action.c.names",
    );
    refused_at::<Call<Adjacent>>(
        json!({"action": {"c": {"rows": [{"names": "[\"a\"]"}]}, "t": "Edit"}}),
        "action.c.rows.0.names",
    );
    let got =
        Call::<Adjacent>::from_value(json!({"action": {"t": "Swap", "c": "[\"x\", \"[3]\"]"}}))
            .unwrap();
    assert_eq!(got.action, Adjacent::Swap("x".to_owned(), vec![3]));
}

#[test]
fn untagged_values_go_to_the_first_member_that_takes_their_shape() {
    // A string-bearing union: a list the `Ids` member takes is refused…
    refused_at::<Call<Untagged>>(json!({"action": "[1, 2]"}), "action");
    // …while other strings stay one value.
    for text in ["[\"a\"]", "[1, 2", "plain"] {
        let got = Call::<Untagged>::from_value(json!({ "action": text })).unwrap();
        assert_eq!(got.action, Untagged::Name(text.to_owned()));
    }
    refused_at::<Call<Untagged>>(json!({"action": {"names": "[\"a\"]"}}), "action.names");
    let got = Call::<Untagged>::from_value(json!({"action": [7, 8]})).unwrap();
    assert_eq!(got.action, Untagged::Ids(vec![7, 8]));
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum NoStrings {
    Ids(Vec<u32>),
    Row { names: OneOrMany<String> },
}

#[test]
fn untagged_without_a_string_member_repairs() {
    let got = Call::<NoStrings>::from_value(json!({"action": "[1, 2]"})).unwrap();
    assert_eq!(got.action, NoStrings::Ids(vec![1, 2]));
    let got = Call::<NoStrings>::from_value(json!({"action": "{\"names\": \"x\"}"})).unwrap();
    assert_eq!(
        got.action,
        NoStrings::Row {
            names: OneOrMany::One("x".into())
        }
    );
}
