//! The proxy against hostile peers (issue #32's review): each finding, tried as an attacker
//! would, over real pipes.

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
