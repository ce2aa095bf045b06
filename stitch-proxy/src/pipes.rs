//! The IO of newline-delimited streams, as tasks of the runtime: a reader hands each line to
//! the routing ([`Proxy`]) once the queues the line may go to have room; a writer writes what
//! is queued, flushing whenever its queue runs dry, so pipelined traffic goes out in large
//! writes and a lone message at once. [`run`] is the stdio mode: the client on this process's
//! standard streams, the server a child's pipes.

use std::io;
use std::pin::Pin;
use std::process::ExitStatus;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter, ReadBuf,
};
use tokio::process::Child;

use crate::limits;
use crate::log::log;
use crate::proxy::{queue, Options, Out, Proxy, Writes};

/// Which side a reader reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Client,
    Server,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }
}

/// Reads lines until the end of `input`, handing each to the routing as `side`'s. A line
/// longer than [`limits::max_message`] is skipped to its end, never held whole (a client's is
/// answered with a parse error). Before each line it waits for room in the queues the line
/// may go to: a peer that does not read holds up the one that writes to it.
pub async fn read_lines(input: impl AsyncRead + Unpin, side: Side, proxy: &Proxy) {
    let max = limits::max_message();
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::new();
    let mut skipping = false;
    loop {
        if line.is_empty() {
            match side {
                Side::Client => proxy.client_room().await,
                Side::Server => proxy.server_room().await,
            }
        }
        let chunk = match reader.fill_buf().await {
            Ok([]) => {
                if !line.is_empty() && !skipping {
                    deliver(proxy, side, Some(std::mem::take(&mut line)));
                }
                return;
            }
            Ok(chunk) => chunk,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                log!(Error, "reading from the {} failed: {error}", side.name());
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
                    "a line from the {} is longer than {max} bytes (--max-message): dropped",
                    side.name()
                );
                skipping = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(&chunk[..taken]);
            }
        }
        reader.consume(taken);
        if ended {
            let whole = (!std::mem::take(&mut skipping)).then(|| std::mem::take(&mut line));
            deliver(proxy, side, whole);
        }
    }
}

fn deliver(proxy: &Proxy, side: Side, line: Option<Vec<u8>>) {
    match (side, line) {
        (Side::Client, Some(line)) => proxy.client_sent(line),
        (Side::Client, None) => proxy.client_sent_too_long(),
        (Side::Server, Some(line)) => proxy.server_sent(line),
        (Side::Server, None) => {}
    }
}

/// Writes queued lines to `output`, flushing whenever the queue runs dry, until `Out::End`
/// (or every sender is gone); `on_error` runs once if a write fails (the rest of the queue is
/// then dropped, still counted as written so no reader waits for it).
pub async fn write_lines(
    output: impl AsyncWrite + Unpin,
    mut queue: Writes,
    on_error: impl FnOnce(io::Error),
) {
    let mut output = Some(BufWriter::with_capacity(1 << 16, output));
    let mut on_error = Some(on_error);
    while let Some(first) = queue.recv().await {
        let mut next = Some(first);
        while let Some(item) = next.take() {
            match item {
                Out::Line(line) => {
                    if let Some(writer) = output.as_mut() {
                        if let Err(error) = writer.write_all(&line).await {
                            output = None;
                            if let Some(on_error) = on_error.take() {
                                on_error(error);
                            }
                        }
                    }
                    queue.written(line.len());
                }
                Out::End => {
                    if let Some(mut writer) = output.take() {
                        let _ = writer.flush().await;
                        let _ = writer.shutdown().await;
                    }
                    return;
                }
            }
            next = queue.try_recv();
        }
        if let Some(writer) = output.as_mut() {
            if let Err(error) = writer.flush().await {
                output = None;
                if let Some(on_error) = on_error.take() {
                    on_error(error);
                }
            }
        }
    }
}

