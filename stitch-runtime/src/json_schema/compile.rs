//! Compiling a JSON Schema into the arena of [`Node`]s, in four steps: read every subschema
//! (keywords checked, `$defs`/`definitions` and `$anchor`s recorded), resolve `$ref`s to
//! indices (refusing one that names nothing and a cycle of references), merge `allOf`s, and
//! decide each node's [`Form`]; then build the validators the walk asks (`jsonschema`).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::node::{resolve, Additional, Form, Id, ListCheck, Node, Types};
use super::SchemaError;
use crate::bounds::Bounds;
use crate::json::depth::MAX_DEPTH;

/// The URI the whole schema is registered under, for the validators of its parts.
const BASE: &str = "urn:stitch:schema";

/// How deeply the schema itself may nest while it is read (it is read recursively).
const MAX_SCHEMA_DEPTH: usize = 4 * MAX_DEPTH;

/// Compiles `schema` into its nodes and the root's index.
pub(crate) fn compile(schema: &Value) -> Result<(Vec<Node>, Id), SchemaError> {
    let mut reader = Reader {
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
        anchors: HashMap::new(),
    };
    let root = reader.read(schema, String::new(), 0)?;
    let Reader {
        mut nodes,
        by_pointer,
        anchors,
    } = reader;
    resolve_refs(&mut nodes, &by_pointer, &anchors)?;
    merge_all_of(&mut nodes)?;
    decide_forms(&mut nodes);
    build_validators(&mut nodes, schema)?;
    Ok((nodes, root))
}

struct Reader {
    nodes: Vec<Node>,
    by_pointer: HashMap<String, Id>,
    anchors: HashMap<String, Id>,
}

/// Escapes a key as a JSON pointer token (`~` as `~0`, `/` as `~1`).
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn malformed(pointer: &str, keyword: &str, wants: &str) -> SchemaError {
    SchemaError::new(
        join(pointer, keyword),
        format!("`{keyword}` must be {wants}"),
    )
}

fn join(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", token(key))
}

impl Reader {
    fn push(&mut self, node: Node) -> Id {
        let id = self.nodes.len();
        self.by_pointer.insert(node.pointer.clone(), id);
        self.nodes.push(node);
        id
    }

