//! Rewrites of schemas the derive does not write: an enum root that says
//! `"type": "object"`, references into `$defs`, type lists and unions with `null`, schema
//! text with keywords outside every subset.

use serde_json::{json, Value};

use super::json_schema::gemini_json;
use super::subset::{subset_of, Never, Provider};
use super::UNROLL_DEPTH;

fn gemini(schema: Value) -> Value {
    subset_of(&schema, Provider::Gemini).unwrap_or_else(|Never(why)| panic!("{why}"))
}

fn anthropic(schema: Value) -> Value {
    subset_of(&schema, Provider::AnthropicStrict).unwrap_or_else(|Never(why)| panic!("{why}"))
}

fn tagged_root() -> Value {
    json!({
        "type": "object",
        "description": "Do something.",
        "oneOf": [
            {"type": "object", "properties": {"op": {"type": "string", "const": "stop"}}, "required": ["op"]},
            {"type": "object", "properties": {"op": {"type": "string", "const": "go"}, "to": {"type": "string"}}, "required": ["op", "to"]},
        ],
    })
}

#[test]
fn an_enum_root_that_says_object() {
    let g = gemini(tagged_root());
    assert_eq!(g["type"], "object");
    assert_eq!(
        g["anyOf"][1]["properties"]["op"],
        json!({"type": "string", "enum": ["go"]})
    );
    assert!(g.get("oneOf").is_none());
    let a = anthropic(tagged_root());
    // The root is closed, as strict mode requires of every object, and lists every key a
    // member declares, so `false` refuses only the keys no member takes; the members, closed
    // too, decide the rest (docs/rules.md#strict-schemas).
    assert_eq!(a["additionalProperties"], false);
    assert_eq!(
        a["properties"]["op"],
        json!({"anyOf": [
            {"type": "string", "const": "stop"},
            {"type": "string", "const": "go"},
        ]})
    );
    assert_eq!(a["properties"]["to"], json!({"type": "string"}));
    assert_eq!(a["anyOf"][0]["additionalProperties"], false);
    assert_eq!(a["anyOf"][1]["required"], json!(["op", "to"]));
}

#[test]
fn references_into_defs_are_unrolled() {
    let schema = json!({
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/Node"}},
        "required": ["head"],
        "$defs": {"Node": {
            "type": "object",
            "properties": {"v": {"type": "integer"}, "next": {"$ref": "#/$defs/Node"}},
            "required": ["v"],
        }},
    });
    for out in [gemini(schema.clone()), anthropic(schema)] {
        let text = out.to_string();
        assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
        // The first Node and UNROLL_DEPTH more, then `next` is left out.
        let mut node = &out["properties"]["head"];
        for _ in 0..UNROLL_DEPTH {
            node = &node["properties"]["next"];
            assert_eq!(node["required"], json!(["v"]));
        }
        assert!(node["properties"].get("next").is_none(), "{text}");
    }
}

#[test]
fn null_becomes_nullable_for_gemini() {
    let out = gemini(json!({
        "type": "object",
        "properties": {
            "a": {"type": ["integer", "null"]},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "B."},
            "c": {"type": ["string", "integer"]},
        },
    }));
    let p = &out["properties"];
    assert_eq!(p["a"], json!({"type": "integer", "nullable": true}));
    assert_eq!(
        p["b"],
        json!({"anyOf": [{"type": "string"}], "nullable": true, "description": "B."})
    );
    assert_eq!(
        p["c"],
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
    );
}

#[test]
fn keywords_outside_a_subset_are_dropped_and_constraints_said_in_words() {
    let raw = json!({
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date-time", "x-extra": 1},
            "id": {"type": "string", "format": "uuid", "pattern": "^[a-f0-9-]+$"},
            "n": {"type": "number", "multipleOf": 0.5, "exclusiveMinimum": 0},
        },
    });
    let g = gemini(raw.clone());
    assert_eq!(
        g["properties"]["when"],
        json!({"type": "string", "format": "date-time"})
    );
    assert_eq!(
        g["properties"]["id"],
        json!({"type": "string", "pattern": "^[a-f0-9-]+$"})
    );
    assert_eq!(
        g["properties"]["n"],
        json!({"type": "number", "description": "Greater than 0. A multiple of 0.5."})
    );
    let a = anthropic(raw.clone());
    assert_eq!(a["properties"]["id"]["format"], "uuid");
    assert!(a["properties"]["when"].get("x-extra").is_none());
    let j = gemini_json(&raw);
    assert_eq!(
        j["properties"]["id"],
        json!({"type": "string", "format": "uuid", "description": "Matches the pattern `^[a-f0-9-]+$`."})
    );
}

#[test]
fn gemini_json_keeps_defs_and_moves_anchors_into_them() {
    let schema = json!({
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/Node", "description": "dropped beside a $ref"}},
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
    });
    let out = gemini_json(&schema);
    assert_eq!(out["properties"]["head"], json!({"$ref": "#/$defs/Node"}));
    assert_eq!(
        out["$defs"]["Node"]["properties"]["next"],
        json!({"$ref": "#/$defs/Node"})
    );
    let anchored = json!({
        "$anchor": "T",
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {"$ref": "#T"}}},
    });
    let out = gemini_json(&anchored);
    assert!(out.get("$anchor").is_none());
    assert_eq!(
        out["properties"]["kids"]["items"],
        json!({"$ref": "#/$defs/T"})
    );
    assert_eq!(
        out["$defs"]["T"]["properties"]["kids"]["items"],
        json!({"$ref": "#/$defs/T"})
    );
}
