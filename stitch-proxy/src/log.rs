//! Logs on standard error, by level (`--log error|warn|info|debug`), as text or, with
//! `--log-format json`, one JSON object a line; standard output carries protocol messages only.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// How much the proxy says on standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Only what stops the proxy or loses a message.
    Error = 1,
    /// Also what the proxy could not do as asked (a schema it cannot read, a malformed line).
    Warn = 2,
    /// Also each refused and repaired call, and the server's start and exit.
    Info = 3,
    /// Also every message routed.
    Debug = 4,
}

impl Level {
    /// The level named on the command line.
    pub fn parse(name: &str) -> Option<Level> {
        match name {
            "error" => Some(Level::Error),
            "warn" => Some(Level::Warn),
            "info" => Some(Level::Info),
            "debug" => Some(Level::Debug),
            _ => None,
        }
    }

    /// The level's name, as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
            Level::Debug => "debug",
        }
    }
}

static LEVEL: AtomicU8 = AtomicU8::new(Level::Warn as u8);

/// Sets the level for the rest of the run.
pub fn set_level(level: Level) {
    LEVEL.store(level as u8, Ordering::Relaxed);
}

/// Whether messages at `level` are written.
pub fn enabled(level: Level) -> bool {
    level as u8 <= LEVEL.load(Ordering::Relaxed)
}

static JSON: AtomicBool = AtomicBool::new(false);

/// `--log-format json`: every line on standard error is one JSON object.
pub fn set_json(json: bool) {
    JSON.store(json, Ordering::Relaxed);
}

/// Whether lines are written as JSON.
pub fn json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Writes one line `stitch-proxy: <level>: <message>` to standard error; in the JSON format
/// `{"time":…,"level":…,"event":"log","message":…}`.
pub fn write(level: Level, message: std::fmt::Arguments<'_>) {
    if json() {
        let message = crate::record::quoted(&message.to_string());
        line(&format!(
            r#"{{"time":"{}","level":"{}","event":"log","message":{message}}}"#,
            crate::record::now(),
            level.name()
        ));
        return;
    }
    line(&text_line(level, &message.to_string()));
}

/// The text format's line: a line break, carriage return or other control character in
/// `message` (a tool name or a key a peer chose) is written escaped, so that no peer can start
/// a log line of its own or drive the terminal.
fn text_line(level: Level, message: &str) -> String {
    let message: String = message
        .chars()
        .flat_map(|c| match c {
            '\n' => "\\n".chars().collect::<Vec<_>>(),
            '\r' => "\\r".chars().collect(),
            c if c.is_control() && c != '\t' => c.escape_unicode().collect(),
            c => vec![c],
        })
        .collect();
    format!("stitch-proxy: {}: {message}", level.name())
}

/// Writes `text` and a line end to standard error, in one locked write.
pub fn line(text: &str) {
    use std::io::Write;
    // One locked write per line, so lines from the proxy's threads never interleave; a failed
    // write to standard error has nowhere to be reported.
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(b'\n');
    let _ = std::io::stderr().lock().write_all(&bytes);
}

/// Logs at a level: `log!(Warn, "…", args)`; the arguments are not formatted when the level
/// is off.
macro_rules! log {
    ($level:ident, $($arg:tt)*) => {
        if $crate::log::enabled($crate::log::Level::$level) {
            $crate::log::write($crate::log::Level::$level, format_args!($($arg)*));
        }
    };
}
pub(crate) use log;

#[cfg(test)]
mod tests {
    use super::{text_line, Level};

    #[test]
    fn a_line_break_a_peer_sent_cannot_forge_a_line() {
        let line = text_line(
            Level::Warn,
            "tool a\nstitch-proxy: error: forged\r: x\u{1b}[2J",
        );
        assert_eq!(
            line,
            "stitch-proxy: warn: tool a\\nstitch-proxy: error: forged\\r: x\\u{1b}[2J"
        );
    }
}