    /// Reads the subschema `schema` found at `pointer`.
    fn read(&mut self, schema: &Value, pointer: String, depth: usize) -> Result<Id, SchemaError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(SchemaError::new(
                pointer,
                format!("the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"),
            ));
        }
        let map = match schema {
            // `true` takes anything; `false` nothing, which is the validator's to say (the
            // walk leaves the value as it is, as at `items: false` past a tuple's items).
            Value::Bool(_) => return Ok(self.push(Node::new(pointer))),
            Value::Object(map) => map,
            _ => {
                return Err(SchemaError::new(
                    pointer,
                    "a schema must be an object or a boolean".to_owned(),
                ))
            }
        };
        let id = self.push(Node::new(pointer.clone()));
        let mut node = Node::new(pointer.clone());
        let at = pointer.as_str();
        let d = depth + 1;

        if let Some(anchor) = map.get("$anchor") {
            let Some(anchor) = anchor.as_str() else {
                return Err(malformed(at, "$anchor", "a string"));
            };
            self.anchors.insert(anchor.to_owned(), id);
        }
        for defs in ["$defs", "definitions"] {
            if let Some(value) = map.get(defs) {
                let Some(entries) = value.as_object() else {
                    return Err(malformed(at, defs, "an object"));
                };
                let here = join(at, defs);
                for (name, sub) in entries {
                    self.read(sub, join(&here, name), d)?;
                }
            }
        }
        if let Some(reference) = map.get("$ref") {
            let Some(reference) = reference.as_str() else {
                return Err(malformed(at, "$ref", "a string"));
            };
            node.reference = Some(reference.to_owned());
        }

        // The type: `type`, `nullable`, and what `enum`/`const` say.
        let mut types = None;
        if let Some(value) = map.get("type") {
            let names: Vec<&Value> = match value {
                Value::String(_) => vec![value],
                Value::Array(names) if !names.is_empty() => names.iter().collect(),
                _ => return Err(malformed(at, "type", "a type name or a list of them")),
            };
            let mut set = Types::NONE;
            for name in names {
                match name.as_str().and_then(Types::named) {
                    Some(t) => set = set.union(t),
                    None => {
                        return Err(SchemaError::new(
                            join(at, "type"),
                            format!("unknown type {name}"),
                        ))
                    }
                }
            }
            // `integer` is a kind of number; `number` takes integers.
            if set.has(Types::NUMBER) {
                set = set.union(Types::INTEGER);
            }
            types = Some(set);
        }
        match map.get("nullable") {
            None => {}
            Some(Value::Bool(b)) => node.nullable = *b,
            Some(_) => return Err(malformed(at, "nullable", "a boolean")),
        }
        match (map.get("enum"), map.get("const")) {
            (Some(Value::Array(values)), _) => node.values = Some(values.clone()),
            (Some(_), _) => return Err(malformed(at, "enum", "a list")),
            (None, Some(value)) => node.values = Some(vec![value.clone()]),
            (None, None) => {}
        }
        node.range = (integer(map, at, "minimum")?, integer(map, at, "maximum")?);
        node.length = (count(map, at, "minLength")?, count(map, at, "maxLength")?);

        // Arrays.
        match map.get("prefixItems") {
            None => {}
            Some(Value::Array(items)) => {
                let here = join(at, "prefixItems");
                for (i, sub) in items.iter().enumerate() {
                    let id = self.read(sub, format!("{here}/{i}"), d)?;
                    node.prefix.push(id);
                }
            }
            Some(_) => return Err(malformed(at, "prefixItems", "a list of schemas")),
        }
        match map.get("items") {
            None => {}
            // draft-07: `items` as a list is a tuple, `additionalItems` the rest.
            Some(Value::Array(items)) => {
                let here = join(at, "items");
                for (i, sub) in items.iter().enumerate() {
                    let id = self.read(sub, format!("{here}/{i}"), d)?;
                    node.prefix.push(id);
                }
                if let Some(rest) = map.get("additionalItems") {
                    node.items = Some(self.read(rest, join(at, "additionalItems"), d)?);
                }
            }
            Some(sub @ (Value::Object(_) | Value::Bool(_))) => {
                node.items = Some(self.read(sub, join(at, "items"), d)?);
            }
            Some(_) => return Err(malformed(at, "items", "a schema")),
        }
        node.bounds = Bounds::new(
            count_usize(map, at, "minItems")?,
            count_usize(map, at, "maxItems")?,
        );

        // Objects.
        match map.get("properties") {
            None => {}
            Some(Value::Object(properties)) => {
                let here = join(at, "properties");
                for (key, sub) in properties {
                    let id = self.read(sub, join(&here, key), d)?;
                    node.properties.push((key.clone(), id));
                }
            }
            Some(_) => return Err(malformed(at, "properties", "an object of schemas")),
        }
        match map.get("required") {
            None => {}
            Some(Value::Array(names)) => {
                for name in names {
                    let Some(name) = name.as_str() else {
                        return Err(malformed(at, "required", "a list of strings"));
                    };
                    node.required.push(name.to_owned());
                }
            }
            Some(_) => return Err(malformed(at, "required", "a list of strings")),
        }
        match map.get("additionalProperties") {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => node.additional = Additional::Deny,
            Some(sub @ Value::Object(_)) => {
                node.additional =
                    Additional::Schema(self.read(sub, join(at, "additionalProperties"), d)?);
            }
            Some(_) => return Err(malformed(at, "additionalProperties", "a schema")),
        }

        // Combinations.
        for keyword in ["anyOf", "oneOf"] {
            let Some(value) = map.get(keyword) else {
                continue;
            };
            let Some(members) = value.as_array().filter(|m| !m.is_empty()) else {
                return Err(malformed(at, keyword, "a non-empty list of schemas"));
            };
            if !node.members.is_empty() {
                return Err(SchemaError::new(
                    at.to_owned(),
                    "`anyOf` and `oneOf` together are not supported".to_owned(),
                ));
            }
            let here = join(at, keyword);
            let mut read = Vec::new();
            for (i, sub) in members.iter().enumerate() {
                let sub_id = self.read(sub, format!("{here}/{i}"), d)?;
                // `{"type": "null"}` beside other members: the position is nullable.
                if is_null_schema(sub) && members.len() > 1 {
                    node.nullable = true;
                } else {
                    read.push((sub_id, sub));
                }
            }
            // `OneOrMany<T>`: `T`, then an array of `T`.
            if let [(_, one), (_, many)] = read.as_slice() {
                node.one_or_many = many.get("type") == Some(&Value::from("array"))
                    && many.get("items") == Some(one)
                    && many.get("prefixItems").is_none();
            }
            node.members = read.into_iter().map(|(id, _)| id).collect();
        }
        if let Some(value) = map.get("allOf") {
            let Some(members) = value.as_array().filter(|m| !m.is_empty()) else {
                return Err(malformed(at, "allOf", "a non-empty list of schemas"));
            };
            let here = join(at, "allOf");
            for (i, sub) in members.iter().enumerate() {
                let sub_id = self.read(sub, format!("{here}/{i}"), d)?;
                node.all_of.push(sub_id);
            }
        }

        // What the type is when `type` does not say: the kinds `enum`/`const` list, or the
        // kind the keywords describe.
        let implied = match (&node.values, types) {
            (_, Some(set)) => Some(set),
            (Some(values), None) => Some(
                values
                    .iter()
                    .fold(Types::NONE, |set, v| set.union(Types::of(v))),
            ),
            (None, None) => {
                let mut set = Types::NONE;
                if !node.properties.is_empty()
                    || !node.required.is_empty()
                    || node.additional != Additional::Any
                {
                    set = set.union(Types::OBJECT);
                }
                if node.items.is_some() || !node.prefix.is_empty() {
                    set = set.union(Types::ARRAY);
                }
                (!set.is_empty()).then_some(set)
            }
        };
        if let Some(set) = implied {
            node.typed = true;
            node.nullable |= set.has(Types::NULL);
            node.types = set;
        }
        if node.typed && node.nullable {
            node.types = node.types.union(Types::NULL);
        }
        self.nodes[id] = node;
        Ok(id)
    }
}

