//! The runs, each on one runtime: stdio (a child server, the client on this process's
//! standard streams), `--upstream` with the client on standard input and output, and
//! `--listen` (its sessions served by child processes or by the `--upstream` server).

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use crate::listen::{self, Settings};
use crate::pipes;
use crate::proxy::Options;
use crate::session::Backend;
use crate::upstream::Upstream;
use crate::upstream_client::{self, Config};

/// The one runtime of every run: single-threaded, its IO driven by the OS's readiness events
/// (the child's pipes, sockets, timers, signals); work that could take long (compiling a
/// peer's schemas is bounded, see `json_schema::cost`) stays short.
fn runtime() -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// Runs `run` to its end on a new runtime, then leaves at once: a read of this process's
/// standard input still blocked (the client has not closed it) must not hold the exit.
fn on_runtime<T>(run: impl std::future::Future<Output = io::Result<T>>) -> io::Result<T> {
    let runtime = runtime()?;
    let ran = runtime.block_on(run);
    runtime.shutdown_background();
    ran
}

/// The stdio mode: the server `command` as a child, the client on this process's standard
/// streams; returns how the server exited (`Err` when it could not be started).
pub fn stdio(command: &[String], options: Options) -> io::Result<std::process::ExitStatus> {
    on_runtime(async {
        let child = pipes::spawn_server(command)?;
        #[cfg(unix)]
        crate::signal::forward_to(child.id().unwrap_or(0));
        pipes::run(child, options).await
    })
}

/// `--upstream` alone: the client on this process's standard streams, the server the remote
/// endpoint; ends when the client closes its side (the session is then ended with a `DELETE`).
pub fn stdio_to_upstream(config: Config, options: Options) -> io::Result<()> {
    let client = upstream_client::client(&config).map_err(io::Error::other)?;
    on_runtime(async {
        let (proxy, server_queue, writer) = pipes::stdio_client(options, "the session ends");
        let upstream = Upstream::new(client, Arc::new(config), proxy.clone());
        upstream.run(server_queue).await;
        proxy.end_client();
        let _ = writer.await;
        Ok(())
    })
}

/// `--listen`: serves HTTP clients at `address` until SIGINT or SIGTERM.
pub fn listen(
    address: SocketAddr,
    settings: Settings,
    server: Server,
    options: Options,
) -> io::Result<()> {
    let backend = match server {
        Server::Command(command) => Backend::Command(Arc::new(command)),
        Server::Upstream(config) => Backend::Upstream(
            upstream_client::client(&config).map_err(io::Error::other)?,
            Arc::new(config),
        ),
    };
    on_runtime(async {
        let listener = listen::bind(address).await?;
        let bound = listener.local_addr()?;
        // The address actually bound (port 0 picks one), for whoever started the proxy:
        // written whatever the log level.
        let url = format!("http://{bound}{}", settings.path);
        if crate::log::json() {
            crate::log::line(&format!(
                r#"{{"time":"{}","level":"info","event":"listening","url":{}}}"#,
                crate::record::now(),
                crate::record::quoted(&url)
            ));
        } else {
            eprintln!("stitch-proxy: listening on {url}");
        }
        listen::serve(listener, settings, backend, options).await
    })
}

/// What serves `--listen`'s sessions.
pub enum Server {
    Command(Vec<String>),
    Upstream(Config),
}
