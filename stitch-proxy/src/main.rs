//! `stitch-proxy`: stitch's rule in front of any MCP server over stdio.
//!
//! ```text
//! stitch-proxy [--log error|warn|info|debug] -- <server command> [args…]
//! ```
//!
//! The proxy runs the server as a child process and speaks MCP (newline-delimited JSON-RPC)
//! to the client on its own standard input and output. Every message passes both ways as it
//! came, except `tools/call`: the proxy learns each tool's `inputSchema` from the server's
//! `tools/list` results and runs stitch's schema-driven coercer on the call's arguments. A
//! list written as JSON text where a string is also accepted is refused by name, answered by
//! the proxy as a tool result with `isError: true`, and never reaches the server; JSON text
//! where no string is expected is repaired and the repaired call forwarded; any other call is
//! forwarded byte for byte.

mod check;
mod log;
mod message;
mod proxy;
#[cfg(unix)]
mod signal;

use std::process::{Command, ExitCode, Stdio};

use crate::log::{log, Level};

const USAGE: &str = "\
usage: stitch-proxy [--log error|warn|info|debug] -- <server command> [args…]

Runs the MCP server <server command> and speaks MCP over stdio in front of it. Each tools/call
is checked against the tool's inputSchema: a list written as JSON text where a string is also
accepted is refused by name (a tool result with isError, the server never sees the call); JSON
text where no string is expected is repaired; everything else passes through unchanged.

options:
  --log LEVEL    what to write on standard error: error, warn (default), info, debug
  -h, --help     this text
  -V, --version  the version";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Cli {
    Run { level: Level, command: Vec<String> },
    Help,
    Version,
}

/// Reads the command line (without the program name).
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
    let mut args = args.into_iter();
    let mut level = Level::Warn;
    while let Some(arg) = args.next() {
        let named_level = if arg == "--log" {
            Some(
                args.next()
                    .ok_or("--log needs a level: error, warn, info or debug")?,
            )
        } else {
            arg.strip_prefix("--log=").map(str::to_owned)
        };
        if let Some(name) = named_level {
            level = Level::parse(&name).ok_or_else(|| {
                format!("unknown log level {name:?}: use error, warn, info or debug")
            })?;
            continue;
        }
        match arg.as_str() {
            "-h" | "--help" => return Ok(Cli::Help),
            "-V" | "--version" => return Ok(Cli::Version),
            "--" => {
                let command: Vec<String> = args.collect();
                if command.is_empty() {
                    return Err("no server command after --".into());
                }
                return Ok(Cli::Run { level, command });
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            _ => {
                // The server command may also come without `--` when it does not start
                // with a dash.
                let command = std::iter::once(arg).chain(args).collect();
                return Ok(Cli::Run { level, command });
            }
        }
    }
    Err("no server command".into())
}

fn main() -> ExitCode {
    let (level, command) = match parse_args(std::env::args().skip(1)) {
        Ok(Cli::Run { level, command }) => (level, command),
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

    let child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn();
    let child = match child {
        Ok(child) => child,
        Err(error) => {
            log!(Error, "cannot start {:?}: {error}", command[0]);
            // The shells' codes: 127 for a command not found, 126 for one that cannot run.
            let code = if error.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            };
            return ExitCode::from(code);
        }
    };
    log!(Info, "started {:?} (pid {})", command.join(" "), child.id());
    #[cfg(unix)]
    signal::forward_to(child.id());

    match proxy::run(child) {
        Ok(status) => exit_like(status),
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
mod tests {
    use super::*;

    fn args(line: &str) -> Result<Cli, String> {
        parse_args(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn the_command_line() {
        assert_eq!(
            args("--log debug -- python server.py --log x"),
            Ok(Cli::Run {
                level: Level::Debug,
                command: vec![
                    "python".into(),
                    "server.py".into(),
                    "--log".into(),
                    "x".into()
                ]
            })
        );
        assert_eq!(
            args("--log=info server -- x"),
            Ok(Cli::Run {
                level: Level::Info,
                command: vec!["server".into(), "--".into(), "x".into()]
            })
        );
        assert_eq!(
            args("-- -weird"),
            Ok(Cli::Run {
                level: Level::Warn,
                command: vec!["-weird".into()]
            })
        );
        assert_eq!(args("--help -- x"), Ok(Cli::Help));
        assert_eq!(args("-V"), Ok(Cli::Version));
        assert!(args("--log loud -- x").unwrap_err().contains("\"loud\""));
        assert!(args("--log").is_err());
        assert!(args("--").is_err());
        assert!(args("").is_err());
        assert!(args("--frobnicate -- x")
            .unwrap_err()
            .contains("--frobnicate"));
    }
}
