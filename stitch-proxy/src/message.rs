//! Reading one line of newline-delimited JSON-RPC just far enough to route it.
//!
//! The proxy never re-serializes a message it does not change: everything here borrows from
//! the line as it arrived ([`RawValue`]), and a repaired call is the same line with only the
//! bytes of its `arguments` replaced ([`splice`]).

use std::borrow::Cow;
use std::ops::Range;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::raw::{self, Kind, Member, Node};

/// The members of a JSON-RPC message the proxy looks at; all others are ignored (and kept,
/// since the line is forwarded as it came).
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

/// A request id as it arrived: its JSON text (forwarded and echoed as is) and a key that
/// compares ids by value (`1` and `1` match; the key is the id's compact JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Id {
    /// The id's JSON text, exactly as the peer wrote it.
    pub raw: String,
    /// The id's compact JSON: the key of the pending tables.
    pub key: String,
}

impl Id {
    fn of(raw: &RawValue) -> Id {
        Id::of_text(raw.get())
    }

    /// The id whose JSON text is `raw`.
    pub fn of_text(raw: &str) -> Id {
        let key = match serde_json::from_str::<Value>(raw) {
            Ok(value) => value.to_string(),
            Err(_) => raw.to_owned(),
        };
        Id {
            raw: raw.to_owned(),
            key,
        }
    }

    /// The id a proxy-made request carries: a JSON string.
    pub fn own(text: &str) -> Id {
        let raw = Value::from(text).to_string();
        Id {
            key: raw.clone(),
            raw,
        }
    }
}

/// What one line holds, as far as routing needs to know.
#[derive(Debug)]
pub enum Message {
    /// A request (it has an `id` and a `method`). For `tools/call`, `call` holds its tool
    /// name and arguments.
    Request {
        /// The request's id.
        id: Id,
        /// The method called.
        method: String,
        /// `tools/call` only: what the coercer needs.
        call: Option<Call>,
        /// `tools/list` only: whether the request asked for a later page (`params.cursor`).
        cursor: bool,
        /// The protocol version of the modern era's envelope (`params._meta`), `None` in the
        /// handshake era ([`crate::era`]).
        version: Option<String>,
    },
    /// A notification (a `method` and no `id`); `cancelled` is the request id a
    /// `notifications/cancelled` names.
    Notification {
        /// The notification's method.
        method: String,
        /// `notifications/cancelled` only: the request it cancels.
        cancelled: Option<Id>,
    },
    /// A response (an `id` with a `result` or an `error`).
    Response {
        /// The id answered.
        id: Id,
        /// Whether the response is an error.
        error: bool,
    },
    /// A batch: the messages in it that routing cares about (requests and responses).
    Batch(Vec<Message>),
    /// Valid JSON that is not a JSON-RPC message the proxy recognizes (a number, an object
    /// with neither `method` nor `id`, a request whose members have the wrong types).
    Other,
    /// Not JSON at all (or not UTF-8).
    Malformed,
}

/// The parts of a `tools/call` request the coercer needs.
#[derive(Debug)]
pub struct Call {
    /// `params.name`.
    pub name: String,
    /// `params.arguments` as read from the line (its spans are byte offsets in the line);
    /// `None` when the call has no `arguments` member.
    pub arguments: Option<Node>,
}

#[derive(Deserialize)]
struct CancelParams<'a> {
    #[serde(borrow, rename = "requestId")]
    request_id: &'a RawValue,
}

#[derive(Deserialize)]
struct ListParams<'a> {
    #[serde(borrow, default)]
    cursor: Option<Cow<'a, str>>,
}

/// One tool of a `tools/list` page: its name and its `inputSchema` (absent: `None`).
#[derive(Debug, Deserialize)]
pub struct ToolDef {
    /// The tool's name.
    pub name: String,
    /// The tool's `inputSchema`.
    #[serde(default, rename = "inputSchema")]
    pub input_schema: Option<Value>,
}

/// A `tools/list` result: the page's tools and the cursor of the next page.
#[derive(Debug, Deserialize)]
pub struct ListPage {
    /// The tools of this page.
    pub tools: Vec<ToolDef>,
    /// The next page's cursor; `None` (or absent, or null) on the last page.
    #[serde(default, rename = "nextCursor")]
    pub next_cursor: Option<String>,
}