fn is_null_schema(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    map.get("type") == Some(&Value::from("null"))
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "type" | "description" | "title"))
}

/// An integer keyword (`minimum`, `maximum`): `None` when absent or not a whole number.
fn integer(map: &Map<String, Value>, at: &str, keyword: &str) -> Result<Option<i128>, SchemaError> {
    match map.get(keyword) {
        None => Ok(None),
        Some(Value::Number(n)) => Ok(n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))),
        Some(_) => Err(malformed(at, keyword, "a number")),
    }
}

/// A count keyword (`minItems`, `maxLength`): a non-negative integer.
fn count(map: &Map<String, Value>, at: &str, keyword: &str) -> Result<Option<u64>, SchemaError> {
    match map.get(keyword) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) => Ok(Some(n)),
            // `2.0` is a count in JSON Schema.
            None => match v.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e19 => Ok(Some(f as u64)),
                _ => Err(malformed(at, keyword, "a non-negative integer")),
            },
        },
    }
}

fn count_usize(
    map: &Map<String, Value>,
    at: &str,
    keyword: &str,
) -> Result<Option<usize>, SchemaError> {
    Ok(count(map, at, keyword)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// Decodes a JSON pointer's `~1` and `~0`, and the percent-escapes a URI fragment may hold.
fn unescape_pointer(fragment: &str) -> Option<String> {
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = fragment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Resolves every `$ref` to the node it names: `#` (the root), `#/json/pointer` (to a
/// subschema read above: `$defs`, `definitions`, or any other place), `#Name` (an `$anchor`).
fn resolve_refs(
    nodes: &mut [Node],
    by_pointer: &HashMap<String, Id>,
    anchors: &HashMap<String, Id>,
) -> Result<(), SchemaError> {
    for node in nodes.iter_mut() {
        let Some(reference) = node.reference.as_deref() else {
            continue;
        };
        let unresolvable = |why: &str| {
            SchemaError::new(
                join(&node.pointer, "$ref"),
                format!("cannot resolve `$ref` {reference:?}: {why}"),
            )
        };
        let Some(fragment) = reference.strip_prefix('#') else {
            return Err(unresolvable(
                "only references within the schema (`#…`) are supported",
            ));
        };
        let target = if fragment.is_empty() {
            Some(0)
        } else if fragment.starts_with('/') {
            let pointer = unescape_pointer(fragment).ok_or_else(|| unresolvable("bad escape"))?;
            by_pointer.get(&pointer).copied()
        } else {
            anchors.get(fragment).copied()
        };
        let Some(target) = target else {
            return Err(unresolvable("nothing in the schema has that name"));
        };
        node.target = Some(target);
    }
    // A chain of references that comes back to where it started stands for nothing.
    no_cycle(nodes, "$ref")
}

/// An error naming the first node whose chain of targets never ends (a cycle made of `what`).
fn no_cycle(nodes: &[Node], what: &str) -> Result<(), SchemaError> {
    for id in 0..nodes.len() {
        let mut at = id;
        let mut steps = 0;
        while let Some(next) = nodes[at].target {
            at = next;
            steps += 1;
            if steps > nodes.len() {
                return Err(SchemaError::new(
                    nodes[id].pointer.clone(),
                    format!("a cycle of `{what}`s that never reaches a schema"),
                ));
            }
        }
    }
    Ok(())
}

/// Merges each `allOf` into its node: a node with nothing of its own and one member stands
/// for that member; otherwise what a member says and the node does not is taken from it
/// (types intersected, properties and `required` joined).
fn merge_all_of(nodes: &mut [Node]) -> Result<(), SchemaError> {
    // Members are read after their parent: merged from the deepest up.
    for id in (0..nodes.len()).rev() {
        if nodes[id].all_of.is_empty() || nodes[id].target.is_some() {
            continue;
        }
        let members = core::mem::take(&mut nodes[id].all_of);
        let bare = !nodes[id].typed && nodes[id].members.is_empty();
        if bare && members.len() == 1 {
            nodes[id].target = Some(members[0]);
            continue;
        }
        for member in members {
            let m = resolve(nodes, member);
            if m == id {
                continue;
            }
            let (types, typed, nullable) = (nodes[m].types, nodes[m].typed, nodes[m].nullable);
            let values = nodes[m].values.clone();
            let (range, length, items, prefix, bounds) = (
                nodes[m].range,
                nodes[m].length,
                nodes[m].items,
                nodes[m].prefix.clone(),
                nodes[m].bounds,
            );
            let properties = nodes[m].properties.clone();
            let required = nodes[m].required.clone();
            let additional = nodes[m].additional;
            let (members, one_or_many) = (nodes[m].members.clone(), nodes[m].one_or_many);
            let node = &mut nodes[id];
            if typed {
                if node.typed {
                    node.types = node.types.and(types);
                    node.nullable &= nullable;
                } else {
                    node.types = types;
                    node.nullable = nullable;
                    node.typed = true;
                }
            }
            if node.values.is_none() {
                node.values = values;
            }
            node.range.0 = node.range.0.or(range.0);
            node.range.1 = node.range.1.or(range.1);
            node.length.0 = node.length.0.or(length.0);
            node.length.1 = node.length.1.or(length.1);
            node.items = node.items.or(items);
            if node.prefix.is_empty() {
                node.prefix = prefix;
            }
            if node.bounds.is_none() {
                node.bounds = bounds;
            }
            for (key, sub) in properties {
                if !node.properties.iter().any(|(k, _)| *k == key) {
                    node.properties.push((key, sub));
                }
            }
            for name in required {
                if !node.required.contains(&name) {
                    node.required.push(name);
                }
            }
            if node.additional == Additional::Any {
                node.additional = additional;
            }
            if node.members.is_empty() {
                node.members = members;
                node.one_or_many = one_or_many;
            }
        }
    }
    // An `allOf` may have closed a cycle of references.
    no_cycle(nodes, "allOf")
}

/// Decides the rule at each node (see [`Form`]).
fn decide_forms(nodes: &mut [Node]) {
    for id in 0..nodes.len() {
        let form = form_of(nodes, id);
        nodes[id].form = form;
    }
    // Then what the walk asks of each node at every call, once.
    for id in 0..nodes.len() {
        let strings = takes_strings(nodes, id, 0);
        let items = nodes[id].items.map(|i| &nodes[resolve(nodes, i)]);
        let plain = |n: &Node| {
            matches!(n.form, Form::Typed)
                && n.types == Types::STRING
                && n.values.is_none()
                && n.length == (None, None)
        };
        let list = match items {
            Some(item) if plain(item) => ListCheck::Strings,
            Some(item) if matches!(item.form, Form::Any) => ListCheck::Anything,
            None if nodes[id].prefix.is_empty() => ListCheck::Anything,
            _ => ListCheck::Validate,
        };
        let string_items = items.is_some_and(|item| {
            matches!(item.form, Form::Typed) && item.types.without(Types::NULL) == Types::STRING
        });
        let node = &nodes[id];
        let mut mask = 0u128;
        let mut slow = false;
        for name in &node.required {
            match node.properties.iter().position(|(k, _)| k == name) {
                Some(i) if i < 128 => mask |= 1 << i,
                _ => slow = true,
            }
        }
        let node = &mut nodes[id];
        node.strings = strings;
        node.list = list;
        node.string_items = string_items;
        node.required_mask = mask;
        node.required_slow = slow;
    }
}

fn form_of(nodes: &[Node], id: Id) -> Form {
    let node = &nodes[id];
    if node.members.is_empty() {
        return if node.typed { Form::Typed } else { Form::Any };
    }
    if node.one_or_many {
        return Form::OneOrMany {
            one: node.members[0],
            many: node.members[1],
        };
    }
    let members: Vec<&Node> = node
        .members
        .iter()
        .map(|&m| &nodes[resolve(nodes, m)])
        .collect();
    let objects = |n: &&Node| n.typed && n.types.without(Types::NULL) == Types::OBJECT;
    // Tagged: objects that all name a constant string at one required key.
    if members.iter().all(objects) {
        if let Some(first) = members.first() {
            for (key, _) in &first.properties {
                let tags: Option<Vec<(String, Id)>> = node
                    .members
                    .iter()
                    .zip(&members)
                    .map(|(&m, n)| {
                        let tag = n.constant(nodes, key)?;
                        n.required.contains(key).then(|| (tag, resolve(nodes, m)))
                    })
                    .collect();
                if let Some(tags) = tags {
                    let others: Vec<&str> = members
                        .iter()
                        .flat_map(|n| n.properties.iter().map(|(k, _)| k.as_str()))
                        .filter(|k| k != key)
                        .collect();
                    let adjacent = members.iter().all(|n| n.properties.len() <= 2)
                        && others.windows(2).all(|w| w[0] == w[1]);
                    return Form::Tagged {
                        key: key.clone(),
                        tags,
                        content: others.first().filter(|_| adjacent).map(|k| (*k).to_owned()),
                    };
                }
            }
        }
    }
    // Keyed: one-key objects, and strings naming unit variants.
    let mut units = Vec::new();
    let mut keys = Vec::new();
    let mut names = Vec::new();
    let keyed = members.iter().all(|n| {
        if objects(n)
            && n.properties.len() == 1
            && n.required.len() == 1
            && n.required[0] == n.properties[0].0
            && n.additional == Additional::Deny
        {
            keys.push(n.properties[0].clone());
            names.push(n.properties[0].0.clone());
            return true;
        }
        match &n.values {
            Some(values) if n.types == Types::STRING => {
                for name in values.iter().filter_map(Value::as_str) {
                    units.push(name.to_owned());
                    names.push(name.to_owned());
                }
                true
            }
            _ => false,
        }
    });
    if keyed && !keys.is_empty() {
        return Form::Keyed { units, keys, names };
    }
    Form::Untagged
}

/// Whether a string is a value of node `id` (R2: a string-bearing position).
pub(crate) fn takes_strings(nodes: &[Node], id: Id, depth: usize) -> bool {
    let node = &nodes[resolve(nodes, id)];
    if depth > MAX_DEPTH {
        return false;
    }
    match &node.form {
        Form::Any => true,
        Form::Typed => node.types.has(Types::STRING),
        Form::Keyed { units, .. } => !units.is_empty(),
        Form::Tagged { .. } => false,
        Form::OneOrMany { one, .. } => takes_strings(nodes, *one, depth + 1),
        Form::Untagged => node
            .members
            .iter()
            .any(|&m| takes_strings(nodes, m, depth + 1)),
    }
}

/// Whether node `id` is an array member: a list (not a tuple) of its items.
pub(crate) fn is_array_member(nodes: &[Node], id: Id) -> bool {
    let node = &nodes[resolve(nodes, id)];
    node.form == Form::Typed && node.types.has(Types::ARRAY) && !node.is_tuple()
}

/// Builds a validator for every node the walk validates against: the members of untagged
/// unions (serde's pick), the array members of string-bearing unions (R3), and a position
/// that takes both strings and arrays itself.
fn build_validators(nodes: &mut [Node], schema: &Value) -> Result<(), SchemaError> {
    let mut wanted = vec![false; nodes.len()];
    for id in 0..nodes.len() {
        match nodes[id].form {
            Form::Untagged => {
                for &m in &nodes[id].members {
                    wanted[resolve(nodes, m)] = true;
                }
            }
            Form::OneOrMany { many, .. } => wanted[resolve(nodes, many)] = true,
            Form::Typed
                if nodes[id].types.has(Types::STRING) && nodes[id].types.has(Types::ARRAY) =>
            {
                wanted[id] = true;
            }
            _ => {}
        }
    }
    if !wanted.contains(&true) {
        return Ok(());
    }
    let mut document = schema.clone();
    // Without `$schema`, a schema written in draft-07's words is read as draft-07.
    if let Value::Object(map) = &mut document {
        let draft7 = map.contains_key("definitions") || uses_item_lists(schema, 0);
        if !map.contains_key("$schema") && draft7 {
            map.insert(
                "$schema".to_owned(),
                Value::from("http://json-schema.org/draft-07/schema#"),
            );
        }
    }
    let registry = jsonschema::Registry::new()
        .add(BASE, document)
        .and_then(|builder| builder.prepare())
        .map_err(|e| SchemaError::new(String::new(), format!("the schema cannot be read: {e}")))?;
    let options = jsonschema::options().with_registry(&registry);
    for id in 0..nodes.len() {
        if !wanted[id] {
            continue;
        }
        let reference = format!("{BASE}#{}", percent_encode(&nodes[id].pointer));
        let wrapper = serde_json::json!({ "$ref": reference });
        let validator = options.build(&wrapper).map_err(|e| {
            SchemaError::new(nodes[id].pointer.clone(), format!("invalid subschema: {e}"))
        })?;
        nodes[id].validator = Some(Box::new(validator));
    }
    Ok(())
}

/// Whether the schema writes a tuple as draft-07 does (`items` as a list).
fn uses_item_lists(schema: &Value, depth: usize) -> bool {
    if depth > MAX_SCHEMA_DEPTH {
        return false;
    }
    match schema {
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| (k == "items" && v.is_array()) || uses_item_lists(v, depth + 1)),
        Value::Array(items) => items.iter().any(|v| uses_item_lists(v, depth + 1)),
        _ => false,
    }
}

/// A JSON pointer as a URI fragment: bytes outside the unreserved set and `/` escaped.
fn percent_encode(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
