//! Which values are plain, and what a type's `Root` leaves unlooked-into.

use super::{plain_args, Plain, Root};
use crate::schema::{Describe, FieldOf, Flattened, Object, Property, Schema};
use crate::OneOrMany;
use serde_json::{json, Value};

/// Knowing nothing of the type: every list looked into.
fn plain(value: &Value) -> bool {
    plain_args(value, &Root::BLIND) == Plain::Yes
}

/// A root with `paths: OneOrMany<String>`, `names: Vec<String>`, `counts: Vec<u32>`
/// and `label: String`.
fn typed_root(flatten: &'static [Flattened], escaped: bool) -> Root {
    fn property(name: &'static str, schema: &'static Schema) -> Property {
        let of = FieldOf {
            schema,
            optional: false,
            default: None,
        };
        Property(Box::leak(Box::new(of)), name, 0, "")
    }
    let properties = vec![
        property("paths", <OneOrMany<String> as Describe>::SCHEMA),
        property("names", <Vec<String> as Describe>::SCHEMA),
        property("counts", <Vec<u32> as Describe>::SCHEMA),
        property(
            if escaped { "la\\\"bel" } else { "label" },
            <String as Describe>::SCHEMA,
        ),
    ];
    let object = Box::leak(Box::new(Object {
        properties: Vec::leak(properties),
        flatten,
        ..Object::EMPTY
    }));
    Root::of(Box::leak(Box::new(Schema::Object(object))), None)
}

#[test]
fn a_list_of_strings_taken_as_they_are_is_not_looked_into() {
    let root = typed_root(&[], false);
    let text_items = json!(["[\"a\"]", "{\"b\": 1}", "5"]);
    for key in ["paths", "names"] {
        let args = json!({ key: text_items });
        assert_eq!(plain_args(&args, &root), Plain::Yes, "{key}");
        assert!(!plain(&args), "{key}");
    }
    // Items of another kind, an unknown key, a string where the list goes: looked into.
    for args in [
        json!({ "counts": text_items }),
        json!({ "other": text_items }),
        json!({ "paths": "[\"a\"]" }),
        json!({ "label": ["[1]"] }),
        json!({ "paths": [], "names": null }),
    ] {
        assert_eq!(plain_args(&args, &root), Plain::No, "{args}");
    }
}

#[test]
fn a_root_read_through_a_buffer_or_with_an_escaped_name_is_looked_into() {
    static FLAT: [Flattened; 1] = [Flattened {
        schema: &Schema::Map(&Schema::String),
        optional: false,
    }];
    let args = json!({ "paths": ["[1]"] });
    assert_eq!(plain_args(&args, &typed_root(&[], false)), Plain::Yes);
    assert_eq!(plain_args(&args, &typed_root(&FLAT, false)), Plain::No);
    assert_eq!(plain_args(&args, &typed_root(&[], true)), Plain::No);
}

#[test]
fn strings_that_are_json_text_are_not_plain() {
    for text in [
        "[\"a.png\"]",
        " [1, 2]",
        "{\"a\": 1}",
        "5",
        "-1.5",
        "true",
        "false",
        "null",
        "\"quoted\"",
        "\n[]",
    ] {
        assert!(!plain(&json!({ "a": text })), "{text:?}");
        assert!(!plain(&json!({ "a": [1, { "b": text }] })), "{text:?}");
    }
}

#[test]
fn other_strings_are_plain() {
    for text in [
        "a.png",
        "[preview].png",
        "[1,2",
        "{not json}",
        "2024-01-01",
        "nothing",
        "tru",
        "",
        " ",
    ] {
        assert!(plain(&json!({ "a": text, "b": [text] })), "{text:?}");
    }
}

#[test]
fn the_number_grammar_is_serde_json_s() {
    let texts = [
        "0",
        "-0",
        "7",
        "42",
        "-17",
        "1.5",
        "-0.25",
        "1e5",
        "1E+5",
        "2.5e-3",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "+1",
        "0x1",
        "1_000",
        "12a",
        "1.2.3",
        "2024-01-01",
        "-a",
        "00",
    ];
    for text in texts {
        let serde = serde_json::from_str::<serde_json::Number>(text).is_ok();
        assert_eq!(super::is_json_number(text.as_bytes()), serde, "{text:?}");
        assert_eq!(plain(&json!({ "a": text })), !serde, "{text:?}");
    }
}

#[test]
fn a_null_member_is_not_plain_a_null_item_is() {
    assert!(!plain(&json!({ "a": null })));
    assert!(!plain(&json!({ "a": [{ "b": null }] })));
    assert!(plain(&json!({ "a": [null, 1, true] })));
}

#[test]
fn a_value_past_the_depth_limit_is_not_plain() {
    let mut deep = json!(1);
    for _ in 0..crate::json::depth::MAX_DEPTH {
        deep = json!([deep]);
    }
    assert!(plain(&deep));
    let deeper = json!([deep]);
    assert!(!plain(&deeper));
    // `deeper` is dropped by serde_json recursively: 129 levels are fine.
}
