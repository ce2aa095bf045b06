//! Compiling, step two: each `$ref` resolved to the node it names, and each `allOf` merged
//! into its node, a member before the node that uses it.

use std::collections::{HashMap, HashSet};

use super::node::{resolve, Additional, Id, Node, Pattern};
use super::read::join;
use super::SchemaError;

/// Decodes `~1`, `~0`, and the percent-escapes a URI fragment may hold.
fn unescape_pointer(fragment: &str) -> Option<String> {
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = fragment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `#` (the root), `#/json/pointer` (any subschema), `#Name` (an `$anchor`).
pub(crate) fn resolve_refs(
    nodes: &mut [Node],
    anchors: &HashMap<String, Id>,
) -> Result<(), SchemaError> {
    // Borrowed, and built only when a `$ref` names a pointer.
    let pointers = nodes
        .iter()
        .any(|n| n.reference.as_deref().is_some_and(|r| r.starts_with("#/")));
    let by_pointer: HashMap<&str, Id> = if pointers {
        nodes
            .iter()
            .enumerate()
            .map(|(id, n)| (n.pointer.as_str(), id))
            .collect()
    } else {
        HashMap::new()
    };
    let mut targets = Vec::new();
    for (id, node) in nodes.iter().enumerate() {
        let Some(reference) = node.reference.as_deref() else {
            continue;
        };
        let unresolvable = |why: &str| {
            SchemaError::new(
                join(&node.pointer, "$ref"),
                format!("cannot resolve `$ref` {reference:?}: {why}"),
            )
        };
        let Some(fragment) = reference.strip_prefix('#') else {
            return Err(unresolvable(
                "only references within the schema (`#…`) are supported",
            ));
        };
        let target = if fragment.is_empty() {
            Some(0)
        } else if fragment.starts_with('/') {
            let pointer = unescape_pointer(fragment).ok_or_else(|| unresolvable("bad escape"))?;
            by_pointer.get(pointer.as_str()).copied()
        } else {
            anchors.get(fragment).copied()
        };
        let Some(target) = target else {
            return Err(unresolvable("nothing in the schema has that name"));
        };
        targets.push((id, target));
    }
    drop(by_pointer);
    for (id, target) in targets {
        nodes[id].target = Some(target);
    }
    no_cycle(nodes, "$ref")
}

/// Names the first node whose chain of targets never ends.
fn no_cycle(nodes: &[Node], what: &str) -> Result<(), SchemaError> {
    for id in 0..nodes.len() {
        let mut at = id;
        let mut steps = 0;
        while let Some(next) = nodes[at].target {
            at = next;
            steps += 1;
            if steps > nodes.len() {
                return Err(SchemaError::new(
                    nodes[id].pointer.clone(),
                    format!("a cycle of `{what}`s that never reaches a schema"),
                ));
            }
        }
    }
    Ok(())
}

/// A node with nothing of its own and one member stands for it; otherwise what a member says
/// and the node does not is taken (types intersected, properties, patterns, `required` joined).
///
/// Members, and `$ref` targets, are merged before the node that uses them whatever the order
/// of `$defs`: depth first with an explicit stack, a dependency already on it (a cycle) not
/// waited for.
pub(crate) fn merge_all_of(nodes: &mut [Node]) -> Result<(), SchemaError> {
    const TODO: u8 = 0;
    const VISITING: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![TODO; nodes.len()];
    let mut stack: Vec<(Id, bool)> = Vec::new();
    for start in 0..nodes.len() {
        if state[start] != TODO {
            continue;
        }
        stack.push((start, false));
        while let Some((id, expanded)) = stack.pop() {
            if expanded {
                merge_one(nodes, id);
                state[id] = DONE;
                continue;
            }
            if state[id] != TODO {
                continue;
            }
            state[id] = VISITING;
            stack.push((id, true));
            let deps = nodes[id].all_of.iter().copied().chain(nodes[id].target);
            for dep in deps {
                if state[dep] == TODO {
                    stack.push((dep, false));
                }
            }
        }
    }
    no_cycle(nodes, "allOf")
}

/// `id`'s members are merged already.
fn merge_one(nodes: &mut [Node], id: Id) {
    if nodes[id].all_of.is_empty() || nodes[id].target.is_some() {
        return;
    }
    let members = core::mem::take(&mut nodes[id].all_of);
    let bare = !nodes[id].typed && nodes[id].members.is_empty();
    if bare && members.len() == 1 {
        nodes[id].target = Some(members[0]);
        return;
    }
    // So that joining is linear in the members' sizes.
    let mut have: HashSet<String> = nodes[id]
        .properties
        .iter()
        .map(|(k, _)| k.clone())
        .collect();
    let mut needed: HashSet<String> = nodes[id].required.iter().cloned().collect();
    for member in members {
        let m = resolve(nodes, member);
        if m == id {
            continue;
        }
        let (types, typed, nullable) = (nodes[m].types, nodes[m].typed, nodes[m].nullable);
        let values = nodes[m].values.clone();
        let (range, length, items, prefix, bounds) = (
            nodes[m].range,
            nodes[m].length,
            nodes[m].items,
            nodes[m].prefix.clone(),
            nodes[m].bounds,
        );
        let (limits, text_pattern) = (nodes[m].limits, nodes[m].text_pattern.clone());
        let properties = nodes[m].properties.clone();
        let patterns: Vec<(String, Id)> = nodes[m]
            .patterns
            .iter()
            .map(|p| (p.source.clone(), p.schema))
            .collect();
        let required = nodes[m].required.clone();
        let one_of_names = nodes[m].one_of_names.clone();
        let additional = nodes[m].additional;
        let (members, one_or_many) = (nodes[m].members.clone(), nodes[m].one_or_many);
        let node = &mut nodes[id];
        if typed {
            if node.typed {
                node.types = node.types.and(types);
                node.nullable &= nullable;
            } else {
                node.types = types;
                node.nullable = nullable;
                node.typed = true;
            }
        }
        if node.values.is_none() {
            node.values = values;
        }
        node.range.0 = node.range.0.or(range.0);
        node.range.1 = node.range.1.or(range.1);
        node.length.0 = node.length.0.or(length.0);
        node.length.1 = node.length.1.or(length.1);
        // The node's own bound of each keyword and pattern, else the first member's; the rest
        // are the validator's, after the coercer.
        let own = &mut node.limits;
        own.minimum = own.minimum.or(limits.minimum);
        own.maximum = own.maximum.or(limits.maximum);
        own.exclusive_minimum = own.exclusive_minimum.or(limits.exclusive_minimum);
        own.exclusive_maximum = own.exclusive_maximum.or(limits.exclusive_maximum);
        own.multiple_of = own.multiple_of.or(limits.multiple_of);
        own.min_length = own.min_length.or(limits.min_length);
        own.max_length = own.max_length.or(limits.max_length);
        if node.text_pattern.is_none() {
            node.text_pattern = text_pattern;
        }
        node.items = node.items.or(items);
        if node.prefix.is_empty() {
            node.prefix = prefix;
        }
        if node.bounds.is_none() {
            node.bounds = bounds;
        }
        for (key, sub) in properties {
            if have.insert(key.clone()) {
                node.properties.push((key, sub));
            }
        }
        for (source, schema) in patterns {
            if !node.patterns.iter().any(|p| p.source == source) {
                node.patterns.push(Pattern {
                    source,
                    matcher: None,
                    schema,
                });
            }
        }
        for name in required {
            if needed.insert(name.clone()) {
                node.required.push(name);
            }
        }
        for group in one_of_names {
            if !node.one_of_names.contains(&group) {
                node.one_of_names.push(group);
            }
        }
        if node.additional == Additional::Any {
            node.additional = additional;
        }
        if node.members.is_empty() {
            node.members = members;
            node.one_or_many = one_or_many;
        }
    }
}
