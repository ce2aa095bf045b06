//! Issue #23: stitch-proxy over Streamable HTTP, against the fake server on loopback — the
//! exact bytes on both wires, the streams each message goes out on, the checks made before any
//! MCP processing, and the sessions' children.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::support::http::{open, post, request, Listen, MCP};
use crate::support::{lines_of, PROXY, TEXT_LIST, WAIT};

/// Waits until `check` holds.
fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn listen_keeps_the_clients_bytes_and_the_servers() {
    let listen = Listen::fake(&[]);
    let session = open(&listen.addr);
    // A clean call, spaced and across lines: it reaches the server byte for byte, its line
    // breaks (JSON whitespace) made spaces, the one thing a line-delimited server needs.
    let clean = "{ \"jsonrpc\" : \"2.0\",\n  \"id\" : 7, \"method\":\"tools/call\",\r\n \"params\":{\"name\":\"echo\",\"arguments\":{ \"text\" : \"a\\u00e9 [\\\"x\\\"]\" }} }";
    let reply = post(&listen.addr, Some(&session), clean);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    // The server's answer, exactly as it wrote it.
    assert_eq!(
        reply.events(),
        [
            r#"{"id":7,"jsonrpc":"2.0","result":{"content":[{"text":"echo {\"text\":\"aé [\\\"x\\\"]\"}","type":"text"}]}}"#
        ]
    );
    // A repair: only the repaired string changes.
    let repaired = r#"{"jsonrpc":"2.0", "id":8,"method":"tools/call","params":{"name":"tag","arguments":{"tags" : "[\"a\", \"b\"]", "x":1.50}}}"#;
    let reply = post(&listen.addr, Some(&session), repaired);
    assert_eq!(reply.events().len(), 1, "{reply:?}");
    // A refusal: the proxy's answer on the call's stream, nothing at the server.
    let refused = r#"{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"a.png\"]"}}}"#;
    let reply = post(&listen.addr, Some(&session), refused);
    assert_eq!(
        reply.events(),
        [format!(
            r#"{{"jsonrpc":"2.0","id":"r1","result":{{"content":[{{"type":"text","text":"paths {TEXT_LIST}"}}],"isError":true}}}}"#
        )]
    );
    let record = listen.record();
    let calls: Vec<&String> = record.iter().filter(|l| l.contains("tools/call")).collect();
    assert_eq!(
        calls,
        [
            &clean.replace(['\n', '\r'], " "),
            &r#"{"jsonrpc":"2.0", "id":8,"method":"tools/call","params":{"name":"tag","arguments":{"tags" : ["a", "b"], "x":1.50}}}"#.to_owned(),
        ]
    );
}

#[test]
fn progress_goes_on_its_calls_stream_in_order_and_notifications_on_an_open_one() {
    let listen = Listen::fake(&[]);
    let session = open(&listen.addr);
    let reply = post(
        &listen.addr,
        Some(&session),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"p"}}}"#,
    );
    assert_eq!(
        reply.events(),
        [
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":"p","total":2}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":2,"progressToken":"p","total":2}}"#,
            r#"{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"progress done","type":"text"}]}}"#,
        ]
    );
    // `list_changed` belongs to no request: it goes on the stream still open, before the
    // answer; the proxy then lists the tools again on its own.
    let reply = post(
        &listen.addr,
        Some(&session),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"swap","arguments":{}}}"#,
    );
    let events = reply.events();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(
        events[0].contains("notifications/tools/list_changed"),
        "{events:?}"
    );
    assert!(events[1].starts_with(r#"{"id":2,"#), "{events:?}");
    // After the swap `tags` is a plain string: a list written as text is the server's now.
    let reply = post(
        &listen.addr,
        Some(&session),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"tag","arguments":{"tags":"[1]"}}}"#,
    );
    assert!(
        reply.events()[0].contains(r#"tag {\"tags\":\"[1]\"}"#),
        "{reply:?}"
    );
}

