//! The [`ToolArgs`] trait: the three surfaces a tool's arguments arrive through.

use serde_json::Value;

use crate::bounds::Bounds;
use crate::error::{self, ArgsError, Issue};
use crate::json::depth::{deep_path, is_recursion_limit, MAX_DEPTH};
use crate::json::parse::{self, Duplicates};
use crate::json::plain_value::Plain;
use crate::report::{Repairs, Reported};
use crate::trace;
use crate::walk::{dispose, run, run_with, Coerce, Cx, Record, Tool};

/// A tool's argument type: `#[derive(ToolArgs)]` implements it, and only the derive.
///
/// Every method is provided. The derive also implements the walk and the schema the methods
/// build on (the hidden supertrait `Coerce`, with its schema, `Describe`); those are not an
/// extension point and change in any release. A type of another crate inside a tool's
/// arguments is marked `#[stitch(opaque)]` and left to serde.
///
/// ```
/// use stitch_runtime::{OneOrMany, ToolArgs};
///
/// /// Show one or more images to the model.
/// #[derive(Debug, serde::Deserialize, ToolArgs)]
/// struct ViewFile {
///     /// One path or a list of paths.
///     #[stitch(max_items = 20)]
///     paths: OneOrMany<String>,
/// }
///
/// let err = ViewFile::from_value(serde_json::json!({"paths": "[\"a.png\"]"})).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
/// );
///
/// let ok = ViewFile::from_json(r#"{"paths": "[preview].png"}"#).unwrap();
/// assert_eq!(ok.paths, OneOrMany::One("[preview].png".to_string()));
/// ```
pub trait ToolArgs: Coerce {
    /// The tool's description: the type's doc comment, or `#[stitch(description = "…")]` on
    /// it, as plain text (for structs and enums alike); `None` when it has neither. Every
    /// `tool::*` helper uses it when given no description, and a framework can
    /// name it where it wants a `&'static str` (rmcp's `#[tool(description = …)]`).
    ///
    /// ```
    /// use stitch_runtime::ToolArgs;
    ///
    /// /// Find a file by "name".
    /// #[derive(serde::Deserialize, ToolArgs)]
    /// struct Find {
    ///     name: String,
    /// }
    ///
    /// /// Act on one file.
    /// #[derive(serde::Deserialize, ToolArgs)]
    /// #[serde(tag = "kind")]
    /// enum Act {
    ///     Open { path: String },
    ///     Close { path: String },
    /// }
    ///
    /// assert_eq!(Find::DESCRIPTION, Some("Find a file by \"name\"."));
    /// assert_eq!(Act::DESCRIPTION, Some("Act on one file."));
    /// let tool = stitch_runtime::tool::mcp::<Act>("act", None);
    /// assert_eq!(tool["description"], "Act on one file.");
    /// assert_eq!(tool["inputSchema"]["type"], "object");
    /// ```
    const DESCRIPTION: Option<&'static str> = None;

    /// The input schema as JSON text, rendered during compilation: a JSON Schema (2020-12)
    /// object with `properties` by serde's wire names and `required` as serde requires.
    ///
    /// It is evaluated only where it is named, so a build that does not use it does not pay
    /// for it; where it is named, the text sits in a buffer of
    /// `MAX_SCHEMA_TEXT` (16 KiB) bytes in the binary. A longer
    /// schema is a compile error pointing to [`ToolArgs::input_schema`], which builds any
    /// schema once at run time.
    const INPUT_SCHEMA: &'static str = <Self as crate::schema::text::SchemaText>::TEXT;

