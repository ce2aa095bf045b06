//! The command line surface: `T::from_argv(["--paths", "a.png", "--paths", "b.png"])`.
//!
//! A command line carries only text, so the field's type, as its schema tree describes it
//! (`T::SCHEMA`, known during compilation), decides what each value becomes:
//! - a string field takes the text; a number or boolean field parses it (a command line has
//!   nothing else); a boolean field is also a bare `--flag`, and takes a value only after `=`
//!   (`--dry-run=false`: `--dry-run false` is refused with that hint);
//! - a list field takes one item per occurrence of its flag (`--tag a --tag b`); given once
//!   with text that is one JSON array (`--tag '["a", "b"]'`), that text is the whole list,
//!   repaired by rule R1 as on MCP; any other text is one item, even when it starts with `[`
//!   (`--tag "[preview].png"`);
//! - a one-or-many field (`OneOrMany<T>`) given once is one value, and refuses a list written
//!   as text (rule R3) exactly as on MCP; given several times, it is a list;
//! - a structured field (a struct, a map, a tagged enum) takes JSON text, repaired by R1.
//!
//! The object built this way then goes through [`ToolArgs::from_value`]. Flags are the wire
//! names (`--max_hits`, `--maxHits`) or their kebab-case form (`--max-hits`). A bare `--`
//! ends the flags; a tool takes no positional arguments, so any word after it is refused.
//!
//! A refused command line lists every issue at once: the mistakes in the flags (an unknown
//! flag, a flag without its value, a single-value flag given twice, then each missing
//! required flag by name, `missing required flag `--paths``, in the type's field order), then
//! the issues `from_value` finds in the values that were given.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::error::{self, ArgsError, Issue, IssueKind, MAX_ISSUES};
use crate::schema::text::render;
use crate::schema::write::write;
use crate::schema::{as_object, Object, Schema, ONE_OR_MANY_NOTE};
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

