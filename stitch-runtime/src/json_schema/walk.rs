//! The walk of a value against the compiled nodes: the derive's walk (`crate::walk`), with a
//! node's [`Form`] in place of a Rust type. It runs on the same [`Cx`] (issues, depth, the
//! check and apply passes, probes), reports through the same messages (`crate::error`) and
//! refuses lists written as text with the same scanner (`json::text_list`).

use serde_json::{Map, Value};

use super::compile::is_array_member;
use super::node::{resolve, Additional, Form, Id, ListCheck, Node, Types};
use crate::error::{self, Issue};
use crate::json::text_list::{is_json_string, is_text_list};
use crate::path::Path;
use crate::report::RepairKind;
use crate::walk::{Cx, Kind, Shape};

/// One walk over a value: the nodes, and the `OneOrMany` position whose one value is being
/// walked (a type error right there says what the union takes, as `Cx::as_one_of_many`).
pub(crate) struct Walk<'a> {
    pub nodes: &'a [Node],
    pub one_or_many: Option<(usize, Id)>,
}

/// The address of a path on the stack, to recognise the same position.
fn address(at: &Path<'_>) -> usize {
    at as *const Path<'_> as usize
}

fn is_container(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

impl Walk<'_> {
    /// Walks `value`, found at `at`, as a position of node `id`.
    pub(crate) fn walk(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let nodes = self.nodes;
        let id = resolve(nodes, id);
        let node = &nodes[id];
        // `null` where the schema allows it is left alone, as an `Option` leaves it.
        if value.is_null() && node.nullable {
            return;
        }
        match &node.form {
            Form::Any => {
                if is_container(value) {
                    cx.untyped(value, at);
                }
            }
            Form::Typed => self.typed(id, value, cx, at),
            Form::OneOrMany { one, many } => self.one_or_many(id, *one, *many, value, cx, at),
            Form::Tagged { key, tags, .. } => self.tagged(id, key, tags, value, cx, at),
            Form::Keyed { units, keys, names } => self.keyed(id, units, keys, names, value, cx, at),
            Form::Untagged => self.untagged(id, value, cx, at),
        }
    }

    /// A position of one or more JSON types: a leaf, an array, an object.
    fn typed(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let node = &self.nodes[id];
        let types = node.types;
        match value {
            Value::String(text) => {
                if types.has(Types::STRING) {
                    // R3 where the position itself also takes a list (`"type": ["string",
                    // "array"]`); R2 otherwise: the string is one value.
                    if types.has(Types::ARRAY) && !node.is_tuple() && self.array_takes(id, text) {
                        cx.text_list(at);
                    } else if !admits(node, value) {
                        self.type_error(id, value, cx, at);
                    }
                } else if types.has(Types::ARRAY) || types.has(Types::OBJECT) {
                    self.repair_typed(id, value, cx, at);
                } else {
                    self.type_error(id, value, cx, at);
                }
            }
            Value::Array(items) => {
                if types.has(Types::ARRAY) {
                    // A tuple's length is serde's to judge, as the derive's walk leaves it.
                    if !node.is_tuple() {
                        cx.check_len(items.len(), node.bounds, at);
                    }
                    if cx.enter(at) {
                        // A string at a string-like item has nothing to repair, and its value
                        // is serde's to judge, as the derive's walk leaves it.
                        let string_like = node.string_items;
                        for (i, item) in items.iter_mut().enumerate() {
                            if string_like && item.is_string() && i >= node.prefix.len() {
                                continue;
                            }
                            let here = at.index(i);
                            match node.prefix.get(i).copied().or(node.items) {
                                Some(sub) => self.walk(sub, item, cx, &here),
                                None => {
                                    if is_container(item) {
                                        cx.untyped(item, &here);
                                    }
                                }
                            }
                        }
                        cx.leave();
                    }
                } else if types.has(Types::OBJECT) && node.is_struct() {
                    // serde reads a struct from an array too, field by field: its error
                    // keeps the index.
                    cx.untyped(value, at);
                } else {
                    self.type_error(id, value, cx, at);
                }
            }
            Value::Object(map) => {
                if types.has(Types::OBJECT) {
                    if cx.enter(at) {
                        self.fields(id, map, cx, at, None);
                        cx.leave();
                    }
                } else {
                    self.type_error(id, value, cx, at);
                }
            }
            _ => {
                if !admits(node, value) {
                    self.type_error(id, value, cx, at);
                }
            }
        }
    }

    /// R1 at a position of arrays or objects: JSON text where no string is expected.
    #[inline(never)]
    fn repair_typed(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let types = self.nodes[id].types;
        let kind = if types.has(Types::OBJECT) {
            Kind::Object
        } else {
            Kind::Sequence
        };
        let shape = Shape::new(
            kind,
            false,
            types.has(Types::ARRAY),
            types.has(Types::OBJECT),
        );
        if !cx.repair_by(value, at, shape, &mut |parsed, cx| {
            self.walk(id, parsed, cx, at)
        }) {
            self.type_error(id, value, cx, at);
        }
    }

    /// The keys of an object at node `id` (already entered): properties by name, other keys
    /// by `additionalProperties`, then the required keys not sent.
    /// `tag`: the key of a tagged union's tag, which serde does not list as a field.
    fn fields(
        &mut self,
        id: Id,
        map: &mut Map<String, Value>,
        cx: &mut Cx,
        at: &Path<'_>,
        tag: Option<&str>,
    ) {
        let node = &self.nodes[id];
        let mut seen = 0u128;
        let mut left_out = false;
        for (key, item) in map.iter_mut() {
            if let Some(ordinal) = node.properties.iter().position(|(k, _)| k == key) {
                let bit = if ordinal < 128 { 1u128 << ordinal } else { 0 };
                seen |= bit;
                let here = at.declared(key, ordinal as u32);
                // R8 as far as a schema tells: `null` at a property that may be left out and
                // does not take `null` is the property left out (dropped below, in the apply
                // pass); where it takes `null`, it is left alone.
                if item.is_null() && !is_required(node, ordinal, key) {
                    if !self.takes_null(node.properties[ordinal].1, 0) {
                        cx.repaired(&here, RepairKind::NullLeftOut, item);
                        left_out = true;
                    }
                    continue;
                }
                self.walk(node.properties[ordinal].1, item, cx, &here);
                continue;
            }
            let here = at.key(key);
            match node.additional {
                Additional::Schema(values) => self.walk(values, item, cx, &here),
                Additional::Deny => {
                    cx.report(&here, || {
                        Issue::invalid(here.render(), unknown_field(key, &node.properties, tag))
                    });
                    cx.untyped(item, &here);
                }
                Additional::Any => {
                    if is_container(item) {
                        cx.untyped(item, &here);
                    }
                }
            }
        }
        if left_out && cx.is_apply() {
            map.retain(|key, item| !(item.is_null() && self.left_out(node, key)));
        }
        if node.required_mask & !seen == 0 && !node.required_slow {
            return;
        }
        for (i, name) in node.required.iter().enumerate() {
            if map.contains_key(name) {
                continue;
            }
            let ordinal = node
                .properties
                .iter()
                .position(|(k, _)| k == name)
                .unwrap_or(node.properties.len() + i);
            let here = at.declared(name, ordinal as u32);
            cx.report(&here, || {
                Issue::invalid(here.render(), format!("missing field `{name}`"))
            });
        }
    }

    /// Whether `null` at property `key` of `node` is taken as the property left out (R8): a
    /// property `required` does not list, whose schema does not take `null`.
    fn left_out(&self, node: &Node, key: &str) -> bool {
        node.properties
            .iter()
            .position(|(k, _)| k == key)
            .is_some_and(|ordinal| {
                !is_required(node, ordinal, key) && !self.takes_null(node.properties[ordinal].1, 0)
            })
    }

    /// Whether node `id` takes `null` as a value (its walk would leave `null` alone):
    /// nullable, untyped, a type or an `enum` that lists `null`, a one-or-many whose one value
    /// does, an untagged union a member of which validates it.
    fn takes_null(&self, id: Id, depth: usize) -> bool {
        let nodes = self.nodes;
        let id = resolve(nodes, id);
        let node = &nodes[id];
        if node.nullable {
            return true;
        }
        if depth > crate::json::depth::MAX_DEPTH {
            return false;
        }
        match &node.form {
            Form::Any => true,
            Form::Typed => admits(node, &Value::Null),
            Form::OneOrMany { one, .. } => self.takes_null(*one, depth + 1),
            Form::Tagged { .. } | Form::Keyed { .. } => false,
            Form::Untagged => self.pick(id, &Value::Null).is_some(),
        }
    }

    /// `OneOrMany<T>`: a list is the array member's; a string goes by R2/R3 (R1 when `T`
    /// takes no string); one value is walked as `T`.
    fn one_or_many(
        &mut self,
        id: Id,
        one: Id,
        many: Id,
        value: &mut Value,
        cx: &mut Cx,
        at: &Path<'_>,
    ) {
        match value {
            Value::Array(_) => self.walk(many, value, cx, at),
            Value::String(text) => {
                if !self.nodes[resolve(self.nodes, one)].strings {
                    self.repair_union(id, value, cx, at);
                } else if self.array_takes(many, text) {
                    cx.text_list(at);
                } else {
                    self.as_one_of_many(one, value, cx, at);
                }
            }
            _ => self.as_one_of_many(one, value, cx, at),
        }
    }

    fn as_one_of_many(&mut self, one: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let prev = self.one_or_many.replace((address(at), one));
        self.walk(one, value, cx, at);
        self.one_or_many = prev;
    }

    /// R1 at a union: JSON text of a kind the union's members take (any kind but an array
    /// or an object they do not take) replaces the string, and is walked as the union.
    #[inline(never)]
    fn repair_union(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let arrays = self.takes_kind(id, &Value::Array(Vec::new()), 0);
        let objects = self.takes_kind(id, &Value::Object(Map::new()), 0);
        let shape = Shape::new(Kind::Union, false, arrays, objects);
        if !cx.repair_by(value, at, shape, &mut |parsed, cx| {
            self.walk(id, parsed, cx, at)
        }) {
            self.type_error(id, value, cx, at);
        }
    }

    /// Objects told apart by a constant tag (internally and adjacently tagged enums).
    #[inline(never)]
    fn tagged(
        &mut self,
        id: Id,
        key: &str,
        tags: &[(String, Id)],
        value: &mut Value,
        cx: &mut Cx,
        at: &Path<'_>,
    ) {
        match value {
            Value::Object(map) => {
                if !cx.enter(at) {
                    return;
                }
                let member = match map.get(key) {
                    Some(Value::String(tag)) => tags.iter().find(|(t, _)| t == tag).map(|t| t.1),
                    _ => None,
                };
                match member {
                    Some(member) => self.fields(member, map, cx, at, Some(key)),
                    None => {
                        for (k, item) in map.iter() {
                            cx.untyped(item, &at.key(k));
                        }
                    }
                }
                cx.leave();
                if member.is_none() && !cx.is_apply() && !cx.too_deep() {
                    // No member named: why, in serde's words.
                    let reason = match map.get(key) {
                        None => format!("missing field `{key}`"),
                        Some(Value::String(tag)) => {
                            let names: Vec<&str> = tags.iter().map(|(t, _)| t.as_str()).collect();
                            unknown_variant(tag, &names)
                        }
                        Some(other) => error::invalid_type(other, "variant identifier"),
                    };
                    cx.report(at, || Issue::invalid(at.render(), reason));
                }
            }
            Value::String(_) => self.repair_union(id, value, cx, at),
            _ => self.type_error(id, value, cx, at),
        }
    }

    /// One-key objects `{"Variant": content}` and unit variants' names (externally tagged).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn keyed(
        &mut self,
        id: Id,
        units: &[String],
        keys: &[(String, Id)],
        names: &[String],
        value: &mut Value,
        cx: &mut Cx,
        at: &Path<'_>,
    ) {
        match value {
            Value::Object(map) if map.len() == 1 => {
                if cx.enter(at) {
                    for (key, item) in map.iter_mut() {
                        match keys.iter().find(|(k, _)| k == key) {
                            Some((_, content)) => {
                                self.walk(*content, item, cx, &at.declared(key, 0))
                            }
                            None => cx.untyped(item, &at.key(key)),
                        }
                    }
                    cx.leave();
                }
            }
            Value::String(name) if !units.is_empty() => {
                if !units.contains(name) && !cx.is_apply() {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    let reason = unknown_variant(name, &names);
                    cx.report(at, || Issue::invalid(at.render(), reason));
                }
            }
            Value::String(_) => self.repair_union(id, value, cx, at),
            _ => self.type_error(id, value, cx, at),
        }
    }

    /// Any other union: serde's untagged enum (`docs/rules.md#untagged`).
    #[inline(never)]
    fn untagged(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let nodes = self.nodes;
        let members = &nodes[id].members;
        match value {
            Value::String(text) => {
                if !nodes[id].strings {
                    self.repair_union(id, value, cx, at);
                } else if members
                    .iter()
                    .any(|&m| is_array_member(nodes, m) && self.array_takes(m, text))
                {
                    cx.text_list(at);
                }
            }
            Value::Array(_) | Value::Object(_) => {
                let first = members.iter().position(|&m| self.takes_kind(m, value, 0));
                let Some(first) = first else {
                    self.no_match(value, cx, at);
                    return;
                };
                let mut probe = cx.probe();
                self.walk(members[first], value, &mut probe, at);
                if cx.end_probe(probe) {
                    return;
                }
                if cx.may_decide() {
                    self.decide(id, value, cx, at);
                } else if self.pick(id, value).is_none() {
                    self.no_match(value, cx, at);
                }
            }
            _ => {
                if self.pick(id, value).is_none() {
                    self.no_match(value, cx, at);
                }
            }
        }
    }

    /// `walk::untagged` for a union of nodes: serde's pick as sent, else the first member
    /// whose repairs it reads; none: serde's message.
    #[inline(never)]
    fn decide(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        if !cx.is_apply() {
            let mut depth = cx.value_probe();
            depth.untyped(value, at);
            if depth.too_deep() {
                cx.absorb(depth);
                return;
            }
        }
        let members = &self.nodes[id].members;
        match self.choose(id, value, cx, at) {
            None => self.no_match(value, cx, at),
            Some((i, repaired)) => {
                if repaired.is_none() && !cx.is_apply() {
                    let mut probe = cx.probe();
                    self.walk(members[i], value, &mut probe, at);
                    cx.absorb(probe);
                }
                if let Some(repaired) = repaired {
                    cx.replace(value, repaired);
                }
            }
        }
    }

    #[inline(never)]
    fn choose(
        &mut self,
        id: Id,
        value: &mut Value,
        cx: &Cx,
        at: &Path<'_>,
    ) -> Option<(usize, Option<Value>)> {
        if let Some(i) = self.pick(id, value) {
            return Some((i, None));
        }
        let members = &self.nodes[id].members;
        for (i, &member) in members.iter().enumerate() {
            if !self.takes_kind(member, value, 0) {
                continue;
            }
            let mut probe = cx.value_probe();
            self.walk(member, value, &mut probe, at);
            // A member with an issue is refused whatever else it repairs; one with nothing to
            // repair was refused by the validator as sent.
            if !probe.repairs_only() {
                continue;
            }
            let mut repaired = value.clone();
            self.walk(member, &mut repaired, &mut cx.apply_probe(), at);
            if self.pick(id, &repaired) == Some(i) {
                return Some((i, Some(repaired)));
            }
        }
        None
    }

    /// The member serde would read `value` as: the first whose validator takes it.
    fn pick(&self, id: Id, value: &Value) -> Option<usize> {
        let nodes = self.nodes;
        nodes[id].members.iter().position(|&m| {
            nodes[resolve(nodes, m)]
                .validator
                .as_ref()
                .is_some_and(|v| v.is_valid(value))
        })
    }

    /// Whether member `id` reads a value of `value`'s kind (an array or an object).
    fn takes_kind(&self, id: Id, value: &Value, depth: usize) -> bool {
        let nodes = self.nodes;
        let node = &nodes[resolve(nodes, id)];
        let array = value.is_array();
        if depth > crate::json::depth::MAX_DEPTH {
            return false;
        }
        match &node.form {
            Form::Any => true,
            Form::Typed => node
                .types
                .has(if array { Types::ARRAY } else { Types::OBJECT }),
            Form::OneOrMany { one, .. } => array || self.takes_kind(*one, value, depth + 1),
            Form::Tagged { .. } | Form::Keyed { .. } => !array,
            Form::Untagged => node
                .members
                .iter()
                .any(|&m| self.takes_kind(m, value, depth + 1)),
        }
    }

    /// R3's third condition: the array member `id` takes the list `text` is (within its
    /// `minItems`/`maxItems`). Plain strings and untyped items are checked by the scanner
    /// alone, without allocating; any other list is parsed and validated.
    fn array_takes(&self, id: Id, text: &str) -> bool {
        let nodes = self.nodes;
        let node = &nodes[resolve(nodes, id)];
        let bounds = node.bounds;
        match node.list {
            ListCheck::Strings => is_text_list(text, is_json_string, bounds),
            ListCheck::Anything => is_text_list(text, |_| true, bounds),
            ListCheck::Validate => {
                if !is_text_list(text, |_| true, bounds) {
                    return false;
                }
                let Some(validator) = &node.validator else {
                    return false;
                };
                serde_json::from_str::<Value>(text).is_ok_and(|list| validator.is_valid(&list))
            }
        }
    }

    /// A value of a type the node does not take: serde's error for it, checked for depth
    /// first when it is a container (as `Cx::check`).
    #[cold]
    #[inline(never)]
    fn type_error(&self, id: Id, value: &Value, cx: &mut Cx, at: &Path<'_>) {
        if is_container(value) {
            cx.untyped(value, at);
        }
        if cx.is_apply() || cx.too_deep() {
            return;
        }
        let nodes = self.nodes;
        let node = &nodes[id];
        let one = match self.one_or_many {
            Some((addr, one)) if addr == address(at) => Some(one),
            _ => None,
        };
        cx.report(at, || {
            let reason = reason(nodes, node, value);
            let reason = match one {
                Some(one) if reason.starts_with("invalid type:") => {
                    error::invalid_type(value, one_or_many_expected(nodes, one))
                }
                _ => reason,
            };
            Issue::invalid(at.render(), reason)
        });
    }

    /// No member of an untagged union takes the value.
    #[cold]
    #[inline(never)]
    fn no_match(&self, value: &Value, cx: &mut Cx, at: &Path<'_>) {
        if is_container(value) {
            cx.untyped(value, at);
        }
        if cx.is_apply() || cx.too_deep() {
            return;
        }
        cx.report(at, || Issue::invalid(at.render(), NO_MATCH));
    }
}

