//! Compiling, step one: every subschema read into a [`Node`], keywords checked, `$defs` and
//! `$anchor`s recorded, `$ref`s kept as written for `link`.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::node::{Additional, Id, Node, Pattern, Types};
use super::SchemaError;
use crate::bounds::Bounds;
use crate::json::depth::MAX_DEPTH;

/// The schema is read recursively, so its own nesting is bounded.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 4 * MAX_DEPTH;

/// The nodes, the root's index, each `$anchor`'s node.
pub(crate) fn read(schema: &Value) -> Result<Reader, SchemaError> {
    let mut reader = Reader {
        nodes: Vec::new(),
        anchors: HashMap::new(),
        root: 0,
    };
    reader.root = reader.read(schema, String::new(), 0)?;
    Ok(reader)
}

pub(crate) struct Reader {
    pub nodes: Vec<Node>,
    pub anchors: HashMap<String, Id>,
    pub root: Id,
}

/// A JSON pointer token (`~` as `~0`, `/` as `~1`).
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

pub(crate) fn malformed(pointer: &str, keyword: &str, wants: &str) -> SchemaError {
    SchemaError::new(
        join(pointer, keyword),
        format!("`{keyword}` must be {wants}"),
    )
}

pub(crate) fn join(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", token(key))
}

impl Reader {
    fn push(&mut self, node: Node) -> Id {
        let id = self.nodes.len();
        self.nodes.push(node);
        id
    }

