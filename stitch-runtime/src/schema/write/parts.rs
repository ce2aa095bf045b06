//! The writer's compound schemas: arrays and unions, a user's schema text, and objects with
//! their properties, `required` and flattened parts.

use super::{Extras, Writer, NO_BOUNDS};
use crate::limits::Num;
use crate::schema::{as_object, is_object, Object, Schema};

impl Writer<'_> {
    pub(super) const fn array(
        &mut self,
        extras: Extras,
        items: &Schema,
        min: usize,
        max: usize,
        unique: bool,
    ) {
        let mut first = self.open(extras);
        self.key(&mut first, "type");
        self.string("array");
        self.key(&mut first, "items");
        self.schema(items, Extras::NONE, NO_BOUNDS);
        if min > 0 {
            self.key(&mut first, "minItems");
            self.unsigned(min as u128);
        }
        if max != usize::MAX {
            self.key(&mut first, "maxItems");
            self.unsigned(max as u128);
        }
        if unique {
            self.key(&mut first, "uniqueItems");
            self.raw(b"true");
        }
        self.raw(b"}");
    }

    /// `"type":"object"` beside it when every member is an object, as a tool's root must say.
    pub(super) const fn keyed_list(
        &mut self,
        extras: Extras,
        key: &str,
        members: &[&Schema],
        of: &Schema,
    ) {
        let mut first = self.open(extras);
        if is_object(of) {
            self.key(&mut first, "type");
            self.string("object");
        }
        self.key(&mut first, key);
        self.list(members);
        self.raw(b"}");
    }

    pub(super) const fn list(&mut self, members: &[&Schema]) {
        self.raw(b"[");
        let mut i = 0;
        while i < members.len() {
            if i > 0 {
                self.raw(b",");
            }
            self.schema(members[i], Extras::NONE, NO_BOUNDS);
            i += 1;
        }
        self.raw(b"]");
    }

    pub(super) const fn strings(&mut self, names: &[&str]) {
        self.raw(b"[");
        let mut i = 0;
        while i < names.len() {
            if i > 0 {
                self.raw(b",");
            }
            self.string(names[i]);
            i += 1;
        }
        self.raw(b"]");
    }

    /// The property's extras are added when the text is an object.
    pub(super) const fn raw_schema(&mut self, text: &str, extras: Extras) {
        let bytes = trim(text.as_bytes());
        let has_extras = extras.description.is_some() || extras.default.is_some() || extras.alias;
        if !has_extras || bytes.is_empty() || bytes[0] != b'{' {
            self.raw(bytes);
            return;
        }
        let first = self.open(extras);
        let rest = trim(bytes.split_at(1).1);
        let empty = rest.len() == 1 && rest[0] == b'}';
        if !first && !empty {
            self.raw(b",");
        }
        self.raw(rest);
    }

    /// `tag` adds an internally tagged variant's constant tag first.
    pub(super) const fn object(
        &mut self,
        object: &Object,
        extras: Extras,
        tag: Option<(&str, &str)>,
    ) {
        let extras = match (extras.description, object.description) {
            (None, Some(description)) => Extras {
                description: Some(description),
                ..extras
            },
            _ => extras,
        };
        if super::flat::flattens(object) {
            self.distributed(object, extras, tag);
            return;
        }
        let defs = self.inline_defs(object, false);
        let start = self.at;
        self.plain_object(object, extras, tag);
        if defs {
            self.join_after(start);
        }
    }

    const fn plain_object(&mut self, object: &Object, extras: Extras, tag: Option<(&str, &str)>) {
        let mut first = self.open(extras);
        self.key(&mut first, "type");
        self.string("object");
        self.key(&mut first, "properties");
        self.raw(b"{");
        let mut any = false;
        if let Some((key, value)) = tag {
            self.string(key);
            self.raw(b":");
            self.constant(value);
            any = true;
        }
        self.properties(object, &mut any);
        self.raw(b"}");
        // The tag, then each required property, flattened ones included.
        let mut required = tag.is_some();
        if !required {
            required = has_required(object, false);
        }
        if required {
            self.key(&mut first, "required");
            self.raw(b"[");
            let mut any = false;
            if let Some((key, _)) = tag {
                self.string(key);
                any = true;
            }
            self.required(object, &mut any, false);
            self.raw(b"]");
        }
        self.alias_groups(object, &[], &mut first);
        if let Some(values) = flattened_map(object) {
            self.key(&mut first, "additionalProperties");
            self.schema(values, Extras::NONE, NO_BOUNDS);
        } else if object.deny_unknown_fields {
            self.key(&mut first, "additionalProperties");
            self.raw(b"false");
        }
        self.raw(b"}");
    }

    pub(super) const fn properties(&mut self, object: &Object, any: &mut bool) {
        let mut i = 0;
        while i < object.properties.len() {
            let p = &object.properties[i];
            if *any {
                self.raw(b",");
            }
            *any = true;
            self.string(p.name());
            self.raw(b":");
            self.schema(
                p.schema(),
                Extras {
                    description: p.description(),
                    default: p.default(),
                    alias: p.is_alias(),
                },
                NO_BOUNDS,
            );
            i += 1;
        }
        let mut f = 0;
        while f < object.flatten.len() {
            if let Some(inner) = as_object(object.flatten[f].schema) {
                self.properties(inner, any);
            }
            f += 1;
        }
    }

    /// `"not": {"anyOf": [{"properties": {"color": false, "colour": false}}, …]}`: a required
    /// field with aliases is sent under one of its names, for `object` and `bodies`. A `not`,
    /// not an `allOf`: Anthropic refuses `allOf`/`anyOf`/`oneOf` at an `input_schema`'s top.
    pub(super) const fn alias_groups(
        &mut self,
        object: &Object,
        bodies: &[Option<&Object>],
        first: &mut bool,
    ) {
        let mut any_group = has_groups(object, false);
        let mut b = 0;
        while b < bodies.len() {
            if let Some(body) = bodies[b] {
                any_group |= has_groups(body, false);
            }
            b += 1;
        }
        if !any_group {
            return;
        }
        self.key(first, "not");
        self.raw(b"{\"anyOf\":[");
        let mut any = false;
        self.groups(object, &mut any, false);
        let mut b = 0;
        while b < bodies.len() {
            if let Some(body) = bodies[b] {
                self.groups(body, &mut any, false);
            }
            b += 1;
        }
        self.raw(b"]}");
    }

    /// One `{"properties": {name: false, …}}` per required aliased field.
    const fn groups(&mut self, object: &Object, any: &mut bool, optional: bool) {
        if optional {
            return;
        }
        let ps = object.properties;
        let mut i = 0;
        while i < ps.len() {
            if ps[i].required() && aliased(object, i) {
                if *any {
                    self.raw(b",");
                }
                *any = true;
                self.raw(b"{\"properties\":{");
                let mut j = i;
                while j < ps.len() && (j == i || ps[j].is_alias()) {
                    if j > i {
                        self.raw(b",");
                    }
                    self.string(ps[j].name());
                    self.raw(b":false");
                    j += 1;
                }
                self.raw(b"}}");
            }
            i += 1;
        }
        let mut f = 0;
        while f < object.flatten.len() {
            if let Some(inner) = as_object(object.flatten[f].schema) {
                self.groups(inner, any, object.flatten[f].optional);
            }
            f += 1;
        }
    }

    pub(super) const fn required(&mut self, object: &Object, any: &mut bool, optional: bool) {
        if optional {
            return;
        }
        let mut i = 0;
        while i < object.properties.len() {
            let p = &object.properties[i];
            // Required as one of its names (`alias_groups`).
            if p.required() && !aliased(object, i) {
                if *any {
                    self.raw(b",");
                }
                *any = true;
                self.string(p.name());
            }
            i += 1;
        }
        let mut f = 0;
        while f < object.flatten.len() {
            if let Some(inner) = as_object(object.flatten[f].schema) {
                self.required(inner, any, object.flatten[f].optional);
            }
            f += 1;
        }
    }
}

