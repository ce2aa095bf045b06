//! Each flag's form, requirement, description, choices and default, read from a tool's schema.

use serde_json::{Map, Value};

use crate::limits::Limits;
use crate::schema::text::render;
use crate::schema::write::write;
use crate::schema::{as_object, core, Object, Schema, ONE_OR_MANY_NOTE};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    Text,
    Number,
    Flag,
    List(Item),
    OneOrMany(Item),
    Structured,
    /// A flattened externally tagged enum's unit variant: a bare flag, `null`.
    Unit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Item {
    Text,
    Number,
    Boolean,
    Structured,
}

/// A part of the type's static tree, a `OneOrMany`'s array form, or a user's schema text
/// (`#[stitch(schema = "…")]`), which is only text and so is read as JSON.
enum Node {
    Tree(&'static Schema),
    List(&'static Schema),
    Json(Value),
}

impl Node {
    fn of(schema: &'static Schema) -> Node {
        match core(schema) {
            Schema::Raw(text) => Node::Json(serde_json::from_str(text).unwrap_or(Value::Null)),
            _ => Node::Tree(schema),
        }
    }

    fn ty(&self) -> Option<&str> {
        match self {
            Node::Tree(schema) => match core(schema) {
                Schema::Null => Some("null"),
                Schema::Boolean => Some("boolean"),
                Schema::Integer { .. } => Some("integer"),
                Schema::Number | Schema::Float32 => Some("number"),
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

    /// By text when both are trees, as JSON values when one is a user's text.
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

pub(super) struct Field {
    pub(super) wire: String,
    pub(super) form: Form,
    pub(super) required: bool,
    pub(super) description: Option<String>,
    /// A list of names (a unit-variant enum, or a list of one), for the help.
    pub(super) choices: Vec<String>,
    /// As JSON text, where the schema knows it.
    pub(super) default: Option<String>,
    pub(super) limits: Option<&'static Limits>,
    /// Its place in the declared field order, for issues; the list follows the schema's order.
    pub(super) order: usize,
}

/// The description and properties as the input schema renders them: flattened structs
/// joined in, the last of two of one name kept, in the order of serde_json's `Map`, so the
/// flags and the help read as the schema does.
pub(super) fn fields_of(root: &'static Schema) -> (Option<String>, Vec<Field>) {
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
                        choices: choices(&Node::Json(property.clone())),
                        default: property.get("default").map(Value::to_string),
                        limits: None,
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
    // A name is required when any property of that name is.
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

fn choices(node: &Node) -> Vec<String> {
    match node {
        Node::Tree(schema) => match core(schema) {
            Schema::Enum(names) => names.iter().map(|n| unescape(n)).collect(),
            Schema::Array { items, .. } | Schema::OneOrMany(items) => choices(&Node::of(items)),
            _ => Vec::new(),
        },
        Node::List(item) => choices(&Node::of(item)),
        Node::Json(schema) => {
            let names = schema
                .get("enum")
                .or_else(|| schema.get("items").and_then(|items| items.get("enum")));
            match names {
                Some(Value::Array(names)) => names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
                _ => Vec::new(),
            }
        }
    }
}

/// Beneath bounds, description or anchor.
fn limits_of(mut schema: &'static Schema) -> Option<&'static Limits> {
    loop {
        match schema {
            Schema::Limited { limits, .. } => return Some(limits),
            Schema::Anchored { inner, .. }
            | Schema::Bounded { inner, .. }
            | Schema::Lenient(inner)
            | Schema::Described { inner, .. } => schema = inner,
            _ => return None,
        }
    }
}

/// `optional` when an `Option` flattened `object`: its properties are not required.
fn collect(object: &'static Object, optional: bool, fields: &mut Vec<Field>) {
    // An alias is not a flag of its own.
    for property in object.properties.iter().filter(|p| !p.is_alias()) {
        fields.push(Field {
            wire: unescape(property.name()),
            form: form_of(&Node::of(property.schema())),
            required: property.required() && !optional,
            description: described(property.schema(), property.description().map(unescape)),
            choices: choices(&Node::of(property.schema())),
            default: property.default().map(str::to_owned),
            limits: limits_of(property.schema()),
            order: 0,
        });
    }
    for flattened in object.flatten {
        let optional = optional || flattened.optional;
        match core(flattened.schema) {
            Schema::Object(inner) => collect(inner, optional, fields),
            Schema::OneOf(members) | Schema::AnyOf(members) => union(members, optional, fields),
            _ => {}
        }
    }
}

/// A flattened enum's keys (`docs/rules.md#flattened-unions`): the tag (required unless an
/// `Option` flattened it), content or variant keys, and the variants' fields, none required.
fn union(members: &'static [&'static Schema], optional: bool, fields: &mut Vec<Field>) {
    let from = fields.len();
    for member in members {
        match core(member) {
            Schema::Tagged { tag, value, body } => {
                key(fields, from, tag, Form::Text, !optional, Some(value));
                if let Some(body) = as_object(body) {
                    collect(body, true, fields);
                }
            }
            Schema::Adjacent {
                tag,
                value,
                content_key,
                content,
            } => {
                key(fields, from, tag, Form::Text, !optional, Some(value));
                if content.is_some() {
                    key(fields, from, content_key, Form::Structured, false, None);
                }
            }
            Schema::External { key: name, content } => {
                key(fields, from, name, form_of(&Node::of(content)), false, None);
            }
            Schema::Enum(units) => {
                for unit in *units {
                    key(fields, from, unit, Form::Unit, false, None);
                }
            }
            Schema::Object(object) => collect(object, true, fields),
            _ => {}
        }
    }
}

/// Its own (`given`) with a `OneOrMany`'s note after it, else a struct's doc comment; a
/// user's schema text keeps its own.
fn described(schema: &'static Schema, given: Option<String>) -> Option<String> {
    // An enum's own description, beneath bounds or an anchor.
    let mut own = schema;
    let given = loop {
        match own {
            Schema::Anchored { inner, .. }
            | Schema::Bounded { inner, .. }
            | Schema::Limited { inner, .. }
            | Schema::Lenient(inner) => own = inner,
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
            // The text's own description wins.
            Ok(Value::Object(raw)) => text_of(raw.get("description")).or(given),
            _ => None,
        },
        _ => given,
    }
}

fn unescape(escaped: &str) -> String {
    serde_json::from_str::<String>(&format!("\"{escaped}\"")).unwrap_or_else(|_| escaped.to_owned())
}

fn text_of(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).map(str::to_owned)
}

/// `maxHits` and `max_hits` → `max-hits`.
pub(super) fn kebab(name: &str) -> String {
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

/// One key among `fields[from..]`, added once; each variant's name it takes joins its choices.
fn key(
    fields: &mut Vec<Field>,
    from: usize,
    wire: &str,
    form: Form,
    required: bool,
    choice: Option<&str>,
) {
    let wire = unescape(wire);
    let at = match fields[from..].iter().position(|f| f.wire == wire) {
        Some(at) => from + at,
        None => {
            fields.push(Field {
                wire,
                form,
                required,
                description: None,
                choices: Vec::new(),
                default: None,
                limits: None,
                order: 0,
            });
            fields.len() - 1
        }
    };
    // `#[serde(other)]`'s member takes any tag; its placeholder is not a name.
    fields[at].choices.extend(choice.map(|c| match c {
        Schema::ANY_TAG => "(any other)".to_owned(),
        c => unescape(c),
    }));
}

/// Numbers and booleans parse when they can; other text stays, for serde to report or R1 to
/// repair.
pub(super) fn item_value(text: &str, item: Item) -> Value {
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

/// Whether the schema renders with `properties` (an object, even with none).
pub(super) fn has_properties(schema: &'static Schema) -> bool {
    match Node::of(schema) {
        Node::Json(schema) => schema.get("properties").is_some_and(Value::is_object),
        _ => as_object(schema).is_some(),
    }
}
