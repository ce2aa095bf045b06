//! rig tools whose arguments go through stitch.
//!
//! rig reads a tool call's arguments by deserializing the tool's `Tool::Args` from the
//! model's JSON text. Naming [`Args<T>`] there runs stitch's [`ToolArgs::from_value`] on
//! them: a list written as text where a string is also accepted is refused by name before
//! the tool runs (rig answers the model with the refusal as an `invalid_args` tool result),
//! and JSON text where no string is expected is repaired. The definition rig sends the
//! model comes from the same type: `parameters()` is [`ToolArgs::input_schema`], the
//! description the type's doc comment.
//!
//! `type Args = ViewFile` compiles as well, since a `ToolArgs` type is also
//! `Deserialize`, but then rig calls serde directly and stitch never runs:
//! `{"paths": "[\"a.txt\"]"}` becomes one file named `["a.txt"]`. Always name `Args<T>`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use rig_core::tool::{Tool, ToolContext};
use serde::Deserialize;
use serde_json::Value;
use stitch_runtime::{Args, OneOrMany, ToolArgs};

/// Show one or more files to the model.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct ViewFile {
    /// One path or a list of paths.
    #[stitch(min_items = 1, max_items = 20)]
    pub paths: OneOrMany<String>,
}

/// Find the lines containing a text.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Search {
    /// The text to look for.
    pub query: String,
    /// Only files with these extensions.
    #[serde(default)]
    pub extensions: Vec<String>,
}

/// The description rig gives the model for `T`: the type's doc comment
/// ([`ToolArgs::DESCRIPTION`]).
pub fn description<T: ToolArgs>() -> String {
    T::DESCRIPTION.unwrap_or_default().to_owned()
}

/// The files the tools see (held in memory, so the example runs anywhere) and a log of every
/// run, which tells whether a call reached the tool.
#[derive(Debug, Default)]
pub struct Files {
    files: BTreeMap<String, String>,
    runs: Mutex<Vec<String>>,
}

impl Files {
    /// Files from `(path, text)` pairs.
    pub fn new<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Files {
        Files {
            files: files
                .into_iter()
                .map(|(path, text)| (path.to_owned(), text.to_owned()))
                .collect(),
            runs: Mutex::new(Vec::new()),
        }
    }

    /// Each tool run so far, in order: the tool's name and the arguments it received.
    pub fn runs(&self) -> Vec<String> {
        self.runs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn log(&self, run: String) {
        self.runs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(run);
    }

    /// Runs `view_file`: each file's text, an error when none of them exists.
    pub fn view_file(&self, args: &ViewFile) -> Result<String, ToolError> {
        self.log(format!("view_file {:?}", args.paths.as_slice()));
        let mut out = String::new();
        let mut found = 0;
        for path in &args.paths {
            match self.files.get(path) {
                Some(text) => {
                    found += 1;
                    out.push_str(&format!("{path}:\n{text}"));
                }
                None => out.push_str(&format!("{path}: no such file\n")),
            }
        }
        if found == 0 {
            return Err(ToolError(out));
        }
        Ok(out)
    }

    /// Runs `search`: every line containing the query, as `file:line: text`.
    pub fn search(&self, args: &Search) -> Result<String, ToolError> {
        self.log(format!("search {:?} {:?}", args.query, args.extensions));
        let mut out = String::new();
        for (name, text) in &self.files {
            let ext = name.rsplit_once('.').map_or("", |(_, ext)| ext);
            if !args.extensions.is_empty() && !args.extensions.iter().any(|e| e == ext) {
                continue;
            }
            for (n, line) in text.lines().enumerate() {
                if line.contains(&args.query) {
                    out.push_str(&format!("{name}:{}: {line}\n", n + 1));
                }
            }
        }
        if out.is_empty() {
            out.push_str("no match\n");
        }
        Ok(out)
    }
}

/// A tool's failure, told to the model as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError(pub String);

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.trim_end())
    }
}

impl std::error::Error for ToolError {}

/// `view_file` as a rig tool.
pub struct ViewFileTool(pub Arc<Files>);

impl Tool for ViewFileTool {
    const NAME: &'static str = "view_file";
    // `Args<ViewFile>`, not `ViewFile`: rig deserializes this from the model's JSON text, and
    // only `Args<T>` runs stitch on the way.
    type Args = Args<ViewFile>;
    type Output = String;
    type Error = ToolError;

    fn description(&self) -> String {
        description::<ViewFile>()
    }

    fn parameters(&self) -> Value {
        ViewFile::input_schema().clone()
    }

    // rig hides a tool's own error from the model unless told otherwise; this one says
    // which paths were missing, which the model needs to call again.
    fn map_error(&self, error: ToolError) -> rig_core::tool::ToolExecutionError {
        rig_core::tool::ToolExecutionError::not_found(error.to_string())
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        Args(args): Args<ViewFile>,
    ) -> Result<String, ToolError> {
        self.0.view_file(&args)
    }
}

/// `search` as a rig tool.
pub struct SearchTool(pub Arc<Files>);

impl Tool for SearchTool {
    const NAME: &'static str = "search";
    type Args = Args<Search>;
    type Output = String;
    type Error = ToolError;

    fn description(&self) -> String {
        description::<Search>()
    }

    fn parameters(&self) -> Value {
        Search::input_schema().clone()
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        Args(args): Args<Search>,
    ) -> Result<String, ToolError> {
        self.0.search(&args)
    }
}
