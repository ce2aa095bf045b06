//! The compiled schema: an arena of [`Node`]s, each one subschema with the keywords the walk
//! reads, references resolved to indices (so a recursive schema is a cycle of indices, not of
//! boxes), and the [`Form`] that says which rule applies to a value there.

use serde_json::Value;

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::walk::pattern_claims;

/// A node's index in the arena.
pub(crate) type Id = usize;

/// The JSON types a node accepts, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Types(u8);

impl Types {
    pub(crate) const NULL: Types = Types(1);
    pub(crate) const BOOLEAN: Types = Types(2);
    pub(crate) const INTEGER: Types = Types(4);
    pub(crate) const NUMBER: Types = Types(8);
    pub(crate) const STRING: Types = Types(16);
    pub(crate) const ARRAY: Types = Types(32);
    pub(crate) const OBJECT: Types = Types(64);
    pub(crate) const ALL: Types = Types(127);
    pub(crate) const NONE: Types = Types(0);

    /// The type named `name` in a `type` keyword.
    pub(crate) fn named(name: &str) -> Option<Types> {
        Some(match name {
            "null" => Types::NULL,
            "boolean" => Types::BOOLEAN,
            "integer" => Types::INTEGER,
            "number" => Types::NUMBER,
            "string" => Types::STRING,
            "array" => Types::ARRAY,
            "object" => Types::OBJECT,
            _ => return None,
        })
    }

    /// The type of `value` (an integer is also a number). As JSON Schema counts them, a number
    /// with no fractional part is an integer however it is written (`1.0`, `1e2`, `1e29`).
    pub(crate) fn of(value: &Value) -> Types {
        match value {
            Value::Null => Types::NULL,
            Value::Bool(_) => Types::BOOLEAN,
            Value::Number(n) if is_integer(n) => Types(4 | 8),
            Value::Number(_) => Types::NUMBER,
            Value::String(_) => Types::STRING,
            Value::Array(_) => Types::ARRAY,
            Value::Object(_) => Types::OBJECT,
        }
    }

    pub(crate) const fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    pub(crate) const fn and(self, other: Types) -> Types {
        Types(self.0 & other.0)
    }

    pub(crate) const fn without(self, other: Types) -> Types {
        Types(self.0 & !other.0)
    }

