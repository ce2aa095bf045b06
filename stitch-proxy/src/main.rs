//! `stitch-proxy`: stitch's rule in front of any MCP server over stdio.
//!
//! ```text
//! stitch-proxy [--log LEVEL] [--refuse-invalid] [--list-timeout SECONDS] -- <server command> [args…]
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

use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use stitch_proxy::log::{self, Level};
use stitch_proxy::pipes;
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

Runs the MCP server <server command> and speaks MCP over stdio in front of it. Each tools/call
is checked against the tool's inputSchema: a list written as JSON text where a string is also
accepted is refused by name (a tool result with isError, the server never sees the call); JSON
text where no string is expected is repaired (only those strings change in the call's bytes);
everything else passes through unchanged, for the server to judge.

options:
  --log LEVEL             what to write on standard error: error, warn (default), info, debug
  --refuse-invalid        also refuse every call the tool's schema rejects (type errors,
                          missing fields, bounds…), every issue at once
  --list-timeout SECONDS  how long calls wait for the server's tool list before they go on
                          unchecked (default 10)
  -h, --help              this text
  -V, --version           the version";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Cli {
    Run {
        level: Level,
        options: Options,
        command: Vec<String>,
    },
    Help,
    Version,
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

/// Reads the command line (without the program name).
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
    let mut args = args.into_iter();
    let mut level = Level::Warn;
    let mut options = Options::default();
    while let Some(arg) = args.next() {
        if let Some(name) = value_of("--log", &arg, &mut args) {
            let name = name.map_err(|_| "--log needs a level: error, warn, info or debug")?;
            level = Level::parse(&name).ok_or_else(|| {
                format!("unknown log level {name:?}: use error, warn, info or debug")
            })?;
            continue;
        }
        if let Some(seconds) = value_of("--list-timeout", &arg, &mut args) {
            let seconds = seconds?;
            let parsed = seconds
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 1e9);
            let Some(parsed) = parsed else {
                return Err(format!(
                    "--list-timeout takes a number of seconds, not {seconds:?}"
                ));
            };
            options.list_timeout = Duration::from_secs_f64(parsed);
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
                return Ok(Cli::Run {
                    level,
                    options,
                    command,
                });
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            _ => {
                // The server command may also come without `--` when it does not start
                // with a dash.
                let command = std::iter::once(arg).chain(args).collect();
                return Ok(Cli::Run {
                    level,
                    options,
                    command,
                });
            }
        }
    }
    Err("no server command".into())
}

fn main() -> ExitCode {
    let (level, options, command) = match parse_args(std::env::args().skip(1)) {
        Ok(Cli::Run {
            level,
            options,
            command,
        }) => (level, options, command),
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

    match pipes::run(child, options) {
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
        let run = |level, options, command: &[&str]| Cli::Run {
            level,
            options,
            command: command.iter().map(|s| s.to_string()).collect(),
        };
        let default = Options::default();
        assert_eq!(
            args("--log debug -- python server.py --log x"),
            Ok(run(
                Level::Debug,
                default.clone(),
                &["python", "server.py", "--log", "x"]
            ))
        );
        assert_eq!(
            args("--log=info server -- x"),
            Ok(run(Level::Info, default.clone(), &["server", "--", "x"]))
        );
        assert_eq!(
            args("-- -weird"),
            Ok(run(Level::Warn, default.clone(), &["-weird"]))
        );
        assert_eq!(
            args("--refuse-invalid --list-timeout 2.5 -- s"),
            Ok(run(
                Level::Warn,
                Options {
                    refuse_invalid: true,
                    list_timeout: Duration::from_millis(2500)
                },
                &["s"]
            ))
        );
        assert_eq!(
            args("--list-timeout=0 s"),
            Ok(run(
                Level::Warn,
                Options {
                    list_timeout: Duration::ZERO,
                    ..Options::default()
                },
                &["s"]
            ))
        );
        assert!(args("--list-timeout soon -- s")
            .unwrap_err()
            .contains("\"soon\""));
        assert!(args("--list-timeout -1 -- s").is_err());
        assert!(args("--list-timeout").is_err());
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
