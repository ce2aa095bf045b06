//! Arguments that are not an object are refused at the root (`docs/rules.md#r5`), and text
//! written twice is repaired at every position that reads no string (`docs/rules.md#r1`):
//! issue 18, items 5 and 6.

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{Args, ToolArgs};

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Pair {
    a: String,
    b: String,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Nums {
    x: u32,
    #[serde(default)]
    y: Vec<u32>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Meta {
    x: f64,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Twice {
    #[serde(default)]
    v: Vec<String>,
    #[serde(default)]
    o: Option<Vec<String>>,
    #[serde(default)]
    meta: Option<Meta>,
}

/// The one issue every surface gives for `args`: at the root, with `message`.
fn refused_at_root<T: ToolArgs + std::fmt::Debug>(args: Value, message: &str) {
    let text = args.to_string();
    let errors = [
        T::from_value(args.clone()).unwrap_err(),
        T::from_json(&text).unwrap_err(),
        {
            let mut coerced = args.clone();
            let err = T::coerce_value(&mut coerced).unwrap_err();
            assert_eq!(coerced, args, "a refusal changed the value");
            err
        },
    ];
    for err in errors {
        assert_eq!(err.issues().len(), 1, "{err}");
        assert_eq!(err.issues()[0].path(), "", "{err}");
        assert_eq!(err.to_string(), message);
    }
    let err = serde_json::from_str::<Args<T>>(&text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[test]
fn arguments_that_are_not_an_object_are_refused_at_the_root() {
    // serde itself reads these positionally.
    assert!(serde_json::from_value::<Pair>(json!(["a", "b"])).is_ok());
    assert!(serde_json::from_value::<Nums>(json!([1, [2]])).is_ok());
    let sentence =
        |kind: &str| format!("the arguments must be a JSON object of named parameters, not {kind}");
    refused_at_root::<Pair>(json!(["a", "b"]), &sentence("an array"));
    refused_at_root::<Nums>(json!([1, 2]), &sentence("an array"));
    refused_at_root::<Nums>(json!(5), &sentence("a number"));
    refused_at_root::<Nums>(json!(true), &sentence("a boolean"));
    refused_at_root::<Nums>(Value::Null, &sentence("null"));
}

#[test]
fn an_object_written_as_text_at_the_root_is_still_repaired() {
    let args = json!("{\"x\": 1}");
    assert_eq!(Nums::from_value(args).unwrap(), Nums { x: 1, y: vec![] });
}

#[test]
fn text_written_twice_is_repaired_at_plain_positions() {
    // `"[\"a\"]"` written as a JSON string: the text of the text of a list.
    let twice = Value::String(json!("[\"a\"]").to_string());
    let thrice = Value::String(Value::String(json!(["b", "c"]).to_string()).to_string());
    let meta = Value::String(Value::String("{\"x\": 2.5}".into()).to_string());
    for (key, sent, expected) in [
        ("v", twice.clone(), json!(["a"])),
        ("v", thrice.clone(), json!(["b", "c"])),
        ("o", twice.clone(), json!(["a"])),
        ("meta", meta, json!({"x": 2.5})),
    ] {
        let mut args = json!({});
        args[key] = sent;
        let mut coerced = args.clone();
        let repairs = Twice::coerce_value_reported(&mut coerced).unwrap();
        assert_eq!(coerced[key], expected, "{args}");
        assert_eq!(repairs.len(), 1, "{repairs}");
        let read = Twice::from_json(&args.to_string()).unwrap();
        assert_eq!(
            read,
            serde_json::from_value::<Twice>(coerced.clone()).unwrap()
        );
        assert_eq!(Twice::from_value(args).unwrap(), read);
    }
}

#[test]
fn text_written_twice_that_holds_no_list_is_refused_as_sent() {
    let sent = Value::String(json!("hello").to_string());
    let err = Twice::from_value(json!({ "v": sent })).unwrap_err();
    assert_eq!(
        err.to_string(),
        "v: invalid type: string \"\\\"hello\\\"\", expected a sequence"
    );
    // Text whose inner text is a number stays as sent too: a list position takes no number.
    let sent = Value::String(json!("5").to_string());
    let mut args = json!({ "v": sent });
    let before = args.clone();
    assert!(Twice::coerce_value(&mut args).is_err());
    assert_eq!(args, before);
}
