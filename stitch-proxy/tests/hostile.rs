//! The proxy against hostile peers (issue #32's review): each finding, tried as an attacker
//! would, over real pipes.

use std::io::Write;

use serde_json::{json, Value};

use crate::support::*;

/// A list written as text that holds raw line feeds, carriage returns and tabs between its
/// tokens (a pretty-printed list, escaped in the client's string) is repaired on one line: the
/// message embedded in it (a call the proxy refuses, id 99) never becomes a line of its own.
#[test]
fn a_repaired_string_cannot_smuggle_a_second_message() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    let embedded = r#"{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"x\"]"}}}"#;
    let text = format!("[\n\"a\",\r\n{embedded}\n,\t\"b\"\n]");
    let answer = s.call(1, "tag", json!({ "tags": text }));
    assert!(!is_error(&answer), "{answer}");
    let record = s.record();
    let calls = calls(&record);
    assert_eq!(calls.len(), 1, "{record:#?}");
    assert_eq!(calls[0]["id"], json!(1));
    let tags = &calls[0]["params"]["arguments"]["tags"];
    assert_eq!(tags[0], "a");
    assert_eq!(tags[2], "b");
    assert_eq!(
        tags[1]["id"],
        json!(99),
        "the embedded message is a value of the list"
    );
    assert!(
        record
            .iter()
            .all(|line| serde_json::from_str::<Value>(line).is_ok()),
        "every line the server got is one whole message: {record:#?}"
    );
    // The proxy answers nothing for id 99: it was never a request.
    let later = s.call(2, "echo", json!({"text": "after"}));
    assert_eq!(tool_text(&later), r#"echo {"text":"after"}"#);
    assert!(s.seen.iter().all(|m| m["id"] != json!(99)), "{:?}", s.seen);
    s.finish();
}

