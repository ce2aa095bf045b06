//! The server side of a session when the server is a remote Streamable HTTP endpoint
//! (`--upstream URL`): each line the routing sends to the server is POSTed as it is; the
//! answer, JSON or an SSE stream, comes back to the routing message by message; the GET
//! stream carries what the server sends on its own, resumed with `Last-Event-ID` when it
//! breaks; a session the server has ended (HTTP 404) is opened again with the client's own
//! `initialize` (`reopen.rs`); the session ends with a `DELETE`.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use tokio::sync::{oneshot, watch};
use tokio::task::JoinSet;

use crate::headers;
use crate::log::log;
use crate::message::{self, Id, Message};
use crate::proxy::{Out, Proxy, Writes, SERVER_GONE};
use crate::sse;
use crate::upstream_client::{describe, Config, HttpClient};

#[path = "reopen.rs"]
mod reopen;

/// How long a POST's answer may take to start before the next line goes out anyway (a server
/// that answers with JSON only once the call is done must not hold the others back).
const HEAD_WAIT: Duration = Duration::from_secs(1);
/// How many times a broken stream is resumed in a row without an event between.
const RESUMES: u32 = 5;
/// The header that names the session.
const SESSION: &str = "mcp-session-id";

/// What the client made of a request: its answer's head, or why none came.
type Answer = Result<Response<Incoming>, hyper_util::client::legacy::Error>;

/// The session the server opened: its id and the protocol version agreed, sent on every
/// later request.
#[derive(Clone, Default)]
struct Opened {
    id: Option<HeaderValue>,
    version: Option<HeaderValue>,
}

/// The client's `initialize` and `notifications/initialized` as it sent them: a new session
/// opens with them when the server has ended one.
#[derive(Clone, Default)]
struct Opening {
    initialize: Option<Bytes>,
    initialized: Option<Bytes>,
}

