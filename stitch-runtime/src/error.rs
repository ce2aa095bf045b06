//! [`ArgsError`], one [`Issue`] per problem (`docs/rules.md#r6`), and every message stitch
//! writes: the wording is behaviour (models read it, tests compare it), so it lives only here.

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
    /// The value does not fit the field: a deserialization failure or a broken bound.
    Invalid,
    /// The arguments nest deeper than the limit (rule R7).
    TooDeep,
    /// A command line that cannot be read: an unknown, repeated or missing flag, a flag
    /// without its value, a stray word.
    Usage,
    /// `--help` on the command line: the message is the help text.
    Help,
}

impl IssueKind {
    /// The kind's name as serialized: `text_list`, `invalid`, `too_deep`, `usage`, `help`.
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

    pub(crate) fn text_list(path: impl Into<String>) -> Issue {
        let path = path.into();
        let message = text_list(&path);
        Issue::new(IssueKind::TextList, path, message)
    }

    pub(crate) fn invalid(path: impl Into<String>, reason: impl fmt::Display) -> Issue {
        let path = path.into();
        let message = prefixed(&path, reason);
        Issue::new(IssueKind::Invalid, path, message)
    }

    pub(crate) fn too_deep(path: impl Into<String>, limit: usize) -> Issue {
        let path = path.into();
        let message = prefixed(&path, too_deep(limit));
        Issue::new(IssueKind::TooDeep, path, message)
    }

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

/// The arguments of a tool call were refused: every issue found, in the type's field order.
///
/// `Display` joins the messages with `\n` (one issue: exactly its message), plus a line
/// counting any left out past [`MAX_ISSUES`]. `Serialize` gives
/// `{"issues":[{"path":…,"kind":…,"message":…}]}` (and `"omitted": n`), ready for a JSON-RPC
/// error's `data`.
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
    pub fn new(mut issues: Vec<Issue>) -> ArgsError {
        let omitted = issues.len().saturating_sub(MAX_ISSUES);
        issues.truncate(MAX_ISSUES);
        ArgsError { issues, omitted }
    }

    pub(crate) fn with_omitted(issues: Vec<Issue>, omitted: usize) -> ArgsError {
        ArgsError { issues, omitted }
    }

    pub(crate) fn single(issue: Issue) -> ArgsError {
        ArgsError {
            issues: vec![issue],
            omitted: 0,
        }
    }

    /// The issues (at most [`MAX_ISSUES`]).
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

/// At the root, a sentence: `the arguments are a list written as text — …`.
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

pub(crate) fn one_or_many_type(value: &serde_json::Value, item: &Schema) -> String {
    invalid_type(value, one_or_many_expected(item))
}

/// serde's words: `invalid type: null, expected a string`.
pub(crate) fn invalid_type(value: &serde_json::Value, expected: &str) -> String {
    use serde::de::Error as _;
    serde_json::Error::invalid_type(unexpected(value), &expected).to_string()
}

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

fn prefixed(path: &str, reason: impl fmt::Display) -> String {
    if path.is_empty() {
        reason.to_string()
    } else {
        format!("{path}: {reason}")
    }
}

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

pub(crate) fn item_count(len: usize, bounds: Bounds) -> String {
    let (word, n) = if len < bounds.min {
        ("at least", bounds.min)
    } else {
        ("at most", bounds.max)
    };
    let items = if n == 1 { "item" } else { "items" };
    format!("{word} {n} {items}")
}

pub(crate) fn not_json(e: &serde_json::Error) -> String {
    format!("the arguments are not valid JSON: {e}")
}

/// `docs/rules.md#not-an-object`.
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

/// serde's words for an externally tagged enum's variant key sent twice.
pub(crate) fn one_key_only() -> String {
    "invalid value: map, expected map with a single key".to_owned()
}

pub(crate) fn no_variant(name: &str) -> String {
    format!("data did not match any variant of untagged enum {name}")
}

/// Without ` at line 1 column 5`: the caller did not send that text as such.
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(end) => text[..end].to_owned(),
        None => text,
    }
}

fn omitted(n: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("\u{2026} and {n} more issue{s}")
}

// Command-line messages.

pub(crate) fn unexpected_argument(arg: &str) -> String {
    format!("unexpected argument `{arg}`; a value follows its flag, as in `--name value`")
}

pub(crate) fn unknown_flag(key: &str, known: &str) -> String {
    format!("unknown flag `--{key}`; expected one of {known}")
}

pub(crate) fn needs_value(key: &str) -> String {
    format!("`--{key}` needs a value")
}

pub(crate) fn given_repeatedly(spelled: &str, times: usize) -> String {
    format!("`{spelled}` is given {times} times but takes one value")
}

pub(crate) fn missing_flag(flag: &str) -> String {
    format!("missing required flag `--{flag}`")
}

/// `--dry-run false`: a boolean flag takes no separate value.
pub(crate) fn flag_value_apart(key: &str, value: &str) -> String {
    format!("`--{key}` takes no separate value; write `--{key}={value}`")
}

/// R3 on a command line, where a list is the flag repeated.
pub(crate) fn text_list_flag(flag: &str) -> String {
    format!(
        "`{flag}` is a list written as text \u{2014} repeat the flag for each item \
         (`{flag} a {flag} b`), not JSON written as text"
    )
}

/// `rest` is the path below the flag (`""`, `.case`).
pub(crate) fn in_flag(flag: &str, rest: &str, reason: &str) -> String {
    format!("`{flag}{rest}`: {reason}")
}

pub(crate) fn no_positionals(arg: &str, name: &str) -> String {
    format!("unexpected argument `{arg}` after `--`; `{name}` takes flags only, no positional arguments")
}