/// A schema as the command line reads it: a part of the type's static tree, the array form
/// of a `OneOrMany`, or a user's schema text (`#[stitch(schema = "…")]`), which is only text
/// and so is read as JSON.
enum Node {
    Tree(&'static Schema),
    List(&'static Schema),
    Json(Value),
}

/// `schema` without what does not change its kind: an anchor, item bounds.
fn core(mut schema: &'static Schema) -> &'static Schema {
    while let Schema::Anchored { inner, .. }
    | Schema::Bounded { inner, .. }
    | Schema::Described { inner, .. } = schema
    {
        schema = inner;
    }
    schema
}

impl Node {
    fn of(schema: &'static Schema) -> Node {
        match core(schema) {
            Schema::Raw(text) => Node::Json(serde_json::from_str(text).unwrap_or(Value::Null)),
            _ => Node::Tree(schema),
        }
    }

    /// The schema's `type`, as it renders.
    fn ty(&self) -> Option<&str> {
        match self {
            Node::Tree(schema) => match core(schema) {
                Schema::Null => Some("null"),
                Schema::Boolean => Some("boolean"),
                Schema::Integer { .. } => Some("integer"),
                Schema::Number => Some("number"),
                Schema::String | Schema::Char | Schema::Enum(_) => Some("string"),
                Schema::Array { .. } | Schema::Tuple(_) => Some("array"),
                Schema::Map(_)
                | Schema::Object(_)
                | Schema::Tagged { .. }
                | Schema::Adjacent { .. }
                | Schema::External { .. } => Some("object"),
                _ => None,
            },
            Node::List(_) => Some("array"),
            Node::Json(schema) => schema.get("type").and_then(Value::as_str),
        }
    }

    /// Whether the schema has the keyword `key` (`enum`, `const`, `prefixItems`).
    fn has(&self, key: &str) -> bool {
        match self {
            Node::Tree(schema) => matches!(
                (core(schema), key),
                (Schema::Enum(_), "enum") | (Schema::Tuple(_), "prefixItems")
            ),
            Node::List(_) => false,
            Node::Json(schema) => schema.get(key).is_some(),
        }
    }

    /// The members of an `anyOf`.
    fn any_of(&self) -> Option<Vec<Node>> {
        match self {
            Node::Tree(schema) => match core(schema) {
                Schema::OneOrMany(item) => Some(vec![Node::of(item), Node::List(item)]),
                Schema::AnyOf(members) => Some(members.iter().map(|m| Node::of(m)).collect()),
                _ => None,
            },
            Node::List(_) => None,
            Node::Json(schema) => match schema.get("anyOf") {
                Some(Value::Array(members)) => {
                    Some(members.iter().cloned().map(Node::Json).collect())
                }
                _ => None,
            },
        }
    }

    /// The schema of an array's items.
    fn items(&self) -> Option<Node> {
        match self {
            Node::Tree(schema) => match core(schema) {
                Schema::Array { items, .. } => Some(Node::of(items)),
                _ => None,
            },
            Node::List(item) => Some(Node::of(item)),
            Node::Json(schema) => schema.get("items").cloned().map(Node::Json),
        }
    }

    /// Whether two schemas render the same: by their text when both are trees, as JSON
    /// values when one is a user's text.
    fn same(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::Json(a), b) | (b, Node::Json(a)) => b.value() == *a,
            (a, b) => a.text() == b.text(),
        }
    }

    fn with_tree<R>(&self, f: impl FnOnce(&Schema) -> R) -> Option<R> {
        match self {
            Node::Tree(schema) => Some(f(schema)),
            Node::List(item) => Some(f(&Schema::Array {
                items: item,
                min_items: 0,
                max_items: None,
                unique: false,
            })),
            Node::Json(_) => None,
        }
    }

    fn text(&self) -> Option<Vec<u8>> {
        self.with_tree(|schema| {
            let mut text = vec![0u8; write(schema, &mut [])];
            write(schema, &mut text);
            text
        })
    }

    fn value(&self) -> Value {
        match self {
            Node::Json(value) => value.clone(),
            _ => self.with_tree(render).unwrap_or_default(),
        }
    }
}

fn item_of(schema: &Node) -> Item {
    match schema.ty() {
        Some("integer" | "number") => Item::Number,
        Some("boolean") => Item::Boolean,
        Some("string") => Item::Text,
        _ if schema.has("enum") || schema.has("const") => Item::Text,
        _ => Item::Structured,
    }
}

fn form_of(schema: &Node) -> Form {
    if let Some(members) = schema.any_of() {
        let list = members.iter().find(|m| m.ty() == Some("array"));
        let one = members.iter().find(|m| m.ty() != Some("array"));
        if let (Some(list), Some(one)) = (list, one) {
            if list.items().is_some_and(|items| items.same(one)) {
                return Form::OneOrMany(item_of(one));
            }
        }
        return Form::Structured;
    }
    match schema.ty() {
        Some("string") => Form::Text,
        Some("integer" | "number") => Form::Number,
        Some("boolean") => Form::Flag,
        Some("array") if !schema.has("prefixItems") => Form::List(
            schema
                .items()
                .map_or(Item::Structured, |items| item_of(&items)),
        ),
        _ if schema.has("enum") => Form::Text,
        _ => Form::Structured,
    }
}

/// One property of the arguments object, as the input schema lists it.
struct Field {
    wire: String,
    form: Form,
    required: bool,
    /// The description the schema gives the property.
    description: Option<String>,
    /// Its place in the type's field order (flattened fields where they are flattened), for
    /// issues; the list of fields itself follows the schema's order.
    order: usize,
}

/// The arguments object's description and properties, read from the tree as the input schema
/// renders them: properties of flattened structs joined in, the last of two with one name
/// kept, in the order of serde_json's `Map` (sorted, or as declared with its
/// `preserve_order` feature), so the flags and the help read exactly as the schema does.
/// Each keeps its place in the declared order (`order`) for the issues.
fn fields_of(root: &'static Schema) -> (Option<String>, Vec<Field>) {
    let mut fields = Vec::new();
    let description = match Node::of(root) {
        Node::Json(schema) => {
            let required = |name: &str| {
                schema
                    .get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)))
            };
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for (wire, property) in properties {
                    fields.push(Field {
                        wire: wire.clone(),
                        form: form_of(&Node::Json(property.clone())),
                        required: required(wire),
                        description: text_of(property.get("description")),
                        order: 0,
                    });
                }
            }
            text_of(schema.get("description"))
        }
        _ => {
            if let Some(object) = as_object(root) {
                collect(object, false, &mut fields);
            }
            described(root, None)
        }
    };
    // `required` lists names: a name is required when any property of that name is.
    let required: Vec<String> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.wire.clone())
        .collect();
    for (n, field) in fields.iter_mut().enumerate() {
        field.required = required.contains(&field.wire);
        field.order = n;
    }
    let mut order = Map::new();
    for (n, field) in fields.iter().enumerate() {
        order.insert(field.wire.clone(), Value::from(n));
    }
    let mut fields: Vec<Option<Field>> = fields.into_iter().map(Some).collect();
    let ordered = order
        .values()
        .filter_map(|n| fields.get_mut(n.as_u64()? as usize)?.take())
        .collect();
    (description, ordered)
}

