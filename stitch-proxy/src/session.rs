//! One MCP session of `--listen`: its own routing ([`Proxy`]) in front of its own server — a
//! child process started for it, or a session with the `--upstream` server — and the HTTP
//! streams its messages go out on. A response goes on the stream of the POST that carried its
//! request; a progress notification on the stream of the request that asked for it; anything
//! else the server sends on the oldest POST stream still open, else the GET stream, else it
//! waits (a bounded backlog) for the next GET stream.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::Notify;

use crate::event_stream::{self, Events, Unsent};
use crate::log::log;
use crate::message::{self, Id, Message};
use crate::pipes::{self, Side};
use crate::proxy::{queue, Options, Out, Proxy, Writes};
use crate::remap::Remap;
use crate::sse;
use crate::upstream::Upstream;
use crate::upstream_client::{Config, HttpClient};

/// How many messages wait for a GET stream at most; older ones are dropped beyond.
const BACKLOG: usize = 1000;
/// How long a child may take to exit once its input is closed before it is killed.
const GRACE: Duration = Duration::from_secs(3);

/// What serves a session.
#[derive(Clone)]
pub enum Backend {
    /// A child process per session: the command and its arguments.
    Command(Arc<Vec<String>>),
    /// The `--upstream` server: one session there per session here.
    Upstream(HttpClient, Arc<Config>),
}

/// A request of a POST: its id and the progress token it asked for, if any.
pub struct Asked {
    pub id: Id,
    pub token: Option<String>,
}

/// A POST stream waiting for its answers.
struct Stream {
    tx: event_stream::Sender,
    waiting: usize,
    tokens: Vec<String>,
}

/// Where the server's messages go.
#[derive(Default)]
struct Router {
    /// The open POST streams, oldest first.
    streams: BTreeMap<u64, Stream>,
    next: u64,
    by_id: HashMap<String, VecDeque<u64>>,
    by_token: HashMap<String, u64>,
    get: Option<event_stream::Sender>,
    backlog: VecDeque<Bytes>,
    ended: bool,
}

