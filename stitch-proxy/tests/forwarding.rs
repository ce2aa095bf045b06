//! Issue #19, items 1–3, against the fake server, comparing the exact bytes it received:
//! the proxy acts only where stitch's rules act (`--refuse-invalid` for the rest), a repaired
//! call keeps every byte but the repaired strings, and no unrelated value lets a list written
//! as text through.

use crate::support::*;
use serde_json::{json, Value};

fn call_line(id: i64, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"label","arguments":{arguments}}}}}"#
    )
}

/// Sends a `label` call with `arguments` as written, and returns the answer.
fn send_call(s: &mut Session, id: i64, arguments: &str) -> Value {
    s.send(&call_line(id, arguments));
    s.answer(&json!(id))
}

fn started(proxy_args: &[&str]) -> Session {
    let mut s = Session::start(proxy_args, &[]);
    s.initialize();
    s.request(json!(0), "tools/list", json!({}));
    s
}

#[test]
fn by_default_what_the_server_judges_reaches_it_as_sent() {
    let mut s = started(&[]);
    // A lax integer, integers by JSON Schema, a number as text, a pattern and a bound the
    // value breaks, a required field missing, an unknown one: all the server's to judge.
    let sent = [
        r#"{"n":"1"}"#,
        r#"{"n":5.0}"#,
        r#"{"n":1e2}"#,
        r#"{"n":1,"head":"1"}"#,
        r#"{"n":1,"code":"ABCDEF"}"#,
        r#"{"tags":["a"]}"#,
        r#"{"n":1,"other":true}"#,
    ];
    for (i, arguments) in sent.iter().enumerate() {
        let answer = send_call(&mut s, i as i64 + 1, arguments);
        assert!(!is_error(&answer), "{answer}");
    }
    let record = s.record();
    for (i, arguments) in sent.iter().enumerate() {
        let line = call_line(i as i64 + 1, arguments);
        assert!(record.contains(&line), "{line} not in {record:#?}");
    }
}

#[test]
fn refuse_invalid_refuses_every_issue_at_once_and_nothing_json_schema_accepts() {
    let mut s = started(&["--refuse-invalid"]);
    let answer = send_call(&mut s, 1, r#"{"n":"1","code":5,"tags":"[\"x\"]"}"#);
    assert!(is_error(&answer), "{answer}");
    assert_eq!(
        tool_text(&answer),
        "code: invalid type: integer `5`, expected a string\n\
         n: invalid type: string \"1\", expected an integer",
    );
    // A value constraint (`pattern`): refused by the coercer, in the derive's words.
    let answer = send_call(&mut s, 2, r#"{"n":1,"code":"AB"}"#);
    assert!(is_error(&answer), "{answer}");
    assert_eq!(
        tool_text(&answer),
        "code: \"AB\" does not match the pattern `^[a-z]+$`",
        "{answer}"
    );
    // Integers as JSON Schema counts them are accepted, and forwarded as written.
    for (id, arguments) in [(3, r#"{"n":5.0}"#), (4, r#"{"n":1e2, "code":"ab"}"#)] {
        assert!(!is_error(&send_call(&mut s, id, arguments)));
    }
    let record = s.record();
    assert!(
        record.contains(&call_line(3, r#"{"n":5.0}"#)),
        "{record:#?}"
    );
    assert!(record.contains(&call_line(4, r#"{"n":1e2, "code":"ab"}"#)));
    let ids: Vec<Value> = calls(&record).iter().map(|c| c["id"].clone()).collect();
    assert_eq!(ids, [json!(3), json!(4)]);
}

#[test]
fn a_repaired_call_keeps_every_byte_but_the_repaired_strings() {
    let mut s = started(&[]);
    // Number spellings, key order, whitespace, a key sent twice, an escaped character, and
    // the list's own spelling inside the string.
    let sent = r#"{ "tags" : "[\"x\",\"\u00e9\"]", "n":1, "big":123456789012345678901234567890,"z":-0,"e":1E2, "note":"a\/b","z":-0.0 }"#;
    let answer = send_call(&mut s, 1, sent);
    assert!(!is_error(&answer), "{answer}");
    // (`\u00e9` in the string is `é` in the list it holds.)
    let expected = r#"{ "tags" : ["x","é"], "n":1, "big":123456789012345678901234567890,"z":-0,"e":1E2, "note":"a\/b","z":-0.0 }"#;
    let record = s.record();
    assert!(record.contains(&call_line(1, expected)), "{record:#?}");
    // A `null` the rules take as the field left out (R8) is cut out with its comma.
    send_call(&mut s, 2, r#"{"n":1, "note": null ,"tags":"[]"}"#);
    assert!(s.record().contains(&call_line(2, r#"{"n":1 ,"tags":[]}"#)));
}

/// The text-list call plus `pad`, written as given.
fn with_pad(pad: &str) -> String {
    format!(r#"{{"paths":"[\"a.png\"]","n":1,"pad":{pad}}}"#)
}

fn deep(levels: usize) -> String {
    format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
}

#[test]
fn no_unrelated_value_lets_a_list_written_as_text_through() {
    let mut s = started(&[]);
    let pads = [
        "1e400".to_owned(),
        "-1e400".to_owned(),
        r#""\ud800""#.to_owned(),
        r#"{"k":"\udc00x"}"#.to_owned(),
        deep(200),
        deep(20_000),
    ];
    for (i, pad) in pads.iter().enumerate() {
        let answer = send_call(&mut s, i as i64 + 1, &with_pad(pad));
        assert!(is_error(&answer), "pad {pad:.40}: {answer}");
        assert_eq!(tool_text(&answer), format!("paths {TEXT_LIST}"));
    }
    assert!(calls(&s.record()).is_empty());
    // The same values beside a repair: the repair is made, the values reach the server as
    // they were written (the fake server reads such lines with the proxy's reader).
    for (i, pad) in pads.iter().enumerate() {
        let id = 100 + i as i64;
        let sent = format!(r#"{{"tags":"[\"t\"]","n":1,"pad":{pad}}}"#);
        let answer = send_call(&mut s, id, &sent);
        let expected = format!(r#"{{"tags":["t"],"n":1,"pad":{pad}}}"#);
        assert_eq!(tool_text(&answer), format!("label raw {expected}"));
        let line = call_line(id, &expected);
        assert!(s.record().contains(&line), "{line:.200}");
    }
}
