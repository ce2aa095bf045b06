//! The README's rmcp section is this crate's `src/main.rs`, word for word, and that server
//! works: spoken to over stdio, it lists stitch's schema, runs a good call, and answers a list
//! written as text with stitch's refusal.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

const MAIN: &str = include_str!("../src/main.rs");
const README: &str = include_str!("../../../README.md");

/// The first ```rust block after the heading `## MCP servers (rmcp)`.
fn readme_block() -> &'static str {
    let section = README
        .split_once("\n## MCP servers (rmcp)\n")
        .map(|(_, rest)| rest)
        .expect("the README has a section `## MCP servers (rmcp)`");
    let block = section
        .split_once("```rust\n")
        .map(|(_, rest)| rest)
        .expect("the section holds a ```rust block");
    block
        .split_once("```\n")
        .map(|(code, _)| code)
        .expect("the block is closed")
}

#[test]
fn the_readme_shows_this_server_as_it_is() {
    let block = readme_block();
    if block != MAIN {
        let first = block
            .lines()
            .zip(MAIN.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(block.lines().count().min(MAIN.lines().count()));
        panic!(
            "the README's rmcp block and examples/rmcp-skeleton/src/main.rs differ from line {}:\n\
             README: {:?}\nmain.rs: {:?}",
            first + 1,
            block.lines().nth(first),
            MAIN.lines().nth(first)
        );
    }
}

/// The server, spoken to with newline-delimited JSON-RPC (MCP's stdio transport).
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stitch-rmcp-skeleton"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").expect("the server reads stdin");
        self.stdin.flush().expect("the server reads stdin");
    }

    /// Sends a request and returns the response with its id (a hung server fails the test).
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|e| panic!("no answer to {method}: {e}"));
            let message: Value = serde_json::from_str(&line).expect("the server writes JSON");
            if message["id"] == id {
                return message;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `key: value` appears anywhere in `schema`.
fn holds(schema: &Value, key: &str, value: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.get(key) == Some(value) || map.values().any(|v| holds(v, key, value))
        }
        Value::Array(items) => items.iter().any(|v| holds(v, key, value)),
        _ => false,
    }
}

fn texts(result: &Value) -> Vec<&str> {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect()
}

#[test]
fn the_skeleton_serves_stitchs_schema_and_refusal() {
    let mut session = Session::start();
    let init = session.request(
        1,
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "skeleton-test", "version": "0"}
        }),
    );
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    session.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    let list = session.request(2, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("a tool list");
    assert_eq!(tools.len(), 1, "{list}");
    assert_eq!(tools[0]["name"], "view_file");
    assert_eq!(
        tools[0]["description"],
        "Show one or more files to the model."
    );
    let schema = &tools[0]["inputSchema"];
    assert_eq!(schema["required"], json!(["paths"]), "{schema}");
    // stitch's bound, wherever its schema puts it: rmcp advertises stitch's schema.
    assert!(
        holds(&schema["properties"]["paths"], "maxItems", &json!(20)),
        "{schema}"
    );

    let call = |arguments: Value| json!({"name": "view_file", "arguments": arguments});
    let good = session.request(3, "tools/call", call(json!({"paths": ["a.png", "b.png"]})));
    assert_ne!(good["result"]["isError"], true, "{good}");
    assert_eq!(texts(&good["result"]), ["a.png", "b.png"]);

    let refused = session.request(4, "tools/call", call(json!({"paths": "[\"a.png\"]"})));
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let said = texts(&refused["result"]).join("\n");
    assert!(
        said.contains(
            "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
        ),
        "{refused}"
    );
}
