//! The fast path of `from_value`: whether a `Value` holds nothing a rule could act on (JSON text,
//! R8's `null`, nesting past `MAX_DEPTH`), so reading it straight into the type (`json::de`) gives
//! the walk's answer. That read moves strings out, so a plain value must leave the walk nothing to
//! repair: a root `null` is plain only where the walk leaves it to serde or R8 drops it first.

use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::json::depth::MAX_DEPTH;
use crate::json::text_list::{is_text_list, skip_ws, skip_ws_back};
use crate::schema::{core, Property, Schema};
use crate::walk::Fields;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Plain {
    /// A rule could act: the walk goes first.
    No,
    /// No rule could act.
    Yes,
    /// No rule could act but R8 on root `null`s, which [`Root::drop_nulls`] drops first.
    AfterR8,
}

/// Whether no rule could act in a tool's arguments. A root list whose items take any string
/// (`root`) is not looked into: no rule acts on them, and another kind makes the read fail.
pub(crate) fn plain_args(value: &Value, root: &Root) -> Plain {
    let plain = match value {
        Value::Array(items) => plain_items(items, 0),
        Value::Object(map) => return plain_root(map, root),
        Value::String(s) => plain_string(s),
        Value::Null | Value::Bool(_) | Value::Number(_) => true,
    };
    if plain {
        Plain::Yes
    } else {
        Plain::No
    }
}

/// What a type's schema says of its root lists (`Root::of`); a key naming no property has its
/// list looked into.
#[derive(Clone, Copy)]
pub(crate) struct Root {
    /// For a root `null`: plain unless R8 leaves it out; `None` when unknown (never plain).
    fields: Option<&'static Fields>,
    /// No field takes its `null` as left out: every root `null` is plain.
    nulls_plain: bool,
    properties: &'static [Property],
    /// Bit `i`: property `i`'s array form takes any string as an item (past the 64th, looked into).
    string_items: u64,
}

impl Root {
    /// A root whose schema is not known here: every list is looked into.
    pub(crate) const BLIND: Root = Root {
        fields: None,
        nulls_plain: false,
        properties: &[],
        string_items: 0,
    };

    /// Only a struct without `flatten` (whose keys reach serde's buffer) and with no escaped wire
    /// name (the schema holds names JSON-escaped; keys are compared unescaped) is read by property.
    pub(crate) const fn of(schema: &'static Schema, fields: Option<&'static Fields>) -> Root {
        let Schema::Object(object) = core(schema) else {
            return Root::BLIND;
        };
        if !object.flatten.is_empty() {
            return Root::BLIND;
        }
        let properties = object.properties;
        let mut string_items = 0u64;
        let mut i = 0;
        while i < properties.len() {
            if has_escape(properties[i].name()) {
                return Root::BLIND;
            }
            if i < 64 && items_take_any_string(properties[i].schema()) {
                string_items |= 1 << i;
            }
            i += 1;
        }
        let nulls_plain = match fields {
            Some(fields) => !fields.leaves_out_null(),
            None => false,
        };
        Root {
            fields,
            nulls_plain,
            properties,
            string_items,
        }
    }

    /// The `null` sent under `key`: serde's (`Yes`), left out (`AfterR8`), or unknown (`No`).
    #[inline]
    fn null_at(&self, key: &str) -> Plain {
        match self.fields {
            _ if self.nulls_plain => Plain::Yes,
            Some(fields) if fields.leaves_out_null_at(key) => Plain::AfterR8,
            Some(_) => Plain::Yes,
            None => Plain::No,
        }
    }

    /// Drops the root `null`s that R8 takes as left out, as the walk's apply pass does.
    pub(crate) fn drop_nulls(&self, args: &mut Value) {
        if let (Value::Object(map), Some(fields)) = (args, self.fields) {
            map.retain(|key, value| !(value.is_null() && fields.leaves_out_null_at(key)));
        }
    }

    #[inline]
    fn string_items(&self, key: &str) -> bool {
        if self.string_items == 0 {
            return false;
        }
        let mut bits = self.string_items;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            if self.properties[i].name() == key {
                return true;
            }
            bits &= bits - 1;
        }
        false
    }
}

