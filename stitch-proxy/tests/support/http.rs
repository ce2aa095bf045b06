#![allow(dead_code)]
//! What the HTTP tests share: `stitch-proxy --listen` started on a free loopback port (in
//! front of the fake server, or of an `--upstream`), and a minimal HTTP/1.1 client over a
//! `TcpStream` — one request per connection, every read bounded in time — so the tests see
//! the exact bytes on the wire.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::support::{server, PROXY, WAIT};

static RUNS: AtomicUsize = AtomicUsize::new(0);

/// A running `stitch-proxy --listen 127.0.0.1:0 …`.
pub struct Listen {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    pub dir: PathBuf,
    pub stderr: thread::JoinHandle<String>,
}

impl Listen {
    /// `--listen` in front of the fake server (`--record DIR/record.jsonl`), with `args`
    /// before the `--`.
    pub fn fake(args: &[&str]) -> Listen {
        let dir = temp_dir();
        let record = dir.join("record.jsonl");
        let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        all.push("--".into());
        all.push(server().display().to_string());
        all.push("--record".into());
        all.push(record.display().to_string());
        Listen::start(dir, &all)
    }

    /// `--listen` with `args` as given (`--upstream URL`, say).
    pub fn with(args: &[&str]) -> Listen {
        let all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Listen::start(temp_dir(), &all)
    }

    fn start(dir: PathBuf, args: &[String]) -> Listen {
        let mut child = Command::new(PROXY)
            .args(["--log", "info", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        let mut addr = None;
        while addr.is_none() {
            first.clear();
            assert!(
                stderr.read_line(&mut first).unwrap() > 0,
                "the proxy did not listen"
            );
            // The text line, or the JSON one (`--log-format json`).
            let url = first
                .strip_prefix("stitch-proxy: listening on ")
                .map(|rest| rest.trim().to_owned())
                .or_else(|| {
                    let line: serde_json::Value = serde_json::from_str(&first).ok()?;
                    (line["event"] == "listening")
                        .then(|| line["url"].as_str())??
                        .to_owned()
                        .into()
                });
            addr = url
                .as_deref()
                .and_then(|url| url.strip_prefix("http://")?.strip_suffix("/mcp"))
                .map(str::to_owned);
        }
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Listen {
            child,
            addr: addr.unwrap(),
            dir,
            stderr,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// Every line that reached the fake server(s) so far.
    pub fn record(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("record.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// The proxy's child processes now (Linux; empty elsewhere).
    pub fn children(&self) -> Vec<u32> {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", self.child.id())) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for task in tasks.flatten() {
            let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            found.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
        found
    }

    /// Stops the proxy (SIGTERM on Unix) and returns its standard error.
    pub fn stop(mut self) -> String {
        #[cfg(unix)]
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        #[cfg(not(unix))]
        let _ = self.child.kill();
        let deadline = Instant::now() + WAIT;
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the proxy did not stop");
            thread::sleep(Duration::from_millis(20));
        }
        let stderr = std::mem::replace(&mut self.stderr, thread::spawn(String::new));
        stderr.join().unwrap()
    }
}

impl Drop for Listen {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "stitch-proxy-http-test-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The data of each SSE event of the body.
    pub fn events(&self) -> Vec<String> {
        let text = String::from_utf8(self.body.clone()).unwrap();
        text.split("\n\n")
            .filter_map(|event| {
                let data: Vec<&str> = event
                    .lines()
                    .filter_map(|line| line.strip_prefix("data: "))
                    .collect();
                (!data.is_empty()).then(|| data.join("\n"))
            })
            .collect()
    }
}

/// The headers every MCP POST carries.
pub const MCP: &[(&str, &str)] = &[
    ("Content-Type", "application/json"),
    ("Accept", "application/json, text/event-stream"),
];

/// Sends one request (`Host` is `addr` unless `headers` has one) and reads the whole answer.
pub fn request(addr: &str, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let mut head = format!("{method} /mcp HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    // One write: a head and a body in two would wait on Nagle's algorithm.
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    stream.write_all(&bytes).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    parse(&raw)
}

/// POSTs `body` in session `session` (none for an `initialize`).
pub fn post(addr: &str, session: Option<&str>, body: &str) -> Reply {
    let mut headers = MCP.to_vec();
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id", session));
    }
    request(addr, "POST", &headers, body.as_bytes())
}

/// Opens a session: `initialize`, then `notifications/initialized`; returns its id.
pub fn open(addr: &str) -> String {
    let reply = post(
        addr,
        None,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let events = reply.events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(events[0].contains("\"serverInfo\""), "{events:?}");
    let note = post(
        addr,
        Some(&session),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(note.status, 202, "{note:?}");
    session
}

fn parse(raw: &[u8]) -> Reply {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP head");
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(line_end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = std::str::from_utf8(&data[..line_end]).unwrap();
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        let start = line_end + 2;
        out.extend_from_slice(&data[start..start + size]);
        data = &data[start + size + 2..];
    }
}
