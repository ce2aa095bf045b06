#![allow(dead_code)]
//! What the `--upstream` tests share: the proxy run with the client on pipes
//! ([`Stdio2Http`]), and [`serve`], a Streamable HTTP server written for a test on loopback,
//! plain or TLS: one request per connection, each on a thread of its own and answered by the
//! test's function; every request it received is kept for the test to read ([`Seen`]).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use crate::support::{lines_of, PROXY, WAIT};

pub const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
pub const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// `stitch-proxy --upstream URL …` with the client on pipes.
pub struct Stdio2Http {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Stdio2Http {
    pub fn start(args: &[&str]) -> Stdio2Http {
        let mut child = Command::new(PROXY)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = lines_of(child.stdout.take().unwrap());
        Stdio2Http {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn recv(&self) -> String {
        self.lines.recv_timeout(WAIT).expect("an answer in time")
    }

    /// The next line, parsed.
    pub fn recv_json(&self) -> serde_json::Value {
        let line = self.recv();
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line}"))
    }

    /// Closes the client's side, waits for the proxy's exit and returns its standard error.
    pub fn finish(mut self) -> String {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the proxy did not end");
            thread::sleep(Duration::from_millis(20));
        }
        let mut text = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    }
}

impl Drop for Stdio2Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request the server received: method, lowercase headers, body.
#[derive(Debug)]
pub struct Seen {
    pub method: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body's JSON (null when it has none).
    pub fn message(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_default()
    }
}

/// What [`serve`] writes back for a request: the whole answer at once, or an answer whose
/// bytes a function writes (an SSE stream held open, say; it returns when it is done).
pub enum Reply {
    Now(String),
    Stream(Writer),
}

/// Writes an answer's bytes as they come.
pub type Writer = Box<dyn FnOnce(&mut dyn Write) + Send>;

/// A running test server: `127.0.0.1:PORT`, and the requests as they are answered.
pub struct Served {
    pub addr: String,
    pub port: u16,
    pub requests: mpsc::Receiver<Seen>,
}

/// Serves on a free loopback port, with TLS when `tls` is given; at most 100 connections.
pub fn serve(
    tls: Option<Arc<rustls::ServerConfig>>,
    answer: impl Fn(&Seen) -> Reply + Send + Sync + 'static,
) -> Served {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (seen, requests) = mpsc::channel();
    let answer = Arc::new(answer);
    thread::spawn(move || {
        for stream in listener.incoming().take(100) {
            let Ok(stream) = stream else { return };
            let (answer, seen, tls) = (answer.clone(), seen.clone(), tls.clone());
            thread::spawn(move || {
                stream.set_read_timeout(Some(WAIT)).unwrap();
                match tls {
                    None => exchange(stream, &*answer, &seen),
                    Some(config) => {
                        let Ok(connection) = rustls::ServerConnection::new(config) else {
                            return;
                        };
                        let mut tls = rustls::StreamOwned::new(connection, stream);
                        exchange(&mut tls, &*answer, &seen);
                        tls.conn.send_close_notify();
                        let _ = tls.flush();
                    }
                }
            });
        }
    });
    Served {
        addr: format!("127.0.0.1:{port}"),
        port,
        requests,
    }
}

/// Reads one request from `stream`, reports it, and writes its answer (reported first: what
/// the proxy sends once it has an answer comes after it in the report).
fn exchange<S: Read + Write>(
    mut stream: S,
    answer: &dyn Fn(&Seen) -> Reply,
    seen: &mpsc::Sender<Seen>,
) {
    let Some(request) = read_request(&mut stream) else {
        return;
    };
    let reply = answer(&request);
    let _ = seen.send(request);
    match reply {
        Reply::Now(text) => {
            let _ = stream.write_all(text.as_bytes());
        }
        Reply::Stream(write) => write(&mut stream),
    }
    let _ = stream.flush();
}

fn read_request(stream: &mut impl Read) -> Option<Seen> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let method = line.split(' ').next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap_or(0));
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Seen {
        method,
        headers,
        body: String::from_utf8(body).ok()?,
    })
}

/// A JSON answer (HTTP 200), with `Mcp-Session-Id: session` when given.
pub fn json(session: Option<&str>, body: &str) -> Reply {
    let session = session.map_or(String::new(), |s| format!("Mcp-Session-Id: {s}\r\n"));
    Reply::Now(format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{session}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ))
}

/// An answer without a body.
pub fn status(code: u16, reason: &str) -> Reply {
    Reply::Now(format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    ))
}

/// The head of an SSE answer (the stream ends when the connection closes).
pub fn sse_head(session: Option<&str>) -> String {
    let session = session.map_or(String::new(), |s| format!("Mcp-Session-Id: {s}\r\n"));
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{session}Connection: close\r\n\r\n"
    )
}

/// Reads what came so far, in order, for at most `wait`, until `enough` holds.
pub fn collect(
    requests: &mpsc::Receiver<Seen>,
    seen: &mut Vec<Seen>,
    enough: impl Fn(&[Seen]) -> bool,
) {
    let deadline = Instant::now() + WAIT;
    while !enough(seen) {
        let left = deadline.saturating_duration_since(Instant::now());
        match requests.recv_timeout(left) {
            Ok(request) => seen.push(request),
            Err(_) => panic!("timed out; the server saw {seen:#?}"),
        }
    }
}