    pub(crate) const fn has(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }

    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Whether `n` is an integer as JSON Schema counts them: its value has no fractional part.
pub(crate) fn is_integer(n: &serde_json::Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// What a node does with `additionalProperties` (keys its `properties` do not name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Additional {
    /// Not said, or `true`: other keys are left alone (depth only).
    Any,
    /// `false`: another key is an unknown field.
    Deny,
    /// A schema: every other key's value is walked as it (a map's values).
    Schema(Id),
}

/// One subschema.
#[derive(Debug)]
pub(crate) struct Node {
    /// Its JSON pointer in the schema (`/properties/paths`), for errors and validators.
    pub pointer: String,
    /// The types it accepts (`type`, `nullable`, or what `enum`/`const` and its keywords
    /// imply); [`Types::ALL`] when nothing says.
    pub types: Types,
    /// Whether anything restricts its type at all (`false`: `{}`, an annotation only).
    pub typed: bool,
    /// `null` is accepted besides what the node says (`nullable`, `"type": [… "null"]`, a
    /// `{"type": "null"}` member of an `anyOf`/`oneOf`).
    pub nullable: bool,
    /// `enum`, or `const` as a one-value list.
    pub values: Option<Vec<Value>>,
    /// `minimum` / `maximum` of an integer when they are exactly a Rust integer type's range
    /// (`0` and `255`: a `u8`), for serde's name of the type; any other bound is in
    /// [`Node::limits`].
    pub range: (Option<i128>, Option<i128>),
    /// `minLength` / `maxLength` of a string when both are 1: a `char`; any other length is in
    /// [`Node::limits`].
    pub length: (Option<u64>, Option<u64>),
    /// The value constraints checked at each number or string the node takes (`minimum`,
    /// `exclusiveMaximum`, `multipleOf`, `minLength`, …), as the derive's `Limits`; its
    /// `pattern` is [`Node::text_pattern`] (a `Limits` holds only the derive's patterns).
    pub limits: Limits,
    /// `pattern`, compiled when the coercer is built.
    pub text_pattern: Option<Box<TextPattern>>,
    /// The keywords this subschema wrote that were read as value constraints (bits of
    /// `constraints::KEYWORDS`): taken out of the schema the validators of R3 and of serde's
    /// pick are built from, which judge types and shapes, as serde does.
    pub constraint_keys: u8,
    /// A number or string walked here may break a constraint: the node's own (a leaf), or a
    /// member's (a union). Decided once.
    pub limited: bool,
    /// `items` (or draft-07's `additionalItems` after an `items` list).
    pub items: Option<Id>,
    /// `prefixItems` (or draft-07's `items` as a list): a tuple.
    pub prefix: Vec<Id>,
    /// `minItems` / `maxItems`.
    pub bounds: Bounds,
    /// `properties`, in the order the schema's `Value` holds them.
    pub properties: Vec<(String, Id)>,
    /// The ordinals of [`Node::properties`] by name, when there are more than a few (a key is
    /// found in constant time, without allocating, however many the schema lists).
    pub index: Option<PropertyIndex>,
    /// `patternProperties`: each pattern (a validator of `{"pattern": …}`) and its schema, in
    /// the schema's order. A key no property names and a pattern matches is walked as the
    /// first such pattern's schema, and is not an additional property.
    pub patterns: Vec<Pattern>,
    /// `required`, in the schema's order.
    pub required: Vec<String>,
    /// Names of which one must be sent (a field read under an alias too): a group of
    /// `"not": {"anyOf": [{"properties": {name: false, …}}]}`, or an `anyOf`/`oneOf` of
    /// `{"required": [name]}` members; `true` for a `oneOf` (two of them are refused).
    pub one_of_names: Vec<(Vec<String>, bool)>,
    /// `additionalProperties`.
    pub additional: Additional,
    /// `anyOf` / `oneOf` members (a `null` member dropped into [`Node::types`]).
    pub members: Vec<Id>,
    /// `allOf` members, merged into this node when its form is decided.
    pub all_of: Vec<Id>,
    /// `$ref`, as written, until it is resolved into [`Node::target`].
    pub reference: Option<String>,
    /// The node a `$ref` (or a one-member `allOf`) stands for.
    pub target: Option<Id>,
    /// An `anyOf` of exactly `T` and an array of `T`: `OneOrMany<T>`.
    pub one_or_many: bool,
    /// The rule that applies here, decided after every reference is resolved.
    pub form: Form,
    /// A validator of this subschema without its value constraints, for the nodes that need
    /// one (array members, the members of an untagged union): built once by
    /// [`super::compile`].
    pub validator: Option<Box<jsonschema::Validator>>,
    /// A validator of this subschema, value constraints included, for the members of an
    /// untagged union, built only when the schema has value constraints (else
    /// [`Node::validator`] is the same).
    pub full_validator: Option<Box<jsonschema::Validator>>,
    // Facts the walk asks at every call, decided once when the schema is compiled.
    /// A string is a value here (R2): see `compile::takes_strings`.
    pub strings: bool,
    /// How R3 checks a list written as text against this node as an array member.
    pub list: ListCheck,
    /// Its items are string-like: a string item has nothing to repair or check.
    pub string_items: bool,
    /// The indices (below 128) of the properties `required` names.
    pub required_mask: u128,
    /// Whether `required` names each of [`Node::properties`], by ordinal.
    pub required_at: Vec<bool>,
    /// `required` names a property past the 128th, or one `properties` does not list.
    pub required_slow: bool,
}

/// A hash table of property ordinals: open addressing, linear probing, twice as many slots as
/// properties, the names themselves kept only in [`Node::properties`]. Its hasher is seeded
/// per table (std's `RandomState`), so no schema can make its keys collide on purpose.
#[derive(Debug)]
pub(crate) struct PropertyIndex {
    state: std::collections::hash_map::RandomState,
    /// An ordinal, or `u32::MAX` for an empty slot.
    slots: Vec<u32>,
}

impl PropertyIndex {
    /// The index of `properties` (the first of two equal names wins).
    pub(crate) fn new(properties: &[(String, Id)]) -> PropertyIndex {
        let size = (properties.len() * 2).next_power_of_two().max(16);
        let mut index = PropertyIndex {
            state: std::collections::hash_map::RandomState::new(),
            slots: vec![u32::MAX; size],
        };
        for (ordinal, (key, _)) in properties.iter().enumerate() {
            let mask = index.slots.len() - 1;
            let mut at = index.slot(key);
            loop {
                match index.slots[at] {
                    u32::MAX => {
                        index.slots[at] = ordinal as u32;
                        break;
                    }
                    other if properties[other as usize].0 == *key => break,
                    _ => at = (at + 1) & mask,
                }
            }
        }
        index
    }