const fn has_escape(name: &str) -> bool {
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether `schema` is a list whose items take any string (not through constraints: a
/// `pattern` judges the content).
const fn items_take_any_string(schema: &Schema) -> bool {
    match unwrapped(schema) {
        Schema::Array { items, .. } | Schema::OneOrMany(items) => {
            matches!(unwrapped(items), Schema::String)
        }
        _ => false,
    }
}

/// Through an anchor, item bounds and a description, not constraints.
const fn unwrapped(mut schema: &Schema) -> &Schema {
    while let Schema::Anchored { inner, .. }
    | Schema::Bounded { inner, .. }
    | Schema::Described { inner, .. } = schema
    {
        schema = inner;
    }
    schema
}

fn plain_root(map: &Map<String, Value>, root: &Root) -> Plain {
    let mut found = Plain::Yes;
    for (key, item) in map {
        let plain = match item {
            Value::String(s) => plain_string(s),
            Value::Array(items) => root.string_items(key) || plain_items(items, 1),
            Value::Object(map) => plain_members(map, 1),
            Value::Bool(_) | Value::Number(_) => true,
            Value::Null => match root.null_at(key) {
                Plain::No => false,
                Plain::Yes => true,
                Plain::AfterR8 => {
                    found = Plain::AfterR8;
                    true
                }
            },
        };
        if !plain {
            return Plain::No;
        }
    }
    found
}

/// Strings and scalars are answered in line; only a container is a call.
fn plain_items(items: &[Value], depth: usize) -> bool {
    if depth >= MAX_DEPTH {
        return false;
    }
    for item in items {
        let plain = match item {
            Value::String(s) => plain_string(s),
            Value::Array(items) => plain_items(items, depth + 1),
            Value::Object(map) => plain_members(map, depth + 1),
            Value::Null | Value::Bool(_) | Value::Number(_) => true,
        };
        if !plain {
            return false;
        }
    }
    true
}

/// A `null` member is not plain.
fn plain_members(map: &Map<String, Value>, depth: usize) -> bool {
    if depth >= MAX_DEPTH {
        return false;
    }
    for item in map.values() {
        let plain = match item {
            Value::String(s) => plain_string(s),
            Value::Array(items) => plain_items(items, depth + 1),
            Value::Object(map) => plain_members(map, depth + 1),
            Value::Bool(_) | Value::Number(_) => true,
            Value::Null => false,
        };
        if !plain {
            return false;
        }
    }
    true
}

/// Whether `s` is not JSON text; most strings are answered by their first byte.
#[inline]
fn plain_string(s: &str) -> bool {
    match s.as_bytes().first() {
        Some(&b) if MAY_OPEN[b as usize] => maybe_json(s),
        _ => true,
    }
}

/// The bytes that can start JSON text: white space, and the first byte of every JSON value.
static MAY_OPEN: [bool; 256] = {
    let mut table = [false; 256];
    let opens = b" \t\n\r[{\"-0123456789tfn";
    let mut i = 0;
    while i < opens.len() {
        table[opens[i] as usize] = true;
        i += 1;
    }
    table
};

/// A literal is compared, a number checked by grammar, an array scanned; the rest parsed.
#[inline(never)]
fn maybe_json(s: &str) -> bool {
    let text = trim_json_space(s);
    match text.as_bytes().first() {
        None => true,
        Some(b't' | b'f' | b'n') => !matches!(text, "true" | "false" | "null"),
        Some(b'-' | b'0'..=b'9') => !is_json_number(text.as_bytes()),
        Some(b'[') => !is_text_list(text, |_| true, Bounds::NONE),
        Some(_) => serde_json::from_str::<IgnoredAny>(text).is_err(),
    }
}

/// Written out: `str::trim_matches` may stay out of line, and most words come here.
#[inline]
fn trim_json_space(s: &str) -> &str {
    let b = s.as_bytes();
    let start = skip_ws(b, 0);
    let end = skip_ws_back(b, start, b.len());
    // Both ends are next to ASCII bytes (or the string's ends): char boundaries.
    s.get(start..end).unwrap_or("")
}

fn is_json_number(b: &[u8]) -> bool {
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then_some(i)
    };
    let mut i = usize::from(b.first() == Some(&b'-'));
    i = match b.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => match digits(i) {
            Some(i) => i,
            None => return false,
        },
        _ => return false,
    };
    if b.get(i) == Some(&b'.') {
        i = match digits(i + 1) {
            Some(i) => i,
            None => return false,
        };
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = match digits(i) {
            Some(i) => i,
            None => return false,
        };
    }
    i == b.len()
}

#[cfg(test)]
mod tests;
