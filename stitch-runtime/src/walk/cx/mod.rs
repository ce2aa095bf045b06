//! [`Cx`]: the state of one walk and the steps every position shares: report, replace, repair
//! (R1), refuse (R3), check a length, go deeper (R7).

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::error::{self, Issue};
use crate::json::depth::{is_recursion_limit, MAX_DEPTH};
use crate::json::parse::{duplicate_field, Duplicates};
use crate::limits::Limits;
use crate::path::{Order, Path};
use crate::report::RepairKind;
use crate::schema::Schema;
use crate::walk::{Coerce, Kind, Shape};

mod issues;
mod probe;
mod record;

use self::issues::address;
use self::record::record_repair;
pub(crate) use self::record::{forget_since, record_mark, recording};

/// An issue kept by the check pass, with where it sorts ([`Path::order`]) and when it came.
#[derive(Debug)]
struct Found {
    order: Order,
    seq: usize,
    issue: Issue,
}

/// The state of one walk: the mode, the depth, and the issues found.
#[derive(Debug)]
pub struct Cx {
    apply: bool,
    lenient: bool,
    // The field's constraints, for each number or string its type admits; `None` almost always.
    limits: Option<&'static Limits>,
    pending: bool,
    too_deep: bool,
    depth: usize,
    issues: Vec<Found>,
    seen: usize,
    omitted: usize,
    /// The keys the arguments' text sent twice (none for a `Value`).
    duplicates: Duplicates,
    // A `OneOrMany<T>` whose one value is walked as a `T`, for the message of a type error there.
    one_or_many: Option<(usize, &'static Schema)>,
    // How many untagged probes this walk runs inside: past `UNTAGGED_NEST` an untagged enum stops
    // searching its members' repairs, so nesting costs linear, not exponential, time.
    nest: u8,
    // Whether this apply pass records its repairs (`Cx::repaired`); kept in the padding.
    record: bool,
    // Whether this walk refused a key the text sent twice (a member serde refuses for that text).
    met_duplicate: bool,
    // Whether only R3's issues are kept; the others are still found, so probes decide as usual.
    rules_only: bool,
}

/// How many untagged decisions may nest before the deeper ones take serde's verdict on the
/// value as sent (`docs/rules.md#untagged`).
const UNTAGGED_NEST: u8 = 4;

impl Cx {
    pub(crate) fn new(apply: bool) -> Cx {
        Cx {
            apply,
            lenient: false,
            limits: None,
            pending: false,
            too_deep: false,
            depth: 0,
            issues: Vec::new(),
            seen: 0,
            omitted: 0,
            duplicates: Duplicates::NONE,
            one_or_many: None,
            nest: 0,
            record: false,
            met_duplicate: false,
            rules_only: false,
        }
    }

    /// A check pass that keeps only R3's refusals (for the schema-driven `coerce_rules_only`); its
    /// probes keep every issue, so a union decides as in any other walk.
    #[cfg(feature = "json-schema")]
    pub(crate) fn rules_only() -> Cx {
        Cx {
            rules_only: true,
            ..Cx::new(false)
        }
    }

    /// The apply pass; with `record`, run it inside [`recording`].
    pub(crate) fn apply_pass(record: bool) -> Cx {
        Cx {
            record,
            ..Cx::new(true)
        }
    }

    pub(crate) fn with_duplicates(duplicates: Duplicates) -> Cx {
        Cx {
            duplicates,
            ..Cx::new(false)
        }
    }

    /// A declared key `name` whose value `item` is at `at`: `false` when the text sent the key
    /// twice, refused as serde refuses it; the value is then not walked.
    #[inline]
    pub fn sent_once(&mut self, item: &Value, at: &Path<'_>, name: &'static str) -> bool {
        self.duplicates.is_empty() || self.once(item, at, name)
    }

    #[cold]
    fn once(&mut self, item: &Value, at: &Path<'_>, name: &'static str) -> bool {
        if self.duplicates.contains(item) {
            self.met_duplicate = true;
            self.report(at, || Issue::invalid(at.render(), duplicate_field(name)));
            return false;
        }
        true
    }

    /// [`Cx::sent_once`] of the key `key` of the object at `parent`, its path built only if needed.
    #[inline]
    pub fn key_once(&mut self, item: &Value, parent: &Path<'_>, key: &'static str) -> bool {
        self.duplicates.is_empty() || self.once(item, &parent.key(key), key)
    }

    /// Whether the text sent the tag `tag` of `map` twice (then refused as serde refuses it).
    #[inline]
    pub fn tag_twice(
        &mut self,
        map: &Map<String, Value>,
        at: &Path<'_>,
        tag: &'static str,
    ) -> bool {
        !self.duplicates.is_empty() && self.tag_sent_twice(map, at, tag)
    }