/// The client's side of a run on this process's standard streams, whatever the server is:
/// the routing, a writer to the client and a reader from it. Returns the routing, the
/// server's queue (what the routing sends the server) and the writer's end.
///
/// This process's own standard input and output are blocking pipes that an async runtime can
/// only serve from threads (tokio's `stdin()` hands every read to its blocking pool and back):
/// here one thread reads and one writes, each running the same reader and writer as the
/// other side's tasks, so a call crosses no thread more than it must. They are the process's,
/// not a session's: `--listen` starts none.
pub fn stdio_client(
    options: Options,
    gone: &'static str,
) -> (Arc<Proxy>, Writes, tokio::sync::oneshot::Receiver<()>) {
    let (to_server, server_queue) = queue();
    let (to_client, client_queue) = queue();
    let proxy = Proxy::new(options, to_server.clone(), to_client);
    let runtime = tokio::runtime::Handle::current();
    let (written, writer) = tokio::sync::oneshot::channel();
    let on_runtime = runtime.clone();
    let spawned = std::thread::Builder::new()
        .name("to-client".into())
        .spawn(move || {
            on_runtime.block_on(write_lines(
                Blocking(io::stdout()),
                client_queue,
                move |error| {
                    log!(Info, "writing to the client failed ({error}): {gone}");
                    to_server.push(Out::End);
                },
            ));
            let _ = written.send(());
        });
    let reading = proxy.clone();
    let spawned = spawned.and_then(|_| {
        std::thread::Builder::new()
            .name("from-client".into())
            .spawn(move || {
                runtime.block_on(read_lines(Blocking(io::stdin()), Side::Client, &reading));
                log!(Debug, "the client closed its output");
                reading.client_closed();
            })
    });
    if let Err(error) = spawned {
        log!(Error, "cannot start the client's reader or writer: {error}");
        proxy.client_closed();
    }
    (proxy, server_queue, writer)
}

/// A blocking reader or writer, for a thread of its own: each poll does the IO at once.
struct Blocking<T>(T);

impl<R: io::Read + Unpin> AsyncRead for Blocking<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let read = self.get_mut().0.read(buf.initialize_unfilled());
        Poll::Ready(read.map(|n| buf.advance(n)))
    }
}

impl<W: io::Write + Unpin> AsyncWrite for Blocking<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        Poll::Ready(self.get_mut().0.write(bytes))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.get_mut().0.flush())
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.get_mut().0.flush())
    }
}

/// Starts the server `command` (program and arguments) with its standard input and output
/// piped to the proxy and its standard error the proxy's; killed if its handle is dropped.
pub fn spawn_server(command: &[String]) -> io::Result<Child> {
    let Some((program, args)) = command.split_first() else {
        return Err(io::Error::other("no server command"));
    };
    let child = tokio::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .kill_on_drop(true)
        .spawn()?;
    log!(
        Info,
        "started {:?} (pid {})",
        command.join(" "),
        child.id().unwrap_or(0)
    );
    Ok(child)
}

/// Runs the proxy between this process's standard streams and `child` (spawned with piped
/// standard input and output) until the server's output ends; returns how the server exited.
/// When the client closes its side, the server's standard input is closed (after any held
/// line) and the proxy ends when the server does.
pub async fn run(mut child: Child, options: Options) -> io::Result<ExitStatus> {
    let server_in = child.stdin.take().expect("the server's stdin is piped");
    let server_out = child.stdout.take().expect("the server's stdout is piped");
    let (proxy, server_queue, writer) = stdio_client(options, "closing the server's input");
    tokio::spawn(write_lines(server_in, server_queue, |error| {
        log!(Warn, "writing to the server failed: {error}");
    }));
    read_lines(server_out, Side::Server, &proxy).await;
    proxy.server_closed();
    let status = child.wait().await?;
    log!(Info, "the server exited: {status}");
    proxy.end_client();
    let _ = writer.await;
    Ok(status)
}
