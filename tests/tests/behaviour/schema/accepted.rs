//! What serde accepts the schema accepts, and what it refuses the schema refuses, over generated values.

use super::*;

/// A tiny deterministic generator (xorshift), so the agreement runs are reproducible.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A value near what `schema` describes: mostly conforming, sometimes not.
pub(super) fn sample(schema: &Value, root: &Value, rng: &mut Rng, depth: usize) -> Value {
    const STRINGS: &[&str] = &[
        "a.png",
        "[preview].png",
        "[\"x\"]",
        "",
        "file",
        "dir",
        "copy",
        "delete",
        "edit",
        "noop",
        "5",
    ];
    // serde also reads a struct from an array, by position; the schema advertises the object
    // form only (like `null` for an `Option`), so the noise below puts no array where an object
    // is described.
    let object_here = schema.get("type") == Some(&json!("object"))
        || schema.get("oneOf").is_some()
        || schema.get("$ref").is_some();
    if depth > 6 || rng.chance(2) {
        return match rng.below(6) {
            4 if object_here => json!({}),
            0 => json!(null),
            1 => json!(STRINGS[rng.below(STRINGS.len())]),
            2 => json!(rng.below(300) as i64 - 20),
            3 => json!(true),
            4 => json!([STRINGS[rng.below(STRINGS.len())]]),
            _ => json!({}),
        };
    }
    if let Some(reference) = schema.get("$ref") {
        let _ = reference;
        return sample(root, root, rng, depth + 1);
    }
    if let Some(Value::String(c)) = schema.get("const") {
        return json!(c);
    }
    if let Some(Value::Array(names)) = schema.get("enum") {
        return names[rng.below(names.len())].clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = schema.get(key) {
            return sample(&members[rng.below(members.len())], root, rng, depth + 1);
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut object = serde_json::Map::new();
            let required = schema.get("required").and_then(Value::as_array);
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (name, property) in properties {
                    let is_required = required.is_some_and(|r| r.iter().any(|n| n == name));
                    if rng.chance(if is_required { 97 } else { 70 }) {
                        object.insert(name.clone(), sample(property, root, rng, depth + 1));
                    }
                }
            }
            if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
                for _ in 0..rng.below(3) {
                    object.insert(
                        format!("k{}", rng.below(5)),
                        sample(values, root, rng, depth + 1),
                    );
                }
            }
            if rng.chance(10) {
                object.insert("unexpected".to_owned(), json!(1));
            }
            Value::Object(object)
        }
        Some("array") => {
            if let Some(Value::Array(prefix)) = schema.get("prefixItems") {
                return Value::Array(
                    prefix
                        .iter()
                        .map(|p| sample(p, root, rng, depth + 1))
                        .collect(),
                );
            }
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = schema
                .get("maxItems")
                .and_then(Value::as_u64)
                .map_or(4, |m| m.min(4) as usize);
            let n = if rng.chance(90) {
                min + rng.below(max.saturating_sub(min) + 1)
            } else {
                rng.below(25)
            };
            Value::Array(
                (0..n)
                    .map(|_| sample(&items, root, rng, depth + 1))
                    .collect(),
            )
        }
        Some("string") if schema.get("maxLength") == Some(&json!(1)) && rng.chance(90) => {
            json!("x")
        }
        Some("string") => json!(STRINGS[rng.below(STRINGS.len())]),
        Some("integer") => {
            let pool = [
                0i64, 1, 7, 100, 255, 256, 65535, 70000, -1, -128, 4294967296,
            ];
            let min = schema
                .get("minimum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MIN);
            let max = schema
                .get("maximum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MAX);
            let fits: Vec<i64> = pool
                .iter()
                .copied()
                .filter(|n| (min..=max).contains(n))
                .collect();
            if rng.chance(85) && !fits.is_empty() {
                json!(fits[rng.below(fits.len())])
            } else {
                json!(pool[rng.below(pool.len())])
            }
        }
        Some("number") => json!(1.5),
        Some("boolean") => json!(rng.chance(50)),
        Some("null") => json!(null),
        _ => json!("anything"),
    }
}

