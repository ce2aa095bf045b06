//! The command line surface: `T::from_argv(["--paths", "a.png", "--paths", "b.png"])`.
//!
//! A command line carries only text, so the field's type, as the input schema describes it,
//! decides what each value becomes:
//! - a string field takes the text; a number or boolean field parses it (a command line has
//!   nothing else), and a boolean field is also a bare `--flag`;
//! - a list field takes one item per occurrence of its flag (`--tag a --tag b`); given once
//!   with a JSON array written as text, that text is the whole list (rule R1);
//! - a one-or-many field (`OneOrMany<T>`) given once is one value, and refuses a list written
//!   as text (rule R3) exactly as on MCP; given several times, it is a list;
//! - a structured field (a struct, a map, a tagged enum) takes JSON text, repaired by R1.
//!
//! The object built this way then goes through [`ToolArgs::from_value`]. Flags are the wire
//! names (`--max_hits`, `--maxHits`) or their kebab-case form (`--max-hits`).

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::error::{ArgsError, Issue, IssueKind};
use crate::ToolArgs;

/// How a flag's values become JSON, decided from the field's schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    Text,
    Number,
    Flag,
    List(Item),
    OneOrMany(Item),
    Structured,
}

/// How one item of a list becomes JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Text,
    Number,
    Boolean,
    Structured,
}

fn type_of(schema: &Value) -> Option<&str> {
    schema.get("type").and_then(Value::as_str)
}

fn item_of(schema: &Value) -> Item {
    match type_of(schema) {
        Some("integer" | "number") => Item::Number,
        Some("boolean") => Item::Boolean,
        Some("string") => Item::Text,
        _ if schema.get("enum").is_some() || schema.get("const").is_some() => Item::Text,
        _ => Item::Structured,
    }
}

fn form_of(schema: &Value) -> Form {
    if let Some(Value::Array(members)) = schema.get("anyOf") {
        let list = members.iter().find(|m| type_of(m) == Some("array"));
        let one = members.iter().find(|m| type_of(m) != Some("array"));
        if let (Some(list), Some(one)) = (list, one) {
            if list.get("items") == Some(one) {
                return Form::OneOrMany(item_of(one));
            }
        }
        return Form::Structured;
    }
    match type_of(schema) {
        Some("string") => Form::Text,
        Some("integer" | "number") => Form::Number,
        Some("boolean") => Form::Flag,
        Some("array") if schema.get("prefixItems").is_none() => {
            Form::List(schema.get("items").map_or(Item::Structured, item_of))
        }
        _ if schema.get("enum").is_some() => Form::Text,
        _ => Form::Structured,
    }
}

/// `maxHits` and `max_hits` → `max-hits`.
fn kebab(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, ch) in name.chars().enumerate() {
        if ch == '_' {
            out.push('-');
        } else if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// The JSON for one text, as an item of kind `item`: numbers and booleans parse when they
/// can; otherwise the text stays, for serde to report (or R1 to repair).
fn item_value(text: &str, item: Item) -> Value {
    match item {
        Item::Number => match serde_json::from_str::<Value>(text) {
            Ok(n @ Value::Number(_)) => n,
            _ => Value::String(text.to_owned()),
        },
        Item::Boolean => match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(text.to_owned()),
        },
        Item::Text | Item::Structured => Value::String(text.to_owned()),
    }
}

struct Flag<'s> {
    wire: &'s str,
    form: Form,
    values: Vec<String>,
    /// How it was written first, for messages.
    spelled: String,
}

fn usage(path: &str, message: String) -> Issue {
    Issue::new(IssueKind::Usage, path, message)
}

fn flag_list(flags: &[Flag]) -> String {
    let names: Vec<String> = flags
        .iter()
        .map(|f| format!("--{}", kebab(f.wire)))
        .collect();
    names.join(", ")
}

