//! Runs tool calls, as models send them, through stitch and four real tools over the bundled
//! files, and prints what each tool receives and does, or the issues it answers with.
//!
//! ```text
//! cargo run -p stitch-demo                      # the bundled examples/data/tool-calls.jsonl
//! cargo run -p stitch-demo -- calls.jsonl       # another file of calls
//! cargo run -p stitch-demo -- - < calls.jsonl   # standard input
//! cargo run -p stitch-demo -- calls.jsonl --root some/folder
//! ```
//!
//! Each line is `{"tool": "<name>", "arguments": <object, or its JSON text>}`. Arguments given
//! as an object go through `from_value` (a managed MCP tool); arguments given as text go through
//! `from_json` (an agent loop reading a model's `arguments` string).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Deserialize;
use serde_json::Value;
use stitch_runtime::{ArgsError, IssueKind, OneOrMany, Repairs, Reported, ToolArgs};

/// Show one or more files to the model.
#[derive(Debug, Deserialize, ToolArgs)]
struct ViewFile {
    /// One path or a list of paths, relative to the served folder.
    #[stitch(min_items = 1, max_items = 20)]
    paths: OneOrMany<String>,
}

/// Find lines containing a text.
#[derive(Debug, Deserialize, ToolArgs)]
struct Search {
    /// The text to look for.
    query: String,
    /// Labels to attach to the search, one or many.
    #[serde(default)]
    tags: Option<OneOrMany<String>>,
    /// Narrow the search.
    #[serde(default)]
    filters: Filters,
}

/// Filters of a search.
#[derive(Debug, Default, Deserialize, ToolArgs)]
struct Filters {
    /// Only files with these extensions.
    #[serde(default)]
    extensions: Vec<String>,
    /// At most this many hits.
    #[serde(default)]
    max_hits: Option<u32>,
}

/// Mark names on lines of a file (a dry run: nothing is written).
#[derive(Debug, Deserialize, ToolArgs)]
struct Edit {
    /// The file to edit.
    file: String,
    /// One row per line.
    rows: Vec<Row>,
}

/// One line of an edit.
#[derive(Debug, Deserialize, ToolArgs)]
struct Row {
    /// 1-based line number.
    line: u32,
    /// One name or several.
    #[stitch(max_items = 8)]
    names: OneOrMany<String>,
}

/// Do something to files (a dry run).
#[derive(Debug, Deserialize, ToolArgs)]
struct ActionArgs {
    action: Action,
}

/// The action to take.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Action {
    /// Tag files.
    Tag {
        paths: OneOrMany<String>,
        tags: Vec<String>,
    },
    /// Rename a file.
    Rename { from: String, to: String },
}

/// One line of the calls file.
#[derive(Deserialize)]
struct Call {
    tool: String,
    arguments: Value,
}

/// What a call came to.
enum Outcome {
    Ran { repaired: Repairs, output: String },
    Refused(ArgsError),
    Failed(String),
}

/// Decodes the arguments through the surface the call used, with what stitch repaired: an
/// object through `from_value_reported`, text through `from_json_reported`.
fn decode<T: ToolArgs>(arguments: &Value) -> Result<(T, Repairs), ArgsError> {
    let reported = match arguments {
        Value::String(text) => T::from_json_reported(text),
        other => T::from_value_reported(other.clone()),
    };
    reported.map(|Reported { args, repairs }| (args, repairs))
}

/// What the model got wrong over the calls: per tool and field, how many issues were refused
/// and how many positions repaired.
#[derive(Default)]
struct Tally(BTreeMap<String, (usize, usize)>);

impl Tally {
    /// `tool.field` for a path: array indices become `*`, so every row of a list counts
    /// under one name; the arguments' own object is `(arguments)`.
    fn key(tool: &str, path: &str) -> String {
        if path.is_empty() {
            return format!("{tool}.(arguments)");
        }
        let field: Vec<&str> = path
            .split('.')
            .map(|s| {
                if s.bytes().all(|b| b.is_ascii_digit()) {
                    "*"
                } else {
                    s
                }
            })
            .collect();
        format!("{tool}.{}", field.join("."))
    }

