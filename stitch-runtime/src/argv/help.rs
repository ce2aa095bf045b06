//! The `--help` text of a tool, from its schema.

use std::fmt::Write as _;

use super::form::{fields_of, has_properties, kebab, Form};
use crate::limits::Limits;
use crate::schema::Schema;

/// The type's doc comment, then a line per flag: kind, required, description, choices, and
/// the default where the schema knows it (a std type's, not a `default = "…"` function's).
pub(super) fn help(name: &str, schema: &'static Schema) -> String {
    let (description, fields) = fields_of(schema);
    let mut out = format!("usage: {name} [FLAGS]\n");
    if let Some(d) = description {
        let _ = write!(out, "\n{d}\n");
    }
    if fields.is_empty() && !has_properties(schema) {
        return out;
    }
    out.push_str("\nflags:\n");
    let rows: Vec<(String, String)> = fields
        .iter()
        .map(|field| {
            let value = match field.form {
                Form::Flag | Form::Unit => String::new(),
                Form::Number => " <number>".to_owned(),
                Form::Text => " <text>".to_owned(),
                Form::List(_) => " <item>...".to_owned(),
                Form::OneOrMany(_) => " <value>...".to_owned(),
                Form::Structured => " <json>".to_owned(),
            };
            let left = format!("  --{}{value}", kebab(&field.wire));
            let mut right = String::new();
            if field.required {
                right.push_str("(required) ");
            }
            if let Some(d) = &field.description {
                right.push_str(&d.replace('\n', " "));
            }
            if !field.choices.is_empty() {
                let sep = if right.is_empty() || right.ends_with(' ') {
                    ""
                } else {
                    " "
                };
                let _ = write!(right, "{sep}[one of: {}]", field.choices.join(", "));
            }
            if let Some(limits) = field.limits {
                let sep = if right.is_empty() || right.ends_with(' ') {
                    ""
                } else {
                    " "
                };
                let _ = write!(right, "{sep}[{}]", described_limits(limits));
            }
            if let Some(default) = &field.default {
                let sep = if right.is_empty() || right.ends_with(' ') {
                    ""
                } else {
                    " "
                };
                let _ = write!(right, "{sep}[default: {default}]");
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

/// `from 1 to 3600`, `above 0`, `a multiple of 5`, `at most 8 characters`, `matching ^[a-z]+$`.
fn described_limits(limits: &Limits) -> String {
    let mut parts = Vec::new();
    match (limits.minimum, limits.maximum) {
        (Some(min), Some(max)) => parts.push(format!("from {min} to {max}")),
        (Some(min), None) => parts.push(format!("at least {min}")),
        (None, Some(max)) => parts.push(format!("at most {max}")),
        (None, None) => {}
    }
    if let Some(n) = limits.exclusive_minimum {
        parts.push(format!("above {n}"));
    }
    if let Some(n) = limits.exclusive_maximum {
        parts.push(format!("below {n}"));
    }
    if let Some(n) = limits.multiple_of {
        parts.push(format!("a multiple of {n}"));
    }
    let chars = |n: usize| if n == 1 { "character" } else { "characters" };
    match (limits.min_length, limits.max_length) {
        (Some(min), Some(max)) => parts.push(format!("{min} to {max} {}", chars(max))),
        (Some(min), None) => parts.push(format!("at least {min} {}", chars(min))),
        (None, Some(max)) => parts.push(format!("at most {max} {}", chars(max))),
        (None, None) => {}
    }
    if let Some(pattern) = &limits.pattern {
        parts.push(format!("matching {}", pattern.source()));
    }
    parts.join(", ")
}
