//! The threads of a run: one reads each side, one writes each side, and a timer bounds the
//! wait for the server's tool list. The readers hand each line to the routing ([`Proxy`]);
//! the writers only write, flushing whenever their queue runs dry, so pipelined traffic goes
//! out in large writes and a lone message at once.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::{Child, ExitStatus};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Weak};
use std::thread;
use std::time::Instant;

use crate::limits;
use crate::log::log;
use crate::proxy::{Options, Out, Proxy};

/// Reads lines until the end of `input`, handing each (line ending included) to `each`. A
/// line longer than [`limits::max_message`] is skipped to its end, never held whole, and
/// `each` gets `None` in its place (a client's is answered with a parse error).
pub fn read_lines(input: impl Read, side: &str, mut each: impl FnMut(Option<Vec<u8>>)) {
    let max = limits::max_message();
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::new();
    let mut skipping = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) => {
                if !line.is_empty() && !skipping {
                    each(Some(std::mem::take(&mut line)));
                }
                return;
            }
            Ok(chunk) => chunk,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                log!(Error, "reading from the {side} failed: {error}");
                return;
            }
        };
        let (taken, ended) = match memchr::memchr(b'\n', chunk) {
            Some(at) => (at + 1, true),
            None => (chunk.len(), false),
        };
        if !skipping {
            if line.len() + taken > max + 1 {
                log!(
                    Warn,
                    "a line from the {side} is longer than {max} bytes (--max-message): dropped"
                );
                skipping = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(&chunk[..taken]);
            }
        }
        reader.consume(taken);
        if ended {
            if skipping {
                skipping = false;
                each(None);
            } else {
                each(Some(std::mem::take(&mut line)));
            }
        }
    }
}

/// Writes queued lines to `output`, flushing whenever the queue runs dry; `on_error` runs
/// once if a write fails (the rest of the queue is then dropped).
pub fn write_lines(output: impl Write, queue: Receiver<Out>, on_error: impl FnOnce(io::Error)) {
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

/// The client's side of a run on this process's standard streams, whatever the server is:
/// the routing, a thread writing to the client, one reading from it, and the listing timer.
/// The server's side writes what [`StdioClient::start`] hands it (what the routing sends the
/// server) and feeds the routing what the server says.
pub struct StdioClient {
    /// The routing.
    pub proxy: Arc<Proxy>,
    to_client: Sender<Out>,
    writer: thread::JoinHandle<()>,
}

impl StdioClient {
    /// Starts the client's side. When writing to the client fails, the server's queue is ended
    /// and `gone` says what that does for this run. Returns the side and the queue of what
    /// goes to the server.
    pub fn start(options: Options, gone: &'static str) -> io::Result<(StdioClient, Receiver<Out>)> {
        let (to_server, server_queue) = mpsc::channel();
        let (to_client, client_queue) = mpsc::channel();
        let (timer, deadlines) = mpsc::channel();
        let proxy = Arc::new(Proxy::new(
            to_server.clone(),
            to_client.clone(),
            options,
            Some(timer),
        ));
        let writer = thread::Builder::new()
            .name("to-client".into())
            .spawn(move || {
                write_lines(io::stdout().lock(), client_queue, |error| {
                    log!(Info, "writing to the client failed ({error}): {gone}");
                    let _ = to_server.send(Out::End);
                });
            })?;
        {
            let proxy = Arc::clone(&proxy);
            thread::Builder::new()
                .name("from-client".into())
                .spawn(move || {
                    read_lines(io::stdin().lock(), "client", |line| match line {
                        Some(line) => proxy.client_sent(line),
                        None => proxy.client_sent_too_long(),
                    });
                    log!(Debug, "the client closed its output");
                    proxy.client_closed();
                })?;
        }
        {
            let proxy = Arc::downgrade(&proxy);
            thread::Builder::new()
                .name("list-timer".into())
                .spawn(move || time_listings(proxy, &deadlines))?;
        }
        let client = StdioClient {
            proxy,
            to_client,
            writer,
        };
        Ok((client, server_queue))
    }

    /// Ends the client's output once everything queued for it is written.
    pub fn finish(self) {
        let _ = self.to_client.send(Out::End);
        let _ = self.writer.join();
    }
}

/// Runs the proxy between this process's standard streams and `child` (spawned with piped
/// standard input and output) until the server's output ends; returns how the server exited.
/// When the client closes its side, the server's standard input is closed (after any held
/// line) and the proxy ends when the server does.
pub fn run(mut child: Child, options: Options) -> io::Result<ExitStatus> {
    let server_in = child.stdin.take().expect("the server's stdin is piped");
    let server_out = child.stdout.take().expect("the server's stdout is piped");
    let (client, server_queue) = StdioClient::start(options, "closing the server's input")?;
    thread::Builder::new()
        .name("to-server".into())
        .spawn(move || {
            write_lines(server_in, server_queue, |error| {
                log!(Warn, "writing to the server failed: {error}");
            });
            // Dropping the pipe here closes the server's standard input.
        })?;
    read_lines(server_out, "server", |line| {
        if let Some(line) = line {
            client.proxy.server_sent(line);
        }
    });
    client.proxy.server_closed();
    let status = child.wait()?;
    log!(Info, "the server exited: {status}");
    client.finish();
    Ok(status)
}

/// The timer of the proxy's own listings: each deadline, in the order the listings started
/// (they all wait as long), ends the wait of its listing if it is still waited for. It holds
/// the routing weakly: once the routing is gone (its session ended), so is the sender of the
/// deadlines, and the timer ends with it.
pub fn time_listings(proxy: Weak<Proxy>, deadlines: &Receiver<(Instant, u64)>) {
    while let Ok((deadline, generation)) = deadlines.recv() {
        let now = Instant::now();
        if deadline > now {
            thread::sleep(deadline - now);
        }
        match proxy.upgrade() {
            Some(proxy) => proxy.list_timed_out(generation),
            None => return,
        }
    }
}
