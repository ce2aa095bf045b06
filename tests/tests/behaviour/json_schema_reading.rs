//! `json_schema::Coercer` reads schemas as JSON Schema does (issue #19): `allOf` through
//! chains of `$ref`s whatever the order of the `$defs` names, `patternProperties` beside
//! `additionalProperties: false`, integer-valued numbers at `"type": "integer"`, messages that
//! name the keyword that failed (or, for a bound, speak as the derive does), and `coerce_rules_only`, the rules without the type checks.
//! How the time grows with the number of properties is measured in `BENCHMARKS.md`; a sanity
//! bound here catches a quadratic step only.

use serde_json::{json, Value};
use stitch_runtime::json_schema::Coercer;
use stitch_runtime::IssueKind;

const TEXT_LIST: &str =
    " is a list written as text \u{2014} pass the array itself, not JSON written as text";

fn messages(coercer: &Coercer, args: Value) -> Vec<String> {
    let mut value = args.clone();
    match coercer.coerce(&mut value) {
        Ok(()) => Vec::new(),
        Err(e) => {
            assert_eq!(value, args, "a refusal changed the value");
            e.issues().iter().map(ToString::to_string).collect()
        }
    }
}

/// A property `paths` whose schema reaches `OneOrMany<String>` through `allOf`s and `$ref`s
/// `first` ← `second` ← `third`, under the given names.
fn chain(first: &str, second: &str, third: &str) -> Value {
    json!({
        "type": "object",
        "properties": {"paths": {"$ref": format!("#/$defs/{first}")}},
        "$defs": {
            first: {"allOf": [{"$ref": format!("#/$defs/{second}")}], "description": "x"},
            second: {"allOf": [{"$ref": format!("#/$defs/{third}")}], "title": "y"},
            third: {"anyOf": [{"type": "string"},
                {"type": "array", "items": {"type": "string"}}]}
        }
    })
}

#[test]
fn all_of_through_a_chain_of_refs_is_merged_whatever_the_order_of_the_names() {
    for (a, b, c) in [
        ("a", "b", "c"),
        ("c", "b", "a"),
        ("b", "a", "c"),
        ("c", "a", "b"),
    ] {
        let coercer = Coercer::new(&chain(a, b, c)).unwrap();
        assert_eq!(
            messages(&coercer, json!({"paths": "[\"x\"]"})),
            [format!("paths{TEXT_LIST}")],
            "{a} <- {b} <- {c}"
        );
        assert!(messages(&coercer, json!({"paths": "[x].png"})).is_empty());
    }
}

#[test]
fn pattern_properties_beside_additional_properties_false() {
    let coercer = Coercer::new(&json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "patternProperties": {
            "^x-": {"type": "array", "items": {"type": "string"}},
            "^n_[0-9]+$": {"type": "integer"}
        },
        "additionalProperties": false
    }))
    .unwrap();
    // Keys the patterns allow are no unknown fields, and are walked as their pattern says.
    let mut args = json!({"name": "a", "x-tags": "[\"t\"]", "n_1": 5});
    coercer.coerce(&mut args).unwrap();
    assert_eq!(args, json!({"name": "a", "x-tags": ["t"], "n_1": 5}));
    assert_eq!(
        messages(&coercer, json!({"n_2": "five"})),
        ["n_2: invalid type: string \"five\", expected an integer"]
    );
    // A key neither names nor matches is still unknown.
    let refused = messages(&coercer, json!({"other": 1}));
    assert_eq!(refused.len(), 1);
    assert!(
        refused[0].starts_with("other: unknown field `other`"),
        "{refused:?}"
    );
    // A pattern the validator cannot read is a schema error at its place.
    let error = Coercer::new(&json!({"patternProperties": {"(": {}}})).unwrap_err();
    assert_eq!(error.pointer(), "/patternProperties");
}

