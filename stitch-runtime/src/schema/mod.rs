//! The input schema (JSON Schema 2020-12) as a `&'static` [`Schema`] tree per type
//! ([`Describe`]), rendered in a `const fn` ([`write`]) so that
//! [`ToolArgs::INPUT_SCHEMA`](crate::ToolArgs::INPUT_SCHEMA) is a constant ([`text`]).
//! Every subschema is inline but a recursive type's: its first place carries an `$anchor`,
//! written once per schema, that later places and self-references point to (`#Name`).

use crate::limits::Limits;

pub(crate) mod check;
pub(crate) mod limited;
pub(crate) mod marks;
pub(crate) mod text;
pub(crate) mod write;

/// A JSON Schema fragment, as `&'static` parts that constants can hold.
///
/// Every string in the tree is held JSON-escaped (the derive escapes it), so rendering
/// during compilation copies it whole.
#[derive(Debug)]
#[non_exhaustive]
pub enum Schema {
    /// `{}`: anything (`serde_json::Value`, an opaque field without a schema).
    Any,
    /// `{"type":"null"}`
    Null,
    /// `{"type":"boolean"}`
    Boolean,
    /// `{"type":"integer","minimum":…,"maximum":…}` from the Rust type's range.
    Integer {
        /// The smallest value.
        min: i128,
        /// The largest value.
        max: u128,
    },
    /// `{"type":"number"}`
    Number,
    /// An `f32`: a number within `f32::MAX` written as an `f64`.
    Float32,
    /// `{"type":"string"}`
    String,
    /// A string of exactly one character.
    Char,
    /// `{"type":"string","enum":[…]}`: a unit-variant enum.
    Enum(&'static [&'static str]),
    /// `{"type":"array","items":…}`
    Array {
        /// The element schema.
        items: &'static Schema,
        /// `minItems`, when above zero.
        min_items: usize,
        /// `maxItems`, when bounded.
        max_items: Option<usize>,
        /// `uniqueItems` (sets).
        unique: bool,
    },
    /// `{"type":"array","prefixItems":[…],"items":false,…}`: a tuple.
    Tuple(&'static [&'static Schema]),
    /// `{"type":"object","additionalProperties":…}`: a map with string keys.
    Map(&'static Schema),
    /// A struct.
    Object(&'static Object),
    /// `OneOrMany<T>`: `{"anyOf":[T,{"type":"array","items":T}]}`.
    OneOrMany(&'static Schema),
    /// `{"anyOf":[…]}`: an untagged enum.
    AnyOf(&'static [&'static Schema]),
    /// `{"oneOf":[…]}`: a tagged enum.
    OneOf(&'static [&'static Schema]),
    /// An internally tagged variant: an object whose `tag` is the constant `value`, with the
    /// properties of `body` (an object schema, or `Null` for a unit variant).
    Tagged {
        /// The tag's key.
        tag: &'static str,
        /// The variant's name.
        value: &'static str,
        /// The variant's fields.
        body: &'static Schema,
    },
    /// An adjacently tagged variant: `{"tag": value, "content": content}`.
    Adjacent {
        /// The tag's key.
        tag: &'static str,
        /// The variant's name.
        value: &'static str,
        /// The content's key.
        content_key: &'static str,
        /// The content's schema (`None` for a unit variant).
        content: Option<&'static Schema>,
    },
    /// An externally tagged variant with data: `{"Variant": content}`.
    External {
        /// The variant's name.
        key: &'static str,
        /// The content's schema.
        content: &'static Schema,
    },
    /// Schema text given by the user (`#[stitch(schema = "…")]`), checked to be JSON.
    Raw(&'static str),
    /// `{"$ref":"#Name"}`: a recursive type's reference to itself.
    Ref(&'static str),
    /// A recursive type's schema, carrying `"$anchor":"Name"`.
    Anchored {
        /// The anchor's name.
        anchor: &'static str,
        /// The schema.
        inner: &'static Schema,
    },
    /// A type's own description (an enum's doc comment) around its schema; a property's
    /// description wins over it.
    Described {
        /// The description, JSON-escaped.
        description: &'static str,
        /// The schema.
        inner: &'static Schema,
    },
    /// A field's `min_items` / `max_items`, applied to the array form of `inner`.
    Bounded {
        /// The field type's schema.
        inner: &'static Schema,
        /// `min_items`
        min: usize,
        /// `max_items` (`usize::MAX` when unset).
        max: usize,
    },
    /// `#[stitch(lenient_scalars)]`: each number or boolean of `inner` outside nested structs
    /// and unions may also be written as text, `{"anyOf": [leaf, text]}`.
    Lenient(&'static Schema),
    /// A field's constraints, applied to each number or string of `inner`.
    Limited {
        /// The field type's schema.
        inner: &'static Schema,
        /// The constraints.
        limits: &'static Limits,
    },
}

impl Schema {
    /// The tag value of a variant that takes any other tag (`#[serde(other)]`); no escaped
    /// name is this text.
    #[doc(hidden)]
    pub const ANY_TAG: &'static str = "\u{0}";
}

/// The object schema of a struct (or a struct variant).
#[derive(Debug)]
pub struct Object {
    /// The properties, by serde's wire names.
    pub properties: &'static [Property],
    /// Flattened fields, whose properties (or map values) join this object's.
    pub flatten: &'static [Flattened],
    /// `#[serde(deny_unknown_fields)]`: `"additionalProperties": false`.
    pub deny_unknown_fields: bool,
    /// The struct's doc comment or `#[stitch(description = "…")]`.
    pub description: Option<&'static str>,
}

/// A field type's [`Describe`] constants together, read through the walk's own trait
/// (`<T as Coerce>::FIELD`) so that a type stitch cannot walk is one error at the field, not two.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct FieldOf {
    /// [`Describe::SCHEMA`].
    pub schema: &'static Schema,
    /// [`Describe::OPTIONAL`].
    pub optional: bool,
    /// [`Describe::DEFAULT`].
    pub default: Option<&'static str>,
}

/// One property of an [`Object`]: `Property(type, name, flags, description)`, `flags` being
/// the `u8` constants below; read through its methods.
///
/// A tuple struct built in place, not by a `const fn`: the compiler checks each value of a
/// type with fields that a call returns in a constant, in every build that defines a tool.
#[derive(Debug)]
pub struct Property(
    pub &'static FieldOf,
    pub &'static str,
    pub u8,
    pub &'static str,
);

impl Property {
    /// serde has a default for the field (`#[serde(default)]` on it or on the struct).
    pub const SERDE_DEFAULT: u8 = 1;
    /// The schema lists the type's default (`FieldOf::default`).
    pub const TYPE_DEFAULT: u8 = 2;
    /// The field has a description (the fourth member).
    pub const DESCRIBED: u8 = 4;
    /// Another name serde reads the property before it under (`#[serde(alias)]`).
    pub const ALIAS: u8 = 8;

    /// The wire name.
    pub const fn name(&self) -> &'static str {
        self.1
    }

    /// The field type's schema.
    pub const fn schema(&self) -> &'static Schema {
        self.0.schema
    }

    /// serde requires it (no `Option`, no `default`); an alias never is (the field is).
    pub const fn required(&self) -> bool {
        self.2 & (Self::SERDE_DEFAULT | Self::ALIAS) == 0 && !self.0.optional
    }

    /// An alias of the field before it.
    pub const fn is_alias(&self) -> bool {
        self.2 & Self::ALIAS != 0
    }

    /// The field's doc comment or `#[stitch(description = "…")]`.
    pub const fn description(&self) -> Option<&'static str> {
        if self.2 & Self::DESCRIBED != 0 {
            Some(self.3)
        } else {
            None
        }
    }

    /// The default value as JSON text, where the derive can see it.
    pub const fn default(&self) -> Option<&'static str> {
        if self.2 & Self::TYPE_DEFAULT != 0 {
            self.0.default
        } else {
            None
        }
    }
}

