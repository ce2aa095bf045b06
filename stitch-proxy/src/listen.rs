//! `--listen`: MCP clients over Streamable HTTP at `http://HOST:PORT/PATH`, each MCP session
//! with its own server ([`Session`]). Every request is checked first — its `Host` and `Origin`
//! against the allow-list, then its path — and answered 403 or 404 before any MCP processing.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use std::time::Duration;

use crate::event_stream::Events;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;

use crate::era;
use crate::guard::Allowed;
use crate::log::log;
use crate::message::{self, Message};
use crate::proxy::Options;
use crate::session::{self, Backend, Session};
use crate::sse;

#[path = "stateless.rs"]
mod stateless;

/// What the command line asks of the HTTP side.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub path: String,
    pub allowed: Allowed,
    /// The largest request body read, in bytes.
    pub max_body: usize,
    /// A session with no open stream and no request for this long is ended.
    pub idle: Duration,
    pub max_sessions: usize,
    /// The most connections open at once; more wait to be accepted.
    pub max_connections: usize,
    /// How long a request's head, and then its body, may take to arrive.
    pub read_timeout: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            path: "/mcp".into(),
            allowed: Allowed::default(),
            max_body: 4 << 20,
            idle: Duration::from_secs(300),
            max_sessions: 100,
            max_connections: 256,
            read_timeout: Duration::from_secs(30),
        }
    }
}

type Sessions = Mutex<HashMap<String, Arc<Session>>>;

