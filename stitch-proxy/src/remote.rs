//! The runs that speak HTTP: `--upstream` with the client on standard input and output, and
//! `--listen` (its sessions served by child processes or by the `--upstream` server). Each
//! builds a single-threaded tokio runtime: the stdio mode never starts one.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use crate::listen::{self, Settings};
use crate::pipes;
use crate::proxy::Options;
use crate::session::{self, Backend};
use crate::upstream::Upstream;
use crate::upstream_client::{self, Config};

fn runtime() -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// `--upstream` alone: the client on this process's standard streams, the server the remote
/// endpoint; ends when the client closes its side (the session is then ended with a `DELETE`).
pub fn stdio_to_upstream(config: Config, options: Options) -> io::Result<()> {
    let runtime = runtime()?;
    let client = upstream_client::client(&config).map_err(io::Error::other)?;
    let (client_side, server_queue) = pipes::StdioClient::start(options, "the session ends")?;
    let lines = session::bridge(server_queue)?;
    let upstream = Upstream::new(client, Arc::new(config), Arc::clone(&client_side.proxy));
    runtime.block_on(upstream.run(lines));
    client_side.finish();
    Ok(())
}

/// `--listen`: serves HTTP clients at `address` until SIGINT or SIGTERM.
pub fn listen(
    address: SocketAddr,
    settings: Settings,
    server: Server,
    options: Options,
) -> io::Result<()> {
    let runtime = runtime()?;
    let backend = match server {
        Server::Command(command) => Backend::Command(Arc::new(command)),
        Server::Upstream(config) => Backend::Upstream(
            upstream_client::client(&config).map_err(io::Error::other)?,
            Arc::new(config),
        ),
    };
    runtime.block_on(async {
        let listener = listen::bind(address).await?;
        let bound = listener.local_addr()?;
        // The address actually bound (port 0 picks one), for whoever started the proxy:
        // written whatever the log level.
        eprintln!("stitch-proxy: listening on http://{bound}{}", settings.path);
        listen::serve(listener, settings, backend, options).await
    })
}

/// What serves `--listen`'s sessions.
pub enum Server {
    Command(Vec<String>),
    Upstream(Config),
}