    #[cold]
    fn tag_sent_twice(
        &mut self,
        map: &Map<String, Value>,
        at: &Path<'_>,
        tag: &'static str,
    ) -> bool {
        match map.get(tag) {
            Some(item) => !self.once(item, &at.key(tag), tag),
            None => false,
        }
    }

    /// The key of an externally tagged enum's variant: `false` when the text sent it twice, refused
    /// at `whole` (the enum's path) in serde's words for an object of more keys.
    #[inline]
    pub fn variant_once(&mut self, item: &Value, whole: &Path<'_>) -> bool {
        self.duplicates.is_empty() || self.variant_twice(item, whole)
    }

    #[cold]
    fn variant_twice(&mut self, item: &Value, whole: &Path<'_>) -> bool {
        if self.duplicates.contains(item) {
            self.met_duplicate = true;
            self.report(whole, || {
                Issue::invalid(whole.render(), error::one_key_only())
            });
            return false;
        }
        true
    }

    pub(crate) fn met_duplicate(&self) -> bool {
        self.met_duplicate
    }

    pub(crate) fn records(&self) -> bool {
        self.record
    }

    /// Whether this is the apply pass (which reports nothing).
    #[inline]
    pub fn is_apply(&self) -> bool {
        self.apply
    }

    /// Whether a broken constraint would be reported (so a pattern never runs for nothing).
    #[cfg(feature = "json-schema")]
    pub(crate) fn checks_constraints(&self) -> bool {
        !self.apply && !self.rules_only
    }

    /// Sets whether numbers and booleans written as text are read, returning the old setting.
    #[inline]
    pub fn set_lenient(&mut self, lenient: bool) -> bool {
        core::mem::replace(&mut self.lenient, lenient)
    }

    /// Whether numbers and booleans written as text are read here.
    #[inline]
    pub fn is_lenient(&self) -> bool {
        self.lenient
    }

    /// Sets the constraints of the field about to be walked, returning the previous ones.
    #[inline]
    pub fn set_limits(&mut self, limits: Option<&'static Limits>) -> Option<&'static Limits> {
        core::mem::replace(&mut self.limits, limits)
    }

    /// Whether the position being walked has constraints.
    #[inline]
    pub fn has_limits(&self) -> bool {
        self.limits.is_some()
    }

    /// Checks a number or string against the field's constraints; the first broken is an issue.
    #[inline]
    pub fn limited(&mut self, value: &Value, at: &Path<'_>) {
        if let Some(limits) = self.limits {
            self.check_limits(limits, value, at);
        }
    }

    /// [`Cx::limited`] with the constraints given (the schema-driven coercer's own).
    #[cold]
    pub(crate) fn check_limits(&mut self, limits: &Limits, value: &Value, at: &Path<'_>) {
        if self.apply {
            return;
        }
        if let Some(broken) = limits.broken(value) {
            self.report(at, || Issue::invalid(at.render(), broken));
        }
    }

    /// A repair at `at` of what the caller sent: the check pass notes it is due, the apply pass
    /// records it if asked. The site writes the change itself, in the apply pass only.
    #[inline]
    pub fn repaired(&mut self, at: &Path<'_>, kind: RepairKind, sent: &Value) {
        if !self.apply {
            self.pending = true;
        } else if self.record {
            record_repair(at, kind, sent);
        }
    }

    /// Replaces `value` with `new` in the apply pass; the check pass notes the change is due.
    pub fn replace(&mut self, value: &mut Value, new: Value) {
        if self.apply {
            *value = new;
        } else {
            self.pending = true;
        }
    }

    /// Walks a `OneOrMany`'s one value: a type error right there says what the union takes.
    #[inline]
    pub fn as_one_of_many(
        &mut self,
        at: &Path<'_>,
        schema: &'static Schema,
        walk: impl FnOnce(&mut Cx),
    ) {
        let prev = self.one_or_many.replace((address(at), schema));
        walk(self);
        self.one_or_many = prev;
    }

    /// One issue, in serde's words, per required field of the object at `at` not sent.
    #[cold]
    #[inline(never)]
    pub fn missing(&mut self, at: &Path<'_>, fields: &[(&'static str, u32)], missing: u128) {
        for &(name, ordinal) in fields {
            if missing & (1u128 << ordinal) != 0 {
                let here = at.field(name, ordinal);
                self.report(&here, || {
                    let e = <serde_json::Error as serde::de::Error>::missing_field(name);
                    Issue::invalid(here.render(), e)
                });
            }
        }
    }

