//! What a refused call answers with: an [`ArgsError`] holding one [`Issue`] per problem, and
//! every message stitch writes (one function per message, at the end of this file).

use core::fmt;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use crate::bounds::Bounds;
use crate::schema::Schema;

/// At most this many issues are kept; the rest are counted (see [`ArgsError::omitted`]).
pub const MAX_ISSUES: usize = 20;

/// What kind of problem an [`Issue`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IssueKind {
    /// A list written as JSON text where one value or a list is expected (rule R3).
    TextList,
    /// The value does not fit the field: a deserialization failure, or an array outside the
    /// field's `min_items` / `max_items`.
    Invalid,
    /// The arguments nest deeper than the limit (rule R7).
    TooDeep,
    /// A command line that cannot be read: an unknown flag, a flag without its value, a
    /// repeated single-value flag, a missing required flag (named, e.g. `--paths`), a separate
    /// value after a bare boolean flag (`--dry-run false`: write `--dry-run=false`), or words
    /// after a bare `--`.
    Usage,
    /// `--help` on the command line: the message is the help text.
    Help,
}

impl IssueKind {
    /// The kind's name as serialized: `text_list`, `invalid`, `too_deep`.
    pub const fn as_str(self) -> &'static str {
        match self {
            IssueKind::TextList => "text_list",
            IssueKind::Invalid => "invalid",
            IssueKind::TooDeep => "too_deep",
            IssueKind::Usage => "usage",
            IssueKind::Help => "help",
        }
    }
}

impl fmt::Display for IssueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for IssueKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// One problem in the arguments, at one path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Issue {
    path: String,
    kind: IssueKind,
    message: String,
}

impl Issue {
    /// An issue at `path` (dotted, `""` for the root) with its full `message`.
    pub fn new(kind: IssueKind, path: impl Into<String>, message: impl Into<String>) -> Issue {
        Issue {
            path: path.into(),
            kind,
            message: message.into(),
        }
    }

    /// The refusal of a list written as text at `path` (rule R3).
    pub(crate) fn text_list(path: impl Into<String>) -> Issue {
        let path = path.into();
        let message = text_list(&path);
        Issue::new(IssueKind::TextList, path, message)
    }

    /// An `Invalid` issue: `<path>: <reason>` (just `<reason>` at the root).
    pub(crate) fn invalid(path: impl Into<String>, reason: impl fmt::Display) -> Issue {
        let path = path.into();
        let message = prefixed(&path, reason);
        Issue::new(IssueKind::Invalid, path, message)
    }

    /// A `TooDeep` issue at `path`.
    pub(crate) fn too_deep(path: impl Into<String>, limit: usize) -> Issue {
        let path = path.into();
        let message = prefixed(&path, too_deep(limit));
        Issue::new(IssueKind::TooDeep, path, message)
    }

    /// A `Usage` issue of the command line at `path`.
    pub(crate) fn usage(path: impl Into<String>, message: String) -> Issue {
        Issue::new(IssueKind::Usage, path, message)
    }

    /// The dotted path (rule R5): `paths`, `rows.0.names`; `""` for the arguments as a whole.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The full message, path included, ready to show to a model.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> IssueKind {
        self.kind
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Serialize for Issue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Issue", 3)?;
        s.serialize_field("path", &self.path)?;
        s.serialize_field("kind", &self.kind)?;
        s.serialize_field("message", &self.message)?;
        s.end()
    }
}

/// The arguments of a tool call were refused: every issue found, in walk order.
///
/// `Display` prints the issues' messages joined with `\n` (one issue: exactly its message),
/// followed by a line counting the issues left out past [`MAX_ISSUES`]. `Serialize` gives
/// `{"issues":[{"path":…,"kind":…,"message":…}]}` (with `"omitted": n` when some were left
/// out), ready to go into a JSON-RPC error's `data`.
///
/// ```
/// use stitch_runtime::{ArgsError, Issue, IssueKind, OneOrMany, ToolArgs};
///
/// #[derive(Debug, serde::Deserialize, ToolArgs)]
/// struct ViewFile {
///     paths: OneOrMany<String>,
/// }
///
/// let err = ViewFile::from_json(r#"{"paths": "[\"a.png\"]"}"#).unwrap_err();
/// assert_eq!(err.issues()[0].kind(), IssueKind::TextList);
/// let data = serde_json::to_value(&err).unwrap();
/// assert_eq!(data["issues"][0]["path"], "paths");
///
/// // A tool's own checks can answer in the same format.
/// let own = ArgsError::new(vec![Issue::new(
///     IssueKind::Invalid,
///     "paths.0",
///     "paths.0: no such file",
/// )]);
/// assert_eq!(own.to_string(), "paths.0: no such file");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgsError {
    issues: Vec<Issue>,
    omitted: usize,
}

