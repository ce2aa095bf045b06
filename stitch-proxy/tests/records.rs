//! Issue #34: `--report-only`, `--check`, `--skip`, `--log-format json` and the summary on
//! exit, through the real program in each topology: what reaches the server, what the client
//! gets, and the records on standard error.

use serde_json::{json, Value};

use crate::support::http::{open, post, Listen};
use crate::support::upstream::Stdio2Http;
use crate::support::*;

/// The JSON lines of `stderr` whose `event` is `event`.
fn events(stderr: &str, event: &str) -> Vec<Value> {
    stderr
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line)
                .unwrap_or_else(|_| panic!("not one JSON object a line: {line:?}\n{stderr}"))
        })
        .filter(|line| line["event"] == event)
        .collect()
}

const TEXT_LIST_CALL: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"secret-a.png\"]"}}}"#;

#[test]
fn report_only_forwards_the_text_list_and_the_json_record_names_it() {
    let mut s = Session::start(&["--report-only", "--log-format", "json"], &[]);
    s.initialize();
    s.send(TEXT_LIST_CALL);
    // The server's answer, not a refusal: the call reached it as it came.
    let answer = s.answer(&json!(7));
    assert!(!is_error(&answer), "{answer}");
    assert_eq!(tool_text(&answer), r#"view {"paths":"[\"secret-a.png\"]"}"#);
    assert!(
        s.record().iter().any(|l| l == TEXT_LIST_CALL),
        "byte for byte"
    );
    // A repair it would make: forwarded as it came too.
    let answer = s.call(8, "tag", json!({"tags": "[\"t\"]"}));
    assert_eq!(tool_text(&answer), r#"tag {"tags":"[\"t\"]"}"#);
    let (status, stderr) = s.finish();
    assert!(status.success());
    let calls = events(&stderr, "call");
    assert_eq!(calls.len(), 2, "{stderr}");
    let refused = &calls[0];
    assert_eq!(refused["action"], "would-refuse");
    assert_eq!(refused["tool"], "view");
    assert_eq!(refused["id"], 7);
    assert_eq!(refused["era"], "handshake");
    assert_eq!(refused["issues"], json!([{"path": "paths", "rule": "R3"}]));
    assert!(
        refused["time"].as_str().unwrap().ends_with('Z'),
        "{refused}"
    );
    assert_eq!(calls[1]["action"], "would-repair");
    assert_eq!(calls[1]["issues"], json!([{"path": "tags", "rule": "R1"}]));
    // Never a value.
    assert!(!stderr.contains("secret-a"), "{stderr}");
    let summary = &events(&stderr, "summary")[0];
    assert_eq!(summary["total"]["calls"], 2);
    assert_eq!(summary["total"]["would_refuse"], 1);
    assert_eq!(summary["tools"]["tag"]["would_repair"], 1);
}

#[test]
fn the_text_format_names_each_decision_and_sums_up_on_exit() {
    let mut s = Session::start(&["--log", "info", "--skip", "tag", "--skip", "nosuch"], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    s.send(TEXT_LIST_CALL);
    assert!(is_error(&s.answer(&json!(7))), "refused as ever");
    // A skipped tool: its text list reaches the server unrepaired.
    let answer = s.call(8, "tag", json!({"tags": "[\"t\"]"}));
    assert_eq!(tool_text(&answer), r#"tag {"tags":"[\"t\"]"}"#);
    let (_, stderr) = s.finish();
    assert!(
        stderr.contains("stitch-proxy: info: call 7 to view refused: paths\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warn: --skip nosuch: the server lists no tool of that name"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("--skip nosuch").count(),
        1,
        "warned once: {stderr}"
    );
    assert!(!stderr.contains("--skip tag:"), "tag is listed: {stderr}");
    assert!(
        stderr.contains(
            "stitch-proxy: info: summary: 2 calls, 1 refused, 1 unchecked; tag: 1 calls, 1 unchecked; view: 1 calls, 1 refused\n"
        ),
        "{stderr}"
    );
}

#[test]
fn check_names_the_only_tools_checked_and_debug_records_every_call() {
    let mut s = Session::start(
        &["--check", "view", "--log", "debug", "--log-format", "json"],
        &[],
    );
    s.initialize();
    // `tag` is not checked: it goes on without waiting for a list, unrepaired.
    let answer = s.call(1, "tag", json!({"tags": "[\"t\"]"}));
    assert_eq!(tool_text(&answer), r#"tag {"tags":"[\"t\"]"}"#);
    s.send(TEXT_LIST_CALL);
    assert!(is_error(&s.answer(&json!(7))));
    let answer = s.call(9, "view", json!({"paths": ["a"]}));
    assert!(!is_error(&answer));
    let (_, stderr) = s.finish();
    let actions: Vec<(Value, Value)> = events(&stderr, "call")
        .iter()
        .map(|c| (c["id"].clone(), c["action"].clone()))
        .collect();
    assert_eq!(
        actions,
        [
            (json!(1), json!("unchecked")),
            (json!(7), json!("refused")),
            (json!(9), json!("forwarded"))
        ]
    );
    // Every line of standard error is JSON, the proxy's other logs included.
    assert!(!events(&stderr, "log").is_empty());
}

#[test]
fn listen_records_the_session_and_report_only_reaches_the_server() {
    let listen = Listen::fake(&["--report-only", "--log-format", "json"]);
    let session = open(&listen.addr);
    let reply = post(&listen.addr, Some(&session), TEXT_LIST_CALL);
    let answer: Value = serde_json::from_str(&reply.events()[0]).unwrap();
    assert!(!is_error(&answer), "{answer}");
    assert!(listen.record().iter().any(|l| l == TEXT_LIST_CALL));
    let stderr = listen.stop();
    let record = &events(&stderr, "call")[0];
    assert_eq!(record["action"], "would-refuse");
    assert_eq!(record["session"], session.as_str());
    assert_eq!(events(&stderr, "summary")[0]["total"]["calls"], 1);
}

#[test]
fn upstream_in_report_only_forwards_the_text_list() {
    // The remote server: a --listen proxy that does not check `view`.
    let listen = Listen::fake(&["--skip", "view"]);
    let mut up = Stdio2Http::start(&[
        "--report-only",
        "--log-format",
        "json",
        "--upstream",
        &listen.url(),
    ]);
    up.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#);
    assert_eq!(up.recv_json()["id"], 0);
    up.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    up.send(TEXT_LIST_CALL);
    let answer = up.recv_json();
    assert_eq!(answer["id"], 7);
    assert!(!is_error(&answer), "{answer}");
    assert!(listen.record().iter().any(|l| l == TEXT_LIST_CALL));
    let stderr = up.finish();
    assert_eq!(events(&stderr, "call")[0]["action"], "would-refuse");
}
