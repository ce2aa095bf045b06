//! The routing's decisions, with no IO (sans-IO): a line in from either side, or the end of
//! one, or a timer's expiry, and the core says what goes where as [`Action`]s, in order. The
//! drivers (`proxy` for the queues, `pipes`, `session`, `upstream` for the IO) carry the
//! actions out; the core never waits, reads or writes.
//!
//! It decides for both eras of MCP (`era`): a request's era is read from the request.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use crate::era::Era;
use crate::log::log;
use crate::message::{self, Id, Message};
use crate::tools::{Compiled, Job, Listing, Tools};

pub use decide::Selection;

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
    /// `--report-only`: every call is forwarded as it came; the record says what the rule
    /// would have done.
    pub report_only: bool,
    /// `--check`, `--skip`: the tools whose calls are checked.
    pub tools: Selection,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            refuse_invalid: false,
            list_timeout: Duration::from_secs(10),
            max_message: crate::limits::DEFAULT_MAX_MESSAGE,
            report_only: false,
            tools: Selection::default(),
        }
    }
}

/// What the core asks of its driver.
#[derive(Debug, PartialEq)]
pub enum Action {
    /// Write this line (one, ended by `\n`) to the server.
    ToServer(Vec<u8>),
    /// Write this line to the client.
    ToClient(Vec<u8>),
    /// Write this record of a call's decision on standard error (made only when its level
    /// is logged).
    Record(Box<crate::record::Record>),
    /// Nothing more goes to the server: close its input (after what is queued).
    EndServer,
    /// At this instant, call [`Core::list_timed_out`] with this generation.
    Timer(Instant, u64),
    /// Run this job (it may take a while: not under the routing's lock) and hand its result
    /// to [`Core::compiled`].
    Compile(Job),
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

/// The routing's state: every decision about a message is made here, and what it means for
/// each side is an [`Action`] queued in `out`.
#[derive(Default)]
pub struct Core {
    options: Options,
    /// The prefix of the proxy's own request ids: `stitch-proxy-<nonce>-`.
    own_prefix: String,
    out: Vec<Action>,
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
    /// The compile jobs asked for and not put in place yet, by ticket, and the results that
    /// came before an earlier job's (`tools::Job`).
    jobs: Jobs,
    /// The `--listen` session this routing serves, named in its records.
    session: Option<String>,
    /// `--check` and `--skip` names were compared with a complete list (warned once).
    names_checked: bool,
}

/// The compile jobs in flight: results are put in place in the order the jobs were asked for.
#[derive(Default)]
struct Jobs {
    next: u64,
    /// What each job not put in place yet does then.
    waiting: std::collections::BTreeMap<u64, JobEnd>,
    /// Results early: an earlier job is still running.
    early: HashMap<u64, Compiled>,
}

/// What a compile job does once it is put in place.
struct JobEnd {
    /// Whether its tools replace what is known.
    replace: bool,
    /// `Some(generation)`: it is a complete list, learnt in listing generation `generation`;
    /// if no listing came after it, the tools are known (`Core::known`) from then on.
    completes: Option<u64>,
}

impl Core {
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

impl Core {
    /// Names the `--listen` session this routing serves, in its records.
    pub fn set_session(&mut self, session: String) {
        self.session = Some(session);
    }

    /// The routing's state for a server and its client(s).
    pub fn new(options: Options) -> Core {
        Core {
            own_prefix: format!("stitch-proxy-{:016x}-", nonce()),
            options,
            ..Core::default()
        }
    }

    /// What the core decided since the last call, in order.
    pub fn take_actions(&mut self) -> Vec<Action> {
        std::mem::take(&mut self.out)
    }

    /// What the core decided since the last call, with every compile job run here and now
    /// (for tests and fuzzing, where nothing else waits).
    pub fn take_actions_compiled(&mut self) -> Vec<Action> {
        let mut done = Vec::new();
        loop {
            let actions = self.take_actions();
            if actions.is_empty() {
                return done;
            }
            for action in actions {
                match action {
                    Action::Compile(job) => self.compiled(job.run()),
                    action => done.push(action),
                }
            }
        }
    }

