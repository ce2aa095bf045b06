//! The bounds every peer is held to, in one place: whatever a client or a server sends, the
//! proxy's memory and time per message stay within these. Set once from the command line
//! (`--max-message`), read everywhere else.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The default of `--max-message`: 64 MiB.
pub const DEFAULT_MAX_MESSAGE: usize = 64 << 20;

static MAX_MESSAGE: AtomicUsize = AtomicUsize::new(DEFAULT_MAX_MESSAGE);

/// The largest message read from any peer, in bytes: a stdio line (either side), an SSE
/// event's data, a JSON answer of an `--upstream` server. A longer one is dropped, with a
/// warning, and never held whole.
pub fn max_message() -> usize {
    MAX_MESSAGE.load(Ordering::Relaxed)
}

/// Sets [`max_message`] (`--max-message`).
pub fn set_max_message(bytes: usize) {
    MAX_MESSAGE.store(bytes.max(1024), Ordering::Relaxed);
}
