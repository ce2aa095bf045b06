//! The record of the repairs a recording apply pass makes (the `*_reported` surfaces, and
//! `tracing`): a thread-local list, touched only by such a pass.

use serde_json::Value;

use crate::path::Path;
use crate::report::{Repair, RepairKind};

std::thread_local! {
    // The repairs of the recording apply pass running on this thread (see `recording`).
    static RECORD: core::cell::RefCell<Vec<Repair>> = const { core::cell::RefCell::new(Vec::new()) };
}

/// Runs `apply`, a recording apply pass, and returns the repairs it recorded, in the order it
/// made them. This thread's record is set aside meanwhile, so a walk inside a walk keeps its
/// own.
pub(crate) fn recording(apply: &mut dyn FnMut()) -> Vec<Repair> {
    let outer = RECORD.with(|r| core::mem::take(&mut *r.borrow_mut()));
    apply();
    RECORD.with(|r| core::mem::replace(&mut *r.borrow_mut(), outer))
}

/// How many repairs this thread's record holds: a mark to [`forget_since`].
pub(crate) fn record_mark() -> usize {
    RECORD.with(|r| r.borrow().len())
}

/// Drops the repairs recorded since `mark` (an untagged member tried on a copy and not chosen).
pub(crate) fn forget_since(mark: usize) {
    RECORD.with(|r| r.borrow_mut().truncate(mark));
}

/// Records a repair in this thread's record (see [`Cx::repaired`]).
#[cold]
#[inline(never)]
pub(super) fn record_repair(at: &Path<'_>, kind: RepairKind, sent: &Value) {
    RECORD.with(|r| record_in(&mut r.borrow_mut(), at, kind, sent));
}

fn record_in(repairs: &mut Vec<Repair>, at: &Path<'_>, kind: RepairKind, sent: &Value) {
    let path = at.render();
    // JSON text whose parse is walked at the same position and parsed again: one repair
    // of that position, parsed more than once (the walk records the outer parse first).
    if kind == RepairKind::JsonText {
        if let Some(last) = repairs.last_mut() {
            let text = matches!(
                last.kind(),
                RepairKind::JsonText | RepairKind::NestedJsonText
            );
            if text && last.path() == path {
                *last.kind_mut() = RepairKind::NestedJsonText;
                return;
            }
        }
    }
    #[allow(unused_mut)]
    let mut repair = Repair::new(path, kind, at.order());
    #[cfg(feature = "tracing")]
    if crate::trace::values() {
        repair.sent = Some(match sent {
            Value::String(text) => text.as_str().into(),
            other => other.to_string().into(),
        });
    }
    let _ = sent;
    repairs.push(repair);
}
