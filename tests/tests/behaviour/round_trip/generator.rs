//! The generator: instances of a schema, at and across its bounds, for the round trip to read.

use super::*;

// ---- The generator -----------------------------------------------------------------------

/// A tiny deterministic generator (xorshift).
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// How optional properties and nullable members are chosen.
#[derive(Clone, Copy, Debug)]
pub(super) enum Mode {
    /// Every optional property absent, every nullable `null`.
    Least,
    /// Every optional property present, every nullable `null`.
    Nulls,
    /// Every optional property present, every nullable a value.
    Values,
    /// At random.
    Random,
}

pub(super) struct Gen<'a> {
    pub(super) root: &'a Value,
    pub(super) rng: Rng,
    pub(super) mode: Mode,
}

/// Strings that are plain values everywhere: none is a list written as text (R3).
pub(super) const STRINGS: &[&str] = &["a.png", "", "file", "x y", "5", "null", "{\"a\":1}", "é"];

pub(super) const MAX_DEPTH: usize = 5;

impl Gen<'_> {
    pub(super) fn coin(&mut self) -> bool {
        self.rng.below(2) == 0
    }

    /// Whether to send an optional property.
    pub(super) fn present(&mut self, depth: usize) -> bool {
        match self.mode {
            _ if depth >= MAX_DEPTH => false,
            Mode::Least => false,
            Mode::Nulls | Mode::Values => true,
            Mode::Random => self.coin(),
        }
    }

    /// The schema a `$ref` names, in `root`: `#`, `#Anchor` or `#/$defs/Name`.
    pub(super) fn resolve(&self, reference: &str) -> Value {
        resolve(self.root, reference).unwrap_or_else(|| panic!("unresolved $ref {reference}"))
    }

    pub(super) fn value(&mut self, schema: &Value, depth: usize) -> Value {
        let object = schema.as_object().expect("every subschema is an object");
        for key in object.keys() {
            assert!(KNOWN.contains(&key.as_str()), "keyword `{key}` in {schema}");
        }
        if let Some(Value::String(reference)) = object.get("$ref") {
            // The keywords beside the reference apply too.
            let mut target = self.resolve(reference);
            for (k, v) in object {
                if k != "$ref" && k != "description" {
                    target[k] = v.clone();
                }
            }
            return self.value(&target, depth + 1);
        }
        if let Some(constant) = object.get("const") {
            return constant.clone();
        }
        if let Some(Value::Array(names)) = object.get("enum") {
            return names[self.rng.below(names.len())].clone();
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(members)) = object.get(key) {
                return self.member(members, depth);
            }
        }
        match object.get("type").and_then(Value::as_str) {
            Some("object") => self.object(object, depth),
            Some("array") => self.array(object, depth),
            Some("string") => match object.get("maxLength") {
                Some(_) => json!(["x", "é", "\""][self.rng.below(3)]),
                None => json!(STRINGS[self.rng.below(STRINGS.len())]),
            },
            Some("integer") => {
                let bound = |key: &str, or: i128| {
                    object.get(key).map_or(or, |n| {
                        n.as_i64()
                            .map(i128::from)
                            .or(n.as_u64().map(i128::from))
                            .unwrap()
                    })
                };
                // A format without `minimum`/`maximum` (Anthropic's strict mode) states the
                // range in the description: "From 0 to 255."
                let (low, high) =
                    stated_range(object).unwrap_or((i64::MIN.into(), u64::MAX.into()));
                let min = bound("minimum", low).max(i64::MIN.into());
                let max = bound("maximum", high).min(u64::MAX.into());
                let n = match self.rng.below(4) {
                    0 => min,
                    1 => max,
                    2 => 0i128.clamp(min, max),
                    _ => (7i128).clamp(min, max),
                };
                match i64::try_from(n) {
                    Ok(n) => json!(n),
                    Err(_) => json!(u64::try_from(n).unwrap()),
                }
            }
            Some("number") => json!([1.5, -2.0, 0.0][self.rng.below(3)]),
            Some("boolean") => json!(self.coin()),
            Some("null") => Value::Null,
            Some(other) => panic!("type {other}"),
            // `{}`: anything.
            None => {
                [json!(1), json!("text"), json!(null), json!({"k": [1]})][self.rng.below(4)].clone()
            }
        }
    }

    /// A member of a union: in `Nulls` mode the `null` one, in `Values` mode another one; past
    /// the depth, one that does not go deeper if there is one.
    pub(super) fn member(&mut self, members: &[Value], depth: usize) -> Value {
        let is_null = |m: &Value| m == &json!({"type": "null"});
        let shallow = |m: &Value| {
            is_null(m)
                || !(m.get("$ref").is_some()
                    || m.get("type") == Some(&json!("object"))
                    || m.get("type") == Some(&json!("array")) && m.get("minItems").is_some())
        };
        let pick: Vec<&Value> = if depth >= MAX_DEPTH && members.iter().any(shallow) {
            members.iter().filter(|m| shallow(m)).collect()
        } else {
            match self.mode {
                Mode::Least | Mode::Nulls if members.iter().any(is_null) => {
                    members.iter().filter(|m| is_null(m)).collect()
                }
                Mode::Values if members.iter().any(|m| !is_null(m)) => {
                    members.iter().filter(|m| !is_null(m)).collect()
                }
                _ => members.iter().collect(),
            }
        };
        let member = pick[self.rng.below(pick.len())].clone();
        self.value(&member, depth + 1)
    }

    pub(super) fn object(&mut self, object: &Map<String, Value>, depth: usize) -> Value {
        let mut required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        // A required field read under an alias too (`allOf` of `oneOf` of `required`): sent
        // under one of its names, at random.
        let mut grouped: Vec<&str> = Vec::new();
        for group in object
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let names: Vec<&str> = group["oneOf"]
                .as_array()
                .expect("an alias group")
                .iter()
                .map(|n| n["required"][0].as_str().expect("one name"))
                .collect();
            required.push(names[self.rng.below(names.len())]);
            grouped.extend(names);
        }
        let mut out = Map::new();
        if let Some(Value::Object(properties)) = object.get("properties") {
            for (name, property) in properties {
                // An alias (`deprecated`) is sent only where a group picked it: serde refuses a
                // field sent under two names (docs/rules.md#schema-differences).
                let alias = property.get("deprecated") == Some(&json!(true));
                let optional = !alias && !grouped.contains(&name.as_str());
                if required.contains(&name.as_str()) || (optional && self.present(depth)) {
                    out.insert(name.clone(), self.value(property, depth + 1));
                }
            }
        }
        if let Some(values @ Value::Object(_)) = object.get("additionalProperties") {
            for i in 0..self.rng.below(3) {
                let key = format!("extra_{i}");
                out.insert(key, self.value(values, depth + 1));
            }
        }
        Value::Object(out)
    }

    pub(super) fn array(&mut self, object: &Map<String, Value>, depth: usize) -> Value {
        if let Some(Value::Array(prefix)) = object.get("prefixItems") {
            return prefix.iter().map(|p| self.value(p, depth + 1)).collect();
        }
        let min = object.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = object
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(3, |m| m as usize)
            .min(min.max(3));
        let n = match self.mode {
            _ if depth >= MAX_DEPTH => min,
            Mode::Least => min,
            _ => min + self.rng.below(max - min + 1),
        };
        let items = object.get("items").cloned().unwrap_or(json!({}));
        let unique = object.get("uniqueItems") == Some(&json!(true));
        let mut out: Vec<Value> = Vec::new();
        let mut tries = 0;
        while out.len() < n && tries < 50 {
            tries += 1;
            let item = self.value(&items, depth + 1);
            if !(unique && out.contains(&item)) {
                out.push(item);
            }
        }
        Value::Array(out)
    }
}

