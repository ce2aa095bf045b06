//! A repaired call as the client wrote it, with only the repaired strings replaced.
//!
//! The coercer repairs a `Value`; the server gets the client's own bytes, where each string
//! the coercer replaced is replaced by the JSON text it held — that text as the client wrote
//! it inside the string (its number spellings, key order and spacing), itself rewritten where
//! the coercer repaired inside it — and each member the coercer dropped (rule R8) is cut out
//! with its comma. Every other byte (other keys, numbers, whitespace, duplicate keys) reaches
//! the server as it came.

use std::collections::HashMap;

use serde_json::Value;

use crate::raw::{self, Kind, Node};
use crate::record::Issue;

/// `text` (the JSON of `node`, whose value the coercer was given as `sent`) rewritten to hold
/// `coerced`; `changed` gets the dotted path of each position replaced (rule R1) or dropped
/// (rule R8).
pub fn rewrite(
    text: &str,
    node: &Node,
    sent: &Value,
    coerced: &Value,
    changed: &mut Vec<Issue>,
) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    Rewriter { changed }.emit(text, node, sent, coerced, "", &mut out);
    out
}

/// The JSON text `text` on one line: its white space between tokens (the only place valid
/// JSON holds a raw line feed, carriage return or tab) written as spaces, so a repaired call
/// stays one message of a newline-delimited stream.
fn one_line(mut text: String) -> String {
    if text.bytes().any(|b| matches!(b, b'\n' | b'\r' | b'\t')) {
        text = text.replace(['\n', '\r', '\t'], " ");
    }
    text
}

struct Rewriter<'c> {
    changed: &'c mut Vec<Issue>,
}

/// A position `at` changed by `rule`.
fn issue(at: &str, rule: &'static str) -> Issue {
    Issue {
        path: at.to_owned(),
        rule,
    }
}

fn join(at: &str, segment: &str) -> String {
    if at.is_empty() {
        segment.to_owned()
    } else {
        format!("{at}.{segment}")
    }
}

