//! The routing between the client (the proxy's standard input and output) and the server (a
//! child process's pipes).
//!
//! The reader threads (`pipes`) decide, under one lock ([`State`]), what each line becomes,
//! and queue the outcome on the writers' channels while still holding it, so the order of
//! every queue is the order of the decisions.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::mpsc::Sender;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::check::Verdict;
use crate::era::{self, Era};
use crate::log::log;
use crate::message::{self, Call, Id, Message};
use crate::tools::{Listing, Tool, Tools};

/// The JSON-RPC error code of the answers the proxy gives for the server (`-32000`, the start
/// of the implementation-defined server errors): the server exited before answering.
pub const SERVER_GONE: i64 = -32000;
/// JSON-RPC's parse error: a line from the client that is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// At most this many pages of the proxy's own `tools/list` are read (a server that hands out
/// cursors forever is not followed forever).
const MAX_PAGES: usize = 1000;

/// What the command line asks of the routing.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// `--refuse-invalid`: refuse every call the schema rejects, not only what stitch's rules
    /// refuse.
    pub refuse_invalid: bool,
    /// `--list-timeout`: how long calls wait for the proxy's own `tools/list` before they go
    /// on unchecked.
    pub list_timeout: Duration,
    /// `--max-message`: the largest message read from any peer ([`crate::limits`]).
    pub max_message: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            refuse_invalid: false,
            list_timeout: Duration::from_secs(10),
            max_message: crate::limits::DEFAULT_MAX_MESSAGE,
        }
    }
}

/// What a writer thread receives.
pub enum Out {
    /// One line, line ending included.
    Line(Vec<u8>),
    /// No more lines: close the pipe (the server's standard input) or flush and stop.
    End,
}

/// A client line held back until the tool schemas are known, or the end of the client's input.
enum Held {
    Line(Vec<u8>),
    /// A line too long to read, answered with a parse error in its turn.
    TooLong,
    End,
}

/// A client request forwarded to the server and not answered yet.
struct Pending {
    /// The order in which the client sent it.
    seq: u64,
    id: Id,
    /// `Some(asked_for_a_later_page)` for a `tools/list`, whose result the proxy learns from.
    list: Option<bool>,
}

/// Everything the two readers share.
#[derive(Default)]
struct State {
    tools: Tools,
    /// A full list of the tools is known: none yet, or one made stale by
    /// `notifications/tools/list_changed`, makes a call wait for the proxy's own listing.
    known: bool,
    listing: Option<Listing>,
    /// How many listings the proxy started: the generation of the current one.
    listings: u64,
    /// Keys of the proxy's own requests not answered yet (the current listing's and stale
    /// ones): their answers are swallowed.
    own: HashSet<String>,
    next_own: u64,
    /// Client lines waiting, in order, behind a call that waits for the schemas. While it is
    /// not empty every client line but a response joins it.
    held: VecDeque<Held>,
    /// The era of the latest client request: a listing the server starts
    /// (`notifications/tools/list_changed`) is asked for in it.
    era: Era,
    /// By id key: requests the client may have sent with the same id, each answered.
    pending: HashMap<String, VecDeque<Pending>>,
    next_seq: u64,
    server_gone: bool,
}

impl State {
    /// Notes a client request forwarded to the server.
    fn add_pending(&mut self, id: Id, list: Option<bool>) {
        self.next_seq += 1;
        let seq = self.next_seq;
        self.pending
            .entry(id.key.clone())
            .or_default()
            .push_back(Pending { seq, id, list });
    }

    /// The oldest pending request with id `key`, taken out (a response answers it).
    fn take_pending(&mut self, key: &str) -> Option<Pending> {
        let queue = self.pending.get_mut(key)?;
        let pending = queue.pop_front();
        if queue.is_empty() {
            self.pending.remove(key);
        }
        pending
    }
}

