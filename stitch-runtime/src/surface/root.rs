//! A root union written as one object, for providers that refuse `anyOf`/`oneOf`/`allOf` at
//! the top (`docs/rules.md#flattened-unions`). The object is wider than the union: a tag is no
//! longer paired with its variant's fields.

use serde_json::{json, Map, Value};

const UNIONS: [&str; 3] = ["anyOf", "oneOf", "allOf"];

/// Merges the root union only when every member is (after merging its own) an object schema.
pub(crate) fn root_object(schema: &Value) -> Value {
    let mut out = schema.clone();
    merge_root(&mut out);
    out
}

fn merge_root(schema: &mut Value) -> bool {
    let Value::Object(root) = schema else {
        return false;
    };
    if !UNIONS.iter().any(|k| root.contains_key(*k)) {
        return is_object(root);
    }
    let mut members: Vec<Value> = Vec::new();
    for key in UNIONS {
        if let Some(Value::Array(list)) = root.get(key) {
            members.extend(list.iter().cloned());
        }
    }
    if members.is_empty() || !members.iter_mut().all(merge_root) {
        return false;
    }
    for key in UNIONS {
        root.remove(key);
    }
    let members: Vec<Map<String, Value>> = members
        .into_iter()
        .filter_map(|m| match m {
            Value::Object(m) => Some(m),
            _ => None,
        })
        .collect();
    merge(root, members);
    true
}

fn is_object(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(t) => t == "object",
        None => schema.contains_key("properties"),
    }
}

