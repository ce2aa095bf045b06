//! `tracing` events (feature `tracing`), target `stitch`; without the feature these are empty.
//! Levels follow rmcp and tower-http: a refusal is `WARN` (a caller's error, not the
//! server's), a repair `DEBUG` (the call ran as the model meant).

use crate::error::ArgsError;
use crate::report::Repair;

#[cfg(feature = "tracing")]
mod on {
    use core::sync::atomic::{AtomicBool, Ordering};

    use crate::error::{ArgsError, IssueKind};
    use crate::report::Repair;

    static VALUES: AtomicBool = AtomicBool::new(false);

    #[inline]
    pub(crate) fn values() -> bool {
        VALUES.load(Ordering::Relaxed)
    }

    /// Makes stitch's `tracing` events carry what the caller sent (off by default: tool
    /// arguments may be private): a refusal's `reason` (the issue's message) and a repair's
    /// `sent` (the replaced text). A run-time switch, not a feature, so no dependency can turn
    /// it on by accident.
    pub fn trace_values(on: bool) {
        VALUES.store(on, Ordering::Relaxed);
    }

    /// Out of line: only a call with something to repair asks.
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

#[inline]
pub(crate) fn wants_repairs() -> bool {
    #[cfg(feature = "tracing")]
    return on::wants_repairs();
    #[cfg(not(feature = "tracing"))]
    false
}

/// `tool` is a function (`type_name`), so callers need not be generic over the type.
#[inline]
pub(crate) fn repaired(tool: fn() -> &'static str, repairs: &[Repair]) {
    #[cfg(feature = "tracing")]
    if !repairs.is_empty() {
        on::repaired(tool(), repairs);
    }
    let _ = (tool, repairs);
}

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
