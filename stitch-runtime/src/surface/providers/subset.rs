//! The subsets without references (Gemini's `parameters`, Anthropic's strict tool use): a
//! recursive type unrolled, a part the subset cannot write left out where the type allows.

use serde_json::{json, Map, Value};

use self::nodes::{anthropic_node, gemini_any, gemini_node};
use super::UNROLL_DEPTH;
use crate::surface::unstated::note;
use crate::ToolArgs;

mod nodes;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Provider {
    Gemini,
    AnthropicStrict,
}

/// Why a part cannot be written in a subset.
pub(super) struct Never(pub(super) String);

/// A derived type that cannot be written was refused at compile time (`check::subset`); only
/// `#[stitch(schema = "…")]` text gets here unwritable, and is offered as an empty object
/// saying why, never a panic.
pub(super) fn subset<T: ToolArgs>(provider: Provider) -> Value {
    let plain = crate::surface::definition::without_aliases(T::input_schema());
    match subset_of(&plain, provider) {
        Ok(schema) => schema,
        Err(Never(why)) => {
            let mut out = Map::new();
            out.insert("type".to_owned(), json!("object"));
            out.insert("properties".to_owned(), json!({}));
            note(&mut out, &format!("Cannot be described here: {why}."));
            match provider {
                Provider::Gemini => {
                    out.insert("maxProperties".to_owned(), json!(0));
                }
                Provider::AnthropicStrict => {
                    out.insert("additionalProperties".to_owned(), json!(false));
                }
            }
            Value::Object(out)
        }
    }
}

pub(super) fn subset_of(root: &Value, provider: Provider) -> Result<Value, Never> {
    let mut rewrite = Rewrite {
        root,
        provider,
        open: vec![root],
    };
    rewrite.schema(root, "")
}

struct Rewrite<'a> {
    root: &'a Value,
    provider: Provider,
    /// The recursive types open on the current path, by address in `root`.
    open: Vec<&'a Value>,
}