#[test]
fn the_servers_request_goes_on_the_open_call_stream_and_its_answer_comes_back_by_post() {
    let listen = Listen::fake(&[]);
    let session = open(&listen.addr);
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample","arguments":{}}}"#;
    let mut stream = std::net::TcpStream::connect(&listen.addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: {session}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{call}",
        listen.addr,
        call.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // Read until the server's sampling request arrives on the call's stream…
    let mut got = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&got).contains("sampling/createMessage") {
        let n = std::io::Read::read(&mut stream, &mut buffer).unwrap();
        assert!(
            n > 0,
            "the stream ended first: {}",
            String::from_utf8_lossy(&got)
        );
        got.extend_from_slice(&buffer[..n]);
    }
    // …answer it with a POST of its own (202), and the call's answer follows on the stream.
    let answer = r#"{"jsonrpc":"2.0","id":"server-1","result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}"#;
    assert_eq!(post(&listen.addr, Some(&session), answer).status, 202);
    std::io::Read::read_to_end(&mut stream, &mut got).unwrap();
    let text = String::from_utf8(got).unwrap();
    let request = text.find("sampling/createMessage").unwrap();
    let result = text.find(r#"sampled \"hi\""#).expect("the call's answer");
    assert!(request < result, "{text}");
    assert!(listen.record().contains(&answer.to_owned()));
}

#[test]
fn the_get_stream_is_one_per_session_and_ends_with_it() {
    let listen = Listen::fake(&[]);
    let session = open(&listen.addr);
    // The first GET: its head arrives at once, its body when the session ends.
    let mut first = std::net::TcpStream::connect(&listen.addr).unwrap();
    first.set_read_timeout(Some(WAIT)).unwrap();
    let head = format!(
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {session}\r\nConnection: close\r\n\r\n",
        listen.addr
    );
    first.write_all(head.as_bytes()).unwrap();
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        std::io::Read::read_exact(&mut first, &mut byte).unwrap();
        got.push(byte[0]);
    }
    let head = String::from_utf8(got).unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    // A second one conflicts with it.
    let headers = [
        ("Accept", "text/event-stream"),
        ("Mcp-Session-Id", session.as_str()),
    ];
    assert_eq!(request(&listen.addr, "GET", &headers, b"").status, 409);
    let deleted = request(&listen.addr, "DELETE", &[("Mcp-Session-Id", &session)], b"");
    assert_eq!(deleted.status, 200);
    // The session's end ends the stream: the last chunk, no event.
    let mut rest = Vec::new();
    std::io::Read::read_to_end(&mut first, &mut rest).unwrap();
    assert_eq!(rest, b"0\r\n\r\n");
    // The session is gone.
    let after = post(
        &listen.addr,
        Some(&session),
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    );
    assert_eq!(after.status, 404);
}

