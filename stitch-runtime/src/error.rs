//! What a refused call answers with: an [`ArgsError`] holding one [`Issue`] per problem.

use core::fmt;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

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
    /// repeated single-value flag.
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
    pub fn text_list(path: impl Into<String>) -> Issue {
        const TAIL: &str =
            " is a list written as text \u{2014} pass the array itself, not JSON written as text";
        let path = path.into();
        let shown = display_path(&path);
        let mut message = String::with_capacity(shown.len() + TAIL.len());
        message.push_str(shown);
        message.push_str(TAIL);
        Issue::new(IssueKind::TextList, path, message)
    }

    /// An `Invalid` issue: `<path>: <reason>` (just `<reason>` at the root).
    pub fn invalid(path: impl Into<String>, reason: impl fmt::Display) -> Issue {
        let path = path.into();
        let message = prefixed(&path, reason);
        Issue::new(IssueKind::Invalid, path, message)
    }

    /// A `TooDeep` issue at `path`.
    pub fn too_deep(path: impl Into<String>, limit: usize) -> Issue {
        let path = path.into();
        let message = prefixed(
            &path,
            format_args!("nested deeper than {limit} levels; send a flatter value"),
        );
        Issue::new(IssueKind::TooDeep, path, message)
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

fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "the arguments"
    } else {
        path
    }
}

fn prefixed(path: &str, reason: impl fmt::Display) -> String {
    if path.is_empty() {
        reason.to_string()
    } else {
        format!("{path}: {reason}")
    }
}

/// The arguments of a tool call were refused: every issue found, in walk order.
///
/// `Display` prints the issues' messages joined with `\n` (one issue: exactly its message),
/// followed by a line counting the issues left out past [`MAX_ISSUES`]. `Serialize` gives
/// `{"issues":[{"path":…,"kind":…,"message":…}]}` (with `"omitted": n` when some were left
/// out), ready to go into a JSON-RPC error's `data`.
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

    pub(crate) fn with_omitted(issues: Vec<Issue>, omitted: usize) -> ArgsError {
        ArgsError { issues, omitted }
    }

    /// One issue.
    pub fn single(issue: Issue) -> ArgsError {
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
            let s = if self.omitted == 1 { "" } else { "s" };
            write!(f, "\n\u{2026} and {} more issue{s}", self.omitted)?;
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