    /// The input schema as a value (built once, then shared).
    fn input_schema() -> &'static Value {
        crate::schema::text::cached::<Self>()
    }

    /// The raw surface: checks `args` against the type and applies the rules in place,
    /// deserializing nothing.
    ///
    /// The check is the one `from_value` runs: every list written as text, type error,
    /// missing required field and unknown field (under `deny_unknown_fields`) is an issue, in
    /// the type's field order. On `Ok`, JSON text at structured positions has been replaced
    /// by what it parses to, and the key of a defaulted field sent as `null` is dropped (R8);
    /// nothing else changed and no key was added or reordered. On `Err`, `args` is exactly
    /// as it was.
    #[inline]
    fn coerce_value(args: &mut Value) -> Result<(), ArgsError> {
        match run::<Self>(args, None) {
            Ok(()) => Ok(()),
            Err((error, _)) => Err(trace::refused(core::any::type_name::<Self>, error)),
        }
    }

    /// [`ToolArgs::coerce_value`], answering with the positions it repaired in `args` (see
    /// [`Repairs`]; empty, and nothing allocated for it, when nothing was).
    ///
    /// ```
    /// use stitch_runtime::ToolArgs;
    ///
    /// #[derive(serde::Deserialize, ToolArgs)]
    /// struct Rows {
    ///     rows: Vec<Vec<u32>>,
    /// }
    ///
    /// let mut args = serde_json::json!({"rows": ["[1, 2]", [3]]});
    /// let repairs = Rows::coerce_value_reported(&mut args).unwrap();
    /// assert_eq!(args, serde_json::json!({"rows": [[1, 2], [3]]}));
    /// assert_eq!(repairs.to_string(), "rows.0: JSON text parsed");
    /// ```
    #[inline]
    fn coerce_value_reported(args: &mut Value) -> Result<Repairs, ArgsError> {
        let mut repairs = Vec::new();
        match run::<Self>(args, Some(&mut repairs)) {
            Ok(()) => Ok(Repairs::from_walk(repairs)),
            Err((error, _)) => Err(trace::refused(core::any::type_name::<Self>, error)),
        }
    }

    /// The typed surface: coerces `args`, then deserializes it. A deserialization failure is
    /// one [`IssueKind::Invalid`](crate::IssueKind::Invalid) issue naming its path.
    #[inline]
    fn from_value(args: Value) -> Result<Self, ArgsError> {
        read_value(args, None)
    }

    /// [`ToolArgs::from_value`], answering with the accepted arguments together with the
    /// positions stitch repaired in them ([`Reported`]). A call that needed no repair reports
    /// none and costs what `from_value` costs.
    #[inline]
    fn from_value_reported(args: Value) -> Result<Reported<Self>, ArgsError> {
        let mut repairs = Vec::new();
        let args = read_value(args, Some(&mut repairs))?;
        let repairs = Repairs::from_walk(repairs);
        Ok(Reported { args, repairs })
    }

    /// [`ToolArgs::from_json`], answering with the accepted arguments together with the
    /// positions stitch repaired in them ([`Reported`]).
    #[inline]
    fn from_json_reported(text: &str) -> Result<Reported<Self>, ArgsError> {
        let mut repairs = Vec::new();
        let args = read_json(text, Some(&mut repairs))?;
        let repairs = Repairs::from_walk(repairs);
        Ok(Reported { args, repairs })
    }

    /// The command-line surface: flags by wire name (`--max_hits`) or kebab-case
    /// (`--max-hits`), one item per repeated flag, values read as the field's type decides. A
    /// string field takes the text; a number or boolean field parses it (a boolean is also a
    /// bare `--flag`, or `--flag=false`); a list takes one item per occurrence (`--tag a --tag
    /// b`), or, given once, a JSON array written as text (R1) — text that is not a JSON array,
    /// such as `[preview].png`, is one item; a `OneOrMany` given once is one value and refuses a
    /// list written as text (R3); a struct, map or tagged enum takes JSON text. A bare `--` ends
    /// the flags. Every missing required flag is named (`--paths`). The object so built goes
    /// through [`ToolArgs::from_value`].
    ///
    /// `name` is the command's name, for `--help` (or `-h`), which answers with one issue of
    /// kind [`IssueKind::Help`](crate::IssueKind::Help) whose message is the help text. A
    /// command line that cannot be read gives [`IssueKind::Usage`](crate::IssueKind::Usage)
    /// issues.
    ///
    /// ```
    /// use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
    ///
    /// /// Search the notes.
    /// #[derive(Debug, serde::Deserialize, ToolArgs)]
    /// struct Search {
    ///     /// What to look for.
    ///     query: String,
    ///     #[serde(default)]
    ///     max_hits: Option<u32>,
    ///     #[serde(default)]
    ///     tags: Vec<String>,
    /// }
    ///
    /// let args = ["--query", "fox", "--max-hits", "5", "--tags", "a", "--tags", "b"];
    /// let search = Search::from_argv("search", args).unwrap();
    /// assert_eq!((search.query.as_str(), search.max_hits), ("fox", Some(5)));
    /// assert_eq!(search.tags, ["a", "b"]);
    ///
    /// let help = Search::from_argv("search", ["--help"]).unwrap_err();
    /// assert_eq!(help.issues()[0].kind(), IssueKind::Help);
    /// assert!(help.to_string().contains("--query <text>"));
    /// ```
    fn from_argv<I, S>(name: &str, args: I) -> Result<Self, ArgsError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut read = crate::argv::read(name, Self::SCHEMA, args)?;
        let found = Self::from_value(read.arguments());
        read.finish(found)
    }

    /// The same from the arguments' JSON text, as a model's tool call carries it.
    #[inline]
    fn from_json(text: &str) -> Result<Self, ArgsError> {
        read_json(text, None)
    }
}