/// A schema whose union is its own member (left recursion) and one whose unions double with
/// each of 30 levels: neither crashes or stalls the proxy; their tools pass unchecked with a
/// warning, and every other tool keeps the rule.
#[test]
fn a_recursive_or_exploding_schema_is_forwarded_unchecked() {
    let mut s = Session::start(&["--log", "warn"], &[]);
    s.initialize();
    for (id, tool) in [(1, "recursive"), (2, "exploding")] {
        let answer = s.call(id, tool, json!({"x": "[\"a\"]"}));
        assert!(!is_error(&answer), "{answer}");
    }
    let answer = s.call(3, "view", json!({"paths": "[\"a\"]"}));
    assert_eq!(tool_text(&answer), format!("paths {TEXT_LIST}"));
    let (status, stderr) = s.finish();
    assert!(status.success(), "{stderr}");
    assert!(
        stderr.contains("inputSchema of tool recursive cannot be read")
            && stderr.contains("its own member"),
        "{stderr}"
    );
    assert!(
        stderr.contains("inputSchema of tool exploding cannot be read")
            && stderr.contains("more than 1000 schemas"),
        "{stderr}"
    );
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;

/// Every `Host` and `Origin` is checked, not the first: a second Host, a foreign Origin behind
/// an allowed one, a request target in absolute form naming a foreign host are refused (403)
/// before anything starts.
#[test]
fn every_host_and_origin_is_checked() {
    use std::io::{Read, Write};
    let listen = http::Listen::fake(&[]);
    let own = format!("Host: {}", listen.addr);
    let with = |extra: &[(&str, &str)]| {
        let mut headers = http::MCP.to_vec();
        headers.extend_from_slice(extra);
        http::request(&listen.addr, "POST", &headers, INIT.as_bytes()).status
    };
    let own_host = own.trim_start_matches("Host: ");
    assert_eq!(with(&[("Host", own_host), ("Host", "evil.example")]), 403);
    assert_eq!(with(&[("Host", "evil.example"), ("Host", own_host)]), 403);
    assert_eq!(
        with(&[
            ("Origin", "http://localhost"),
            ("Origin", "http://evil.example")
        ]),
        403
    );
    let mut stream = std::net::TcpStream::connect(&listen.addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let raw = format!(
        "POST http://evil.example/mcp HTTP/1.1\r\n{own}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{INIT}",
        INIT.len()
    );
    stream.write_all(raw.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    assert!(listen.children().is_empty(), "nothing started");
    // The same request from the allowed host alone is served.
    assert_eq!(with(&[("Origin", "http://localhost")]), 200);
}

/// A body that is not JSON — a raw line feed inside a string — is a parse error, never the
/// valid (changed) JSON its one line would be.
#[test]
fn an_invalid_body_is_a_parse_error() {
    let listen = http::Listen::fake(&[]);
    let broken = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"a\nb\",\"version\":\"0\"}}}";
    let reply = http::request(&listen.addr, "POST", http::MCP, broken.as_bytes());
    assert_eq!(reply.status, 400, "{reply:?}");
    let body: Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(body["error"]["code"], json!(-32700));
    assert!(listen.record().is_empty());
}

fn modern_headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = http::MCP.to_vec();
    headers.push(("MCP-Protocol-Version", "2026-07-28"));
    headers.push(("Mcp-Method", method));
    if let Some(name) = name {
        headers.push(("Mcp-Name", name));
    }
    headers
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// The modern era over `--listen`: headers that disagree with the body are a HeaderMismatch
/// (-32020, HTTP 400) and reach no server; an unknown version is UnsupportedProtocolVersion
/// (-32022) naming the versions spoken; agreeing headers are served with no session.
#[test]
fn modern_headers_must_agree_with_the_body() {
    let listen = http::Listen::fake(&[]);
    let call = |tool: &str, args: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"{tool}","arguments":{args},{META}}}}}"#
        )
    };
    let code = |reply: &http::Reply| -> Value {
        serde_json::from_slice::<Value>(&reply.body).unwrap()["error"]["code"].clone()
    };
    let body = call("echo", r#"{"text":"hi"}"#);
    for headers in [
        modern_headers("tools/call", Some("view")),
        modern_headers("tools/list", Some("echo")),
        modern_headers("tools/call", None),
    ] {
        let reply = http::request(&listen.addr, "POST", &headers, body.as_bytes());
        assert_eq!(
            (reply.status, code(&reply)),
            (400, json!(-32020)),
            "{headers:?}"
        );
    }
    let mut unknown = modern_headers("tools/call", Some("echo"));
    unknown[2] = ("MCP-Protocol-Version", "2099-01-01");
    let reply = http::request(&listen.addr, "POST", &unknown, body.as_bytes());
    assert_eq!((reply.status, code(&reply)), (400, json!(-32022)));
    let answer: Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(answer["error"]["data"]["requested"], "2099-01-01");
    assert!(answer["error"]["data"]["supported"]
        .as_array()
        .unwrap()
        .contains(&json!("2026-07-28")));
    assert!(
        listen.record().iter().all(|l| !l.contains("\"echo\"")),
        "no disagreeing call reached the server"
    );
    // Agreeing: served, no session id; a text list refused as a complete modern result.
    let ok = http::request(
        &listen.addr,
        "POST",
        &modern_headers("tools/call", Some("echo")),
        body.as_bytes(),
    );
    assert_eq!(ok.status, 200, "{ok:?}");
    assert!(ok.header("mcp-session-id").is_none());
    let refused = http::request(
        &listen.addr,
        "POST",
        &modern_headers("tools/call", Some("view")),
        call("view", r#"{"paths":"[\"a\"]"}"#).as_bytes(),
    );
    let events = refused.events();
    let answer: Value = serde_json::from_str(events.last().unwrap()).unwrap();
    assert_eq!(answer["id"], json!(5));
    assert_eq!(answer["result"]["resultType"], "complete");
    assert_eq!(tool_text(&answer), format!("paths {TEXT_LIST}"));
}

/// The threads of the proxy's process (Linux).
fn threads(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Sessions that came and went leave no thread behind: after 100 sessions opened and deleted
/// the proxy has the threads it had after the first.
#[test]
fn ended_sessions_leave_no_thread() {
    let listen = http::Listen::fake(&[]);
    let pid = listen.child.id();
    let cycle = || {
        let session = http::open(&listen.addr);
        let deleted = http::request(&listen.addr, "DELETE", &[("Mcp-Session-Id", &session)], b"");
        assert_eq!(deleted.status, 200);
    };
    cycle();
    eventually("the first session's end", || listen.children().is_empty());
    let before = threads(pid);
    for _ in 0..100 {
        cycle();
    }
    eventually("every session's end", || listen.children().is_empty());
    eventually("the threads of ended sessions gone", || {
        threads(pid) <= before
    });
}

/// A client line longer than `--max-message` is dropped unread and answered with a parse
/// error; the lines after it are served as usual.
#[test]
fn an_overlong_line_is_dropped_and_answered() {
    let mut s = Session::start(&["--max-message", "16384"], &[]);
    s.initialize();
    let long = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{}"}}}}}}"#,
        "x".repeat(20_000)
    );
    s.send(&long);
    let answer = s.recv();
    assert_eq!(answer["error"]["code"], json!(-32700), "{answer}");
    assert_eq!(answer["id"], Value::Null);
    let later = s.call(2, "echo", json!({"text": "after"}));
    assert_eq!(tool_text(&later), r#"echo {"text":"after"}"#);
    assert!(calls(&s.record()).iter().all(|c| c["id"] != json!(1)));
    let (_, stderr) = s.finish();
    assert!(stderr.contains("longer than 16384 bytes"), "{stderr}");
}

/// An SSE event from the `--upstream` server longer than `--max-message` is not read whole:
/// the call it carried gets an error answer, and the proxy goes on.
#[test]
fn an_overlong_event_is_not_held() {
    use crate::support::upstream::{self as up, Reply};
    let served = up::serve(None, |seen| {
        let message = seen.message();
        match message["method"].as_str() {
            Some("tools/call") if message["params"]["name"] == "big" => {
                let id = message["id"].clone();
                Reply::Stream(Box::new(move |out| {
                    let _ = out.write_all(up::sse_head(None).as_bytes());
                    let _ = out.write_all(b"event: message\n");
                    // 1 MiB of data lines, never ended: past the limit of 64 KiB.
                    let line = format!("data: {}\n", " ".repeat(1023));
                    for _ in 0..1024 {
                        if out.write_all(line.as_bytes()).is_err() {
                            return;
                        }
                    }
                    let _ = out.write_all(
                        format!("data: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}\n\n")
                            .as_bytes(),
                    );
                }))
            }
            Some("tools/call") => up::json(
                None,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{},"result":{{"content":[]}}}}"#,
                    message["id"]
                ),
            ),
            Some("tools/list") => up::json(
                None,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{},"result":{{"tools":[]}}}}"#,
                    message["id"]
                ),
            ),
            _ => up::status(202, "Accepted"),
        }
    });
    let url = format!("http://{}/mcp", served.addr);
    let mut proxy = up::Stdio2Http::start(&["--max-message", "65536", "--upstream", &url]);
    proxy.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    let _ = proxy.recv_json();
    proxy.send(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big","arguments":{}}}"#,
    );
    let answer = proxy.recv_json();
    assert_eq!(answer["id"], json!(2));
    assert!(answer["error"]["message"].is_string(), "{answer}");
    proxy.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"small","arguments":{}}}"#);
    let answer = proxy.recv_json();
    assert_eq!(answer["id"], json!(3));
    assert!(answer["result"].is_object(), "{answer}");
    let stderr = proxy.finish();
    assert!(stderr.contains("longer than 65536 bytes"), "{stderr}");
}

