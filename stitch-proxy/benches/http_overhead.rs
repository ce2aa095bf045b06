//! What the HTTP modes cost: the latency `--listen` and `--upstream` add to one `tools/call`,
//! and the memory a `--listen` session takes.
//!
//! ```text
//! cargo bench -p stitch-proxy --bench http_overhead
//! ```
//!
//! Three connections to the tests' fake server (built here in release), each call written
//! and its answer read before the next:
//!
//! - **stdio, direct**: the fake server on pipes (the baseline of `overhead.rs`);
//! - **HTTP → `--listen`**: one keep-alive HTTP/1.1 connection POSTing each call to
//!   `stitch-proxy --listen` in front of the fake server, reading its SSE answer;
//! - **stdio → `--upstream` → `--listen`**: a second proxy in front of the first, the
//!   client on its pipes: what `--upstream` adds is this minus the previous line.
//!
//! Memory: the resident size of the `--listen` proxy before and after opening 20 sessions
//! (Linux `/proc`), each session's own child not counted. Figures go to BENCHMARKS.md.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../tests/support/fake_build.rs"]
mod fake_build;

const PROXY: &str = env!("CARGO_BIN_EXE_stitch-proxy");
const CALLS: usize = 5_000;
const WARM_UP: usize = 500;
const SESSIONS: usize = 20;

/// The fake server, built in the bench's profile beside it.
fn server() -> PathBuf {
    fake_build::build_fake_server()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn call(id: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"view","arguments":{{"paths":"a.png"}}}}}}"#
    )
}

/// A client on a child's pipes (the fake server, or `--upstream`).
struct Pipes {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Pipes {
    fn open(command: &mut Command) -> Pipes {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut pipes = Pipes {
            child,
            input,
            output,
        };
        pipes.round_trip(INIT);
        writeln!(pipes.input, "{INITIALIZED}").unwrap();
        pipes
    }

    fn round_trip(&mut self, line: &str) -> String {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        let mut answer = String::new();
        self.output.read_line(&mut answer).unwrap();
        answer
    }
}

impl Drop for Pipes {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A keep-alive HTTP/1.1 connection to `--listen`, one session.
struct Http {
    stream: BufReader<TcpStream>,
    addr: String,
    session: String,
}

impl Http {
    fn open(addr: &str) -> Http {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_nodelay(true).unwrap();
        let mut http = Http {
            stream: BufReader::new(stream),
            addr: addr.to_owned(),
            session: String::new(),
        };
        let (headers, _) = http.post(INIT);
        http.session = headers
            .lines()
            .find_map(|l| l.strip_prefix("mcp-session-id: "))
            .unwrap()
            .trim()
            .to_owned();
        http.post(INITIALIZED);
        http
    }

    /// POSTs `body`; returns the head and the body (chunks joined).
    fn post(&mut self, body: &str) -> (String, Vec<u8>) {
        let mut request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if !self.session.is_empty() {
            request.push_str(&format!("Mcp-Session-Id: {}\r\n", self.session));
        }
        request.push_str("\r\n");
        request.push_str(body);
        self.stream.get_mut().write_all(request.as_bytes()).unwrap();
        let mut head = String::new();
        loop {
            let mut line = String::new();
            self.stream.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            head.push_str(&line.to_ascii_lowercase());
        }
        let mut out = Vec::new();
        if let Some(length) = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
        {
            let mut body = vec![0; length.trim().parse().unwrap()];
            self.stream.read_exact(&mut body).unwrap();
            return (head, body);
        }
        loop {
            let mut size = String::new();
            self.stream.read_line(&mut size).unwrap();
            let size = usize::from_str_radix(size.trim(), 16).unwrap();
            let mut chunk = vec![0; size + 2];
            self.stream.read_exact(&mut chunk).unwrap();
            if size == 0 {
                return (head, out);
            }
            out.extend_from_slice(&chunk[..size]);
        }
    }
}

/// `stitch-proxy --listen 127.0.0.1:0 -- <fake server>`, and its address.
fn listen(server: &Path) -> (Child, String) {
    let mut child = Command::new(PROXY)
        .args(["--log", "error", "--listen", "127.0.0.1:0", "--"])
        .arg(server)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let addr = line
        .trim()
        .strip_prefix("stitch-proxy: listening on http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap()
        .to_owned();
    // Keep the pipe drained.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (child, addr)
}

fn timed(mut round_trip: impl FnMut(usize)) -> (Duration, Duration) {
    for i in 0..WARM_UP {
        round_trip(i);
    }
    let mut times: Vec<Duration> = (WARM_UP..WARM_UP + CALLS)
        .map(|i| {
            let start = Instant::now();
            round_trip(i);
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], times[times.len() * 99 / 100])
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

fn main() {
    let server = server();
    let (direct_median, direct_p99) = {
        let mut pipes = Pipes::open(&mut Command::new(&server));
        timed(|i| {
            pipes.round_trip(&call(i));
        })
    };
    let (mut listener, addr) = listen(&server);
    let (listen_median, listen_p99) = {
        let mut http = Http::open(&addr);
        timed(|i| {
            let (_, body) = http.post(&call(i));
            assert!(body.starts_with(b"event: message\ndata: {"), "{body:?}");
        })
    };
    let (upstream_median, upstream_p99) = {
        let url = format!("http://{addr}/mcp");
        let mut command = Command::new(PROXY);
        command.args(["--log", "error", "--upstream", &url]);
        let mut pipes = Pipes::open(&mut command);
        timed(|i| {
            pipes.round_trip(&call(i));
        })
    };
    let before = rss_kib(listener.id());
    let sessions: Vec<Http> = (0..SESSIONS).map(|_| Http::open(&addr)).collect();
    let after = rss_kib(listener.id());
    drop(sessions);
    let _ = listener.kill();
    let _ = listener.wait();

    println!("per tools/call, {CALLS} sequential calls after {WARM_UP} warm-up ones:");
    println!(
        "  stdio, direct:                    median {} / p99 {}",
        micros(direct_median),
        micros(direct_p99)
    );
    println!(
        "  HTTP -> --listen:                 median {} / p99 {}",
        micros(listen_median),
        micros(listen_p99)
    );
    println!(
        "  stdio -> --upstream -> --listen:  median {} / p99 {}",
        micros(upstream_median),
        micros(upstream_p99)
    );
    println!(
        "  added at the median: --listen (HTTP included) {}, --upstream {}",
        micros(listen_median.saturating_sub(direct_median)),
        micros(upstream_median.saturating_sub(listen_median))
    );
    println!(
        "memory: the --listen proxy {before} KiB resident, {after} KiB with {SESSIONS} sessions: {} KiB per session (its child apart)",
        after.saturating_sub(before) / SESSIONS as u64
    );
}