/// Whether `required` lists property `key`, the `ordinal`-th of `node`'s `properties`.
fn is_required(node: &Node, ordinal: usize, key: &str) -> bool {
    let bit = if ordinal < 128 { 1u128 << ordinal } else { 0 };
    node.required_mask & bit != 0 || (node.required_slow && node.required.iter().any(|r| r == key))
}

/// The leaf's quick test: the type, `enum`/`const`, an integer's range, a string's length.
#[inline]
fn admits(node: &Node, value: &Value) -> bool {
    // The common case first: a string where any string will do.
    if let Value::String(_) = value {
        if node.values.is_none() && node.length == (None, None) {
            return node.types.has(Types::STRING);
        }
    }
    if !node.takes(value) {
        return false;
    }
    if let Some(values) = &node.values {
        if !values.contains(value) {
            return false;
        }
    }
    match value {
        Value::Number(n) if !node.types.has(Types::NUMBER) => {
            let n = n
                .as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from));
            match n {
                Some(n) => {
                    node.range.0.is_none_or(|min| n >= min)
                        && node.range.1.is_none_or(|max| n <= max)
                }
                None => false,
            }
        }
        Value::String(s) if node.length != (None, None) => {
            let len = s.chars().count() as u64;
            node.length.0.is_none_or(|min| len >= min) && node.length.1.is_none_or(|max| len <= max)
        }
        _ => true,
    }
}