/// Slow clients cannot hold `--listen`: a request head or body that does not arrive within
/// `--read-timeout` closes its connection (408 for a body), and with `--max-connections`
/// taken by silent clients, a new client is served once they are cut off.
#[test]
fn slow_clients_are_cut_off() {
    use std::io::Read;
    use std::net::TcpStream;
    let listen = http::Listen::fake(&["--read-timeout", "0.5", "--max-connections", "2"]);
    let silent: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut stream = TcpStream::connect(&listen.addr).unwrap();
            stream.set_read_timeout(Some(WAIT)).unwrap();
            stream.write_all(b"POST /mcp HTTP/1.1\r\nHost: ").unwrap();
            stream
        })
        .collect();
    // A third client waits for a place, and gets one once the silent ones are cut off.
    let reply = http::request(&listen.addr, "POST", http::MCP, INIT.as_bytes());
    assert_eq!(reply.status, 200, "{reply:?}");
    for mut stream in silent {
        let mut rest = Vec::new();
        // Closed by the proxy (whatever it wrote before closing).
        let _ = stream.read_to_end(&mut rest);
    }
    // A body that stops coming: 408.
    let mut stream = TcpStream::connect(&listen.addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\"",
        listen.addr
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

/// The modern era's `subscriptions/listen` through `--listen`'s shared session: the stream
/// stays open on its POST, its acknowledgment and the server's `tools/list_changed` come on it
/// with the client's own id as the subscription id, and the proxy learns the new list (a
/// call of another client is judged by the tool's new schema).
#[test]
fn a_subscription_gets_its_notifications_and_refreshes_the_schemas() {
    use std::io::{BufRead, BufReader};
    let listen = http::Listen::fake(&[]);
    let mut stream = std::net::TcpStream::connect(&listen.addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":"L1","method":"subscriptions/listen","params":{{"notifications":{{"toolsListChanged":true}},{META}}}}}"#
    );
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        listen.addr,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut events = BufReader::new(stream);
    let mut next_data = || loop {
        let mut line = String::new();
        assert!(events.read_line(&mut line).unwrap() > 0, "the stream ended");
        if let Some(data) = line.strip_prefix("data: ") {
            return serde_json::from_str::<Value>(data.trim_end()).unwrap();
        }
    };
    let ack = next_data();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "L1"
    );
    let call = |id: u32, tool: &str, args: &str| {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{args},{META}}}}}"#
        );
        http::request(
            &listen.addr,
            "POST",
            &modern_headers("tools/call", Some(tool)),
            body.as_bytes(),
        )
    };
    // Before the change `tags` is a list: JSON text is repaired.
    let before = call(1, "tag", r#"{"tags":"[\"t\"]"}"#);
    assert!(
        before
            .events()
            .last()
            .unwrap()
            .contains(r#"tag {\"tags\":[\"t\"]}"#),
        "{before:?}"
    );
    assert_eq!(call(2, "swap", "{}").status, 200);
    let changed = next_data();
    assert_eq!(
        changed["method"], "notifications/tools/list_changed",
        "{changed}"
    );
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "L1"
    );
    // After it `tags` is a plain string: the same text reaches the server as it was sent.
    let after = call(3, "tag", r#"{"tags":"[\"t\"]"}"#);
    assert!(
        after
            .events()
            .last()
            .unwrap()
            .contains(r#"tag {\"tags\":\"[\\\"t\\\"]\"}"#),
        "{after:?}"
    );
}

/// The resident memory of the proxy's process, in KiB (Linux).
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .unwrap();
    line.trim().trim_end_matches("kB").trim().parse().unwrap()
}

/// A client that never reads its answer's stream makes the proxy hold at most the stream's
/// limit for it (8 MiB): a call whose progress floods 64 MiB closes that stream, the proxy's
/// memory stays far below the flood, and another client of the shared modern session is
/// answered meanwhile.
#[test]
fn a_client_that_does_not_read_its_stream_is_cut_off_not_buffered() {
    let listen = http::Listen::fake(&[]);
    let pid = listen.child.id();
    let call = |id: u32, tool: &str, args: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{args},"_meta":{{"progressToken":"p{id}","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        )
    };
    let mut silent = std::net::TcpStream::connect(&listen.addr).unwrap();
    let body = call(1, "progress", r#"{"steps":2048,"size":32768}"#);
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: progress\r\nContent-Length: {}\r\n\r\n{body}",
        listen.addr,
        body.len()
    );
    // Sent, then never read.
    silent.write_all(head.as_bytes()).unwrap();
    // The fake server answers in turn: the echo comes once the whole flood went through.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut most = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                most = most.max(resident_kib(pid));
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            most
        })
    };
    let other = http::request(
        &listen.addr,
        "POST",
        &modern_headers("tools/call", Some("echo")),
        call(2, "echo", r#"{"x":1}"#).as_bytes(),
    );
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let most = sampler.join().unwrap();
    assert!(other.events().last().unwrap().contains("echo"), "{other:?}");
    assert!(
        most < 40 * 1024,
        "the proxy held {most} KiB for a 64 MiB flood"
    );
    drop(silent);
    let stderr = listen.stop();
    assert!(stderr.contains("does not read its stream"), "{stderr}");
}