/// Reads command-line arguments into `T` (see the module docs). `--help` answers with one
/// issue of kind [`IssueKind::Help`] whose message is the help text.
pub fn from_argv<T, I, S>(name: &str, args: I) -> Result<T, ArgsError>
where
    T: ToolArgs,
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let schema = T::input_schema();
    let properties = schema.get("properties").and_then(Value::as_object);
    let mut flags: Vec<Flag> = properties
        .into_iter()
        .flatten()
        .map(|(wire, property)| Flag {
            wire,
            form: form_of(property),
            values: Vec::new(),
            spelled: String::new(),
        })
        .collect();
    let mut issues = Vec::new();
    let args: Vec<String> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--help" || arg == "-h" {
            return Err(ArgsError::single(Issue::new(
                IssueKind::Help,
                "",
                help::<T>(name),
            )));
        }
        let Some(body) = arg.strip_prefix("--") else {
            issues.push(usage(
                "",
                format!(
                    "unexpected argument `{arg}`; a value follows its flag, as in `--name value`"
                ),
            ));
            continue;
        };
        let (key, inline) = match body.split_once('=') {
            Some((key, value)) => (key, Some(value.to_owned())),
            None => (body, None),
        };
        let Some(flag) = flags
            .iter_mut()
            .find(|f| f.wire == key || kebab(f.wire) == key)
        else {
            let known = flag_list(&flags);
            issues.push(usage(
                key,
                format!("unknown flag `--{key}`; expected one of {known}"),
            ));
            // Its value, if it has one, goes with it.
            if inline.is_none() && args.get(i).is_some_and(|next| !next.starts_with("--")) {
                i += 1;
            }
            continue;
        };
        if flag.spelled.is_empty() {
            flag.spelled = format!("--{key}");
        }
        let value = match (inline, flag.form) {
            (Some(value), _) => value,
            (None, Form::Flag) => "true".to_owned(),
            (None, _) => match args.get(i) {
                Some(next) if !next.starts_with("--") => {
                    i += 1;
                    next.clone()
                }
                _ => {
                    issues.push(usage(flag.wire, format!("`--{key}` needs a value")));
                    continue;
                }
            },
        };
        flag.values.push(value);
    }
    let mut object = Map::new();
    for flag in &flags {
        let Some(first) = flag.values.first() else {
            continue;
        };
        let repeated = flag.values.len() > 1;
        let value = match flag.form {
            Form::List(item) => {
                if !repeated && first.trim_start().starts_with('[') {
                    // The whole list as JSON text: rule R1 repairs it.
                    Value::String(first.clone())
                } else {
                    Value::Array(flag.values.iter().map(|v| item_value(v, item)).collect())
                }
            }
            Form::OneOrMany(item) if repeated => {
                Value::Array(flag.values.iter().map(|v| item_value(v, item)).collect())
            }
            // Given once: one value; a list written as text is refused by R3.
            Form::OneOrMany(item) => item_value(first, item),
            _ if repeated => {
                issues.push(usage(
                    flag.wire,
                    format!(
                        "`{}` is given {} times but takes one value",
                        flag.spelled,
                        flag.values.len()
                    ),
                ));
                continue;
            }
            Form::Text => Value::String(first.clone()),
            Form::Number => item_value(first, Item::Number),
            Form::Flag => item_value(first, Item::Boolean),
            Form::Structured => Value::String(first.clone()),
        };
        object.insert(flag.wire.to_owned(), value);
    }
    if !issues.is_empty() {
        return Err(ArgsError::new(issues));
    }
    T::from_value(Value::Object(object))
}

/// The `--help` text of a tool, from its input schema: the type's doc comment, then one line
/// per flag with its kind, whether it is required, and its description.
pub fn help<T: ToolArgs>(name: &str) -> String {
    let schema = T::input_schema();
    let mut out = format!("usage: {name} [FLAGS]\n");
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        let _ = write!(out, "\n{d}\n");
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return out;
    };
    out.push_str("\nflags:\n");
    let rows: Vec<(String, String)> = properties
        .iter()
        .map(|(wire, property)| {
            let value = match form_of(property) {
                Form::Flag => String::new(),
                Form::Number => " <number>".to_owned(),
                Form::Text => " <text>".to_owned(),
                Form::List(_) => " <item>...".to_owned(),
                Form::OneOrMany(_) => " <value>...".to_owned(),
                Form::Structured => " <json>".to_owned(),
            };
            let left = format!("  --{}{value}", kebab(wire));
            let mut right = String::new();
            if required.contains(&wire.as_str()) {
                right.push_str("(required) ");
            }
            if let Some(d) = property.get("description").and_then(Value::as_str) {
                right.push_str(&d.replace('\n', " "));
            }
            (left, right)
        })
        .collect();
    let width = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (left, right) in rows {
        let _ = writeln!(out, "{left:width$}  {right}");
    }
    let _ = writeln!(out, "{:width$}  this text", "  --help");
    out
}
