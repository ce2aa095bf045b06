//! [`Cx`]: the state of one walk (mode, depth, issues) and the steps every position shares:
//! report, replace, repair (R1), refuse (R3), check a length, go deeper (R7).

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
    // The constraints of the field being walked (`#[stitch(minimum = …)]`), for each number or
    // string its type admits; `None` almost always.
    limits: Option<&'static Limits>,
    pending: bool,
    too_deep: bool,
    depth: usize,
    issues: Vec<Found>,
    seen: usize,
    omitted: usize,
    /// The keys the arguments' text sent twice (none for a `Value`).
    duplicates: Duplicates,
    // A `OneOrMany<T>` position whose one value is walked as a `T`: a type error found right
    // there says what the union takes (its address and `T`'s schema).
    one_or_many: Option<(usize, &'static Schema)>,
    // How many probes this walk runs inside (untagged enums decide by probing their members):
    // past `UNTAGGED_NEST`, an untagged enum no longer searches its members' repairs, so nested
    // untagged enums cost time linear in the value, not exponential in their nesting.
    nest: u8,
    // Whether this apply pass records its repairs (`Cx::repaired`), in this thread's record
    // (`RECORD`): a flag in the state's padding, so a walk that records nothing carries nothing
    // more than before.
    record: bool,
    // Whether this walk refused a key the text sent twice (an untagged enum's member that
    // meets one is a member serde refuses for that text): in the padding too.
    met_duplicate: bool,
    // Whether this walk keeps only the issues of R3 (lists written as text): the other issues
    // are found (a probe still sees them) and dropped when kept here (`Cx::rules_only`).
    rules_only: bool,
}

