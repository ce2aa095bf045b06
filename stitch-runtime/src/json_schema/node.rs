//! The compiled schema: an arena of [`Node`]s, references resolved to indices (a recursive
//! schema is a cycle of indices), each with the [`Form`] that says which rule applies there.

use serde_json::Value;

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::walk::pattern_claims;

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

    /// The type of `value`; an integer is also a number.
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

/// JSON Schema's integer: no fractional part however it is written (`1.0`, `1e2`, `1e29`).
pub(crate) fn is_integer(n: &serde_json::Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Additional {
    /// Not said, or `true`: other keys are left alone.
    Any,
    Deny,
    /// A schema: a map's values.
    Schema(Id),
}

#[derive(Debug)]
pub(crate) struct Node {
    /// Its JSON pointer (`/properties/paths`), for errors and validators.
    pub pointer: String,
    /// `type`, `nullable`, or what `enum`/`const` and other keywords imply; else [`Types::ALL`].
    pub types: Types,
    /// `false` for `{}` or an annotation only.
    pub typed: bool,
    /// `null` is accepted besides what the node says (`nullable`, a `null` type or member).
    pub nullable: bool,
    /// `enum`, or `const` as a one-value list.
    pub values: Option<Vec<Value>>,
    /// An integer's bounds when exactly a Rust type's range (`0`..`255`: `u8`), serde's name.
    pub range: (Option<i128>, Option<i128>),
    /// A string's lengths when both are 1 (a `char`); any other is in [`Node::limits`].
    pub length: (Option<u64>, Option<u64>),
    /// The value constraints, as the derive's; its `pattern` is [`Node::text_pattern`].
    pub limits: Limits,
    pub text_pattern: Option<Box<TextPattern>>,
    /// Bits of `constraints::KEYWORDS`, stripped from the validators of R3 and serde's pick.
    pub constraint_keys: u8,
    /// A number or string walked here may break a constraint, its own or a member's.
    pub limited: bool,
    /// `items` (or draft-07's `additionalItems` after an `items` list).
    pub items: Option<Id>,
    /// `prefixItems` (or draft-07's `items` as a list): a tuple.
    pub prefix: Vec<Id>,
    pub bounds: Bounds,
    /// In the order the schema's `Value` holds them.
    pub properties: Vec<(String, Id)>,
    /// Built past a few properties: a key found in constant time without allocating.
    pub index: Option<PropertyIndex>,
    /// A key no property names is walked as the first match's schema, and is not additional.
    pub patterns: Vec<Pattern>,
    pub required: Vec<String>,
    /// Names of which one must be sent (a field with aliases); `true`: two are refused.
    pub one_of_names: Vec<(Vec<String>, bool)>,
    pub additional: Additional,
    /// `anyOf` / `oneOf` members, a `null` member dropped into [`Node::types`].
    pub members: Vec<Id>,
    /// Merged into this node when its form is decided.
    pub all_of: Vec<Id>,
    /// `$ref` as written, until resolved into [`Node::target`].
    pub reference: Option<String>,
    pub target: Option<Id>,
    pub one_or_many: bool,
    pub form: Form,
    /// Without value constraints, for array members and untagged members.
    pub validator: Option<Box<jsonschema::Validator>>,
    /// With them, for untagged members, built only when there are some.
    pub full_validator: Option<Box<jsonschema::Validator>>,
    // Facts the walk asks at every call, decided once at compile time.
    /// A string is a value here (R2).
    pub strings: bool,
    pub list: ListCheck,
    /// A string item has nothing to repair or check.
    pub string_items: bool,
    /// Bit per property ordinal below 128 that `required` names.
    pub required_mask: u128,
    pub required_at: Vec<bool>,
    /// `required` names a property past the 128th, or one `properties` does not list.
    pub required_slow: bool,
}

/// Open addressing, linear probing, twice as many slots as properties; the hasher is seeded
/// per table so no schema can make its keys collide on purpose.
#[derive(Debug)]
pub(crate) struct PropertyIndex {
    state: std::collections::hash_map::RandomState,
    /// `u32::MAX` for an empty slot.
    slots: Vec<u32>,
}

impl PropertyIndex {
    /// The first of two equal names wins.
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

#[derive(Debug)]
pub(crate) struct Pattern {
    pub source: String,
    pub matcher: Option<Box<jsonschema::Validator>>,
    pub schema: Id,
}

#[derive(Clone, Debug)]
pub(crate) struct TextPattern {
    pub source: String,
    pub matcher: Matcher,
}

#[derive(Clone, Debug)]
pub(crate) enum Matcher {
    /// Linear time in the string, whatever the pattern.
    Lite(std::sync::Arc<crate::limits::PatternMatcher>),
    /// ECMA-262 beyond `regex-lite` (lookaround, backreferences), with its backtracking limit.
    Ecma(std::sync::Arc<jsonschema::Validator>),
}

impl TextPattern {
    pub(crate) fn is_match(&self, text: &str) -> bool {
        match &self.matcher {
            Matcher::Lite(matcher) => matcher.is_match(text),
            Matcher::Ecma(validator) => validator.is_valid(&Value::String(text.to_owned())),
        }
    }
}

/// How R3's third condition is checked at an array member: the scanner alone (plain string
/// items, any items), or parsed and validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListCheck {
    Strings,
    Anything,
    Validate,
}

impl Node {
    /// No `enum`/`const` values and no `char` length to judge a string by.
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

    pub(crate) fn takes(&self, value: &Value) -> bool {
        self.types.has(Types::of(value))
    }

    #[inline]
    pub(crate) fn ordinal(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.find(&self.properties, key),
            None => self.properties.iter().position(|(k, _)| k == key),
        }
    }

    #[inline]
    pub(crate) fn is_required(&self, ordinal: usize) -> bool {
        self.required_at.get(ordinal).copied().unwrap_or(false)
    }

    /// `required` lists it, or it is one of [`Node::one_of_names`] (then its `null` is a value).
    #[inline]
    pub(crate) fn must_send(&self, ordinal: usize) -> bool {
        self.is_required(ordinal)
            || self.one_of_names.iter().any(|(names, _)| {
                let name = &self.properties[ordinal].0;
                names.iter().any(|n| n == name)
            })
    }

    /// The schema of a key no property names; `None` lets `additionalProperties` decide.
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

    pub(crate) fn is_struct(&self) -> bool {
        !self.properties.is_empty() || !self.required.is_empty()
    }

    pub(crate) fn is_tuple(&self) -> bool {
        !self.prefix.is_empty()
    }

    /// The string constant of property `key` (a tag).
    pub(crate) fn constant(&self, nodes: &[Node], key: &str) -> Option<String> {
        let (_, id) = &self.properties[self.ordinal(key)?];
        let node = &nodes[resolve(nodes, *id)];
        match node.values.as_deref() {
            Some([Value::String(s)]) => Some(s.clone()),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Form {
    /// No type said: depth only.
    Any,
    Typed,
    OneOrMany {
        one: Id,
        many: Id,
    },
    /// `lenient_scalars`: an `anyOf` of a scalar and a string of the text stitch writes for it.
    Lenient {
        scalar: Id,
    },
    /// Objects told apart by a constant string property (internally or adjacently tagged).
    Tagged {
        key: String,
        tags: Vec<(String, Id)>,
        /// The content's key when every member holds only the tag and it (adjacently tagged).
        content: Option<String>,
        /// `#[serde(other)]`.
        other: Option<Id>,
    },
    /// One-key objects and unit-variant strings (externally tagged).
    Keyed {
        units: Vec<String>,
        keys: Vec<(String, Id)>,
        names: Vec<String>,
    },
    Untagged,
}

/// String member `id` claims `text`, a list its array member takes (`docs/rules.md#r3-claimed`).
pub(crate) fn claims_string(nodes: &[Node], id: Id, text: &str) -> bool {
    let node = &nodes[resolve(nodes, id)];
    let named = (node.values.as_ref())
        .is_some_and(|values| values.iter().any(|v| v.as_str() == Some(text)));
    named
        || (node.text_pattern.as_ref())
            .is_some_and(|pattern| pattern_claims(text, |s| pattern.is_match(s)))
}

/// Follows `$ref`s and one-member `allOf`s; compilation refuses a cycle of them, so this ends.
pub(crate) fn resolve(nodes: &[Node], mut id: Id) -> Id {
    while let Some(target) = nodes[id].target {
        id = target;
    }
    id
}
