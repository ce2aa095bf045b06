//! Round trips where a format is narrower than the tool.

use super::*;

// --- Round trips where a format is narrower than the tool -------------------------------

/// A tiny deterministic generator (xorshift).
pub(super) struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Which optional properties a generated value holds.
#[derive(Clone, Copy)]
pub(super) enum Optional {
    All,
    None,
    Some,
}

/// The bounds a description states ("From 0 to 255.", "At most 20 items.", "Exactly 2
/// items."), as Anthropic's strict definitions write them: a model is told them there.
pub(super) fn stated(description: Option<&str>, unit: &str) -> (Option<i64>, Option<i64>) {
    let Some(text) = description else {
        return (None, None);
    };
    let number = |s: &str| s.trim_end_matches('.').parse::<i64>().ok();
    let words: Vec<&str> = text.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let unit_follows = |j: usize| {
            let next = words.get(j + 1).map(|u| u.trim_end_matches('.'));
            if unit.is_empty() {
                next.is_none() || words[j].ends_with('.')
            } else {
                next.is_some_and(|u| u.starts_with(unit))
            }
        };
        match *w {
            "From" if words.get(i + 2) == Some(&"to") && unit_follows(i + 3) => {
                return (number(words[i + 1]), number(words[i + 3]));
            }
            "At" if words.get(i + 1) == Some(&"most") && unit_follows(i + 2) => {
                return (None, number(words[i + 2]));
            }
            "At" if words.get(i + 1) == Some(&"least") && unit_follows(i + 2) => {
                return (number(words[i + 2]), None);
            }
            "Exactly" if unit_follows(i + 1) => {
                let n = number(words[i + 1]);
                return (n, n);
            }
            _ => {}
        }
    }
    (None, None)
}

/// A value valid under `schema` (Gemini's or Anthropic's strict subset, no references).
pub(super) fn instance(schema: &Value, rng: &mut Rng, optional: Optional) -> Value {
    let description = schema.get("description").and_then(Value::as_str);
    if schema.get("nullable") == Some(&json!(true)) && rng.chance(30) {
        return Value::Null;
    }
    if let Some(Value::Array(members)) = schema.get("anyOf") {
        return instance(&members[rng.below(members.len())], rng, optional);
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values[rng.below(values.len())].clone();
    }
    let bound = |key: &str| schema.get(key).and_then(Value::as_i64);
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut object = Map::new();
            let required = schema.get("required").and_then(Value::as_array);
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (name, property) in properties {
                    let is_required = required.is_some_and(|r| r.iter().any(|n| n == name));
                    let present = match optional {
                        Optional::All => true,
                        Optional::None => false,
                        Optional::Some => rng.chance(50),
                    };
                    if is_required || present {
                        object.insert(name.clone(), instance(property, rng, optional));
                    }
                }
            }
            // An object the schema leaves open (no properties, no `maxProperties: 0`, no
            // `additionalProperties: false`) takes any key: offer one.
            let closed = schema.get("maxProperties") == Some(&json!(0))
                || schema.get("additionalProperties") == Some(&json!(false));
            if schema.get("properties").is_none() && !closed && rng.chance(50) {
                object.insert("k".to_owned(), json!("v"));
            }
            Value::Object(object)
        }
        Some("array") => {
            let (said_min, said_max) = stated(description, "item");
            let min = bound("minItems").max(said_min).unwrap_or(0);
            let max = bound("maxItems")
                .or(said_max)
                .unwrap_or(min + 2)
                .min(min + 2);
            let n = min + rng.below((max - min + 1) as usize) as i64;
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            Value::Array((0..n).map(|_| instance(&items, rng, optional)).collect())
        }
        Some("string") => {
            let (said_min, said_max) = stated(description, "character");
            let max = bound("maxLength").or(said_max);
            let min = bound("minLength").or(said_min);
            match (min, max) {
                (_, Some(1)) => json!("x"),
                _ => json!(["a.png", "[preview].png", "", "notes"][rng.below(4)]),
            }
        }
        Some("integer") => {
            let (said_min, said_max) = stated(description, "");
            let min = bound("minimum").or(said_min).unwrap_or(0);
            let max = bound("maximum").or(said_max).unwrap_or(7);
            let pool = [min, max, min.max(0).min(max), 7.clamp(min, max)];
            json!(pool[rng.below(pool.len())])
        }
        Some("number") => json!(1.5),
        Some("boolean") => json!(rng.chance(50)),
        Some("null") => Value::Null,
        _ => json!("anything"),
    }
}

/// Gemini's `nullable` in JSON Schema, for the validator.
pub(super) fn nullable_as_json_schema(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            object.values_mut().for_each(nullable_as_json_schema);
            if object.remove("nullable") == Some(json!(true)) {
                let inner = Value::Object(std::mem::take(object));
                object.insert("anyOf".to_owned(), json!([inner, {"type": "null"}]));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(nullable_as_json_schema),
        _ => {}
    }
}

