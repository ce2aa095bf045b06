//! The walk of an untagged enum's array or object once the derive's probe of its first member
//! found something: a repair never changes the meaning of a value serde accepts
//! (`docs/rules.md#untagged`). The check and apply passes decide alike: serde's pick for the
//! value as sent, else the first member whose repaired copy serde reads as that member, else none.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::bounds::Bounds;
use crate::path::Path;
use crate::walk::cx::{forget_since, record_mark};
use crate::walk::Cx;

/// One member (variant) of an untagged enum, as [`untagged`] tries it.
#[derive(Clone, Copy)]
pub struct Member {
    /// It takes a JSON array (by its type's shape, or as a tuple variant).
    pub arrays: bool,
    /// It takes a JSON object (by its type's shape, or as a struct variant).
    pub objects: bool,
    /// Its walk, at the enum's place and with the enum's bounds.
    pub walk: fn(&mut Value, &mut Cx, &Path<'_>, Bounds),
}

/// serde's reading of `value` as sent, as a `T`, through the reader `from_value` uses.
#[inline]
pub fn deserialized<T: DeserializeOwned>(value: &Value) -> Option<T> {
    crate::json::de::from_copy(value).ok()
}

/// Decides an array or object at an untagged enum (`pick`: the member serde reads); `false`
/// when no member takes it, as sent or repaired.
#[cold]
#[inline(never)]
pub fn untagged(
    value: &mut Value,
    cx: &mut Cx,
    at: &Path<'_>,
    bounds: Bounds,
    members: &[Member],
    pick: fn(&Value) -> Option<usize>,
) -> bool {
    if !cx.is_apply() {
        // Past the depth limit the value is refused and serde, which would recurse, is not asked.
        let mut depth = cx.value_probe();
        depth.untyped(value, at);
        if depth.too_deep() {
            cx.absorb(depth);
            return true;
        }
    }
    match choose(value, cx, at, bounds, members, pick) {
        None => false,
        Some((i, repaired)) => {
            // The chosen member is walked once more as sent, so its own refusals (R3, item bounds,
            // keys sent twice) stand; the apply pass writes only the chosen repair.
            let walked = repaired.is_none() || cx.has_duplicates();
            if walked && !cx.is_apply() {
                let mut probe = cx.probe();
                (members[i].walk)(value, &mut probe, at, bounds);
                cx.absorb(probe);
            }
            if let Some(repaired) = repaired {
                cx.replace(value, repaired);
            }
            true
        }
    }
}

/// The member serde chooses, and the repaired copy if it takes only that; from the text when it
/// sent some key twice.
fn choose(
    value: &mut Value,
    cx: &mut Cx,
    at: &Path<'_>,
    bounds: Bounds,
    members: &[Member],
    pick: fn(&Value) -> Option<usize>,
) -> Option<(usize, Option<Value>)> {
    let array = value.is_array();
    let takes = |member: &Member| if array { member.arrays } else { member.objects };
    if cx.has_duplicates() {
        if let Some(p) = pick(value).filter(|&p| p < members.len()) {
            return from_text(value, cx, at, bounds, members, p, takes);
        }
    }
    if let Some(i) = pick(value).filter(|&i| i < members.len()) {
        return Some((i, None));
    }
    for (i, member) in members.iter().enumerate() {
        if !takes(member) {
            continue;
        }
        let mut probe = cx.value_probe();
        (member.walk)(value, &mut probe, at, bounds);
        // A member with an issue is refused; one with nothing to repair, serde refused as sent.
        if !probe.repairs_only() {
            continue;
        }
        let mut repaired = value.clone();
        // The member's repairs on the copy stand only if the copy replaces the value.
        let mark = cx.records().then(record_mark);
        (member.walk)(&mut repaired, &mut cx.apply_probe(), at, bounds);
        if pick(&repaired) == Some(i) {
            return Some((i, Some(repaired)));
        }
        if let Some(mark) = mark {
            forget_since(mark);
        }
    }
    None
}

/// serde's pick for text that sent a key twice: a member meeting a declared key sent twice
/// fails and serde tries the next. `p` is the pick for the `Value`; `None`: no member reads it.
fn from_text(
    value: &mut Value,
    cx: &mut Cx,
    at: &Path<'_>,
    bounds: Bounds,
    members: &[Member],
    p: usize,
    takes: impl Fn(&Member) -> bool,
) -> Option<(usize, Option<Value>)> {
    for (i, member) in members.iter().enumerate().skip(p) {
        if i > p && !takes(member) {
            continue;
        }
        let mut probe = cx.probe();
        (member.walk)(value, &mut probe, at, bounds);
        let met = probe.met_duplicate();
        let clean = probe.is_clean();
        cx.end_probe(probe);
        if (i == p && !met) || clean {
            return Some((i, None));
        }
    }
    None
}