/// One session with the upstream server, the server side of one [`Proxy`].
pub struct Upstream {
    client: HttpClient,
    config: Arc<Config>,
    proxy: Arc<Proxy>,
    /// The session the server gave at `initialize`, or the one opened after it ended it.
    session: Mutex<Opened>,
    opening: Mutex<Opening>,
    /// Held while a new session opens: one at a time, and one for each session lost.
    reopening: tokio::sync::Mutex<()>,
    /// How many times the session was opened again; the GET stream waits on it after a 404.
    reopened: watch::Sender<u64>,
    /// `--listen` with `--upstream`: the `Authorization` the HTTP client sent last.
    pub authorization: Mutex<Option<HeaderValue>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Upstream {
    pub fn new(client: HttpClient, config: Arc<Config>, proxy: Arc<Proxy>) -> Arc<Upstream> {
        Arc::new(Upstream {
            client,
            config,
            proxy,
            session: Mutex::default(),
            opening: Mutex::default(),
            reopening: tokio::sync::Mutex::new(()),
            reopened: watch::Sender::new(0),
            authorization: Mutex::new(None),
        })
    }

    /// A request to the server in the current session.
    fn request(&self, method: Method, body: Bytes, accept: &'static str) -> Request<Full<Bytes>> {
        let opened = lock(&self.session).clone();
        self.request_in(&opened, method, body, accept)
    }

    /// A request to the server in session `opened` (none: an `initialize`).
    fn request_in(
        &self,
        opened: &Opened,
        method: Method,
        body: Bytes,
        accept: &'static str,
    ) -> Request<Full<Bytes>> {
        let mut builder = Request::builder()
            .method(method.clone())
            .uri(self.config.uri.clone())
            .header(header::ACCEPT, accept);
        if method == Method::POST {
            builder = builder.header(header::CONTENT_TYPE, "application/json");
        }
        // A modern message carries its own version and mirrors its body in headers; it
        // belongs to no session.
        let body_value = match method {
            Method::POST => serde_json::from_slice::<serde_json::Value>(&body).ok(),
            _ => None,
        };
        match body_value.as_ref().and_then(headers::modern) {
            Some(modern) => {
                let params = match modern.call {
                    Some((tool, _)) => self.proxy.header_params(tool),
                    None => Vec::new(),
                };
                for (name, value) in headers::of_modern(&modern, &params) {
                    builder = builder.header(name, value);
                }
            }
            None => {
                if let Some(session) = &opened.id {
                    builder = builder.header(SESSION, session);
                }
                if let Some(version) = &opened.version {
                    builder = builder.header("mcp-protocol-version", version);
                }
            }
        }
        let mut has_authorization = false;
        for (name, value) in &self.config.headers {
            has_authorization |= name == header::AUTHORIZATION;
            builder = builder.header(name, value);
        }
        if !has_authorization {
            if let Some(value) = lock(&self.authorization).clone() {
                builder = builder.header(header::AUTHORIZATION, value);
            }
        }
        let request = builder.body(Full::new(body));
        // Every part was checked when it was read: the builder cannot fail.
        request.unwrap_or_else(|_| Request::new(Full::new(Bytes::new())))
    }

    /// Runs the session until the routing ends its lines (`Out::End`); then waits a little
    /// for the answers under way, ends the session with a `DELETE`, and answers every request
    /// still pending with an error.
    pub async fn run(self: Arc<Self>, mut lines: Writes) {
        let mut posts = JoinSet::new();
        let mut listener: Option<tokio::task::JoinHandle<()>> = None;
        while let Some(Out::Line(line)) = lines.recv().await {
            lines.written(line.len());
            let started = self.clone().post(line, &mut posts).await;
            if started && listener.is_none() {
                listener = Some(tokio::spawn(self.clone().listen()));
            }
            while posts.try_join_next().is_some() {}
        }
        let drained = async { while posts.join_next().await.is_some() {} };
        if tokio::time::timeout(Duration::from_secs(10), drained)
            .await
            .is_err()
        {
            log!(
                Warn,
                "answers still under way when the session ended: dropped"
            );
        }
        posts.abort_all();
        if let Some(listener) = listener {
            listener.abort();
        }
        self.delete().await;
        self.proxy.server_closed();
    }

    /// POSTs one line; returns whether it was an `initialize` that the server accepted (the
    /// GET stream may open then).
    async fn post(self: Arc<Self>, line: Vec<u8>, posts: &mut JoinSet<()>) -> bool {
        let body = Bytes::copy_from_slice(message::trim_end(&line));
        let (ids, initialize) = match message::parse(&body) {
            Message::Request { id, method, .. } => {
                let initialize = method == "initialize";
                if initialize {
                    lock(&self.opening).initialize = Some(body.clone());
                }
                (vec![id], initialize)
            }
            Message::Notification { method, .. } => {
                if method == "notifications/initialized" {
                    lock(&self.opening).initialized = Some(body.clone());
                }
                (Vec::new(), false)
            }
            Message::Batch(items) => (
                items
                    .into_iter()
                    .filter_map(|item| match item {
                        Message::Request { id, .. } => Some(id),
                        _ => None,
                    })
                    .collect(),
                false,
            ),
            _ => (Vec::new(), false),
        };
        let (head_tx, head_rx) = oneshot::channel();
        let this = self.clone();
        let exchange = async move {
            match this.send(body, &ids, head_tx, initialize).await {
                Some(answer) => this.answer(answer, ids, initialize).await,
                None => false,
            }
        };
        if initialize {
            // Everything after `initialize` needs the session it opens.
            exchange.await
        } else {
            posts.spawn(async move {
                exchange.await;
            });
            let _ = tokio::time::timeout(HEAD_WAIT, head_rx).await;
            false
        }
    }

    /// Reads the server's answer to a POST; returns whether it was a success.
    async fn answer(&self, answer: Answer, ids: Vec<Id>, initialize: bool) -> bool {
        let response = match answer {
            Ok(response) => response,
            Err(error) => {
                let error = describe(&error);
                log!(Warn, "the upstream server cannot be reached: {error}");
                self.fail(
                    &ids,
                    &format!("the upstream server cannot be reached ({error})"),
                );
                return false;
            }
        };
        let status = response.status();
        if initialize && status.is_success() {
            if let Some(session) = response.headers().get(SESSION) {
                lock(&self.session).id = Some(session.clone());
            }
        }
        if !status.is_success() {
            log!(Warn, "the upstream server answered HTTP {status}");
            // A modern server answers what it refuses (a header mismatch, a version it does
            // not serve, an unknown method) with a JSON-RPC error in the body: the client gets
            // that error, for its request.
            if let ([id], Some(error)) = (&ids[..], rpc_error(response).await) {
                let line = format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{},\"error\":{error}}}\n",
                    id.raw
                );
                self.proxy.server_sent(line.into_bytes());
                return false;
            }
            let what = if status == StatusCode::NOT_FOUND && lock(&self.session).id.is_some() {
                "the upstream server ended the session (HTTP 404)".to_owned()
            } else {
                format!("the upstream server answered HTTP {status}")
            };
            self.fail(&ids, &what);
            return false;
        }
        if ids.is_empty() {
            return true;
        }
        let event_stream = is_event_stream(&response);
        let body = response.into_body();
        let mut waiting = ids;
        if event_stream {
            let mut reader = sse::Reader::default();
            read_events(body, &mut reader, &mut |data| {
                self.deliver(data, &mut waiting, initialize);
                true
            })
            .await;
            self.resume(reader, &mut waiting, initialize).await;
        } else {
            match Limited::new(body, crate::limits::max_message())
                .collect()
                .await
            {
                Ok(collected) => {
                    self.deliver(&collected.to_bytes(), &mut waiting, initialize);
                }
                Err(error) => log!(Warn, "reading the upstream's answer failed: {error}"),
            }
        }
        if !waiting.is_empty() {
            self.fail(
                &waiting,
                "the upstream server's stream ended before its answer",
            );
        }
        true
    }