/// One session.
pub struct Session {
    pub id: String,
    proxy: Arc<Proxy>,
    router: Mutex<Router>,
    upstream: Option<Arc<Upstream>>,
    /// A child server's kill switch, pulled [`GRACE`] after its input is closed.
    kill: Option<Arc<Notify>>,
    last_active: Mutex<Instant>,
    ending: AtomicBool,
    /// The modern era's shared session: requests of many clients, their ids made unique.
    remap: Option<Mutex<Remap>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Session {
    /// Starts a session and its server; `on_end` runs once the server side has ended.
    /// `shared`: the modern era's session, serving the requests of every client.
    pub fn start(
        id: String,
        backend: &Backend,
        options: Options,
        shared: bool,
        on_end: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<Arc<Session>> {
        let (to_server, server_queue) = queue();
        let (to_client, mut client_queue) = queue();
        let proxy = Proxy::new(options, to_server, to_client);
        if !shared {
            proxy.set_session(id.clone());
        }
        let (kill, upstream) = match backend {
            Backend::Command(command) => (Some(start_child(command, &proxy, server_queue)?), None),
            Backend::Upstream(client, config) => {
                let upstream = Upstream::new(client.clone(), config.clone(), proxy.clone());
                let run = upstream.clone().run(server_queue);
                let ended = proxy.clone();
                tokio::spawn(async move {
                    run.await;
                    ended.end_client();
                });
                (None, Some(upstream))
            }
        };
        let session = Arc::new(Session {
            id,
            proxy,
            router: Mutex::new(Router::default()),
            upstream,
            kill,
            last_active: Mutex::new(Instant::now()),
            ending: AtomicBool::new(false),
            remap: shared.then(Mutex::default),
        });
        let routed = session.clone();
        tokio::spawn(async move {
            while let Some(Out::Line(line)) = client_queue.recv().await {
                client_queue.written(line.len());
                routed.route(line);
            }
            routed.ended();
            on_end();
        });
        Ok(session)
    }

    /// The `Authorization` the client sent, for the upstream server.
    pub fn authorization(&self, value: Option<&hyper::header::HeaderValue>) {
        if let (Some(upstream), Some(value)) = (&self.upstream, value) {
            let mut value = value.clone();
            value.set_sensitive(true);
            *lock(&upstream.authorization) = Some(value);
        }
    }

    /// Whether the session has ended, or its server has.
    pub fn has_ended(&self) -> bool {
        self.ending.load(Ordering::SeqCst) || lock(&self.router).ended
    }

    /// The `x-mcp-header` parameters of `tool`, as the session's server listed it.
    pub fn header_params(&self, tool: &str) -> Vec<crate::headers::Param> {
        self.proxy.header_params(tool)
    }

    pub fn touch(&self) {
        *lock(&self.last_active) = Instant::now();
    }

    /// Whether the session has had no open stream and no request for `idle` (checked at
    /// least every `idle / 4`: a stream seen open counts as activity; one whose client has
    /// gone does not).
    pub fn idle_for(&self, idle: Duration) -> bool {
        let router = lock(&self.router);
        let open = router.streams.values().any(|stream| !stream.tx.is_closed())
            || router.get.as_ref().is_some_and(|get| !get.is_closed());
        drop(router);
        if open {
            self.touch();
            return false;
        }
        lock(&self.last_active).elapsed() >= idle
    }

    /// A POST's message (one line) from the client. With requests in it, the stream their
    /// answers go out on; without, `None` (the POST is answered 202).
    pub fn post(&self, mut line: Vec<u8>, mut asked: Vec<Asked>) -> Option<Events> {
        self.touch();
        if let (Some(remap), [one]) = (&self.remap, &mut asked[..]) {
            let body = message::trim_end(&line);
            if let Some((changed, id, token)) =
                lock(remap).request(body, &one.id, one.token.as_deref())
            {
                line = changed;
                *one = Asked { id, token };
            }
        }
        let mut stream = None;
        if !asked.is_empty() {
            let (tx, rx) = event_stream::channel();
            let mut router = lock(&self.router);
            if router.ended {
                drop(router);
                // The routing answers each request with an error.
                self.proxy.client_sent(line);
                return Some(rx);
            }
            router.next += 1;
            let at = router.next;
            let mut tokens = Vec::new();
            for asked in &asked {
                router
                    .by_id
                    .entry(asked.id.key.clone())
                    .or_default()
                    .push_back(at);
                if let Some(token) = &asked.token {
                    router.by_token.insert(token.clone(), at);
                    tokens.push(token.clone());
                }
            }
            router.streams.insert(
                at,
                Stream {
                    tx,
                    waiting: asked.len(),
                    tokens,
                },
            );
            stream = Some(rx);
        }
        self.proxy.client_sent(line);
        stream
    }

    /// A GET stream: `None` when one is open already.
    pub fn listen(&self) -> Option<Events> {
        self.touch();
        let mut router = lock(&self.router);
        if router.get.as_ref().is_some_and(|get| !get.is_closed()) {
            return None;
        }
        let (tx, rx) = event_stream::channel();
        if router.ended {
            return Some(rx);
        }
        while let Some(event) = router.backlog.pop_front() {
            let _ = tx.send(event);
        }
        router.get = Some(tx);
        Some(rx)
    }

    /// Ends the session: the server's input is closed (a child that does not exit within
    /// [`GRACE`] is killed; an upstream session gets its `DELETE`).
    pub fn end(&self) {
        if self.ending.swap(true, Ordering::SeqCst) {
            return;
        }
        log!(Info, "session {} ends", self.id);
        self.proxy.client_closed();
        if let Some(kill) = self.kill.clone() {
            tokio::spawn(async move {
                tokio::time::sleep(GRACE).await;
                kill.notify_one();
            });
        }
    }

    /// The routing has nothing more to send: every stream ends.
    fn ended(&self) {
        let mut router = lock(&self.router);
        router.ended = true;
        router.streams.clear();
        router.by_id.clear();
        router.by_token.clear();
        router.get = None;
    }

    /// One message from the routing to the clients of the shared modern session: an answer
    /// or a progress notification with the client's own id or token back, on its request's
    /// stream; a notification that names no request only while a single request is open (a
    /// log line of one client's call must not reach another client); nothing else (a modern
    /// server sends no requests).
    fn route_shared(&self, remap: &Mutex<Remap>, line: &[u8]) {
        let body = message::trim_end(line);
        let mut router = lock(&self.router);
        let (at, line) = match message::parse(body) {
            Message::Response { id, .. } => {
                let at = router.answer(&id);
                (at, lock(remap).response(body, &id))
            }
            Message::Notification { .. } => match progress_token(body) {
                Some(token) => (
                    router.by_token.get(&token).copied(),
                    lock(remap).progress(body, &token),
                ),
                None if body.windows(14).any(|w| w == b"subscriptionId") => {
                    match lock(remap).subscription(body) {
                        // The stream of the listen request, which waits for its answer.
                        Some((own, line)) => (router.waiting_on(&own), Some(line)),
                        None => (None, None),
                    }
                }
                None => {
                    let mut open = router.streams.iter().filter(|(_, s)| !s.tx.is_closed());
                    match (open.next(), open.next()) {
                        (Some((&at, _)), None) => (Some(at), Some(body.to_vec())),
                        _ => (None, None),
                    }
                }
            },
            _ => (None, None),
        };
        match (at, line) {
            (Some(at), Some(line)) => {
                router.send(at, Bytes::from(sse::message_event(&line, None)));
            }
            _ => log!(
                Debug,
                "a message of the shared session that no open request can take: dropped"
            ),
        }
    }

    /// One message from the routing to the client.
    fn route(&self, line: Vec<u8>) {
        if let Some(remap) = &self.remap {
            return self.route_shared(remap, &line);
        }
        let body = message::trim_end(&line);
        let event = Bytes::from(sse::message_event(body, None));
        let mut router = lock(&self.router);
        match message::parse(body) {
            Message::Response { id, .. } => {
                let Some(at) = router.answer(&id) else {
                    log!(
                        Debug,
                        "an answer to {} with no stream open: dropped",
                        id.raw
                    );
                    return;
                };
                router.send(at, event);
            }
            Message::Batch(items) => {
                let mut first = None;
                for item in items {
                    if let Message::Response { id, .. } = item {
                        let at = router.answer(&id);
                        first = first.or(at);
                    }
                }
                match first {
                    Some(at) => router.send(at, event),
                    None => router.elsewhere(event),
                }
            }
            Message::Notification { .. } => {
                let stream = progress_token(body).and_then(|t| router.by_token.get(&t).copied());
                match stream {
                    Some(at) if router.streams.contains_key(&at) => router.send(at, event),
                    _ => router.elsewhere(event),
                }
            }
            _ => router.elsewhere(event),
        }
    }
}

impl Router {
    /// The stream a request `id` still waits on (nothing is taken: its answer is to come).
    fn waiting_on(&self, id: &Id) -> Option<u64> {
        self.by_id.get(&id.key)?.front().copied()
    }

    /// The stream an answer to `id` goes on (it then waits for one answer fewer).
    fn answer(&mut self, id: &Id) -> Option<u64> {
        let queue = self.by_id.get_mut(&id.key)?;
        let at = queue.pop_front();
        if queue.is_empty() {
            self.by_id.remove(&id.key);
        }
        let at = at?;
        let stream = self.streams.get_mut(&at)?;
        stream.waiting = stream.waiting.saturating_sub(1);
        Some(at)
    }

    /// Sends on POST stream `at`, then closes it if it has all its answers.
    fn send(&mut self, at: u64, event: Bytes) {
        let Some(stream) = self.streams.get(&at) else {
            return;
        };
        let gone = match stream.tx.send(event) {
            Ok(()) => false,
            Err(Unsent::Gone(_)) => {
                log!(Debug, "the client left a stream: its answers are dropped");
                true
            }
            Err(Unsent::Full) => {
                log!(
                    Warn,
                    "a client does not read its stream ({} bytes unread): the stream is closed",
                    event_stream::LIMIT
                );
                true
            }
        };
        if gone || stream.waiting == 0 {
            if let Some(stream) = self.streams.remove(&at) {
                for token in stream.tokens {
                    self.by_token.remove(&token);
                }
            }
        }
    }

    /// A message that belongs to no request.
    fn elsewhere(&mut self, event: Bytes) {
        if let Some((&at, _)) = self.streams.iter().find(|(_, s)| !s.tx.is_closed()) {
            self.send(at, event);
            return;
        }
        if let Some(get) = &self.get {
            match get.send(event.clone()) {
                Ok(()) => return,
                Err(unsent) => {
                    if unsent == Unsent::Full {
                        log!(Warn, "a client does not read its GET stream: it is closed");
                    }
                    // Kept for the next GET stream.
                    self.get = None;
                    self.keep(event);
                    return;
                }
            }
        }
        self.keep(event);
    }

    fn keep(&mut self, event: Bytes) {
        if self.backlog.len() >= BACKLOG {
            self.backlog.pop_front();
            log!(
                Warn,
                "no GET stream for the server's messages: the oldest is dropped"
            );
        }
        self.backlog.push_back(event);
    }
}

/// The `params.progressToken` of a notification, as an id key.
fn progress_token(body: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Note<'a> {
        #[serde(borrow)]
        params: Option<Params<'a>>,
    }
    #[derive(Deserialize)]
    struct Params<'a> {
        #[serde(borrow, rename = "progressToken")]
        token: Option<&'a RawValue>,
    }
    let note: Note = serde_json::from_slice(body).ok()?;
    Some(Id::of_text(note.params?.token?.get()).key)
}