#[test]
fn checks_before_any_mcp_processing() {
    let listen = Listen::fake(&["--max-body", "1000"]);
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut headers = MCP.to_vec();
        headers.extend_from_slice(extra);
        request(&listen.addr, "POST", &headers, init.as_bytes())
    };
    assert_eq!(with(&[("Host", "evil.example")]).status, 403);
    assert_eq!(with(&[("Host", "localhost.evil.example:80")]).status, 403);
    assert_eq!(with(&[("Origin", "http://evil.example")]).status, 403);
    assert_eq!(with(&[("Origin", "null")]).status, 403);
    assert_eq!(with(&[("MCP-Protocol-Version", "1999-01-01")]).status, 400);
    // None of those started a server.
    assert!(listen.children().is_empty());
    assert!(listen.record().is_empty());
    // A loopback origin is welcome.
    let ok = with(&[("Origin", "http://localhost:6274")]);
    assert_eq!(ok.status, 200, "{ok:?}");
    let session = ok.header("mcp-session-id").unwrap().to_owned();

    let post_raw =
        |headers: &[(&str, &str)], body: &[u8]| request(&listen.addr, "POST", headers, body);
    assert_eq!(
        post_raw(&[("Content-Type", "application/json")], init.as_bytes()).status,
        406
    );
    assert_eq!(
        post_raw(
            &[("Accept", "application/json, text/event-stream")],
            init.as_bytes()
        )
        .status,
        415
    );
    assert_eq!(
        post_raw(MCP, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").status,
        400
    );
    let with_session = [MCP[0], MCP[1], ("Mcp-Session-Id", session.as_str())];
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":"{}"}}}}"#,
        "a".repeat(2000)
    );
    assert_eq!(post_raw(&with_session, big.as_bytes()).status, 413);
    let bad = post_raw(&with_session, b"{not json");
    assert_eq!(bad.status, 400);
    assert!(String::from_utf8_lossy(&bad.body).contains("-32700"));
    let unknown = [MCP[0], MCP[1], ("Mcp-Session-Id", "nope")];
    assert_eq!(
        post_raw(
            &unknown,
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"
        )
        .status,
        404
    );
    assert_eq!(request(&listen.addr, "PUT", MCP, b"").status, 405);
    // Bytes that are not HTTP at all: the connection ends, the proxy goes on.
    for junk in [
        &b"\x00\xff\xfe garbage\r\n\r\n"[..],
        b"GET /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n",
    ] {
        let mut stream = std::net::TcpStream::connect(&listen.addr).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        let _ = stream.write_all(junk);
        let _ = std::io::Read::read_to_end(&mut stream, &mut Vec::new());
    }
    let ping = post_raw(
        &with_session,
        b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}",
    );
    assert_eq!(ping.status, 200);
    assert_eq!(ping.events().len(), 1);
    let stderr = listen.stop();
    assert!(stderr.contains("Host not allowed: 403"), "{stderr}");
}

#[test]
fn each_session_has_its_own_child_ended_by_delete_or_idleness() {
    let listen = Listen::fake(&["--session-idle", "0.5"]);
    let first = open(&listen.addr);
    let second = open(&listen.addr);
    assert_ne!(first, second);
    let children = listen.children();
    assert_eq!(children.len(), 2, "{children:?}");
    // DELETE ends the first session's child.
    let deleted = request(&listen.addr, "DELETE", &[("Mcp-Session-Id", &first)], b"");
    assert_eq!(deleted.status, 200);
    eventually("the first child's exit", || listen.children().len() == 1);
    assert_eq!(listen.children(), [children[1]]);
    // The second, left idle, ends on its own.
    eventually("the idle session's end", || listen.children().is_empty());
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert_eq!(post(&listen.addr, Some(&second), ping).status, 404);
    assert_eq!(post(&listen.addr, Some(&first), ping).status, 404);
}

#[test]
fn a_client_that_disappears_has_its_session_ended() {
    let listen = Listen::fake(&["--session-idle", "0.5"]);
    let session = open(&listen.addr);
    let mut get = std::net::TcpStream::connect(&listen.addr).unwrap();
    get.set_read_timeout(Some(WAIT)).unwrap();
    let head = format!(
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {session}\r\n\r\n",
        listen.addr
    );
    get.write_all(head.as_bytes()).unwrap();
    let mut byte = [0u8; 1];
    let mut got = Vec::new();
    while !got.ends_with(b"\r\n\r\n") {
        std::io::Read::read_exact(&mut get, &mut byte).unwrap();
        got.push(byte[0]);
    }
    // While its GET stream is open, the session is not idle, however long it lasts…
    thread::sleep(Duration::from_millis(1500));
    assert_eq!(listen.children().len(), 1);
    // …and once the client is gone, its session and its child end.
    drop(get);
    eventually("the session's end", || listen.children().is_empty());
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert_eq!(post(&listen.addr, Some(&session), ping).status, 404);
}