    /// A POST's stream ended with answers missing: where the server gave event ids, the
    /// stream is resumed with a GET and `Last-Event-ID`.
    async fn resume(&self, mut reader: sse::Reader, waiting: &mut Vec<Id>, initialize: bool) {
        let mut attempts = 0;
        while !waiting.is_empty() && attempts < RESUMES {
            let Some(last) = reader.last_id.clone() else {
                return;
            };
            attempts += 1;
            tokio::time::sleep(retry_delay(&reader)).await;
            let mut request = self.request(Method::GET, Bytes::new(), ACCEPT_GET);
            let Ok(last) = HeaderValue::from_str(&last) else {
                return;
            };
            request.headers_mut().insert("last-event-id", last);
            let response = match self.client.request(request).await {
                Ok(response) if response.status().is_success() => response,
                _ => return,
            };
            log!(Info, "resuming the upstream's stream");
            let before = waiting.len();
            read_events(response.into_body(), &mut reader, &mut |data| {
                self.deliver(data, waiting, initialize);
                true
            })
            .await;
            if waiting.len() < before {
                attempts = 0;
            }
        }
    }

    /// The GET stream: what the server sends outside any request, until the session ends;
    /// resumed from the last event id when it breaks. Given up after a 404 (the session is
    /// gone, its events too) or [`RESUMES`] failures in a row (a server restarting, say), it
    /// opens again in the next session, once a message has opened one.
    async fn listen(self: Arc<Self>) {
        let mut reopened = self.reopened.subscribe();
        let mut reader = sse::Reader::default();
        let mut failures = 0;
        loop {
            if failures >= RESUMES {
                log!(
                    Debug,
                    "the upstream's GET stream: waiting for a new session"
                );
                if reopened.changed().await.is_err() {
                    return;
                }
                reader = sse::Reader::default();
                failures = 0;
            }
            let mut request = self.request(Method::GET, Bytes::new(), ACCEPT_GET);
            if let Some(last) = reader.last_id.as_deref() {
                if let Ok(last) = HeaderValue::from_str(last) {
                    request.headers_mut().insert("last-event-id", last);
                }
            }
            let in_session = request.headers().contains_key(SESSION);
            let response = match self.client.request(request).await {
                Ok(response) => response,
                Err(error) => {
                    log!(Debug, "the upstream's GET stream: {error}");
                    failures += 1;
                    tokio::time::sleep(retry_delay(&reader)).await;
                    continue;
                }
            };
            let status = response.status();
            if status == StatusCode::NOT_FOUND && in_session {
                log!(Debug, "the upstream's GET stream: HTTP 404");
                failures = RESUMES;
                continue;
            }
            if status == StatusCode::METHOD_NOT_ALLOWED {
                log!(Debug, "the upstream server offers no GET stream");
                return;
            }
            if !status.is_success() {
                log!(Debug, "the upstream's GET stream: HTTP {status}");
                return;
            }
            let before = reader.last_id.clone();
            read_events(response.into_body(), &mut reader, &mut |data| {
                self.deliver(data, &mut Vec::new(), false);
                true
            })
            .await;
            if reader.last_id != before {
                failures = 0;
            } else {
                failures += 1;
            }
            tokio::time::sleep(retry_delay(&reader)).await;
        }
    }

