//! The last stage of compiling a schema: after `read` and `link`, decide each node's [`Form`]
//! and build the `jsonschema` validators the walk asks.

use serde_json::Value;

use super::constraints;
use super::link::{merge_all_of, resolve_refs};
use super::node::{resolve, Additional, Form, Id, ListCheck, Node, PropertyIndex, Types};
use super::read::{read, Reader, MAX_SCHEMA_DEPTH};
use super::SchemaError;
use crate::json::depth::MAX_DEPTH;
use crate::schema::write::{LENIENT_SIGNED, LENIENT_UNSIGNED};

const BASE: &str = "urn:stitch:schema";

/// Above this many properties a node finds a key's ordinal through a hash index.
const INDEXED: usize = 8;

/// Each step is linear in the size of the schema.
pub(crate) fn compile(schema: &Value) -> Result<(Vec<Node>, Id), SchemaError> {
    let Reader {
        mut nodes,
        anchors,
        root,
    } = read(schema)?;
    resolve_refs(&mut nodes, &anchors)?;
    merge_all_of(&mut nodes)?;
    index_properties(&mut nodes);
    decide_forms(&mut nodes)?;
    build_validators(&mut nodes, schema)?;
    Ok((nodes, root))
}

fn index_properties(nodes: &mut [Node]) {
    for node in nodes.iter_mut() {
        if node.properties.len() > INDEXED {
            node.index = Some(PropertyIndex::new(&node.properties));
        }
        let mut at = vec![false; node.properties.len()];
        let mut mask = 0u128;
        let mut slow = false;
        for name in &node.required {
            match node.ordinal(name) {
                Some(i) => {
                    at[i] = true;
                    if i < 128 {
                        mask |= 1 << i;
                    } else {
                        slow = true;
                    }
                }
                None => slow = true,
            }
        }
        node.required_at = at;
        node.required_mask = mask;
        node.required_slow = slow;
    }
}

/// Refuses a schema whose unions would make the walk endless or exponential (`cost`).
fn decide_forms(nodes: &mut [Node]) -> Result<(), SchemaError> {
    for id in 0..nodes.len() {
        let form = form_of(nodes, id);
        nodes[id].form = form;
    }
    super::cost::check(nodes)?;
    for id in 0..nodes.len() {
        nodes[id].limited = limited(nodes, id, 0);
    }
    for id in 0..nodes.len() {
        let strings = takes_strings(nodes, id, 0);
        let items = nodes[id].items.map(|i| &nodes[resolve(nodes, i)]);
        let plain = |n: &Node| {
            matches!(n.form, Form::Typed) && n.types == Types::STRING && n.takes_any_text()
        };
        let list = match items {
            Some(item) if plain(item) => ListCheck::Strings,
            Some(item) if matches!(item.form, Form::Any) => ListCheck::Anything,
            None if nodes[id].prefix.is_empty() => ListCheck::Anything,
            _ => ListCheck::Validate,
        };
        // An item that judges its string (a constraint, `enum`/`const`, a `char`'s length) is
        // not one of these, so a value it refuses is reported with the other issues.
        let string_items = items.is_some_and(|item| {
            matches!(item.form, Form::Typed)
                && item.types.without(Types::NULL) == Types::STRING
                && !constraints::has_own(item)
                && item.takes_any_text()
        });
        let node = &mut nodes[id];
        node.strings = strings;
        node.list = list;
        node.string_items = string_items;
    }
    Ok(())
}

/// Whether `text` is the string stitch's schemas write for a `lenient_scalars` `scalar`.
fn lenient_text(scalar: &Node, text: &Node) -> bool {
    if !(scalar.typed && text.typed && text.types == Types::STRING && text.members.is_empty()) {
        return false;
    }
    let kind = scalar.types.without(Types::NULL);
    let pattern = text.text_pattern.as_ref().map(|p| p.source.as_str());
    if kind == Types::BOOLEAN {
        return pattern.is_none()
            && text.values.as_deref() == Some(&[Value::from("true"), Value::from("false")][..]);
    }
    let wants: &[&str] = if kind == Types::INTEGER {
        &[LENIENT_UNSIGNED, LENIENT_SIGNED]
    } else if kind.without(Types::INTEGER) == Types::NUMBER {
        &[LENIENT_NUMBER_TEXT]
    } else {
        return false;
    };
    text.values.is_none() && pattern.is_some_and(|p| wants.contains(&p))
}

/// The JSON number's grammar as `write::scalars` writes it for a lenient number, unescaped.
const LENIENT_NUMBER_TEXT: &str = r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$";

/// Whether `n`'s property `key` takes any string and nothing else.
fn open_string(nodes: &[Node], n: &Node, key: &str) -> bool {
    n.ordinal(key).is_some_and(|o| {
        let p = &nodes[resolve(nodes, n.properties[o].1)];
        p.typed && p.types == Types::STRING && p.values.is_none() && p.members.is_empty()
    })
}

