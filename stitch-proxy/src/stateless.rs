//! `--listen` in the modern era (MCP 2026-07-28): stateless POSTs, each carrying its version,
//! method and name in headers that must agree with its body, served by one shared session
//! (one child, or one `--upstream` routing) whatever client sent them: a modern request
//! carries its state, so no session id is given or read, and one schema table serves all.
//! The requests of different clients are told apart by ids of the proxy's own (`remap`).

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};

use super::{events, lock, Reply, Server};
use crate::era;
use crate::headers::{self, Modern};
use crate::log::log;
use crate::message::{self, Id, Message};
use crate::session::{self, Session};
use crate::sse;

/// HeaderMismatch: a header disagrees with the body, or is missing or repeated.
pub const HEADER_MISMATCH: i64 = -32020;
/// UnsupportedProtocolVersion.
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// A JSON-RPC error answer with HTTP status 400.
fn bad_request(id: Option<&Id>, code: i64, text: &str, data: Option<Value>) -> Reply {
    let mut error = json!({"code": code, "message": text});
    if let Some(data) = data {
        error["data"] = data;
    }
    let id: Value = id
        .and_then(|id| serde_json::from_str(&id.raw).ok())
        .unwrap_or(Value::Null);
    let body = json!({"jsonrpc": "2.0", "id": id, "error": error}).to_string();
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The answer to a version the proxy does not speak: the versions it does.
pub fn unsupported_version(id: Option<&Id>, requested: &str) -> Reply {
    let supported: Vec<&str> = era::MODERN_VERSIONS
        .iter()
        .chain(era::LEGACY_VERSIONS.iter().rev())
        .copied()
        .collect();
    bad_request(
        id,
        UNSUPPORTED_VERSION,
        "Unsupported protocol version",
        Some(json!({"supported": supported, "requested": requested})),
    )
}

/// The one value of header `name` (`Err`: it is sent more than once or is not text).
fn one<'h>(headers: &'h HeaderMap, name: &str) -> Result<Option<&'h str>, String> {
    let mut values = headers.get_all(name).iter();
    let first = values.next();
    if values.next().is_some() {
        return Err(format!("{name} appears more than once"));
    }
    first
        .map(|v| v.to_str().map_err(|_| format!("{name} is not text")))
        .transpose()
}

/// Checks the headers against the body: `Err` is why they disagree. `params` are the
/// `x-mcp-header` parameters of the tool a `tools/call` names (unknown ones are not checked:
/// an intermediary forwards a header it does not recognise).
fn agree(
    headers: &HeaderMap,
    modern: &Modern<'_>,
    params: &[headers::Param],
) -> Result<(), String> {
    let version = one(headers, "mcp-protocol-version")?;
    if version != Some(modern.version) {
        return Err("MCP-Protocol-Version does not match the request's envelope".into());
    }
    let method = one(headers, "mcp-method")?.and_then(headers::decode);
    if method.as_deref() != Some(modern.method) {
        return Err("Mcp-Method does not match the request body's method".into());
    }
    if let Some(name) = modern.name {
        let sent = one(headers, "mcp-name")?.and_then(headers::decode);
        if sent.as_deref() != Some(name) {
            return Err("Mcp-Name does not match the request body's name".into());
        }
    }
    if let Some((_, arguments)) = modern.call {
        for param in params {
            let header = format!("mcp-param-{}", param.token);
            let sent = one(headers, &header)?;
            let body = headers::param_value(arguments, param);
            match (sent, &body) {
                (None, None) => {}
                (Some(sent), Some(body)) if headers::decode(sent).as_ref() == Some(body) => {}
                (Some(_), Some(_)) => {
                    return Err(format!("Mcp-Param-{} does not match the body", param.token))
                }
                (None, Some(_)) => {
                    return Err(format!("Mcp-Param-{} is missing", param.token));
                }
                (Some(_), None) => {
                    return Err(format!(
                        "Mcp-Param-{} is sent but its argument is absent",
                        param.token
                    ));
                }
            }
        }
    }
    Ok(())
}

