//! The rules driven by a JSON Schema known only at run time (feature `json-schema`).
//!
//! A [`Coercer`] is compiled once from a tool's JSON Schema (an MCP `inputSchema`, in the
//! 2020-12 or the draft-07 form) and then applies the rules R1–R7 (`docs/rules.md`) to
//! each call's arguments, exactly as [`ToolArgs::coerce_value`](crate::ToolArgs::coerce_value)
//! applies them for a Rust type: the same messages at the same dotted paths, every issue at
//! once (at most [`MAX_ISSUES`](crate::MAX_ISSUES)), the value untouched on `Err`, the depth
//! limit ([`MAX_DEPTH`](crate::MAX_DEPTH)), and no allocation on a call that is accepted as
//! sent.
//!
//! ```
//! use serde_json::json;
//! use stitch_runtime::json_schema::Coercer;
//!
//! let coercer = Coercer::new(&json!({
//!     "type": "object",
//!     "properties": {
//!         "paths": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
//!         "tags": {"type": "array", "items": {"type": "string"}}
//!     },
//!     "required": ["paths"]
//! }))
//! .unwrap();
//!
//! // A list written as text where one string is also valid: refused, by name.
//! let mut args = json!({"paths": "[\"a.png\"]"});
//! let err = coercer.coerce(&mut args).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
//! );
//!
//! // JSON text where no string is expected: repaired.
//! let mut args = json!({"paths": "[preview].png", "tags": "[\"x\"]"});
//! coercer.coerce(&mut args).unwrap();
//! assert_eq!(args, json!({"paths": "[preview].png", "tags": ["x"]}));
//! ```
//!
//! # From the schema to the rules
//!
//! The derive knows a position's Rust type; the coercer reads the same facts from the
//! schema:
//!
//! - **String-bearing.** A position is string-bearing when its schema accepts a JSON string:
//!   `type` `string` (alone or in a list), a string `enum` or `const`, `{}`, or an
//!   `anyOf`/`oneOf` member that is string-bearing. There a string is kept (R2), except a
//!   list written as text (R3).
//! - **Array members.** The array members of a union are its `anyOf`/`oneOf` members of type
//!   `array` that list their items with `items` (a `prefixItems` tuple is not one). "The
//!   array member accepts the list" means that member's subschema validates the parsed list,
//!   checked by a real validator (the `jsonschema` crate, one validator compiled per array
//!   member when the coercer is built): item types, `enum`s, `minItems`/`maxItems` and the
//!   rest. Lists of plain strings (and of anything) are checked by stitch's own scanner, which
//!   agrees with the validator there and allocates nothing.
//! - **Repaired positions (R1).** A position whose schema accepts arrays or objects but no
//!   string (`type` `array` or `object`, or keywords that describe one: `items`,
//!   `properties`, `additionalProperties`) repairs JSON text: the parsed value replaces the
//!   string when it is of a kind the position takes, and is walked in turn. A union with no
//!   string-bearing member takes the parsed value of any kind, as the derive's unions do.
//! - **Unions.** An `anyOf` of `T` and an array of `T` is `OneOrMany<T>`. A `oneOf` (or
//!   `anyOf`) of objects that all give one required property a constant string (`const`, or
//!   a one-value `enum`) is a tagged enum: the value is walked as the member its tag names.
//!   One member may give it any string instead (`{"type": "string"}`, `#[serde(other)]`): the
//!   member of every tag the others do not name.
//!   A `oneOf` of one-key objects (`{"Variant": …}`, `additionalProperties: false`) and of
//!   string enums is an externally tagged enum. Any other `anyOf`/`oneOf` is an untagged
//!   enum: the member the validator takes as sent wins, and only when none does are the
//!   members' repairs tried in order (`docs/rules.md#untagged`).
//! - **One of these names.** An `anyOf`/`oneOf` (here or in an `allOf`) whose members each
//!   only require one name (`{"required": ["colour"]}`) is no union: one of the names must be
//!   sent (none is ``missing field `color` ``, the first name; two, under a `oneOf`, serde's
//!   ``duplicate field `color` ``), and a `null` at one of them is a value, not the property
//!   left out. The derive writes it for a required field with aliases.
//! - **Written as text (`lenient_scalars`).** An `anyOf` of an integer, a number or a boolean
//!   and a string of exactly the text stitch's schemas give it (`^(0|[1-9][0-9]*)$`,
//!   `^(0|-?[1-9][0-9]*)$`, the JSON number's grammar, `enum` `"true"`/`"false"`) is the
//!   scalar: its text is read into it when it reads back to itself within the type, as the
//!   derive reads it, and is then judged as the scalar.
//! - **Nullable.** `null` is left alone where the schema allows it: `"type": [… "null"]`,
//!   `nullable: true` (OpenAPI), or a `{"type": "null"}` member of an `anyOf`/`oneOf` (which
//!   is then set aside: the other members decide).
//! - **Left out (R8).** `null` at a property that `required` does not list and whose schema
//!   does not take `null` is the property left out, as the derive takes it at a defaulted
//!   field: the key is dropped (a repair; a refused call keeps it). A schema cannot tell a
//!   defaulted field from an `Option` one, whose `null` the derive keeps (serde reads `None`
//!   either way).
//! - **References.** `$ref` to `#`, to a JSON pointer (`#/$defs/Row`,
//!   `#/definitions/Row`, any subschema), or to an `$anchor` (`#Row`, as stitch's recursive
//!   schemas write it); a recursive schema is a cycle in the compiled arena. A `$ref`'s
//!   sibling keywords are not read (draft-07's rule). An `allOf` is merged into its node.
//! - **Type errors.** As `coerce_value`, the coercer reports a value of the wrong type, a
//!   missing required property and, under `additionalProperties: false`, an unknown one, in
//!   serde's words (`invalid type: string "x", expected u32`, ``missing field `line` ``),
//!   with the Rust type read from the schema (an integer's `minimum`/`maximum`, a one-character
//!   string). What the schema cannot say, it says in its own words: `an object` for a struct
//!   (serde names the struct), `data did not match any variant of the schema's anyOf/oneOf`
//!   for an untagged union (serde names the enum). `docs/rules.md` lists every place where
//!   the two differ, and why.
//!
//! - **Value constraints.** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (a
//!   number; draft-04's `true` beside `minimum`/`maximum` makes that bound exclusive),
//!   `multipleOf`, `minLength`, `maxLength` (in code points) and `pattern` (ECMA-262, run by
//!   `regex-lite` in linear time, or by `jsonschema`'s `pattern` keyword where it goes beyond
//!   regex-lite, lookaround or backreferences; only a pattern that does not compile at all is a
//!   [`SchemaError`] at its pointer) are checked at each number or string a position takes, once its type has
//!   taken it, as `#[stitch(minimum = …, pattern = "…")]` has the derive check them, in the
//!   same words (`0 is less than the minimum of 1`, ``"Abc" does not match the pattern
//!   `^[a-z]+$` ``). An integer's `minimum`/`maximum` that are exactly a Rust integer type's
//!   range, and a string's `minLength`/`maxLength` of 1 and 1, name the type instead (`expected
//!   u8`, `expected a character`). The constraints take no part in R3 nor in serde's pick: the
//!   validators of array members are built without them (item bounds stay), so `"[\"A\"]"`
//!   where a lowercase string or a list of them is expected is a list written as text, refused
//!   as one.
//!
//! Other keywords (`format`, `uniqueItems`, `not`, …) are not the coercer's: validate the
//! coerced arguments against the schema afterwards.