pub(super) const fn has_required(object: &Object, optional: bool) -> bool {
    if optional {
        return false;
    }
    let mut i = 0;
    while i < object.properties.len() {
        if object.properties[i].required() && !aliased(object, i) {
            return true;
        }
        i += 1;
    }
    let mut f = 0;
    while f < object.flatten.len() {
        if let Some(inner) = as_object(object.flatten[f].schema) {
            if has_required(inner, object.flatten[f].optional) {
                return true;
            }
        }
        f += 1;
    }
    false
}

/// Its aliases follow it.
const fn aliased(object: &Object, i: usize) -> bool {
    i + 1 < object.properties.len() && object.properties[i + 1].is_alias()
}

/// A required field with aliases, in `object` or (unless `optional`) flattened into it.
const fn has_groups(object: &Object, optional: bool) -> bool {
    if optional {
        return false;
    }
    let mut i = 0;
    while i < object.properties.len() {
        if object.properties[i].required() && aliased(object, i) {
            return true;
        }
        i += 1;
    }
    let mut f = 0;
    while f < object.flatten.len() {
        if let Some(inner) = as_object(object.flatten[f].schema) {
            if has_groups(inner, object.flatten[f].optional) {
                return true;
            }
        }
        f += 1;
    }
    false
}

/// A flattened map at any depth of flattening takes every key no level declares.
pub(super) const fn flattened_map(object: &Object) -> Option<&Schema> {
    let mut f = 0;
    while f < object.flatten.len() {
        if let Schema::Map(values) = object.flatten[f].schema {
            return Some(values);
        }
        if let Some(inner) = as_object(object.flatten[f].schema) {
            if let Some(values) = flattened_map(inner) {
                return Some(values);
            }
        }
        f += 1;
    }
    None
}

const fn trim(mut bytes: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = bytes {
        if first.is_ascii_whitespace() {
            bytes = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = bytes {
        if last.is_ascii_whitespace() {
            bytes = rest;
        } else {
            break;
        }
    }
    bytes
}

impl Writer<'_> {
    /// `range`: `minimum`/`maximum` too (an integer writes its own otherwise).
    pub(super) const fn number_limits(&mut self, first: &mut bool, range: bool) {
        let Some(limits) = self.limits else {
            return;
        };
        let keys: [(&str, Option<Num>); 5] = [
            ("minimum", if range { limits.minimum } else { None }),
            ("maximum", if range { limits.maximum } else { None }),
            ("exclusiveMinimum", limits.exclusive_minimum),
            ("exclusiveMaximum", limits.exclusive_maximum),
            ("multipleOf", limits.multiple_of),
        ];
        let mut i = 0;
        while i < keys.len() {
            if let Some(n) = keys[i].1 {
                self.key(first, keys[i].0);
                self.num(n);
            }
            i += 1;
        }
    }

    pub(super) const fn string_limits(&mut self, first: &mut bool) {
        let Some(limits) = self.limits else {
            return;
        };
        if let Some(n) = limits.min_length {
            self.key(first, "minLength");
            self.unsigned(n as u128);
        }
        if let Some(n) = limits.max_length {
            self.key(first, "maxLength");
            self.unsigned(n as u128);
        }
        if let Some(pattern) = &limits.pattern {
            self.key(first, "pattern");
            self.string(pattern.escaped());
        }
        if let Some(format) = limits.format {
            self.key(first, "format");
            self.string(format);
        }
    }
}
