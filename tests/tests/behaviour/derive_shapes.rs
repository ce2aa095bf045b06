//! Shapes the derive must compile and walk: a generic recursive type whose parameter is opaque,
//! a borrowed field, an enum with opaque and skipped fields, and a struct whose only field is
//! flattened (this last one did not compile before the derive was regrouped).

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::json;
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
use stitch_tests::{issues, text_list_message};

/// A type of another crate: no `ToolArgs`, so it is opaque where it is used.
#[derive(Debug, Deserialize, PartialEq)]
struct Foreign {
    a: u8,
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Node<T> {
    #[stitch(opaque)]
    value: T,
    #[stitch(max_items = 1)]
    next: Vec<Self>,
    tags: OneOrMany<String>,
}

#[test]
fn a_generic_recursive_type_with_an_opaque_parameter_is_walked_at_every_level() {
    let err = Node::<Foreign>::from_value(json!({
        "value": {"a": 1}, "tags": "x",
        "next": [{"value": {"a": 2}, "tags": "[\"a\"]", "next": []}]
    }))
    .unwrap_err();
    assert_eq!(
        issues(&err),
        [("next.0.tags".to_owned(), IssueKind::TextList)]
    );
    assert_eq!(err.to_string(), text_list_message("next.0.tags"));

    let node =
        Node::<Foreign>::from_json(r#"{"value": {"a": 1}, "tags": "x", "next": "[]"}"#).unwrap();
    assert_eq!(node.value, Foreign { a: 1 });
    assert!(
        node.next.is_empty(),
        "the list written as text was repaired"
    );
    assert_eq!(node.tags, OneOrMany::One("x".to_owned()));

    // The schema anchors the recursive type and refers to it from `next`.
    let schema = Node::<Foreign>::input_schema();
    assert_eq!(schema["properties"]["next"]["maxItems"], 1);
    assert!(schema["properties"]["next"]["items"]["$ref"].is_string());
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Borrowed<'a> {
    name: Cow<'a, str>,
    tags: Vec<String>,
}

#[test]
fn a_type_with_a_lifetime_is_walked() {
    let args = Borrowed::from_value(json!({"name": "x", "tags": "[\"a\"]"})).unwrap();
    assert_eq!(args.name, "x");
    assert_eq!(args.tags, ["a"]);
}

#[derive(Debug, Deserialize, ToolArgs)]
enum WithOpaque {
    A {
        #[stitch(opaque)]
        x: Foreign,
        #[serde(skip)]
        y: u8,
        z: Vec<u8>,
    },
    B(#[stitch(opaque)] Foreign, Vec<u8>),
}

#[test]
fn opaque_and_skipped_fields_of_variants_are_left_to_serde() {
    match WithOpaque::from_value(json!({"A": {"x": {"a": 3}, "z": "[1]"}})).unwrap() {
        WithOpaque::A { x, y, z } => {
            assert_eq!((x, y, z), (Foreign { a: 3 }, 0, vec![1]));
        }
        other => panic!("read as {other:?}"),
    }
    match WithOpaque::from_value(json!({"B": [{"a": 1}, "[2]"]})).unwrap() {
        WithOpaque::B(foreign, items) => assert_eq!((foreign, items), (Foreign { a: 1 }, vec![2])),
        other => panic!("read as {other:?}"),
    }
}

#[derive(Debug, Deserialize, ToolArgs)]
struct OnlyFlat {
    #[serde(flatten)]
    rest: HashMap<String, Vec<u8>>,
}

#[derive(Debug, Deserialize, ToolArgs)]
struct OnlyOpaqueFlat {
    #[serde(flatten)]
    #[stitch(opaque)]
    rest: HashMap<String, Vec<u8>>,
}

#[test]
fn a_struct_whose_only_field_is_flattened_walks_it() {
    let args = OnlyFlat::from_value(json!({"a": "[1, 2]"})).unwrap();
    assert_eq!(args.rest["a"], [1, 2]);
    // Opaque: left to serde as sent, so the text is not repaired and serde refuses it.
    let err = OnlyOpaqueFlat::from_value(json!({"a": "[1, 2]"})).unwrap_err();
    assert_eq!(err.issues()[0].kind(), IssueKind::Invalid);
}