    /// A key no field claims in an object that denies unknown fields, in serde's words.
    #[cold]
    #[inline(never)]
    pub fn unknown_field(&mut self, at: &Path<'_>, key: &str, expected: &'static [&'static str]) {
        let here = at.key(key);
        self.report(&here, || {
            let e = <serde_json::Error as serde::de::Error>::unknown_field(key, expected);
            Issue::invalid(here.render(), e)
        });
    }

    /// Checks a real array's length against the field's bounds.
    #[inline]
    pub fn check_len(&mut self, len: usize, bounds: Bounds, at: &Path<'_>) {
        if bounds.contains(len) {
            return;
        }
        self.report(at, || {
            Issue::invalid(at.render(), error::item_count(len, bounds))
        });
    }

    /// Goes one level deeper; `false` (and a `TooDeep` issue) past [`MAX_DEPTH`]. Every `true`
    /// must be matched by [`Cx::leave`].
    #[inline]
    pub fn enter(&mut self, at: &Path<'_>) -> bool {
        if self.depth >= MAX_DEPTH {
            self.too_deep = true;
            self.report(at, || Issue::too_deep(at.render(), MAX_DEPTH));
            return false;
        }
        self.depth += 1;
        true
    }

    /// Comes back up one level.
    #[inline]
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// R1: a string where `T` expects none is replaced by what it parses to, if the position takes
    /// that kind, and walked as `T`; else it is checked as sent.
    #[inline]
    pub fn repair<T: Coerce>(&mut self, value: &mut Value, at: &Path<'_>, bounds: Bounds) {
        self.repair_typed(value, at, bounds, T::SHAPE, T::walk, issues::verdict::<T>);
    }

    /// [`Cx::repair`] without the type, so it compiles once rather than once per type.
    #[cold]
    #[inline(never)]
    fn repair_typed(
        &mut self,
        value: &mut Value,
        at: &Path<'_>,
        bounds: Bounds,
        shape: Shape,
        walk: crate::walk::WalkFn,
        verdict: issues::Verdict,
    ) {
        if !self.repair_by(value, at, shape, &mut |parsed, cx| {
            walk(parsed, cx, at, bounds)
        }) {
            self.check_by(value, at, verdict);
        }
    }

    /// R1 for a position with no type of its own (a variant's content); `false` if not repaired.
    pub fn repair_with(
        &mut self,
        value: &mut Value,
        at: &Path<'_>,
        shape: Shape,
        walk: fn(&mut Value, &mut Cx, &Path<'_>),
    ) -> bool {
        self.repair_by(value, at, shape, &mut |parsed, cx| walk(parsed, cx, at))
    }

    // Not generic, so each repairable type adds one small closure, not a copy of this.
    pub(crate) fn repair_by(
        &mut self,
        value: &mut Value,
        at: &Path<'_>,
        shape: Shape,
        walk: &mut dyn FnMut(&mut Value, &mut Cx),
    ) -> bool {
        let Value::String(text) = &*value else {
            return false;
        };
        let Some(mut parsed) = self.parse_text(text, at) else {
            return false;
        };
        // Text written twice (a JSON string holding JSON text) is read as many times as written,
        // except at a union, whose members decide on the inner string.
        let mut layers = 1;
        if shape.kind != Kind::Union {
            while let Value::String(inner) = &parsed {
                let Some(next) = self.parse_text(inner, at) else {
                    return false;
                };
                parsed = next;
                layers += 1;
            }
        }
        // Only a value of a kind the position takes replaces the text: `"5"` where a list is
        // expected stays, and is refused as sent.
        let fits = match parsed {
            Value::Array(_) => shape.arrays,
            Value::Object(_) => shape.objects,
            _ => shape.kind == Kind::Union,
        };
        if !fits {
            return false;
        }
        if !self.enter(at) {
            return true;
        }
        // Recorded before the walk, so a repair inside comes after; one per layer of text.
        for _ in 0..layers {
            self.repaired(at, RepairKind::JsonText, value);
        }
        walk(&mut parsed, self);
        self.leave();
        if self.apply {
            *value = parsed;
        }
        true
    }

    fn parse_text(&mut self, text: &str, at: &Path<'_>) -> Option<Value> {
        match serde_json::from_str::<Value>(text) {
            Ok(parsed) => Some(parsed),
            Err(e) => {
                if is_recursion_limit(&e) {
                    self.too_deep = true;
                    self.report(at, || Issue::too_deep(at.render(), MAX_DEPTH));
                }
                None
            }
        }
    }

    /// A value stitch does not walk into (unknown keys, `Value`, opaque fields): depth only.
    pub fn untyped(&mut self, value: &Value, at: &Path<'_>) {
        match value {
            Value::Array(items) if self.enter(at) => {
                for (i, item) in items.iter().enumerate() {
                    if is_container(item) {
                        self.untyped(item, &at.index(i));
                    }
                }
                self.leave();
            }
            Value::Object(map) if self.enter(at) => {
                for (key, item) in map {
                    if is_container(item) {
                        self.untyped(item, &at.key(key));
                    }
                }
                self.leave();
            }
            _ => {}
        }
    }
}

#[inline]
pub(crate) fn is_container(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}