impl Rewriter<'_> {
    fn emit(
        &mut self,
        text: &str,
        node: &Node,
        sent: &Value,
        coerced: &Value,
        at: &str,
        out: &mut String,
    ) {
        if sent == coerced {
            out.push_str(&text[node.span.clone()]);
            return;
        }
        match (&node.kind, sent, coerced) {
            (Kind::String(s), _, _) => {
                // Replaced by what it parses to. A string holding a lone surrogate cannot be
                // written back as text the coercer read: it is left as sent.
                if s.lossy {
                    out.push_str(&text[node.span.clone()]);
                    return;
                }
                self.changed.push(issue(at, "R1"));
                let inner = s.value.as_str();
                match raw::parse(inner) {
                    Some(parsed) => {
                        let value = raw::to_value(inner, &parsed);
                        let mut nested = Rewriter {
                            changed: &mut Vec::new(),
                        };
                        let mut written = String::with_capacity(inner.len());
                        nested.emit(inner, &parsed, &value, coerced, at, &mut written);
                        out.push_str(&one_line(written));
                    }
                    None => out.push_str(&coerced.to_string()),
                }
            }
            (Kind::Array(items), Value::Array(sent), Value::Array(coerced))
                if items.len() == sent.len() && items.len() == coerced.len() =>
            {
                let mut pos = node.span.start;
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&text[pos..item.span.start]);
                    let here = join(at, &i.to_string());
                    self.emit(text, item, &sent[i], &coerced[i], &here, out);
                    pos = item.span.end;
                }
                out.push_str(&text[pos..node.span.end]);
            }
            (Kind::Object(members), Value::Object(sent), Value::Object(coerced)) => {
                // The member a `Value` kept of a key sent twice: the last.
                let mut last: HashMap<&str, usize> = HashMap::with_capacity(members.len());
                for (i, m) in members.iter().enumerate() {
                    last.insert(m.key.value.as_str(), i);
                }
                let kept: Vec<bool> = members
                    .iter()
                    .map(|m| coerced.contains_key(&m.key.value))
                    .collect();
                let Some(first) = members.first() else {
                    out.push_str(&text[node.span.clone()]);
                    return;
                };
                out.push_str(&text[node.span.start..first.start]);
                let mut any = false;
                for (i, member) in members.iter().enumerate() {
                    let key = member.key.value.as_str();
                    if !kept[i] {
                        if last[key] == i {
                            self.changed.push(issue(&join(at, key), "R8"));
                        }
                        continue;
                    }
                    if any {
                        out.push_str(&text[members[i - 1].value.span.end..member.start]);
                    }
                    any = true;
                    out.push_str(&text[member.start..member.value.span.start]);
                    match (last[key] == i, sent.get(key), coerced.get(key)) {
                        (true, Some(s), Some(c)) => {
                            self.emit(text, &member.value, s, c, &join(at, key), out)
                        }
                        _ => out.push_str(&text[member.value.span.clone()]),
                    }
                }
                let end = members.last().map_or(node.span.start, |m| m.value.span.end);
                out.push_str(&text[end..node.span.end]);
            }
            _ => {
                // Not a change the coercer makes; written as it holds it.
                self.changed.push(issue(at, "R1"));
                out.push_str(&coerced.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(text: &str, coerced: Value) -> (String, Vec<String>) {
        let node = raw::parse(text).unwrap();
        let sent = raw::to_value(text, &node);
        let mut changed = Vec::new();
        let out = rewrite(text, &node, &sent, &coerced, &mut changed);
        (out, changed.into_iter().map(|i| i.path).collect())
    }

    #[test]
    fn only_the_repaired_string_changes() {
        let text = r#"{ "tags" : "[\"x\",  1E2]", "big":123456789012345678901234567890,"z":-0,"e":1E2, "z":-0 }"#;
        let (out, changed) = run(
            text,
            json!({"tags": ["x", 100.0], "big": 1.2345678901234568e29, "z": -0.0, "e": 100.0}),
        );
        assert_eq!(
            out,
            r#"{ "tags" : ["x",  1E2], "big":123456789012345678901234567890,"z":-0,"e":1E2, "z":-0 }"#
        );
        assert_eq!(changed, ["tags"]);
    }

    #[test]
    fn nested_repairs_and_dropped_members() {
        let text = r#"{"a": null, "rows": "[{\"names\": \"[\\\"n\\\"]\"}]", "b" : 1 , "c": null}"#;
        let (out, changed) = run(text, json!({"rows": [{"names": ["n"]}], "b": 1}));
        assert_eq!(out, r#"{"rows": [{"names": ["n"]}], "b" : 1}"#);
        assert_eq!(changed, ["a", "rows", "c"]);
        let node = raw::parse(text).unwrap();
        let mut issues = Vec::new();
        let sent = raw::to_value(text, &node);
        rewrite(
            text,
            &node,
            &sent,
            &json!({"rows": [{"names": ["n"]}], "b": 1}),
            &mut issues,
        );
        let rules: Vec<&str> = issues.iter().map(|i| i.rule).collect();
        assert_eq!(
            rules,
            ["R8", "R1", "R8"],
            "a null dropped, JSON text repaired"
        );
        let (out, _) = run(r#"{ "a" : null }"#, json!({}));
        assert_eq!(out, "{  }");
    }

    #[test]
    fn a_pretty_printed_text_is_written_back_on_one_line() {
        // The list written as text holds raw line feeds, carriage returns and tabs between
        // its tokens (escaped in the client's string): written back raw, they would end the
        // stdio line and start another message.
        let text =
            r#"{"tags": "[\n\t\"a\",\r\n {\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"x\"}\n]"}"#;
        let (out, changed) = run(
            text,
            json!({"tags": ["a", {"jsonrpc": "2.0", "id": 99, "method": "x"}]}),
        );
        assert!(!out.bytes().any(|b| b < 0x20), "{out:?}");
        assert_eq!(
            out,
            r#"{"tags": [  "a",   {"jsonrpc":"2.0","id":99,"method":"x"} ]}"#
        );
        assert_eq!(changed, ["tags"]);
        // A string inside the text keeps its escapes.
        let text = r#"{"tags": "[\"a\\nb\"]"}"#;
        let (out, _) = run(text, json!({"tags": ["a\nb"]}));
        assert_eq!(out, r#"{"tags": ["a\nb"]}"#);
    }
}