    fn slot(&self, key: &str) -> usize {
        use std::hash::BuildHasher;
        (self.state.hash_one(key) as usize) & (self.slots.len() - 1)
    }

    /// The ordinal of the property named `key`.
    pub(crate) fn find(&self, properties: &[(String, Id)], key: &str) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut at = self.slot(key);
        loop {
            match self.slots[at] {
                u32::MAX => return None,
                ordinal if properties[ordinal as usize].0 == key => return Some(ordinal as usize),
                _ => at = (at + 1) & mask,
            }
        }
    }
}

/// One entry of `patternProperties`.
#[derive(Debug)]
pub(crate) struct Pattern {
    /// The pattern as written.
    pub source: String,
    /// Whether a key matches it: built when the coercer is compiled.
    pub matcher: Option<Box<jsonschema::Validator>>,
    /// The schema of a matching key's value.
    pub schema: Id,
}

/// A `pattern` of the schema.
#[derive(Clone, Debug)]
pub(crate) struct TextPattern {
    /// As written.
    pub source: String,
    /// Compiled.
    pub matcher: Matcher,
}

/// How a `pattern` is run.
#[derive(Clone, Debug)]
pub(crate) enum Matcher {
    /// `regex-lite`: linear time in the string, whatever the pattern.
    Lite(std::sync::Arc<crate::limits::PatternMatcher>),
    /// ECMA-262 beyond it (lookaround, backreferences, `\p{…}`): `jsonschema`'s own `pattern`
    /// keyword, with its backtracking limit, so a schema someone else wrote keeps every rule.
    Ecma(std::sync::Arc<jsonschema::Validator>),
}

impl TextPattern {
    /// Whether `text` matches somewhere.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        match &self.matcher {
            Matcher::Lite(matcher) => matcher.is_match(text),
            Matcher::Ecma(validator) => validator.is_valid(&Value::String(text.to_owned())),
        }
    }
}

/// How R3's third condition is checked at an array member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListCheck {
    /// Items of plain `type: "string"`: the scanner alone, strings checked as serde does.
    Strings,
    /// Items of any value: the scanner alone.
    Anything,
    /// Anything else: parsed, then validated.
    Validate,
}

impl Node {
    /// Whether a string this node takes is taken whatever its text: no `enum`/`const` values
    /// and no `char` length to judge it by.
    pub(crate) fn takes_any_text(&self) -> bool {
        self.values.is_none() && self.length == (None, None)
    }

    pub(crate) fn new(pointer: String) -> Node {
        Node {
            pointer,
            types: Types::ALL,
            typed: false,
            nullable: false,
            values: None,
            range: (None, None),
            length: (None, None),
            limits: Limits::NONE,
            text_pattern: None,
            constraint_keys: 0,
            limited: false,
            items: None,
            prefix: Vec::new(),
            bounds: Bounds::NONE,
            properties: Vec::new(),
            index: None,
            patterns: Vec::new(),
            required: Vec::new(),
            one_of_names: Vec::new(),
            additional: Additional::Any,
            members: Vec::new(),
            all_of: Vec::new(),
            reference: None,
            target: None,
            one_or_many: false,
            form: Form::Any,
            validator: None,
            full_validator: None,
            strings: false,
            list: ListCheck::Validate,
            string_items: false,
            required_mask: 0,
            required_at: Vec::new(),
            required_slow: false,
        }
    }

    /// Whether `value` is of a type this node accepts.
    pub(crate) fn takes(&self, value: &Value) -> bool {
        self.types.has(Types::of(value))
    }

