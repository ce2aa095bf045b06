//! Compile-time checks of a type's schema tree where it is used as a tool (`tool::*`): its
//! arguments must be an object, and a provider's strict subset must say the type exactly. A
//! failed check is a `const` panic, reported by `cargo build` at the `tool::…::<T>` call.

use self::same::same;
use crate::schema::{core, Object, Schema};

mod same;

/// Built during compilation: `panic!` in `const` takes one `&str` argument.
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
        // Cut at a character boundary if the buffer fills.
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

    pub(crate) const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "stitch: this type cannot be a tool's arguments",
        }
    }
}

const fn kind(schema: &Schema) -> &'static str {
    match core(schema) {
        Schema::Any => "any JSON value (`serde_json::Value` or an opaque type)",
        Schema::Null
        | Schema::Boolean
        | Schema::Integer { .. }
        | Schema::Number
        | Schema::Float32 => {
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
        _ => "not an object",
    }
}

/// Why the type cannot be a tool's arguments (every provider takes an object at the root); a
/// user's schema text is taken at its word.
pub(crate) const fn tool_root(schema: &Schema) -> Option<Message> {
    if crate::schema::is_object(schema) || matches!(core(schema), Schema::Raw(_)) {
        return match unbounded(schema, "") {
            Some(field) => Some(
                Message::new()
                    .push("stitch: a schema cannot say the object at `")
                    .push(field)
                    .push("` (the root when empty): it flattens more than 4 enums, or enums whose variants combine into more than 64 objects (one per choice of a variant of each); flatten fewer enums into one struct, or nest them under fields"),
            ),
            None => None,
        };
    }
    Some(
        Message::new()
            .push("stitch: a tool's arguments must be a JSON object (a struct with named fields, or an enum whose every variant is an object: internally or adjacently tagged, or externally tagged with data); this type is ")
            .push(kind(schema)),
    )
}

