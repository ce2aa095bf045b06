//! An object with a flattened union (`docs/rules.md#flattened-unions`): JSON Schema cannot add
//! a union's members to an object's properties, so the object is written as the union,
//! `{"type":"object","anyOf":[…]}`, one member per combination of the unions' variants (a
//! product, not an `allOf`, which subsets lack and closed strict members could not satisfy
//! together), bounded by `MAX_MEMBERS`.

use super::parts::flattened_map;
use super::{Extras, Writer, NO_BOUNDS};
use crate::schema::{as_object, core, Object, Schema, Unions, MAX_UNIONS};

/// Then written as [`Writer::distributed`].
pub(super) const fn flattens(object: &Object) -> bool {
    crate::schema::flattened_unions(object).len > 0
}

#[derive(Clone, Copy)]
enum Part<'s> {
    /// The parent alone (a flattened `Option` read as `None`).
    Nothing,
    /// An externally tagged variant's name as a key (`None`: a unit variant, `null`).
    Keyed(&'s str, Option<&'s Schema>),
    /// An internally tagged variant: the tag, its constant, the fields.
    Tagged(&'s str, &'s str, Option<&'s Object>),
    /// An adjacently tagged variant: the tag, its constant, the content key and schema.
    Adjacent(&'s str, &'s str, &'s str, Option<&'s Schema>),
    /// An untagged variant's fields (`None`: not an object, adds nothing).
    Body(Option<&'s Object>),
}

impl Writer<'_> {
    /// `object` (with `tag`, an internally tagged variant's constant) as one object per
    /// combination of its unions' variants; past the bounds (refused for a tool) the unions'
    /// keys are not said.
    pub(super) const fn distributed(
        &mut self,
        object: &Object,
        extras: Extras,
        tag: Option<(&str, &str)>,
    ) {
        let unions = crate::schema::flattened_unions(object);
        let defs = self.inline_defs(object, true);
        let start = self.at;
        self.distributed_object(object, extras, tag, &unions);
        if defs {
            self.join_after(start);
        }
    }

    const fn distributed_object(
        &mut self,
        object: &Object,
        extras: Extras,
        tag: Option<(&str, &str)>,
        unions: &Unions,
    ) {
        let mut first = self.open(extras);
        self.key(&mut first, "type");
        self.string("object");
        self.key(&mut first, "anyOf");
        self.raw(b"[");
        let mut any = false;
        let total = if unions.bounded() {
            unions.members()
        } else {
            1
        };
        let mut n = 0;
        while n < total {
            let mut parts = [Part::Nothing; MAX_UNIONS];
            if unions.bounded() {
                // The `n`th combination, the first union's choice varying fastest.
                let mut rest = n;
                let mut u = 0;
                while u < unions.len {
                    let choices = unions.choices(u);
                    parts[u] = choice(unions, u, rest % choices);
                    rest /= choices;
                    u += 1;
                }
            }
            self.member(object, tag, &parts, &mut any);
            n += 1;
        }
        self.raw(b"]}");
    }

    /// The parent's properties and each chosen variant's keys, required as each says.
    const fn member(
        &mut self,
        object: &Object,
        tag: Option<(&str, &str)>,
        parts: &[Part<'_>; MAX_UNIONS],
        any: &mut bool,
    ) {
        if *any {
            self.raw(b",");
        }
        *any = true;
        let mut first = self.open(Extras::NONE);
        self.key(&mut first, "type");
        self.string("object");
        self.key(&mut first, "properties");
        self.raw(b"{");
        let mut props = false;
        if let Some((key, value)) = tag {
            self.constant_property(key, value, &mut props);
        }
        self.properties(object, &mut props);
        let mut u = 0;
        while u < MAX_UNIONS {
            self.part_properties(parts[u], &mut props);
            u += 1;
        }
        self.raw(b"}");
        self.key(&mut first, "required");
        self.raw(b"[");
        let mut required = false;
        if let Some((key, _)) = tag {
            self.required_key(key, &mut required);
        }
        self.required(object, &mut required, false);
        let mut u = 0;
        while u < MAX_UNIONS {
            self.part_required(parts[u], &mut required);
            u += 1;
        }
        self.raw(b"]");
        let mut bodies = [None; MAX_UNIONS];
        let mut u = 0;
        while u < MAX_UNIONS {
            bodies[u] = match parts[u] {
                Part::Tagged(_, _, body) | Part::Body(body) => body,
                _ => None,
            };
            u += 1;
        }
        self.alias_groups(object, &bodies, &mut first);
        if let Some(values) = flattened_map(object) {
            self.key(&mut first, "additionalProperties");
            self.schema(values, Extras::NONE, NO_BOUNDS);
        }
        self.raw(b"}");
    }

    const fn part_properties(&mut self, part: Part<'_>, props: &mut bool) {
        match part {
            Part::Nothing => {}
            Part::Keyed(key, content) => self.property(key, content, props),
            Part::Tagged(tag, value, body) => {
                self.constant_property(tag, value, props);
                if let Some(body) = body {
                    self.properties(body, props);
                }
            }
            Part::Adjacent(tag, value, content_key, content) => {
                self.constant_property(tag, value, props);
                if let Some(content) = content {
                    self.property(content_key, Some(content), props);
                }
            }
            Part::Body(body) => {
                if let Some(body) = body {
                    self.properties(body, props);
                }
            }
        }
    }

    const fn part_required(&mut self, part: Part<'_>, required: &mut bool) {
        match part {
            Part::Nothing => {}
            Part::Keyed(key, _) => self.required_key(key, required),
            Part::Tagged(tag, _, body) => {
                self.required_key(tag, required);
                if let Some(body) = body {
                    self.required(body, required, false);
                }
            }
            Part::Adjacent(tag, _, content_key, content) => {
                self.required_key(tag, required);
                if content.is_some() {
                    self.required_key(content_key, required);
                }
            }
            Part::Body(body) => {
                if let Some(body) = body {
                    self.required(body, required, false);
                }
            }
        }
    }

    const fn constant_property(&mut self, key: &str, value: &str, any: &mut bool) {
        if *any {
            self.raw(b",");
        }
        *any = true;
        self.string(key);
        self.raw(b":");
        self.constant(value);
    }

    /// `None`: `null`, a unit variant's.
    const fn property(&mut self, key: &str, content: Option<&Schema>, any: &mut bool) {
        if *any {
            self.raw(b",");
        }
        *any = true;
        self.string(key);
        self.raw(b":");
        match content {
            Some(content) => self.schema(content, Extras::NONE, NO_BOUNDS),
            None => self.raw(b"{\"type\":\"null\"}"),
        }
    }

    const fn required_key(&mut self, key: &str, any: &mut bool) {
        if *any {
            self.raw(b",");
        }
        *any = true;
        self.string(key);
    }
}

const fn part(member: &Schema) -> Part<'_> {
    match member {
        Schema::External { key, content } => Part::Keyed(key, Some(content)),
        Schema::Tagged { tag, value, body } => Part::Tagged(tag, value, as_object(body)),
        Schema::Adjacent {
            tag,
            value,
            content_key,
            content,
        } => Part::Adjacent(tag, value, content_key, *content),
        other => Part::Body(as_object(other)),
    }
}

