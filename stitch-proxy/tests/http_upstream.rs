//! Issue #23: `--upstream URL` with the client on pipes — the bytes both ways, the session's
//! headers, a broken stream resumed, and a session the server ends (HTTP 404) opened again
//! without the client knowing (MCP, Streamable HTTP: the client must then start a new
//! session).

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::support::http::Listen;
use crate::support::upstream::{
    collect, json, serve, sse_head, status, Reply, Seen, Served, Stdio2Http, INIT, INITIALIZED,
};
use crate::support::{eventually, TEXT_LIST, WAIT};

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

/// What [`forgetful`] knows of its sessions.
#[derive(Default)]
struct Sessions {
    opened: u32,
    known: Vec<String>,
    /// New sessions are refused (HTTP 500) while set.
    refuse: bool,
}

fn known(sessions: &Mutex<Sessions>, session: &str) -> bool {
    sessions.lock().unwrap().known.iter().any(|s| s == session)
}

/// A server that forgets its sessions when the test clears `known`, as a restarted one
/// would: a request in a session it does not know gets 404. `initialize` opens `S1`, `S2`…
/// and is answered on an SSE stream, a log notification then the result; after the first, it
/// takes 1.5 s (messages sent meanwhile meet the same ended session). A call's answer names
/// its session. The GET stream stays open while its session is known; in a session after the
/// first it starts with a notification naming it.
fn forgetful() -> (Served, Arc<Mutex<Sessions>>) {
    let sessions = Arc::new(Mutex::new(Sessions::default()));
    let state = sessions.clone();
    let server = serve(None, move |request| {
        let message = request.message();
        let id = message["id"].to_string();
        let session = request.header("mcp-session-id").unwrap_or("").to_owned();
        if message["method"] == "initialize" {
            let mut sessions = state.lock().unwrap();
            if sessions.refuse {
                return status(500, "Internal Server Error");
            }
            sessions.opened += 1;
            let new = format!("S{}", sessions.opened);
            sessions.known.push(new.clone());
            let later = sessions.opened > 1;
            drop(sessions);
            if later {
                thread::sleep(Duration::from_millis(1500));
            }
            return Reply::Now(format!(
                "{}data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"opening {new}\"}}}}\n\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{{\"tools\":{{}}}},\"serverInfo\":{{\"name\":\"forgetful\",\"version\":\"0\"}}}}}}\n\n",
                sse_head(Some(&new))
            ));
        }
        if !known(&state, &session) {
            return status(404, "Not Found");
        }
        match (request.method.as_str(), message["method"].as_str()) {
            ("POST", Some("tools/list")) => json(
                None,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{{"name":"echo","inputSchema":{{"type":"object"}}}}]}}}}"#
                ),
            ),
            ("POST", Some("tools/call")) => json(
                None,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{session} {}"}}]}}}}"#,
                    message["params"]["arguments"]["n"]
                ),
            ),
            ("POST", _) => status(202, "Accepted"),
            ("DELETE", _) => {
                state.lock().unwrap().known.retain(|s| *s != session);
                status(200, "OK")
            }
            ("GET", _) => {
                let state = state.clone();
                Reply::Stream(Box::new(move |out| {
                    let mut text = sse_head(None);
                    if session != "S1" {
                        text.push_str(&format!("data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"GET stream of {session}\"}}}}\n\n"));
                    }
                    let deadline = Instant::now() + WAIT;
                    while known(&state, &session) && Instant::now() < deadline {
                        if out
                            .write_all(text.as_bytes())
                            .and_then(|_| out.flush())
                            .is_err()
                        {
                            return;
                        }
                        text = ": keep-alive\n\n".to_owned();
                        thread::sleep(Duration::from_millis(50));
                    }
                }))
            }
            _ => status(405, "Method Not Allowed"),
        }
    });
    (server, sessions)
}

fn call(id: u32, n: u32) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"n":{n}}}}}}}"#
    )
}

/// Opens the session of `up` with `server`: the log notification, then the answer.
fn open(up: &mut Stdio2Http) {
    up.send(INIT);
    assert_eq!(up.recv_json()["params"]["data"], "opening S1");
    let answer = up.recv_json();
    assert_eq!(
        answer["result"]["serverInfo"]["name"], "forgetful",
        "{answer}"
    );
    up.send(INITIALIZED);
}