mod compile;
mod constraints;
mod cost;
mod link;
mod message;
mod node;
mod read;
mod union;
mod walk;

use core::fmt;

use serde_json::Value;

use crate::error::ArgsError;
use crate::path::Path;
use crate::walk::Cx;

use self::node::{Id, Node};

/// The rules R1–R7 for the arguments of one tool whose JSON Schema is known at run time.
///
/// Built once per schema with [`Coercer::new`] (which compiles the schema and its
/// validators), then shared: a `Coercer` is `Send + Sync`.
pub struct Coercer {
    nodes: Vec<Node>,
    root: Id,
}

// A server builds one per tool and shares it between threads.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Coercer>();
};

impl Coercer {
    /// Compiles `schema`. A schema that cannot be compiled (an unresolvable `$ref`, a
    /// malformed keyword, a subschema the validator refuses) is a [`SchemaError`] naming the
    /// JSON pointer of the bad part.
    pub fn new(schema: &Value) -> Result<Coercer, SchemaError> {
        let (nodes, root) = compile::compile(schema)?;
        Ok(Coercer { nodes, root })
    }

    /// Applies the rules to `args` in place, as
    /// [`ToolArgs::coerce_value`](crate::ToolArgs::coerce_value) does for a Rust type: on
    /// `Ok`, JSON text at structured positions has been replaced by what it parses to and
    /// nothing else changed; on `Err`, `args` is exactly as it was.
    pub fn coerce(&self, args: &mut Value) -> Result<(), ArgsError> {
        // Arguments that are not an object, where the schema takes only objects, are refused
        // at the root as the derive refuses them (`docs/rules.md#r5`); a string goes by R1.
        if !matches!(args, Value::Object(_) | Value::String(_)) && self.takes_only_objects() {
            let message = crate::error::not_an_object(args);
            let issue = crate::error::Issue::invalid("", message);
            return Err(ArgsError::single(issue));
        }
        self.run(args, Cx::new(false))
    }