fn merge(root: &mut Map<String, Value>, mut members: Vec<Map<String, Value>>) {
    let mut defs = match root.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    for member in &mut members {
        hoist_defs(member, &mut defs);
    }
    let mut properties = match root.remove("properties") {
        Some(Value::Object(own)) => own,
        _ => Map::new(),
    };
    let mut keys: Vec<&String> = Vec::new();
    for member in &members {
        if let Some(Value::Object(p)) = member.get("properties") {
            for key in p.keys() {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    let mut merged = Map::new();
    for key in keys {
        let schemas: Vec<&Value> = members
            .iter()
            .filter_map(|m| m.get("properties").and_then(|p| p.get(key)))
            .collect();
        merged.insert(key.clone(), one_of(&schemas));
    }
    if let Some((key, told)) = variants_told(&members) {
        if let Some(Value::Object(tag)) = merged.get_mut(&key) {
            let said = match tag.get("description").and_then(Value::as_str) {
                Some(own) => format!("{own} {told}"),
                None => told,
            };
            tag.insert("description".to_owned(), Value::String(said));
        }
    }
    // The members' schema of a key replaces the root's (wider).
    properties.extend(merged);

    let mut required: Vec<Value> = match root.remove("required") {
        Some(Value::Array(own)) => own,
        _ => Vec::new(),
    };
    let every = |name: &Value| {
        members.iter().all(|m| {
            m.get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.contains(name))
        })
    };
    if let Some(Value::Array(first)) = members.first().and_then(|m| m.get("required")) {
        for name in first {
            if every(name) && !required.contains(name) {
                required.push(name.clone());
            }
        }
    }

    if !root.contains_key("additionalProperties") {
        if let Some(extra) = common_extra(&members) {
            root.insert("additionalProperties".to_owned(), extra);
        }
    }
    if !root.contains_key("not") {
        let nots: Vec<Option<&Value>> = members.iter().map(|m| m.get("not")).collect();
        if let Some(Some(first)) = nots.first() {
            if nots.iter().all(|n| *n == Some(*first)) {
                root.insert("not".to_owned(), (*first).clone());
            }
        }
    }
    root.insert("type".to_owned(), json!("object"));
    root.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        root.insert("required".to_owned(), Value::Array(required));
    }
    if !defs.is_empty() {
        root.insert("$defs".to_owned(), Value::Object(defs));
    }
}

/// An anchored member goes to `$defs` too: its self-references still point at it.
fn hoist_defs(member: &mut Map<String, Value>, defs: &mut Map<String, Value>) {
    if let Some(Value::Object(own)) = member.remove("$defs") {
        for (name, def) in own {
            insert_def(defs, name, def);
        }
    }
    if let Some(Value::String(anchor)) = member.get("$anchor").cloned() {
        insert_def(defs, anchor, Value::Object(member.clone()));
        member.remove("$anchor");
    }
}

fn insert_def(defs: &mut Map<String, Value>, name: String, def: Value) {
    if defs.get(&name).is_some_and(|d| *d == def) {
        return;
    }
    // References go by `$anchor`, so a clashing name only needs to be another key.
    let mut key = name.clone();
    let mut n = 2;
    while defs.contains_key(&key) {
        key = format!("{name}{n}");
        n += 1;
    }
    defs.insert(key, def);
}

fn one_of(schemas: &[&Value]) -> Value {
    let mut distinct: Vec<&Value> = Vec::new();
    for s in schemas {
        if !distinct.contains(s) {
            distinct.push(s);
        }
    }
    if let [only] = distinct.as_slice() {
        return (*only).clone();
    }
    if let Some(tag) = tag_enum(&distinct) {
        return tag;
    }
    json!({"anyOf": distinct})
}

/// Tags (`{"const": "a"}`, `{"const": "b"}`) as one `{"type": "string", "enum": ["a", "b"]}`.
fn tag_enum(schemas: &[&Value]) -> Option<Value> {
    let mut values: Vec<Value> = Vec::new();
    let mut description: Option<Option<&Value>> = None;
    for schema in schemas {
        let object = schema.as_object()?;
        let plain = object
            .keys()
            .all(|k| matches!(k.as_str(), "const" | "enum" | "type" | "description"));
        // A nested union's tags are an `enum` already.
        let constants = match (object.get("const"), object.get("enum")) {
            (Some(c), None) => std::slice::from_ref(c),
            (None, Some(Value::Array(e))) => e.as_slice(),
            _ => return None,
        };
        if !plain
            || object.get("type").is_some_and(|t| t != "string")
            || !constants.iter().all(Value::is_string)
        {
            return None;
        }
        for constant in constants {
            if !values.contains(constant) {
                values.push(constant.clone());
            }
        }
        let own = object.get("description");
        match description {
            None => description = Some(own),
            Some(d) if d != own => description = Some(None),
            Some(_) => {}
        }
    }
    let mut out = Map::new();
    out.insert("type".to_owned(), json!("string"));
    out.insert("enum".to_owned(), Value::Array(values));
    if let Some(Some(d)) = description {
        out.insert("description".to_owned(), d.clone());
    }
    Some(Value::Object(out))
}

/// The tag key and the variants' descriptions by tag (`` `open`: Open a file. ``), which the
/// one object no longer pairs otherwise.
fn variants_told(members: &[Map<String, Value>]) -> Option<(String, String)> {
    let first = members.first()?.get("properties")?.as_object()?;
    let constant = |m: &Map<String, Value>, key: &str| {
        m.get("properties")?
            .get(key)?
            .get("const")?
            .as_str()
            .map(str::to_owned)
    };
    let key = first
        .keys()
        .find(|k| members.iter().all(|m| constant(m, k).is_some()))?;
    let mut told: Vec<String> = Vec::new();
    for member in members {
        if let (Some(tag), Some(Value::String(d))) =
            (constant(member, key), member.get("description"))
        {
            let line = format!("`{tag}`: {d}");
            if !told.contains(&line) {
                told.push(line);
            }
        }
    }
    (!told.is_empty()).then(|| (key.clone(), told.join(" ")))
}

/// The members' `additionalProperties` when all agree, else none (open).
fn common_extra(members: &[Map<String, Value>]) -> Option<Value> {
    let first = members.first()?.get("additionalProperties");
    // A member with `patternProperties` takes keys beyond its own: the object stays open.
    let patterns = members.iter().any(|m| m.contains_key("patternProperties"));
    let agree = members
        .iter()
        .all(|m| m.get("additionalProperties") == first);
    match first {
        Some(extra) if agree && !patterns => Some(extra.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_become_one_enum_and_the_fields_every_member_requires_stay_required() {
        let union = json!({"description": "d", "type": "object", "oneOf": [
            {"type": "object", "additionalProperties": false, "description": "Move.",
             "properties": {"op": {"const": "Move", "type": "string"}, "n": {"type": "integer"},
                            "to": {"type": "string"}},
             "required": ["op", "to"]},
            {"type": "object", "additionalProperties": false,
             "properties": {"op": {"const": "Stop", "type": "string"}, "n": {"type": "string"}},
             "required": ["op"]},
        ]});
        let merged = root_object(&union);
        assert_eq!(
            merged,
            json!({"description": "d", "type": "object", "additionalProperties": false,
                "properties": {
                    "op": {"type": "string", "enum": ["Move", "Stop"], "description": "`Move`: Move."},
                    "n": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "to": {"type": "string"},
                },
                "required": ["op"]})
        );
    }

    #[test]
    fn a_member_that_is_not_an_object_leaves_the_union() {
        let union = json!({"anyOf": [{"type": "object"}, {"type": "string"}]});
        assert_eq!(root_object(&union), union);
        let plain = json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "null"}]}}});
        assert_eq!(root_object(&plain), plain);
    }

    #[test]
    fn nested_unions_anchors_and_nots_are_kept_as_wide_or_wider() {
        let not = json!({"anyOf": [{"properties": {"a": false, "b": false}}]});
        let union = json!({"not": not.clone(), "anyOf": [
            {"anyOf": [
                {"properties": {"k": {"const": "x"}}, "not": {"required": ["z"]}},
                {"properties": {"k": {"const": "y"}}, "not": {"required": ["z"]}},
            ]},
            {"$anchor": "T", "properties": {"k": {"const": "t"}, "t": {"$ref": "#T"}},
             "additionalProperties": false},
        ]});
        let merged = root_object(&union);
        assert_eq!(merged["not"], not);
        assert_eq!(merged["properties"]["k"]["enum"], json!(["x", "y", "t"]));
        assert_eq!(merged["$defs"]["T"]["$anchor"], "T");
        assert!(merged.get("additionalProperties").is_none(), "{merged}");
        for key in UNIONS {
            assert!(merged.get(key).is_none(), "{merged}");
        }
    }
}