/// `stitch-proxy --upstream URL …` with the client on pipes.
struct Stdio2Http {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Stdio2Http {
    fn start(args: &[&str]) -> Stdio2Http {
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

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn recv(&self) -> String {
        self.lines.recv_timeout(WAIT).expect("an answer in time")
    }

    fn finish(mut self) -> String {
        drop(self.stdin.take());
        self.child.wait_with_output_bounded()
    }
}

trait Bounded {
    fn wait_with_output_bounded(&mut self) -> String;
}

impl Bounded for std::process::Child {
    fn wait_with_output_bounded(&mut self) -> String {
        let deadline = Instant::now() + WAIT;
        while self.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the proxy did not end");
            thread::sleep(Duration::from_millis(20));
        }
        let mut text = String::new();
        if let Some(mut stderr) = self.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        }
        text
    }
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

#[test]
fn upstream_keeps_the_bytes_both_ways_and_never_logs_the_header() {
    let listen = Listen::fake(&[]);
    let url = listen.url();
    let mut up = Stdio2Http::start(&[
        "--log",
        "debug",
        "--upstream",
        &url,
        "--header",
        "Authorization: Bearer sekrit-token",
    ]);
    up.send(INIT);
    assert!(up.recv().contains("\"serverInfo\""));
    up.send(INITIALIZED);
    let clean = r#"{ "jsonrpc":"2.0","id":4 ,"method":"tools/call","params":{"name":"label","arguments":{"n":1.0e0, "note":"[\"x\"]"}}}"#;
    up.send(clean);
    assert_eq!(
        up.recv(),
        r#"{"id":4,"jsonrpc":"2.0","result":{"content":[{"text":"label {\"n\":1.0,\"note\":\"[\\\"x\\\"]\"}","type":"text"}]}}"#
    );
    up.send(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"a.png\"]"}}}"#);
    assert!(up.recv().contains(TEXT_LIST));
    let stderr = up.finish();
    assert!(stderr.contains("call 5 to view refused: paths"), "{stderr}");
    assert!(!stderr.contains("sekrit"), "{stderr}");
    // Through both proxies, the clean call reached the server byte for byte.
    let record = listen.record();
    assert!(record.contains(&clean.to_owned()), "{record:#?}");
    assert!(
        !record.iter().any(|l| l.contains("\"view\"")),
        "{record:#?}"
    );
    // The upstream session was ended with a DELETE: its child is gone.
    eventually("the upstream session's end", || {
        listen.children().is_empty()
    });
}

#[test]
fn an_unreachable_upstream_answers_each_request_with_an_error() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut up = Stdio2Http::start(&["--upstream", &url]);
    up.send(INIT);
    let answer: serde_json::Value = serde_json::from_str(&up.recv()).unwrap();
    assert_eq!(answer["id"], 0);
    assert_eq!(answer["error"]["code"], -32000);
    let text = answer["error"]["message"].as_str().unwrap();
    assert!(text.contains("cannot be reached"), "{text}");
    up.send(r#"{"jsonrpc":"2.0","id":"b","method":"ping"}"#);
    let answer: serde_json::Value = serde_json::from_str(&up.recv()).unwrap();
    assert_eq!(answer["id"], "b");
    up.finish();
}

#[test]
fn http_on_both_sides_passes_the_clients_authorization_on() {
    let inner = Listen::fake(&[]);
    let url = inner.url();
    let outer = Listen::with(&["--upstream", &url]);
    let mut headers = MCP.to_vec();
    headers.push(("Authorization", "Bearer both-sides"));
    let reply = request(&outer.addr, "POST", &headers, INIT.as_bytes());
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    headers.push(("Mcp-Session-Id", &session));
    let call = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"tag","arguments":{"tags":"[\"q\"]"}}}"#;
    let reply = request(&outer.addr, "POST", &headers, call.as_bytes());
    assert_eq!(
        reply.events(),
        [
            r#"{"id":9,"jsonrpc":"2.0","result":{"content":[{"text":"tag {\"tags\":[\"q\"]}","type":"text"}]}}"#
        ]
    );
    let stderr = outer.stop();
    assert!(!stderr.contains("both-sides"), "{stderr}");
    // The outer proxy's stop ended its upstream session: the inner child is gone too.
    eventually("the inner session's end", || inner.children().is_empty());
}

