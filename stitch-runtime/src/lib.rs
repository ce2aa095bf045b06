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
//! Each reports every issue at once and, when it refuses, changes nothing it was given.
//!
//! | method | for | does |
//! |---|---|---|
//! | [`ToolArgs::from_value`] | managed MCP and agent tools (a `serde_json::Value`) | coerce, then deserialize |
//! | [`ToolArgs::from_json`] | a model's `arguments` string | the same from JSON text |
//! | [`ToolArgs::coerce_value`] | raw MCP, your own deserializer | check and repair in place; on `Err` the value is untouched |
//! | [`ToolArgs::from_argv`] | a command line (`--paths a --paths b`) | flags read as their fields' types decide, then the same rules |
//! | [`Args<T>`] | serde-based frameworks (rmcp's `Parameters<Args<T>>`) | `Deserialize` through `from_value` |
//! | `*_reported`, [`Reported<T>`] | any of the above, when you want to know | the same, and which positions were repaired ([`Repairs`]) |
//!
//! # The rules
//! Stated in full, with test vectors, in `docs/rules.md` (the code cites its anchors, `#r3`):
//!
//! - **R1, repair.** Where no string is expected, a string that parses as JSON is replaced by
//!   what it parses to; any other is left for serde to reject.
//! - **R2, keep.** At a *string-bearing* union (a [`OneOrMany`] of a string-like type, an
//!   untagged enum with a `String` member) a string is never parsed: `"123"` stays a string.
//! - **R3, refuse.** …except a JSON array that one of the union's array members accepts
//!   (elements and `min_items`/`max_items` included): [`IssueKind::TextList`].
//!   `[preview].png`, `[1,2` or a list longer than `max_items` stay one plain value.
//! - **R4, where.** Fields by wire name, elements, map values, the matched variant, union
//!   members; a repair never changes the meaning of a value serde accepts.
//! - **R5, paths.** Keys as sent, joined with `.`, indices in decimal: `rows.0.names`.
//! - **R6, errors.** Every issue at once (up to [`MAX_ISSUES`]), in the type's field order.
//! - **R7, limits.** At most [`MAX_DEPTH`] arrays and objects open at once; deeper is an
//!   [`IssueKind::TooDeep`] issue, never a stack overflow.
//! - **R8, null as absent.** A `#[serde(default)]` field whose type does not read `null` takes
//!   `null` as the field left out (OpenAI's strict mode sends it).
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
//! The derive also renders each type's JSON Schema during compilation
//! ([`ToolArgs::INPUT_SCHEMA`], [`ToolArgs::input_schema`]): `properties` by wire name,
//! `required` as serde requires, doc comments as descriptions. [`tool`] wraps it as a tool
//! definition for MCP, OpenAI (Chat Completions and Responses, plain or strict), Anthropic
//! (plain or strict) and Gemini, each in the keywords its provider documents; a type a format
//! cannot take is a compile error at the `tool::*::<T>` call.
//!
//! # Features
//! - `derive` (default): re-exports `#[derive(ToolArgs)]`.
//! - `schemars`: `schemars::JsonSchema` for [`Args<T>`] (stitch's schema of `T`) and
//!   [`OneOrMany<T>`]; a derived type gets none of its own, so it may derive schemars' beside.
//! - `json-schema`: [`json_schema::Coercer`], the same rules driven by a JSON Schema known only
//!   at run time (an MCP tool's `inputSchema`).
//! - `pattern`: `#[stitch(pattern = "…")]`, enforced with `regex-lite`.
//! - `tracing`: a `WARN` event per refused issue and a `DEBUG` event per repair, target
//!   `stitch`, fields `tool`, `path`, `kind`, `outcome`; values only after
//!   `trace_values(true)`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Stages, each using only those before it: path, bounds, limits, schema, error, report, trace,
// json, walk, one_or_many, argv, tool_args, surface; json_schema drives the walk at run time.
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
pub use crate::surface::bounds::{ObjectArgs, StrictArgs};
pub use crate::surface::definition as tool;
pub use crate::tool_args::ToolArgs;
#[cfg(feature = "tracing")]
#[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
pub use crate::trace::trace_values;

#[cfg(feature = "derive")]
pub use stitch_derive::ToolArgs;

/// What the derive's generated code names; not API.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

// The README's example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