/// A `#[serde(flatten)]` field.
#[derive(Debug)]
pub struct Flattened {
    /// The flattened type's schema (an object or a map).
    pub schema: &'static Schema,
    /// The field is an `Option`: its properties are not required.
    pub optional: bool,
}

/// A type's schema, for the derive to compose. Implemented for every type stitch walks.
pub trait Describe {
    /// The schema of a value of this type.
    const SCHEMA: &'static Schema;
    /// serde accepts the field missing (`Option<T>`).
    const OPTIONAL: bool = false;
    /// serde reads `null` as a value of this type (`Option<T>`, `()`, `Value`, …): a defaulted
    /// field's `null` is then read, not taken as the field left out (`docs/rules.md#r8`).
    const NULLABLE: bool = Self::OPTIONAL;
    /// The schema where the value cannot be left out (an item, a map's value): an `Option`'s
    /// says `null` too.
    const ITEM_SCHEMA: &'static Schema = Self::SCHEMA;
    /// `Default::default()` as JSON text, where it is known.
    const DEFAULT: Option<&'static str> = None;
}

/// What a [`OneOrMany`](crate::OneOrMany) field's description says about the list form.
pub const ONE_OR_MANY_NOTE: &str =
    "One value, or a list of values passed as a JSON array (not as JSON text).";

