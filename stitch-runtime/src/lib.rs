//! Typed arguments for agent and MCP tools that refuse a list written as JSON text.
//!
//! Language models call tools with JSON arguments and get one shape wrong in a classic way: a
//! list arrives written as JSON text, `{"paths": "[\"a.png\"]"}` instead of
//! `{"paths": ["a.png"]}`. For a field that takes one value or a list ([`OneOrMany<String>`]),
//! that string is a valid single value, so a typed framework reads it as one wrong file name and
//! the tool fails later, far from the cause. stitch refuses it by name before the tool runs:
//!
//! ```text
//! paths is a list written as text — pass the array itself, not JSON written as text
//! ```
//!
//! Where no string is expected at all (a `Vec<T>`, a nested struct, a map), the same JSON text
//! is unambiguous and is repaired instead.
//!
//! ```
//! use stitch_runtime::{OneOrMany, ToolArgs};
//!
//! /// Show one or more images to the model.
//! #[derive(Debug, serde::Deserialize, ToolArgs)]
//! struct ViewFile {
//!     /// One path or a list of paths.
//!     #[stitch(max_items = 20)]
//!     paths: OneOrMany<String>,
//!     /// Tags to attach; JSON text here is repaired.
//!     #[serde(default)]
//!     tags: Vec<String>,
//! }
//!
//! // A list written as text where one value is also valid: refused, by name.
//! let err = ViewFile::from_value(serde_json::json!({"paths": "[\"a.png\"]"})).unwrap_err();
//! assert_eq!(err.issues()[0].path(), "paths");
//! assert_eq!(err.issues()[0].kind(), stitch_runtime::IssueKind::TextList);
//!
//! // A string that is not such a list stays one plain value.
//! let one = ViewFile::from_json(r#"{"paths": "[preview].png"}"#).unwrap();
//! assert_eq!(one.paths.as_slice(), ["[preview].png"]);
//!
//! // JSON text where no string is expected is repaired.
//! let fixed = ViewFile::from_json(r#"{"paths": ["a.png"], "tags": "[\"x\", \"y\"]"}"#).unwrap();
//! assert_eq!(fixed.tags, ["x", "y"]);
//! ```
//!
//! # The surfaces
//! One per way arguments arrive; each reports every issue at once and changes nothing it was
//! given when it refuses.
//!
//! | method | for | does |
//! |---|---|---|
//! | [`ToolArgs::from_value`] | managed MCP and agent tools (a `serde_json::Value`) | coerce, then deserialize |
//! | [`ToolArgs::from_json`] | a model's `arguments` string | the same from JSON text |
//! | [`ToolArgs::coerce_value`] | raw MCP, your own deserializer | check and repair in place; on `Err` the value is untouched |
//! | [`ToolArgs::from_argv`] | a command line (`--paths a --paths b`) | flags read as their fields' types decide, then the same rules |
//! | [`Args<T>`] | serde-based frameworks (rmcp's `Parameters<Args<T>>`) | `Deserialize` through `from_value` |
//! | `*_reported`, [`Reported<T>`] | any of the above, when you want to know | the same, and which positions were repaired |
//!
//! # The rules
//! The full statement, with the test vectors and where stitch goes beyond the TypeScript
//! original, is `docs/rules.md` in the repository: the code and the tests cite its rules by
//! anchor (`docs/rules.md#r3`). In short:
//!
//! - **R1, repair.** At a sequence, struct, map, tuple or non-string-bearing union position, a
//!   string is parsed as JSON; if it parses, the result replaces it and the walk goes on into
//!   it. If not, the string is left for serde to reject with its ordinary type error.
//! - **R2, keep.** At a *string-bearing* union (a [`OneOrMany`] of a string-like type, an
//!   untagged enum with a `String` newtype variant) a string is never parsed: `"123"`, `"null"`
//!   stay strings.
//! - **R3, refuse.** …except a string that (after JSON whitespace) starts with `[`, parses as a
//!   JSON array, and is accepted by one of the union's array members, elements and
//!   `min_items`/`max_items` included. That string is refused with an issue of kind
//!   [`IssueKind::TextList`]. `[preview].png`, `[1,2`, `123`, a list of objects for a string
//!   list, or a list longer than `max_items` stay one plain value.
//! - **R4, where.** Into struct fields by their serde wire names, sequence elements, map
//!   values, the matched variant of a tagged enum, the members of `OneOrMany` and of untagged
//!   enums. At an untagged enum a repair never changes the meaning of a value serde accepts:
//!   the member serde picks for the value as sent is walked, untouched, and only when it
//!   picks none are the members' repairs tried, in declaration order (the first member that
//!   reads its repaired value wins). Keys the type does not declare are left exactly as
//!   they are.
//! - **R5, paths.** Keys as the caller sent them joined with `.`, indices in decimal:
//!   `rows.0.names`. A flattened field and an internally tagged enum add no segment; the keys
//!   that carry an externally tagged variant or an adjacently tagged content are keys the caller
//!   sent, so they are segments.
//! - **R6, errors.** Every issue is reported at once (up to [`MAX_ISSUES`]): lists written as
//!   text, type errors in serde's words, missing required fields at the path they should have
//!   had, unknown fields under `deny_unknown_fields`, in the type's field order and elements by
//!   index. A refused call changes nothing the caller holds.
//! - **R7, limits.** At most [`MAX_DEPTH`] (127) arrays and objects may be open at once, the
//!   arguments' own object included, as serde_json's parser allows: the one more is refused
//!   with an [`IssueKind::TooDeep`] issue at its path, the same on every surface, never a
//!   stack overflow.
//! - **R8, null as absent.** A defaulted field (`#[serde(default)]`) whose type does not read
//!   `null` (not an `Option`, not `serde_json::Value`) takes `null` as the field left out: the
//!   key is dropped and serde gives the default. OpenAI's strict mode makes such a field
//!   nullable, so every value a schema stitch emits accepts is accepted.
//!
//! Two cases decided (and tested): `OneOrMany<serde_json::Value>` is string-bearing, and its
//! array member takes any list, so `"[1,2]"` there is refused as a list written as text; a
//! list holding a lone surrogate escape (`"[\"\\ud800\"]"`) is not JSON serde_json reads
//! (JavaScript's `JSON.parse` does), so it stays one plain value.
//!
//! # The command line
//! [`ToolArgs::from_argv`] reads the same arguments from flags (`--paths a.png --paths
//! b.png`), each value read as its field's type decides, under the same rules.
//!
//! # Types stitch walks
//! string-like: `String`, `Box<str>`, `Cow<str>`, `PathBuf`, `char`, unit-variant enums;
//! scalars: integers, floats, `bool`, `()`; sequences: `Vec`, `VecDeque`, `HashSet`,
//! `BTreeSet`, `Box<[T]>`, `[T; N]`; maps: `HashMap<String, T>`, `BTreeMap<String, T>`,
//! `serde_json::Map`; tuples up to eight; [`OneOrMany<T>`]; `serde_json::Value` (never
//! touched); `Option`, `Box`, `Arc`, `Rc` (seen through); and every type deriving
//! [`ToolArgs`]. A field of any other type is marked `#[stitch(opaque)]` and left to serde.
//!
//! # The input schema
//! The same derive gives each type its input schema, rendered as JSON text during compilation
//! ([`ToolArgs::INPUT_SCHEMA`], [`ToolArgs::input_schema`]): `properties` by serde's wire
//! names, `required` exactly as serde requires, doc comments as descriptions, every subschema
//! inline except a recursive type met again (a `$ref` to its `$anchor`). A tagged enum's
//! schema says `"type": "object"` beside its `oneOf`. [`tool`] wraps it as a tool definition for
//! MCP, OpenAI Chat Completions and the Responses API (plain or strict: [`tool::openai`],
//! [`tool::openai_strict`], [`tool::openai_responses`], [`tool::openai_responses_strict`]),
//! Anthropic (plain or strict tool use: [`tool::anthropic`], [`tool::anthropic_strict`]) and
//! Gemini ([`tool::gemini`] with the OpenAPI `parameters`, [`tool::gemini_json_schema`] with
//! `parametersJsonSchema`), with the type's doc comment
//! ([`ToolArgs::DESCRIPTION`]) as the tool's description; a type whose arguments are not an
//! object cannot be a tool, and is a type error at the `tool::*::<T>` call that names it.
//! Each format's schema keeps to the keywords its provider documents; where one has no
//! references, a recursive type is unrolled [`tool::UNROLL_DEPTH`] levels deep, and bounds a
//! format cannot state (Anthropic's strict mode) are written into the description.
//!
//! # Through a framework
//! [`Args<T>`] is `T` for any framework that deserializes a tool's arguments with serde: its
//! `Deserialize` runs [`ToolArgs::from_value`] and turns a refusal into the deserializer's
//! error, carrying the full message; with the `schemars` feature its `JsonSchema` is stitch's
//! schema of `T`. In
//! rmcp, a tool takes `Parameters(Args(args)): Parameters<Args<ViewFile>>` and needs no glue.
//!
//! # What was repaired
//! Each surface has a twin that also says what stitch repaired: [`ToolArgs::from_value_reported`],
//! [`ToolArgs::from_json_reported`], [`ToolArgs::coerce_value_reported`], and [`Reported<T>`]
//! beside [`Args<T>`]. Each [`Repair`] has its dotted path and its [`RepairKind`] (JSON text
//! parsed, parsed more than once, a scalar written as text read). A call that needed no repair
//! reports an empty [`Repairs`] that never allocated, and costs what the plain method costs.
//!
//! # Features
//! - `derive` (default): re-exports `#[derive(ToolArgs)]`.
//! - `schemars`: `schemars::JsonSchema` for [`Args<T>`] (stitch's schema of `T`, inline), so
//!   rmcp's `Parameters<Args<T>>` advertises it, and for [`OneOrMany<T>`] (over `T`'s own
//!   `JsonSchema`). A derived type gets no `JsonSchema` of its own: the feature is additive,
//!   and a type may derive schemars' `JsonSchema` beside `ToolArgs`.
//! - `json-schema`: [`json_schema::Coercer`], the same rules driven by a JSON Schema known only
//!   at run time (an MCP tool's `inputSchema`, a tool in any language).
//! - `tracing`: one `tracing` event per refused issue (`WARN`) and per repaired position
//!   (`DEBUG`), under the target `stitch`, with the fields `tool` (the type's name), `path`,
//!   `kind` and `outcome` (`refused` or `repaired`); argument values only after
//!   `trace_values(true)`. The levels are those rmcp gives a request answered with an error
//!   (`WARN`) and an answer or a fallback it took (`DEBUG`), and tower-http's trace layer a
//!   response (`DEBUG`; `ERROR` only for the server's own failures). A call with nothing to
//!   report emits nothing.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
// On docs.rs (`--cfg docsrs`), items behind a feature say which feature they need.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The stages, each depending only on those listed before it: `path` and `bounds` (the
// leaves), `schema` (the tree every type describes itself with), `error` and `report` (what
// a call answers), `trace`, `json` (the text: depth, the array check, the fast path, the
// reader that keeps paths), `walk` (the rules), `one_or_many`, `argv` (a command line read
// into arguments), `tool_args` (the trait whose methods run the stages in order), and the
// surfaces (`surface`: frameworks and provider formats) on top; `json_schema` drives the
// walk from a schema read at run time. `lib.rs` and `__private` only name them.
mod argv;
mod bounds;
mod error;
mod json;
#[cfg(feature = "json-schema")]
#[cfg_attr(docsrs, doc(cfg(feature = "json-schema")))]
pub mod json_schema;
mod limits;
mod one_or_many;
mod path;
mod report;
mod schema;
mod surface;
mod tool_args;
mod trace;
mod walk;

pub use crate::error::{ArgsError, Issue, IssueKind, MAX_ISSUES};
pub use crate::json::depth::MAX_DEPTH;
pub use crate::limits::{Limits, Num, Pattern};
pub use crate::one_or_many::OneOrMany;
pub use crate::report::{Repair, RepairKind, Repairs, Reported};
pub use crate::surface::args::Args;
pub use crate::surface::definition as tool;
pub use crate::tool_args::ToolArgs;
#[cfg(feature = "tracing")]
#[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
pub use crate::trace::trace_values;

#[cfg(feature = "derive")]
pub use stitch_derive::ToolArgs;

/// What the derive's generated code names, and a few helpers for stitch's own tests.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

// The crate's README (its page on crates.io) holds an example: it is compiled and run as a doc
// test, so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