    /// The lines decided on since the last call, by side, compile jobs run (for tests and
    /// fuzzing: the end of the server's input and the timers are left out).
    pub fn take_lines(&mut self) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
        let (mut server, mut client) = (Vec::new(), Vec::new());
        for action in self.take_actions_compiled() {
            match action {
                Action::ToServer(line) => server.push(line),
                Action::ToClient(line) => client.push(line),
                _ => {}
            }
        }
        (server, client)
    }

    /// Asks for `tools` to be compiled, off the routing; see [`JobEnd`].
    fn compile(&mut self, tools: Vec<message::ToolDef>, replace: bool, completes: Option<u64>) {
        let ticket = self.jobs.next;
        self.jobs.next += 1;
        self.jobs
            .waiting
            .insert(ticket, JobEnd { replace, completes });
        let job = Job::new(ticket, tools, self.options.refuse_invalid);
        self.out.push(Action::Compile(job));
    }

    /// Whether a complete list of the current listing generation is being compiled: a call
    /// waits for it, and starts no listing of its own.
    fn completing(&self) -> bool {
        self.jobs
            .waiting
            .values()
            .any(|end| end.completes == Some(self.listings))
    }

    /// A compile job's result: put in place once every earlier job's is. Held calls go on
    /// once every result ready is in place.
    pub fn compiled(&mut self, result: Compiled) {
        self.jobs.early.insert(result.ticket, result);
        let mut now_known = false;
        while let Some((&ticket, _)) = self.jobs.waiting.first_key_value() {
            let Some(result) = self.jobs.early.remove(&ticket) else {
                break;
            };
            let end = self.jobs.waiting.remove(&ticket).expect("the first key");
            self.tools.apply(result.tools, end.replace);
            if end.completes.is_some() {
                self.warn_unknown_names();
            }
            now_known |= end.completes == Some(self.listings) && self.listing.is_none();
        }
        if now_known && !self.known {
            self.known = true;
            self.release();
        }
    }

    fn send_server(&mut self, line: Vec<u8>) {
        self.out.push(Action::ToServer(one_line(line)));
    }

    fn send_client(&mut self, line: Vec<u8>) {
        self.out.push(Action::ToClient(one_line(line)));
    }

    /// An id for a request the proxy makes outside the routing (`--upstream`'s repeated
    /// `initialize`): the prefix no client picks, then `what`.
    pub fn own_id(&mut self, what: &str) -> Id {
        Id::own(&format!("{}{what}", self.own_prefix))
    }

    /// The `x-mcp-header` parameters of `tool`, as the server listed it last.
    pub fn header_params(&mut self, tool: &str) -> Vec<crate::headers::Param> {
        self.tools
            .by_name
            .get(tool)
            .map(|tool| tool.params.clone())
            .unwrap_or_default()
    }

    /// One line from the client.
    pub fn client_sent(&mut self, line: Vec<u8>) {
        let body = message::trim_end(&line);
        if message::is_blank(body) {
            return;
        }
        // Parsed before taking the lock, which the server's side shares.
        let message = message::parse_client(body);
        self.route_client(line, message);
    }

    /// A line from the client longer than `--max-message`, dropped unread: answered with a
    /// parse error (its id is not known), in its place among the client's lines.
    pub fn client_sent_too_long(&mut self) {
        if !self.held.is_empty() {
            self.held.push_back(Held::TooLong);
            return;
        }
        self.send_client(message::error_line(
            None,
            PARSE_ERROR,
            "Parse error: the message is longer than the proxy reads (--max-message)",
        ));
    }

    /// The client closed its side: the server's input is closed after whatever is held.
    pub fn client_closed(&mut self) {
        if self.held.is_empty() {
            self.out.push(Action::EndServer);
        } else {
            self.held.push_back(Held::End);
        }
    }

    /// A client line, parsed again (a held one).
    fn client_line(&mut self, line: Vec<u8>) {
        let message = message::parse_client(message::trim_end(&line));
        self.route_client(line, message);
    }