impl Object {
    /// An object with no property.
    pub const EMPTY: Object = Object {
        properties: &[],
        flatten: &[],
        deny_unknown_fields: false,
        description: None,
    };
}

/// The object schema inside `schema`, seen through an anchor or item bounds.
pub(crate) const fn as_object(schema: &Schema) -> Option<&Object> {
    match core(schema) {
        Schema::Object(object) => Some(object),
        _ => None,
    }
}

/// Whether every value `schema` accepts is a JSON object, as a tool's arguments must be; such
/// a union's schema says `"type":"object"` beside its `oneOf`/`anyOf`.
pub(crate) const fn is_object(schema: &Schema) -> bool {
    match core(schema) {
        Schema::Object(_)
        | Schema::Map(_)
        | Schema::Tagged { .. }
        | Schema::Adjacent { .. }
        | Schema::External { .. } => true,
        Schema::OneOf(members) | Schema::AnyOf(members) => {
            let mut i = 0;
            while i < members.len() {
                if !is_object(members[i]) {
                    return false;
                }
                i += 1;
            }
            !members.is_empty()
        }
        _ => false,
    }
}

/// `schema` without what does not change its kind: an anchor, bounds, constraints, a description.
pub(crate) const fn core(mut schema: &Schema) -> &Schema {
    while let Schema::Anchored { inner, .. }
    | Schema::Bounded { inner, .. }
    | Schema::Limited { inner, .. }
    | Schema::Lenient(inner)
    | Schema::Described { inner, .. } = schema
    {
        schema = inner;
    }
    schema
}

/// The most flattened unions one object may combine, and the most members the combination
/// (the product of their sizes) may have; past either, [`check::tool_root`] refuses the tool.
pub(crate) const MAX_UNIONS: usize = 4;
pub(crate) const MAX_MEMBERS: usize = 64;

/// The flattened unions of an object (looking into flattened structs), in serde's order, each
/// with whether it is optional (then serde may read `None`, one more choice).
#[derive(Clone, Copy)]
pub(crate) struct Unions {
    pub(crate) list: [(&'static [&'static Schema], bool); MAX_UNIONS],
    pub(crate) len: usize,
    /// More than [`MAX_UNIONS`] were found (the first ones are in `list`).
    pub(crate) overflow: bool,
}

impl Unions {
    /// One choice per variant (an externally tagged enum's unit variants one each), plus `None`.
    pub(crate) const fn choices(&self, u: usize) -> usize {
        let (members, optional) = self.list[u];
        let mut n = optional as usize;
        let mut i = 0;
        while i < members.len() {
            n += match core(members[i]) {
                Schema::Enum(names) => names.len(),
                _ => 1,
            };
            i += 1;
        }
        n
    }

    /// The product of the choices, saturating.
    pub(crate) const fn members(&self) -> usize {
        let mut n: usize = 1;
        let mut u = 0;
        while u < self.len {
            n = n.saturating_mul(self.choices(u));
            u += 1;
        }
        n
    }

    pub(crate) const fn bounded(&self) -> bool {
        !self.overflow && self.members() <= MAX_MEMBERS
    }
}

pub(crate) const fn flattened_unions(object: &Object) -> Unions {
    const NONE: &[&Schema] = &[];
    let mut unions = Unions {
        list: [(NONE, false); MAX_UNIONS],
        len: 0,
        overflow: false,
    };
    gather(object, false, &mut unions);
    unions
}

const fn gather(object: &Object, optional: bool, unions: &mut Unions) {
    let mut f = 0;
    while f < object.flatten.len() {
        let optional = optional || object.flatten[f].optional;
        match core(object.flatten[f].schema) {
            Schema::OneOf(members) | Schema::AnyOf(members) => {
                if unions.len == MAX_UNIONS {
                    unions.overflow = true;
                } else {
                    unions.list[unions.len] = (members, optional);
                    unions.len += 1;
                }
            }
            Schema::Object(inner) => gather(inner, optional, unions),
            _ => {}
        }
        f += 1;
    }
}

/// `a == b` in a `const fn`.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
