//! A small MCP server over stdio for the proxy's tests (tests/proxy.rs), with tools that do
//! what each test needs: echo their arguments, report progress, ask the client for a
//! sample, change the tool list, write a line that is not JSON, or die mid-call.
//!
//! ```text
//! stitch-proxy-fake-server [--record FILE] [--page-size N] [--exit-code N] [--list-error]
//!                          [--never-list]
//! ```
//!
//! `--record` appends every line the server receives, as it arrived, to FILE, so a test sees
//! exactly what reached the server. `--page-size` splits `tools/list` into pages with
//! `nextCursor`. `--exit-code` is the exit code at the end of standard input.
//! `--list-error` answers `tools/list` with an error; `--never-list` never answers it.
//!
//! A line `serde_json::Value` cannot hold (`1e400`, a lone surrogate, deep nesting) is
//! answered all the same: a tool call gets `<tool> raw <arguments as received>`. It is an
//! example of the package (not a binary `cargo install` would install); the tests build it.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, Write};

use serde_json::{json, Value};

struct Server {
    out: io::Stdout,
    record: Option<File>,
    page_size: usize,
    list_error: bool,
    never_list: bool,
    /// After the `swap` tool: `tags` becomes a plain string and the tool `late` appears.
    swapped: bool,
    /// Lines read while waiting for the client's answer to a sampling request.
    backlog: VecDeque<String>,
    /// The id of an open `subscriptions/listen`.
    listening: Option<Value>,
}

fn tools(swapped: bool) -> Vec<Value> {
    let string_list = json!({"type": "array", "items": {"type": "string"}});
    let mut tools = vec![
        json!({"name": "view", "inputSchema": {"type": "object", "properties": {
            "paths": {"anyOf": [{"type": "string"}, string_list]}}, "required": ["paths"]}}),
        json!({"name": "tag", "inputSchema": {"type": "object", "properties": {
            "tags": if swapped { json!({"type": "string"}) } else { string_list.clone() }},
            "required": ["tags"]}}),
        json!({"name": "echo", "inputSchema": {"type": "object", "properties": {
            "text": {"type": "string"}}}}),
        json!({"name": "progress", "inputSchema": {"type": "object"}}),
        json!({"name": "sample", "inputSchema": {"type": "object"}}),
        json!({"name": "swap", "inputSchema": {"type": "object"}}),
        json!({"name": "garbage", "inputSchema": {"type": "object"}}),
        json!({"name": "crash", "inputSchema": {"type": "object"}}),
        json!({"name": "kill", "inputSchema": {"type": "object"}}),
        // Values a server judges itself: lax integers, numbers, bounds, a pattern.
        json!({"name": "label", "inputSchema": {"type": "object", "properties": {
            "n": {"type": "integer"},
            "head": {"type": "number"},
            "code": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 3},
            "tags": string_list,
            "paths": {"anyOf": [{"type": "string"}, string_list]},
            "note": {"type": "string"}}, "required": ["n"]}}),
        // `paths` reaches `OneOrMany<String>` through `allOf`s along `$ref`s a <- b <- c.
        json!({"name": "chain", "inputSchema": {"type": "object",
            "properties": {"paths": {"$ref": "#/$defs/a"}},
            "$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}], "description": "a"},
                      "b": {"allOf": [{"$ref": "#/$defs/c"}], "description": "b"},
                      "c": {"anyOf": [{"type": "string"}, string_list]}}}}),
        // Keys by pattern beside `additionalProperties: false`.
        json!({"name": "open", "inputSchema": {"type": "object",
            "patternProperties": {"^x-": string_list, "^n-": {"type": "integer"}},
            "additionalProperties": false}}),
        // A `$ref` to nowhere: a schema no coercer can be compiled from.
        json!({"name": "odd", "inputSchema": {"type": "object", "properties": {
            "paths": {"$ref": "#/$defs/Missing"}}}}),
        // Hostile schemas (tests/hostile.rs): a union that is its own member, and 30 levels
        // of unions sharing their members (2^30 ways through).
        json!({"name": "recursive", "inputSchema": {"type": "object",
            "properties": {"x": {"$ref": "#/$defs/a"}},
            "$defs": {"a": {"anyOf": [{"$ref": "#/$defs/b"}, string_list]},
                      "b": {"oneOf": [{"$ref": "#/$defs/a"}]}}}}),
        json!({"name": "exploding", "inputSchema": exploding()}),
    ];
    if swapped {
        tools.push(
            json!({"name": "late", "inputSchema": {"type": "object", "properties": {
            "items": string_list}}}),
        );
    }
    tools
}