    fn read(&mut self, schema: &Value, pointer: String, depth: usize) -> Result<Id, SchemaError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(SchemaError::new(
                pointer,
                format!("the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"),
            ));
        }
        let map = match schema {
            // `false` is the validator's to refuse; the walk leaves the value as it is.
            Value::Bool(_) => return Ok(self.push(Node::new(pointer))),
            Value::Object(map) => map,
            _ => {
                return Err(SchemaError::new(
                    pointer,
                    "a schema must be an object or a boolean".to_owned(),
                ))
            }
        };
        // A place for the node, filled once its subschemas (read first) have theirs.
        let id = self.push(Node::new(String::new()));
        let mut node = Node::new(pointer.clone());
        let at = pointer.as_str();
        let d = depth + 1;

        if let Some(anchor) = map.get("$anchor") {
            let Some(anchor) = anchor.as_str() else {
                return Err(malformed(at, "$anchor", "a string"));
            };
            self.anchors.insert(anchor.to_owned(), id);
        }
        for defs in ["$defs", "definitions"] {
            if let Some(value) = map.get(defs) {
                let Some(entries) = value.as_object() else {
                    return Err(malformed(at, defs, "an object"));
                };
                let here = join(at, defs);
                for (name, sub) in entries {
                    self.read(sub, join(&here, name), d)?;
                }
            }
        }
        if let Some(reference) = map.get("$ref") {
            let Some(reference) = reference.as_str() else {
                return Err(malformed(at, "$ref", "a string"));
            };
            node.reference = Some(reference.to_owned());
        }

        // The type: `type`, `nullable`, and what `enum`/`const` say.
        let mut types = None;
        if let Some(value) = map.get("type") {
            let names: Vec<&Value> = match value {
                Value::String(_) => vec![value],
                Value::Array(names) if !names.is_empty() => names.iter().collect(),
                _ => return Err(malformed(at, "type", "a type name or a list of them")),
            };
            let mut set = Types::NONE;
            for name in names {
                match name.as_str().and_then(Types::named) {
                    Some(t) => set = set.union(t),
                    None => {
                        return Err(SchemaError::new(
                            join(at, "type"),
                            format!("unknown type {name}"),
                        ))
                    }
                }
            }
            // `integer` is a kind of number; `number` takes integers.
            if set.has(Types::NUMBER) {
                set = set.union(Types::INTEGER);
            }
            types = Some(set);
        }
        match map.get("nullable") {
            None => {}
            Some(Value::Bool(b)) => node.nullable = *b,
            Some(_) => return Err(malformed(at, "nullable", "a boolean")),
        }
        match (map.get("enum"), map.get("const")) {
            (Some(Value::Array(values)), _) => node.values = Some(values.clone()),
            (Some(_), _) => return Err(malformed(at, "enum", "a list")),
            (None, Some(value)) => node.values = Some(vec![value.clone()]),
            (None, None) => {}
        }

        // Arrays.
        match map.get("prefixItems") {
            None => {}
            Some(Value::Array(items)) => {
                let here = join(at, "prefixItems");
                for (i, sub) in items.iter().enumerate() {
                    let id = self.read(sub, format!("{here}/{i}"), d)?;
                    node.prefix.push(id);
                }
            }
            Some(_) => return Err(malformed(at, "prefixItems", "a list of schemas")),
        }
        match map.get("items") {
            None => {}
            // draft-07: `items` as a list is a tuple, `additionalItems` the rest.
            Some(Value::Array(items)) => {
                let here = join(at, "items");
                for (i, sub) in items.iter().enumerate() {
                    let id = self.read(sub, format!("{here}/{i}"), d)?;
                    node.prefix.push(id);
                }
                if let Some(rest) = map.get("additionalItems") {
                    node.items = Some(self.read(rest, join(at, "additionalItems"), d)?);
                }
            }
            Some(sub @ (Value::Object(_) | Value::Bool(_))) => {
                node.items = Some(self.read(sub, join(at, "items"), d)?);
            }
            Some(_) => return Err(malformed(at, "items", "a schema")),
        }
        node.bounds = Bounds::new(
            count_usize(map, at, "minItems")?,
            count_usize(map, at, "maxItems")?,
        );

        // Objects.
        match map.get("properties") {
            None => {}
            Some(Value::Object(properties)) => {
                let here = join(at, "properties");
                for (key, sub) in properties {
                    let id = self.read(sub, join(&here, key), d)?;
                    node.properties.push((key.clone(), id));
                }
            }
            Some(_) => return Err(malformed(at, "properties", "an object of schemas")),
        }
        match map.get("patternProperties") {
            None => {}
            Some(Value::Object(patterns)) => {
                let here = join(at, "patternProperties");
                for (source, sub) in patterns {
                    let schema = self.read(sub, join(&here, source), d)?;
                    node.patterns.push(Pattern {
                        source: source.clone(),
                        matcher: None,
                        schema,
                    });
                }
            }
            Some(_) => return Err(malformed(at, "patternProperties", "an object of schemas")),
        }
        match map.get("required") {
            None => {}
            Some(Value::Array(names)) => {
                for name in names {
                    let Some(name) = name.as_str() else {
                        return Err(malformed(at, "required", "a list of strings"));
                    };
                    node.required.push(name.to_owned());
                }
            }
            Some(_) => return Err(malformed(at, "required", "a list of strings")),
        }
        match map.get("additionalProperties") {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => node.additional = Additional::Deny,
            Some(sub @ Value::Object(_)) => {
                node.additional =
                    Additional::Schema(self.read(sub, join(at, "additionalProperties"), d)?);
            }
            Some(_) => return Err(malformed(at, "additionalProperties", "a schema")),
        }

        // `"not": {"anyOf": [{"properties": {name: false, …}}]}`: one of each group's names
        // must be sent (the derive's aliases). Any other `not` is left to validation.
        if let Some(groups) = map.get("not").and_then(|not| absent_groups(not, map)) {
            node.one_of_names
                .extend(groups.into_iter().map(|names| (names, false)));
        }

        // Combinations.
        for keyword in ["anyOf", "oneOf"] {
            let Some(value) = map.get(keyword) else {
                continue;
            };
            let Some(members) = value.as_array().filter(|m| !m.is_empty()) else {
                return Err(malformed(at, keyword, "a non-empty list of schemas"));
            };
            if let Some(names) = required_names(members) {
                node.one_of_names.push((names, keyword == "oneOf"));
                continue;
            }
            if !node.members.is_empty() {
                return Err(SchemaError::new(
                    at.to_owned(),
                    "`anyOf` and `oneOf` together are not supported".to_owned(),
                ));
            }
            let here = join(at, keyword);
            let mut read = Vec::new();
            for (i, sub) in members.iter().enumerate() {
                let sub_id = self.read(sub, format!("{here}/{i}"), d)?;
                // `{"type": "null"}` beside other members: the position is nullable.
                if is_null_schema(sub) && members.len() > 1 {
                    node.nullable = true;
                } else {
                    read.push((sub_id, sub));
                }
            }
            // `OneOrMany<T>`: `T`, then an array of `T`.
            if let [(_, one), (_, many)] = read.as_slice() {
                node.one_or_many = many.get("type") == Some(&Value::from("array"))
                    && many.get("items") == Some(one)
                    && many.get("prefixItems").is_none();
            }
            node.members = read.into_iter().map(|(id, _)| id).collect();
        }
        if let Some(value) = map.get("allOf") {
            let Some(members) = value.as_array().filter(|m| !m.is_empty()) else {
                return Err(malformed(at, "allOf", "a non-empty list of schemas"));
            };
            let here = join(at, "allOf");
            for (i, sub) in members.iter().enumerate() {
                let sub_id = self.read(sub, format!("{here}/{i}"), d)?;
                node.all_of.push(sub_id);
            }
        }

        // Without `type`: the kinds `enum`/`const` list, or the kind the keywords describe.
        let implied = match (&node.values, types) {
            (_, Some(set)) => Some(set),
            (Some(values), None) => Some(
                values
                    .iter()
                    .fold(Types::NONE, |set, v| set.union(Types::of(v))),
            ),
            (None, None) => {
                let mut set = Types::NONE;
                if !node.properties.is_empty()
                    || !node.patterns.is_empty()
                    || !node.required.is_empty()
                    || !node.one_of_names.is_empty()
                    || node.additional != Additional::Any
                {
                    set = set.union(Types::OBJECT);
                }
                if node.items.is_some() || !node.prefix.is_empty() {
                    set = set.union(Types::ARRAY);
                }
                (!set.is_empty()).then_some(set)
            }
        };
        if let Some(set) = implied {
            node.typed = true;
            node.nullable |= set.has(Types::NULL);
            node.types = set;
        }
        if node.typed && node.nullable {
            node.types = node.types.union(Types::NULL);
        }
        // After the type, which decides which bounds name a Rust type rather than constrain one.
        super::constraints::read(map, at, &mut node)?;
        self.nodes[id] = node;
        Ok(id)
    }
}