#[test]
fn integer_valued_numbers_are_integers() {
    let coercer = Coercer::new(&json!({"type": "object", "properties": {
        "n": {"type": "integer"},
        "small": {"type": "integer", "minimum": 0, "maximum": 255}}}))
    .unwrap();
    for n in [json!(1.0), json!(1e2), json!(1e29), json!(-0.0), json!(5)] {
        assert!(messages(&coercer, json!({ "n": n })).is_empty(), "{n}");
    }
    assert!(messages(&coercer, json!({"small": 2.0})).is_empty());
    assert_eq!(
        messages(&coercer, json!({"n": 1.5})),
        ["n: invalid type: floating point `1.5`, expected an integer"]
    );
    assert_eq!(
        messages(&coercer, json!({"small": 256.0})),
        ["small: invalid value: floating point `256.0`, expected u8"]
    );
}

#[test]
fn messages_name_the_keyword_that_failed_and_bounds_speak_as_the_derive() {
    let coercer = Coercer::new(&json!({"type": "object", "properties": {
        "code": {"type": "string", "maxLength": 3},
        "word": {"type": "string", "minLength": 2},
        "count": {"type": "integer", "minimum": 1},
        "top": {"type": "integer", "maximum": 10},
        "level": {"enum": [1, 2, 3]},
        "fixed": {"const": 7}}}))
    .unwrap();
    let refused = messages(
        &coercer,
        json!({"code": "abcdef", "word": "a", "count": 0, "top": 11, "level": 4, "fixed": 8}),
    );
    let mut refused = refused;
    refused.sort();
    // `enum` and `const` name their keyword; a bound is a value constraint, worded as
    // `#[stitch(maximum = …)]` words it (`docs/coercer.md`).
    assert_eq!(
        refused,
        [
            "code: \"abcdef\" is longer than the maximum length of 3 characters",
            "count: 0 is less than the minimum of 1",
            "fixed: invalid value: integer `8`, expected one of 7 (`const`)",
            "level: invalid value: integer `4`, expected one of 1, 2, 3 (`enum`)",
            "top: 11 is greater than the maximum of 10",
            "word: \"a\" is shorter than the minimum length of 2 characters",
        ]
    );
    // A type error is still a type error.
    assert_eq!(
        messages(&coercer, json!({"code": 5})),
        ["code: invalid type: integer `5`, expected a string"]
    );
}

#[test]
fn rules_only_refuses_text_lists_and_repairs_leaving_the_rest() {
    let coercer = Coercer::new(&json!({"type": "object", "properties": {
        "paths": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "n": {"type": "integer"},
        "opt": {"type": "string"}},
        "required": ["paths", "must"],
        "additionalProperties": false}))
    .unwrap();
    // Type errors, a missing and an unknown field: the next validator's to judge.
    let sent = json!({"paths": "a", "n": "1", "extra": 1, "tags": "[\"x\"]", "opt": null});
    let mut args = sent.clone();
    coercer.coerce_rules_only(&mut args).unwrap();
    assert_eq!(
        args,
        json!({"paths": "a", "n": "1", "extra": 1, "tags": ["x"]})
    );
    assert!(coercer.coerce(&mut sent.clone()).is_err());
    // A list written as text: refused, that issue alone, the value untouched.
    let sent = json!({"paths": "[\"a\"]", "n": "x", "tags": "[\"x\"]"});
    let mut args = sent.clone();
    let error = coercer.coerce_rules_only(&mut args).unwrap_err();
    assert_eq!(args, sent);
    assert_eq!(error.issues().len(), 1);
    assert_eq!(error.issues()[0].kind(), IssueKind::TextList);
    assert_eq!(error.to_string(), format!("paths{TEXT_LIST}"));
}

/// A schema of `n` string properties, all required; and a call that sends each.
fn wide(n: usize) -> (Value, Value) {
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    let mut args = serde_json::Map::new();
    for i in 0..n {
        let key = format!("p{i}");
        properties.insert(key.clone(), json!({"type": "string"}));
        required.push(Value::from(key.clone()));
        args.insert(key, Value::from("v"));
    }
    let schema = json!({"type": "object", "properties": properties, "required": required});
    (schema, Value::Object(args))
}

