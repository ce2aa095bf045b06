//! Issue #23: stitch-proxy over Streamable HTTP, against the fake server on loopback — the
//! exact bytes on both wires, the streams each message goes out on, the checks made before any
//! MCP processing, and the sessions' children.

use std::io::Write;
use std::thread;
use std::time::Duration;

use crate::support::http::{open, post, request, Listen, MCP};
use crate::support::upstream::INIT;
use crate::support::{eventually, TEXT_LIST, WAIT};

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
    // No event ids: --listen offers no resumable streams (ARCHITECTURE.md says why).
    let body = String::from_utf8_lossy(&reply.body).into_owned();
    assert!(!body.lines().any(|line| line.starts_with("id:")), "{body}");
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
