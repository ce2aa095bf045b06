//! One step of an agent loop: a model's tool call in, the tool message for the next request out.
//!
//! ```text
//! cargo run -p stitch-runtime --example agent_step
//! ```
//!
//! The request offers the tools as [`definitions`]: each one's [`tool::openai`] definition, its
//! parameters the schema of the same type the call is read into. A chat model asks for tools
//! with OpenAI-style `tool_calls` entries whose `arguments` is JSON text. The step reads that
//! text with [`ToolArgs::from_json`], runs the tool, and answers with a
//! `{"role": "tool", "tool_call_id", "content"}` message. When stitch refuses the arguments the
//! tool does not run; the content gives the model the refusal — the message, then every issue
//! with its path and kind — so its next call can fix exactly that.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{tool, ArgsError, OneOrMany, ToolArgs};

/// One entry of an assistant message's `tool_calls`.
#[derive(Debug, Deserialize)]
pub struct ToolCall {
    /// Echoed back as the tool message's `tool_call_id`.
    pub id: String,
    /// Always `"function"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The function asked for.
    pub function: FunctionCall,
}

/// The function a tool call asks for.
#[derive(Debug, Deserialize)]
pub struct FunctionCall {
    /// The tool's name.
    pub name: String,
    /// The arguments as JSON text, exactly as the model wrote them.
    pub arguments: String,
}

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

/// The tools and the files they see (held in memory, so the example runs anywhere).
pub struct Tools {
    files: BTreeMap<&'static str, &'static str>,
    /// Each tool run, in order: `name` and the arguments it received.
    pub runs: Vec<String>,
}

impl Default for Tools {
    fn default() -> Tools {
        let files = BTreeMap::from([
            ("a.txt", "The quick brown fox.\nSecond line of a.\n"),
            ("notes.md", "Notes on the release.\nThe fox is quick.\n"),
            (
                "readme.md",
                "# Readme\nstitch refuses a list written as text.\n",
            ),
        ]);
        Tools {
            files,
            runs: Vec::new(),
        }
    }
}

impl Tools {
    fn view_file(&mut self, args: ViewFile) -> String {
        self.runs
            .push(format!("view_file {:?}", args.paths.as_slice()));
        let mut out = String::new();
        for path in &args.paths {
            match self.files.get(path.as_str()) {
                Some(text) => out.push_str(&format!("{path}:\n{text}")),
                None => out.push_str(&format!("{path}: no such file\n")),
            }
        }
        out
    }

    fn search(&mut self, args: Search) -> String {
        self.runs
            .push(format!("search {:?} {:?}", args.query, args.extensions));
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
        out
    }

    /// Decodes the arguments of tool `T` and runs it, or returns the refusal.
    fn run<T: ToolArgs>(
        &mut self,
        arguments: &str,
        tool: fn(&mut Tools, T) -> String,
    ) -> Result<String, ArgsError> {
        let args = T::from_json(arguments)?;
        Ok(tool(self, args))
    }
}

/// The content that answers a refused call: the refusal's text under `error` and every issue
/// (`path`, `kind`, `message`) under `issues`, as JSON text.
pub fn refusal(err: &ArgsError) -> String {
    let mut content = json!({"error": err.to_string()});
    if let (Value::Object(content), Ok(Value::Object(issues))) =
        (&mut content, serde_json::to_value(err))
    {
        content.extend(issues);
    }
    content.to_string()
}

/// The request's `tools`: each tool's OpenAI function definition, from its argument type
/// (the description is the type's doc comment).
pub fn definitions() -> Value {
    json!([
        tool::openai::<ViewFile>("view_file", None),
        tool::openai::<Search>("search", None),
    ])
}

/// One step: runs the tool call `call` (one `tool_calls` entry) and returns the tool message.
///
/// `Err` only when the entry is not a function call at all, so no message can answer it.
pub fn step(tools: &mut Tools, call: &Value) -> Result<Value, String> {
    let call = ToolCall::deserialize(call).map_err(|e| format!("not a tool call: {e}"))?;
    if call.kind != "function" {
        return Err(format!("not a function call: type {:?}", call.kind));
    }
    let arguments = call.function.arguments.as_str();
    let result = match call.function.name.as_str() {
        "view_file" => tools.run::<ViewFile>(arguments, Tools::view_file),
        "search" => tools.run::<Search>(arguments, Tools::search),
        other => Ok(json!({"error": format!("no tool named {other:?}")}).to_string()),
    };
    let content = result.unwrap_or_else(|err| refusal(&err));
    Ok(json!({"role": "tool", "tool_call_id": call.id, "content": content}))
}

/// Tool calls as a model sends them: two refused, one repaired, three run as they are.
pub fn sample_calls() -> Value {
    let call = |id: &str, name: &str, arguments: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}});
    json!([
        call("call_1", "view_file", r#"{"paths": ["a.txt", "notes.md"]}"#),
        call(
            "call_2",
            "view_file",
            r#"{"paths": "[\"a.txt\", \"notes.md\"]"}"#
        ),
        call("call_3", "view_file", r#"{"paths": "readme.md"}"#),
        call(
            "call_4",
            "search",
            r#"{"query": "fox", "extensions": "[\"md\"]"}"#
        ),
        call(
            "call_5",
            "search",
            r#"{"query": "fox", "extensions": ["txt"]}"#
        ),
        call("call_6", "view_file", r#"{"paths": ["a.txt""#),
    ])
}

fn main() {
    // What the request offers the model.
    for definition in definitions().as_array().into_iter().flatten() {
        println!("offer  {definition}");
    }
    println!();
    let mut tools = Tools::default();
    let calls = sample_calls();
    for call in calls.as_array().into_iter().flatten() {
        println!("model  {}", call["function"]);
        match step(&mut tools, call) {
            Ok(message) => println!("tool   {message}\n"),
            Err(e) => println!("error  {e}\n"),
        }
    }
    println!(
        "{} of {} calls ran:",
        tools.runs.len(),
        calls.as_array().map_or(0, Vec::len)
    );
    for run in &tools.runs {
        println!("  {run}");
    }
}
