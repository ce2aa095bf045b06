//! One schema node in each subset: the keywords and formats it keeps.

use serde_json::{json, Map, Value};

use super::{at, Never};
use crate::surface::unstated::{note, range, unstated};

/// From Gemini's API reference, "Schema".
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// Other formats fail the request.
const GEMINI_FORMATS: &[&str] = &["enum", "date-time"];

/// From Claude's docs, "Structured outputs", JSON Schema limitations.
const ANTHROPIC_STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "default",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "format",
    "pattern",
];

const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// A tuple of one schema as an array of fixed length, returned; of different types, `Err`.
fn tuple(out: &mut Map<String, Value>, path: &str, format: &str) -> Result<Option<usize>, Never> {
    let Some(Value::Array(members)) = out.remove("prefixItems") else {
        return Ok(None);
    };
    let n = members.len();
    let mut members = members.into_iter();
    let first = members.next();
    if members.any(|m| Some(&m) != first.as_ref()) {
        return Err(Never(format!(
            "{} is a tuple of different types, which {format} cannot describe",
            at(path)
        )));
    }
    // `items: false` closed the tuple; the length says it now.
    out.insert("items".to_owned(), first.unwrap_or_else(|| json!({})));
    out.insert("minItems".to_owned(), json!(n));
    out.insert("maxItems".to_owned(), json!(n));
    Ok(Some(n))
}

fn keep_format(out: &mut Map<String, Value>, allowed: &[&str]) {
    let known = out
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| allowed.contains(&f));
    if !known {
        out.remove("format");
    }
}

fn is_object_schema(out: &Map<String, Value>) -> bool {
    out.get("type").and_then(Value::as_str) == Some("object") || out.contains_key("properties")
}

/// A map's value schema: `Some(true)` if any value goes (`{}`), `None` if not a map.
fn map_values(out: &Map<String, Value>) -> Option<bool> {
    match out.get("additionalProperties") {
        Some(Value::Object(values)) => Some(values.is_empty()),
        Some(Value::Bool(true)) => Some(true),
        _ => None,
    }
}

pub(super) fn anthropic_node(mut out: Map<String, Value>, path: &str) -> Result<Value, Never> {
    if let Some(n) = tuple(&mut out, path, "Anthropic's strict mode")? {
        out.remove("maxItems");
        out.insert("minItems".to_owned(), json!(n.min(1)));
        let length = range(Some(&json!(n)), Some(&json!(n)), Some(("item", "items")));
        if let Some(text) = length {
            note(&mut out, &text);
        }
    }
    // Strict mode closes every object. A union of objects lists its members' keys beside
    // them, so closing it refuses only keys no member takes (`docs/rules.md#strict-schemas`).
    let union = out.contains_key("anyOf") && !out.contains_key("properties");
    if union && is_object_schema(&out) {
        if let Some(properties) = member_properties(&out) {
            out.insert("properties".to_owned(), Value::Object(properties));
            out.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
    }
    if is_object_schema(&out) && !union {
        if map_values(&out).is_some() && !out.contains_key("properties") {
            note(
                &mut out,
                "Strict mode cannot describe a map: send an empty object.",
            );
        }
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    unstated(&mut out, &["pattern"]);
    let min_items = out.get("minItems").and_then(Value::as_u64).unwrap_or(0);
    let items = if min_items > 1 || out.contains_key("maxItems") {
        range(
            out.get("minItems").filter(|_| min_items > 1),
            out.get("maxItems"),
            Some(("item", "items")),
        )
    } else {
        None
    };
    if let Some(text) = items {
        note(&mut out, &text);
    }
    if min_items > 1 {
        out.insert("minItems".to_owned(), json!(1));
    }
    keep_format(&mut out, ANTHROPIC_FORMATS);
    out.retain(|k, _| ANTHROPIC_STRICT_KEYWORDS.contains(&k.as_str()));
    Ok(Value::Object(out))
}

/// Each key the members declare, with their distinct schemas as an `anyOf`; `None` when a
/// member has no properties.
fn member_properties(out: &Map<String, Value>) -> Option<Map<String, Value>> {
    let Some(Value::Array(members)) = out.get("anyOf") else {
        return None;
    };
    let mut keys: Map<String, Value> = Map::new();
    for member in members {
        let Some(Value::Object(properties)) = member.get("properties") else {
            return None;
        };
        for (key, schema) in properties {
            let seen = keys.entry(key.clone()).or_insert_with(|| json!([]));
            if let Value::Array(schemas) = seen {
                if !schemas.contains(schema) {
                    schemas.push(schema.clone());
                }
            }
        }
    }
    for schemas in keys.values_mut() {
        if let Value::Array(list) = schemas {
            *schemas = if list.len() == 1 {
                list.remove(0)
            } else {
                json!({ "anyOf": std::mem::take(list) })
            };
        }
    }
    Some(keys)
}

pub(super) fn gemini_any() -> Value {
    json!({"anyOf": [
        {"type": "string", "nullable": true},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "object"},
        {"type": "array", "items": {"type": "string"}},
    ]})
}

pub(super) fn gemini_node(mut out: Map<String, Value>, path: &str) -> Result<Value, Never> {
    tuple(&mut out, path, "Gemini's `parameters`")?;
    if let Some(Value::Array(types)) = out.get("type") {
        let nullable = types.iter().any(|t| t == "null");
        let others: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        match others.as_slice() {
            [one] => {
                out.insert("type".to_owned(), one.clone());
            }
            _ => {
                out.remove("type");
                let members = others.iter().map(|t| json!({ "type": t })).collect();
                out.insert("anyOf".to_owned(), Value::Array(members));
            }
        }
        if nullable {
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
    }
    if let Some(Value::Array(members)) = out.get_mut("anyOf") {
        let before = members.len();
        members.retain(|m| m != &json!({"type": "null"}));
        if members.len() < before {
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
    }
    // Gemini's enums are strings.
    if let Some(value) = out.remove("const") {
        if value.is_string() {
            out.insert("type".to_owned(), json!("string"));
            out.insert("enum".to_owned(), json!([value]));
        }
    }
    if out
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|e| !e.iter().all(Value::is_string))
    {
        out.remove("enum");
    }
    // No `additionalProperties`: a map is offered empty unless any value goes.
    if map_values(&out) == Some(false) && !out.contains_key("properties") {
        out.insert("maxProperties".to_owned(), json!(0));
        note(
            &mut out,
            "Gemini cannot describe this map's values: send an empty object.",
        );
    }
    out.remove("additionalProperties");
    // `{}` (any value) has no type, which Gemini requires.
    let typed = out.contains_key("type") || out.contains_key("anyOf") || out.contains_key("enum");
    if let (false, Value::Object(any)) = (typed, gemini_any()) {
        out.extend(any);
    }
    keep_format(&mut out, GEMINI_FORMATS);
    unstated(
        &mut out,
        &["minimum", "maximum", "minLength", "maxLength", "pattern"],
    );
    out.retain(|k, _| GEMINI_KEYWORDS.contains(&k.as_str()));
    Ok(Value::Object(out))
}