struct Server {
    settings: Settings,
    backend: Backend,
    options: Options,
    sessions: Arc<Sessions>,
    /// The modern era's one session, serving every client's stateless requests (`stateless.rs`).
    shared: Arc<Mutex<Option<Arc<Session>>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

type Reply = Response<BoxBody<Bytes, Infallible>>;

/// Serves until SIGINT or SIGTERM, then ends every session.
pub async fn serve(
    listener: TcpListener,
    settings: Settings,
    backend: Backend,
    options: Options,
) -> std::io::Result<()> {
    let server = Arc::new(Server {
        settings,
        backend,
        options,
        sessions: Arc::default(),
        shared: Arc::default(),
    });
    tokio::spawn(reap(server.clone()));
    let stop = stopped();
    tokio::pin!(stop);
    let connections = Arc::new(tokio::sync::Semaphore::new(server.settings.max_connections));
    loop {
        // At the cap, the next connection waits in the kernel's queue until one closes.
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut stop => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    log!(Warn, "accepting a connection failed: {error}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let server = server.clone();
        let read_timeout = server.settings.read_timeout;
        tokio::spawn(async move {
            let _permit = permit;
            let service = hyper::service::service_fn(move |request| {
                let server = server.clone();
                async move { Ok::<_, Infallible>(server.handle(request).await) }
            });
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(read_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            if let Err(error) = served {
                log!(Debug, "connection from {peer}: {error}");
            }
        });
    }
    let mut sessions: Vec<Arc<Session>> = lock(&server.sessions).values().cloned().collect();
    sessions.extend(lock(&server.shared).take());
    log!(Info, "stopping: {} session(s) end", sessions.len());
    for session in &sessions {
        session.end();
    }
    // The children get their grace period to exit.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(4);
    while !lock(&server.sessions).is_empty() && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// SIGINT or SIGTERM (Ctrl-C elsewhere).
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Ends the sessions idle for `--session-idle`.
async fn reap(server: Arc<Server>) {
    let every = (server.settings.idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
    loop {
        tokio::time::sleep(every).await;
        let idle: Vec<Arc<Session>> = lock(&server.sessions)
            .values()
            .filter(|session| session.idle_for(server.settings.idle))
            .cloned()
            .collect();
        for session in idle {
            log!(Info, "session {} idle: ended", session.id);
            lock(&server.sessions).remove(&session.id);
            session.end();
        }
        let shared = lock(&server.shared).take_if(|s| s.idle_for(server.settings.idle));
        if let Some(shared) = shared {
            log!(Info, "the modern era's shared session is idle: ended");
            shared.end();
        }
    }
}

fn plain(status: StatusCode, text: &str) -> Reply {
    let mut response = Response::new(Full::new(Bytes::from(format!("{text}\n"))).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// A JSON-RPC error as an HTTP answer (no id: the request could not be read that far).
fn rpc_error(status: StatusCode, code: i64, text: &str) -> Reply {
    let body = message::error_line(None, code, text);
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn events(stream: Events, session: Option<&str>) -> Reply {
    let mut response = Response::new(stream.boxed());
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(id) = session.and_then(|id| HeaderValue::from_str(id).ok()) {
        headers.insert("mcp-session-id", id);
    }
    response
}

/// Whether the request's `Accept` lists `wanted` (or `*/*`) among its media types.
fn accepts(request: &Request<Incoming>, wanted: &str) -> bool {
    request
        .headers()
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|v| v.split(';').next().unwrap_or("").trim())
        .any(|v| v.eq_ignore_ascii_case(wanted) || v == "*/*")
}

impl Server {
    async fn handle(self: Arc<Self>, request: Request<Incoming>) -> Reply {
        // DNS rebinding: Host and Origin before anything else, every one of them: exactly
        // one Host, every Origin allowed, and a request target in absolute form (`POST
        // http://host/mcp`) naming an allowed host too.
        let allowed = &self.settings.allowed;
        let hosts: Vec<&HeaderValue> = request.headers().get_all(header::HOST).iter().collect();
        let host_ok = matches!(hosts[..], [host] if allowed.host(host.as_bytes()))
            && request
                .uri()
                .authority()
                .is_none_or(|target| allowed.host(target.as_str().as_bytes()));
        if !host_ok {
            log!(Info, "a request with a Host not allowed: 403");
            return plain(StatusCode::FORBIDDEN, "Forbidden: Host not allowed");
        }
        let origins_ok = request
            .headers()
            .get_all(header::ORIGIN)
            .iter()
            .all(|origin| allowed.origin(origin.as_bytes()));
        if !origins_ok {
            log!(Info, "a request with an Origin not allowed: 403");
            return plain(StatusCode::FORBIDDEN, "Forbidden: Origin not allowed");
        }
        if request.uri().path() != self.settings.path {
            return plain(StatusCode::NOT_FOUND, "Not Found");
        }
        let versions: Vec<&[u8]> = request
            .headers()
            .get_all("mcp-protocol-version")
            .iter()
            .map(HeaderValue::as_bytes)
            .collect();
        match versions[..] {
            [] => {}
            [version] => match std::str::from_utf8(version) {
                Ok(version) if era::MODERN_VERSIONS.contains(&version) => {
                    return self.stateless(request).await;
                }
                Ok(version) if era::LEGACY_VERSIONS.contains(&version) => {}
                _ => {
                    let requested = String::from_utf8_lossy(version).into_owned();
                    return stateless::unsupported_version(None, &requested);
                }
            },
            _ => {
                return rpc_error(
                    StatusCode::BAD_REQUEST,
                    stateless::HEADER_MISMATCH,
                    "Header mismatch: MCP-Protocol-Version appears more than once",
                )
            }
        }
        match *request.method() {
            Method::POST => self.post(request).await,
            Method::GET => self.get(&request),
            Method::DELETE => self.delete(&request),
            _ => {
                let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
                response
                    .headers_mut()
                    .insert(header::ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
                response
            }
        }
    }

    /// The session a request names: `Err` is the answer when it names none or an unknown one.
    fn session_of(&self, request: &Request<Incoming>) -> Result<Arc<Session>, Box<Reply>> {
        let Some(id) = request.headers().get("mcp-session-id") else {
            return Err(Box::new(rpc_error(
                StatusCode::BAD_REQUEST,
                -32600,
                "Bad Request: no Mcp-Session-Id",
            )));
        };
        let found = id
            .to_str()
            .ok()
            .and_then(|id| lock(&self.sessions).get(id).cloned());
        found.ok_or_else(|| {
            Box::new(rpc_error(
                StatusCode::NOT_FOUND,
                -32001,
                "Session not found",
            ))
        })
    }

    /// A POST's body, once its `Accept` and `Content-Type` are checked and it fits
    /// `--max-body`; `Err` is the answer otherwise.
    async fn body_of(&self, request: Request<Incoming>) -> Result<Bytes, Box<Reply>> {
        if !(accepts(&request, "application/json") && accepts(&request, "text/event-stream")) {
            return Err(Box::new(rpc_error(
                StatusCode::NOT_ACCEPTABLE,
                -32600,
                "Not Acceptable: the client must accept application/json and text/event-stream",
            )));
        }
        let json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.trim_start()
                    .to_ascii_lowercase()
                    .starts_with("application/json")
            });
        if !json {
            return Err(Box::new(rpc_error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                -32600,
                "Unsupported Media Type: the body must be application/json",
            )));
        }
        let body = Limited::new(request.into_body(), self.settings.max_body).collect();
        let Ok(body) = tokio::time::timeout(self.settings.read_timeout, body).await else {
            log!(Info, "a request body took longer than --read-timeout: 408");
            return Err(Box::new(plain(
                StatusCode::REQUEST_TIMEOUT,
                "Request Timeout: the body took too long",
            )));
        };
        match body {
            Ok(body) => Ok(body.to_bytes()),
            Err(error)
                if error
                    .downcast_ref::<http_body_util::LengthLimitError>()
                    .is_some() =>
            {
                Err(Box::new(rpc_error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    -32600,
                    "Payload Too Large",
                )))
            }
            Err(_) => Err(Box::new(plain(
                StatusCode::BAD_REQUEST,
                "the body could not be read",
            ))),
        }
    }

    async fn post(&self, request: Request<Incoming>) -> Reply {
        let named = request
            .headers()
            .get("mcp-session-id")
            .map(|_| self.session_of(&request));
        let authorization = request.headers().get(header::AUTHORIZATION).cloned();
        let body = match self.body_of(request).await {
            Ok(body) => body,
            Err(reply) => return *reply,
        };
        // Read as it came: a body that is not JSON (a raw line feed inside a string, say) is a
        // parse error, never made into JSON by the line it becomes.
        let parsed = message::parse_client(message::trim_end(&body));
        if matches!(parsed, Message::Malformed) {
            return rpc_error(StatusCode::BAD_REQUEST, -32700, "Parse error");
        }
        let line = sse::one_line(&body);
        let initialize =
            matches!(&parsed, Message::Request { method, .. } if method == "initialize");
        let asked = session::asked(message::trim_end(&line), &parsed);
        let (session, new) = match (named, initialize) {
            (Some(Ok(session)), _) => (session, false),
            (Some(Err(reply)), _) => return *reply,
            (None, true) => match self.open() {
                Ok(session) => (session, true),
                Err(reply) => return *reply,
            },
            (None, false) => {
                return rpc_error(
                    StatusCode::BAD_REQUEST,
                    -32600,
                    "Bad Request: no Mcp-Session-Id",
                )
            }
        };
        session.authorization(authorization.as_ref());
        match session.post(line, asked) {
            Some(stream) => events(stream, new.then_some(session.id.as_str())),
            None => {
                let mut response = Response::new(Full::new(Bytes::new()).boxed());
                *response.status_mut() = StatusCode::ACCEPTED;
                response
            }
        }
    }

    /// A new session for an `initialize`.
    fn open(&self) -> Result<Arc<Session>, Box<Reply>> {
        if lock(&self.sessions).len() >= self.settings.max_sessions {
            return Err(Box::new(plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service Unavailable: too many sessions",
            )));
        }
        let id = session_id();
        let sessions = Arc::downgrade(&self.sessions);
        let key = id.clone();
        let started = Session::start(
            id.clone(),
            &self.backend,
            self.options.clone(),
            false,
            move || {
                if let Some(sessions) = sessions.upgrade() {
                    lock(&sessions).remove(&key);
                }
            },
        );
        match started {
            Ok(session) => {
                log!(Info, "session {id} starts");
                lock(&self.sessions).insert(id, session.clone());
                Ok(session)
            }
            Err(error) => {
                log!(Error, "cannot start the server: {error}");
                Err(Box::new(rpc_error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    -32603,
                    "stitch-proxy: the MCP server could not be started",
                )))
            }
        }
    }

    fn get(&self, request: &Request<Incoming>) -> Reply {
        if !accepts(request, "text/event-stream") {
            return rpc_error(
                StatusCode::NOT_ACCEPTABLE,
                -32600,
                "Not Acceptable: the client must accept text/event-stream",
            );
        }
        let session = match self.session_of(request) {
            Ok(session) => session,
            Err(reply) => return *reply,
        };
        match session.listen() {
            Some(stream) => events(stream, None),
            None => rpc_error(
                StatusCode::CONFLICT,
                -32600,
                "Conflict: a GET stream is open for this session already",
            ),
        }
    }

    fn delete(&self, request: &Request<Incoming>) -> Reply {
        let session = match self.session_of(request) {
            Ok(session) => session,
            Err(reply) => return *reply,
        };
        lock(&self.sessions).remove(&session.id);
        session.end();
        plain(StatusCode::OK, "session ended")
    }
}

/// A session id: 128 random bits (the OS's), in hex.
fn session_id() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if random.is_err() {
        use std::hash::{BuildHasher, Hasher};
        for chunk in bytes.chunks_mut(8) {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            chunk.copy_from_slice(&hasher.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Binds `address`.
pub async fn bind(address: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(address).await
}