/// Every value generated from the emitted schema (every optional property present, absent, and
/// at random; each nullable both ways) validates against it and is accepted by `from_value`.
pub(super) fn round_trip<T: ToolArgs + std::fmt::Debug>(
    parameters: &Value,
    seed: u64,
    runs: usize,
) -> usize {
    let mut for_validator = parameters.clone();
    nullable_as_json_schema(&mut for_validator);
    let validator = jsonschema::validator_for(&for_validator).expect("a valid schema");
    let mut rng = Rng(seed);
    let mut accepted = 0;
    for run in 0..runs {
        let optional = [Optional::All, Optional::None, Optional::Some][run % 3];
        let value = instance(parameters, &mut rng, optional);
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "generated {value}, not valid: {errors:?}"
        );
        if let Err(e) = T::from_value(value.clone()) {
            panic!(
                "{}: the schema accepts {value}, the tool refuses: {e}",
                std::any::type_name::<T>()
            );
        }
        accepted += 1;
    }
    accepted
}

pub(super) fn round_trips<T: ObjectArgs + std::fmt::Debug>(seed: u64) {
    let gemini = &tool::gemini::<T>("t", None)["parameters"];
    let claude = &tool::anthropic_strict::<T>("t", None)["input_schema"];
    if crate::round_trip::root_union(T::input_schema()) {
        // A root union is one object, wider than the tool (`docs/rules.md#flattened-unions`):
        // each format takes every call generated from the type's own schema.
        let mut for_validator = gemini.clone();
        nullable_as_json_schema(&mut for_validator);
        // The type's own schema's generator cannot end a required self-reference (`Expr`):
        // there the calls are those each format offers that the tool takes, checked against
        // the other format.
        let mut calls = Vec::new();
        if T::input_schema().get("$anchor").is_none() {
            calls = crate::round_trip::calls::<T>(120);
        }
        let mut rng = Rng(seed);
        for (run, source) in (0..300).zip([gemini, claude].into_iter().cycle()) {
            let optional = [Optional::All, Optional::None, Optional::Some][run % 3];
            let call = instance(source, &mut rng, optional);
            if T::from_value(call.clone()).is_ok() {
                calls.push(call);
            }
        }
        assert!(calls.len() > 20, "{} calls", calls.len());
        for schema in [&for_validator, claude] {
            let validator = jsonschema::validator_for(schema).expect("a valid schema");
            for call in &calls {
                assert!(validator.is_valid(call), "refuses {call}\n{schema}");
            }
        }
    } else {
        round_trip::<T>(gemini, seed, 300);
        round_trip::<T>(claude, seed + 1, 300);
    }
}

#[test]
fn values_valid_under_the_narrower_formats_are_accepted() {
    round_trips::<ViewFile>(1);
    round_trips::<Search>(3);
    round_trips::<Edit>(5);
    round_trips::<Act>(7);
    round_trips::<Tree>(9);
    round_trips::<Eval>(11);
    round_trips::<Kinds>(13);
    round_trips::<OptionalTuple>(15);
    // No strict Anthropic definition compiles for it (a required self-reference).
    round_trip::<Outline>(&tool::gemini::<Outline>("t", None)["parameters"], 17, 300);
    round_trips::<Rows3>(19);
    round_trips::<Op>(21);
    round_trips::<Adjacent>(23);
    round_trips::<Expr>(25);
}

#[test]
fn an_unrolled_tree_reaches_its_depth() {
    // The deepest tree the Gemini schema describes is accepted, one level more is not
    // described.
    fn chain(levels: usize) -> Value {
        let mut node = json!({"name": "leaf"});
        for i in 0..levels {
            node = json!({"name": format!("n{i}"), "children": [node]});
        }
        node
    }
    let mut parameters = tool::gemini::<Tree>("tree", None)["parameters"].clone();
    nullable_as_json_schema(&mut parameters);
    // Gemini's objects cannot be closed; close them here to see what the model is offered.
    fn close(schema: &mut Value) {
        if let Value::Object(object) = schema {
            if object.get("type") == Some(&json!("object")) {
                object.insert("additionalProperties".to_owned(), json!(false));
            }
            object.values_mut().for_each(close);
        }
    }
    close(&mut parameters);
    let v = jsonschema::validator_for(&parameters).unwrap();
    assert!(v.is_valid(&chain(tool::UNROLL_DEPTH)));
    assert!(Tree::from_value(chain(tool::UNROLL_DEPTH)).is_ok());
    assert!(!v.is_valid(&chain(tool::UNROLL_DEPTH + 1)));
    let claude = &tool::anthropic_strict::<Tree>("tree", None)["input_schema"];
    let v = jsonschema::validator_for(claude).unwrap();
    assert!(v.is_valid(&chain(tool::UNROLL_DEPTH)));
    assert!(!v.is_valid(&chain(tool::UNROLL_DEPTH + 1)));
}
