//! Issue #19, item 4, through the proxy and the fake server: schemas the coercer now reads as
//! JSON Schema does (`allOf` along `$ref`s, `patternProperties`, integers written `1e2`), and
//! refusals that name the keyword, comparing the exact bytes the server received.

use crate::support::*;
use serde_json::{json, Value};

fn call_line(id: i64, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
}

fn send(s: &mut Session, id: i64, tool: &str, arguments: &str) -> Value {
    s.send(&call_line(id, tool, arguments));
    s.answer(&json!(id))
}

fn started(proxy_args: &[&str]) -> Session {
    let mut s = Session::start(proxy_args, &[]);
    s.initialize();
    s.request(json!(0), "tools/list", json!({}));
    s
}

#[test]
fn all_of_along_refs_and_pattern_properties() {
    let mut s = started(&["--refuse-invalid"]);
    // `paths` through `allOf` a <- b <- c: a list written as text is refused.
    let answer = send(&mut s, 1, "chain", r#"{"paths":"[\"a.png\"]"}"#);
    assert!(is_error(&answer), "{answer}");
    assert_eq!(tool_text(&answer), format!("paths {TEXT_LIST}"));
    assert!(!is_error(&send(
        &mut s,
        2,
        "chain",
        r#"{"paths":"[a].png"}"#
    )));
    // Keys the patterns allow are no unknown fields, and are repaired as their pattern says.
    let answer = send(&mut s, 3, "open", r#"{"x-tags": "[\"t\"]", "n-1":1e2}"#);
    assert!(!is_error(&answer), "{answer}");
    let answer = send(&mut s, 4, "open", r#"{"other":1}"#);
    assert!(is_error(&answer), "{answer}");
    assert!(
        tool_text(&answer).starts_with("other: unknown field `other`"),
        "{answer}"
    );
    let record = s.record();
    assert!(record.contains(&call_line(2, "chain", r#"{"paths":"[a].png"}"#)));
    assert!(
        record.contains(&call_line(3, "open", r#"{"x-tags": ["t"], "n-1":1e2}"#)),
        "{record:#?}"
    );
    let ids: Vec<Value> = calls(&record).iter().map(|c| c["id"].clone()).collect();
    assert_eq!(ids, [json!(2), json!(3)]);
}

#[test]
fn a_refusal_says_the_constraint_that_failed() {
    let mut s = started(&["--refuse-invalid"]);
    let answer = send(&mut s, 1, "label", r#"{"n":1,"code":"abcdef"}"#);
    assert!(is_error(&answer), "{answer}");
    assert_eq!(
        tool_text(&answer),
        "code: \"abcdef\" is longer than the maximum length of 3 characters"
    );
    assert!(calls(&s.record()).is_empty());
}