/// The line without its line ending (`\n`, `\r\n`).
pub fn trim_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Whether the line holds nothing but whitespace.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// Reads a client's line (without its line ending) for routing, with [`raw`]: any JSON text
/// is read, whatever values it holds (`1e400`, `"\ud800"`, deep nesting), and a `tools/call`
/// keeps its arguments as written.
pub fn parse_client(line: &[u8]) -> Message {
    let Ok(text) = std::str::from_utf8(line) else {
        return Message::Malformed;
    };
    let Some(node) = raw::parse(text) else {
        return Message::Malformed;
    };
    match node.kind {
        Kind::Object(members) => classify_raw(text, members),
        Kind::Array(items) => Message::Batch(
            items
                .into_iter()
                .filter_map(|item| match item.kind {
                    Kind::Object(members) => Some(classify_raw(text, members)),
                    _ => None,
                })
                .filter(|message| {
                    matches!(message, Message::Request { .. } | Message::Response { .. })
                })
                .collect(),
        ),
        _ => Message::Other,
    }
}

/// Takes the member `key` out of an object's members (the last, when it is sent twice).
fn take(members: &mut Vec<Member>, key: &str) -> Option<Node> {
    let at = members.iter().rposition(|m| m.key.value == key)?;
    Some(members.swap_remove(at).value)
}

/// The protocol version a request's `params._meta` names (the modern era's envelope).
fn envelope_version(params: &mut Vec<Member>) -> Option<String> {
    let Kind::Object(mut meta) = take(params, "_meta")?.kind else {
        return None;
    };
    match take(&mut meta, crate::era::VERSION_KEY)?.kind {
        Kind::String(version) => Some(version.value),
        _ => None,
    }
}

fn classify_raw(text: &str, mut members: Vec<Member>) -> Message {
    let id = take(&mut members, "id");
    let method = take(&mut members, "method");
    let params = take(&mut members, "params");
    let answer = take(&mut members, "result").is_some();
    let error = take(&mut members, "error").is_some();
    let method = match method {
        Some(node) => match node.kind {
            Kind::String(s) => Some(s.value),
            // A member of the wrong type: left to the server.
            _ => return Message::Other,
        },
        None => None,
    };
    let id = id.map(|node| Id::of_text(&text[node.span]));
    match (id, method) {
        (Some(id), Some(method)) => {
            let mut params = params.and_then(|node| match node.kind {
                Kind::Object(members) => Some(members),
                _ => None,
            });
            let call = match (&method[..], params.as_mut()) {
                ("tools/call", Some(params)) => {
                    let name = take(params, "name").and_then(|node| match node.kind {
                        Kind::String(s) => Some(s.value),
                        _ => None,
                    });
                    name.map(|name| Call {
                        name,
                        arguments: take(params, "arguments"),
                    })
                }
                _ => None,
            };
            let cursor = method == "tools/list"
                && params
                    .as_mut()
                    .and_then(|params| take(params, "cursor"))
                    .is_some_and(|cursor| cursor.as_str().is_some());
            let version = params.as_mut().and_then(envelope_version);
            Message::Request {
                id,
                method,
                call,
                cursor,
                version,
            }
        }
        (None, Some(method)) => {
            let cancelled = (method == "notifications/cancelled")
                .then(|| match params?.kind {
                    Kind::Object(mut members) => {
                        let id = take(&mut members, "requestId")?;
                        Some(Id::of_text(&text[id.span]))
                    }
                    _ => None,
                })
                .flatten();
            Message::Notification { method, cancelled }
        }
        (Some(id), None) if answer || error => Message::Response { id, error },
        _ => Message::Other,
    }
}

/// Reads a server's line (without its line ending) for routing.
pub fn parse(line: &[u8]) -> Message {
    let Ok(text) = std::str::from_utf8(line) else {
        return Message::Malformed;
    };
    match text.trim_start().as_bytes().first() {
        Some(b'{') => match serde_json::from_str::<Envelope<'_>>(text) {
            Ok(envelope) => classify(envelope),
            Err(_) => other_or_malformed(text),
        },
        Some(b'[') => match serde_json::from_str::<Vec<Envelope<'_>>>(text) {
            Ok(batch) => Message::Batch(
                batch
                    .into_iter()
                    .map(classify)
                    .filter(|message| {
                        matches!(message, Message::Request { .. } | Message::Response { .. })
                    })
                    .collect(),
            ),
            Err(_) => other_or_malformed(text),
        },
        _ => other_or_malformed(text),
    }
}

/// A line the envelope did not fit: valid JSON (`Other`) or not (`Malformed`).
fn other_or_malformed(text: &str) -> Message {
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => Message::Other,
        Err(_) => Message::Malformed,
    }
}

