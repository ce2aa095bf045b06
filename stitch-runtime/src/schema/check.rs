//! Checks on a type's schema tree that run during compilation, where the type is used as a
//! tool ([`crate::tool`]): its arguments must be an object, and OpenAI's strict mode cannot
//! say every schema stitch writes. A failed check is a compile error whose message names what
//! is wrong and where (`const` evaluation in a generic function, so it is reported by `cargo
//! build`, at the `tool::…::<T>` call that names the type).

use crate::schema::{Object, Schema};

/// A message built during compilation (`panic!` in `const` takes one `&str` argument).
pub(crate) struct Message {
    buf: [u8; 512],
    len: usize,
}

impl Message {
    const fn new() -> Message {
        Message {
            buf: [0; 512],
            len: 0,
        }
    }

    const fn push(mut self, text: &str) -> Message {
        let bytes = text.as_bytes();
        let mut i = 0;
        // Cut at a character boundary if the buffer fills (names are ASCII in practice).
        while i < bytes.len() && self.len < self.buf.len() {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        while self.len > 0 && core::str::from_utf8(self.buf.split_at(self.len).0).is_err() {
            self.len -= 1;
        }
        self
    }

    /// The text.
    pub(crate) const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "stitch: this type cannot be a tool's arguments",
        }
    }
}

/// What a schema that is not an object is, for the message.
const fn kind(schema: &Schema) -> &'static str {
    match schema {
        Schema::Any => "any JSON value (`serde_json::Value` or an opaque type)",
        Schema::Null | Schema::Boolean | Schema::Integer { .. } | Schema::Number => {
            "a number, boolean or null"
        }
        Schema::String | Schema::Char => "a string",
        Schema::Enum(_) => "a string (an enum whose variants are all units)",
        Schema::Array { .. } | Schema::OneOrMany(_) => "an array (a sequence or a `OneOrMany`)",
        Schema::Tuple(_) => "an array (a tuple)",
        Schema::OneOf(_) => {
            "an enum with a unit variant, which serde writes as a string (tag the enum: `#[serde(tag = \"…\")]`)"
        }
        Schema::AnyOf(_) => "an untagged enum with a member that is not an object",
        Schema::Anchored { inner, .. }
        | Schema::Bounded { inner, .. }
        | Schema::Described { inner, .. } => kind(inner),
        _ => "not an object",
    }
}

/// Why a type with this schema cannot be a tool's arguments (every provider takes an object
/// at the root), or `None` when it can. A user's schema text is taken at its word.
pub(crate) const fn tool_root(schema: &Schema) -> Option<Message> {
    if crate::schema::is_object(schema) || matches!(core(schema), Schema::Raw(_)) {
        return None;
    }
    Some(
        Message::new()
            .push("stitch: a tool's arguments must be a JSON object (a struct with named fields, or an enum whose every variant is an object: internally or adjacently tagged, or externally tagged with data); this type is ")
            .push(kind(schema)),
    )
}

/// Why OpenAI's strict mode cannot take a tool with this schema, or `None` when it can.
///
/// Strict mode wants an object with properties at the root (no `anyOf` there), every object
/// closed (`additionalProperties: false`), and has no `prefixItems`: so an enum's arguments,
/// a map, a flattened map and a tuple are refused, naming the field. Rewriting them into
/// something strict mode takes would advertise other values than the type accepts.
pub(crate) const fn strict(schema: &Schema) -> Option<Message> {
    if let Some(message) = tool_root(schema) {
        return Some(message);
    }
    let root = core(schema);
    if !matches!(root, Schema::Object(_) | Schema::Raw(_)) {
        let what = match root {
            Schema::Map(_) => "a map, whose keys strict mode cannot leave open",
            _ => "an enum: strict mode requires the root to be an object with properties, not `anyOf`",
        };
        return Some(
            Message::new()
                .push("stitch: `tool::openai_strict` cannot take this type: its arguments are ")
                .push(what)
                .push("; give it the non-strict definition (`tool::openai`)"),
        );
    }
    match find(schema, "") {
        Some((what, field)) => {
            let message = Message::new()
                .push("stitch: `tool::openai_strict` cannot express ")
                .push(what);
            let message = if field.is_empty() {
                message
            } else {
                message.push(" at field `").push(field).push("`")
            };
            Some(message.push(
                "; strict mode would accept other values than the type does, so give this tool the non-strict definition (`tool::openai`)",
            ))
        }
        None => None,
    }
}

/// `schema` without an anchor, bounds or a description around it.
const fn core(mut schema: &Schema) -> &Schema {
    while let Schema::Anchored { inner, .. }
    | Schema::Bounded { inner, .. }
    | Schema::Described { inner, .. } = schema
    {
        schema = inner;
    }
    schema
}

/// The first part of `schema` strict mode cannot say, and the innermost field it sits in.
const fn find(schema: &Schema, field: &'static str) -> Option<(&'static str, &'static str)> {
    match schema {
        Schema::Tuple(_) => Some(("a tuple (`prefixItems`)", field)),
        Schema::Map(_) => Some((
            "a map (an object with open keys: strict mode closes every object)",
            field,
        )),
        Schema::Array { items, .. } => find(items, field),
        Schema::OneOrMany(item) => find(item, field),
        Schema::Object(object) => find_in(object, field),
        Schema::OneOf(members) | Schema::AnyOf(members) => {
            let mut i = 0;
            while i < members.len() {
                if let Some(found) = find(members[i], field) {
                    return Some(found);
                }
                i += 1;
            }
            None
        }
        Schema::Tagged { body, .. } => find(body, field),
        Schema::Adjacent {
            content: Some(content),
            ..
        } => find(content, field),
        Schema::External { content, .. } => find(content, field),
        Schema::Anchored { inner, .. }
        | Schema::Bounded { inner, .. }
        | Schema::Described { inner, .. } => find(inner, field),
        _ => None,
    }
}

const fn find_in(object: &Object, field: &'static str) -> Option<(&'static str, &'static str)> {
    let mut i = 0;
    while i < object.properties.len() {
        let p = &object.properties[i];
        if let Some(found) = find(p.schema, p.name) {
            return Some(found);
        }
        i += 1;
    }
    let mut f = 0;
    while f < object.flatten.len() {
        let flattened = object.flatten[f].schema;
        if let Schema::Map(_) = core(flattened) {
            return Some(("a flattened map (open keys beside the fields)", field));
        }
        if let Some(found) = find(flattened, field) {
            return Some(found);
        }
        f += 1;
    }
    None
}
