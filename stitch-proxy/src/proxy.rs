//! The routing driven: the sans-IO [`Core`] behind a lock, its actions carried out on the two
//! writers' queues and its timers on the runtime.
//!
//! A reader task (`pipes`, `session`, `upstream`) hands each message to the routing; the core
//! decides under the lock, and the lines it decides on are queued while the lock is still
//! held, so the order of every queue is the order of the decisions. A queue counts the bytes
//! it holds: a reader waits for room before it reads the next message ([`Proxy::client_room`],
//! [`Proxy::server_room`]), so a peer that stops reading stops, in turn, whoever writes to it,
//! and nothing piles up in memory.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::Notify;

use crate::message::Id;
pub use crate::routing::{Action, Core, Options, PARSE_ERROR, SERVER_GONE};

/// How many bytes a writer's queue holds before its readers wait: 8 MiB (a message longer
/// than that is still queued whole, alone).
const BACKLOG: usize = 8 << 20;

/// What a writer receives.
#[derive(Debug)]
pub enum Out {
    /// One line, line ending included.
    Line(Vec<u8>),
    /// No more lines: close the pipe (the server's standard input) or flush and stop.
    End,
}

#[derive(Default)]
struct Backlog {
    bytes: AtomicUsize,
    room: Notify,
}

/// The sending side of a writer's queue.
#[derive(Clone)]
pub struct Queue {
    tx: UnboundedSender<Out>,
    backlog: Arc<Backlog>,
}

/// The writer's side of a queue: it tells the queue what it has written.
pub struct Writes {
    rx: UnboundedReceiver<Out>,
    backlog: Arc<Backlog>,
}

/// A new queue and its writer's side.
pub fn queue() -> (Queue, Writes) {
    let (tx, rx) = unbounded_channel();
    let backlog = Arc::new(Backlog::default());
    (
        Queue {
            tx,
            backlog: backlog.clone(),
        },
        Writes { rx, backlog },
    )
}

impl Queue {
    /// Queues `out`; dropped once the writer has stopped (it has nowhere to go then).
    pub fn push(&self, out: Out) {
        if let Out::Line(line) = &out {
            self.backlog.bytes.fetch_add(line.len(), Ordering::SeqCst);
        }
        let _ = self.tx.send(out);
    }

    /// Waits until the queue holds less than [`BACKLOG`] bytes, or its writer has stopped.
    pub async fn room(&self) {
        loop {
            let notified = self.backlog.room.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.backlog.bytes.load(Ordering::SeqCst) < BACKLOG || self.tx.is_closed() {
                return;
            }
            notified.await;
        }
    }
}

impl Writes {
    /// The next item, waiting for it; `None` once every sender is gone.
    pub async fn recv(&mut self) -> Option<Out> {
        self.rx.recv().await
    }

    /// The next item if one is queued.
    pub fn try_recv(&mut self) -> Option<Out> {
        self.rx.try_recv().ok()
    }

    /// `bytes` of the queue are written (or dropped): readers waiting for room may go on.
    pub fn written(&self, bytes: usize) {
        self.backlog.bytes.fetch_sub(bytes, Ordering::SeqCst);
        self.backlog.room.notify_waiters();
    }
}

impl Drop for Writes {
    fn drop(&mut self) {
        // A writer that stopped holds nothing back: its readers must not wait for it.
        self.rx.close();
        self.backlog.room.notify_waiters();
    }
}

/// The routing of one server and its client(s).
pub struct Proxy {
    core: Mutex<Core>,
    to_server: Queue,
    to_client: Queue,
    me: Weak<Proxy>,
}

impl Proxy {
    pub fn new(options: Options, to_server: Queue, to_client: Queue) -> Arc<Proxy> {
        Arc::new_cyclic(|me| Proxy {
            core: Mutex::new(Core::new(options)),
            to_server,
            to_client,
            me: me.clone(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Core> {
        // A panic elsewhere must not stop the traffic: the state stays usable.
        self.core
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `decide` on the core and carries out what it decided, in order; compile jobs
    /// start once the lock is let go.
    fn run(&self, decide: impl FnOnce(&mut Core)) {
        let mut jobs = Vec::new();
        {
            let mut core = self.lock();
            decide(&mut core);
            for action in core.take_actions() {
                match action {
                    Action::ToServer(line) => self.to_server.push(Out::Line(line)),
                    Action::ToClient(line) => self.to_client.push(Out::Line(line)),
                    Action::Record(record) => record.write(),
                    Action::EndServer => self.to_server.push(Out::End),
                    Action::Timer(at, generation) => self.time(at, generation),
                    Action::Compile(job) => jobs.push(job),
                }
            }
        }
        for job in jobs {
            self.compile(job);
        }
    }

    /// Compiles tool schemas on the runtime's blocking pool, so that no message of this or
    /// another session waits for it, and hands the result back to the routing (the task
    /// holds the proxy weakly: an ended session's job keeps nothing alive).
    fn compile(&self, job: crate::tools::Job) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            let result = job.run();
            self.run(|core| core.compiled(result));
            return;
        };
        let me = self.me.clone();
        runtime.spawn(async move {
            let Ok(result) = tokio::task::spawn_blocking(move || job.run()).await else {
                return;
            };
            if let Some(proxy) = me.upgrade() {
                proxy.run(|core| core.compiled(result));
            }
        });
    }

    /// A timer task for a listing: it holds the routing weakly, so an ended session's timer
    /// keeps nothing alive, and it ends at its deadline.
    fn time(&self, at: std::time::Instant, generation: u64) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let me = self.me.clone();
        runtime.spawn(async move {
            tokio::time::sleep_until(at.into()).await;
            if let Some(proxy) = me.upgrade() {
                proxy.list_timed_out(generation);
            }
        });
    }

    /// Waits until both queues a client's message may go to have room.
    pub async fn client_room(&self) {
        self.to_server.room().await;
        self.to_client.room().await;
    }

    /// Waits until the client's queue, where a server's message goes, has room.
    pub async fn server_room(&self) {
        self.to_client.room().await;
    }

    /// One line from the client.
    pub fn client_sent(&self, line: Vec<u8>) {
        self.run(|core| core.client_sent(line));
    }

    /// A line from the client longer than `--max-message`, dropped unread.
    pub fn client_sent_too_long(&self) {
        self.run(Core::client_sent_too_long);
    }

    /// The client closed its side.
    pub fn client_closed(&self) {
        self.run(Core::client_closed);
    }

    /// Nothing more goes to the client: its writer flushes and stops after what is queued.
    pub fn end_client(&self) {
        self.to_client.push(Out::End);
    }

    /// One line from the server.
    pub fn server_sent(&self, line: Vec<u8>) {
        self.run(|core| core.server_sent(line));
    }

    /// The server's output ended.
    pub fn server_closed(&self) {
        self.run(Core::server_closed);
    }

    /// The listing `generation`'s time is up.
    pub fn list_timed_out(&self, generation: u64) {
        self.run(|core| core.list_timed_out(generation));
    }

    /// Names the `--listen` session this routing serves, in its records.
    pub fn set_session(&self, session: String) {
        self.lock().set_session(session);
    }

    /// An id for a request the proxy makes outside the routing.
    pub fn own_id(&self, what: &str) -> Id {
        self.lock().own_id(what)
    }

    /// The `x-mcp-header` parameters of `tool`, as the server listed it last.
    pub fn header_params(&self, tool: &str) -> Vec<crate::headers::Param> {
        self.lock().header_params(tool)
    }
}
