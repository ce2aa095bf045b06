//! Constraints at and across every bound (`docs/rules.md#constraints`): instances made from
//! `Schedule`'s schema, one field moved to each side of each of its bounds, are accepted by
//! every surface exactly when the schema (JSON Schema's own validator) says they are valid,
//! and what stitch accepts no format's schema refuses.

use serde_json::{json, Map, Value};
use stitch_runtime::{tool, Args, ToolArgs};
use stitch_tests::tools::Schedule;

/// A valid call with every field present (so the strict formats, where every field is
/// required, take it too).
fn base() -> Value {
    json!({
        "name": "nightly-build",
        "timeout_secs": 60,
        "every_minutes": 15,
        "share": 0.5,
        "tags": ["ci", "nightly"],
        "retry_delays": [10, 60],
    })
}

/// Candidates for a property of schema `p`: each bound, one step inside it and one across,
/// and strings at, under and over each length, matching the pattern and not.
fn candidates(p: &Map<String, Value>) -> Vec<Value> {
    let mut out = Vec::new();
    let num = |k: &str| p.get(k).and_then(Value::as_f64);
    let integer = p.get("type") == Some(&json!("integer"));
    for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(b) = num(key) {
            let step = if integer { 1.0 } else { 0.001 };
            for n in [b - step, b, b + step] {
                out.push(if integer { json!(n as i64) } else { json!(n) });
            }
        }
    }
    if let Some(m) = num("multipleOf") {
        for n in [m, m * 3.0, m + 1.0, m * 2.0 - 1.0] {
            out.push(json!(n as i64));
        }
    }
    let len = |k: &str| p.get(k).and_then(Value::as_u64);
    for n in [len("minLength"), len("maxLength")].into_iter().flatten() {
        for k in [n.saturating_sub(1), n, n + 1] {
            out.push(json!("a".repeat(k as usize)));
            out.push(json!("é".repeat(k as usize)));
        }
    }
    if p.contains_key("pattern") {
        for s in ["abc", "Abc", "a-1", "a b", "", "日本", "ab\n"] {
            out.push(json!(s));
        }
    }
    out
}

/// The leaf schemas of a property (its items, its union's members), with the path to them.
fn leaves<'a>(schema: &'a Value, into: &mut Vec<&'a Map<String, Value>>) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(Value::Array(members)) = object.get("anyOf") {
        members.iter().for_each(|m| leaves(m, into));
    }
    if let Some(items) = object.get("items") {
        leaves(items, into);
    }
    if matches!(
        object.get("type").and_then(Value::as_str),
        Some("integer" | "number" | "string")
    ) {
        into.push(object);
    }
}

/// `candidate` put where `leaf` sits in `property`'s value: the value itself, or the only
/// item of a list (for a list-only or one-or-many property, both forms).
fn placements(property: &Value, candidate: &Value) -> Vec<Value> {
    let takes_list = property.get("type") == Some(&json!("array"))
        || property["anyOf"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["type"] == "array"));
    let takes_one = property.get("type") != Some(&json!("array"));
    let mut out = Vec::new();
    if takes_one {
        out.push(candidate.clone());
    }
    if takes_list {
        out.push(json!([candidate]));
    }
    out
}

#[test]
fn each_bound_is_held_on_every_surface_exactly_as_the_schema_says() {
    let schema = Schedule::input_schema().clone();
    let oracle = jsonschema::validator_for(&schema).unwrap();
    let formats: Vec<(&str, Value)> = vec![
        (
            "mcp",
            tool::mcp::<Schedule>("s", None)["inputSchema"].clone(),
        ),
        (
            "openai",
            tool::openai::<Schedule>("s", None)["function"]["parameters"].clone(),
        ),
        (
            "openai_strict",
            tool::openai_strict::<Schedule>("s", None)["function"]["parameters"].clone(),
        ),
        (
            "anthropic",
            tool::anthropic::<Schedule>("s", None)["input_schema"].clone(),
        ),
        (
            "anthropic_strict",
            tool::anthropic_strict::<Schedule>("s", None)["input_schema"].clone(),
        ),
        (
            "gemini_json_schema",
            tool::gemini_json_schema::<Schedule>("s", None)["parametersJsonSchema"].clone(),
        ),
    ];
    let formats: Vec<(&str, jsonschema::Validator)> = formats
        .into_iter()
        .map(|(name, s)| (name, jsonschema::validator_for(&s).unwrap()))
        .collect();
    let (mut accepted, mut refused) = (0, 0);
    for (name, property) in schema["properties"].as_object().unwrap() {
        let mut found = Vec::new();
        leaves(property, &mut found);
        for leaf in found {
            for candidate in candidates(leaf) {
                for value in placements(property, &candidate) {
                    let mut args = base();
                    args[name] = value;
                    let valid = oracle.is_valid(&args);
                    let from_value = Schedule::from_value(args.clone());
                    let from_json = Schedule::from_json(&args.to_string());
                    let mut coerced = args.clone();
                    let coerce = Schedule::coerce_value(&mut coerced);
                    let via_args = serde_json::from_value::<Args<Schedule>>(args.clone());
                    assert_eq!(
                        from_value.is_ok(),
                        valid,
                        "from_value of {args}: {from_value:?}"
                    );
                    assert_eq!(from_json.is_ok(), valid, "from_json of {args}");
                    assert_eq!(coerce.is_ok(), valid, "coerce_value of {args}");
                    assert_eq!(via_args.is_ok(), valid, "Args<T> of {args}");
                    if valid {
                        accepted += 1;
                        for (format, validator) in &formats {
                            assert!(
                                validator.is_valid(&args),
                                "{format} refuses what stitch accepts: {args}"
                            );
                        }
                    } else {
                        refused += 1;
                        let e = from_value.unwrap_err();
                        assert!(
                            e.issues()
                                .iter()
                                .any(|i| i.path().starts_with(name.as_str())),
                            "{args}: {e}"
                        );
                    }
                }
            }
        }
    }
    // Both sides of the bounds were reached, many times.
    assert!(
        accepted >= 20 && refused >= 20,
        "{accepted} accepted, {refused} refused"
    );
}