/// Removes `null` values of properties that are not required, at every level the schema
/// describes.
pub(super) fn drop_optional_nulls(value: &mut Value, schema: &Value, root: &Value) {
    let schema = if schema.get("$ref").is_some() {
        root
    } else {
        schema
    };
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = schema.get(key) {
            for member in members {
                // Only a member the value fits is followed.
                if jsonschema::is_valid(member, value) {
                    drop_optional_nulls(value, member, root);
                }
            }
        }
    }
    match value {
        Value::Object(object) => {
            let required = schema.get("required").and_then(Value::as_array);
            let is_required = |k: &str| required.is_some_and(|r| r.iter().any(|n| n == k));
            object.retain(|k, v| {
                !(v.is_null() && !is_required(k) && schema["properties"].get(k).is_some())
            });
            for (k, v) in object.iter_mut() {
                if let Some(property) = schema.get("properties").and_then(|p| p.get(k)) {
                    drop_optional_nulls(v, property, root);
                } else if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
                    drop_optional_nulls(v, values, root);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items").filter(|i| i.is_object()) {
                items
                    .iter_mut()
                    .for_each(|v| drop_optional_nulls(v, item, root));
            }
        }
        _ => {}
    }
}

#[test]
fn a_struct_written_as_an_array_is_read_but_not_advertised() {
    let args = json!({"action": ["noop"]});
    assert_eq!(
        Act::from_value(args.clone()).unwrap().action,
        stitch_tests::tools::Action::Noop
    );
    assert!(!validator::<Act>().is_valid(&args));
}

#[test]
fn an_explicit_null_for_an_option_is_accepted_but_not_advertised() {
    let args = json!({"paths": "a.png", "max_pixels": null});
    assert_eq!(ViewFile::from_value(args.clone()).unwrap().max_pixels, None);
    assert!(!validator::<ViewFile>().is_valid(&args));
    assert!(validator::<ViewFile>().is_valid(&json!({"paths": "a.png"})));
}

/// `Option`s where nothing can be left out: items, map values, the one value of a `OneOrMany`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Gaps {
    readings: Vec<Option<u32>>,
    #[serde(default)]
    notes: BTreeMap<String, Option<String>>,
    #[serde(default)]
    labels: Option<OneOrMany<Option<String>>>,
}

#[test]
fn an_option_that_cannot_be_left_out_advertises_null() {
    let args = json!({"readings": [1, null], "notes": {"a": null}, "labels": null});
    let many = json!({"readings": [], "labels": ["x", null]});
    for args in [&args, &many] {
        assert!(Gaps::from_value(args.clone()).is_ok(), "{args}");
        assert!(
            serde_json::from_value::<Gaps>(args.clone()).is_ok(),
            "{args}"
        );
        assert!(validator::<Gaps>().is_valid(args), "{args}");
        // The coercer built from the schema answers as the derive does.
        let coercer = stitch_runtime::json_schema::Coercer::new(Gaps::input_schema()).unwrap();
        let mut value = (*args).clone();
        coercer.coerce(&mut value).unwrap();
        assert_eq!(&value, args);
    }
    let items = &Gaps::input_schema()["properties"]["readings"]["items"];
    assert_eq!(items["anyOf"][1], json!({"type": "null"}), "{items}");
    // A bound on such an item still applies to the number (and `null` passes).
    assert!(!validator::<Gaps>().is_valid(&json!({"readings": [-1]})));
}

