//! The walk at unions: `OneOrMany<T>`, tagged and externally tagged enums, and untagged
//! unions (serde's pick as sent, else the first member whose repairs it reads).

use serde_json::{Map, Value};

use super::compile::is_array_member;
use super::message::unknown_variant;
use super::node::{claims_string, resolve, Form, Id, Types};
use super::walk::{address, Walk};
use crate::error::{self, Issue};
use crate::path::Path;
use crate::walk::{Cx, Kind, Shape};

impl Walk<'_> {
    /// A list is the array member's; a string goes by R2/R3 (R1 when `T` takes no string).
    pub(super) fn one_or_many(
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
                } else if self.array_takes(many, text) && !claims_string(self.nodes, one, text) {
                    cx.text_list(at);
                } else {
                    self.as_one_of_many(one, value, cx, at);
                }
            }
            _ => self.as_one_of_many(one, value, cx, at),
        }
    }

    pub(super) fn as_one_of_many(
        &mut self,
        one: Id,
        value: &mut Value,
        cx: &mut Cx,
        at: &Path<'_>,
    ) {
        let prev = self.one_or_many.replace((address(at), one));
        self.walk(one, value, cx, at);
        self.one_or_many = prev;
    }

    /// A `lenient_scalars` number or boolean: text the derive would read (own digits, within
    /// the type) is the scalar, judged as one.
    pub(super) fn lenient(&mut self, scalar: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let node = &self.nodes[resolve(self.nodes, scalar)];
        let read = match &*value {
            Value::String(text) => lenient_read(node, text),
            _ => None,
        };
        match read {
            Some(mut read) => {
                self.walk(scalar, &mut read, cx, at);
                cx.repaired(at, crate::RepairKind::ScalarText, value);
                cx.replace(value, read);
            }
            None => self.walk(scalar, value, cx, at),
        }
    }

    /// R1 at a union: JSON text of a kind its members take replaces the string.
    #[inline(never)]
    pub(super) fn repair_union(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
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
    pub(super) fn tagged(
        &mut self,
        id: Id,
        key: &str,
        (tags, other): (&[(String, Id)], Option<Id>),
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
                    // `#[serde(other)]`: any other string is that member.
                    Some(Value::String(tag)) => {
                        tags.iter().find(|(t, _)| t == tag).map(|t| t.1).or(other)
                    }
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
    pub(super) fn keyed(
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
    pub(super) fn untagged(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let nodes = self.nodes;
        let members = &nodes[id].members;
        match value {
            Value::String(text) => {
                if !nodes[id].strings {
                    self.repair_union(id, value, cx, at);
                } else if members
                    .iter()
                    .any(|&m| is_array_member(nodes, m) && self.array_takes(m, text))
                    && !members.iter().any(|&m| claims_string(nodes, m, text))
                {
                    cx.text_list(at);
                } else if nodes[id].limited && cx.checks_constraints() {
                    // Another string is serde's to read, then the member's constraints.
                    if let Some(i) = self.pick(id, value) {
                        self.limited_member(members[i], value, cx, at);
                    }
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
            _ => match self.pick(id, value) {
                None => self.no_match(value, cx, at),
                Some(i) => self.limited_member(members[i], value, cx, at),
            },
        }
    }

    /// Walked at `member` only when it may break a constraint; its type took it already.
    fn limited_member(&mut self, member: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        if self.nodes[resolve(self.nodes, member)].limited {
            self.walk(member, value, cx, at);
        }
    }

    /// Serde's pick as sent, else the first member whose repairs it reads.
    #[inline(never)]
    pub(super) fn decide(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
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
    pub(super) fn choose(
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
            // A member with an issue is refused whatever it repairs; one with nothing to
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

    /// The first member whose validator takes `value`: one it satisfies in full first, else
    /// one it satisfies but for the constraints (whose walk then reports them).
    pub(super) fn pick(&self, id: Id, value: &Value) -> Option<usize> {
        let nodes = self.nodes;
        let members = &nodes[id].members;
        let full = members.iter().position(|&m| {
            nodes[resolve(nodes, m)]
                .full_validator
                .as_ref()
                .is_some_and(|v| v.is_valid(value))
        });
        full.or_else(|| {
            members.iter().position(|&m| {
                nodes[resolve(nodes, m)]
                    .validator
                    .as_ref()
                    .is_some_and(|v| v.is_valid(value))
            })
        })
    }

    /// Whether member `id` reads an array or object of `value`'s kind.
    pub(super) fn takes_kind(&self, id: Id, value: &Value, depth: usize) -> bool {
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
            Form::Lenient { .. } => false,
            Form::Tagged { .. } | Form::Keyed { .. } => !array,
            Form::Untagged => node
                .members
                .iter()
                .any(|&m| self.takes_kind(m, value, depth + 1)),
        }
    }
}

/// The scalar `text` is at `node` (a `lenient_scalars` position), as the derive reads it.
fn lenient_read(node: &super::node::Node, text: &str) -> Option<Value> {
    let kind = node.types.without(Types::NULL);
    if kind == Types::BOOLEAN {
        return match text {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        };
    }
    if kind == Types::INTEGER {
        let n: i128 = text.parse().ok()?;
        let number = serde_json::Number::from_i128(n)?;
        return (n.to_string() == text && super::walk::in_range(node.range, &number))
            .then_some(Value::Number(number));
    }
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_digit() || b"-.eE+".contains(&b));
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Number(n)) if plain => Some(Value::Number(n)),
        _ => None,
    }
}
