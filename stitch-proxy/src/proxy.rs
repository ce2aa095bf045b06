//! The routing between the client (the proxy's standard input and output) and the server (a
//! child process's pipes).
//!
//! Four threads: one reads each side, one writes each side. The readers decide, under one
//! lock ([`State`]), what each line becomes, and queue the outcome on the writers' channels
//! while still holding it, so the order of every queue is the order of the decisions. The
//! writers only write, so a slow peer never blocks a decision, and they flush whenever their
//! queue runs dry, so pipelined traffic goes out in large writes and a lone message at once.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::{Child, ExitStatus};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;

use crate::check::{Check, Verdict};
use crate::log::log;
use crate::message::{self, Call, Id, ListPage, Message, ToolDef};

/// The JSON-RPC error code of the answers the proxy gives for the server (`-32000`, the start
/// of the implementation-defined server errors): the server exited before answering.
pub const SERVER_GONE: i64 = -32000;
/// JSON-RPC's parse error: a line from the client that is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// At most this many pages of the proxy's own `tools/list` are read (a server that hands out
/// cursors forever is not followed forever).
const MAX_PAGES: usize = 1000;

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

/// The proxy's own `tools/list`, page by page.
struct Listing {
    /// The id of the page asked for last.
    id: Id,
    tools: Vec<ToolDef>,
    pages: usize,
}

/// One tool the server lists: its compiled schema, or `None` when it has none the coercer
/// can read (its calls are forwarded unchecked).
struct Tool {
    check: Option<Check>,
}

/// Everything the two readers share.
#[derive(Default)]
struct State {
    tools: HashMap<String, Tool>,
    /// A full list of the tools is known: none yet, or one made stale by
    /// `notifications/tools/list_changed`, makes a call wait for the proxy's own listing.
    known: bool,
    listing: Option<Listing>,
    /// Keys of the proxy's own requests not answered yet (the current listing's and stale
    /// ones): their answers are swallowed.
    own: HashSet<String>,
    next_own: u64,
    /// Client lines waiting, in order, behind a call that waits for the schemas. While it is
    /// not empty every client line but a response joins it.
    held: VecDeque<Held>,
    pending: HashMap<String, Pending>,
    next_seq: u64,
    server_gone: bool,
}

impl State {
    /// Notes a client request forwarded to the server.
    fn add_pending(&mut self, id: Id, list: Option<bool>) {
        self.next_seq += 1;
        let seq = self.next_seq;
        self.pending
            .insert(id.key.clone(), Pending { seq, id, list });
    }
}

/// The routing, shared by the reader threads.
pub struct Proxy {
    state: Mutex<State>,
    to_server: Sender<Out>,
    to_client: Sender<Out>,
    /// The prefix of the proxy's own request ids: `stitch-proxy-<nonce>-`.
    own_prefix: String,
}