/// `from_json` of `text`, its repairs going to `record`.
#[inline]
fn read_json<T: Coerce>(text: &str, record: Record<'_>) -> Result<T, ArgsError> {
    // Text in which no rule could act goes straight to serde_json (see `json::plain`).
    // serde reads a struct from an array too; stitch's arguments are an object, so only text
    // that opens with one takes the fast path (leading white space: the full path).
    let plain = opens_as::<T>(text) && crate::json::plain::plain(text);
    if plain {
        if let Ok(args) = serde_json::from_str::<T>(text) {
            if args.bounds_hold(Bounds::NONE) {
                return Ok(args);
            }
        }
    }
    // The text is read with the keys it sends twice, for the walk to refuse a declared
    // field sent twice, as serde does (the fast path above refused it through serde).
    match parse::from_str(text) {
        // Text a rule could act on: its `Value` holds what made it so, walked first.
        Ok((args, duplicates)) if !plain && duplicates.is_empty() => {
            walk_then_read(args, record, None)
        }
        Ok((args, duplicates)) => read_with(args, duplicates, record),
        Err(e) => Err(not_json(text, &e, core::any::type_name::<T>)),
    }
}

/// Whether `text` opens with `{`, where `T`'s schema says the arguments are an object (else
/// `true`).
#[inline]
fn opens_as<T: Coerce>(text: &str) -> bool {
    !const { crate::schema::is_object(T::SCHEMA) } || text.as_bytes().first() == Some(&b'{')
}

#[cold]
#[inline(never)]
fn not_json(text: &str, e: &serde_json::Error, tool: fn() -> &'static str) -> ArgsError {
    let issue = if is_recursion_limit(e) {
        Issue::too_deep(deep_path(text), MAX_DEPTH)
    } else {
        Issue::invalid("", error::not_json(e))
    };
    trace::refused(tool, ArgsError::single(issue))
}

/// `from_value` of `args`, read from text that sent the keys `duplicates` twice.
#[inline]
pub(crate) fn read<T: Coerce>(args: Value, duplicates: Duplicates) -> Result<T, ArgsError> {
    read_with(args, duplicates, None)
}

/// [`read`], the repairs made going to `record`: the one way a call's `Value` is read (text
/// that sent no key twice, `Args<T>`, `from_value`), through [`read_value`].
#[inline]
pub(crate) fn read_with<T: Coerce>(
    args: Value,
    duplicates: Duplicates,
    record: Record<'_>,
) -> Result<T, ArgsError> {
    if !duplicates.is_empty() {
        return read_noting(args, duplicates, record);
    }
    read_value(args, record)
}

/// [`read_with`] of a `Value` that came as one (no text, so no key sent twice): it does not
/// name the replay of a text (`read_noting`), whose `serde_json::from_str::<T>` would compile
/// each type's `Deserialize` for a second reader in a crate that only calls `from_value`.
///
/// A plain call (`json::plain_value`; its root `null`s that R8 leaves out dropped first, as
/// the walk would, when no record is asked for) of a type whose walk judges no string by its
/// content (`schema::limited::walk_first`) is read first; when that read fails or breaks a
/// bound, the walk runs on what it left (only strings moved into an owned `String`, which the
/// walk judges by kind alone, are gone): its issues, if any, are the answer, else the read's.
#[inline]
pub(crate) fn read_value<T: Coerce>(mut args: Value, record: Record<'_>) -> Result<T, ArgsError> {
    let mut read = None;
    if const { !crate::schema::limited::walk_first(T::SCHEMA) } && args.is_object() {
        let root = const { crate::json::plain_value::Root::of(T::SCHEMA, T::FIELDS) };
        let plain = match crate::json::plain_value::plain_args(&args, &root) {
            Plain::Yes => true,
            Plain::No => false,
            Plain::AfterR8 => drop_nulls(&mut args, &root, record.is_none()),
        };
        if plain {
            match crate::json::de::read::<T>(&mut args) {
                Ok(read) if read.bounds_hold(Bounds::NONE) => return Ok(read),
                other => read = Some(other),
            }
        }
    }
    walk_then_read(args, record, read)
}