/// The properties of `object` and of the objects flattened into it; `optional` when an
/// `Option` flattened it (its properties are not required).
fn collect(object: &'static Object, optional: bool, fields: &mut Vec<Field>) {
    for property in object.properties {
        fields.push(Field {
            wire: unescape(property.name),
            form: form_of(&Node::of(property.schema)),
            required: property.required && !optional,
            description: described(property.schema, property.description.map(unescape)),
            order: 0,
        });
    }
    for flattened in object.flatten {
        if let Some(inner) = as_object(flattened.schema) {
            collect(inner, optional || flattened.optional, fields);
        }
    }
}

/// The description a property renders with: its own (`given`), with a `OneOrMany`'s note
/// after it, else a struct's doc comment; a user's schema text keeps its own.
fn described(schema: &'static Schema, given: Option<String>) -> Option<String> {
    // An enum's own description, beneath bounds or an anchor.
    let mut own = schema;
    let given = loop {
        match own {
            Schema::Anchored { inner, .. } | Schema::Bounded { inner, .. } => own = inner,
            Schema::Described { description, .. } => break given.or(Some(unescape(description))),
            _ => break given,
        }
    };
    match core(schema) {
        Schema::OneOrMany(_) => Some(match given {
            Some(given) => format!("{given} {}", unescape(ONE_OR_MANY_NOTE)),
            None => unescape(ONE_OR_MANY_NOTE),
        }),
        Schema::Object(object) => given.or_else(|| object.description.map(unescape)),
        Schema::Raw(text) => match serde_json::from_str::<Value>(text) {
            // The property's keys go first, so the text's own description wins.
            Ok(Value::Object(raw)) => text_of(raw.get("description")).or(given),
            _ => None,
        },
        _ => given,
    }
}

/// A string the tree holds JSON-escaped, decoded.
fn unescape(escaped: &str) -> String {
    serde_json::from_str::<String>(&format!("\"{escaped}\"")).unwrap_or_else(|_| escaped.to_owned())
}

fn text_of(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).map(str::to_owned)
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

fn flag_list(flags: &[Flag]) -> String {
    let names: Vec<String> = flags
        .iter()
        .map(|f| format!("--{}", kebab(f.wire)))
        .collect();
    names.join(", ")
}