fn form_of(nodes: &[Node], id: Id) -> Form {
    let node = &nodes[id];
    if node.members.is_empty() {
        return if node.typed { Form::Typed } else { Form::Any };
    }
    if node.one_or_many {
        return Form::OneOrMany {
            one: node.members[0],
            many: node.members[1],
        };
    }
    let members: Vec<&Node> = node
        .members
        .iter()
        .map(|&m| &nodes[resolve(nodes, m)])
        .collect();
    if let [scalar, text] = members.as_slice() {
        if lenient_text(scalar, text) {
            return Form::Lenient {
                scalar: node.members[0],
            };
        }
    }
    let objects = |n: &&Node| n.typed && n.types.without(Types::NULL) == Types::OBJECT;
    // Tagged: objects that all name a constant string at one required key.
    if members.iter().all(objects) {
        if let Some(first) = members.first() {
            for (key, _) in &first.properties {
                // One member may take any other string as its tag (`#[serde(other)]`).
                let mut other = None;
                let tags: Option<Vec<(String, Id)>> = node
                    .members
                    .iter()
                    .zip(&members)
                    .filter_map(|(&m, n)| {
                        let required = n.ordinal(key).is_some_and(|o| n.is_required(o));
                        match n.constant(nodes, key) {
                            Some(tag) if required => Some(Some((tag, resolve(nodes, m)))),
                            None if required && other.is_none() && open_string(nodes, n, key) => {
                                other = Some(resolve(nodes, m));
                                None
                            }
                            _ => Some(None),
                        }
                    })
                    .collect();
                // A key two members share a constant of is no tag (two flattened enums make
                // a member per pair of variants): the next key may be one.
                let distinct = |tags: &Vec<(String, Id)>| {
                    tags.iter()
                        .enumerate()
                        .all(|(i, (tag, _))| tags[..i].iter().all(|(other, _)| other != tag))
                };
                if let Some(tags) = tags.filter(|t| !t.is_empty() && distinct(t)) {
                    let others: Vec<&str> = members
                        .iter()
                        .flat_map(|n| n.properties.iter().map(|(k, _)| k.as_str()))
                        .filter(|k| k != key)
                        .collect();
                    let adjacent = members.iter().all(|n| n.properties.len() <= 2)
                        && others.windows(2).all(|w| w[0] == w[1]);
                    return Form::Tagged {
                        key: key.clone(),
                        tags,
                        content: others.first().filter(|_| adjacent).map(|k| (*k).to_owned()),
                        other,
                    };
                }
            }
        }
    }
    // Keyed: one-key objects, and strings naming unit variants.
    let mut units = Vec::new();
    let mut keys = Vec::new();
    let mut names = Vec::new();
    let keyed = members.iter().all(|n| {
        if objects(n)
            && n.properties.len() == 1
            && n.required.len() == 1
            && n.required[0] == n.properties[0].0
            && n.additional == Additional::Deny
        {
            keys.push(n.properties[0].clone());
            names.push(n.properties[0].0.clone());
            return true;
        }
        match &n.values {
            Some(values) if n.types == Types::STRING => {
                for name in values.iter().filter_map(Value::as_str) {
                    units.push(name.to_owned());
                    names.push(name.to_owned());
                }
                true
            }
            _ => false,
        }
    });
    if keyed && !keys.is_empty() {
        return Form::Keyed { units, keys, names };
    }
    Form::Untagged
}

/// R2: a string-bearing position.
pub(crate) fn takes_strings(nodes: &[Node], id: Id, depth: usize) -> bool {
    let node = &nodes[resolve(nodes, id)];
    if depth > MAX_DEPTH {
        return false;
    }
    match &node.form {
        Form::Any => true,
        Form::Typed => node.types.has(Types::STRING),
        Form::Keyed { units, .. } => !units.is_empty(),
        Form::Tagged { .. } => false,
        Form::OneOrMany { one, .. } => takes_strings(nodes, *one, depth + 1),
        // Its text is read as the scalar, as the derive's.
        Form::Lenient { .. } => false,
        Form::Untagged => node
            .members
            .iter()
            .any(|&m| takes_strings(nodes, m, depth + 1)),
    }
}

/// A leaf's own constraints, a `OneOrMany`'s one value's, an untagged member's.
fn limited(nodes: &[Node], id: Id, depth: usize) -> bool {
    let node = &nodes[resolve(nodes, id)];
    if depth > MAX_DEPTH {
        return false;
    }
    match &node.form {
        Form::Any | Form::Typed => constraints::has_own(node),
        Form::OneOrMany { one, .. } | Form::Lenient { scalar: one } => {
            limited(nodes, *one, depth + 1)
        }
        Form::Untagged => node.members.iter().any(|&m| limited(nodes, m, depth + 1)),
        Form::Tagged { .. } | Form::Keyed { .. } => false,
    }
}