/// What an untagged union says when no member takes the value (serde names the enum).
const NO_MATCH: &str = "data did not match any variant of the schema's anyOf/oneOf";

/// serde's reason for refusing `value` at `node`.
fn reason(nodes: &[Node], node: &Node, value: &Value) -> String {
    match &node.form {
        Form::Typed => {}
        // serde reads a tagged enum from a sequence too: the tag first.
        Form::Tagged { key, content, .. } if value.as_array().is_some_and(Vec::is_empty) => {
            return match content {
                None => format!("missing field `{key}`"),
                Some(_) => {
                    use serde::de::Error as _;
                    serde_json::Error::invalid_length(0, &"an object").to_string()
                }
            };
        }
        // serde names the enum (`internally tagged enum Action`); the schema does not.
        Form::Tagged { .. } | Form::Any => return error::invalid_type(value, "an object"),
        Form::Keyed { names, .. } => {
            return match value {
                Value::String(s) => {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    unknown_variant(s, &names)
                }
                Value::Object(_) => invalid_value(value, "map with a single key"),
                _ => error::invalid_type(value, "string or map"),
            }
        }
        Form::Untagged => return NO_MATCH.to_owned(),
        Form::OneOrMany { one, .. } => return reason(nodes, &nodes[resolve(nodes, *one)], value),
    }
    let types = node.types.without(Types::NULL);
    // A string naming no variant of a string enum (a unit-variant enum).
    if let (Some(values), Value::String(s)) = (&node.values, value) {
        if types == Types::STRING && node.takes(value) {
            let names: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
            return unknown_variant(s, &names);
        }
    }
    if let Some(values) = &node.values {
        if values.iter().all(Value::is_string) && types == Types::STRING {
            // serde reads an enum from a string or from a one-key map.
            return match value {
                Value::Object(map) if map.len() == 1 => {
                    let names: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
                    let key = map.keys().next().map_or("", String::as_str);
                    unknown_variant(key, &names)
                }
                Value::Object(_) => invalid_value(value, "map with a single key"),
                _ => error::invalid_type(value, "string or map"),
            };
        }
    }
    if types == Types::STRING && node.length == (Some(1), Some(1)) {
        if let Value::String(_) = value {
            return invalid_value(value, "a character");
        }
    }
    if types == Types::INTEGER {
        let name = integer_name(node.range);
        if let Value::Number(n) = value {
            if n.is_i64() || n.is_u64() {
                return invalid_value(value, name);
            }
        }
        return error::invalid_type(value, name);
    }
    error::invalid_type(value, &expected(node))
}

