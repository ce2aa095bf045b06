//! `stitch-proxy`: stitch's rule in front of any MCP server over stdio.
//!
//! ```text
//! stitch-proxy [--log LEVEL] [--refuse-invalid] [--list-timeout SECONDS] -- <server command> [args…]
//! stitch-proxy [options] --upstream URL [--header "Name: value"]… [--ca-file PATH]
//! stitch-proxy [options] --listen HOST:PORT [--path /mcp] -- <server command> [args…]
//! stitch-proxy [options] --listen HOST:PORT --upstream URL
//! stitch-proxy wrap FILE [--dry-run] [--proxy PATH] [-- proxy options…]
//! stitch-proxy unwrap FILE [--dry-run]
//! ```
//!
//! The proxy runs the server as a child process and speaks MCP (newline-delimited JSON-RPC)
//! to the client on its own standard input and output. Every message passes both ways as it
//! came, except `tools/call`: the proxy learns each tool's `inputSchema` from the server's
//! `tools/list` results and runs stitch's schema-driven coercer on the call's arguments. A
//! list written as JSON text where a string is also accepted is refused by name, answered by
//! the proxy as a tool result with `isError: true`, and never reaches the server; JSON text
//! where no string is expected is repaired, and the call forwarded with only the repaired
//! strings replaced in the client's bytes; any other call — one the server may refuse too —
//! is forwarded byte for byte, for the server to judge (`--refuse-invalid`: refused when its
//! schema rejects it).