fn classify(envelope: Envelope<'_>) -> Message {
    match (envelope.id, envelope.method) {
        (Some(id), Some(method)) => {
            let id = Id::of(id);
            // A server's request is never a `tools/call` the proxy checks.
            let call = None;
            let cursor = method == "tools/list"
                && envelope.params.is_some_and(|params| {
                    serde_json::from_str::<ListParams<'_>>(params.get())
                        .is_ok_and(|params| params.cursor.is_some())
                });
            Message::Request {
                id,
                method: method.into_owned(),
                call,
                cursor,
                version: None,
            }
        }
        (None, Some(method)) => {
            let cancelled = (method == "notifications/cancelled")
                .then(|| {
                    let params = envelope.params?;
                    let params = serde_json::from_str::<CancelParams<'_>>(params.get()).ok()?;
                    Some(Id::of(params.request_id))
                })
                .flatten();
            Message::Notification {
                method: method.into_owned(),
                cancelled,
            }
        }
        (Some(id), None) if envelope.result.is_some() || envelope.error.is_some() => {
            Message::Response {
                id: Id::of(id),
                error: envelope.error.is_some(),
            }
        }
        _ => Message::Other,
    }
}

/// The line with the bytes at `range` replaced by `text`, and a line ending.
pub fn splice(line: &[u8], range: Range<usize>, text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len() + text.len() + 1);
    out.extend_from_slice(&line[..range.start]);
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&line[range.end..]);
    out.push(b'\n');
    out
}

/// The request `line` (without its line ending) with its `id` (the last, when it is sent
/// twice, as routing reads it) replaced by `id`; every other byte as it was. `None` when the
/// line is not an object with an id.
pub fn with_id(line: &[u8], id: &Id) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(line).ok()?;
    let Kind::Object(members) = raw::parse(text)?.kind else {
        return None;
    };
    let span = members
        .iter()
        .rev()
        .find(|m| m.key.value == "id")?
        .value
        .span
        .clone();
    let mut out = splice(line, span, &id.raw);
    out.pop();
    Some(out)
}

/// A `tools/list` result read from a response line; `None` when the line is not a result of
/// that shape.
pub fn list_page(line: &[u8]) -> Option<ListPage> {
    #[derive(Deserialize)]
    struct Result<'a> {
        #[serde(borrow)]
        result: &'a RawValue,
    }
    let text = std::str::from_utf8(line).ok()?;
    let result = serde_json::from_str::<Result<'_>>(text).ok()?;
    serde_json::from_str::<ListPage>(result.result.get()).ok()
}

/// The `tools/list` results inside a batch line, by the id they answer.
pub fn batch_list_pages(line: &[u8]) -> Vec<(Id, ListPage)> {
    #[derive(Deserialize)]
    struct Item<'a> {
        #[serde(borrow, default)]
        id: Option<&'a RawValue>,
        #[serde(borrow, default)]
        result: Option<&'a RawValue>,
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Vec::new();
    };
    let Ok(items) = serde_json::from_str::<Vec<Item<'_>>>(text) else {
        return Vec::new();
    };
    items
        .into_iter()
        .filter_map(|item| {
            let page = serde_json::from_str::<ListPage>(item.result?.get()).ok()?;
            Some((Id::of(item.id?), page))
        })
        .collect()
}

/// A JSON-RPC response line answering `id` with `result` (JSON text).
pub fn result_line(id: &Id, result: &str) -> Vec<u8> {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{result}}}\n",
        id.raw
    )
    .into_bytes()
}

