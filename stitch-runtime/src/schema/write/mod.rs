//! The const writer: renders a [`Schema`] tree as JSON text during compilation.

use crate::limits::{Limits, Num};
use crate::schema::{str_eq, Object, Schema, ONE_OR_MANY_NOTE};

/// Renders `schema` as JSON text into `buf`, returning the length the text needs; nothing is
/// written past `buf`'s end, so a call with an empty buffer measures.
pub const fn write(schema: &Schema, buf: &mut [u8]) -> usize {
    let mut w = Writer {
        buf,
        at: 0,
        anchors: [""; MAX_ANCHORS],
        anchored: 0,
        limits: None,
        lenient: false,
    };
    w.schema(schema, Extras::NONE, NO_BOUNDS);
    w.at
}

/// The most bytes of schema text [`ToolArgs::INPUT_SCHEMA`](crate::ToolArgs::INPUT_SCHEMA)
/// holds: a type's constant is a buffer of this size.
pub const MAX_SCHEMA_TEXT: usize = 16 * 1024;

pub const fn len(schema: &Schema) -> usize {
    write(schema, &mut [])
}

pub const fn as_str(bytes: &[u8]) -> &str {
    match core::str::from_utf8(bytes) {
        Ok(s) => s,
        // Only string slices and ASCII are ever written.
        Err(_) => panic!("stitch: a schema's text is not UTF-8"),
    }
}

/// Keys a property adds to its schema's object.
#[derive(Clone, Copy)]
struct Extras {
    description: Option<&'static str>,
    default: Option<&'static str>,
    /// `"deprecated": true`, the mark the strict formats leave an alias out by.
    alias: bool,
}

impl Extras {
    const NONE: Extras = Extras {
        description: None,
        default: None,
        alias: false,
    };
}

const NO_BOUNDS: (usize, usize) = (0, usize::MAX);

/// Distinct recursive types one schema names; past that one is written whole again (a schema
/// that large is far past any provider's limits).
const MAX_ANCHORS: usize = 32;

struct Writer<'a> {
    buf: &'a mut [u8],
    at: usize,
    /// A recursive type met again is a `$ref` to its anchor, so no anchor is written twice.
    anchors: [&'static str; MAX_ANCHORS],
    anchored: usize,
    /// For each number or string inside the field being written.
    limits: Option<&'static Limits>,
    /// `lenient_scalars`.
    lenient: bool,
}