/// An `anyOf`/`oneOf` whose members each only require one name: one of them must be sent, as
/// a field read under an alias too.
fn required_names(members: &[Value]) -> Option<Vec<String>> {
    members
        .iter()
        .map(
            |m| match m.as_object()?.get("required")?.as_array()?.as_slice() {
                [Value::String(name)] if m.as_object()?.len() == 1 => Some(name.clone()),
                _ => None,
            },
        )
        .collect()
}

/// The name groups of `{"anyOf": [{"properties": {name: false, …}}, …]}` (under a `not`, one of
/// each must be sent), each led by its non-`deprecated` name, which a missing field is named by.
fn absent_groups(not: &Value, object: &Map<String, Value>) -> Option<Vec<Vec<String>>> {
    let deprecated = |name: &String| {
        object
            .get("properties")
            .and_then(|p| p.get(name.as_str()))
            .and_then(|p| p.get("deprecated"))
            == Some(&Value::Bool(true))
    };
    let [(key, Value::Array(members))] = not.as_object()?.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    if key != "anyOf" || members.is_empty() {
        return None;
    }
    members
        .iter()
        .map(|m| {
            let [(key, Value::Object(names))] = m.as_object()?.iter().collect::<Vec<_>>()[..]
            else {
                return None;
            };
            let all_false = names.values().all(|v| *v == Value::Bool(false));
            let mut names: Vec<String> = names.keys().cloned().collect();
            names.sort_by_key(deprecated);
            (key == "properties" && !names.is_empty() && all_false).then_some(names)
        })
        .collect()
}

fn is_null_schema(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    map.get("type") == Some(&Value::from("null"))
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "type" | "description" | "title"))
}

/// A non-negative integer (`minItems`, `maxLength`); `2.0` is one in JSON Schema.
fn count(map: &Map<String, Value>, at: &str, keyword: &str) -> Result<Option<u64>, SchemaError> {
    match map.get(keyword) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) => Ok(Some(n)),
            None => match v.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e19 => Ok(Some(f as u64)),
                _ => Err(malformed(at, keyword, "a non-negative integer")),
            },
        },
    }
}

fn count_usize(
    map: &Map<String, Value>,
    at: &str,
    keyword: &str,
) -> Result<Option<usize>, SchemaError> {
    Ok(count(map, at, keyword)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}
