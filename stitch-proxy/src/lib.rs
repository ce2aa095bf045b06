//! The library behind the `stitch-proxy` program (not published): the routing of MCP lines
//! between a client and a server with stitch's rule applied to each `tools/call`. The program
//! is `src/main.rs`; the modules are public for the tests, the agreement test of the
//! workspace (`tests/tests/reliability/agreement/`) and the fuzz target of the message path.
//!
//! The modules, each depending only on those listed before it:
//!
//! - `log`: the levels and the lines on standard error, as text or JSON;
//! - `record`: the record of each call's decision, and the run's summary;
//! - `limits`: the largest message read from any peer;
//! - `raw`: a client's JSON with the byte range of every value, read whatever it holds;
//! - `rewrite`: a repaired call as the client wrote it, only the repaired strings replaced;
//! - `message`: reading a line just far enough to route it, and the lines the proxy writes;
//! - `era`: the handshake era and the modern one (2026-07-28), and the proxy's own requests
//!   and answers shaped for each;
//! - `headers`: the modern era's HTTP headers of a request (`Mcp-Method`, `Mcp-Name`,
//!   `Mcp-Param-*` from a tool's `x-mcp-header` parameters);
//! - `check`: a tool's schema compiled, and the verdict on a call's arguments;
//! - `tools`: the tools the server lists;
//! - `routing`: the routing's decisions, sans IO (`decide.rs`: a call's, with `--report-only`,
//!   `--check` and `--skip`; `listing.rs`: its own `tools/list`);
//! - `proxy`: the routing driven: its lock, the writers' queues with their backpressure, its
//!   timers;
//! - `pipes`: the reader and writer tasks of newline-delimited streams, and the stdio run;
//! - `signal` (Unix): signals passed on to the server, and its death by one passed back;
//!
//! and, for Streamable HTTP (`--upstream`, `--listen`):
//!
//! - `sse`: server-sent events read and written;
//! - `guard`: the `Host` and `Origin` allow-list;
//! - `upstream_client`: what `--upstream`, `--header` and `--ca-file` ask for, and the HTTP
//!   client (TLS: rustls with `ring`);
//! - `upstream`: a session with a remote server, the server side of a routing (`reopen.rs`:
//!   a session the server ended, opened again);
//! - `remap`: the modern era's requests of many clients to one child, their ids made unique;
//! - `session`: one `--listen` session, its server and the streams its messages go out on;
//! - `listen`: the HTTP server and its sessions;
//! - `runs`: the runs of every mode, each on one runtime;
//!
//! and `wrap`: `stitch-proxy wrap` and `unwrap`, a client's `mcpServers` configuration put
//! behind the proxy and back.

pub mod check;
pub mod era;
pub mod event_stream;
pub mod guard;
pub mod headers;
pub mod limits;
pub mod listen;
pub mod log;
pub mod message;
pub mod pipes;
pub mod proxy;
pub mod raw;
pub mod record;
pub mod remap;
pub mod rewrite;
pub mod routing;
pub mod runs;
pub mod session;
#[cfg(unix)]
pub mod signal;
pub mod sse;
pub mod tools;
pub mod upstream;
pub mod upstream_client;
pub mod wrap;