/// Reads command-line arguments into `T` (see the module docs). `--help` answers with one
/// issue of kind [`IssueKind::Help`] whose message is the help text.
pub(crate) fn from_argv<T, I, S>(name: &str, args: I) -> Result<T, ArgsError>
where
    T: ToolArgs,
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let (_, fields) = fields_of(T::SCHEMA);
    let mut flags: Vec<Flag> = fields
        .iter()
        .map(|field| Flag {
            wire: &field.wire,
            form: field.form,
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
        if arg == "--" {
            // A bare `--` ends the flags: every word after it is positional, and a tool takes
            // flags only.
            for rest in &args[i..] {
                issues.push(Issue::usage("", error::no_positionals(rest, name)));
            }
            break;
        }
        if arg == "--help" || arg == "-h" {
            return Err(ArgsError::single(Issue::new(
                IssueKind::Help,
                "",
                help(name, T::SCHEMA),
            )));
        }
        let Some(body) = arg.strip_prefix("--") else {
            issues.push(Issue::usage("", error::unexpected_argument(arg)));
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
            issues.push(Issue::usage(key, error::unknown_flag(key, &known)));
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
            // `--dry-run false` would set the flag and leave `false` over: a boolean flag
            // takes its value after `=` only, so say how to write it.
            (None, Form::Flag) => match args.get(i).map(String::as_str) {
                Some(word @ ("true" | "false")) => {
                    i += 1;
                    issues.push(Issue::usage(flag.wire, error::flag_value_apart(key, word)));
                    continue;
                }
                _ => "true".to_owned(),
            },
            (None, _) => match args.get(i) {
                Some(next) if !next.starts_with("--") => {
                    i += 1;
                    next.clone()
                }
                _ => {
                    issues.push(Issue::usage(flag.wire, error::needs_value(key)));
                    continue;
                }
            },
        };
        flag.values.push(value);
    }
    let mut object = Map::new();
    let mut missing = Vec::new();
    for (flag, field) in flags.iter().zip(&fields) {
        let Some(first) = flag.values.first() else {
            // A flag that was written but has no value is already an issue.
            if field.required && flag.spelled.is_empty() {
                missing.push((field.order, flag.wire));
            }
            continue;
        };
        let repeated = flag.values.len() > 1;
        let value = match flag.form {
            // Given once, only text that is a JSON array is the whole list, for rule R1 to
            // repair (or R3 to refuse) as on MCP; any other text, `[preview].png` included,
            // is one item.
            Form::List(_) if !repeated && is_json_array(first) => Value::String(first.clone()),
            Form::List(item) => {
                Value::Array(flag.values.iter().map(|v| item_value(v, item)).collect())
            }
            Form::OneOrMany(item) if repeated => {
                Value::Array(flag.values.iter().map(|v| item_value(v, item)).collect())
            }
            // Given once: one value; a list written as text is refused by R3.
            Form::OneOrMany(item) => item_value(first, item),
            _ if repeated => {
                issues.push(Issue::usage(
                    flag.wire,
                    error::given_repeatedly(&flag.spelled, flag.values.len()),
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
    // Every missing required flag, in the type's field order.
    missing.sort_by_key(|&(order, _)| order);
    for (_, wire) in missing {
        issues.push(Issue::usage(wire, error::missing_flag(&kebab(wire))));
    }
    if issues.is_empty() {
        return T::from_value(Value::Object(object));
    }
    // The flags' mistakes come first; the values that were given are still checked, so one
    // refusal lists every issue. What follows from a flag's mistake (its field missing, or an
    // issue of the whole arguments) is left out: the flag's issue already says it.
    let Err(found) = T::from_value(Value::Object(object)) else {
        return Err(ArgsError::new(issues));
    };
    let named: Vec<String> = issues
        .iter()
        .map(|issue| issue.path().to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    let follows = |path: &str| {
        path.is_empty()
            || named.iter().any(|n| {
                path.strip_prefix(n.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            })
    };
    issues.extend(
        found
            .issues()
            .iter()
            .filter(|issue| !follows(issue.path()))
            .cloned(),
    );
    let omitted = issues.len().saturating_sub(MAX_ISSUES) + found.omitted();
    issues.truncate(MAX_ISSUES);
    Err(ArgsError::with_omitted(issues, omitted))
}

/// Whether `text` is one JSON array (surrounding JSON whitespace allowed), as serde_json reads
/// it: the whole list written as text, rather than one item that happens to start with `[`.
fn is_json_array(text: &str) -> bool {
    text.trim_start().starts_with('[')
        && matches!(serde_json::from_str::<Value>(text), Ok(Value::Array(_)))
}

/// The `--help` text of a tool, from its schema: the type's doc comment, then one line per
/// flag with its kind, whether it is required, and its description.
fn help(name: &str, schema: &'static Schema) -> String {
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
                Form::Flag => String::new(),
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

/// Whether the schema renders with a `properties` keyword (an object, even with none).
fn has_properties(schema: &'static Schema) -> bool {
    match Node::of(schema) {
        Node::Json(schema) => schema.get("properties").is_some_and(Value::is_object),
        _ => as_object(schema).is_some(),
    }
}