/// How many untagged decisions may nest before the deeper ones stop searching for repairs
/// (they take serde's verdict on the value as sent). Each level may walk its value a few times,
/// so this bounds that factor for any input (`docs/rules.md#untagged`).
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

    /// A check pass that keeps only the refusals of R3 (lists written as text); every other
    /// issue is left to whoever validates next. Its probes keep every issue, so a union decides
    /// as in any other walk. (The schema-driven coercer's `coerce_rules_only` is its one
    /// user.)
    #[cfg(feature = "json-schema")]
    pub(crate) fn rules_only() -> Cx {
        Cx {
            rules_only: true,
            ..Cx::new(false)
        }
    }

    /// The apply pass of a call; `record`: whether it records its repairs (run it inside
    /// [`recording`]).
    pub(crate) fn apply_pass(record: bool) -> Cx {
        Cx {
            record,
            ..Cx::new(true)
        }
    }

    /// A check pass over a value read from text that sent the keys `duplicates` twice.
    pub(crate) fn with_duplicates(duplicates: Duplicates) -> Cx {
        Cx {
            duplicates,
            ..Cx::new(false)
        }
    }

    /// A declared key `name` whose value `item` is found at `at`: `false` when the text sent
    /// the key twice in its object, which is refused as serde refuses it (`duplicate field`);
    /// the value is then not to be walked. One predictable branch when the text sent no key
    /// twice (always, for a `Value`). Serves fields, tags and content keys alike.
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

    /// [`Cx::sent_once`] of the key `key` of the object at `parent` (a tag, a content key),
    /// whose value is `item`: the path is built only when the text sent some key twice.
    #[inline]
    pub fn key_once(&mut self, item: &Value, parent: &Path<'_>, key: &'static str) -> bool {
        self.duplicates.is_empty() || self.once(item, &parent.key(key), key)
    }

    /// Whether the text sent the tag `tag` of the object `map` at `at` twice: then it is
    /// refused as serde refuses it (`duplicate field`). One test of an empty list when the
    /// text sent no key twice.
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

    /// The key of an externally tagged enum's variant, whose value is `item`: `false` when
    /// the text sent it twice (serde reads one key, and refuses a second), which is refused at
    /// `whole`, the enum's path, in serde's words for an object of more keys.
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

    /// Whether this walk refused a key sent twice.
    pub(crate) fn met_duplicate(&self) -> bool {
        self.met_duplicate
    }

    /// Whether this is an apply pass that records its repairs.
    pub(crate) fn records(&self) -> bool {
        self.record
    }

    /// Whether this is the apply pass (which reports nothing).
    #[inline]
    pub fn is_apply(&self) -> bool {
        self.apply
    }

    /// Whether a value constraint broken here is reported: not in an apply pass, nor in a
    /// rules-only pass, which would drop it (so a pattern never runs there for nothing).
    #[cfg(feature = "json-schema")]
    pub(crate) fn checks_constraints(&self) -> bool {
        !self.apply && !self.rules_only
    }

    /// Sets whether numbers and booleans written as text are read (`lenient_scalars`),
    /// returning the previous setting.
    #[inline]
    pub fn set_lenient(&mut self, lenient: bool) -> bool {
        core::mem::replace(&mut self.lenient, lenient)
    }

    /// Whether numbers and booleans written as text are read here.
    #[inline]
    pub fn is_lenient(&self) -> bool {
        self.lenient
    }

    /// Sets the constraints of the field about to be walked, returning the previous ones (the
    /// derive restores them after the field).
    #[inline]
    pub fn set_limits(&mut self, limits: Option<&'static Limits>) -> Option<&'static Limits> {
        core::mem::replace(&mut self.limits, limits)
    }

    /// Whether the position being walked has constraints.
    #[inline]
    pub fn has_limits(&self) -> bool {
        self.limits.is_some()
    }

    /// Checks a number or string `value` that the position's type admits against the field's
    /// constraints, if it has any: the first one broken is an issue at `at`.
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

    /// A repair of kind `kind` at `at`, where the caller sent `sent`: the one function every
    /// repair site calls (R1's JSON text, `lenient_scalars`, …). The check pass notes that a
    /// repair is due (so the apply pass runs); the apply pass records it, when its caller asked
    /// for the record ([`crate::Repairs`]) or a `tracing` subscriber listens. The site itself
    /// writes the change, in the apply pass only ([`Cx::replace`], or its own write).
    #[inline]
    pub fn repaired(&mut self, at: &Path<'_>, kind: RepairKind, sent: &Value) {
        if !self.apply {
            self.pending = true;
        } else if self.record {
            record_repair(at, kind, sent);
        }
    }

    /// Replaces `value` with `new` (in the apply pass; the check pass only notes that a
    /// change is due).
    pub fn replace(&mut self, value: &mut Value, new: Value) {
        if self.apply {
            *value = new;
        } else {
            self.pending = true;
        }
    }

    /// Walks the one value of a `OneOrMany` at `at` with `walk`: a type error found right
    /// at `at` says what the union takes (`expected a string or an array of strings`).
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

    /// Declared fields of the object at `at` that were required and not sent: one issue
    /// each, at the path the field would have had, in serde's words.
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

    /// A key no field claims, in an object whose type denies unknown fields (`expected`: its
    /// fields' wire names), in serde's words.
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

    /// Goes one level deeper at `at`; `false` (and a `TooDeep` issue) past [`MAX_DEPTH`].
    /// Every `true` must be matched by [`Cx::leave`].
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

    /// Rule R1: `value` is a string at a position of type `T` that expects no string. If it
    /// parses into a value of a kind the position takes, the parsed value replaces it (in the
    /// apply pass) and is walked as `T`. Otherwise the string stays, and is checked as sent.
    #[inline]
    pub fn repair<T: Coerce>(&mut self, value: &mut Value, at: &Path<'_>, bounds: Bounds) {
        self.repair_typed(value, at, bounds, T::SHAPE, T::walk, issues::verdict::<T>);
    }

    /// [`Cx::repair`] without the type: its shape, its walk and serde's verdict on it (so
    /// this, and its closure, are compiled once rather than once per type).
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

    /// Rule R1 for a position without a type of its own (an enum variant's content, of
    /// `shape`): like [`Cx::repair`], walking the parsed value with `walk`. `false` when
    /// nothing was repaired (the caller checks the value as sent).
    pub fn repair_with(
        &mut self,
        value: &mut Value,
        at: &Path<'_>,
        shape: Shape,
        walk: fn(&mut Value, &mut Cx, &Path<'_>),
    ) -> bool {
        self.repair_by(value, at, shape, &mut |parsed, cx| walk(parsed, cx, at))
    }

    // Not generic (the walk is a trait object), so each type that can be repaired adds one
    // small closure, not a copy of this. The schema-driven coercer (`json_schema`) repairs
    // through it too.
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
        // Text written twice (a JSON string holding JSON text): at a position that reads no
        // string and is no union, the inner text is read in turn, as many times as it was
        // written, and only what it finally holds decides. (A union walks the inner string
        // itself, as its members decide.) Each layer is shorter than the one around it.
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
        // Only a value of a kind the position takes replaces the text (a union: any kind, its
        // members decide); `"5"` where a list is expected stays `"5"`, and is refused as sent.
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
        // Recorded before the parsed value is walked: a repair inside it comes after. Each
        // layer of text is one parse (the record makes them one nested repair).
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

    /// A value at a position stitch does not walk into (unknown keys, `serde_json::Value`,
    /// opaque fields, a container where a scalar is expected): checked for depth only.
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

/// Whether `value` is an array or an object.
#[inline]
pub(crate) fn is_container(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}