/// What a node expects, in serde's words where the schema says the Rust type.
fn expected(node: &Node) -> String {
    let types = node.types.without(Types::NULL);
    let mut words = Vec::new();
    if types.has(Types::STRING) {
        words.push(if node.length == (Some(1), Some(1)) {
            "a character"
        } else {
            "a string"
        });
    }
    if types.has(Types::INTEGER) && !types.has(Types::NUMBER) {
        words.push(integer_name(node.range));
    }
    if types.has(Types::NUMBER) {
        words.push("f64");
    }
    if types.has(Types::BOOLEAN) {
        words.push("a boolean");
    }
    if types.has(Types::ARRAY) {
        words.push("a sequence");
    }
    if types.has(Types::OBJECT) {
        words.push(if node.is_struct() {
            "an object"
        } else {
            "a map"
        });
    }
    if words.is_empty() {
        return "unit".to_owned();
    }
    if node.is_tuple() && types == Types::ARRAY {
        return format!("a tuple of size {}", node.prefix.len());
    }
    words.join(" or ")
}

/// The Rust integer type whose range the schema gives (`"u32"`), as serde names it.
fn integer_name(range: (Option<i128>, Option<i128>)) -> &'static str {
    const TYPES: [(&str, i128, i128); 8] = [
        ("u8", 0, u8::MAX as i128),
        ("u16", 0, u16::MAX as i128),
        ("u32", 0, u32::MAX as i128),
        ("u64", 0, u64::MAX as i128),
        ("i8", i8::MIN as i128, i8::MAX as i128),
        ("i16", i16::MIN as i128, i16::MAX as i128),
        ("i32", i32::MIN as i128, i32::MAX as i128),
        ("i64", i64::MIN as i128, i64::MAX as i128),
    ];
    match range {
        (Some(min), Some(max)) => TYPES
            .iter()
            .find(|(_, lo, hi)| *lo == min && *hi == max)
            .map_or("an integer", |t| t.0),
        _ => "an integer",
    }
}

