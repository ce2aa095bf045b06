//! An object with a flattened union (`#[serde(flatten)] act: Act` for an enum with data, of
//! any tagging): JSON Schema cannot add a union's members to an object's properties, so the
//! object is written as the union itself, `{"type":"object","anyOf":[…]}`, each member an
//! object of the parent's properties and one variant's keys (its tag, its fields, its key or
//! content key): `docs/rules.md#flattened-unions`. The members are `anyOf`, the widest truth:
//! an externally tagged variant is the first key naming one, whatever keys follow.

use super::parts::flattened_map;
use super::{Extras, Writer, NO_BOUNDS};
use crate::schema::{as_object, core, Object, Schema};

pub(super) use crate::schema::flattened_union;

/// One variant's keys, as a member adds them to the parent's.
#[derive(Clone, Copy)]
enum Part<'s> {
    /// The parent alone (a flattened `Option` read as `None`).
    Nothing,
    /// An externally tagged variant: its name as a key, holding its content (`None`: a unit
    /// variant, `null`).
    Keyed(&'s str, Option<&'s Schema>),
    /// An internally tagged variant: the tag's constant and the fields of `body`.
    Tagged(&'s str, &'s str, Option<&'s Object>),
    /// An adjacently tagged variant: the tag's constant, the content under its key.
    Adjacent(&'s str, &'s str, &'s str, Option<&'s Schema>),
    /// An untagged variant's fields (`None`: a member that is no object, which adds nothing).
    Body(Option<&'s Object>),
}

impl Writer<'_> {
    /// `object` (with `tag`, an internally tagged variant's constant) holding the flattened
    /// union `members`, as the union of one object per variant.
    pub(super) const fn distributed(
        &mut self,
        object: &Object,
        extras: Extras,
        tag: Option<(&str, &str)>,
        union: (&[&Schema], bool),
    ) {
        let (members, optional) = union;
        let mut first = self.open(extras);
        self.key(&mut first, "type");
        self.string("object");
        self.key(&mut first, "anyOf");
        self.raw(b"[");
        let mut any = false;
        let mut i = 0;
        while i < members.len() {
            match core(members[i]) {
                // An externally tagged enum's unit variants: each name a key holding `null`.
                Schema::Enum(names) => {
                    let mut n = 0;
                    while n < names.len() {
                        self.member(object, tag, Part::Keyed(names[n], None), &mut any);
                        n += 1;
                    }
                }
                member => self.member(object, tag, part(member), &mut any),
            }
            i += 1;
        }
        if optional {
            self.member(object, tag, Part::Nothing, &mut any);
        }
        self.raw(b"]}");
    }

    /// One member: the parent's properties and the variant's keys, both required as each
    /// says; the parent's unknown keys as it says (a flattened map's values, or none).
    const fn member(
        &mut self,
        object: &Object,
        tag: Option<(&str, &str)>,
        part: Part<'_>,
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
        match part {
            Part::Nothing => {}
            Part::Keyed(key, content) => self.property(key, content, &mut props),
            Part::Tagged(tag, value, body) => {
                self.constant_property(tag, value, &mut props);
                if let Some(body) = body {
                    self.properties(body, &mut props);
                }
            }
            Part::Adjacent(tag, value, content_key, content) => {
                self.constant_property(tag, value, &mut props);
                if let Some(content) = content {
                    self.property(content_key, Some(content), &mut props);
                }
            }
            Part::Body(body) => {
                if let Some(body) = body {
                    self.properties(body, &mut props);
                }
            }
        }
        self.raw(b"}");
        self.key(&mut first, "required");
        self.raw(b"[");
        let mut required = false;
        if let Some((key, _)) = tag {
            self.required_key(key, &mut required);
        }
        self.required(object, &mut required, false);
        match part {
            Part::Nothing => {}
            Part::Keyed(key, _) => self.required_key(key, &mut required),
            Part::Tagged(tag, _, body) => {
                self.required_key(tag, &mut required);
                if let Some(body) = body {
                    self.required(body, &mut required, false);
                }
            }
            Part::Adjacent(tag, _, content_key, content) => {
                self.required_key(tag, &mut required);
                if content.is_some() {
                    self.required_key(content_key, &mut required);
                }
            }
            Part::Body(body) => {
                if let Some(body) = body {
                    self.required(body, &mut required, false);
                }
            }
        }
        self.raw(b"]");
        let body = match part {
            Part::Tagged(_, _, Some(body)) | Part::Body(Some(body)) => Some(body),
            _ => None,
        };
        self.alias_groups(object, body, &mut first);
        if let Some(values) = flattened_map(object) {
            self.key(&mut first, "additionalProperties");
            self.schema(values, Extras::NONE, NO_BOUNDS);
        }
        self.raw(b"}");
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

    /// `key` holding `content` (`None`: `null`, a unit variant's).
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

/// What a union's member adds to the parent's object.
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