    /// One message from the server to the routing; the ids it answers stop being waited for.
    fn deliver(&self, data: &[u8], waiting: &mut Vec<Id>, initialize: bool) {
        if message::is_blank(data) {
            return;
        }
        let line = sse::one_line(data);
        match message::parse(message::trim_end(&line)) {
            Message::Response { id, .. } => {
                if initialize {
                    if let Some(version) = version_of(&line) {
                        lock(&self.session).version = Some(version);
                    }
                }
                waiting.retain(|waited| waited.key != id.key);
            }
            Message::Batch(items) => {
                for item in items {
                    if let Message::Response { id, .. } = item {
                        waiting.retain(|waited| waited.key != id.key);
                    }
                }
            }
            _ => {}
        }
        self.proxy.server_sent(line);
    }

    /// Answers each of `ids` with an error, through the routing (which forgets them).
    fn fail(&self, ids: &[Id], what: &str) {
        for id in ids {
            let text = format!("stitch-proxy: {what}");
            self.proxy
                .server_sent(message::error_line(Some(id), SERVER_GONE, &text));
        }
    }

    /// Ends the session at the server (a server without sessions, or one that does not allow
    /// it, answers 405: nothing more to do).
    async fn delete(&self) {
        if lock(&self.session).id.is_none() {
            return;
        }
        let request = self.request(Method::DELETE, Bytes::new(), ACCEPT_POST);
        let sent = tokio::time::timeout(Duration::from_secs(5), self.client.request(request));
        match sent.await {
            Ok(Ok(response)) => log!(Debug, "session ended: HTTP {}", response.status()),
            Ok(Err(error)) => log!(Debug, "ending the session failed: {error}"),
            Err(_) => log!(Debug, "ending the session timed out"),
        }
    }
}

const ACCEPT_POST: &str = "application/json, text/event-stream";
const ACCEPT_GET: &str = "text/event-stream";

/// The `error` member of a JSON-RPC error answer in an HTTP error's body, as JSON text.
async fn rpc_error(response: Response<Incoming>) -> Option<String> {
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    if !json {
        return None;
    }
    let body = Limited::new(response.into_body(), 64 << 10)
        .collect()
        .await
        .ok()?;
    #[derive(serde::Deserialize)]
    struct Answer {
        error: Box<serde_json::value::RawValue>,
    }
    let answer: Answer = serde_json::from_slice(&body.to_bytes()).ok()?;
    // An error object has a code and a message (a client drops one without).
    let error: serde_json::Value = serde_json::from_str(answer.error.get()).ok()?;
    (error.get("code")?.is_i64() && error.get("message")?.is_string())
        .then(|| answer.error.get().to_owned())
}

/// Whether an answer is an SSE stream (else it is JSON).
fn is_event_stream(response: &Response<Incoming>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/event-stream"))
}

/// Reads an SSE body, handing each event's data to `each` until it returns `false` or the
/// stream ends; returns whether it ended cleanly (or was left on purpose).
async fn read_events(
    mut body: Incoming,
    reader: &mut sse::Reader,
    each: &mut impl FnMut(&[u8]) -> bool,
) -> bool {
    let mut more = true;
    while more {
        match body.frame().await {
            None => return true,
            Some(Err(error)) => {
                log!(Info, "the upstream's stream broke: {error}");
                return false;
            }
            Some(Ok(frame)) => {
                let Some(data) = frame.data_ref() else {
                    continue;
                };
                let fed = reader.feed(data, |event| {
                    if more && !event.data.is_empty() {
                        more = each(&event.data);
                    }
                });
                if let Err(error) = fed {
                    log!(Warn, "the upstream's stream is unreadable: {error}");
                    return false;
                }
            }
        }
    }
    true
}

/// The protocol version of an `initialize` result, sent on every later request.
fn version_of(line: &[u8]) -> Option<HeaderValue> {
    #[derive(serde::Deserialize)]
    struct Answer {
        result: Option<Init>,
    }
    #[derive(serde::Deserialize)]
    struct Init {
        #[serde(rename = "protocolVersion")]
        protocol_version: Option<String>,
    }
    serde_json::from_slice::<Answer>(line)
        .ok()
        .and_then(|answer| answer.result?.protocol_version)
        .and_then(|version| HeaderValue::from_str(&version).ok())
}

/// How long to wait before reconnecting: the server's `retry:` advice, within 0.1–5 s.
fn retry_delay(reader: &sse::Reader) -> Duration {
    Duration::from_millis(reader.retry.unwrap_or(500).clamp(100, 5000))
}