/// serde's `invalid value: …, expected …`.
fn invalid_value(value: &Value, expected: &str) -> String {
    use serde::de::Error as _;
    serde_json::Error::invalid_value(error::unexpected(value), &expected).to_string()
}

/// What a `OneOrMany` of node `one` takes (as `error::one_or_many_expected`).
fn one_or_many_expected(nodes: &[Node], one: Id) -> &'static str {
    let node = &nodes[resolve(nodes, one)];
    let types = node.types.without(Types::NULL);
    if !matches!(node.form, Form::Typed) {
        return "one value or an array of values";
    }
    if types == Types::STRING {
        "a string or an array of strings"
    } else if types == Types::INTEGER {
        "an integer or an array of integers"
    } else if types == Types::NUMBER.union(Types::INTEGER) {
        "a number or an array of numbers"
    } else if types == Types::BOOLEAN {
        "a boolean or an array of booleans"
    } else if types == Types::OBJECT && node.is_struct() {
        "an object or an array of objects"
    } else {
        "one value or an array of values"
    }
}

/// serde's `one of` list: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [a] => format!("`{a}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        _ => {
            let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("one of {}", listed.join(", "))
        }
    }
}

/// serde's `unknown variant` message.
fn unknown_variant(name: &str, names: &[&str]) -> String {
    if names.is_empty() {
        format!("unknown variant `{name}`, there are no variants")
    } else {
        format!("unknown variant `{name}`, expected {}", one_of(names))
    }
}

/// serde's `unknown field` message, the fields listed as the schema's properties.
fn unknown_field(key: &str, properties: &[(String, Id)], tag: Option<&str>) -> String {
    let names: Vec<&str> = properties
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| Some(*k) != tag)
        .collect();
    if names.is_empty() {
        format!("unknown field `{key}`, there are no fields")
    } else {
        format!("unknown field `{key}`, expected {}", one_of(&names))
    }
}