    fn refused(&mut self, tool: &str, path: &str) {
        self.0.entry(Self::key(tool, path)).or_default().0 += 1;
    }

    fn repaired(&mut self, tool: &str, path: &str) {
        self.0.entry(Self::key(tool, path)).or_default().1 += 1;
    }

    fn print(&self) {
        let width = self.0.keys().map(String::len).max().unwrap_or(0).max(10);
        println!("What the model got wrong, by tool and field:");
        println!("  {:<width$}  refused  repaired", "tool.field");
        for (key, (refused, repaired)) in &self.0 {
            println!("  {key:<width$}  {refused:>7}  {repaired:>8}");
        }
    }
}

struct Tools {
    root: PathBuf,
}

impl Tools {
    fn call(&self, call: &Call) -> Outcome {
        let run = |result: Result<(String, Repairs), ArgsError>| match result {
            Ok((output, repaired)) => Outcome::Ran { repaired, output },
            Err(e) => Outcome::Refused(e),
        };
        match call.tool.as_str() {
            "view_file" => {
                run(decode::<ViewFile>(&call.arguments).map(|(a, r)| (self.view_file(&a), r)))
            }
            "search" => run(decode::<Search>(&call.arguments).map(|(a, r)| (self.search(&a), r))),
            "edit" => run(decode::<Edit>(&call.arguments).map(|(a, r)| (self.edit(&a), r))),
            "action" => {
                run(decode::<ActionArgs>(&call.arguments).map(|(a, r)| (describe(&a.action), r)))
            }
            other => Outcome::Failed(format!("no tool named `{other}`")),
        }
    }

    /// Resolves `path` under the root, refusing anything outside it.
    fn resolve(&self, path: &str) -> Result<PathBuf, String> {
        let root = self.root.canonicalize().map_err(|e| format!("root: {e}"))?;
        let full = root
            .join(path)
            .canonicalize()
            .map_err(|_| format!("{path}: no such file"))?;
        if full.starts_with(&root) {
            Ok(full)
        } else {
            Err(format!("{path}: outside the served folder"))
        }
    }

    fn view_file(&self, args: &ViewFile) -> String {
        let mut out = String::new();
        for path in &args.paths {
            let line = match self
                .resolve(path)
                .and_then(|p| std::fs::read(p).map_err(|e| e.to_string()))
            {
                Ok(bytes) => match png_size(&bytes) {
                    Some((w, h)) => format!("{path}: PNG image {w}×{h}, {} bytes", bytes.len()),
                    None => {
                        let text = String::from_utf8_lossy(&bytes);
                        let first = text.lines().next().unwrap_or("");
                        format!("{path}: {} bytes, first line {first:?}", bytes.len())
                    }
                },
                Err(e) => e,
            };
            let _ = writeln!(out, "{line}");
        }
        out
    }

