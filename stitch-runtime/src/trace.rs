//! `tracing` events (feature `tracing`): one event per refused issue and per repair, under
//! the target `stitch`. Without the feature every function here is empty and inlined away.
//!
//! Levels, as the servers stitch sits in choose theirs for comparable events: rmcp logs a
//! request answered with an error at `WARN` (`response error`) and an answer, or a designed
//! fallback it took for the peer, at `DEBUG`; tower-http's trace layer logs every response at
//! `DEBUG` and keeps `ERROR` for the server's own failures, which a caller's bad arguments are
//! not. So a refusal (the call did not run) is `WARN` and a repair (the call ran, as the
//! model meant it) is `DEBUG`.

use crate::error::ArgsError;
use crate::report::Repair;

#[cfg(feature = "tracing")]
mod on {
    use core::sync::atomic::{AtomicBool, Ordering};

    use crate::error::{ArgsError, IssueKind};
    use crate::report::Repair;

    static VALUES: AtomicBool = AtomicBool::new(false);

    /// Whether stitch's events carry what the caller sent; see [`trace_values`].
    #[inline]
    pub(crate) fn values() -> bool {
        VALUES.load(Ordering::Relaxed)
    }

    /// Makes stitch's `tracing` events carry what the caller sent (off by default: tool
    /// arguments may be private). With it on, a refusal's event has a `reason` field (the
    /// issue's full message, which quotes the value in serde's words) and a repair's event a
    /// `sent` field (the text that was replaced). A switch of the program, not a feature: a
    /// library deep in the dependency graph cannot turn it on for everyone by accident.
    pub fn trace_values(on: bool) {
        VALUES.store(on, Ordering::Relaxed);
    }

    /// Whether a subscriber listens to repair events (so the apply pass records them). Out of
    /// line: a call reaches it only when it has something to repair.
    #[cold]
    #[inline(never)]
    pub(crate) fn wants_repairs() -> bool {
        tracing::enabled!(target: "stitch", tracing::Level::DEBUG)
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn repaired(tool: &'static str, repairs: &[Repair]) {
        for repair in repairs {
            let (path, kind) = (repair.path(), repair.kind().as_str());
            match repair.sent.as_deref() {
                Some(sent) if values() => tracing::debug!(
                    target: "stitch", tool, path, kind, outcome = "repaired", sent,
                    "tool arguments repaired"
                ),
                _ => tracing::debug!(
                    target: "stitch", tool, path, kind, outcome = "repaired",
                    "tool arguments repaired"
                ),
            }
        }
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn refused(tool: &'static str, error: ArgsError) -> ArgsError {
        for issue in error.issues() {
            // `--help` is a question, not a mistake.
            if issue.kind() == IssueKind::Help {
                continue;
            }
            let (path, kind) = (issue.path(), issue.kind().as_str());
            if values() {
                tracing::warn!(
                    target: "stitch", tool, path, kind, outcome = "refused",
                    reason = issue.message(), "tool arguments refused"
                );
            } else {
                tracing::warn!(
                    target: "stitch", tool, path, kind, outcome = "refused",
                    "tool arguments refused"
                );
            }
        }
        error
    }
}

#[cfg(feature = "tracing")]
pub use self::on::trace_values;
#[cfg(feature = "tracing")]
pub(crate) use self::on::values;

/// Whether the apply pass should record its repairs for the events.
#[inline]
pub(crate) fn wants_repairs() -> bool {
    #[cfg(feature = "tracing")]
    return on::wants_repairs();
    #[cfg(not(feature = "tracing"))]
    false
}

/// The events of an accepted call of the tool `tool` names (`core::any::type_name` of its
/// type: a function, so the steps that call this need not be generic over the type), in
/// which `repairs` were made.
#[inline]
pub(crate) fn repaired(tool: fn() -> &'static str, repairs: &[Repair]) {
    #[cfg(feature = "tracing")]
    if !repairs.is_empty() {
        on::repaired(tool(), repairs);
    }
    let _ = (tool, repairs);
}

/// The events of a refused call of the tool `tool` names (as for [`repaired`]); hands the
/// error back.
#[inline]
pub(crate) fn refused(tool: fn() -> &'static str, error: ArgsError) -> ArgsError {
    #[cfg(feature = "tracing")]
    return on::refused(tool(), error);
    #[cfg(not(feature = "tracing"))]
    {
        let _ = tool;
        error
    }
}