    /// The check pass `cx` over `args`, then, when it found no issue and a repair is due, the
    /// apply pass: the one order of every call.
    fn run(&self, args: &mut Value, mut cx: Cx) -> Result<(), ArgsError> {
        let mut walk = walk::Walk {
            nodes: &self.nodes,
            one_or_many: None,
        };
        walk.walk(self.root, args, &mut cx, &Path::ROOT);
        if cx.found_issues() {
            return Err(cx.refusal().0);
        }
        if cx.pending() {
            let mut apply = Cx::new(true);
            walk.walk(self.root, args, &mut apply, &Path::ROOT);
        }
        Ok(())
    }

    /// Whether the root schema (through its `$ref`s) takes objects and nothing else.
    fn takes_only_objects(&self) -> bool {
        let mut node = &self.nodes[self.root];
        let mut hops = 0;
        while let Some(target) = node.target {
            node = &self.nodes[target];
            hops += 1;
            if hops > self.nodes.len() {
                return false;
            }
        }
        node.typed && !node.nullable && node.types == node::Types::OBJECT
    }
}

impl Coercer {
    /// Applies only what stitch's rules do, for a caller that forwards the arguments to
    /// someone else's validation (`stitch-proxy`): a list written as text is refused (R3) —
    /// the `Err` holds those refusals and nothing else; otherwise every repair is made (JSON
    /// text where no string is expected, R1; `null` at a property that may be left out, R8),
    /// and every other issue — a type error, a missing or unknown property, a bound — is left
    /// for the validator that comes next. On `Err`, `args` is exactly as it was.
    ///
    /// ```
    /// use serde_json::json;
    /// use stitch_runtime::json_schema::Coercer;
    ///
    /// let coercer = Coercer::new(&json!({"type": "object", "properties": {
    ///     "n": {"type": "integer"},
    ///     "tags": {"type": "array", "items": {"type": "string"}}}})).unwrap();
    /// // `"1"` is the server's to judge; the tags are repaired.
    /// let mut args = json!({"n": "1", "tags": "[\"x\"]"});
    /// coercer.coerce_rules_only(&mut args).unwrap();
    /// assert_eq!(args, json!({"n": "1", "tags": ["x"]}));
    /// assert!(coercer.coerce(&mut json!({"n": "1"})).is_err());
    /// ```
    pub fn coerce_rules_only(&self, args: &mut Value) -> Result<(), ArgsError> {
        self.run(args, Cx::rules_only())
    }
}

impl fmt::Debug for Coercer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Coercer")
            .field("nodes", &self.nodes.len())
            .finish_non_exhaustive()
    }
}

/// A schema a [`Coercer`] cannot be compiled from: where (a JSON pointer into the schema,
/// `""` for the root) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    pointer: String,
    message: String,
}

impl SchemaError {
    pub(crate) fn new(pointer: String, message: String) -> SchemaError {
        SchemaError { pointer, message }
    }

    /// The JSON pointer of the part that cannot be compiled (`/properties/paths/$ref`).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// Why.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "schema at `#{}`: {}", self.pointer, self.message)
    }
}

impl std::error::Error for SchemaError {}