/// The range a description states (`From 0 to 255.`), for a format that keeps it as text.
pub(super) fn stated_range(object: &Map<String, Value>) -> Option<(i128, i128)> {
    let text = object.get("description")?.as_str()?;
    let rest = &text[text.find("From ")? + 5..];
    let (low, rest) = rest.split_once(" to ")?;
    let high = rest.split(['.', ' ']).next()?;
    Some((low.parse().ok()?, high.parse().ok()?))
}

/// Every keyword stitch writes; the generator is told about each (an unknown one fails the
/// test, so a new keyword cannot slip past it).
pub(super) const KNOWN: &[&str] = &[
    "type",
    "deprecated",
    "allOf",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "anyOf",
    "oneOf",
    "enum",
    "const",
    "$ref",
    "$anchor",
    "$defs",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "description",
    "default",
];

/// The subschema `reference` names in `root`.
pub(super) fn resolve(root: &Value, reference: &str) -> Option<Value> {
    if reference == "#" {
        return Some(root.clone());
    }
    if let Some(pointer) = reference.strip_prefix('#').filter(|p| p.starts_with('/')) {
        return root.pointer(pointer).cloned();
    }
    let anchor = reference.strip_prefix('#')?;
    let mut found = Vec::new();
    anchors(root, &mut found);
    found
        .into_iter()
        .find(|(name, _)| name == anchor)
        .map(|(_, schema)| schema)
}

/// Every `$anchor` in `schema`, with its subschema.
pub(super) fn anchors(schema: &Value, out: &mut Vec<(String, Value)>) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(name)) = object.get("$anchor") {
                out.push((name.clone(), schema.clone()));
            }
            object.values().for_each(|v| anchors(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| anchors(v, out)),
        _ => {}
    }
}

/// Every `$ref` in `schema`.
pub(super) fn references(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get("$ref") {
                out.push(reference.clone());
            }
            object.values().for_each(|v| references(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, out)),
        _ => {}
    }
}