/// The routing, shared by the reader threads.
pub struct Proxy {
    state: Mutex<State>,
    to_server: Sender<Out>,
    to_client: Sender<Out>,
    /// The prefix of the proxy's own request ids: `stitch-proxy-<nonce>-`.
    own_prefix: String,
    options: Options,
    /// Where a new listing's deadline goes (the timer thread of `pipes`).
    timer: Option<Sender<(Instant, u64)>>,
}

impl Proxy {
    pub fn new(
        to_server: Sender<Out>,
        to_client: Sender<Out>,
        options: Options,
        timer: Option<Sender<(Instant, u64)>>,
    ) -> Proxy {
        let state = State {
            tools: Tools {
                refuse_invalid: options.refuse_invalid,
                ..Tools::default()
            },
            ..State::default()
        };
        Proxy {
            state: Mutex::new(state),
            to_server,
            to_client,
            own_prefix: format!("stitch-proxy-{:016x}-", nonce()),
            options,
            timer,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere must not stop the traffic: the state stays usable.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn to_server(&self, line: Vec<u8>) {
        // A send fails only once the writer has stopped; the line has nowhere to go then.
        let _ = self.to_server.send(Out::Line(one_line(line)));
    }

    fn to_client(&self, line: Vec<u8>) {
        let _ = self.to_client.send(Out::Line(one_line(line)));
    }

    /// An id for a request the proxy makes outside the routing (`--upstream`'s repeated
    /// `initialize`): the prefix no client picks, then `what`.
    pub fn own_id(&self, what: &str) -> Id {
        Id::own(&format!("{}{what}", self.own_prefix))
    }

    /// The `x-mcp-header` parameters of `tool`, as the server listed it last.
    pub fn header_params(&self, tool: &str) -> Vec<crate::headers::Param> {
        self.lock()
            .tools
            .by_name
            .get(tool)
            .map(|tool| tool.params.clone())
            .unwrap_or_default()
    }

    /// One line from the client.
    pub fn client_sent(&self, line: Vec<u8>) {
        let body = message::trim_end(&line);
        if message::is_blank(body) {
            return;
        }
        // Parsed before taking the lock, which the server's side shares.
        let message = message::parse_client(body);
        let mut state = self.lock();
        self.route_client(&mut state, line, message);
    }

    /// A line from the client longer than `--max-message`, dropped unread: answered with a
    /// parse error (its id is not known), in its place among the client's lines.
    pub fn client_sent_too_long(&self) {
        let mut state = self.lock();
        if !state.held.is_empty() {
            state.held.push_back(Held::TooLong);
            return;
        }
        self.to_client(message::error_line(
            None,
            PARSE_ERROR,
            "Parse error: the message is longer than the proxy reads (--max-message)",
        ));
    }

    /// The client closed its side: the server's input is closed after whatever is held.
    pub fn client_closed(&self) {
        let mut state = self.lock();
        if state.held.is_empty() {
            let _ = self.to_server.send(Out::End);
        } else {
            state.held.push_back(Held::End);
        }
    }

    /// A client line, parsed again (a held one).
    fn client_line(&self, state: &mut State, line: Vec<u8>) {
        let message = message::parse_client(message::trim_end(&line));
        self.route_client(state, line, message);
    }

    /// Decides what a client line becomes: held, forwarded (repaired or as it came), or
    /// answered by the proxy.
    fn route_client(&self, state: &mut State, line: Vec<u8>, message: Message) {
        // Answers to the server's own requests (sampling, elicitation) cannot depend on a
        // held call, and the server may be waiting for them: they never wait.
        if !state.held.is_empty() && !matches!(message, Message::Response { .. }) {
            state.held.push_back(Held::Line(line));
            return;
        }
        if state.server_gone {
            if let Message::Request { id, .. } = message {
                self.to_client(message::error_line(Some(&id), SERVER_GONE, GONE));
            }
            return;
        }
        if let Message::Request { version, .. } = &message {
            state.era = Era::of(version.as_deref());
        }
        match message {
            Message::Request {
                id,
                call: Some(call),
                ..
            } => {
                if state.known {
                    self.call(state, line, id, call);
                } else {
                    log!(Debug, "call {} waits for the tool list", id.raw);
                    state.held.push_back(Held::Line(line));
                    if state.listing.is_none() {
                        self.start_listing(state, None);
                    }
                }
            }
            Message::Request {
                id, method, cursor, ..
            } => {
                log!(Debug, "client request {} {method}", id.raw);
                let list = (method == "tools/list").then_some(cursor);
                state.add_pending(id, list);
                self.to_server(line);
            }
            Message::Notification { method, cancelled } => {
                log!(Debug, "client notification {method}");
                if let Some(cancelled) = cancelled {
                    // The server need not answer a cancelled request.
                    state.take_pending(&cancelled.key);
                }
                self.to_server(line);
            }
            Message::Batch(items) => {
                log!(
                    Debug,
                    "client batch of {} requests and responses",
                    items.len()
                );
                for item in items {
                    if let Message::Request { id, method, .. } = item {
                        if method == "tools/call" {
                            log!(Warn, "a tools/call inside a batch is forwarded unchecked");
                        }
                        let list = (method == "tools/list").then_some(false);
                        state.add_pending(id, list);
                    }
                }
                self.to_server(line);
            }
            Message::Response { .. } | Message::Other => self.to_server(line),
            Message::Malformed => {
                log!(
                    Warn,
                    "a line from the client is not JSON: answered with a parse error"
                );
                self.to_client(message::error_line(None, PARSE_ERROR, "Parse error"));
            }
        }
    }

    /// A `tools/call` while the schemas are known: refused, repaired or forwarded as it came.
    fn call(&self, state: &mut State, line: Vec<u8>, id: Id, call: Call) {
        let body = message::trim_end(&line);
        let check = state.tools.by_name.get(&call.name);
        let verdict = match (check, &call.arguments, std::str::from_utf8(body)) {
            // Absent or null `arguments` (no arguments) and unknown tools are the server's
            // to judge.
            (
                Some(Tool {
                    check: Some(check), ..
                }),
                Some(arguments),
                Ok(text),
            ) if !matches!(arguments.kind, crate::raw::Kind::Null) => check.run(text, arguments),
            _ => Verdict::Clean,
        };
        match verdict {
            Verdict::Clean => {
                log!(
                    Debug,
                    "call {} to {} forwarded as it came",
                    id.raw,
                    call.name
                );
                state.add_pending(id, None);
                self.to_server(line);
            }
            Verdict::Repaired { arguments, paths } => {
                log!(
                    Info,
                    "call {} to {} repaired: {}",
                    id.raw,
                    call.name,
                    paths_of(&paths)
                );
                let range = call.arguments.map(|node| node.span).unwrap_or_default();
                let line = message::splice(body, range, &arguments);
                state.add_pending(id, None);
                self.to_server(line);
            }
            Verdict::Refused { messages, paths } => {
                log!(
                    Info,
                    "call {} to {} refused: {}",
                    id.raw,
                    call.name,
                    paths_of(&paths)
                );
                self.to_client(era::refusal_line(&id, &messages, &state.era));
            }
        }
    }

    /// Asks the server for a page of its tools, with an id of the proxy's own.
    fn start_listing(&self, state: &mut State, cursor: Option<&str>) {
        state.next_own += 1;
        let id = Id::own(&format!("{}{}", self.own_prefix, state.next_own));
        state.own.insert(id.key.clone());
        let era = match &state.listing {
            Some(listing) => listing.era.clone(),
            None => state.era.clone(),
        };
        log!(
            Debug,
            "asking the server for its tools ({}, {})",
            id.raw,
            era.name()
        );
        self.to_server(era::list_request(&id, cursor, &era));
        match &mut state.listing {
            Some(listing) => listing.id = id,
            None => {
                state.listings += 1;
                let generation = state.listings;
                state.listing = Some(Listing {
                    id,
                    tools: Vec::new(),
                    pages: 0,
                    generation,
                    era,
                });
                if let Some(timer) = &self.timer {
                    let _ = timer.send((Instant::now() + self.options.list_timeout, generation));
                }
            }
        }
    }

    /// The listing `generation`'s time is up: if it is still the one calls wait for, the held
    /// calls go on unchecked (the server answers them), and so do later calls until a list
    /// comes. A list that comes later is still learnt.
    pub fn list_timed_out(&self, generation: u64) {
        let mut state = self.lock();
        let waiting = state
            .listing
            .as_ref()
            .is_some_and(|listing| listing.generation == generation);
        if !waiting || state.known || state.server_gone {
            return;
        }
        log!(
            Warn,
            "the server did not list its tools within {} s: {} held line(s) and later calls go on unchecked until it does",
            self.options.list_timeout.as_secs_f64(),
            state.held.len()
        );
        state.known = true;
        self.release(&mut state);
    }

    /// One line from the server.
    pub fn server_sent(&self, line: Vec<u8>) {
        let body = message::trim_end(&line);
        if message::is_blank(body) {
            return;
        }
        let message = message::parse(body);
        let mut state = self.lock();
        match message {
            Message::Response { id, error } => {
                if state.own.remove(&id.key) {
                    self.own_response(&mut state, &id, error, body);
                    return;
                }
                if let Some(pending) = state.take_pending(&id.key) {
                    if let (Some(later_page), false) = (pending.list, error) {
                        if let Some(page) = message::list_page(body) {
                            self.learn_client_page(&mut state, page, later_page);
                        }
                    }
                    log!(Debug, "server answer to {}", pending.id.raw);
                } else {
                    log!(Debug, "server answer to {} (not pending)", id.raw);
                }
                self.to_client(line);
            }
            Message::Notification { method, .. } => {
                log!(Debug, "server notification {method}");
                self.to_client(line);
                if method == "notifications/tools/list_changed" {
                    // Calls wait for the new list; an older listing's answers are ignored.
                    state.known = false;
                    state.listing = None;
                    self.start_listing(&mut state, None);
                }
            }
            Message::Batch(items) => {
                let mut lists = Vec::new();
                for item in items {
                    if let Message::Response { id, error } = item {
                        if let Some(pending) = state.take_pending(&id.key) {
                            if let (Some(later_page), false) = (pending.list, error) {
                                lists.push((id.key, later_page));
                            }
                        }
                    }
                }
                if !lists.is_empty() {
                    for (id, page) in message::batch_list_pages(body) {
                        if let Some((_, later_page)) = lists.iter().find(|(key, _)| *key == id.key)
                        {
                            self.learn_client_page(&mut state, page, *later_page);
                        }
                    }
                }
                self.to_client(line);
            }
            Message::Request { id, method, .. } => {
                log!(Debug, "server request {} {method}", id.raw);
                self.to_client(line);
            }
            Message::Other => self.to_client(line),
            Message::Malformed => {
                log!(
                    Warn,
                    "a line from the server is not JSON: forwarded as it came"
                );
                self.to_client(line);
            }
        }
    }

    /// The answer to one of the proxy's own `tools/list` requests (never forwarded).
    fn own_response(&self, state: &mut State, id: &Id, error: bool, body: &[u8]) {
        let current = state
            .listing
            .as_ref()
            .is_some_and(|listing| listing.id.key == id.key);
        if !current {
            log!(Debug, "stale tool list {} ignored", id.raw);
            return;
        }
        let page = if error {
            None
        } else {
            message::list_page(body)
        };
        let Some(page) = page else {
            log!(
                Warn,
                "the server did not list its tools ({}): calls pass unchecked until the next list",
                String::from_utf8_lossy(body)
            );
            state.listing = None;
            state.known = true;
            self.release(state);
            return;
        };
        let listing = state.listing.as_mut().expect("checked above");
        listing.tools.extend(page.tools);
        listing.pages += 1;
        match page.next_cursor {
            Some(cursor) if !cursor.is_empty() && listing.pages < MAX_PAGES => {
                self.start_listing(state, Some(&cursor));
            }
            _ => {
                let listing = state.listing.take().expect("checked above");
                log!(
                    Info,
                    "{} tools learnt from {} page(s)",
                    listing.tools.len(),
                    listing.pages
                );
                state.tools.replace(listing.tools);
                state.known = true;
                self.release(state);
            }
        }
    }

    /// Runs the held client lines now that the schemas are known (or cannot be).
    fn release(&self, state: &mut State) {
        let held = std::mem::take(&mut state.held);
        for item in held {
            match item {
                Held::Line(line) => self.client_line(state, line),
                Held::TooLong => self.to_client(message::error_line(
                    None,
                    PARSE_ERROR,
                    "Parse error: the message is longer than the proxy reads (--max-message)",
                )),
                Held::End => {
                    let _ = self.to_server.send(Out::End);
                }
            }
        }
    }

    /// The server's output ended: every request it did not answer gets an error answer.
    pub fn server_closed(&self) {
        let mut state = self.lock();
        state.server_gone = true;
        let pending = std::mem::take(&mut state.pending);
        let held = std::mem::take(&mut state.held);
        state.listing = None;
        let mut answered = 0;
        let mut waiting: Vec<Pending> = pending.into_values().flatten().collect();
        // In the order the client sent them.
        waiting.sort_by_key(|pending| pending.seq);
        for pending in waiting {
            self.to_client(message::error_line(Some(&pending.id), SERVER_GONE, GONE));
            answered += 1;
        }
        for item in held {
            let Held::Line(line) = item else { continue };
            let requests = match message::parse_client(message::trim_end(&line)) {
                Message::Batch(items) => items,
                message => vec![message],
            };
            for request in requests {
                if let Message::Request { id, .. } = request {
                    self.to_client(message::error_line(Some(&id), SERVER_GONE, GONE));
                    answered += 1;
                }
            }
        }
        if answered > 0 {
            log!(
                Warn,
                "the server's output ended with {answered} request(s) unanswered: each got an error"
            );
        }
    }
}

impl Proxy {
    /// Learns from a `tools/list` page the client asked for.
    fn learn_client_page(&self, state: &mut State, page: message::ListPage, later_page: bool) {
        if state.tools.learn_client_page(page, later_page) && state.listing.is_none() {
            state.known = true;
        }
    }
}

/// A line as it goes out: ended by one `\n`, and holding no carriage return another reader
/// could take for a line end (a CRLF ending becomes `\n`; a raw CR inside, which valid JSON
/// holds only as white space, becomes a space).
fn one_line(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if memchr::memchr(b'\r', &line).is_some() {
        for byte in line.iter_mut().filter(|b| **b == b'\r') {
            *byte = b' ';
        }
    }
    line.push(b'\n');
    line
}

/// The positions of a verdict, for the log: paths only, never values.
fn paths_of(paths: &[String]) -> String {
    let named: Vec<&str> = paths
        .iter()
        .map(|p| if p.is_empty() { "the arguments" } else { p })
        .collect();
    named.join(", ")
}

/// The message of the error a request gets when the server is gone.
const GONE: &str = "stitch-proxy: the MCP server exited before answering";

/// A number that differs between runs, for the proxy's own request ids.
fn nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    // std's RandomState is seeded from the OS; the time and the pid add to it.
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(now.as_nanos());
    }
    hasher.finish()
}

#[cfg(test)]
#[path = "proxy_tests.rs"]
mod tests;