    /// The ordinal of the property named `key`.
    #[inline]
    pub(crate) fn ordinal(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.find(&self.properties, key),
            None => self.properties.iter().position(|(k, _)| k == key),
        }
    }

    /// Whether `required` lists the `ordinal`-th property.
    #[inline]
    pub(crate) fn is_required(&self, ordinal: usize) -> bool {
        self.required_at.get(ordinal).copied().unwrap_or(false)
    }

    /// Whether the `ordinal`-th property must be sent: `required` lists it, or it is one of
    /// [`Node::one_of_names`] (then its `null` is a value, not the property left out).
    #[inline]
    pub(crate) fn must_send(&self, ordinal: usize) -> bool {
        self.is_required(ordinal)
            || self.one_of_names.iter().any(|(names, _)| {
                let name = &self.properties[ordinal].0;
                names.iter().any(|n| n == name)
            })
    }

    /// The schema of the value at a key no property names: the first pattern it matches,
    /// else `None` (then `additionalProperties` decides).
    pub(crate) fn pattern_for(&self, key: &str) -> Option<Id> {
        if self.patterns.is_empty() {
            return None;
        }
        let key = Value::String(key.to_owned());
        self.patterns
            .iter()
            .find(|p| p.matcher.as_ref().is_some_and(|m| m.is_valid(&key)))
            .map(|p| p.schema)
    }

    /// A struct rather than a map: it names its keys.
    pub(crate) fn is_struct(&self) -> bool {
        !self.properties.is_empty() || !self.required.is_empty()
    }

    /// A tuple: its items are listed one by one.
    pub(crate) fn is_tuple(&self) -> bool {
        !self.prefix.is_empty()
    }

    /// The string constant of property `key`, when it is one (a tag).
    pub(crate) fn constant(&self, nodes: &[Node], key: &str) -> Option<String> {
        let (_, id) = &self.properties[self.ordinal(key)?];
        let node = &nodes[resolve(nodes, *id)];
        match node.values.as_deref() {
            Some([Value::String(s)]) => Some(s.clone()),
            _ => None,
        }
    }
}

/// Which rule applies at a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Form {
    /// No type said: the value is left alone (depth only).
    Any,
    /// By the value's kind: a leaf, an array, an object, as the node's types allow.
    Typed,
    /// `OneOrMany<T>`: members `[one, many]`.
    OneOrMany { one: Id, many: Id },
    /// A number or boolean that may be written as text (`lenient_scalars`): an `anyOf` of the
    /// scalar and a string of the text stitch writes for it. The text is read into the scalar.
    Lenient { scalar: Id },
    /// A `oneOf`/`anyOf` of objects told apart by a constant string property `key`
    /// (internally and adjacently tagged enums): each tag with its member.
    Tagged {
        key: String,
        tags: Vec<(String, Id)>,
        /// The content's key, when every member holds the tag and at most this one more
        /// property (adjacently tagged).
        content: Option<String>,
        /// The member whose tag is any other string (`#[serde(other)]`).
        other: Option<Id>,
    },
    /// A `oneOf` of one-key objects (`{"Variant": content}`) and of strings naming unit
    /// variants (externally tagged enums): the names a string may be, and each key with its
    /// content.
    Keyed {
        units: Vec<String>,
        keys: Vec<(String, Id)>,
        names: Vec<String>,
    },
    /// Any other `anyOf`/`oneOf`: serde's untagged enum.
    Untagged,
}

/// Whether node `id`, a string member, claims `text`, a list written as text its array member
/// takes: it names the string in its `enum` or `const`, or its `pattern` matches the text but
/// not every item of the list. Either way the schema has said which reading was meant, so the
/// string is one value, not R3's (`docs/rules.md#r3`).
pub(crate) fn claims_string(nodes: &[Node], id: Id, text: &str) -> bool {
    let node = &nodes[resolve(nodes, id)];
    let named = (node.values.as_ref())
        .is_some_and(|values| values.iter().any(|v| v.as_str() == Some(text)));
    named
        || (node.text_pattern.as_ref())
            .is_some_and(|pattern| pattern_claims(text, |s| pattern.is_match(s)))
}

/// Follows `$ref`s (and one-member `allOf`s) from `id` to the node that holds the keywords.
/// Compilation refuses a cycle of references, so this ends.
pub(crate) fn resolve(nodes: &[Node], mut id: Id) -> Id {
    while let Some(target) = nodes[id].target {
        id = target;
    }
    id
}