#[test]
fn a_session_the_server_ended_is_opened_again_and_the_message_sent_again() {
    let (server, sessions) = forgetful();
    let url = format!("http://{}/mcp", server.addr);
    let mut up = Stdio2Http::start(&["--log", "info", "--upstream", &url]);
    open(&mut up);
    up.send(&call(1, 1));
    assert_eq!(up.recv_json()["result"]["content"][0]["text"], "S1 1");
    // The server forgets S1; two calls go out at once, in the session it no longer knows.
    sessions.lock().unwrap().known.clear();
    up.send(&call(2, 2));
    up.send(&call(3, 3));
    // Both are answered in the new session; the client sees the new session's notifications
    // (from its initialize and from its GET stream) but not its initialize's answer.
    let mut answers = Vec::new();
    let mut notes = Vec::new();
    while answers.len() < 2 || notes.len() < 2 {
        let message = up.recv_json();
        assert!(message["result"]["serverInfo"].is_null(), "{message}");
        match message["id"].as_u64() {
            Some(id) => answers.push((id, message["result"]["content"][0]["text"].clone())),
            None => notes.push(message["params"]["data"].clone()),
        }
    }
    answers.sort_by_key(|(id, _)| *id);
    assert_eq!(answers, [(2, "S2 2".into()), (3, "S2 3".into())]);
    notes.sort_by_key(|note| note.to_string());
    assert_eq!(notes, ["GET stream of S2", "opening S2"]);
    let stderr = up.finish();
    assert!(
        stderr.contains("the upstream server ended the session (HTTP 404): opening a new one"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a new session with the upstream server is open"),
        "{stderr}"
    );

    let seen: Vec<Seen> = server.requests.try_iter().collect();
    let initializes: Vec<&Seen> = seen
        .iter()
        .filter(|r| r.message()["method"] == "initialize")
        .collect();
    // Exactly one new initialize for the two calls: the client's own, without a session,
    // with an id of the proxy's own in place of the client's.
    assert_eq!(initializes.len(), 2, "{seen:#?}");
    let again = initializes[1];
    assert_eq!(again.header("mcp-session-id"), None);
    let own = again.message()["id"].as_str().unwrap().to_owned();
    assert!(
        own.starts_with("stitch-proxy-") && own.ends_with("-initialize-1"),
        "{own}"
    );
    assert_eq!(
        again.body,
        INIT.replace(r#""id":0"#, &format!(r#""id":"{own}""#))
    );
    // In S2: the client's notifications/initialized first, then each call, byte for byte and
    // once; in S1 each call at most once (the 404), never more.
    let in_s2: Vec<&Seen> = seen
        .iter()
        .filter(|r| r.method == "POST" && r.header("mcp-session-id") == Some("S2"))
        .collect();
    assert_eq!(in_s2[0].body, INITIALIZED);
    assert_eq!(in_s2[0].header("mcp-protocol-version"), Some("2025-06-18"));
    let mut calls: Vec<&str> = in_s2[1..].iter().map(|r| r.body.as_str()).collect();
    calls.sort();
    assert_eq!(calls, [call(2, 2), call(3, 3)]);
    for n in [2, 3] {
        let sent = seen.iter().filter(|r| r.body == call(n, n)).count();
        assert!(sent <= 2, "call {n} sent {sent} times");
    }
    // The GET stream was opened again in S2, and the session ended there.
    assert!(seen
        .iter()
        .any(|r| r.method == "GET" && r.header("mcp-session-id") == Some("S2")));
    assert_eq!(seen.last().unwrap().method, "DELETE");
    assert_eq!(seen.last().unwrap().header("mcp-session-id"), Some("S2"));
}

#[test]
fn a_new_session_that_cannot_be_opened_answers_the_call_with_the_error_once() {
    let (server, sessions) = forgetful();
    let url = format!("http://{}/mcp", server.addr);
    let mut up = Stdio2Http::start(&["--log", "info", "--upstream", &url]);
    open(&mut up);
    up.send(&call(1, 1));
    assert_eq!(up.recv_json()["result"]["content"][0]["text"], "S1 1");
    let mut seen = Vec::new();
    {
        let mut sessions = sessions.lock().unwrap();
        sessions.known.clear();
        sessions.refuse = true;
    }
    up.send(&call(2, 2));
    let answer = up.recv_json();
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["error"]["code"], -32000);
    let text = answer["error"]["message"].as_str().unwrap();
    assert!(
        text.contains("ended the session (HTTP 404) and a new one could not be opened: initialize answered HTTP 500"),
        "{text}"
    );
    // One try for that call: one initialize, the call sent once.
    collect(&server.requests, &mut seen, |seen| {
        seen.iter()
            .filter(|r| r.message()["method"] == "initialize")
            .count()
            == 2
    });
    // The next message tries again, once; once the server takes new sessions, it gets one.
    sessions.lock().unwrap().refuse = false;
    up.send(&call(3, 3));
    let answer = loop {
        let message = up.recv_json();
        if message["id"] == 3 {
            break message;
        }
        // The new session's notifications, from its initialize and its GET stream.
        let note = message["params"]["data"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(note.ends_with("S2"), "{message}");
    };
    assert_eq!(answer["result"]["content"][0]["text"], "S2 3");
    up.finish();
    seen.extend(server.requests.try_iter());
    let initializes = seen
        .iter()
        .filter(|r| r.message()["method"] == "initialize")
        .count();
    assert_eq!(initializes, 3, "{seen:#?}");
    assert_eq!(seen.iter().filter(|r| r.body == call(2, 2)).count(), 1);
    assert_eq!(seen.iter().filter(|r| r.body == call(3, 3)).count(), 2);
}