use std::net::{SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;

use stitch_proxy::listen::Settings;
use stitch_proxy::runs;
use stitch_proxy::upstream_client::Config;

use stitch_proxy::log::{self, Level};
use stitch_proxy::proxy::Options;
#[cfg(unix)]
use stitch_proxy::signal;

/// `log!(Error, …)`, as the library's modules write it.
macro_rules! log {
    ($level:ident, $($arg:tt)*) => {
        if log::enabled(Level::$level) {
            log::write(Level::$level, format_args!($($arg)*));
        }
    };
}

const USAGE: &str = "\
usage: stitch-proxy [options] -- <server command> [args…]
       stitch-proxy [options] --upstream URL [--header \"Name: value\"]… [--ca-file PATH]
       stitch-proxy [options] --listen HOST:PORT [--path /mcp] -- <server command> [args…]
       stitch-proxy [options] --listen HOST:PORT --upstream URL [--header \"Name: value\"]…
       stitch-proxy wrap FILE [--dry-run] [--proxy PATH] [-- proxy options…]
       stitch-proxy unwrap FILE [--dry-run]

Runs the MCP server <server command> and speaks MCP over stdio in front of it, in both eras
(the initialize handshake, and 2026-07-28's per-request envelope). Each tools/call
is checked against the tool's inputSchema: a list written as JSON text where a string is also
accepted is refused by name (a tool result with isError, the server never sees the call); JSON
text where no string is expected is repaired (only those strings change in the call's bytes);
everything else passes through unchanged, for the server to judge.

options:
  --log LEVEL             what to write on standard error: error, warn (default; info with
                          --report-only or --log-format json), info, debug
  --log-format FORMAT     text (default), or json: one JSON object a line on standard error,
                          a record of each refused, repaired (and at --log debug forwarded)
                          call: time, era, session, id, tool, action, each issue's path and
                          rule, never a value; a summary of the calls on exit
  --report-only           decide and record as usual, but forward every call as it came:
                          the record says what would have happened (would-refuse,
                          would-repair)
  --check TOOL            check only the calls to TOOL (repeat for more); the others are
                          forwarded unchecked
  --skip TOOL             forward the calls to TOOL unchecked (repeat for more)
  --refuse-invalid        also refuse every call the tool's schema rejects (type errors,
                          missing fields, bounds…), every issue at once
  --list-timeout SECONDS  how long calls wait for the server's tool list before they go on
                          unchecked (default 10)
  --max-message BYTES     the largest message read from either side: a stdio line, an SSE
                          event, an upstream's JSON answer (default 67108864); a longer one
                          is dropped (a client's answered with a parse error)

Streamable HTTP:
  --upstream URL          the server is the remote MCP endpoint URL (http:// or https://)
  --header \"Name: value\"  a header sent to the upstream server with every request (repeat
                          for more); never logged
  --ca-file PATH          also trust the certificates of this PEM file (a private CA, a
                          self-signed server) for an https:// upstream, besides the Mozilla
                          roots
  --listen HOST:PORT      serve MCP clients over HTTP at http://HOST:PORT/mcp: each
                          handshake-era session with its own server process (or its own
                          --upstream session), every modern (2026-07-28) request through
                          one shared one; PORT alone binds 127.0.0.1; plain HTTP, its
                          streams not resumable (no event ids)
  --path /PATH            the endpoint's path (default /mcp)
  --allow-host NAME       also accept requests whose Host or Origin names NAME (repeat for
                          more; default: localhost, 127.0.0.1 and ::1 only; * for any)
  --session-idle SECONDS  end a session with no open stream and no request for this long
                          (default 300)
  --max-body BYTES        the largest request body accepted (default 4194304)
  --max-sessions N        the most sessions at once (default 100)
  --max-connections N     the most client connections open at once (default 256); more
                          wait to be accepted
  --read-timeout SECONDS  how long a request's head and body may take to arrive (default 30)

Client configurations (mcpServers: Claude Desktop, Cursor, Claude Code's .mcp.json):
  wrap FILE               put every server of FILE behind stitch-proxy (a stdio server's
                          command after --, a url server with --upstream and its headers
                          as --header); writes FILE.bak first; --dry-run prints the diff
                          and writes nothing; --proxy PATH: the proxy's path in the file
                          (default: this program's); options after -- go to each proxy
  unwrap FILE             undo wrap, byte for byte

  -h, --help              this text
  -V, --version           the version";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Cli {
    Run {
        level: Level,
        json: bool,
        options: Options,
        command: Vec<String>,
        http: Box<Http>,
    },
    Help,
    Version,
}

/// The HTTP side of a run.
#[derive(Debug, Default, PartialEq)]
struct Http {
    upstream: Option<Config>,
    listen: Option<SocketAddr>,
    settings: Settings,
}

/// A number of seconds given to `flag`.
fn seconds(flag: &str, text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{flag} takes a number of seconds, not {text:?}"))
}

/// A whole number of at least `least` given to `flag`.
fn count(flag: &str, text: &str, least: usize) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n >= least)
        .ok_or_else(|| format!("{flag} takes a whole number of at least {least}, not {text:?}"))
}

/// `--listen HOST:PORT`, or `PORT` / `:PORT` on 127.0.0.1.
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    let port_only = text.strip_prefix(':').unwrap_or(text);
    if let Ok(port) = port_only.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    text.to_socket_addrs()
        .ok()
        .and_then(|mut addresses| addresses.next())
        .ok_or_else(|| format!("--listen takes HOST:PORT, not {text:?}"))
}

/// The options read once `--upstream` is known (it may come after them).
#[derive(Default)]
struct ForUpstream {
    headers: Vec<String>,
    ca_file: Option<String>,
}

/// Reads an HTTP option; `Ok(false)` when `arg` is none of them.
fn http_option(
    http: &mut Http,
    later: &mut ForUpstream,
    arg: &str,
    args: &mut impl Iterator<Item = String>,
) -> Result<bool, String> {
    if let Some(url) = value_of("--upstream", arg, args) {
        let uri = Config::parse_url(&url?)?;
        http.upstream = Some(Config {
            uri,
            headers: Vec::new(),
            ca: Vec::new(),
        });
    } else if let Some(header) = value_of("--header", arg, args) {
        later.headers.push(header?);
    } else if let Some(path) = value_of("--ca-file", arg, args) {
        later.ca_file = Some(path?);
    } else if let Some(address) = value_of("--listen", arg, args) {
        http.listen = Some(listen_address(&address?)?);
    } else if let Some(path) = value_of("--path", arg, args) {
        let path = path?;
        if !path.starts_with('/') || path.contains(['?', '#', ' ']) {
            return Err(format!("--path takes a path starting with /, not {path:?}"));
        }
        http.settings.path = path;
    } else if let Some(host) = value_of("--allow-host", arg, args) {
        http.settings.allowed.add(&host?);
    } else if let Some(idle) = value_of("--session-idle", arg, args) {
        http.settings.idle = seconds("--session-idle", &idle?)?;
    } else if let Some(bytes) = value_of("--max-body", arg, args) {
        http.settings.max_body = count("--max-body", &bytes?, 0)?;
    } else if let Some(n) = value_of("--max-sessions", arg, args) {
        http.settings.max_sessions = count("--max-sessions", &n?, 1)?;
    } else if let Some(n) = value_of("--max-connections", arg, args) {
        http.settings.max_connections = count("--max-connections", &n?, 1)?;
    } else if let Some(time) = value_of("--read-timeout", arg, args) {
        http.settings.read_timeout = seconds("--read-timeout", &time?)?;
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// Checks what the HTTP options and the command ask for together.
fn finish(
    (level, json): (Level, bool),
    options: Options,
    command: Vec<String>,
    mut http: Http,
    later: ForUpstream,
) -> Result<Cli, String> {
    match &mut http.upstream {
        Some(config) => {
            for header in &later.headers {
                config.headers.push(Config::parse_header(header)?);
            }
            if let Some(path) = &later.ca_file {
                config.ca = Config::read_ca_file(std::path::Path::new(path))?;
            }
        }
        None if !later.headers.is_empty() => return Err("--header needs --upstream".into()),
        None if later.ca_file.is_some() => return Err("--ca-file needs --upstream".into()),
        None => {}
    }
    let has_command = !command.is_empty();
    match (http.upstream.is_some(), http.listen.is_some(), has_command) {
        (false, _, false) => return Err("no server command".into()),
        (true, _, true) => {
            return Err("give either a server command or --upstream, not both".into())
        }
        _ => {}
    }
    Ok(Cli::Run {
        level,
        json,
        options,
        command,
        http: Box::new(http),
    })
}

/// The value of option `name`, given as `--name value` or `--name=value`.
fn value_of(
    name: &str,
    arg: &str,
    args: &mut impl Iterator<Item = String>,
) -> Option<Result<String, String>> {
    if arg == name {
        return Some(args.next().ok_or_else(|| format!("{name} needs a value")));
    }
    let rest = arg.strip_prefix(name)?.strip_prefix('=')?;
    Some(Ok(rest.to_owned()))
}

/// Reads a record option (`--report-only`, `--check`, `--skip`, `--log-format`); `Ok(false)`
/// when `arg` is none of them.
fn record_option(
    options: &mut Options,
    json: &mut Option<bool>,
    arg: &str,
    args: &mut impl Iterator<Item = String>,
) -> Result<bool, String> {
    if arg == "--report-only" {
        options.report_only = true;
    } else if let Some(tool) = value_of("--check", arg, args) {
        options.tools.only.get_or_insert_default().insert(tool?);
    } else if let Some(tool) = value_of("--skip", arg, args) {
        options.tools.skip.insert(tool?);
    } else if let Some(format) = value_of("--log-format", arg, args) {
        *json = Some(match format?.as_str() {
            "json" => true,
            "text" => false,
            other => return Err(format!("--log-format takes text or json, not {other:?}")),
        });
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// Reads the command line (without the program name).
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
    let mut args = args.into_iter();
    let mut level = None;
    let mut json = None;
    let mut options = Options::default();
    let mut http = Http::default();
    let mut later = ForUpstream::default();
    while let Some(arg) = args.next() {
        if http_option(&mut http, &mut later, &arg, &mut args)?
            || record_option(&mut options, &mut json, &arg, &mut args)?
        {
            continue;
        }
        if let Some(name) = value_of("--log", &arg, &mut args) {
            let name = name.map_err(|_| "--log needs a level: error, warn, info or debug")?;
            level = Some(Level::parse(&name).ok_or_else(|| {
                format!("unknown log level {name:?}: use error, warn, info or debug")
            })?);
            continue;
        }
        if let Some(text) = value_of("--list-timeout", &arg, &mut args) {
            options.list_timeout = seconds("--list-timeout", &text?)?;
            continue;
        }
        if let Some(text) = value_of("--max-message", &arg, &mut args) {
            options.max_message = count("--max-message", &text?, 1024)?;
            continue;
        }
        match arg.as_str() {
            "--refuse-invalid" => options.refuse_invalid = true,
            "-h" | "--help" => return Ok(Cli::Help),
            "-V" | "--version" => return Ok(Cli::Version),
            "--" => {
                let command: Vec<String> = args.collect();
                if command.is_empty() {
                    return Err("no server command after --".into());
                }
                return finish(levels(level, json, &options), options, command, http, later);
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            _ => {
                // The server command may also come without `--` when it does not start
                // with a dash.
                let command = std::iter::once(arg).chain(args).collect();
                return finish(levels(level, json, &options), options, command, http, later);
            }
        }
    }
    finish(
        levels(level, json, &options),
        options,
        Vec::new(),
        http,
        later,
    )
}

/// The log level and format: `--log`'s level, or `info` where records are asked for
/// (`--report-only`, `--log-format json`), else `warn`.
fn levels(level: Option<Level>, json: Option<bool>, options: &Options) -> (Level, bool) {
    let json = json.unwrap_or(false);
    let records = json || options.report_only;
    let default = if records { Level::Info } else { Level::Warn };
    (level.unwrap_or(default), json)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    if let Some(which @ ("wrap" | "unwrap")) = args.peek().map(String::as_str) {
        let unwrapping = which == "unwrap";
        return stitch_proxy::wrap::main(unwrapping, args.skip(1), &proxy_options);
    }
    let (level, options, command, http) = match parse_args(args) {
        Ok(Cli::Run {
            level,
            json,
            options,
            command,
            http,
        }) => {
            log::set_json(json);
            (level, options, command, http)
        }
        Ok(Cli::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Cli::Version) => {
            println!("stitch-proxy {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("stitch-proxy: {error}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    log::set_level(level);
    stitch_proxy::limits::set_max_message(options.max_message);
    if http.upstream.is_some() || http.listen.is_some() {
        return run_http(options, command, *http);
    }

    match runs::stdio(&command, options) {
        Ok(status) => {
            stitch_proxy::record::write_summary();
            exit_like(status)
        }
        Err(error) => {
            log!(Error, "cannot start {:?}: {error}", command[0]);
            // The shells' codes: 127 for a command not found, 126 for one that cannot run.
            let code = if error.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            };
            ExitCode::from(code)
        }
    }
}

/// Checks the options `wrap` writes for each proxy: they must make a run of a server.
fn proxy_options(options: &[String]) -> Result<(), String> {
    let mut line = options.to_vec();
    line.extend(["--".to_owned(), "server".to_owned()]);
    match parse_args(line)? {
        Cli::Run { .. } => Ok(()),
        _ => Err("--help and --version are not options of a server's proxy".into()),
    }
}

/// The HTTP modes.
fn run_http(options: Options, command: Vec<String>, http: Http) -> ExitCode {
    let ran = match (http.listen, http.upstream) {
        (Some(address), upstream) => {
            let server = match upstream {
                Some(config) => runs::Server::Upstream(config),
                None => runs::Server::Command(command),
            };
            runs::listen(address, http.settings, server, options)
        }
        (None, Some(config)) => runs::stdio_to_upstream(config, options),
        (None, None) => Err(std::io::Error::other("neither --listen nor --upstream")),
    };
    stitch_proxy::record::write_summary();
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            log!(Error, "{error}");
            ExitCode::FAILURE
        }
    }
}

/// The proxy's own exit, as the server's: its exit code, or (on Unix) death by its signal.
fn exit_like(status: std::process::ExitStatus) -> ExitCode {
    if let Some(code) = status.code() {
        // An exit code outside 0..=255 (Windows) keeps its low byte, as a Unix shell sees it.
        return ExitCode::from(code as u8);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            signal::die_by(signal);
            // Not reached unless the signal could not end the process: the shells' code.
            return ExitCode::from((128 + signal).clamp(0, 255) as u8);
        }
    }
    ExitCode::FAILURE
}

#[cfg(test)]
#[path = "main_tests.rs"]
mod tests;