/// Wide schemas are read and applied whole. How long they take is the benchmark's to say
/// (`benches/schema_size.rs`, BENCHMARKS.md: quadratic steps took seconds before issue #19,
/// linear ones take milliseconds), not a timed test's.
#[test]
#[ignore = "long in a debug build (32 000 and 2 × 40 000 properties): the full run, `cargo test -- --include-ignored`"]
fn many_properties_compile_and_coerce() {
    let (schema, args) = wide(32_000);
    let coercer = Coercer::new(&schema).unwrap();
    let mut value = args.clone();
    coercer.coerce(&mut value).unwrap();
    let mut missing = args;
    missing.as_object_mut().unwrap().remove("p31999");
    assert_eq!(
        messages(&coercer, missing),
        ["p31999: missing field `p31999`"]
    );
    let (a, mut a_args) = wide(40_000);
    let mut b = a.clone();
    let renamed: serde_json::Map<String, Value> = b["properties"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (format!("q{k}"), v.clone()))
        .collect();
    b["properties"] = Value::Object(renamed);
    b["required"] = json!([]);
    // The merge keeps the first member's required properties.
    let merged = Coercer::new(&json!({"allOf": [a, b]})).unwrap();
    a_args.as_object_mut().unwrap().remove("p39999");
    assert_eq!(
        messages(&merged, a_args),
        ["p39999: missing field `p39999`"]
    );
}

/// A peer's schema whose unions would make the walk endless or exponential is refused when
/// the coercer is built (the proxy then forwards that tool unchecked), never a stack overflow
/// or a walk that doubles with each level; a long chain of unions that grows linearly is
/// read.
#[test]
fn unions_that_reach_themselves_or_explode_are_refused() {
    // `a` is its own member, through `$ref` (left recursion): no value ends the walk.
    let left = json!({
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/a"}},
        "$defs": {
            "a": {"anyOf": [{"$ref": "#/$defs/b"}, {"type": "array"}]},
            "b": {"oneOf": [{"$ref": "#/$defs/a"}]}
        }
    });
    let e = Coercer::new(&left).map(|_| ()).unwrap_err();
    assert!(e.message().contains("its own member"), "{e}");
    // Each level's two members share the next level: 2^30 ways through 30 levels.
    let mut defs = serde_json::Map::new();
    for i in 0..30 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"anyOf": [{"$ref": next}, {"type": "integer"}, {"$ref": next}]}),
        );
    }
    defs.insert("d30".into(), json!({"type": "array"}));
    let exploding =
        json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs});
    let e = Coercer::new(&exploding).map(|_| ()).unwrap_err();
    assert!(e.message().contains("more than 1000 schemas"), "{e}");
    // A union inside an array's items is a new value: recursion through a container is read.
    let tree = json!({
        "$ref": "#/$defs/node",
        "$defs": {"node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "kids": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "array", "items": {"$ref": "#/$defs/node"}}]}
        }}}
    });
    let coercer = Coercer::new(&tree).unwrap();
    let mut args = json!({"kids": [{"name": "a", "kids": "[{\"name\": \"b\"}]"}]});
    coercer.coerce(&mut args).unwrap();
    assert_eq!(
        args,
        json!({"kids": [{"name": "a", "kids": [{"name": "b"}]}]})
    );
    // 30 levels of `OneOrMany`, each level one more schema: read.
    let mut defs = serde_json::Map::new();
    for i in 0..30 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"anyOf": [{"$ref": next}, {"type": "array", "items": {"$ref": next}}]}),
        );
    }
    defs.insert("d30".into(), json!({"type": "string"}));
    let chain =
        json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs});
    let coercer = Coercer::new(&chain).unwrap();
    assert_eq!(
        messages(&coercer, json!({"x": "[\"a\"]"})),
        ["x".to_owned() + TEXT_LIST]
    );
}

