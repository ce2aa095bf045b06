//! The record of a recording apply pass's repairs (the `*_reported` surfaces, `tracing`): a
//! thread-local list.

use serde_json::Value;

use crate::path::Path;
use crate::report::{Repair, RepairKind};

std::thread_local! {
    static RECORD: core::cell::RefCell<Vec<Repair>> = const { core::cell::RefCell::new(Vec::new()) };
}

/// Runs a recording apply pass and returns its repairs in order; this thread's record is set
/// aside meanwhile, so a walk inside a walk keeps its own.
pub(crate) fn recording(apply: &mut dyn FnMut()) -> Vec<Repair> {
    let outer = RECORD.with(|r| core::mem::take(&mut *r.borrow_mut()));
    apply();
    RECORD.with(|r| core::mem::replace(&mut *r.borrow_mut(), outer))
}

pub(crate) fn record_mark() -> usize {
    RECORD.with(|r| r.borrow().len())
}

/// Drops the repairs recorded since `mark` (an untagged member tried on a copy and not chosen).
pub(crate) fn forget_since(mark: usize) {
    RECORD.with(|r| r.borrow_mut().truncate(mark));
}

#[cold]
#[inline(never)]
pub(super) fn record_repair(at: &Path<'_>, kind: RepairKind, sent: &Value) {
    RECORD.with(|r| record_in(&mut r.borrow_mut(), at, kind, sent));
}

fn record_in(repairs: &mut Vec<Repair>, at: &Path<'_>, kind: RepairKind, sent: &Value) {
    let path = at.render();
    // JSON text parsed again at the same position is one repair, parsed more than once.
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