/// A list, not a tuple.
pub(crate) fn is_array_member(nodes: &[Node], id: Id) -> bool {
    let node = &nodes[resolve(nodes, id)];
    node.form == Form::Typed && node.types.has(Types::ARRAY) && !node.is_tuple()
}

/// Validators for untagged members (serde's pick), `OneOrMany` arrays (R3) and positions
/// taking both strings and arrays, built without value constraints since serde's pick and R3
/// judge types and shapes; untagged members also get one with them, so a member the value
/// satisfies in full is picked first.
fn build_validators(nodes: &mut [Node], schema: &Value) -> Result<(), SchemaError> {
    build_matchers(nodes)?;
    let mut wanted = vec![false; nodes.len()];
    let mut members = vec![false; nodes.len()];
    for id in 0..nodes.len() {
        match nodes[id].form {
            Form::Untagged => {
                for &m in &nodes[id].members {
                    wanted[resolve(nodes, m)] = true;
                    members[resolve(nodes, m)] = true;
                }
            }
            Form::OneOrMany { many, .. } => wanted[resolve(nodes, many)] = true,
            Form::Typed
                if nodes[id].types.has(Types::STRING) && nodes[id].types.has(Types::ARRAY) =>
            {
                wanted[id] = true;
            }
            _ => {}
        }
    }
    if !wanted.contains(&true) {
        return Ok(());
    }
    let mut document = schema.clone();
    // Without `$schema`, a schema written in draft-07's words is read as draft-07.
    if let Value::Object(map) = &mut document {
        let draft7 = map.contains_key("definitions") || uses_item_lists(schema, 0);
        if !map.contains_key("$schema") && draft7 {
            map.insert(
                "$schema".to_owned(),
                Value::from("http://json-schema.org/draft-07/schema#"),
            );
        }
    }
    let full = members.contains(&true).then(|| document.clone());
    let full = match constraints::strip(&mut document, nodes) {
        true => full,
        false => None,
    };
    let stripped = registry(document)?;
    let options = jsonschema::options().with_registry(&stripped);
    for id in 0..nodes.len() {
        if wanted[id] {
            nodes[id].validator = Some(Box::new(validator_at(&options, &nodes[id])?));
        }
    }
    if let Some(full) = full {
        let whole = registry(full)?;
        let options = jsonschema::options().with_registry(&whole);
        for id in 0..nodes.len() {
            if members[id] {
                let validator = validator_at(&options, &nodes[id])?;
                nodes[id].full_validator = Some(Box::new(validator));
            }
        }
    }
    Ok(())
}

fn registry(document: Value) -> Result<jsonschema::Registry<'static>, SchemaError> {
    jsonschema::Registry::new()
        .add(BASE, document)
        .and_then(|builder| builder.prepare())
        .map_err(|e| SchemaError::new(String::new(), format!("the schema cannot be read: {e}")))
}

fn validator_at(
    options: &jsonschema::ValidationOptions<'_>,
    node: &Node,
) -> Result<jsonschema::Validator, SchemaError> {
    let reference = format!("{BASE}#{}", percent_encode(&node.pointer));
    let wrapper = serde_json::json!({ "$ref": reference });
    options
        .build(&wrapper)
        .map_err(|e| SchemaError::new(node.pointer.clone(), format!("invalid subschema: {e}")))
}

/// `patternProperties` keys are matched by a `{"pattern": …}` validator, as the schema's own.
fn build_matchers(nodes: &mut [Node]) -> Result<(), SchemaError> {
    for node in nodes.iter_mut() {
        for pattern in &mut node.patterns {
            let wrapper = serde_json::json!({ "pattern": pattern.source });
            let matcher = jsonschema::options().build(&wrapper).map_err(|e| {
                SchemaError::new(
                    format!("{}/patternProperties", node.pointer),
                    format!("invalid pattern {:?}: {e}", pattern.source),
                )
            })?;
            pattern.matcher = Some(Box::new(matcher));
        }
    }
    Ok(())
}

/// draft-07's tuple: `items` as a list.
fn uses_item_lists(schema: &Value, depth: usize) -> bool {
    if depth > MAX_SCHEMA_DEPTH {
        return false;
    }
    match schema {
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| (k == "items" && v.is_array()) || uses_item_lists(v, depth + 1)),
        Value::Array(items) => items.iter().any(|v| uses_item_lists(v, depth + 1)),
        _ => false,
    }
}

/// Bytes outside the unreserved set and `/` escaped.
fn percent_encode(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