impl Writer<'_> {
    const fn written(&self, name: &str) -> bool {
        let mut i = 0;
        while i < self.anchored {
            if str_eq(self.anchors[i], name) {
                return true;
            }
            i += 1;
        }
        false
    }

    const fn note_anchor(&mut self, name: &'static str) {
        if self.anchored < MAX_ANCHORS {
            self.anchors[self.anchored] = name;
            self.anchored += 1;
        }
    }

    const fn raw(&mut self, bytes: &[u8]) {
        // One copy of the slice (cheap in const evaluation, unlike a loop over bytes).
        let end = self.at + bytes.len();
        if end <= self.buf.len() {
            let (_, tail) = self.buf.split_at_mut(self.at);
            let (dest, _) = tail.split_at_mut(bytes.len());
            dest.copy_from_slice(bytes);
        }
        self.at = end;
    }

    const fn s(&mut self, text: &str) {
        self.raw(text.as_bytes());
    }

    const fn string(&mut self, text: &str) {
        self.raw(b"\"");
        self.escaped(text);
        self.raw(b"\"");
    }

    /// The tree holds its strings already JSON-escaped, so they are copied whole.
    const fn escaped(&mut self, text: &str) {
        self.raw(text.as_bytes());
    }

    const fn unsigned(&mut self, mut n: u128) {
        let mut digits = [0u8; 40];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.raw(digits.split_at(at).1);
    }

    const fn signed(&mut self, n: i128) {
        if n < 0 {
            self.raw(b"-");
        }
        self.unsigned(n.unsigned_abs());
    }

    const fn key(&mut self, first: &mut bool, key: &str) {
        if !*first {
            self.raw(b",");
        }
        *first = false;
        self.string(key);
        self.raw(b":");
    }

    /// Returns whether no key is written yet.
    const fn open(&mut self, extras: Extras) -> bool {
        self.raw(b"{");
        let mut first = true;
        if let Some(description) = extras.description {
            self.key(&mut first, "description");
            self.string(description);
        }
        if let Some(default) = extras.default {
            self.key(&mut first, "default");
            self.s(default);
        }
        if extras.alias {
            self.key(&mut first, "deprecated");
            self.raw(b"true");
        }
        first
    }

    const fn schema(&mut self, schema: &Schema, extras: Extras, bounds: (usize, usize)) {
        if self.lenient && self.lenient_at(schema, extras, bounds) {
            return;
        }
        match schema {
            Schema::Any => {
                self.open(extras);
                self.raw(b"}");
            }
            Schema::Null => self.typed(extras, "null"),
            Schema::Boolean => self.typed(extras, "boolean"),
            Schema::Number | Schema::Float32 | Schema::Integer { .. } => {
                self.number(schema, extras)
            }
            Schema::String => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("string");
                self.string_limits(&mut first);
                self.raw(b"}");
            }
            Schema::Char => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("string");
                self.key(&mut first, "minLength");
                self.raw(b"1");
                self.key(&mut first, "maxLength");
                self.raw(b"1");
                self.raw(b"}");
            }
            Schema::Enum(names) => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("string");
                self.key(&mut first, "enum");
                self.strings(names);
                self.raw(b"}");
            }
            Schema::Array {
                items,
                min_items,
                max_items,
                unique,
            } => {
                let min = if *min_items > bounds.0 {
                    *min_items
                } else {
                    bounds.0
                };
                let max = match max_items {
                    Some(m) if *m < bounds.1 => *m,
                    _ => bounds.1,
                };
                self.array(extras, items, min, max, *unique);
            }
            Schema::Tuple(items) => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("array");
                self.key(&mut first, "prefixItems");
                self.list(items);
                self.key(&mut first, "items");
                self.raw(b"false");
                self.key(&mut first, "minItems");
                self.unsigned(items.len() as u128);
                self.key(&mut first, "maxItems");
                self.unsigned(items.len() as u128);
                self.raw(b"}");
            }
            Schema::Map(values) => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("object");
                if !matches!(values, Schema::Any) {
                    self.key(&mut first, "additionalProperties");
                    self.schema(values, Extras::NONE, NO_BOUNDS);
                }
                self.raw(b"}");
            }
            Schema::Object(object) => self.object(object, extras, None),
            Schema::OneOrMany(item) => {
                let mut first = self.raw_open_note(extras);
                self.key(&mut first, "anyOf");
                self.raw(b"[");
                self.schema(item, Extras::NONE, NO_BOUNDS);
                self.raw(b",");
                self.array(Extras::NONE, item, bounds.0, bounds.1, false);
                self.raw(b"]}");
            }
            Schema::AnyOf(members) => self.keyed_list(extras, "anyOf", members, schema),
            Schema::OneOf(members) => self.keyed_list(extras, "oneOf", members, schema),
            Schema::Tagged { tag, value, body } => match body {
                Schema::Object(object) => self.object(object, extras, Some((tag, value))),
                Schema::Anchored {
                    anchor,
                    inner: Schema::Object(object),
                } => {
                    // A recursive struct as a variant's content: its self-references mean the
                    // struct without the tag, so the plain struct carries the anchor, under `$defs`.
                    if self.written(anchor) {
                        self.object(object, extras, Some((tag, value)));
                    } else {
                        self.raw(b"{\"$defs\":{");
                        self.string(anchor);
                        self.raw(b":");
                        self.schema(body, Extras::NONE, NO_BOUNDS);
                        self.raw(b"}");
                        let start = self.at;
                        self.object(object, extras, Some((tag, value)));
                        self.join_after(start);
                    }
                }
                _ => self.object(&Object::EMPTY, extras, Some((tag, value))),
            },
            Schema::Adjacent {
                tag,
                value,
                content_key,
                content,
            } => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("object");
                self.key(&mut first, "properties");
                self.raw(b"{");
                self.string(tag);
                self.raw(b":");
                self.constant(value);
                if let Some(content) = content {
                    self.raw(b",");
                    self.string(content_key);
                    self.raw(b":");
                    self.schema(content, Extras::NONE, NO_BOUNDS);
                }
                self.raw(b"}");
                self.key(&mut first, "required");
                self.raw(b"[");
                self.string(tag);
                if content.is_some() {
                    self.raw(b",");
                    self.string(content_key);
                }
                // serde ignores other keys beside the tag and the content.
                self.raw(b"]}");
            }
            Schema::External { key, content } => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("object");
                self.key(&mut first, "properties");
                self.raw(b"{");
                self.string(key);
                self.raw(b":");
                self.schema(content, Extras::NONE, NO_BOUNDS);
                self.raw(b"}");
                self.key(&mut first, "required");
                self.raw(b"[");
                self.string(key);
                self.raw(b"]");
                self.key(&mut first, "additionalProperties");
                self.raw(b"false}");
            }
            Schema::Raw(text) => self.raw_schema(text, extras),
            Schema::Ref(anchor) => {
                let mut first = self.open(extras);
                self.key(&mut first, "$ref");
                self.raw(b"\"#");
                self.escaped(anchor);
                self.raw(b"\"}");
            }
            Schema::Anchored { anchor, .. } if self.written(anchor) => {
                // Met before: a reference, with the field's item bounds beside it.
                let mut first = self.open(extras);
                self.key(&mut first, "$ref");
                self.raw(b"\"#");
                self.escaped(anchor);
                self.raw(b"\"");
                if bounds.0 > 0 {
                    self.key(&mut first, "minItems");
                    self.unsigned(bounds.0 as u128);
                }
                if bounds.1 != usize::MAX {
                    self.key(&mut first, "maxItems");
                    self.unsigned(bounds.1 as u128);
                }
                self.raw(b"}");
            }
            Schema::Anchored { anchor, inner } => {
                self.note_anchor(anchor);
                self.raw(b"{\"$anchor\":");
                self.string(anchor);
                let start = self.at;
                self.schema(inner, extras, bounds);
                // The inner `{` becomes `,` (or is dropped for an empty object).
                self.join_after(start);
            }
            Schema::Described { description, inner } => {
                let extras = match extras.description {
                    Some(_) => extras,
                    None => Extras {
                        description: Some(description),
                        ..extras
                    },
                };
                self.schema(inner, extras, bounds)
            }
            Schema::Bounded { inner, min, max } => {
                let min = if *min > bounds.0 { *min } else { bounds.0 };
                let max = if *max < bounds.1 { *max } else { bounds.1 };
                self.schema(inner, extras, (min, max))
            }
            Schema::Lenient(inner) => {
                let outer = self.lenient;
                self.lenient = true;
                self.schema(inner, extras, bounds);
                self.lenient = outer;
            }
            Schema::Limited { inner, limits } => {
                let outer = self.limits;
                self.limits = Some(*limits);
                self.schema(inner, extras, bounds);
                self.limits = outer;
            }
        }
    }

    /// Turns the opening brace of the object written from `start`, after `{"$anchor":"…"`, into
    /// a separator.
    const fn join_after(&mut self, start: usize) {
        if start < self.buf.len() {
            let empty = start + 1 < self.buf.len() && self.buf[start + 1] == b'}';
            self.buf[start] = if empty { b' ' } else { b',' };
        }
    }

    const fn num(&mut self, n: Num) {
        match n {
            Num::Int(i) => self.signed(i),
            Num::Float(_, text) => self.s(text),
        }
    }

    const fn typed(&mut self, extras: Extras, ty: &str) {
        let mut first = self.open(extras);
        self.key(&mut first, "type");
        self.string(ty);
        self.raw(b"}");
    }

    const fn constant(&mut self, value: &str) {
        if str_eq(value, Schema::ANY_TAG) {
            self.raw(b"{\"type\":\"string\"}");
            return;
        }
        self.raw(b"{\"type\":\"string\",\"const\":");
        self.string(value);
        self.raw(b"}");
    }

    /// The field's description followed by the list note.
    const fn raw_open_note(&mut self, extras: Extras) -> bool {
        self.raw(b"{");
        let mut first = true;
        self.key(&mut first, "description");
        self.raw(b"\"");
        if let Some(description) = extras.description {
            self.escaped(description);
            self.raw(b" ");
        }
        self.escaped(ONE_OR_MANY_NOTE);
        self.raw(b"\"");
        if let Some(default) = extras.default {
            self.key(&mut first, "default");
            self.s(default);
        }
        if extras.alias {
            self.key(&mut first, "deprecated");
            self.raw(b"true");
        }
        first
    }
}

mod flat;
mod parts;
mod scalars;

// The schema-driven coercer recognises a lenient scalar's text by these patterns.
#[cfg(feature = "json-schema")]
pub(crate) use scalars::{LENIENT_SIGNED, LENIENT_UNSIGNED};