/// A JSON-RPC error response line; `id` `None` writes `"id":null`.
pub fn error_line(id: Option<&Id>, code: i64, message: &str) -> Vec<u8> {
    let id = id.map_or("null", |id| id.raw.as_str());
    let message = Value::from(message);
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":{code},\"message\":{message}}}}}\n"
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::era::{self, Era};
    use serde_json::json;

    #[test]
    fn a_call_keeps_its_id_text_and_finds_its_arguments() {
        let line = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"a\"]", "pad":1e400},"_meta":{"progressToken":1}}}"#;
        let Message::Request {
            id, method, call, ..
        } = parse_client(line)
        else {
            panic!("not a request")
        };
        assert_eq!((id.raw.as_str(), id.key.as_str()), ("7", "7"));
        assert_eq!(method, "tools/call");
        let call = call.unwrap();
        assert_eq!(call.name, "view");
        let range = call.arguments.unwrap().span;
        assert_eq!(&line[range.clone()], br#"{"paths":"[\"a\"]", "pad":1e400}"#);
        let spliced = splice(line, range, r#"{"paths":["a"], "pad":1e400}"#);
        assert_eq!(
            spliced,
            b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"view\",\"arguments\":{\"paths\":[\"a\"], \"pad\":1e400},\"_meta\":{\"progressToken\":1}}}\n"
        );
    }

    #[test]
    fn ids_compare_by_value_and_echo_as_written() {
        for parse in [parse, parse_client] {
            let Message::Request { id, .. } =
                parse(br#"{"id": "a\u0062" , "method":"ping","jsonrpc":"2.0"}"#)
            else {
                panic!()
            };
            assert_eq!(id.raw, r#""a\u0062""#);
            assert_eq!(id.key, r#""ab""#);
            assert!(result_line(&id, "{}").starts_with(br#"{"jsonrpc":"2.0","id":"a\u0062","#));
        }
    }

    #[test]
    fn kinds_of_lines() {
        for parse in [parse, parse_client] {
            assert!(matches!(
                parse(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}"#),
                Message::Notification { cancelled: Some(Id { ref key, .. }), .. } if key == "\"x\""
            ));
            assert!(matches!(
                parse(br#"{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}"#),
                Message::Response { error: true, .. }
            ));
            assert!(matches!(
                parse(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
                Message::Response { error: false, .. }
            ));
            assert!(matches!(parse(b"{\"jsonrpc\":\"2.0\""), Message::Malformed));
            assert!(matches!(parse(b"hello"), Message::Malformed));
            assert!(matches!(parse(b"\xff{}"), Message::Malformed));
            assert!(matches!(parse(b"42"), Message::Other));
            // A member of the wrong type is valid JSON the proxy leaves to the server.
            assert!(matches!(
                parse(br#"{"jsonrpc":"2.0","id":1,"method":5}"#),
                Message::Other
            ));
            let Message::Batch(items) = parse(
                br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"result":{}}]"#,
            ) else {
                panic!()
            };
            assert_eq!(items.len(), 2);
            let Message::Request { cursor, .. } =
                parse(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"2"}}"#)
            else {
                panic!()
            };
            assert!(cursor);
        }
    }

    #[test]
    fn a_call_without_usable_params_is_left_to_the_server() {
        let Message::Request { call, .. } =
            parse_client(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":3}}"#)
        else {
            panic!()
        };
        assert!(call.is_none());
        let Message::Request { call, .. } = parse_client(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
        ) else {
            panic!()
        };
        assert!(call.unwrap().arguments.is_none());
    }

    #[test]
    fn lines_the_proxy_writes_are_json_rpc() {
        let id = Id::own("stitch-proxy-1");
        let list: Value =
            serde_json::from_slice(&era::list_request(&id, Some("c\"2"), &Era::Legacy)).unwrap();
        assert_eq!(
            list,
            json!({"jsonrpc":"2.0","id":"stitch-proxy-1","method":"tools/list","params":{"cursor":"c\"2"}})
        );
        let refusal: Value = serde_json::from_slice(&era::refusal_line(
            &Id::own("x"),
            "a\nb \u{2014}",
            &Era::Legacy,
        ))
        .unwrap();
        assert_eq!(
            refusal,
            json!({"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"a\nb \u{2014}"}],"isError":true}})
        );
        // A repeated initialize: only the (last) id changes, every other byte stays.
        let init = br#"{ "id" : 1, "method":"initialize", "params":{"id":2}, "id":0 }"#;
        assert_eq!(
            with_id(init, &Id::own("own-1")).unwrap(),
            br#"{ "id" : 1, "method":"initialize", "params":{"id":2}, "id":"own-1" }"#
        );
        assert_eq!(with_id(br#"{"method":"n"}"#, &Id::own("x")), None);
        assert_eq!(with_id(b"[1]", &Id::own("x")), None);
        let error: Value = serde_json::from_slice(&error_line(None, -32700, "parse")).unwrap();
        assert_eq!(
            error,
            json!({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}})
        );
    }

    #[test]
    fn list_pages() {
        let page = list_page(br#"{"jsonrpc":"2.0","id":"p","result":{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b"}],"nextCursor":"2"}}"#).unwrap();
        assert_eq!(page.tools.len(), 2);
        assert_eq!(page.tools[1].input_schema, None);
        assert_eq!(page.next_cursor.as_deref(), Some("2"));
        let page =
            list_page(br#"{"jsonrpc":"2.0","id":"p","result":{"tools":[],"nextCursor":null}}"#)
                .unwrap();
        assert_eq!(page.next_cursor, None);
        assert!(list_page(br#"{"jsonrpc":"2.0","id":"p","result":{}}"#).is_none());
        let pages = batch_list_pages(br#"[{"jsonrpc":"2.0","id":4,"result":{"tools":[]}},{"jsonrpc":"2.0","id":5,"result":{}}]"#);
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].0.key, "4");
    }
}