/// The requests of a POST body, with their progress tokens.
pub fn asked(body: &[u8], message: &Message) -> Vec<Asked> {
    #[derive(Deserialize)]
    struct Request<'a> {
        #[serde(borrow)]
        params: Option<Params<'a>>,
    }
    #[derive(Deserialize)]
    struct Params<'a> {
        #[serde(borrow, rename = "_meta")]
        meta: Option<Meta<'a>>,
    }
    #[derive(Deserialize)]
    struct Meta<'a> {
        #[serde(borrow, rename = "progressToken")]
        token: Option<&'a RawValue>,
    }
    let token_of = |request: Option<Request>| -> Option<String> {
        Some(Id::of_text(request?.params?.meta?.token?.get()).key)
    };
    let mentions = body.windows(13).any(|w| w == b"progressToken");
    match message {
        Message::Request { id, .. } => {
            let token = if mentions {
                token_of(serde_json::from_slice(body).ok())
            } else {
                None
            };
            vec![Asked {
                id: id.clone(),
                token,
            }]
        }
        // A batch's requests get no stream of their own for progress: it goes on the oldest
        // open stream.
        Message::Batch(items) => items
            .iter()
            .filter_map(|item| match item {
                Message::Request { id, .. } => Some(Asked {
                    id: id.clone(),
                    token: None,
                }),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Starts the child, its writer and its reader (tasks); the reader reaps it and ends the
/// routing. Returns its kill switch: pulled, a child still running is killed.
fn start_child(
    command: &[String],
    proxy: &Arc<Proxy>,
    server_queue: Writes,
) -> std::io::Result<Arc<Notify>> {
    let mut child = pipes::spawn_server(command)?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(std::io::Error::other("the server's pipes are missing"));
    };
    tokio::spawn(pipes::write_lines(stdin, server_queue, |error| {
        log!(Warn, "writing to the server failed: {error}");
    }));
    let kill = Arc::new(Notify::new());
    let pulled = kill.clone();
    let proxy = proxy.clone();
    tokio::spawn(async move {
        let reading = pipes::read_lines(stdout, Side::Server, &proxy);
        tokio::pin!(reading);
        tokio::select! {
            () = &mut reading => {}
            () = pulled.notified() => {
                log!(Info, "the server did not exit within {GRACE:?}: killed");
                let _ = child.start_kill();
                reading.await;
            }
        }
        proxy.server_closed();
        match tokio::time::timeout(GRACE, child.wait()).await {
            Ok(Ok(status)) => log!(Info, "the server exited: {status}"),
            Ok(Err(_)) => {}
            Err(_) => {
                log!(
                    Info,
                    "the server closed its output but did not exit: killed"
                );
                let _ = child.kill().await;
            }
        }
        proxy.end_client();
    });
    Ok(kill)
}
