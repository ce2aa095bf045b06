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

/// A tool's argument type; implemented by `#[derive(ToolArgs)]` only.
///
/// Every method is provided. The hidden supertrait `Coerce` (the walk and schema) is not an
/// extension point; a foreign type inside the arguments is marked `#[stitch(opaque)]`.
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
    /// The type's doc comment (or `#[stitch(description = "…")]`) as plain text; `None` when
    /// it has neither. The `tool::*` functions use it when given no description.
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

    /// The input schema as JSON text (JSON Schema 2020-12), rendered during compilation where
    /// it is named. A schema over 16 KiB is a compile error: use [`ToolArgs::input_schema`].
    const INPUT_SCHEMA: &'static str = <Self as crate::schema::text::SchemaText>::TEXT;

    /// The input schema as a value (built once, then shared).
    fn input_schema() -> &'static Value {
        crate::schema::text::cached::<Self>()
    }

    /// Checks `args` as [`ToolArgs::from_value`] does and applies the repairs in place,
    /// deserializing nothing. On `Ok`, only JSON text at structured positions was replaced and
    /// `null` at defaulted fields dropped (R8); on `Err`, `args` is exactly as it was.
    #[inline]
    fn coerce_value(args: &mut Value) -> Result<(), ArgsError> {
        match run::<Self>(args, None) {
            Ok(()) => Ok(()),
            Err((error, _)) => Err(trace::refused(core::any::type_name::<Self>, error)),
        }
    }

    /// [`ToolArgs::coerce_value`], also answering with the positions it repaired.
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

    /// Coerces `args`, then deserializes it. Every issue is reported at once; a
    /// deserialization failure is one [`IssueKind::Invalid`](crate::IssueKind::Invalid) issue
    /// at its path.
    #[inline]
    fn from_value(args: Value) -> Result<Self, ArgsError> {
        read_value(args, None)
    }

    /// [`ToolArgs::from_value`], also answering with what was repaired ([`Reported`]).
    #[inline]
    fn from_value_reported(args: Value) -> Result<Reported<Self>, ArgsError> {
        let mut repairs = Vec::new();
        let args = read_value(args, Some(&mut repairs))?;
        let repairs = Repairs::from_walk(repairs);
        Ok(Reported { args, repairs })
    }

    /// [`ToolArgs::from_json`], also answering with what was repaired ([`Reported`]).
    #[inline]
    fn from_json_reported(text: &str) -> Result<Reported<Self>, ArgsError> {
        let mut repairs = Vec::new();
        let args = read_json(text, Some(&mut repairs))?;
        let repairs = Repairs::from_walk(repairs);
        Ok(Reported { args, repairs })
    }

    /// Reads a command line: flags by wire name (`--max_hits`) or kebab-case (`--max-hits`),
    /// each value read as its field's type decides (a boolean also bare, `--dry-run`), a list as
    /// the flag repeated, a struct or map as JSON text; then [`ToolArgs::from_value`].
    ///
    /// `--help` (with `name`, the command's) answers an
    /// [`IssueKind::Help`](crate::IssueKind::Help) issue holding the help text; an unreadable
    /// command line, [`IssueKind::Usage`](crate::IssueKind::Usage) issues.
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

    /// [`ToolArgs::from_value`] from the arguments' JSON text, as a model's tool call carries it.
    #[inline]
    fn from_json(text: &str) -> Result<Self, ArgsError> {
        read_json(text, None)
    }
}

#[inline]
fn read_json<T: Coerce>(text: &str, record: Record<'_>) -> Result<T, ArgsError> {
    // Fast path: text no rule could act on goes straight to serde_json.
    let plain = opens_as::<T>(text) && crate::json::plain::plain(text);
    if plain {
        if let Ok(args) = serde_json::from_str::<T>(text) {
            if args.bounds_hold(Bounds::NONE) {
                return Ok(args);
            }
        }
    }
    // Keys sent twice are noted, for the walk to refuse a declared field sent twice as serde does.
    match parse::from_str(text) {
        Ok((args, duplicates)) if !plain && duplicates.is_empty() => {
            walk_then_read(args, record, None)
        }
        Ok((args, duplicates)) => read_with(args, duplicates, record),
        Err(e) => Err(not_json(text, &e, core::any::type_name::<T>)),
    }
}

/// serde reads a struct from an array too, so only text opening with `{` takes the fast path.
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

/// Kept apart from `read_noting`, whose `serde_json::from_str::<T>` would compile a second
/// `Deserialize` reader per type. A plain call is read directly first; if that fails, the walk
/// of what the read left gives the issues (it judges moved-out strings by kind alone).
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

/// Drops the root `null`s R8 leaves out when no record or `tracing` asks for the repair.
#[cold]
#[inline(never)]
fn drop_nulls(args: &mut Value, root: &crate::json::plain_value::Root, unrecorded: bool) -> bool {
    let drop = unrecorded && !trace::wants_repairs();
    if drop {
        root.drop_nulls(args);
    }
    drop
}

/// `read` is a direct read's result, used once the walk refuses nothing. Only the read is
/// generic; [`walk_args`] is compiled once.
#[inline]
fn walk_then_read<T: Coerce>(
    mut args: Value,
    record: Record<'_>,
    read: Option<Result<T, crate::json::de::Error>>,
) -> Result<T, ArgsError> {
    let tool = const { Tool::of::<T>() };
    // Not `?`: that adds a conversion function per tool type (build time).
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

fn walk_args(args: &mut Value, record: Record<'_>, tool: Tool) -> Result<(), ArgsError> {
    match run_with(args, Cx::new(false), record, tool) {
        Ok(()) => Ok(()),
        Err((error, too_deep)) => Err(refuse(args, error, too_deep, tool)),
    }
}

/// A value too deep for serde_json's recursive drop is disposed of.
#[cold]
#[inline(never)]
fn refuse(args: &mut Value, error: ArgsError, too_deep: bool, tool: Tool) -> ArgsError {
    if too_deep {
        dispose(core::mem::take(args));
    }
    trace::refused(tool.name, error)
}

/// Text that sent a key twice: when nothing was repaired, `T` is read from the text rebuilt
/// as sent (`json::replay`), so serde answers as it would for that text
/// (`docs/rules.md#duplicates`); a failure is located by reading the `Value`.
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