    fn search(&self, args: &Search) -> String {
        let max = args.filters.max_hits.unwrap_or(u32::MAX) as usize;
        let mut names: Vec<String> = std::fs::read_dir(&self.root)
            .map(|dir| {
                dir.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        let mut hits = Vec::new();
        for name in names {
            let ext = Path::new(&name)
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("");
            if !args.filters.extensions.is_empty()
                && !args.filters.extensions.iter().any(|x| x == ext)
            {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(self.root.join(&name)) else {
                continue;
            };
            for (n, line) in text.lines().enumerate() {
                if line.contains(&args.query) && hits.len() < max {
                    hits.push(format!("{name}:{}: {line}", n + 1));
                }
            }
        }
        let tags = match &args.tags {
            Some(tags) => format!(" tagged {:?}", tags.as_slice()),
            None => String::new(),
        };
        format!(
            "{} hit(s) for {:?}{tags}\n{}",
            hits.len(),
            args.query,
            lines(&hits)
        )
    }

    fn edit(&self, args: &Edit) -> String {
        let text = match self
            .resolve(&args.file)
            .and_then(|p| std::fs::read_to_string(p).map_err(|e| e.to_string()))
        {
            Ok(text) => text,
            Err(e) => return e,
        };
        let all: Vec<&str> = text.lines().collect();
        let rows: Vec<String> = args
            .rows
            .iter()
            .map(|row| match all.get(row.line.saturating_sub(1) as usize) {
                Some(line) => format!(
                    "line {} {line:?}: would mark {:?}",
                    row.line,
                    row.names.as_slice()
                ),
                None => format!("line {}: past the end of {}", row.line, args.file),
            })
            .collect();
        lines(&rows)
    }
}

fn describe(action: &Action) -> String {
    match action {
        Action::Tag { paths, tags } => format!("would tag {:?} with {tags:?}\n", paths.as_slice()),
        Action::Rename { from, to } => format!("would rename {from:?} to {to:?}\n"),
    }
}

fn lines(items: &[String]) -> String {
    items.iter().map(|l| format!("{l}\n")).collect()
}

/// Width and height of a PNG file, read from its header.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

fn bundled(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data")
        .join(name)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut input: Option<String> = None;
    let mut root = bundled("files");
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--root" => match args.next() {
                Some(dir) => root = PathBuf::from(dir),
                None => {
                    eprintln!("--root needs a folder");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("usage: stitch-demo [CALLS.jsonl | -] [--root FOLDER]");
                return ExitCode::SUCCESS;
            }
            _ => input = Some(arg),
        }
    }
    let text = match input.as_deref() {
        Some("-") => {
            let mut text = String::new();
            if let Err(e) = io::stdin().lock().read_to_string(&mut text) {
                eprintln!("reading standard input: {e}");
                return ExitCode::FAILURE;
            }
            text
        }
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => match std::fs::read_to_string(bundled("tool-calls.jsonl")) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("the bundled calls: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let tools = Tools { root };
    let (mut ran, mut refused, mut text_lists, mut repaired) = (0, 0, 0, 0);
    let mut tally = Tally::default();
    for (n, line) in io::Cursor::new(text)
        .lines()
        .map_while(Result::ok)
        .enumerate()
    {
        if line.trim().is_empty() {
            continue;
        }
        println!("#{:<2} {line}", n + 1);
        let call: Call = match serde_json::from_str(&line) {
            Ok(call) => call,
            Err(e) => {
                println!("    not a call: {e}\n");
                continue;
            }
        };
        match tools.call(&call) {
            Outcome::Ran {
                repaired: repairs,
                output,
            } => {
                ran += 1;
                if !repairs.is_empty() {
                    repaired += 1;
                    let paths: Vec<&str> = repairs.iter().map(|r| r.path()).collect();
                    println!("    repaired JSON text in: {}", paths.join(", "));
                    for repair in &repairs {
                        tally.repaired(&call.tool, repair.path());
                    }
                }
                for l in output.lines() {
                    println!("    ok    {l}");
                }
            }
            Outcome::Refused(err) => {
                refused += 1;
                text_lists += err
                    .issues()
                    .iter()
                    .filter(|i| i.kind() == IssueKind::TextList)
                    .count();
                for issue in err.issues() {
                    tally.refused(&call.tool, issue.path());
                }
                for l in err.to_string().lines() {
                    println!("    issue {l}");
                }
            }
            Outcome::Failed(e) => println!("    error {e}"),
        }
        println!();
    }
    tally.print();
    println!();
    println!("{ran} ran ({repaired} after repairing JSON text), {refused} refused ({text_lists} lists written as text)");
    ExitCode::SUCCESS
}