/// A string the string member spells out in its `enum` or `const` is that one value, not a
/// list written as text, though the array member would take the list; one it does not name
/// is refused as before.
#[test]
fn a_string_member_whose_pattern_tells_the_readings_apart_keeps_the_string() {
    let coercer = Coercer::new(&json!({"type": "object", "properties": {
        "range": {"anyOf": [
            {"type": "string", "pattern": "^\\[.*\\]$"},
            {"type": "array", "items": {"type": "string"}}
        ]},
        "name": {"anyOf": [
            {"type": "string", "pattern": "^[a-z\\[\\]\"]+$"},
            {"type": "array", "items": {"type": "string"}}
        ]},
        "ids": {"oneOf": [
            {"type": "string", "pattern": "^\\["},
            {"type": "array", "items": {"type": "integer"}}
        ]}
    }}))
    .unwrap();
    // The pattern matches the text and not every item: one value.
    for args in [json!({"range": "[\"a\"]"}), json!({"ids": "[1, 2]"})] {
        assert_eq!(
            messages(&coercer, args.clone()),
            Vec::<String>::new(),
            "{args}"
        );
    }
    // It matches the items too, or not the text: R3 refuses.
    assert_eq!(
        messages(&coercer, json!({"range": "[\"[1]\"]"})),
        ["range".to_owned() + TEXT_LIST]
    );
    assert_eq!(
        messages(&coercer, json!({"name": "[\"ab\"]"})),
        ["name".to_owned() + TEXT_LIST]
    );
    assert_eq!(
        messages(&coercer, json!({"range": "[\"a\", \"b\"] "})),
        ["range".to_owned() + TEXT_LIST]
    );
}

#[test]
fn a_string_the_schema_names_is_one_value() {
    let coercer = Coercer::new(&json!({"type": "object", "properties": {
        "mode": {"anyOf": [
            {"type": "string", "enum": ["[\"all\"]", "some"]},
            {"type": "array", "items": {"type": "string"}}
        ]},
        "pick": {"oneOf": [
            {"const": "[1]"},
            {"type": "array", "items": {"type": "integer"}},
            {"type": "object"}
        ]},
        "both": {"type": ["string", "array"], "items": {"type": "string"}, "enum": ["[\"x\"]", ["y"]]}
    }}))
    .unwrap();
    for args in [
        json!({"mode": "[\"all\"]"}),
        json!({"pick": "[1]"}),
        json!({"both": "[\"x\"]"}),
    ] {
        assert_eq!(
            messages(&coercer, args.clone()),
            Vec::<String>::new(),
            "{args}"
        );
    }
    assert_eq!(
        messages(&coercer, json!({"mode": "[\"some\"]"})),
        ["mode".to_owned() + TEXT_LIST]
    );
    assert_eq!(
        messages(&coercer, json!({"pick": "[2]"})),
        ["pick".to_owned() + TEXT_LIST]
    );
}

/// A group of names one of which must be sent (`anyOf` of `required`, or the derive's
/// `not` of `properties: false`), merged through `allOf`s that each name the level below
/// twice, is kept once: 40 levels are 2^40 copies unless the merge leaves out a group it
/// already holds.
#[test]
fn name_groups_merged_through_doubling_all_ofs_are_kept_once() {
    let mut defs = serde_json::Map::new();
    defs.insert(
        "d0".into(),
        json!({
            "type": "object",
            "properties": {"a": {}, "b": {}, "c": {}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
            "not": {"anyOf": [{"properties": {"b": false, "c": false}}]}
        }),
    );
    for k in 1..=40 {
        let below = format!("#/$defs/d{}", k - 1);
        defs.insert(
            format!("d{k}"),
            json!({"type": "object", "allOf": [{"$ref": below}, {"$ref": below}]}),
        );
    }
    let schema = json!({"$ref": "#/$defs/d40", "$defs": defs});
    let coercer = Coercer::new(&schema).unwrap();
    assert_eq!(
        messages(&coercer, json!({"c": 1})),
        ["a: missing field `a`"]
    );
    assert!(messages(&coercer, json!({"a": 1, "b": 2})).is_empty());
    assert_eq!(
        messages(&coercer, json!({"a": 1})),
        ["b: missing field `b`"]
    );
}
