//! Logs on standard error, by level (`--log error|warn|info|debug`); standard output carries
//! protocol messages only.

use std::sync::atomic::{AtomicU8, Ordering};

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

    fn name(self) -> &'static str {
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

/// Writes one line `stitch-proxy: <level>: <message>` to standard error.
pub fn write(level: Level, message: std::fmt::Arguments<'_>) {
    use std::io::Write;
    // One locked write per line, so lines from the proxy's threads never interleave; a failed
    // write to standard error has nowhere to be reported.
    let _ = writeln!(
        std::io::stderr().lock(),
        "stitch-proxy: {}: {message}",
        level.name()
    );
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
