//! Gemini's `parametersJsonSchema`: JSON Schema with references, in the subset Gemini lists.

use serde_json::{json, Map, Value};

use crate::surface::unstated::unstated;

/// From Gemini's API reference (`responseJsonSchema`, which `parametersJsonSchema` shares).
const GEMINI_JSON_KEYWORDS: &[&str] = &[
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

pub(super) fn gemini_json(schema: &Value) -> Value {
    let mut anchored = Vec::new();
    collect_anchors(schema, &mut anchored);
    let mut out = gemini_json_node(schema);
    if !anchored.is_empty() {
        let mut defs = match out.get_mut("$defs").map(Value::take) {
            Some(Value::Object(defs)) => defs,
            _ => Map::new(),
        };
        for (name, node) in anchored {
            defs.insert(name, gemini_json_node(node));
        }
        if let Value::Object(root) = &mut out {
            root.insert("$defs".to_owned(), Value::Object(defs));
        }
    }
    out
}

fn collect_anchors<'a>(node: &'a Value, found: &mut Vec<(String, &'a Value)>) {
    match node {
        Value::Object(object) => {
            if let Some(Value::String(anchor)) = object.get("$anchor") {
                if !found.iter().any(|(a, _)| a == anchor) {
                    found.push((anchor.clone(), node));
                }
            }
            object.values().for_each(|v| collect_anchors(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_anchors(v, found)),
        _ => {}
    }
}

fn gemini_json_node(node: &Value) -> Value {
    let Value::Object(object) = node else {
        return node.clone();
    };
    let mut out = Map::new();
    if let Some(Value::String(target)) = object.get("$ref") {
        // An anchor is an entry of `$defs` now; a `$ref` holds nothing else.
        let target = match target.strip_prefix('#') {
            Some(name) if !name.is_empty() && !name.starts_with('/') => format!("#/$defs/{name}"),
            _ => target.clone(),
        };
        out.insert("$ref".to_owned(), Value::String(target));
        return Value::Object(out);
    }
    for (key, value) in object {
        let value = match key.as_str() {
            "properties" | "$defs" => match value {
                Value::Object(members) => Value::Object(
                    members
                        .iter()
                        .map(|(k, v)| (k.clone(), gemini_json_node(v)))
                        .collect(),
                ),
                other => other.clone(),
            },
            "anyOf" | "oneOf" | "prefixItems" => match value {
                Value::Array(members) => {
                    Value::Array(members.iter().map(gemini_json_node).collect())
                }
                other => other.clone(),
            },
            "items" | "additionalProperties" => gemini_json_node(value),
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    out.remove("$anchor");
    if let Some(one_of) = out.remove("oneOf") {
        out.insert("anyOf".to_owned(), one_of);
    }
    if let Some(value) = out.remove("const") {
        out.insert("enum".to_owned(), json!([value]));
    }
    // `items: false` closed a tuple; `maxItems` says it in the subset.
    if out.get("items") == Some(&Value::Bool(false)) {
        out.remove("items");
        if let Some(Value::Array(prefix)) = out.get("prefixItems") {
            let n = prefix.len();
            out.insert("maxItems".to_owned(), json!(n));
        }
    }
    unstated(&mut out, &["minimum", "maximum"]);
    out.retain(|k, _| GEMINI_JSON_KEYWORDS.contains(&k.as_str()));
    Value::Object(out)
}
