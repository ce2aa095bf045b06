//! The walk of an untagged enum's array or object, past its quick test: a repair never
//! changes the meaning of a value serde accepts (`docs/rules.md#untagged`).
//!
//! The derive walks the first member that takes the value's kind in a probe
//! ([`Cx::probe`]); when that member finds nothing (no issue, nothing to repair), the value is
//! accepted as sent and nothing here runs. Otherwise [`untagged`] decides, the same way in
//! the check pass and in the apply pass:
//!
//! 1. the member serde picks for the value as sent is walked, without repairs (its own
//!    refusals, R3 and item bounds, stand);
//! 2. when serde picks none, each member that takes the kind is tried in declaration order on
//!    a copy: its check finds no issue, its repairs are applied to the copy, and serde reads
//!    the copy as that very member. The first that passes wins: the check pass notes the
//!    repair due, the apply pass writes the copy;
//! 3. when none passes, the caller reports serde's message for the value as sent.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::bounds::Bounds;
use crate::path::Path;
use crate::walk::cx::{forget_since, record_mark};
use crate::walk::Cx;

/// One member (variant) of an untagged enum, as [`untagged`] tries it.
#[derive(Clone, Copy)]
pub struct Member {
    /// It takes a JSON array (its type's shape says so, or it is a tuple variant).
    pub arrays: bool,
    /// It takes a JSON object (its type's shape says so, or it is a struct variant).
    pub objects: bool,
    /// Its walk, at the enum's place and with the enum's bounds.
    pub walk: fn(&mut Value, &mut Cx, &Path<'_>, Bounds),
}

/// serde's reading of `value` as sent, as a `T` (on a copy, through the reader `from_value`
/// uses: see `json::de::from_copy`).
#[inline]
pub fn deserialized<T: DeserializeOwned>(value: &Value) -> Option<T> {
    crate::json::de::from_copy(value).ok()
}

/// Decides an array or object `value` at an untagged enum (see the module docs): `members`
/// in declaration order, `pick` the index of the member serde reads from a value. `false`
/// when no member takes the value, as sent or repaired: the caller reports serde's message
/// for it as sent.
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
        // Past the depth limit the value is refused as every walk refuses it, and serde is
        // not asked to read it (it would recurse as deep as the value goes).
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
            // The chosen member is walked once more as the text sent it: its own refusals
            // (R3, item bounds, keys sent twice) stand. Nothing else is reported, and in the
            // apply pass nothing but the chosen repair is written.
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

/// The member of `value` (walked by check passes only, so left as it is) and, when it is
/// taken only once repaired, the repaired copy. Chosen as serde chooses it: from the value a
/// `Value` holds, or, when the arguments' text sent some key twice, from that text
/// ([`from_text`]).
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
        // A member with an issue is refused whatever else it repairs; one with nothing to
        // repair was refused by serde as sent.
        if !probe.repairs_only() {
            continue;
        }
        let mut repaired = value.clone();
        // A recording apply pass records the member's repairs as it makes them on the copy;
        // they stand only if the copy replaces the value.
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

/// serde's pick for the text, which sent some key twice: serde refuses a member that meets a
/// declared key sent twice and tries the next, where a `Value` holds each key once. `p` is
/// serde's pick for the `Value`: the members before it fail on the text too (a key sent twice
/// never makes a member read). `p` itself stands unless it meets a key sent twice; after it,
/// the first member that takes the value's kind and whose walk finds nothing (no key sent
/// twice, nothing to refuse or repair) is serde's pick. `None` when no member is: the caller
/// refuses the value as serde refuses the text (`Cx::no_member`).
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
