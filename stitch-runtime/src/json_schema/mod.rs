//! The rules driven by a JSON Schema known only at run time (feature `json-schema`).
//!
//! A [`Coercer`] is compiled once from a tool's JSON Schema (an MCP `inputSchema`, 2020-12 or
//! draft-07) and applies R1–R7 (`docs/rules.md`) to each call as
//! [`ToolArgs::coerce_value`](crate::ToolArgs::coerce_value) does for a Rust type: the same
//! messages at the same dotted paths, every issue at once (at most
//! [`MAX_ISSUES`](crate::MAX_ISSUES)), the value untouched on `Err`, the depth limit
//! ([`MAX_DEPTH`](crate::MAX_DEPTH)), and no allocation on a call accepted as sent.
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
//! In short: where the schema takes a string, a string is kept (R2) unless it is a list
//! written as text that an array member would take (R3); where it takes arrays or objects but
//! no string, JSON text is repaired (R1); `null` at a property `required` does not list and
//! whose schema does not take `null` is the property left out, and dropped (R8).
//!
//! How a schema is read into positions (string-bearing members, array members, tagged and
//! untagged unions, nullable, `$ref`, value constraints) and where the coercer must differ
//! from the derive is in `docs/coercer.md`. A `pattern` runs in linear time with `regex-lite`,
//! or as `jsonschema`'s beyond it; only one neither compiles is a [`SchemaError`]. Other
//! keywords (`format`, `uniqueItems`, `not`, …) are not the coercer's: validate the coerced
//! arguments against the schema afterwards.

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
/// Built once per schema with [`Coercer::new`], then shared: a `Coercer` is `Send + Sync`.
pub struct Coercer {
    nodes: Vec<Node>,
    root: Id,
}

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

    /// Applies the rules to `args` in place: on `Ok`, JSON text at structured positions has
    /// been replaced by what it parses to and nothing else changed; on `Err`, `args` is
    /// exactly as it was.
    pub fn coerce(&self, args: &mut Value) -> Result<(), ArgsError> {
        // A non-object where only objects are taken is refused at the root (`docs/rules.md#r5`).
        if !matches!(args, Value::Object(_) | Value::String(_)) && self.takes_only_objects() {
            let message = crate::error::not_an_object(args);
            let issue = crate::error::Issue::invalid("", message);
            return Err(ArgsError::single(issue));
        }
        self.run(args, Cx::new(false))
    }

    /// The check pass, then, when it found no issue and a repair is due, the apply pass.
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

    /// Applies only stitch's own rules, for a caller that forwards the arguments to another
    /// validator (`stitch-proxy`): a list written as text is refused (R3) and the `Err` holds
    /// only those refusals; otherwise every repair is made (R1, R8) and every other issue (a
    /// type error, a missing or unknown property, a bound) is left to the next validator. On
    /// `Err`, `args` is exactly as it was.
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