impl ArgsError {
    /// An error holding `issues` (at most [`MAX_ISSUES`] are kept, the rest counted).
    ///
    /// # Panics
    /// Never; an empty list is allowed but is not something stitch itself produces.
    pub fn new(mut issues: Vec<Issue>) -> ArgsError {
        let omitted = issues.len().saturating_sub(MAX_ISSUES);
        issues.truncate(MAX_ISSUES);
        ArgsError { issues, omitted }
    }

    /// Issues already cut to [`MAX_ISSUES`], and how many more were found.
    pub(crate) fn with_omitted(issues: Vec<Issue>, omitted: usize) -> ArgsError {
        ArgsError { issues, omitted }
    }

    /// One issue.
    pub(crate) fn single(issue: Issue) -> ArgsError {
        ArgsError {
            issues: vec![issue],
            omitted: 0,
        }
    }

    /// The issues, in walk order (at most [`MAX_ISSUES`]).
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// How many further issues were found but left out.
    pub fn omitted(&self) -> usize {
        self.omitted
    }
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, issue) in self.issues.iter().enumerate() {
            if n > 0 {
                f.write_str("\n")?;
            }
            f.write_str(&issue.message)?;
        }
        if self.omitted > 0 {
            write!(f, "\n{}", omitted(self.omitted))?;
        }
        Ok(())
    }
}

impl std::error::Error for ArgsError {}

impl Serialize for ArgsError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = if self.omitted > 0 { 2 } else { 1 };
        let mut s = serializer.serialize_struct("ArgsError", fields)?;
        s.serialize_field("issues", &self.issues)?;
        if self.omitted > 0 {
            s.serialize_field("omitted", &self.omitted)?;
        } else {
            s.skip_field("omitted")?;
        }
        s.end()
    }
}

// Every message stitch writes, one function each. The wording is part of the behaviour (a
// model reads it, tests compare it): change it here or nowhere.

/// R3: `<path> is a list written as text — pass the array itself, not JSON written as text`;
/// at the root, a sentence: `the arguments are a list written as text — …`.
fn text_list(path: &str) -> String {
    const TAIL: &str =
        " a list written as text \u{2014} pass the array itself, not JSON written as text";
    let (shown, verb) = if path.is_empty() {
        ("the arguments", " are")
    } else {
        (path, " is")
    };
    let mut message = String::with_capacity(shown.len() + verb.len() + TAIL.len());
    message.push_str(shown);
    message.push_str(verb);
    message.push_str(TAIL);
    message
}

/// What a `OneOrMany<T>` takes, from `T`'s schema: `a string or an array of strings`.
pub(crate) fn one_or_many_expected(item: &Schema) -> &'static str {
    match item {
        // An enum's description, an anchor: the same kind of value.
        Schema::Described { inner, .. } | Schema::Anchored { inner, .. } => {
            one_or_many_expected(inner)
        }
        Schema::String | Schema::Char | Schema::Enum(_) => "a string or an array of strings",
        Schema::Integer { .. } => "an integer or an array of integers",
        Schema::Number | Schema::Float32 => "a number or an array of numbers",
        Schema::Boolean => "a boolean or an array of booleans",
        Schema::Object(_) => "an object or an array of objects",
        _ => "one value or an array of values",
    }
}

/// A type error at a `OneOrMany<T>` position, in serde's words, saying what the union
/// takes: `invalid type: null, expected a string or an array of strings`.
pub(crate) fn one_or_many_type(value: &serde_json::Value, item: &Schema) -> String {
    invalid_type(value, one_or_many_expected(item))
}

/// serde's type error for `value` where `expected` was expected:
/// `invalid type: null, expected a string`.
pub(crate) fn invalid_type(value: &serde_json::Value, expected: &str) -> String {
    use serde::de::Error as _;
    serde_json::Error::invalid_type(unexpected(value), &expected).to_string()
}

/// How serde names `value` in its messages (`string "5"`, ``integer `5` ``, `null`).
pub(crate) fn unexpected(value: &serde_json::Value) -> serde::de::Unexpected<'_> {
    use serde::de::Unexpected;
    use serde_json::Value;
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u),
            (_, Some(i), _) => Unexpected::Signed(i),
            (_, _, Some(f)) => Unexpected::Float(f),
            _ => Unexpected::Other("number"),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// `<path>: <reason>`, just `<reason>` at the root.
