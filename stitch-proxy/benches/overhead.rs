//! What the proxy costs: the latency it adds to one `tools/call` and the throughput of
//! pipelined calls, each beside the same server reached directly over stdio.
//!
//! ```text
//! cargo bench -p stitch-proxy --bench overhead
//! ```
//!
//! The server is the tests' fake server (tests/support/fake_server.rs, an example of the
//! package, built here in release), which answers a call at once, so what differs between the
//! two connections is the proxy. Figures go to BENCHMARKS.md.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

#[path = "../tests/support/fake_build.rs"]
mod fake_build;

const PROXY: &str = env!("CARGO_BIN_EXE_stitch-proxy");

/// The fake server, built in the bench's profile beside it.
fn server() -> PathBuf {
    fake_build::build_fake_server()
}

/// Sequential calls timed, after the warm-up ones.
const LATENCY_CALLS: usize = 20_000;
const WARM_UP: usize = 1_000;
/// Calls written without waiting, for the throughput.
const PIPELINED_CALLS: usize = 100_000;

struct Connection {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Connection {
    fn open(through_proxy: bool) -> Connection {
        let server = server();
        let mut command = if through_proxy {
            let mut command = Command::new(PROXY);
            command.args(["--log", "error", "--"]).arg(&server);
            command
        } else {
            Command::new(&server)
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the server");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut connection = Connection {
            child,
            input,
            output,
        };
        connection.round_trip(r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#);
        connection.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        connection.round_trip(r#"{"jsonrpc":"2.0","id":"list","method":"tools/list"}"#);
        connection
    }

    fn send(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    fn round_trip(&mut self, line: &str) -> String {
        self.send(line);
        let mut answer = String::new();
        self.output.read_line(&mut answer).unwrap();
        assert!(answer.contains("\"result\""), "{answer}");
        answer
    }

    fn close(mut self) {
        drop(self.input);
        let _ = self.child.wait();
    }
}

fn call(id: usize, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
}

/// Median and 99th percentile of sequential round trips of `line_for(i)`.
fn latency(through_proxy: bool, line_for: impl Fn(usize) -> String) -> (Duration, Duration) {
    let mut connection = Connection::open(through_proxy);
    let mut times = Vec::with_capacity(LATENCY_CALLS);
    for i in 0..WARM_UP + LATENCY_CALLS {
        let line = line_for(i);
        let start = Instant::now();
        connection.round_trip(&line);
        if i >= WARM_UP {
            times.push(start.elapsed());
        }
    }
    connection.close();
    times.sort();
    (times[times.len() / 2], times[times.len() * 99 / 100])
}

/// Calls per second when `PIPELINED_CALLS` calls are written without waiting.
fn throughput(through_proxy: bool, line_for: fn(usize) -> String) -> f64 {
    let Connection {
        child,
        mut input,
        mut output,
    } = Connection::open(through_proxy);
    let start = Instant::now();
    let writer = thread::spawn(move || {
        let mut text = String::new();
        for i in 0..PIPELINED_CALLS {
            text.push_str(&line_for(i));
            text.push('\n');
            if text.len() > 1 << 16 {
                input.write_all(text.as_bytes()).unwrap();
                text.clear();
            }
        }
        input.write_all(text.as_bytes()).unwrap();
        input
    });
    let mut answer = String::new();
    for _ in 0..PIPELINED_CALLS {
        answer.clear();
        output.read_line(&mut answer).unwrap();
        assert!(answer.contains("\"result\""), "{answer}");
    }
    let elapsed = start.elapsed();
    let input = writer.join().unwrap();
    Connection {
        child,
        input,
        output,
    }
    .close();
    PIPELINED_CALLS as f64 / elapsed.as_secs_f64()
}

fn clean(i: usize) -> String {
    call(i, "view", r#"{"paths":"a.png"}"#)
}

fn repaired(i: usize) -> String {
    call(i, "tag", r#"{"tags":"[\"a\", \"b\"]"}"#)
}

fn refused(i: usize) -> String {
    call(i, "view", r#"{"paths":"[\"a.png\", \"b.png\"]"}"#)
}

fn micros(duration: Duration) -> String {
    format!("{:.1} µs", duration.as_secs_f64() * 1e6)
}

fn main() {
    // `cargo bench` passes `--bench`; a filter word is not supported.
    println!("latency of one tools/call, {LATENCY_CALLS} sequential calls (median / p99):");
    let (direct_median, direct_p99) = latency(false, clean);
    println!(
        "  direct, clean call:          {} / {}",
        micros(direct_median),
        micros(direct_p99)
    );
    let (proxy_median, proxy_p99) = latency(true, clean);
    println!(
        "  via proxy, clean call:       {} / {}   (added at the median: {})",
        micros(proxy_median),
        micros(proxy_p99),
        micros(proxy_median.saturating_sub(direct_median))
    );
    let (median, p99) = latency(true, repaired);
    println!(
        "  via proxy, repaired call:    {} / {}",
        micros(median),
        micros(p99)
    );
    let (median, p99) = latency(true, refused);
    println!(
        "  via proxy, refused call:     {} / {}   (answered by the proxy)",
        micros(median),
        micros(p99)
    );
    println!("throughput, {PIPELINED_CALLS} calls pipelined:");
    println!(
        "  direct, clean calls:         {:.0} calls/s",
        throughput(false, clean)
    );
    println!(
        "  via proxy, clean calls:      {:.0} calls/s",
        throughput(true, clean)
    );
    println!(
        "  via proxy, repaired calls:   {:.0} calls/s",
        throughput(true, repaired)
    );
    println!(
        "  via proxy, refused calls:    {:.0} calls/s",
        throughput(true, refused)
    );
}
