//! The fast path of `from_value`: whether a `Value` holds nothing any rule could act on, so
//! that reading it straight into the type (`json::de`) gives the walk's answer.
//!
//! Every rule acts on a string that is JSON text (R1, R3, `lenient_scalars`), on a `null` at
//! a defaulted field (R8), or on a value nested past `MAX_DEPTH` (R7). A value with none of
//! these is *plain*: every rule either has nothing to do in it or acts where serde refuses the
//! value, so the direct read fails and the walk runs on what it left. That read moves the
//! strings it hands to an owned `String` (`json::de`), so a plain value must leave the walk
//! nothing to repair: a `null` member is plain only at a root field whose `null` the walk
//! leaves to serde (an `Option`), or that R8 takes as left out, which `tool_args::read_value`
//! then drops before the read (when no record of repairs is asked for).

use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::json::depth::MAX_DEPTH;
use crate::json::text_list::{is_text_list, skip_ws, skip_ws_back};
use crate::schema::{core, Property, Schema};
use crate::walk::Fields;

/// [`plain_args`] knowing nothing of the type: every list looked into.
#[cfg(test)]
pub(crate) fn plain_value(value: &Value) -> bool {
    plain_args(value, &Root::BLIND) == Plain::Yes
}

/// What [`plain_args`] finds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Plain {
    /// A rule could act: the walk goes first.
    No,
    /// No rule could act.
    Yes,
    /// No rule could act but R8 on root members sent as `null`, which [`Root::drop_nulls`]
    /// drops as the walk would.
    AfterR8,
}

/// Whether no rule could act in `value`, a tool's arguments (see the module docs). A `false`
/// costs nothing but the walk.
///
/// A list among the root's members at a position whose items take any string as it is
/// (`Vec<String>`, `OneOrMany<String>`: `root`, a constant of the type) is not looked into.
/// No rule acts on a string item there (the walk skips them too, `walk::walk_seq`), and an
/// item of another kind makes serde refuse the read, after which the walk judges the list as
/// it judges any read that failed.
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

/// What a tool's schema says of the lists among its root members, for [`plain_args`]: the
/// root object's properties, and which of them hold lists of strings taken as they are.
/// A constant of the type (`Root::of`); a key that names no property (an alias, a flattened
/// field's, one serde ignores) has its list looked into as any other.
#[derive(Clone, Copy)]
pub(crate) struct Root {
    /// The struct's fields, for a root member sent as `null`: plain unless R8 takes it as
    /// the field left out (the walk leaves every other `null` to serde); `None` when they are
    /// not known (no member sent as `null` is plain).
    fields: Option<&'static Fields>,
    /// No field takes its `null` as left out: every root `null` is plain.
    nulls_plain: bool,
    properties: &'static [Property],
    /// Bit `i`: property `i`'s array form takes any string as an item. Properties past the
    /// 64th are looked into.
    string_items: u64,
}

impl Root {
    /// The root of a type whose schema is not known here: every list is looked into.
    pub(crate) const BLIND: Root = Root {
        fields: None,
        nulls_plain: false,
        properties: &[],
        string_items: 0,
    };

    /// The root of a type of this schema. Only a struct without `flatten` is read property by
    /// property (a flattened field's keys reach serde's buffer, not a property), and only
    /// when no wire name holds an escape (the schema holds names JSON-escaped; a key is
    /// compared unescaped).
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

    /// What the `null` sent under `key` is: serde's to read as the walk leaves it (`Yes`), the
    /// field left out (`AfterR8`), or not known (`No`).
    #[inline]
    fn null_at(&self, key: &str) -> Plain {
        match self.fields {
            _ if self.nulls_plain => Plain::Yes,
            Some(fields) if fields.leaves_out_null_at(key) => Plain::AfterR8,
            Some(_) => Plain::Yes,
            None => Plain::No,
        }
    }

    /// Drops from `args` the root members sent as `null` that R8 takes as left out, as the
    /// walk's apply pass does (the other keys keep their order).
    pub(crate) fn drop_nulls(&self, args: &mut Value) {
        if let (Value::Object(map), Some(fields)) = (args, self.fields) {
            map.retain(|key, value| !(value.is_null() && fields.leaves_out_null_at(key)));
        }
    }

    /// Whether the list sent under `key` has items that take any string as it is.
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

/// Whether `name` (JSON-escaped) holds an escape.
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

/// Whether `schema` is a list (`Vec<T>`, `OneOrMany<T>`, bounded or described) whose items
/// take any string as it is: a `String`, `PathBuf`, `Box<str>`, `Cow<str>` or a newtype of
/// them, whose walk does nothing to a string. Not through constraints: a `pattern` judges a
/// string by its content (and such a type is walked first anyway).
const fn items_take_any_string(schema: &Schema) -> bool {
    match unwrapped(schema) {
        Schema::Array { items, .. } | Schema::OneOrMany(items) => {
            matches!(unwrapped(items), Schema::String)
        }
        _ => false,
    }
}

/// `schema` seen through an anchor, item bounds and a description (not constraints).
const fn unwrapped(mut schema: &Schema) -> &Schema {
    while let Schema::Anchored { inner, .. }
    | Schema::Bounded { inner, .. }
    | Schema::Described { inner, .. } = schema
    {
        schema = inner;
    }
    schema
}

/// The members of the root object, as [`plain_members`], a list whose items take any string
/// (`root`) not looked into.
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

/// The items of an array at `depth` (the containers around it): strings and scalars are
/// answered in line, and only a container is a call (most arguments are flat).
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

/// The members of an object at `depth`, as [`plain_items`]; a `null` member is not plain.
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

/// Whether the string `s` is not JSON text. Only a string whose first byte can open a JSON
/// value, or is JSON white space, is looked at further: most strings are answered by it.
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

/// [`plain_string`] of a string that may be JSON text, without allocating for the common
/// cases: a literal is compared, a number checked by its grammar, an array by the text-list
/// scanner (as `json::plain` does for text); an object or a string written as text is parsed.
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

/// `s` without the JSON white space around it. Written out: `str::trim_matches` with a set
/// of chars is a loop over chars that the compiler may leave out of line, and a string that
/// opens with `t`, `f` or `n` (most words) comes here on every call.
#[inline]
fn trim_json_space(s: &str) -> &str {
    let b = s.as_bytes();
    let start = skip_ws(b, 0);
    let end = skip_ws_back(b, start, b.len());
    // Both ends are next to ASCII bytes (or the string's ends): char boundaries.
    s.get(start..end).unwrap_or("")
}

/// Whether `b` is one JSON number: `-`? (`0` | a non-zero digit and digits) (`.` digits)?
/// ([`eE`] [`+-`]? digits)?
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