fn prefixed(path: &str, reason: impl fmt::Display) -> String {
    if path.is_empty() {
        reason.to_string()
    } else {
        format!("{path}: {reason}")
    }
}

/// R7: the reason of a `TooDeep` issue.
fn too_deep(limit: usize) -> impl fmt::Display {
    struct TooDeep(usize);
    impl fmt::Display for TooDeep {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(
                f,
                "nested deeper than {} levels; send a flatter value",
                self.0
            )
        }
    }
    TooDeep(limit)
}

/// The reason of a real array outside its bounds: `at least 2 items`, `at most 1 item`.
pub(crate) fn item_count(len: usize, bounds: Bounds) -> String {
    let (word, n) = if len < bounds.min {
        ("at least", bounds.min)
    } else {
        ("at most", bounds.max)
    };
    let items = if n == 1 { "item" } else { "items" };
    format!("{word} {n} {items}")
}

/// The reason of arguments that are not JSON at all.
pub(crate) fn not_json(e: &serde_json::Error) -> String {
    format!("the arguments are not valid JSON: {e}")
}

/// The reason of arguments that are not an object where the type's schema says one
/// (`docs/rules.md#r5`): `the arguments must be a JSON object of named parameters, not an array`.
pub(crate) fn not_an_object(value: &serde_json::Value) -> String {
    let sent = match value {
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Null => "null",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Object(_) => "an object",
    };
    format!("the arguments must be a JSON object of named parameters, not {sent}")
}

/// serde's reason for an externally tagged enum's object of more than one key (here: its
/// variant's key sent twice).
pub(crate) fn one_key_only() -> String {
    "invalid value: map, expected map with a single key".to_owned()
}

/// serde's reason for an untagged enum that no variant reads.
pub(crate) fn no_variant(name: &str) -> String {
    format!("data did not match any variant of untagged enum {name}")
}

/// serde_json's message of `e` without its ` at line 1 column 5` (the position in a text the
/// caller did not send as such).
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(end) => text[..end].to_owned(),
        None => text,
    }
}

/// The line after the kept issues: `… and 3 more issues`.
fn omitted(n: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("\u{2026} and {n} more issue{s}")
}

/// Command line: a word where a flag is expected.
pub(crate) fn unexpected_argument(arg: &str) -> String {
    format!("unexpected argument `{arg}`; a value follows its flag, as in `--name value`")
}

/// Command line: a flag the tool does not have; `known` lists those it has.
pub(crate) fn unknown_flag(key: &str, known: &str) -> String {
    format!("unknown flag `--{key}`; expected one of {known}")
}

/// Command line: a flag at the end, or followed by another flag, that takes a value.
pub(crate) fn needs_value(key: &str) -> String {
    format!("`--{key}` needs a value")
}

/// Command line: a single-value flag given `times` times.
pub(crate) fn given_repeatedly(spelled: &str, times: usize) -> String {
    format!("`{spelled}` is given {times} times but takes one value")
}

/// Command line: a required flag that was not given.
pub(crate) fn missing_flag(flag: &str) -> String {
    format!("missing required flag `--{flag}`")
}

/// Command line: a boolean flag followed by a bare `true` or `false`, which the flag does not
/// take as its value (`--dry-run false`).
pub(crate) fn flag_value_apart(key: &str, value: &str) -> String {
    format!("`--{key}` takes no separate value; write `--{key}={value}`")
}

/// Command line: a list written as text at a one-or-many flag given once (rule R3): on a
/// command line the list is the flag repeated.
pub(crate) fn text_list_flag(flag: &str) -> String {
    format!(
        "`{flag}` is a list written as text \u{2014} repeat the flag for each item \
         (`{flag} a {flag} b`), not JSON written as text"
    )
}

/// Command line: an issue in the value of `flag`, at `rest` below it (`""`, `.case`).
pub(crate) fn in_flag(flag: &str, rest: &str, reason: &str) -> String {
    format!("`{flag}{rest}`: {reason}")
}

/// Command line: a word after `--`, which the tool `name` (taking flags only) cannot place.
pub(crate) fn no_positionals(arg: &str, name: &str) -> String {
    format!("unexpected argument `{arg}` after `--`; `{name}` takes flags only, no positional arguments")
}
