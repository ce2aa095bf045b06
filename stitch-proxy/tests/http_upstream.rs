//! Issue #23: `--upstream URL` with the client on pipes — the bytes both ways, the session's
//! headers, a broken stream resumed.

use crate::support::http::Listen;
use crate::support::upstream::{
    json, serve, sse_head, status, Reply, Seen, Served, Stdio2Http, INIT, INITIALIZED,
};
use crate::support::{eventually, TEXT_LIST};

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

/// A server written for the test: `initialize` and `tools/list` answered with JSON, a
/// `tools/call` with an SSE stream that breaks after its first event (id `e1`), its answer
/// given on the GET that resumes it from `e1`; the GET stream without `Last-Event-ID` is not
/// offered (405).
fn resumable() -> Served {
    serve(None, |request| {
        let message = request.message();
        let id = message["id"].to_string();
        match (request.method.as_str(), message["method"].as_str()) {
            ("POST", Some("initialize")) => json(Some("S1"), &format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":"2025-06-18","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"up","version":"0"}}}}}}"#
            )),
            ("POST", Some("tools/list")) => json(None, &format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{{"name":"view","inputSchema":{{"type":"object","properties":{{"paths":{{"anyOf":[{{"type":"string"}},{{"type":"array","items":{{"type":"string"}}}}]}}}}}}}}]}}}}"#
            )),
            ("POST", Some("tools/call")) => Reply::Now(format!(
                "{}retry: 100\nid: e1\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":\"t\",\"progress\":1}}}}\n\n",
                sse_head(None)
            )),
            ("POST", _) => status(202, "Accepted"),
            ("GET", _) if request.header("last-event-id") == Some("e1") => Reply::Now(format!(
                "{}id: e2\ndata: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"content\":[],\"resumed\":true}}}}\n\n",
                sse_head(None)
            )),
            ("GET", _) => status(405, "Method Not Allowed"),
            _ => status(200, "OK"),
        }
    })
}

#[test]
fn upstream_carries_the_session_and_resumes_a_broken_stream() {
    let server = resumable();
    let url = format!("http://{}/mcp", server.addr);
    let requests = server.requests;
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