    /// Decides what a client line becomes: held, forwarded (repaired or as it came), or
    /// answered by the proxy.
    fn route_client(&mut self, line: Vec<u8>, message: Message) {
        // Answers to the server's own requests (sampling, elicitation) cannot depend on a
        // held call, and the server may be waiting for them: they never wait.
        if !self.held.is_empty() && !matches!(message, Message::Response { .. }) {
            self.held.push_back(Held::Line(line));
            return;
        }
        if self.server_gone {
            if let Message::Request { id, .. } = message {
                self.send_client(message::error_line(Some(&id), SERVER_GONE, GONE));
            }
            return;
        }
        if let Message::Request { version, .. } = &message {
            self.era = Era::of(version.as_deref());
        }
        match message {
            Message::Request {
                id,
                call: Some(call),
                ..
            } => {
                if self.known || !self.options.tools.checks(&call.name) {
                    self.call(line, id, call);
                } else {
                    log!(Debug, "call {} waits for the tool list", id.raw);
                    self.held.push_back(Held::Line(line));
                    if self.listing.is_none() && !self.completing() {
                        self.start_listing(None);
                    }
                }
            }
            Message::Request {
                id, method, cursor, ..
            } => {
                log!(Debug, "client request {} {method}", id.raw);
                let list = (method == "tools/list").then_some(cursor);
                self.add_pending(id, list);
                self.send_server(line);
            }
            Message::Notification { method, cancelled } => {
                log!(Debug, "client notification {method}");
                if let Some(cancelled) = cancelled {
                    // The server need not answer a cancelled request.
                    self.take_pending(&cancelled.key);
                }
                self.send_server(line);
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
                        self.add_pending(id, list);
                    }
                }
                self.send_server(line);
            }
            Message::Response { .. } | Message::Other => self.send_server(line),
            Message::Malformed => {
                log!(
                    Warn,
                    "a line from the client is not JSON: answered with a parse error"
                );
                self.send_client(message::error_line(None, PARSE_ERROR, "Parse error"));
            }
        }
    }

    /// One line from the server.
    pub fn server_sent(&mut self, line: Vec<u8>) {
        let body = message::trim_end(&line);
        if message::is_blank(body) {
            return;
        }
        let message = message::parse(body);
        match message {
            Message::Response { id, error } => {
                if self.own.remove(&id.key) {
                    self.own_response(&id, error, body);
                    return;
                }
                if let Some(pending) = self.take_pending(&id.key) {
                    if let (Some(later_page), false) = (pending.list, error) {
                        if let Some(page) = message::list_page(body) {
                            self.learn_client_page(page, later_page);
                        }
                    }
                    log!(Debug, "server answer to {}", pending.id.raw);
                } else {
                    log!(Debug, "server answer to {} (not pending)", id.raw);
                }
                self.send_client(line);
            }
            Message::Notification { method, .. } => {
                log!(Debug, "server notification {method}");
                self.send_client(line);
                if method == "notifications/tools/list_changed" {
                    // Calls wait for the new list; an older listing's answers are ignored.
                    self.known = false;
                    self.listing = None;
                    self.start_listing(None);
                }
            }
            Message::Batch(items) => {
                let mut lists = Vec::new();
                for item in items {
                    if let Message::Response { id, error } = item {
                        if let Some(pending) = self.take_pending(&id.key) {
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
                            self.learn_client_page(page, *later_page);
                        }
                    }
                }
                self.send_client(line);
            }
            Message::Request { id, method, .. } => {
                log!(Debug, "server request {} {method}", id.raw);
                self.send_client(line);
            }
            Message::Other => self.send_client(line),
            Message::Malformed => {
                log!(
                    Warn,
                    "a line from the server is not JSON: forwarded as it came"
                );
                self.send_client(line);
            }
        }
    }

    /// The server's output ended: every request it did not answer gets an error answer.
    pub fn server_closed(&mut self) {
        self.server_gone = true;
        let pending = std::mem::take(&mut self.pending);
        let held = std::mem::take(&mut self.held);
        self.listing = None;
        let mut answered = 0;
        let mut waiting: Vec<Pending> = pending.into_values().flatten().collect();
        // In the order the client sent them.
        waiting.sort_by_key(|pending| pending.seq);
        for pending in waiting {
            self.send_client(message::error_line(Some(&pending.id), SERVER_GONE, GONE));
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
                    self.send_client(message::error_line(Some(&id), SERVER_GONE, GONE));
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

#[path = "decide.rs"]
mod decide;
#[path = "listing.rs"]
mod listing;

#[cfg(test)]
#[path = "routing_tests.rs"]
mod tests;