impl Server {
    /// A request of the modern era.
    pub(super) async fn stateless(&self, request: Request<Incoming>) -> Reply {
        if request.method() != Method::POST {
            let mut response = super::plain(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("POST"));
            return response;
        }
        let headers = request.headers().clone();
        let authorization = headers.get(header::AUTHORIZATION).cloned();
        let body = match self.body_of(request).await {
            Ok(body) => body,
            Err(reply) => return *reply,
        };
        let parsed = message::parse_client(message::trim_end(&body));
        let id = match &parsed {
            Message::Request { id, .. } => Some(id.clone()),
            Message::Notification { .. } => None,
            Message::Malformed => return bad_request(None, -32700, "Parse error", None),
            _ => {
                return bad_request(
                    None,
                    -32600,
                    "Invalid Request: a modern request is one JSON-RPC request or notification",
                    None,
                )
            }
        };
        let session = match self.shared_session() {
            Ok(session) => session,
            Err(reply) => return *reply,
        };
        // JSON the proxy reads but serde_json cannot hold (`1e400`, deep nesting) has headers
        // that cannot be compared: the server judges it.
        if let Ok(value) = serde_json::from_slice::<Value>(&body) {
            let Some(modern) = headers::modern(&value) else {
                return bad_request(
                    id.as_ref(),
                    HEADER_MISMATCH,
                    "Header mismatch: MCP-Protocol-Version names the modern era but the body carries no envelope",
                    None,
                );
            };
            if !era::MODERN_VERSIONS.contains(&modern.version) {
                return unsupported_version(id.as_ref(), modern.version);
            }
            let params = match modern.call {
                Some((tool, _)) => session.header_params(tool),
                None => Vec::new(),
            };
            if let Err(why) = agree(&headers, &modern, &params) {
                log!(
                    Info,
                    "a modern request whose headers disagree with its body: {why}"
                );
                return bad_request(
                    id.as_ref(),
                    HEADER_MISMATCH,
                    &format!("Header mismatch: {why}"),
                    None,
                );
            }
        }
        session.authorization(authorization.as_ref());
        let line = sse::one_line(&body);
        let asked = session::asked(message::trim_end(&line), &parsed);
        match session.post(line, asked) {
            Some(stream) => events(stream, None),
            None => {
                let mut response = Response::new(Full::new(Bytes::new()).boxed());
                *response.status_mut() = StatusCode::ACCEPTED;
                response
            }
        }
    }

    /// The shared session, started at the first modern request and again after it ended.
    fn shared_session(&self) -> Result<Arc<Session>, Box<Reply>> {
        let mut shared = lock(&self.shared);
        if let Some(session) = shared.as_ref().filter(|s| !s.has_ended()) {
            return Ok(session.clone());
        }
        let slot = Arc::downgrade(&self.shared);
        let started = Session::start(
            "modern".into(),
            &self.backend,
            self.options.clone(),
            true,
            move || {
                if let Some(slot) = slot.upgrade() {
                    lock(&slot).take_if(|s| s.has_ended());
                }
            },
        );
        match started {
            Ok(session) => {
                log!(Info, "the modern era's shared session starts");
                *shared = Some(session.clone());
                Ok(session)
            }
            Err(error) => {
                log!(Error, "cannot start the server: {error}");
                Err(Box::new(super::rpc_error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    -32603,
                    "stitch-proxy: the MCP server could not be started",
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    /// A tool's `Mcp-Param-*` headers agree with its arguments, decoded from Base64 where
    /// sent so; missing, different, extra or repeated ones are a mismatch.
    #[test]
    fn param_headers_must_match_the_arguments() {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "sql", "arguments": {"region": "é u", "n": 42},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        let modern = headers::modern(&body).unwrap();
        let params = vec![
            headers::Param {
                token: "Region".into(),
                path: vec!["region".into()],
            },
            headers::Param {
                token: "N".into(),
                path: vec!["n".into()],
            },
        ];
        let base = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "sql"),
        ];
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut all = base.to_vec();
            all.extend_from_slice(extra);
            agree(&headers(&all), &modern, &params)
        };
        assert_eq!(
            with(&[
                ("mcp-param-region", "=?base64?w6kgdQ==?="),
                ("mcp-param-n", "42")
            ]),
            Ok(())
        );
        assert!(with(&[("mcp-param-n", "42")])
            .unwrap_err()
            .contains("Region is missing"));
        assert!(with(&[("mcp-param-region", "eu"), ("mcp-param-n", "42")])
            .unwrap_err()
            .contains("does not match"));
        assert!(with(&[
            ("mcp-param-region", "=?base64?w6kgdQ==?="),
            ("mcp-param-n", "42"),
            ("mcp-param-n", "42")
        ])
        .unwrap_err()
        .contains("more than once"));
        // An argument left out may not be sent as a header.
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "sql", "arguments": {"n": 42},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        let modern = headers::modern(&body).unwrap();
        let mut all = base.to_vec();
        all.extend_from_slice(&[("mcp-param-region", "x"), ("mcp-param-n", "42")]);
        assert!(agree(&headers(&all), &modern, &params)
            .unwrap_err()
            .contains("argument is absent"));
    }
}