/// Why OpenAI's strict mode cannot take the type: it wants an object with properties at the
/// root, every object closed, and no `prefixItems`. Rewriting such a part would advertise
/// other values than the type accepts, so it is refused, naming the field.
pub(crate) const fn strict(schema: &Schema) -> Option<Message> {
    if let Some(message) = tool_root(schema) {
        return Some(message);
    }
    let root = core(schema);
    let flattens = matches!(root, Schema::Object(o) if crate::schema::flattened_unions(o).len > 0);
    if flattens || !matches!(root, Schema::Object(_) | Schema::Raw(_)) {
        let what = match root {
            Schema::Map(_) => "a map, whose keys strict mode cannot leave open",
            Schema::Object(_) => "a struct that flattens an enum, which a schema says as an `anyOf` of objects: strict mode requires the root to be an object with properties, not `anyOf`",
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

/// The innermost field holding an object whose flattened unions are past `schema::MAX_UNIONS`.
const fn unbounded(schema: &Schema, field: &'static str) -> Option<&'static str> {
    match core(schema) {
        Schema::Array { items: inner, .. } | Schema::OneOrMany(inner) | Schema::Map(inner) => {
            unbounded(inner, field)
        }
        Schema::External { content, .. }
        | Schema::Adjacent {
            content: Some(content),
            ..
        } => unbounded(content, field),
        Schema::Tagged { body, .. } => unbounded(body, field),
        Schema::Tuple(members) | Schema::OneOf(members) | Schema::AnyOf(members) => {
            let mut i = 0;
            while i < members.len() {
                if let Some(found) = unbounded(members[i], field) {
                    return Some(found);
                }
                i += 1;
            }
            None
        }
        Schema::Object(object) => {
            if !crate::schema::flattened_unions(object).bounded() {
                return Some(field);
            }
            let mut i = 0;
            while i < object.properties.len() {
                let p = &object.properties[i];
                if let Some(found) = unbounded(p.schema(), p.name()) {
                    return Some(found);
                }
                i += 1;
            }
            let mut f = 0;
            while f < object.flatten.len() {
                if let Some(found) = unbounded(object.flatten[f].schema, field) {
                    return Some(found);
                }
                f += 1;
            }
            None
        }
        _ => None,
    }
}

/// The first part strict mode cannot say, and the innermost field it sits in.
const fn find(schema: &Schema, field: &'static str) -> Option<(&'static str, &'static str)> {
    match core(schema) {
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
        _ => None,
    }
}

const fn find_in(object: &Object, field: &'static str) -> Option<(&'static str, &'static str)> {
    let mut i = 0;
    while i < object.properties.len() {
        let p = &object.properties[i];
        if let Some(found) = find(p.schema(), p.name()) {
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

/// The reference-free subsets: Gemini's `parameters` and Anthropic's strict tool use.
#[derive(Clone, Copy)]
pub(crate) enum Subset {
    Gemini,
    AnthropicStrict,
}

/// Why `provider`'s subset cannot write the type: with no references nor `prefixItems`, a
/// recursion is unrolled and cut, a mixed tuple is unwritable; such a part is left out where
/// the type allows (an optional field, a union member, on Gemini a list offered empty), else
/// named. Mirrors what `surface/providers/subset.rs` leaves out.
pub(crate) const fn subset(schema: &Schema, provider: Subset) -> Option<Message> {
    if let Some(message) = tool_root(schema) {
        return Some(message);
    }
    let (function, format, instead) = match provider {
        Subset::Gemini => (
            "`tool::gemini`",
            "Gemini's `parameters`",
            "make the field optional (`Option` or `#[serde(default)]`), or give this tool `tool::gemini_json_schema`",
        ),
        Subset::AnthropicStrict => (
            "`tool::anthropic_strict`",
            "Anthropic's strict mode",
            "make the field optional (`Option` or `#[serde(default)]`), or give this tool the non-strict definition (`tool::anthropic`)",
        ),
    };
    match unwritable(schema, "", provider, 0) {
        Some((what, field)) => {
            let message = Message::new()
                .push("stitch: ")
                .push(function)
                .push(" cannot write ")
                .push(what);
            let message = if field.is_empty() {
                message
            } else {
                message.push(" at required field `").push(field).push("`")
            };
            Some(
                message
                    .push(", which ")
                    .push(format)
                    .push(" cannot describe; ")
                    .push(instead),
            )
        }
        None => None,
    }
}

const TUPLE: &str = "a tuple of different types (no `prefixItems`)";
const SELF_REFERENCE: &str =
    "a reference to the type's own type (it has no references, and an unrolled copy cannot end there)";

/// The first part the subset can neither write nor leave out, with its innermost field;
/// `min_items` bounds the array form of `schema`. A `Ref` counts as unwritable: the copy at
/// the recursion's cut is written only if the reference can be left out there.
const fn unwritable(
    schema: &Schema,
    field: &'static str,
    provider: Subset,
    min_items: usize,
) -> Option<(&'static str, &'static str)> {
    match schema {
        Schema::Ref(_) => Some((SELF_REFERENCE, field)),
        Schema::Tuple(members) => {
            let mut i = 1;
            while i < members.len() {
                if !same(members[0], members[i]) {
                    return Some((TUPLE, field));
                }
                i += 1;
            }
            if members.is_empty() {
                None
            } else {
                unwritable(members[0], field, provider, 0)
            }
        }
        Schema::Array {
            items,
            min_items: own,
            ..
        } => {
            let min = if *own > min_items { *own } else { min_items };
            items_unwritable(items, field, provider, min)
        }
        // `anyOf [item, array of item]`: the array member stands alone if it can.
        Schema::OneOrMany(item) => items_unwritable(item, field, provider, min_items),
        // A map whose values cannot be written is offered empty.
        Schema::Map(_) => None,
        Schema::Object(object) => object_unwritable(object, true, provider),
        Schema::OneOf(members) | Schema::AnyOf(members) => {
            // A member that cannot be written is left out; all of them cannot be.
            let mut first = None;
            let mut i = 0;
            while i < members.len() {
                match unwritable(members[i], field, provider, 0) {
                    None => return None,
                    Some(found) => {
                        if first.is_none() {
                            first = Some(found);
                        }
                    }
                }
                i += 1;
            }
            first
        }
        Schema::Tagged { body, .. } => unwritable(body, field, provider, 0),
        Schema::Adjacent {
            content: Some(content),
            ..
        } => unwritable(content, field, provider, 0),
        Schema::External { content, .. } => unwritable(content, field, provider, 0),
        Schema::Anchored { inner, .. } | Schema::Described { inner, .. } => {
            unwritable(inner, field, provider, min_items)
        }
        Schema::Bounded { inner, min, .. } => {
            let min = if *min > min_items { *min } else { min_items };
            unwritable(inner, field, provider, min)
        }
        Schema::Limited { inner, .. } | Schema::Lenient(inner) => {
            unwritable(inner, field, provider, min_items)
        }
        _ => None,
    }
}

/// Gemini offers a list of unwritable items empty where it may be empty.
const fn items_unwritable(
    items: &Schema,
    field: &'static str,
    provider: Subset,
    min_items: usize,
) -> Option<(&'static str, &'static str)> {
    match unwritable(items, field, provider, 0) {
        Some(found) => match provider {
            Subset::Gemini if min_items == 0 => None,
            _ => Some(found),
        },
        None => None,
    }
}

/// `required`: whether the object's own properties are required where they say so.
const fn object_unwritable(
    object: &Object,
    required: bool,
    provider: Subset,
) -> Option<(&'static str, &'static str)> {
    let mut i = 0;
    while i < object.properties.len() {
        let p = &object.properties[i];
        if required && p.required() {
            if let Some(found) = unwritable(p.schema(), p.name(), provider, 0) {
                return Some(found);
            }
        }
        i += 1;
    }
    let mut f = 0;
    while f < object.flatten.len() {
        let flattened = &object.flatten[f];
        let found = match crate::schema::as_object(flattened.schema) {
            Some(inner) => object_unwritable(inner, required && !flattened.optional, provider),
            None if required && !flattened.optional => {
                unwritable(flattened.schema, "", provider, 0)
            }
            None => None,
        };
        if found.is_some() {
            return found;
        }
        f += 1;
    }
    None
}
