//! A flattened map reads exactly the keys no declared field claims, at any level of the
//! flatten chain, tag keys included (`docs/rules.md#r4`, issue 18 item 1).

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{Args, OneOrMany, ToolArgs};

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Mid {
    m1: Option<u32>,
    #[serde(flatten)]
    rest: HashMap<String, Vec<u32>>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Chain {
    a: String,
    b: Option<OneOrMany<String>>,
    #[serde(flatten)]
    mid: Mid,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op")]
enum Op {
    Run {
        n: Option<u32>,
        #[serde(flatten)]
        env: HashMap<String, Vec<u32>>,
    },
    Wrapped(Mid),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsOp {
    #[serde(flatten)]
    op: Op,
    note: Option<String>,
}

/// Every surface's answer to `args`, which serde reads as `expected`: the same value, and a
/// `coerce_value` that leaves the arguments as they were sent.
fn accepted_unchanged<T>(args: Value)
where
    T: ToolArgs + PartialEq + std::fmt::Debug,
{
    let serde = serde_json::from_value::<T>(args.clone()).expect("serde reads it");
    let text = args.to_string();
    assert_eq!(
        T::from_value(args.clone()).unwrap(),
        serde,
        "from_value {args}"
    );
    assert_eq!(T::from_json(&text).unwrap(), serde, "from_json {args}");
    let Args(read) = serde_json::from_str::<Args<T>>(&text).unwrap();
    assert_eq!(read, serde, "Args {args}");
    let mut coerced = args.clone();
    T::coerce_value(&mut coerced).unwrap();
    assert_eq!(coerced, args, "coerce_value changed a value serde reads");
}

#[test]
fn a_map_two_levels_down_leaves_the_outer_fields_alone() {
    accepted_unchanged::<Chain>(json!({"a": "hello"}));
    // A string field whose text parses as a list stays a string.
    accepted_unchanged::<Chain>(json!({"a": "[1,2]"}));
    accepted_unchanged::<Chain>(json!({"a": "x", "b": "[\"y\"", "m1": 3, "k": [1]}));
}

#[test]
fn the_map_still_reads_and_repairs_the_keys_no_one_declares() {
    let mut args = json!({"a": "x", "k": "[1,2]"});
    Chain::coerce_value(&mut args).unwrap();
    assert_eq!(args, json!({"a": "x", "k": [1, 2]}));
    let read = Chain::from_json(r#"{"a":"x","k":"[1,2]"}"#).unwrap();
    assert_eq!(read.mid.rest["k"], [1, 2]);
    let err = Chain::from_value(json!({"a": "x", "k": "no"})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "k: invalid type: string \"no\", expected a sequence"
    );
}

#[test]
fn a_variant_map_leaves_the_tag_alone() {
    accepted_unchanged::<Op>(json!({"op": "Run"}));
    accepted_unchanged::<Op>(json!({"op": "Run", "n": 2, "k": [1]}));
    accepted_unchanged::<Op>(json!({"op": "Wrapped"}));
    accepted_unchanged::<Op>(json!({"op": "Wrapped", "m1": 1, "k": [2]}));
    accepted_unchanged::<HoldsOp>(json!({"op": "Wrapped", "note": "[1]", "k": [2]}));
    let mut args = json!({"op": "Run", "k": "[3]"});
    Op::coerce_value(&mut args).unwrap();
    assert_eq!(args, json!({"op": "Run", "k": [3]}));
}

#[test]
fn the_schema_carries_the_nested_map() {
    let schema = Chain::input_schema();
    assert_eq!(
        schema["additionalProperties"],
        json!({"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 4294967295u32}}),
        "{schema}"
    );
    let props: BTreeMap<_, _> = schema["properties"]
        .as_object()
        .unwrap()
        .clone()
        .into_iter()
        .collect();
    assert_eq!(props.keys().collect::<Vec<_>>(), ["a", "b", "m1"]);
}

#[test]
fn the_schema_driven_coercer_agrees_on_the_extra_keys() {
    let coercer = stitch_runtime::json_schema::Coercer::new(Chain::input_schema()).unwrap();
    for args in [
        json!({"a": "hello"}),
        json!({"a": "[1,2]", "k": "[3]"}),
        json!({"a": "x", "k": "no"}),
        json!({"a": "x", "m1": 2, "k": [1], "j": "[[1]]"}),
    ] {
        let (mut by_type, mut by_schema) = (args.clone(), args.clone());
        let typed = Chain::coerce_value(&mut by_type).map_err(|e| e.to_string());
        let schema = coercer.coerce(&mut by_schema).map_err(|e| e.to_string());
        assert_eq!(typed, schema, "{args}");
        assert_eq!(by_type, by_schema, "{args}");
    }
}
