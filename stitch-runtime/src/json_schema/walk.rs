//! The derive's walk (`crate::walk`) with a node's [`Form`] in place of a Rust type: the same
//! [`Cx`], messages and text-list scanner, so both surfaces answer alike.

use serde_json::{Map, Value};

use super::constraints;
use super::message::{one_or_many_expected, reason, unknown_field, NO_MATCH};
use super::node::{claims_string, resolve, Additional, Form, Id, ListCheck, Node, Types};
use crate::error::{self, Issue};
use crate::json::text_list::{is_json_string, is_text_list};
use crate::path::Path;
use crate::report::RepairKind;
use crate::walk::{Cx, Kind, Shape};

/// `one_or_many`: the `OneOrMany` position whose one value is being walked, so a type error
/// there says what the union takes (as `Cx::as_one_of_many`).
pub(crate) struct Walk<'a> {
    pub nodes: &'a [Node],
    pub one_or_many: Option<(usize, Id)>,
}

/// Recognises the same position on the stack.
pub(super) fn address(at: &Path<'_>) -> usize {
    at as *const Path<'_> as usize
}

pub(super) fn is_container(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

impl Walk<'_> {
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
                } else {
                    // `{"maxLength": 8}`: a constraint applies to its kind whatever the type.
                    constraints::check(node, value, cx, at);
                }
            }
            Form::Typed => self.typed(id, value, cx, at),
            Form::OneOrMany { one, many } => self.one_or_many(id, *one, *many, value, cx, at),
            Form::Lenient { scalar } => self.lenient(*scalar, value, cx, at),
            Form::Tagged {
                key, tags, other, ..
            } => self.tagged(id, key, (tags, *other), value, cx, at),
            Form::Keyed { units, keys, names } => self.keyed(id, units, keys, names, value, cx, at),
            Form::Untagged => self.untagged(id, value, cx, at),
        }
    }

    fn typed(&mut self, id: Id, value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
        let node = &self.nodes[id];
        let types = node.types;
        match value {
            Value::String(text) => {
                if types.has(Types::STRING) {
                    // R3 where the position itself also takes a list; else R2.
                    if types.has(Types::ARRAY)
                        && !node.is_tuple()
                        && self.array_takes(id, text)
                        && !claims_string(self.nodes, id, text)
                    {
                        cx.text_list(at);
                    } else if !admits(node, value) {
                        self.type_error(id, value, cx, at);
                    } else {
                        constraints::check(node, value, cx, at);
                    }
                } else if types.has(Types::ARRAY) || types.has(Types::OBJECT) {
                    self.repair_typed(id, value, cx, at);
                } else {
                    self.type_error(id, value, cx, at);
                }
            }
            Value::Array(items) => {
                if types.has(Types::ARRAY) {
                    // A tuple's length is serde's to judge, as in the derive's walk.
                    if !node.is_tuple() {
                        cx.check_len(items.len(), node.bounds, at);
                    }
                    if cx.enter(at) {
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
                    // serde reads a struct from an array too; its error keeps the index.
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
                } else {
                    constraints::check(node, value, cx, at);
                }
            }
        }
    }

    /// R1 at a position of arrays or objects.
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

    /// The keys of an entered object; `tag` is a tagged union's tag, which serde does not list
    /// as a field.
    pub(super) fn fields(
        &mut self,
        id: Id,
        map: &mut Map<String, Value>,
        cx: &mut Cx,
        at: &Path<'_>,
        tag: Option<&str>,
    ) {
        let node = &self.nodes[id];
        let mut seen = 0u128;
        let mut seen_slow = 0usize;
        let mut left_out = false;
        for (key, item) in map.iter_mut() {
            if let Some(ordinal) = node.ordinal(key) {
                if ordinal < 128 {
                    seen |= 1u128 << ordinal;
                }
                if node.is_required(ordinal) {
                    seen_slow += 1;
                }
                let here = at.declared(key, ordinal as u32);
                // R8 as far as a schema tells: dropped in the apply pass unless it takes `null`.
                if item.is_null() && !node.must_send(ordinal) {
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
            if let Some(schema) = node.pattern_for(key) {
                self.walk(schema, item, cx, &here);
                continue;
            }
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
        if !node.one_of_names.is_empty() {
            self.one_of_names(node, map, cx, at);
        }
        if node.required_mask & !seen == 0 && !node.required_slow {
            return;
        }
        // Each key once (a map): every listed required property was sent.
        if node.required_slow && seen_slow == node.required.len() {
            return;
        }
        for (i, name) in node.required.iter().enumerate() {
            if map.contains_key(name) {
                continue;
            }
            let ordinal = node.ordinal(name).unwrap_or(node.properties.len() + i);
            let here = at.declared(name, ordinal as u32);
            cx.report(&here, || {
                Issue::invalid(here.render(), format!("missing field `{name}`"))
            });
        }
    }

    /// None of a field's names sent is its wire name missing; two under a `oneOf`, a duplicate.
    fn one_of_names(&self, node: &Node, map: &Map<String, Value>, cx: &mut Cx, at: &Path<'_>) {
        for (names, exclusive) in &node.one_of_names {
            let sent = names
                .iter()
                .filter(|n| map.contains_key(n.as_str()))
                .count();
            let name = &names[0];
            if sent == 0 {
                let ordinal = node.ordinal(name).unwrap_or(node.properties.len());
                let here = at.declared(name, ordinal as u32);
                cx.report(&here, || {
                    Issue::invalid(here.render(), format!("missing field `{name}`"))
                });
            } else if sent > 1 && *exclusive {
                cx.report(at, || {
                    Issue::invalid(at.render(), format!("duplicate field `{name}`"))
                });
            }
        }
    }

    /// R8: `null` at a property that need not be sent and does not take `null`.
    fn left_out(&self, node: &Node, key: &str) -> bool {
        node.ordinal(key).is_some_and(|ordinal| {
            !node.must_send(ordinal) && !self.takes_null(node.properties[ordinal].1, 0)
        })
    }

    /// Whether the walk would leave `null` alone here.
    pub(super) fn takes_null(&self, id: Id, depth: usize) -> bool {
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
            Form::OneOrMany { one, .. } | Form::Lenient { scalar: one } => {
                self.takes_null(*one, depth + 1)
            }
            Form::Tagged { .. } | Form::Keyed { .. } => false,
            Form::Untagged => self.pick(id, &Value::Null).is_some(),
        }
    }

    /// R3's third condition: array member `id` takes the list `text` is, bounds included.
    pub(super) fn array_takes(&self, id: Id, text: &str) -> bool {
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

    /// serde's error for a value of a type the node does not take; a container's depth first.
    #[cold]
    #[inline(never)]
    pub(super) fn type_error(&self, id: Id, value: &Value, cx: &mut Cx, at: &Path<'_>) {
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

    #[cold]
    #[inline(never)]
    pub(super) fn no_match(&self, value: &Value, cx: &mut Cx, at: &Path<'_>) {
        if is_container(value) {
            cx.untyped(value, at);
        }
        if cx.is_apply() || cx.too_deep() {
            return;
        }
        cx.report(at, || Issue::invalid(at.render(), NO_MATCH));
    }
}

/// The type, `enum`/`const`, a Rust integer type's range and a `char`'s length; the value
/// constraints come after, on a value this admits.
#[inline]
pub(super) fn admits(node: &Node, value: &Value) -> bool {
    if let Value::String(_) = value {
        if node.takes_any_text() {
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
        Value::Number(n) if !node.types.has(Types::NUMBER) => in_range(node.range, n),
        Value::String(s) if node.length != (None, None) => {
            let len = s.chars().count() as u64;
            node.length.0.is_none_or(|min| len >= min) && node.length.1.is_none_or(|max| len <= max)
        }
        _ => true,
    }
}

/// Within the Rust integer type's range the node's `minimum`/`maximum` give.
pub(super) fn in_range(range: (Option<i128>, Option<i128>), n: &serde_json::Number) -> bool {
    if let Some(n) = n
        .as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
    {
        return range.0.is_none_or(|min| n >= min) && range.1.is_none_or(|max| n <= max);
    }
    match n.as_f64() {
        Some(f) if f.is_finite() && f.fract() == 0.0 => {
            range.0.is_none_or(|min| f >= min as f64) && range.1.is_none_or(|max| f <= max as f64)
        }
        _ => false,
    }
}