impl Proxy {
    fn new(to_server: Sender<Out>, to_client: Sender<Out>) -> Proxy {
        Proxy {
            state: Mutex::new(State::default()),
            to_server,
            to_client,
            own_prefix: format!("stitch-proxy-{:016x}-", nonce()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere must not stop the traffic: the state stays usable.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn to_server(&self, mut line: Vec<u8>) {
        if line.last() != Some(&b'\n') {
            line.push(b'\n');
        }
        // A send fails only once the writer has stopped; the line has nowhere to go then.
        let _ = self.to_server.send(Out::Line(line));
    }

    fn to_client(&self, mut line: Vec<u8>) {
        if line.last() != Some(&b'\n') {
            line.push(b'\n');
        }
        let _ = self.to_client.send(Out::Line(line));
    }

    /// One line from the client.
    pub fn client_sent(&self, line: Vec<u8>) {
        let body = message::trim_end(&line);
        if message::is_blank(body) {
            return;
        }
        // Parsed before taking the lock, which the server's side shares.
        let message = message::parse(body);
        let mut state = self.lock();
        self.route_client(&mut state, line, message);
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
        let message = message::parse(message::trim_end(&line));
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
                    state.pending.remove(&cancelled.key);
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
        let verdict = match (state.tools.get(&call.name), &call.arguments) {
            // Absent or null `arguments` (no arguments) and unknown tools are the server's
            // to judge.
            (Some(Tool { check: Some(check) }), Some((_, arguments))) if !arguments.is_null() => {
                check.run(arguments)
            }
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
            Verdict::Repaired(arguments) => {
                log!(Info, "call {} to {} repaired", id.raw, call.name);
                let range = call.arguments.map(|(range, _)| range).unwrap_or_default();
                let line = message::splice(message::trim_end(&line), range, &arguments);
                state.add_pending(id, None);
                self.to_server(line);
            }
            Verdict::Refused(messages) => {
                log!(
                    Info,
                    "call {} to {} refused: {}",
                    id.raw,
                    call.name,
                    messages.replace('\n', "; ")
                );
                self.to_client(message::refusal_line(&id, &messages));
            }
        }
    }

    /// Asks the server for a page of its tools, with an id of the proxy's own.
    fn start_listing(&self, state: &mut State, cursor: Option<&str>) {
        state.next_own += 1;
        let id = Id::own(&format!("{}{}", self.own_prefix, state.next_own));
        state.own.insert(id.key.clone());
        log!(Debug, "asking the server for its tools ({})", id.raw);
        self.to_server(message::list_request(&id, cursor));
        match &mut state.listing {
            Some(listing) => listing.id = id,
            None => {
                state.listing = Some(Listing {
                    id,
                    tools: Vec::new(),
                    pages: 0,
                })
            }
        }
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
                if let Some(pending) = state.pending.remove(&id.key) {
                    if let (Some(later_page), false) = (pending.list, error) {
                        if let Some(page) = message::list_page(body) {
                            learn_client_page(&mut state, page, later_page);
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
                        if let Some(pending) = state.pending.remove(&id.key) {
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
                            learn_client_page(&mut state, page, *later_page);
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
                state.tools = compile(listing.tools);
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
        let mut waiting: Vec<Pending> = pending.into_values().collect();
        // In the order the client sent them.
        waiting.sort_by_key(|pending| pending.seq);
        for pending in waiting {
            self.to_client(message::error_line(Some(&pending.id), SERVER_GONE, GONE));
            answered += 1;
        }
        for item in held {
            let Held::Line(line) = item else { continue };
            let requests = match message::parse(message::trim_end(&line)) {
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

/// The message of the error a request gets when the server is gone.
const GONE: &str = "stitch-proxy: the MCP server exited before answering";

/// Learns from a `tools/list` page the client asked for: a complete single-page list replaces
/// what is known; any other page adds its tools.
fn learn_client_page(state: &mut State, page: ListPage, later_page: bool) {
    if !later_page && page.next_cursor.is_none() {
        state.tools = compile(page.tools);
        if state.listing.is_none() {
            state.known = true;
        }
    } else {
        state.tools.extend(compile(page.tools));
    }
}

/// Compiles each tool's schema.
fn compile(tools: Vec<ToolDef>) -> HashMap<String, Tool> {
    tools
        .into_iter()
        .map(|tool| {
            let check = match &tool.input_schema {
                None => {
                    log!(Warn, "tool {} has no inputSchema: its calls pass unchecked", tool.name);
                    None
                }
                Some(schema) => match Check::new(schema) {
                    Ok(check) => Some(check),
                    Err(error) => {
                        log!(
                            Warn,
                            "the inputSchema of tool {} cannot be read ({error}): its calls pass unchecked",
                            tool.name
                        );
                        None
                    }
                },
            };
            (tool.name, Tool { check })
        })
        .collect()
}

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

/// Reads lines until the end of `input`, handing each (line ending included) to `each`.
fn read_lines(input: impl Read, side: &str, mut each: impl FnMut(Vec<u8>)) {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => return,
            Ok(_) => each(line),
            Err(error) => {
                log!(Error, "reading from the {side} failed: {error}");
                return;
            }
        }
    }
}

/// Writes queued lines to `output`, flushing whenever the queue runs dry; `on_error` runs
/// once if a write fails (the rest of the queue is then dropped).
fn write_lines(output: impl Write, queue: Receiver<Out>, on_error: impl FnOnce(io::Error)) {
    let mut output = Some(BufWriter::with_capacity(1 << 16, output));
    let mut on_error = Some(on_error);
    let mut fail = |output: &mut Option<BufWriter<_>>, error| {
        *output = None;
        if let Some(on_error) = on_error.take() {
            on_error(error);
        }
    };
    while let Ok(first) = queue.recv() {
        let mut next = Some(first);
        while let Some(item) = next.take() {
            match item {
                Out::Line(line) => {
                    if let Some(writer) = output.as_mut() {
                        if let Err(error) = writer.write_all(&line) {
                            fail(&mut output, error);
                        }
                    }
                }
                Out::End => {
                    if let Some(mut writer) = output.take() {
                        if let Err(error) = writer.flush() {
                            fail(&mut output, error);
                        }
                    }
                    return;
                }
            }
            next = queue.try_recv().ok();
        }
        if let Some(writer) = output.as_mut() {
            if let Err(error) = writer.flush() {
                fail(&mut output, error);
            }
        }
    }
}

/// Runs the proxy between this process's standard streams and `child` (spawned with piped
/// standard input and output) until the server's output ends; returns how the server exited.
pub fn run(mut child: Child) -> io::Result<ExitStatus> {
    let server_in = child.stdin.take().expect("the server's stdin is piped");
    let server_out = child.stdout.take().expect("the server's stdout is piped");
    let (to_server, server_queue) = mpsc::channel();
    let (to_client, client_queue) = mpsc::channel();
    let proxy = Arc::new(Proxy::new(to_server.clone(), to_client.clone()));

    thread::Builder::new()
        .name("to-server".into())
        .spawn(move || {
            write_lines(server_in, server_queue, |error| {
                log!(Warn, "writing to the server failed: {error}");
            });
            // Dropping the pipe here closes the server's standard input.
        })?;
    let client_writer = {
        let to_server = to_server.clone();
        thread::Builder::new()
            .name("to-client".into())
            .spawn(move || {
                write_lines(io::stdout().lock(), client_queue, |error| {
                    // The client is gone: let the server see the end of its input too.
                    log!(
                        Info,
                        "writing to the client failed ({error}): closing the server's input"
                    );
                    let _ = to_server.send(Out::End);
                });
            })?
    };
    {
        let proxy = Arc::clone(&proxy);
        thread::Builder::new()
            .name("from-client".into())
            .spawn(move || {
                read_lines(io::stdin().lock(), "client", |line| proxy.client_sent(line));
                log!(Debug, "the client closed its output");
                proxy.client_closed();
            })?;
    }

    read_lines(server_out, "server", |line| proxy.server_sent(line));
    proxy.server_closed();
    let status = child.wait()?;
    log!(Info, "the server exited: {status}");
    let _ = to_client.send(Out::End);
    let _ = client_writer.join();
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(queue: &Receiver<Out>) -> Vec<String> {
        queue
            .try_iter()
            .map(|out| match out {
                Out::Line(line) => String::from_utf8(line).unwrap(),
                Out::End => "END".into(),
            })
            .collect()
    }

    #[test]
    fn answers_to_the_servers_requests_never_wait_behind_a_held_call() {
        let (to_server, server) = mpsc::channel();
        let (to_client, client) = mpsc::channel();
        let proxy = Proxy::new(to_server, to_client);
        proxy.client_sent(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":"[1]"}}}"#.to_vec());
        proxy.client_sent(br#"{"jsonrpc":"2.0","method":"notifications/x"}"#.to_vec());
        proxy.client_sent(br#"{"jsonrpc":"2.0","id":"s1","result":{}}"#.to_vec());
        proxy.client_closed();
        // The proxy's own list request, then the answer to the server's request; the call
        // and the notification wait.
        let sent = lines(&server);
        assert_eq!(sent.len(), 2, "{sent:?}");
        assert!(sent[0].contains(r#""method":"tools/list""#), "{sent:?}");
        assert_eq!(
            sent[1],
            "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}\n"
        );
        let own_id: serde_json::Value = serde_json::from_str(&sent[0]).unwrap();
        let answer = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"tools":[{{"name":"t","inputSchema":{{"type":"object","properties":{{"x":{{"type":"array"}}}}}}}}]}}}}"#,
            own_id["id"]
        );
        proxy.server_sent(answer.into_bytes());
        // Released in order: the repaired call, the notification, then the end of input.
        assert_eq!(
            lines(&server),
            [
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"x\":[1]}}}\n",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}\n",
                "END",
            ]
        );
        // The answer to the proxy's own request never reached the client.
        assert!(lines(&client).is_empty());
    }
}
