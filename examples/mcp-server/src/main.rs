//! An MCP server over stdio whose tools take stitch arguments through rmcp's own macros.
//!
//! ```text
//! stitch-mcp-server FOLDER            # serve FOLDER's files over stdio
//! stitch-mcp-server --schemas         # print the tools' schemas as stitch derives them
//! stitch-mcp-server FOLDER view_file --paths a.txt --paths b.txt   # run one tool from flags
//! ```
//!
//! Each tool names its parameters `Parameters(Args(args)): Parameters<Args<T>>`: rmcp
//! deserializes `Args<T>`, which runs stitch's `T::from_value`, and asks `Args<T>` for its
//! schema, which is stitch's. Nothing else connects the two. A refused call reaches rmcp as a
//! deserialization error; rmcp answers it as a tool result with `isError: true` whose text
//! carries stitch's message, so the model reads it and can call again.
//!
//! Every file the tools read is logged to standard error as `read <path> (<n> bytes)`.
//! With stitch's `tracing` feature, every refused issue and every repaired position is one more
//! line there, through `tracing-subscriber` (`WARN stitch: tool arguments refused
//! tool="stitch_mcp_server::ViewFile" path="paths" kind="text_list" outcome="refused"`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use base64::Engine as _;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use serde::Deserialize;
use stitch_runtime::{tool as definition, Args, OneOrMany, ToolArgs};

/// Show one or more files of the served folder.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct ViewFile {
    /// A path, or a list of paths, relative to the served folder.
    #[stitch(min_items = 1, max_items = 20)]
    paths: OneOrMany<String>,
}

/// Act on names found on lines of a file (a dry run: nothing is written).
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Edit {
    /// The file, relative to the served folder.
    file: String,
    /// One row per line.
    #[stitch(min_items = 1)]
    rows: Vec<Row>,
    /// What to do with the names.
    action: Action,
}

/// One line of an edit.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Row {
    /// 1-based line number.
    line: u32,
    /// The names on that line.
    #[stitch(min_items = 1, max_items = 8)]
    names: OneOrMany<String>,
}

/// What to do with the names of each row.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Action {
    /// Mark the names.
    Mark,
    /// Replace the names with one text.
    Rename {
        /// The replacement.
        to: String,
    },
    /// Tag the names with labels.
    Tag {
        /// One label or several.
        labels: OneOrMany<String>,
    },
}

/// Look around the served folder: find files by name, or count the lines of some files.
///
/// An internally tagged enum as a tool's whole arguments: its schema is an object (`"type":
/// "object"` beside the `oneOf`), as MCP requires, and this doc comment is its description.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Browse {
    /// Find the files whose name contains a text.
    Find {
        /// The text the names contain.
        name: String,
    },
    /// Count the lines of one or more files.
    Count {
        /// A path, or a list of paths, relative to the served folder.
        #[stitch(min_items = 1, max_items = 20)]
        paths: OneOrMany<String>,
    },
}

/// Files larger than this are summarized, not sent.
const MAX_BYTES: u64 = 1 << 20;

#[derive(Clone)]
struct Files {
    root: PathBuf,
    tool_router: ToolRouter<Files>,
}

#[tool_router]
impl Files {
    fn new(root: PathBuf) -> Files {
        Files {
            root,
            tool_router: Files::tool_router(),
        }
    }

    /// Show one or more files of the served folder: a text file's text, a PNG as an image.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    fn view_file(&self, Parameters(Args(args)): Parameters<Args<ViewFile>>) -> CallToolResult {
        let mut content = Vec::new();
        let mut failed = 0;
        for path in &args.paths {
            match self.read(path) {
                Ok(bytes) => content.extend(show(path, &bytes)),
                Err(e) => {
                    failed += 1;
                    content.push(ContentBlock::text(e));
                }
            }
        }
        if failed == args.paths.len() {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        }
    }

    /// Act on names found on lines of a file. A dry run: says what it would do, writes nothing.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    fn edit(&self, Parameters(Args(args)): Parameters<Args<Edit>>) -> CallToolResult {
        let text = match self
            .read(&args.file)
            .and_then(|b| String::from_utf8(b).map_err(|_| format!("{}: not text", args.file)))
        {
            Ok(text) => text,
            Err(e) => return CallToolResult::error(vec![ContentBlock::text(e)]),
        };
        let lines: Vec<&str> = text.lines().collect();
        let verb = match &args.action {
            Action::Mark => "mark".to_owned(),
            Action::Rename { to } => format!("rename to {to:?}"),
            Action::Tag { labels } => format!("tag with {:?}", labels.as_slice()),
        };
        let mut out = String::new();
        for row in &args.rows {
            let Some(line) = lines.get((row.line as usize).wrapping_sub(1)) else {
                out.push_str(&format!(
                    "line {}: past the end of {} ({} lines)\n",
                    row.line,
                    args.file,
                    lines.len()
                ));
                continue;
            };
            for name in &row.names {
                let found = if line.contains(name.as_str()) {
                    "found"
                } else {
                    "not on this line"
                };
                out.push_str(&format!(
                    "line {} {line:?}: would {verb} {name:?} ({found})\n",
                    row.line
                ));
            }
        }
        CallToolResult::success(vec![ContentBlock::text(out)])
    }

    /// Look around the served folder: find files by name, or count the lines of some files.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    fn browse(&self, Parameters(Args(args)): Parameters<Args<Browse>>) -> CallToolResult {
        match args {
            Browse::Find { name } => {
                let mut found: Vec<String> = match std::fs::read_dir(&self.root) {
                    Ok(entries) => entries
                        .filter_map(|e| e.ok()?.file_name().into_string().ok())
                        .filter(|file| file.contains(name.as_str()))
                        .collect(),
                    Err(e) => {
                        return CallToolResult::error(vec![ContentBlock::text(e.to_string())])
                    }
                };
                found.sort();
                CallToolResult::success(vec![ContentBlock::text(found.join("\n"))])
            }
            Browse::Count { paths } => {
                let mut out = String::new();
                for path in &paths {
                    match self.read(path) {
                        Ok(bytes) => {
                            let lines = String::from_utf8_lossy(&bytes).lines().count();
                            out.push_str(&format!("{path}: {lines} lines\n"));
                        }
                        Err(e) => out.push_str(&format!("{e}\n")),
                    }
                }
                CallToolResult::success(vec![ContentBlock::text(out)])
            }
        }
    }
}

