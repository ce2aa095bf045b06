//! What the proxy's tests share: a [`Session`] runs `stitch-proxy -- stitch-proxy-fake-server
//! --record FILE` over real pipes; a test writes the client's lines, reads what comes back,
//! and reads FILE for exactly what reached the server. Every wait is bounded.
//!
//! The fake server (`fake_server.rs`) is an example of the package, not a binary, so that
//! `cargo install` never installs it: the first session builds it with cargo.

#![allow(dead_code)]

mod fake_build;
pub mod http;
pub mod upstream;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub const PROXY: &str = env!("CARGO_BIN_EXE_stitch-proxy");
pub const WAIT: Duration = Duration::from_secs(20);
pub const TEXT_LIST: &str =
    "is a list written as text \u{2014} pass the array itself, not JSON written as text";

/// A running proxy with the fake server behind it.
pub struct Session {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub stdout: Receiver<String>,
    pub stderr: thread::JoinHandle<String>,
    pub dir: PathBuf,
    /// Lines read while waiting for another one.
    pub seen: Vec<Value>,
}

/// The fake server, built once per test binary (`fake_build.rs`).
pub fn server() -> &'static Path {
    static SERVER: OnceLock<PathBuf> = OnceLock::new();
    SERVER.get_or_init(fake_build::build_fake_server)
}

/// The lines `stdout` writes, read on a thread of their own, as they come.
pub fn lines_of(stdout: ChildStdout) -> Receiver<String> {
    let (lines, received) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if lines.send(line).is_err() {
                return;
            }
        }
    });
    received
}

static SESSIONS: AtomicUsize = AtomicUsize::new(0);

impl Session {
    pub fn start(proxy_args: &[&str], server_args: &[&str]) -> Session {
        let dir = std::env::temp_dir().join(format!(
            "stitch-proxy-test-{}-{}",
            std::process::id(),
            SESSIONS.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let record = dir.join("record.jsonl");
        let mut child = Command::new(PROXY)
            .args(proxy_args)
            .arg("--")
            .arg(server())
            .arg("--record")
            .arg(&record)
            .args(server_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout_lines = lines_of(child.stdout.take().unwrap());
        let mut stderr = child.stderr.take().unwrap();
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Session {
            stdin: child.stdin.take(),
            child,
            stdout: stdout_lines,
            stderr,
            dir,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_json(&mut self, message: &Value) {
        self.send(&message.to_string());
    }

    /// The next line the client receives, as text.
    pub fn recv_line(&mut self) -> String {
        self.stdout
            .recv_timeout(WAIT)
            .expect("the proxy answers in time")
    }

    /// The next message the client receives.
    pub fn recv(&mut self) -> Value {
        let line = self.recv_line();
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON on stdout: {line:?}"))
    }

    /// Waits for the answer to `id`; what arrives before it is kept in `seen`.
    pub fn answer(&mut self, id: &Value) -> Value {
        if let Some(at) = self
            .seen
            .iter()
            .position(|m| m.get("id") == Some(id) && m.get("method").is_none())
        {
            return self.seen.remove(at);
        }
        loop {
            let message = self.recv();
            if message.get("id") == Some(id) && message.get("method").is_none() {
                return message;
            }
            self.seen.push(message);
        }
    }

    pub fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send_json(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.answer(&id)
    }

    pub fn call(&mut self, id: i64, tool: &str, arguments: Value) -> Value {
        self.request(
            json!(id),
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )
    }

    pub fn initialize(&mut self) {
        let answer = self.request(
            json!(0),
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"}}),
        );
        assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }

    /// Every line that reached the server so far.
    pub fn record(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("record.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Closes the client's side and waits for the proxy: its exit and its standard error.
    pub fn finish(mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let status = wait(&mut self.child);
        let stderr = std::mem::replace(&mut self.stderr, thread::spawn(String::new));
        (status, stderr.join().unwrap())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Waits until `check` holds.
pub fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(20));
    }
}

pub fn wait(child: &mut Child) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(start.elapsed() < WAIT, "the proxy did not exit in time");
        thread::sleep(Duration::from_millis(10));
    }
}

pub fn tool_text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
}

pub fn is_error(answer: &Value) -> bool {
    answer["result"]["isError"] == json!(true)
}

/// The record's lines that are `tools/call`s, parsed.
pub fn calls(record: &[String]) -> Vec<Value> {
    record
        .iter()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["method"] == "tools/call")
        .collect()
}
