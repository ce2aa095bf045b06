//! What the coercer says when it refuses a value: serde's words where the schema says the
//! Rust type, the failed keyword where it does not; value constraints are worded by
//! `crate::limits`.

use serde_json::Value;

use super::node::{resolve, Form, Id, Node, Types};
use crate::error;

/// serde would name the enum; the schema cannot.
pub(super) const NO_MATCH: &str = "data did not match any variant of the schema's anyOf/oneOf";

pub(super) fn reason(nodes: &[Node], node: &Node, value: &Value) -> String {
    match &node.form {
        Form::Typed => {}
        // serde reads a tagged enum from a sequence too: the tag first.
        Form::Tagged { key, content, .. } if value.as_array().is_some_and(Vec::is_empty) => {
            return match content {
                None => format!("missing field `{key}`"),
                Some(_) => {
                    use serde::de::Error as _;
                    serde_json::Error::invalid_length(0, &"an object").to_string()
                }
            };
        }
        // serde names the enum (`internally tagged enum Action`); the schema does not.
        Form::Tagged { .. } | Form::Any => return error::invalid_type(value, "an object"),
        Form::Keyed { names, .. } => {
            return match value {
                Value::String(s) => {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    unknown_variant(s, &names)
                }
                Value::Object(_) => invalid_value(value, "map with a single key"),
                _ => error::invalid_type(value, "string or map"),
            }
        }
        Form::Untagged => return NO_MATCH.to_owned(),
        Form::OneOrMany { one, .. } | Form::Lenient { scalar: one } => {
            return reason(nodes, &nodes[resolve(nodes, *one)], value)
        }
    }
    let types = node.types.without(Types::NULL);
    if let (Some(values), Value::String(s)) = (&node.values, value) {
        if types == Types::STRING && node.takes(value) {
            let names: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
            return unknown_variant(s, &names);
        }
    }
    if let Some(values) = &node.values {
        if values.iter().all(Value::is_string) && types == Types::STRING {
            // serde reads an enum from a string or from a one-key map.
            return match value {
                Value::Object(map) if map.len() == 1 => {
                    let names: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
                    let key = map.keys().next().map_or("", String::as_str);
                    unknown_variant(key, &names)
                }
                Value::Object(_) => invalid_value(value, "map with a single key"),
                _ => error::invalid_type(value, "string or map"),
            };
        }
    }
    if types == Types::STRING && node.length == (Some(1), Some(1)) {
        if let Value::String(_) = value {
            return invalid_value(value, "a character");
        }
    }
    // Of a type the node takes, refused by a keyword: the keyword is named.
    if node.takes(value) {
        if let Some(reason) = keyword_reason(node, value) {
            return reason;
        }
    }
    if types == Types::INTEGER {
        let name = integer_name(node.range);
        return error::invalid_type(value, name);
    }
    error::invalid_type(value, &expected(node))
}

/// `enum`/`const` (named), or an integer outside the Rust type its bounds give (`expected u8`).
fn keyword_reason(node: &Node, value: &Value) -> Option<String> {
    if let Some(values) = &node.values {
        if !values.contains(value) {
            let listed: Vec<String> = values.iter().map(Value::to_string).collect();
            let keyword = if values.len() == 1 { "const" } else { "enum" };
            return Some(invalid_value(
                value,
                &format!("one of {} (`{keyword}`)", listed.join(", ")),
            ));
        }
    }
    match value {
        Value::Number(n) if !node.types.has(Types::NUMBER) => {
            if super::walk::in_range(node.range, n) {
                return None;
            }
            Some(invalid_value(value, integer_name(node.range)))
        }
        _ => None,
    }
}

pub(super) fn expected(node: &Node) -> String {
    let types = node.types.without(Types::NULL);
    let mut words = Vec::new();
    if types.has(Types::STRING) {
        words.push(if node.length == (Some(1), Some(1)) {
            "a character"
        } else {
            "a string"
        });
    }
    if types.has(Types::INTEGER) && !types.has(Types::NUMBER) {
        words.push(integer_name(node.range));
    }
    if types.has(Types::NUMBER) {
        words.push("f64");
    }
    if types.has(Types::BOOLEAN) {
        words.push("a boolean");
    }
    if types.has(Types::ARRAY) {
        words.push("a sequence");
    }
    if types.has(Types::OBJECT) {
        words.push(if node.is_struct() {
            "an object"
        } else {
            "a map"
        });
    }
    if words.is_empty() {
        return "unit".to_owned();
    }
    if node.is_tuple() && types == Types::ARRAY {
        return format!("a tuple of size {}", node.prefix.len());
    }
    words.join(" or ")
}

/// As serde names it (`"u32"`).
pub(super) fn integer_name(range: (Option<i128>, Option<i128>)) -> &'static str {
    const TYPES: [(&str, i128, i128); 8] = [
        ("u8", 0, u8::MAX as i128),
        ("u16", 0, u16::MAX as i128),
        ("u32", 0, u32::MAX as i128),
        ("u64", 0, u64::MAX as i128),
        ("i8", i8::MIN as i128, i8::MAX as i128),
        ("i16", i16::MIN as i128, i16::MAX as i128),
        ("i32", i32::MIN as i128, i32::MAX as i128),
        ("i64", i64::MIN as i128, i64::MAX as i128),
    ];
    match range {
        (Some(min), Some(max)) => TYPES
            .iter()
            .find(|(_, lo, hi)| *lo == min && *hi == max)
            .map_or("an integer", |t| t.0),
        _ => "an integer",
    }
}

pub(super) fn invalid_value(value: &Value, expected: &str) -> String {
    use serde::de::Error as _;
    serde_json::Error::invalid_value(error::unexpected(value), &expected).to_string()
}

/// As `error::one_or_many_expected`.
pub(super) fn one_or_many_expected(nodes: &[Node], one: Id) -> &'static str {
    let node = &nodes[resolve(nodes, one)];
    let types = node.types.without(Types::NULL);
    if !matches!(node.form, Form::Typed) {
        return "one value or an array of values";
    }
    if types == Types::STRING {
        "a string or an array of strings"
    } else if types == Types::INTEGER {
        "an integer or an array of integers"
    } else if types == Types::NUMBER.union(Types::INTEGER) {
        "a number or an array of numbers"
    } else if types == Types::BOOLEAN {
        "a boolean or an array of booleans"
    } else if types == Types::OBJECT && node.is_struct() {
        "an object or an array of objects"
    } else {
        "one value or an array of values"
    }
}

/// serde's `one of` list: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
pub(super) fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [a] => format!("`{a}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        _ => {
            let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("one of {}", listed.join(", "))
        }
    }
}

pub(super) fn unknown_variant(name: &str, names: &[&str]) -> String {
    if names.is_empty() {
        format!("unknown variant `{name}`, there are no variants")
    } else {
        format!("unknown variant `{name}`, expected {}", one_of(names))
    }
}

/// The fields listed as the schema's properties.
pub(super) fn unknown_field(key: &str, properties: &[(String, Id)], tag: Option<&str>) -> String {
    let names: Vec<&str> = properties
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| Some(*k) != tag)
        .collect();
    if names.is_empty() {
        format!("unknown field `{key}`, there are no fields")
    } else {
        format!("unknown field `{key}`, expected {}", one_of(&names))
    }
}