/// The `k`th choice of the `u`th union: its variants in order (an externally tagged enum's
/// unit variants each one), then `None` when it is optional.
const fn choice(unions: &Unions, u: usize, mut k: usize) -> Part<'static> {
    let (members, _) = unions.list[u];
    let mut i = 0;
    while i < members.len() {
        match core(members[i]) {
            Schema::Enum(names) => {
                if k < names.len() {
                    return Part::Keyed(names[k], None);
                }
                k -= names.len();
            }
            member => {
                if k == 0 {
                    return part(member);
                }
                k -= 1;
            }
        }
        i += 1;
    }
    Part::Nothing
}

impl Writer<'_> {
    /// `$defs` for each recursive struct written inline in `object` (flattened, or with
    /// `unions` a flattened enum's variant) and not written yet, so its self-references
    /// resolve. Whether it wrote any (the object written next then joins it).
    pub(super) const fn inline_defs(&mut self, object: &Object, unions: bool) -> bool {
        let mut open = false;
        self.flattened_defs(object, &mut open);
        if unions {
            let unions = crate::schema::flattened_unions(object);
            let mut u = 0;
            while u < unions.len {
                let (members, _) = unions.list[u];
                let mut i = 0;
                while i < members.len() {
                    let body = match core(members[i]) {
                        Schema::Tagged { body, .. } => *body,
                        _ => members[i],
                    };
                    self.def(body, &mut open);
                    if let Some(inner) = as_object(body) {
                        self.flattened_defs(inner, &mut open);
                    }
                    i += 1;
                }
                u += 1;
            }
        }
        if open {
            self.raw(b"}");
        }
        open
    }

    const fn flattened_defs(&mut self, object: &Object, open: &mut bool) {
        let mut f = 0;
        while f < object.flatten.len() {
            let schema = object.flatten[f].schema;
            self.def(schema, open);
            if let Some(inner) = as_object(schema) {
                self.flattened_defs(inner, open);
            }
            f += 1;
        }
    }

    /// When `schema` is a recursive struct not written yet.
    const fn def(&mut self, schema: &Schema, open: &mut bool) {
        if let Some((anchor, anchored)) = anchored(schema) {
            if !self.written(anchor) {
                if *open {
                    self.raw(b",");
                } else {
                    self.raw(b"{\"$defs\":{");
                    *open = true;
                }
                self.string(anchor);
                self.raw(b":");
                self.schema(anchored, Extras::NONE, NO_BOUNDS);
            }
        }
    }
}

/// Through wrappers, not into fields.
const fn anchored(mut schema: &Schema) -> Option<(&'static str, &Schema)> {
    loop {
        match schema {
            Schema::Anchored { anchor, .. } => return Some((anchor, schema)),
            Schema::Bounded { inner, .. }
            | Schema::Limited { inner, .. }
            | Schema::Lenient(inner)
            | Schema::Described { inner, .. } => schema = inner,
            _ => return None,
        }
    }
}