/// One request a [`fake_upstream`] received: method, lowercase headers, body.
#[derive(Debug)]
struct Seen {
    method: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A Streamable HTTP server written for the test, one request per connection: `initialize`
/// and `tools/list` answered with JSON, a `tools/call` with an SSE stream that breaks after
/// its first event (id `e1`), its answer given on the GET that resumes it from `e1`; the GET
/// stream without `Last-Event-ID` is not offered (405).
fn fake_upstream() -> (String, mpsc::Receiver<Seen>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (seen, requests) = mpsc::channel();
    thread::spawn(move || {
        for stream in listener.incoming().take(50) {
            let Ok(mut stream) = stream else { return };
            stream.set_read_timeout(Some(WAIT)).unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                continue;
            }
            let method = line.split(' ').next().unwrap().to_owned();
            let mut headers = Vec::new();
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line == "\r\n" {
                    break;
                }
                let (name, value) = line.split_once(':').unwrap();
                headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
            }
            let length = headers
                .iter()
                .find(|(n, _)| n == "content-length")
                .map_or(0, |(_, v)| v.parse().unwrap());
            let mut body = vec![0; length];
            std::io::Read::read_exact(&mut reader, &mut body).unwrap();
            let request = Seen {
                method,
                headers,
                body: String::from_utf8(body).unwrap(),
            };
            let message: serde_json::Value =
                serde_json::from_str(&request.body).unwrap_or_default();
            let id = message["id"].to_string();
            let json = |body: String| {
                format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: S1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
            };
            let sse =
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
            let reply = match (request.method.as_str(), message["method"].as_str()) {
                ("POST", Some("initialize")) => json(format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":"2025-06-18","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"up","version":"0"}}}}}}"#
                )),
                ("POST", Some("tools/list")) => json(format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{{"name":"view","inputSchema":{{"type":"object","properties":{{"paths":{{"anyOf":[{{"type":"string"}},{{"type":"array","items":{{"type":"string"}}}}]}}}}}}}}]}}}}"#
                )),
                ("POST", Some("tools/call")) => format!(
                    "{sse}retry: 100\nid: e1\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":\"t\",\"progress\":1}}}}\n\n"
                ),
                ("POST", _) => "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned(),
                ("GET", _) if request.header("last-event-id") == Some("e1") => format!(
                    "{sse}id: e2\ndata: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"content\":[],\"resumed\":true}}}}\n\n"
                ),
                ("GET", _) => "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned(),
                _ => "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned(),
            };
            let _ = stream.write_all(reply.as_bytes());
            let _ = seen.send(request);
        }
    });
    (addr, requests)
}

#[test]
fn upstream_carries_the_session_and_resumes_a_broken_stream() {
    let (addr, requests) = fake_upstream();
    let url = format!("http://{addr}/mcp");
    let mut up = Stdio2Http::start(&["--upstream", &url, "--header", "X-Api-Key: k1"]);
    up.send(INIT);
    assert!(up.recv().contains(r#""serverInfo":{"name":"up""#));
    up.send(INITIALIZED);
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"view","arguments":{"paths":"a.png"},"_meta":{"progressToken":"t"}}}"#;
    up.send(call);
    // The progress from the broken stream, then the answer from the resumed one.
    assert_eq!(
        up.recv(),
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#
    );
    assert_eq!(
        up.recv(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"resumed":true}}"#
    );
    up.finish();
    let seen: Vec<Seen> = requests.try_iter().collect();
    let initialize = &seen[0];
    assert_eq!(initialize.body, INIT);
    assert_eq!(initialize.header("mcp-session-id"), None);
    assert_eq!(initialize.header("x-api-key"), Some("k1"));
    assert_eq!(
        initialize.header("accept"),
        Some("application/json, text/event-stream")
    );
    // Every later request carries the session and the version agreed.
    for request in &seen[1..] {
        assert_eq!(request.header("mcp-session-id"), Some("S1"), "{request:?}");
        assert_eq!(
            request.header("mcp-protocol-version"),
            Some("2025-06-18"),
            "{request:?}"
        );
        assert_eq!(request.header("x-api-key"), Some("k1"), "{request:?}");
    }
    // The call reached the server as sent; the resumption asked from e1; the session ended.
    assert!(seen.iter().any(|r| r.body == call));
    assert!(seen
        .iter()
        .any(|r| r.method == "GET" && r.header("last-event-id") == Some("e1")));
    assert_eq!(seen.last().unwrap().method, "DELETE");
}
