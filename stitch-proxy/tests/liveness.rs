//! Issue #19, items 5 and 6, against the fake server: a server that never lists its tools
//! holds nothing forever (`--list-timeout`), the client's end of input ends the run, requests
//! sent twice with one id are each answered when the server dies; logs name paths, never
//! values; `cargo install` installs `stitch-proxy` alone.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::*;
use serde_json::{json, Value};

#[test]
fn a_server_that_never_lists_its_tools_holds_calls_only_until_the_timeout() {
    let mut s = Session::start(&["--list-timeout", "1"], &["--never-list"]);
    s.initialize();
    let start = Instant::now();
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tag","arguments":{"tags":"[\"t\"]"}}}"#;
    s.send(call);
    s.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    // Unchecked once the time is up: the call goes as it came, the ping is answered.
    assert_eq!(tool_text(&s.answer(&json!(1))), r#"tag {"tags":"[\"t\"]"}"#);
    assert_eq!(s.answer(&json!(2))["result"], json!({}));
    assert!(start.elapsed() >= Duration::from_millis(900));
    // Later calls are not held again.
    let later = Instant::now();
    assert_eq!(s.request(json!(3), "ping", json!({}))["result"], json!({}));
    assert!(later.elapsed() < Duration::from_secs(5));
    assert!(s.record().iter().any(|l| l == call));
    let (status, stderr) = s.finish();
    assert!(status.success());
    assert!(
        stderr.contains("the server did not list its tools within 1 s"),
        "{stderr}"
    );
}

#[test]
fn the_clients_end_of_input_closes_the_servers_and_the_proxy_exits_with_it() {
    // A held call, then the end of the client's input: the call is released by the timeout,
    // answered, and the server's input closed; the server exits, then the proxy.
    let mut s = Session::start(
        &["--list-timeout", "0.5"],
        &["--never-list", "--exit-code", "5"],
    );
    s.initialize();
    s.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}"#);
    drop(s.stdin.take());
    assert_eq!(tool_text(&s.answer(&json!(1))), r#"echo {"text":"x"}"#);
    let status = wait(&mut s.child);
    assert_eq!(status.code(), Some(5));
}

#[test]
fn requests_sent_with_the_same_id_are_each_answered_when_the_server_dies() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    s.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crash","arguments":{}}}"#);
    s.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    let mut answers: Vec<Value> = Vec::new();
    while answers.len() < 2 {
        let message = s.recv();
        if message["id"] == json!(2) {
            answers.push(message);
        }
    }
    for answer in &answers {
        assert_eq!(answer["error"]["code"], -32000, "{answer}");
    }
    assert_eq!(wait(&mut s.child).code(), Some(3));
}

#[test]
fn logs_name_the_paths_refused_or_repaired_never_the_values() {
    let mut s = Session::start(&["--log", "info"], &[]);
    s.initialize();
    s.request(json!(0), "tools/list", json!({}));
    s.call(
        7,
        "label",
        json!({"n": 1, "tags": "[\"secret-tag\"]", "note": null}),
    );
    s.call(8, "label", json!({"n": 1, "paths": "[\"secret.png\"]"}));
    let (_, stderr) = s.finish();
    assert!(
        stderr.contains("stitch-proxy: info: call 7 to label repaired: note, tags\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("stitch-proxy: info: call 8 to label refused: paths\n"),
        "{stderr}"
    );
    assert!(!stderr.contains("secret"), "{stderr}");

    let mut s = Session::start(&["--log", "info", "--refuse-invalid"], &[]);
    s.initialize();
    s.request(json!(0), "tools/list", json!({}));
    let answer = s.call(9, "label", json!({"n": "secret", "code": 12345}));
    assert!(is_error(&answer));
    let (_, stderr) = s.finish();
    assert!(
        stderr.contains("stitch-proxy: info: call 9 to label refused: code, n\n"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("secret") && !stderr.contains("12345"),
        "{stderr}"
    );
}

#[test]
fn cargo_install_installs_stitch_proxy_alone() {
    // What `cargo install --path stitch-proxy` installs: the package's binary targets.
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: Value = serde_json::from_slice(&out.stdout).unwrap();
    let package = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "stitch-proxy")
        .unwrap();
    let bins: Vec<&str> = package["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"].as_array().unwrap().contains(&json!("bin")))
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(bins, ["stitch-proxy"]);
}