/// A unit-only enum that takes any other name (`#[serde(other)]`), and a tagged one.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
enum Speed {
    Fast,
    Slow,
    #[serde(other)]
    Unknown,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op")]
enum Step {
    Open {
        path: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op", content = "args")]
enum AdjStep {
    Open {
        paths: OneOrMany<String>,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Drive {
    speed: Speed,
    #[serde(default)]
    speeds: Option<OneOrMany<Speed>>,
    #[serde(default)]
    step: Option<Step>,
    #[serde(default)]
    adj: Option<AdjStep>,
}

#[test]
fn an_enum_that_takes_any_other_name_is_an_open_string() {
    let coercer = stitch_runtime::json_schema::Coercer::new(Drive::input_schema()).unwrap();
    let args = json!({"speed": "Warp", "speeds": "Zip"});
    let read = Drive::from_value(args.clone()).unwrap();
    assert_eq!(read, serde_json::from_value::<Drive>(args.clone()).unwrap());
    assert_eq!(read.speed, Speed::Unknown);
    assert!(validator::<Drive>().is_valid(&args));
    let mut value = args.clone();
    coercer.coerce(&mut value).unwrap();
    // A list written as text is refused alike by the derive and the schema's coercer.
    let text = json!({"speed": "Fast", "speeds": "[\"Zip\"]"});
    let derive = Drive::from_value(text.clone()).unwrap_err().to_string();
    let schema = coercer.coerce(&mut text.clone()).unwrap_err().to_string();
    assert_eq!(derive, schema);
    // An internally or adjacently tagged enum's other tag: the `other` variant's member takes
    // any string as its tag (an `anyOf`: it overlaps the others), so a validator and the
    // coercer take it as serde does.
    let other = json!({"speed": "Fast", "step": {"op": "Zap"}, "adj": {"op": "Zap"}});
    let read = same_answer::<Drive>(&other).unwrap();
    assert_eq!(
        (read.step, read.adj),
        (Some(Step::Other), Some(AdjStep::Other))
    );
    assert!(
        validator::<Drive>().is_valid(&other),
        "{}",
        Drive::input_schema()
    );
    // A known tag is still its variant's: its fields are walked, and refused alike.
    let known = json!({"speed": "Fast", "step": {"op": "Open", "path": "p"}, "adj": {"op": "Open", "args": {"paths": ["a"]}}});
    let read = same_answer::<Drive>(&known).unwrap();
    assert_eq!(
        read.step,
        Some(Step::Open {
            path: "p".to_owned()
        })
    );
    for refused in [
        json!({"speed": "Fast", "step": {"op": "Open"}}),
        json!({"speed": "Fast", "adj": {"op": "Open", "args": {"paths": "[\"a\"]"}}}),
        json!({"speed": "Fast", "step": {"op": 5}}),
    ] {
        same_answer::<Drive>(&refused).unwrap_err();
    }
    // What remains (docs/rules.md#schema-differences): JSON Schema has no "any tag but
    // these" without `not`, so a validator also takes a known tag whose fields are missing,
    // as the other variant; serde and the coercer refuse it.
    assert!(validator::<Drive>().is_valid(&json!({"speed": "Fast", "step": {"op": "Open"}})));
}

/// Fields that read numbers and booleans written as text, and a struct that does for all
/// its own fields (not a nested struct's).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Knobs {
    #[stitch(lenient_scalars)]
    #[serde(default)]
    level: u8,
    #[stitch(lenient_scalars)]
    #[serde(default)]
    sizes: Vec<i16>,
    #[stitch(lenient_scalars)]
    #[serde(default)]
    ratio: Option<f64>,
    #[stitch(lenient_scalars)]
    #[serde(default)]
    gain: Option<f32>,
    #[stitch(lenient_scalars)]
    #[serde(default)]
    on: Option<bool>,
    #[serde(default)]
    strict: Option<u32>,
    #[serde(default)]
    all: Option<AllLenient>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[stitch(lenient_scalars)]
struct AllLenient {
    count: u32,
    #[serde(default)]
    inner: Option<Strict>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Strict {
    count: u32,
}

#[test]
fn lenient_scalars_are_in_the_schema() {
    // docs/rules.md#schema-differences: a lenient number or boolean is an `anyOf` of itself
    // and the text the derive reads, which the coercer built from the schema reads as the
    // derive does, into the same value.
    let schema = Knobs::input_schema();
    assert_eq!(
        schema["properties"]["level"]["anyOf"][1],
        json!({"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}),
        "{schema}"
    );
    assert_eq!(
        schema["properties"]["on"]["anyOf"][1],
        json!({"type": "string", "enum": ["true", "false"]})
    );
    let v = validator::<Knobs>();
    for accepted in [
        json!({"level": "3", "sizes": ["-3", 4], "ratio": "0.5", "gain": "2.5e3", "on": "true"}),
        json!({"level": 200, "on": false, "all": {"count": "5"}}),
        json!({"all": {"count": 5, "inner": {"count": 6}}}),
    ] {
        same_answer::<Knobs>(&accepted).unwrap();
        assert!(v.is_valid(&accepted), "{accepted}");
    }
    // JSON text of a list of them is repaired (R1), then each item read.
    let text = same_answer::<Knobs>(&json!({"sizes": "[\"1\", 2]"})).unwrap();
    assert_eq!(text.sizes, [1, 2]);
    let read =
        same_answer::<Knobs>(&json!({"level": "3", "sizes": ["-3", 4], "gain": "0.5"})).unwrap();
    assert_eq!(
        (read.level, read.sizes, read.gain),
        (3, vec![-3, 4], Some(0.5))
    );
    // Refused alike: a text that does not read back to itself, past the type's range, an
    // f32 past its range, a field without the option, a nested struct's field.
    for refused in [
        json!({"level": "03"}),
        json!({"level": "-0"}),
        json!({"level": "300"}),
        json!({"sizes": ["40000"]}),
        json!({"ratio": "0x5"}),
        json!({"gain": "1e39"}),
        json!({"on": "True"}),
        json!({"strict": "5"}),
        json!({"all": {"count": 5, "inner": {"count": "6"}}}),
    ] {
        same_answer::<Knobs>(&refused).unwrap_err();
    }
    // What remains: the schema's text pattern does not hold the type's range, so a validator
    // takes `"300"` for a `u8`; serde and the coercer refuse it.
    assert!(v.is_valid(&json!({"level": "300"})));
}

/// Fields read under aliases: required, optional, defaulted, and in a flattened struct.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Named {
    #[serde(alias = "colour", alias = "hue")]
    color: String,
    #[serde(default, alias = "path")]
    paths: Option<OneOrMany<String>>,
    #[serde(default, alias = "n")]
    count: u32,
    #[serde(flatten)]
    place: Place,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Place {
    #[serde(alias = "row")]
    line: u32,
}

/// The verdict and value of the derive (`from_value`, its text and the coerced value serde
/// reads) and of the coercer built from the derived schema (then serde), which must agree.
fn same_answer<T: ToolArgs + PartialEq + std::fmt::Debug + serde::de::DeserializeOwned>(
    args: &Value,
) -> Result<T, String> {
    let derive = T::from_value(args.clone()).map_err(|e| e.to_string());
    let text = T::from_json(&args.to_string()).map_err(|e| e.to_string());
    assert_eq!(derive, text, "from_json, {args}");
    let coercer = stitch_runtime::json_schema::Coercer::new(T::input_schema()).unwrap();
    let mut coerced = args.clone();
    let schema = coercer
        .coerce(&mut coerced)
        .map_err(|e| e.to_string())
        .and_then(|()| serde_json::from_value::<T>(coerced).map_err(|e| e.to_string()));
    assert_eq!(derive, schema, "the coercer from the schema, {args}");
    derive
}

#[test]
fn an_alias_is_a_property_and_a_required_field_may_be_sent_under_it() {
    // docs/rules.md#schema-differences: each alias is a property (`deprecated`: the wire name
    // is preferred), and a required field is required under one of its names — said by a
    // `not` (no name of the group sent is invalid), never by a top-level `allOf`, which
    // Anthropic's API refuses in an `input_schema`.
    let schema = Named::input_schema();
    assert_eq!(
        schema["properties"]["colour"],
        json!({"type": "string", "deprecated": true})
    );
    assert_eq!(schema["properties"]["row"]["deprecated"], true);
    assert!(schema.get("required").is_none(), "{schema}");
    for combinator in ["allOf", "anyOf", "oneOf"] {
        assert!(schema.get(combinator).is_none(), "{schema}");
    }
    assert_eq!(
        schema["not"],
        json!({"anyOf": [
            {"properties": {"color": false, "colour": false, "hue": false}},
            {"properties": {"line": false, "row": false}},
        ]})
    );
    let v = validator::<Named>();
    for accepted in [
        json!({"colour": "red", "row": 1}),
        json!({"hue": "red", "line": 2, "path": "a.png", "n": 3}),
        json!({"color": "red", "row": 1, "path": ["a", "b"]}),
    ] {
        let read = same_answer::<Named>(&accepted).unwrap();
        assert_eq!((read.color.as_str(), read.place.line > 0), ("red", true));
        assert!(v.is_valid(&accepted), "{accepted}");
    }
    assert_eq!(
        same_answer::<Named>(&json!({"colour": "red", "row": 1, "path": ["a"]}))
            .unwrap()
            .paths,
        Some(OneOrMany::Many(vec!["a".to_owned()]))
    );
    // Refused alike, in the same words: a list written as text under an alias names the key
    // sent (R3); no name sent is the wire name missing; two names are serde's duplicate.
    for (refused, message) in [
        (
            json!({"color": "r", "line": 1, "path": "[\"a\"]"}),
            "path is a list written as text \u{2014} pass the array itself, not JSON written as text",
        ),
        (json!({"line": 1}), "color: missing field `color`"),
        (json!({"color": "r"}), "line: missing field `line`"),
        (json!({"colour": null, "line": 1}), "colour: invalid type: null, expected a string"),
    ] {
        assert_eq!(same_answer::<Named>(&refused).unwrap_err(), message);
        // A list written as text is a string to a validator: R3 is the coercer's.
        assert_eq!(v.is_valid(&refused), message.contains("as text"), "{refused}");
    }
    // What remains: a field sent under two names. serde refuses it (after the coercer too);
    // the schema says "at least one of", not "exactly one of".
    for twice in [
        json!({"color": "r", "line": 1, "paths": "a", "path": "b"}),
        json!({"color": "r", "hue": "b", "line": 1}),
    ] {
        assert!(same_answer::<Named>(&twice)
            .unwrap_err()
            .starts_with("duplicate field"));
        assert!(v.is_valid(&twice), "{twice}");
    }
    // R8 under an alias: a defaulted field's `null` is the field left out.
    let left_out = same_answer::<Named>(&json!({"color": "r", "line": 1, "n": null})).unwrap();
    assert_eq!(left_out.count, 0);
}

#[test]
fn the_strict_and_gemini_formats_leave_aliases_out() {
    // docs/rules.md#schema-differences: these subsets cannot say "one of these names" (no
    // `allOf`, or every property required), so each field is listed by its wire name only.
    use stitch_runtime::tool;
    for (format, schema) in [
        (
            "openai_strict",
            tool::openai_strict::<Named>("t", None)["function"]["parameters"].clone(),
        ),
        (
            "openai_responses_strict",
            tool::openai_responses_strict::<Named>("t", None)["parameters"].clone(),
        ),
        (
            "anthropic_strict",
            tool::anthropic_strict::<Named>("t", None)["input_schema"].clone(),
        ),
        (
            "gemini",
            tool::gemini::<Named>("t", None)["parameters"].clone(),
        ),
        (
            "gemini_json_schema",
            tool::gemini_json_schema::<Named>("t", None)["parametersJsonSchema"].clone(),
        ),
    ] {
        let text = schema.to_string();
        for alias in [
            "colour",
            "hue",
            "\"path\"",
            "\"n\"",
            "row",
            "\"not\"",
            "deprecated",
        ] {
            assert!(!text.contains(alias), "{format}: {alias} in {text}");
        }
        let required = schema["required"].as_array().unwrap();
        for wire in ["color", "line"] {
            assert!(required.contains(&json!(wire)), "{format}: {text}");
        }
    }
    // The other formats are the input schema itself.
    let input = Named::input_schema();
    assert_eq!(&tool::mcp::<Named>("t", None)["inputSchema"], input);
    assert_eq!(&tool::anthropic::<Named>("t", None)["input_schema"], input);
    assert_eq!(
        &tool::openai::<Named>("t", None)["function"]["parameters"],
        input
    );
    assert_eq!(
        &tool::openai_responses::<Named>("t", None)["parameters"],
        input
    );
}

fn seven() -> Option<u32> {
    Some(7)
}

/// An `f32`, and an `Option` whose default is not `None`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Gauge {
    #[serde(default)]
    level: Option<f32>,
    #[serde(default = "seven")]
    count: Option<u32>,
}

#[test]
fn an_f32_range_and_an_options_other_default_are_in_the_schema() {
    // docs/rules.md#schema-differences: an `f32` is bounded by `f32::MAX`, so the coercer
    // built from the schema refuses `1e39` as the derive does, in its words, and takes a
    // number that rounds to `f32::MAX`.
    let schema = Gauge::input_schema();
    assert_eq!(
        schema["properties"]["level"],
        json!({"type": "number", "minimum": -f32::MAX as f64, "maximum": f32::MAX as f64})
    );
    for big in [json!({"level": 1e39}), json!({"level": -1e39})] {
        let err = same_answer::<Gauge>(&big).unwrap_err();
        assert!(err.ends_with("is out of the range of an f32"), "{err}");
        assert!(!validator::<Gauge>().is_valid(&big));
    }
    let rounds = json!({"level": 3.402_823_5e38_f64});
    assert_eq!(same_answer::<Gauge>(&rounds).unwrap().level, Some(f32::MAX));
    // What remains: a validator judges the number as written, past the bound.
    assert!(!validator::<Gauge>().is_valid(&rounds));
    assert_eq!(
        same_answer::<Gauge>(&json!({"level": 0.5})).unwrap().level,
        Some(0.5)
    );
    // A `null` at an `Option` whose default is `Some(7)`: serde and the derive read `None`;
    // the schema says `null` there, so its coercer keeps it (not R8's left out) and serde
    // reads `None` from what it leaves.
    assert_eq!(
        schema["properties"]["count"]["anyOf"][1],
        json!({"type": "null"}),
        "{schema}"
    );
    let null = json!({"count": null});
    assert_eq!(same_answer::<Gauge>(&null).unwrap().count, None);
    assert!(validator::<Gauge>().is_valid(&null));
    assert_eq!(same_answer::<Gauge>(&json!({})).unwrap().count, Some(7));
}

/// An `f32` with bounds of its own: they replace the type's.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Ratio {
    #[stitch(minimum = 0, maximum = 1)]
    ratio: f32,
    #[stitch(minimum = 0)]
    scale: f32,
}

#[test]
fn an_f32_with_its_own_bounds_keeps_them() {
    let schema = Ratio::input_schema();
    assert_eq!(
        schema["properties"]["ratio"],
        json!({"type": "number", "minimum": 0, "maximum": 1})
    );
    assert_eq!(
        schema["properties"]["scale"],
        json!({"type": "number", "minimum": 0, "maximum": f32::MAX as f64})
    );
    assert_eq!(
        same_answer::<Ratio>(&json!({"ratio": 0.5, "scale": 2})).unwrap(),
        Ratio {
            ratio: 0.5,
            scale: 2.0
        }
    );
    assert!(same_answer::<Ratio>(&json!({"ratio": 2, "scale": 2})).is_err());
}

/// Every value that `from_value` accepts validates against the schema once coerced; returns
/// how many generated values were accepted.
pub(super) fn accepted_values_validate<T: ToolArgs + std::fmt::Debug>(
    seed: u64,
    runs: usize,
) -> usize {
    let schema = T::input_schema();
    let v = validator::<T>();
    let mut rng = Rng(seed);
    let mut accepted = 0;
    let mut positional = 0;
    for _ in 0..runs {
        let args = sample(schema, schema, &mut rng, 0);
        if T::from_value(args.clone()).is_ok() {
            accepted += 1;
            let mut coerced = args.clone();
            T::coerce_value(&mut coerced).unwrap();
            // By design an `Option<T>` is advertised as `T`, not required (no `null`: strict
            // clients reject type arrays); serde also takes an explicit `null` there, which
            // means the same as leaving the key out. Compare on that form.
            drop_optional_nulls(&mut coerced, schema, schema);
            let errors: Vec<jsonschema::ValidationError> = v.iter_errors(&coerced).collect();
            // serde also reads a struct from an array, by position (here JSON text repaired
            // into an array at a struct's position); the schema advertises objects only.
            if !errors.is_empty() && errors.iter().all(|e| e.instance().is_array()) {
                positional += 1;
                continue;
            }
            let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            assert!(
                errors.is_empty(),
                "serde accepts {coerced} but the schema does not: {errors:?}"
            );
        }
    }
    // Positional structs stay the exception.
    assert!(
        positional * 10 <= accepted.max(10),
        "{positional} positional of {accepted}"
    );
    accepted
}

#[test]
fn what_serde_accepts_the_schema_accepts() {
    for (name, accepted) in [
        ("view_file", accepted_values_validate::<ViewFile>(1, 2000)),
        ("search", accepted_values_validate::<Search>(2, 2000)),
        ("edit", accepted_values_validate::<Edit>(3, 2000)),
        ("act", accepted_values_validate::<Act>(4, 3000)),
        ("tree", accepted_values_validate::<Tree>(5, 2000)),
        ("shapes", accepted_values_validate::<Shapes>(6, 4000)),
    ] {
        // The generator must reach real values, or the test proves nothing.
        assert!(
            accepted >= 20,
            "{name}: only {accepted} accepted values generated"
        );
        eprintln!("{name}: {accepted} accepted values validated");
    }
}

#[test]
fn what_serde_rejects_the_schema_rejects() {
    fn rejected<T: ToolArgs + std::fmt::Debug>(args: Value) {
        assert!(T::from_value(args.clone()).is_err(), "serde accepts {args}");
        assert!(
            !validator::<T>().is_valid(&args),
            "the schema accepts {args}"
        );
    }
    let many: Vec<String> = (0..21).map(|i| format!("{i}.png")).collect();
    rejected::<ViewFile>(json!({}));
    rejected::<ViewFile>(json!({"paths": 5}));
    rejected::<ViewFile>(json!({"paths": "a", "extra": 1}));
    rejected::<ViewFile>(json!({ "paths": many }));
    rejected::<ViewFile>(json!({"paths": []}));
    rejected::<ViewFile>(json!({"paths": "a", "max_pixels": -1}));
    rejected::<Search>(json!({"query": 5}));
    rejected::<Search>(json!({"query": "q", "maxHits": 70000}));
    rejected::<Search>(json!({"query": "q", "filters": {"kinds": ["socket"]}}));
    rejected::<Edit>(json!({"file": "f"}));
    rejected::<Edit>(json!({"file": "f", "rows": []}));
    rejected::<Edit>(
        json!({"file": "f", "rows": [{"line": 1, "names": ["1", "2", "3", "4", "5", "6", "7", "8", "9"]}]}),
    );
    rejected::<Act>(json!({"action": {"action": "fly"}}));
    rejected::<Act>(json!({"action": {"action": "copy", "to": "x"}}));
    rejected::<Act>(json!({"action": "noop"}));
    rejected::<Shapes>(json!({}));
}

/// Variants read under aliases, in each tagging that has a tag.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
enum Ext {
    #[serde(alias = "mv")]
    Move { paths: OneOrMany<String> },
    #[serde(alias = "halt")]
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op")]
enum Int {
    #[serde(alias = "mv")]
    Move { paths: OneOrMany<String> },
    #[serde(alias = "halt")]
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op", content = "args")]
enum Adj {
    #[serde(alias = "mv")]
    Move { paths: OneOrMany<String> },
    #[serde(alias = "halt")]
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Moves {
    #[serde(default)]
    ext: Option<Ext>,
    #[serde(default)]
    int: Option<Int>,
    #[serde(default)]
    adj: Option<Adj>,
}

#[test]
fn a_variant_alias_is_in_the_schema() {
    // docs/rules.md#schema-differences: an alias of a variant is one more member: a key of
    // an externally tagged enum, a tag value of an internally or adjacently tagged one.
    let v = validator::<Moves>();
    let all = json!({
        "ext": {"mv": {"paths": "a"}},
        "int": {"op": "mv", "paths": ["a", "b"]},
        "adj": {"op": "mv", "args": {"paths": "a"}},
    });
    let read = same_answer::<Moves>(&all).unwrap();
    assert_eq!(
        read.int,
        Some(Int::Move {
            paths: OneOrMany::Many(vec!["a".to_owned(), "b".to_owned()])
        })
    );
    assert!(v.is_valid(&all), "{}", Moves::input_schema());
    let units = json!({"ext": "halt", "int": {"op": "halt"}, "adj": {"op": "halt"}});
    assert_eq!(
        same_answer::<Moves>(&units).unwrap(),
        Moves {
            ext: Some(Ext::Stop),
            int: Some(Int::Stop),
            adj: Some(Adj::Stop)
        }
    );
    assert!(v.is_valid(&units));
    // Under an alias too, a list written as text is refused by the key sent, and JSON text
    // where no string is expected repaired, alike.
    for refused in [
        json!({"ext": {"mv": {"paths": "[\"a\"]"}}}),
        json!({"int": {"op": "mv", "paths": "[\"a\"]"}}),
        json!({"adj": {"op": "mv", "args": {"paths": "[\"a\"]"}}}),
        json!({"int": {"op": "fly"}}),
    ] {
        same_answer::<Moves>(&refused).unwrap_err();
    }
    let text = json!({"adj": "{\"op\": \"mv\", \"args\": {\"paths\": \"a\"}}"});
    assert!(same_answer::<Moves>(&text).unwrap().adj.is_some());
}

/// A required aliased field beside a flattened enum (the schema is one member per variant).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Job {
    #[serde(alias = "who")]
    owner: String,
    #[serde(flatten)]
    step: Step2,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op")]
enum Step2 {
    Copy {
        #[serde(alias = "target")]
        to: String,
    },
    Stop,
}

#[test]
fn an_alias_beside_a_flattened_enum_is_in_each_member() {
    let schema = Job::input_schema();
    for member in schema["anyOf"].as_array().unwrap() {
        assert_eq!(
            member["not"]["anyOf"][0],
            json!({"properties": {"owner": false, "who": false}}),
            "{member}"
        );
    }
    let v = validator::<Job>();
    for accepted in [
        json!({"who": "me", "op": "Copy", "target": "x"}),
        json!({"owner": "me", "op": "Copy", "to": "x"}),
        json!({"who": "me", "op": "Stop"}),
    ] {
        same_answer::<Job>(&accepted).unwrap();
        assert!(v.is_valid(&accepted), "{accepted} {schema}");
    }
    for refused in [json!({"op": "Stop"}), json!({"who": "me", "op": "Copy"})] {
        same_answer::<Job>(&refused).unwrap_err();
        assert!(!v.is_valid(&refused), "{refused}");
    }
    // Both names: serde's duplicate, which the schema ("at least one of") does not say.
    let twice = json!({"who": "me", "owner": "me", "op": "Stop"});
    same_answer::<Job>(&twice).unwrap_err();
    assert!(v.is_valid(&twice));
}