/// 30 levels, each an `anyOf` whose two members are the next level.
fn exploding() -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..30 {
        let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
        defs.insert(
            format!("d{i}"),
            json!({"anyOf": [next, {"type": "integer"}, next]}),
        );
    }
    defs.insert("d30".into(), json!({"type": "array"}));
    json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs})
}

impl Server {
    fn send(&mut self, message: &Value) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{message}");
        let _ = out.flush();
    }

    fn send_raw(&mut self, line: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn record(&mut self, line: &str) {
        if let Some(file) = self.record.as_mut() {
            let _ = writeln!(file, "{line}");
        }
    }

    /// The next line from the client (recorded), from the backlog first.
    fn next_line(&mut self, input: &mut impl BufRead) -> Option<String> {
        if let Some(line) = self.backlog.pop_front() {
            return Some(line);
        }
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let line = line.trim_end_matches(['\n', '\r']).to_owned();
                self.record(&line);
                Some(line)
            }
        }
    }

    fn handle(&mut self, line: &str, input: &mut impl BufRead) {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            if let Some(answer) = raw_answer(line) {
                self.send_raw(&answer);
                return;
            }
            self.send(&json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32700, "message": "Parse error"}}));
            return;
        };
        if let Value::Array(items) = message {
            let answers: Vec<Value> = items
                .iter()
                .filter_map(|item| self.answer(item, input))
                .collect();
            if !answers.is_empty() {
                self.send(&Value::Array(answers));
            }
            return;
        }
        if !message.is_object() {
            self.send(&json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32600, "message": "Invalid Request"}}));
            return;
        }
        if let Some(answer) = self.answer(&message, input) {
            self.send(&answer);
        }
    }

    /// The answer to one request; `None` for notifications and responses.
    fn answer(&mut self, message: &Value, input: &mut impl BufRead) -> Option<Value> {
        let id = message.get("id")?.clone();
        let method = message.get("method")?.as_str().unwrap_or("");
        let params = message.get("params").cloned().unwrap_or(json!({}));
        let result = match method {
            "initialize" => Ok(json!({
                "protocolVersion": params.get("protocolVersion").cloned()
                    .unwrap_or(json!("2025-06-18")),
                "capabilities": {"tools": {"listChanged": true}},
                "serverInfo": {"name": "fake", "version": "0"}})),
            "ping" => Ok(json!({})),
            "tools/list" if self.list_error => Err((-32603, "no list today")),
            "tools/list" if self.never_list => return None,
            "tools/list" => Ok(self.list(&params)),
            "tools/call" => self.call(&params, input),
            // The modern era's subscription: acknowledged, then list changes go to it (its
            // answer never comes: the stream stays open).
            "subscriptions/listen" => {
                self.send(&json!({"jsonrpc": "2.0",
                    "method": "notifications/subscriptions/acknowledged",
                    "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id},
                        "notifications": {"toolsListChanged": true}}}));
                self.listening = Some(id);
                return None;
            }
            _ => Err((-32601, "Method not found")),
        };
        Some(match result {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err((code, text)) => {
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": text}})
            }
        })
    }

    fn list(&self, params: &Value) -> Value {
        let tools = tools(self.swapped);
        let start: usize = params
            .get("cursor")
            .and_then(Value::as_str)
            .and_then(|cursor| cursor.parse().ok())
            .unwrap_or(0);
        if self.page_size == 0 {
            return json!({"tools": tools});
        }
        let end = (start + self.page_size).min(tools.len());
        let mut page = json!({"tools": tools[start.min(end)..end]});
        if end < tools.len() {
            page["nextCursor"] = json!(end.to_string());
        }
        page
    }

    fn call(
        &mut self,
        params: &Value,
        input: &mut impl BufRead,
    ) -> Result<Value, (i64, &'static str)> {
        let name = params.get("name").and_then(Value::as_str).unwrap_or("");
        let arguments = params.get("arguments").cloned().unwrap_or(Value::Null);
        let text = match name {
            "view" | "tag" | "echo" | "late" | "odd" | "label" | "chain" | "open" => {
                format!("{name} {arguments}")
            }
            "progress" => {
                let token = params["_meta"]["progressToken"].clone();
                // Two steps, or `steps` with a `message` of `size` bytes each (a flood).
                let steps = arguments.get("steps").and_then(Value::as_u64).unwrap_or(2);
                let size = arguments.get("size").and_then(Value::as_u64).unwrap_or(0);
                for step in 1..=steps {
                    let mut params =
                        json!({"progressToken": token, "progress": step, "total": steps});
                    if size > 0 {
                        params["message"] = json!("x".repeat(size as usize));
                    }
                    self.send(
                        &json!({"jsonrpc": "2.0", "method": "notifications/progress",
                        "params": params}),
                    );
                }
                "progress done".into()
            }
            "sample" => {
                self.send(&json!({"jsonrpc": "2.0", "id": "server-1",
                    "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}}));
                loop {
                    let Some(line) = self.next_line(input) else {
                        return Err((-32603, "no sample"));
                    };
                    let value: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
                    if value.get("id") == Some(&json!("server-1")) && value.get("method").is_none()
                    {
                        break format!("sampled {}", value["result"]["content"]["text"]);
                    }
                    self.backlog.push_back(line);
                }
            }
            "swap" => {
                self.swapped = true;
                let mut note =
                    json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
                if let Some(id) = &self.listening {
                    note["params"] =
                        json!({"_meta": {"io.modelcontextprotocol/subscriptionId": id}});
                }
                self.send(&note);
                "swapped".into()
            }
            "garbage" => {
                self.send_raw("this is not JSON");
                "garbage sent".into()
            }
            "crash" => {
                // Dies with the next request already in hand, so that both are pending in the
                // proxy when it exits (the test sends one right after the crash).
                let _ = self.next_line(input);
                std::process::exit(3)
            }
            "kill" => {
                #[cfg(unix)]
                // SAFETY: the process sends itself SIGKILL, as a server killed mid-call.
                unsafe {
                    libc::kill(libc::getpid(), libc::SIGKILL);
                }
                std::process::exit(4)
            }
            _ => return Err((-32602, "Unknown tool")),
        };
        Ok(json!({"content": [{"type": "text", "text": text}]}))
    }
}

/// The answer to a `tools/call` line `serde_json::Value` cannot read: read with the proxy's
/// own reader, answered with the arguments' text as received.
fn raw_answer(line: &str) -> Option<String> {
    use stitch_proxy::raw;
    let node = raw::parse(line)?;
    let id = node.get("id")?;
    let params = node.get("params")?;
    let name = params.get("name")?.as_str()?;
    let arguments = params.get("arguments")?;
    let text = format!("{name} raw {}", &line[arguments.span.clone()]);
    let answer = json!({"content": [{"type": "text", "text": text}]});
    Some(format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{answer}}}",
        &line[id.span.clone()]
    ))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut server = Server {
        out: io::stdout(),
        record: None,
        page_size: 0,
        list_error: false,
        never_list: false,
        swapped: false,
        backlog: VecDeque::new(),
        listening: None,
    };
    let mut exit_code = 0;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--record" => {
                let path = args.next().expect("--record FILE");
                server.record = Some(File::create(path).expect("the record file"));
            }
            "--page-size" => {
                server.page_size = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--page-size N")
            }
            "--exit-code" => {
                exit_code = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--exit-code N")
            }
            "--list-error" => server.list_error = true,
            "--never-list" => server.never_list = true,
            other => panic!("unknown argument {other}"),
        }
    }
    let stdin = io::stdin();
    let mut input = stdin.lock();
    while let Some(line) = server.next_line(&mut input) {
        server.handle(&line, &mut input);
    }
    std::process::exit(exit_code);
}