/// Drops the root `null`s R8 leaves out, as the walk would, when nothing asks for a record
/// of the repair (`unrecorded`, and no `tracing` subscriber for repairs): whether it did.
#[cold]
#[inline(never)]
fn drop_nulls(args: &mut Value, root: &crate::json::plain_value::Root, unrecorded: bool) -> bool {
    let drop = unrecorded && !trace::wants_repairs();
    if drop {
        root.drop_nulls(args);
    }
    drop
}

/// The walk of `args`, then (when it refuses nothing) `T` read from what it left, or `read`,
/// what a direct read of the same plain call gave. Only the read is generic: the walk and
/// the refusal go through [`walk_args`], compiled once.
#[inline]
fn walk_then_read<T: Coerce>(
    mut args: Value,
    record: Record<'_>,
    read: Option<Result<T, crate::json::de::Error>>,
) -> Result<T, ArgsError> {
    let tool = const { Tool::of::<T>() };
    // Not `?`: that is one more conversion function for each tool's type (build time).
    #[allow(clippy::question_mark)]
    if let Err(error) = walk_args(&mut args, record, tool) {
        return Err(error);
    }
    match read {
        None => deserialize(args, tool),
        Some(Ok(args)) => Ok(args),
        Some(Err(e)) => Err(invalid(e, tool)),
    }
}

/// The walk of `args` as `tool`'s (`walk::run_with`); a refusal is traced, and a value too
/// deep to drop recursively is disposed of.
fn walk_args(args: &mut Value, record: Record<'_>, tool: Tool) -> Result<(), ArgsError> {
    match run_with(args, Cx::new(false), record, tool) {
        Ok(()) => Ok(()),
        Err((error, too_deep)) => Err(refuse(args, error, too_deep, tool)),
    }
}

/// A refusal of `args`: traced, and the value disposed of when it nests too deep for serde_json's
/// recursive drop.
#[cold]
#[inline(never)]
fn refuse(args: &mut Value, error: ArgsError, too_deep: bool, tool: Tool) -> ArgsError {
    if too_deep {
        dispose(core::mem::take(args));
    }
    trace::refused(tool.name, error)
}

/// [`read_with`] of arguments whose text sent some key twice. When the walk repaired nothing,
/// `T` is read from the text rebuilt with every key as often as it was sent (`json::replay`):
/// serde's own answer for that text (an untagged enum whose first member meets a key sent
/// twice reads as the next member, as from the text). A failure there is named by reading the
/// `Value` for its path, or, when the `Value` reads, at the root in serde's words.
#[cold]
#[inline(never)]
fn read_noting<T: Coerce>(
    mut args: Value,
    duplicates: Duplicates,
    record: Record<'_>,
) -> Result<T, ArgsError> {
    let tool = const { Tool::of::<T>() };
    match crate::walk::run_noting(&mut args, duplicates, record, tool) {
        Err((error, too_deep)) => Err(refuse(&mut args, error, too_deep, tool)),
        Ok(None) => deserialize(args, tool),
        Ok(Some(duplicates)) => {
            let text = crate::json::replay::text(&args, &duplicates);
            drop(duplicates);
            match serde_json::from_str::<T>(&text) {
                Ok(read) => Ok(read),
                Err(e) => match deserialize::<T>(args, tool) {
                    Err(error) => Err(error),
                    Ok(_) => Err(at_root(&e, tool)),
                },
            }
        }
    }
}

/// serde's refusal of the text, where the `Value` reads: at the root, in serde's words.
#[cold]
#[inline(never)]
fn at_root(e: &serde_json::Error, tool: Tool) -> ArgsError {
    let issue = Issue::invalid("", error::without_position(e));
    trace::refused(tool.name, ArgsError::single(issue))
}

fn deserialize<T: Coerce>(args: Value, tool: Tool) -> Result<T, ArgsError> {
    match crate::json::de::from_value(args) {
        Ok(args) => Ok(args),
        Err(e) => Err(invalid(e, tool)),
    }
}

#[cold]
#[inline(never)]
fn invalid(e: crate::json::de::Error, tool: Tool) -> ArgsError {
    let (path, message) = e.into_parts();
    trace::refused(tool.name, ArgsError::single(Issue::invalid(path, message)))
}