impl<'a> Rewrite<'a> {
    fn format_name(&self) -> &'static str {
        match self.provider {
            Provider::Gemini => "Gemini's `parameters`",
            Provider::AnthropicStrict => "Anthropic's strict mode",
        }
    }

    /// `path` is the dotted property path, for messages.
    fn schema(&mut self, node: &'a Value, path: &str) -> Result<Value, Never> {
        let object = match node {
            Value::Object(object) => object,
            Value::Bool(true) => return Ok(self.any()),
            _ => return Err(Never(format!("nothing is accepted at {}", at(path)))),
        };
        if let Some(Value::String(target)) = object.get("$ref") {
            return self.reference(object, target, path);
        }
        // An anchored schema met inline opens its type, unless just reached by reference.
        let opens = object.contains_key("$anchor")
            && !self.open.last().is_some_and(|o| std::ptr::eq(*o, node));
        if opens {
            self.open.push(node);
        }
        let out = self.object(object, path);
        if opens {
            self.open.pop();
        }
        out
    }

    /// Expanded in place until the type is open `UNROLL_DEPTH + 1` times on this path.
    fn reference(
        &mut self,
        object: &'a Map<String, Value>,
        target: &str,
        path: &str,
    ) -> Result<Value, Never> {
        let Some(resolved) = resolve(self.root, target) else {
            return Err(Never(format!(
                "{} refers to `{target}`, which the schema does not hold",
                at(path)
            )));
        };
        let open = self.open.iter().filter(|o| same_type(o, resolved)).count();
        if open > UNROLL_DEPTH {
            return Err(Never(format!(
                "{} refers to its own type more than {UNROLL_DEPTH} levels deep, and {} has no references",
                at(path),
                self.format_name()
            )));
        }
        self.open.push(resolved);
        let expanded = self.schema(resolved, path);
        self.open.pop();
        let mut expanded = expanded?;
        // The reference's own description (a field's doc comment) is the one to show.
        if let (Some(d), Value::Object(e)) = (object.get("description"), &mut expanded) {
            e.insert("description".to_owned(), d.clone());
        }
        Ok(expanded)
    }

    fn object(&mut self, object: &'a Map<String, Value>, path: &str) -> Result<Value, Never> {
        let mut out = Map::new();
        let required: Vec<&str> = match object.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        for (key, value) in object {
            match key.as_str() {
                "properties" => {
                    let Value::Object(properties) = value else {
                        continue;
                    };
                    let mut kept = Map::new();
                    for (name, property) in properties {
                        match self.schema(property, &join(path, name)) {
                            Ok(p) => {
                                kept.insert(name.clone(), p);
                            }
                            // An optional property the format cannot hold is left out.
                            Err(never) if !required.contains(&name.as_str()) => drop(never),
                            Err(never) => return Err(never),
                        }
                    }
                    out.insert(key.clone(), Value::Object(kept));
                }
                "items" if value.is_object() => match self.schema(value, path) {
                    Ok(items) => {
                        out.insert(key.clone(), items);
                    }
                    // Items that cannot be written: Gemini can still offer the empty list.
                    Err(never) => {
                        let min = object.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                        if self.provider != Provider::Gemini || min > 0 {
                            return Err(never);
                        }
                        out.insert(key.clone(), json!({"type": "object"}));
                        out.insert("maxItems".to_owned(), json!(0));
                        note(&mut out, "Too deep to describe here: send an empty list.");
                    }
                },
                "prefixItems" => {
                    let Value::Array(members) = value else {
                        continue;
                    };
                    let members = members
                        .iter()
                        .map(|m| self.schema(m, path))
                        .collect::<Result<Vec<_>, _>>()?;
                    out.insert(key.clone(), Value::Array(members));
                }
                "anyOf" | "oneOf" => {
                    let Value::Array(members) = value else {
                        continue;
                    };
                    let mut kept = Vec::new();
                    let mut first_never = None;
                    for member in members {
                        match self.schema(member, path) {
                            Ok(m) => kept.push(m),
                            Err(never) => {
                                first_never.get_or_insert(never);
                            }
                        }
                    }
                    if kept.is_empty() {
                        if let Some(never) = first_never {
                            return Err(never);
                        }
                    }
                    out.insert("anyOf".to_owned(), Value::Array(kept));
                }
                // Any value (`serde_json::Map`): nothing to rewrite.
                "additionalProperties" if value == &json!({}) => {
                    out.insert(key.clone(), json!({}));
                }
                "additionalProperties" if value.is_object() => {
                    let values = match self.schema(value, path) {
                        Ok(v) => v,
                        // A map whose values cannot be written can only be empty.
                        Err(never) => {
                            drop(never);
                            json!({"not": {}})
                        }
                    };
                    out.insert(key.clone(), values);
                }
                // References are expanded where they are used.
                "$anchor" | "$defs" | "definitions" | "$schema" | "$id" => {}
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        match self.provider {
            Provider::Gemini => gemini_node(out, path),
            Provider::AnthropicStrict => anthropic_node(out, path),
        }
    }

    fn any(&self) -> Value {
        match self.provider {
            Provider::Gemini => gemini_any(),
            Provider::AnthropicStrict => json!({}),
        }
    }
}

/// The same node, or the same anchor (a recursive type written inline twice).
fn same_type(a: &Value, b: &Value) -> bool {
    let anchor = |v: &Value| v.get("$anchor").and_then(Value::as_str).map(str::to_owned);
    std::ptr::eq(a, b) || anchor(a).is_some_and(|x| Some(x) == anchor(b))
}

/// The node `target` points to: `#` (the root), `#Name` (an `$anchor`), `#/$defs/Name`.
fn resolve<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    if target == "#" {
        return Some(root);
    }
    for defs in ["#/$defs/", "#/definitions/"] {
        if let Some(name) = target.strip_prefix(defs) {
            return root.get(&defs[2..defs.len() - 1])?.get(name);
        }
    }
    find_anchor(root, target.strip_prefix('#')?)
}

fn find_anchor<'a>(node: &'a Value, anchor: &str) -> Option<&'a Value> {
    match node {
        Value::Object(object) => {
            if object.get("$anchor").and_then(Value::as_str) == Some(anchor) {
                return Some(node);
            }
            object.values().find_map(|v| find_anchor(v, anchor))
        }
        Value::Array(items) => items.iter().find_map(|v| find_anchor(v, anchor)),
        _ => None,
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn at(path: &str) -> String {
    if path.is_empty() {
        "the arguments".to_owned()
    } else {
        format!("`{path}`")
    }
}