impl Files {
    /// Reads `path` under the root, refusing anything outside it.
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let full = self
            .root
            .join(path)
            .canonicalize()
            .map_err(|_| format!("{path}: no such file"))?;
        if !full.starts_with(&self.root) {
            return Err(format!("{path}: outside the served folder"));
        }
        let meta = std::fs::metadata(&full).map_err(|e| format!("{path}: {e}"))?;
        if !meta.is_file() {
            return Err(format!("{path}: not a file"));
        }
        if meta.len() > MAX_BYTES {
            return Err(format!("{path}: {} bytes, too large to show", meta.len()));
        }
        let bytes = std::fs::read(&full).map_err(|e| format!("{path}: {e}"))?;
        eprintln!("read {path} ({} bytes)", bytes.len());
        Ok(bytes)
    }
}

#[tool_handler(
    router = self.tool_router,
    name = "stitch-mcp-server",
    instructions = "Files of one folder. Pass a list as a JSON array, never as JSON text."
)]
impl ServerHandler for Files {}

/// What the model sees of one file.
fn show(path: &str, bytes: &[u8]) -> Vec<ContentBlock> {
    if let Some((w, h)) = png_size(bytes) {
        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
        return vec![
            ContentBlock::text(format!("{path}: PNG image {w}×{h}, {} bytes", bytes.len())),
            ContentBlock::image(data, "image/png"),
        ];
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => vec![ContentBlock::text(format!("{path}:\n{text}"))],
        Err(_) => vec![ContentBlock::text(format!(
            "{path}: {} bytes of binary data",
            bytes.len()
        ))],
    }
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

/// The tools as stitch defines them, for comparison with what a client lists.
fn schemas() -> serde_json::Value {
    serde_json::json!({
        "view_file": definition::mcp::<ViewFile>("view_file", None),
        "edit": definition::mcp::<Edit>("edit", None),
        "browse": definition::mcp::<Browse>("browse", None),
    })
}

/// Runs one tool from command-line flags (`view_file --paths a.txt --paths b.txt`), through
/// stitch's command-line surface, and prints the tool's result as JSON.
fn run_from_argv(files: &Files, tool: &str, flags: &[String]) -> ExitCode {
    let result = match tool {
        "view_file" => {
            ViewFile::from_argv("view_file", flags).map(|a| files.view_file(Parameters(Args(a))))
        }
        "edit" => Edit::from_argv("edit", flags).map(|a| files.edit(Parameters(Args(a)))),
        other => {
            eprintln!("no tool named `{other}`; the tools are view_file and edit");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(result) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&result).unwrap_or_default()
            );
            if result.is_error == Some(true) {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(err)
            if err
                .issues()
                .iter()
                .any(|i| i.kind() == stitch_runtime::IssueKind::Help) =>
        {
            println!("{err}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{err}");
            ExitCode::from(2)
        }
    }
}

/// stitch's events on standard error (standard output is the protocol), one line each: a
/// refused issue (`WARN`) or a repaired position (`DEBUG`), with the tool type, the path, the
/// kind and the outcome, never the argument values. Other crates' events are left out.
fn log_what_the_model_got_wrong() {
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;

    let lines = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .without_time()
        .with_filter(Targets::new().with_target("stitch", tracing::Level::DEBUG));
    let _ = tracing_subscriber::registry().with(lines).try_init();
}

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let root = match args.next() {
        Some(arg) if arg == "--schemas" => {
            println!("{:#}", schemas());
            return ExitCode::SUCCESS;
        }
        Some(arg) if arg == "-h" || arg == "--help" => {
            println!("usage: stitch-mcp-server FOLDER [TOOL --flag value ...] | --schemas");
            return ExitCode::SUCCESS;
        }
        Some(root) => PathBuf::from(root),
        None => {
            eprintln!("usage: stitch-mcp-server FOLDER [TOOL --flag value ...] | --schemas");
            return ExitCode::from(2);
        }
    };
    let root = match Path::new(&root).canonicalize() {
        Ok(root) if root.is_dir() => root,
        Ok(root) => {
            eprintln!("{}: not a folder", root.display());
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{}: {e}", root.display());
            return ExitCode::from(2);
        }
    };
    // `FOLDER TOOL --flags…`: run one tool from the command line instead of serving.
    let rest: Vec<String> = args.map(|a| a.to_string_lossy().into_owned()).collect();
    if let Some((tool, flags)) = rest.split_first() {
        return run_from_argv(&Files::new(root), tool, flags);
    }
    log_what_the_model_got_wrong();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("starting the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        let service = Files::new(root)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| e.to_string())?;
        service.waiting().await.map_err(|e| e.to_string())
    });
    match served {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stitch-mcp-server: {e}");
            ExitCode::FAILURE
        }
    }
}
