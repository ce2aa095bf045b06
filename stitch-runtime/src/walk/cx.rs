//! [`Cx`]: the state of one walk (mode, depth, issues) and the steps every position shares:
//! report, replace, repair (R1), refuse (R3), check a length, go deeper (R7).

use serde_json::Value;

use crate::bounds::Bounds;
use crate::error::{self, ArgsError, Issue, MAX_ISSUES};
use crate::json::depth::{is_recursion_limit, MAX_DEPTH};
use crate::json::parse::{duplicate_field, Duplicates};
use crate::path::Path;
use crate::walk::Coerce;

/// The state of one walk: the mode, the depth, and the issues found.
#[derive(Debug)]
pub struct Cx {
    apply: bool,
    lenient: bool,
    pending: bool,
    too_deep: bool,
    depth: usize,
    issues: Vec<Issue>,
    omitted: usize,
    /// The keys the arguments' text sent twice (none for a `Value`).
    duplicates: Duplicates,
}

impl Cx {
    pub(crate) fn new(apply: bool) -> Cx {
        Cx {
            apply,
            lenient: false,
            pending: false,
            too_deep: false,
            depth: 0,
            issues: Vec::new(),
            omitted: 0,
            duplicates: Duplicates::NONE,
        }
    }

    /// A check pass over a value read from text that sent the keys `duplicates` twice.
    pub(crate) fn with_duplicates(duplicates: Duplicates) -> Cx {
        Cx {
            duplicates,
            ..Cx::new(false)
        }
    }

    /// A declared field `name` found at `at`: `false` when the text sent its key twice in one
    /// object, which is refused as serde refuses it (`duplicate field`); its value is then not
    /// to be walked. One predictable branch when the text sent no key twice (always, for a
    /// `Value`).
    #[inline]
    pub fn sent_once(&mut self, at: &Path<'_>, name: &'static str) -> bool {
        self.duplicates.is_empty() || self.once(at, name)
    }

    #[cold]
    fn once(&mut self, at: &Path<'_>, name: &'static str) -> bool {
        if self.duplicates.contains(at) {
            self.report(|| Issue::invalid(at.render(), duplicate_field(name)));
            return false;
        }
        true
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

    /// Replaces `value` with `new` (in the apply pass; the check pass only notes that a
    /// change is due).
    pub fn replace(&mut self, value: &mut Value, new: Value) {
        if self.apply {
            *value = new;
        } else {
            self.pending = true;
        }
    }

    /// Records an issue, built only if it will be kept.
    #[cold]
    pub fn report(&mut self, issue: impl FnOnce() -> Issue) {
        if self.apply {
            return;
        }
        if self.issues.len() < MAX_ISSUES {
            if self.issues.capacity() == 0 {
                self.issues.reserve_exact(4);
            }
            self.issues.push(issue());
        } else {
            self.omitted += 1;
        }
    }

    /// Refuses a list written as text at `at` (rule R3).
    #[cold]
    pub fn text_list(&mut self, at: &Path<'_>) {
        self.report(|| Issue::text_list(at.render()));
    }

    /// Checks a real array's length against the field's bounds.
    #[inline]
    pub fn check_len(&mut self, len: usize, bounds: Bounds, at: &Path<'_>) {
        if bounds.contains(len) {
            return;
        }
        self.report(|| Issue::invalid(at.render(), error::item_count(len, bounds)));
    }

    /// Goes one level deeper at `at`; `false` (and a `TooDeep` issue) past [`MAX_DEPTH`].
    /// Every `true` must be matched by [`Cx::leave`].
    #[inline]
    pub fn enter(&mut self, at: &Path<'_>) -> bool {
        if self.depth >= MAX_DEPTH {
            self.too_deep = true;
            self.report(|| Issue::too_deep(at.render(), MAX_DEPTH));
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
    /// parses as JSON, the parsed value replaces it (in the apply pass) and is walked as `T`.
    #[inline]
    pub fn repair<T: Coerce>(&mut self, value: &mut Value, at: &Path<'_>, bounds: Bounds) {
        self.repair_by(value, at, &mut |parsed, cx| T::walk(parsed, cx, at, bounds));
    }

    /// Rule R1 for a position without a type of its own (an enum variant's content): like
    /// [`Cx::repair`], walking the parsed value with `walk`.
    pub fn repair_with(
        &mut self,
        value: &mut Value,
        at: &Path<'_>,
        walk: fn(&mut Value, &mut Cx, &Path<'_>),
    ) {
        self.repair_by(value, at, &mut |parsed, cx| walk(parsed, cx, at));
    }

    // Not generic (the walk is a trait object), so each type that can be repaired adds one
    // small closure, not a copy of this.
    fn repair_by(
        &mut self,
        value: &mut Value,
        at: &Path<'_>,
        walk: &mut dyn FnMut(&mut Value, &mut Cx),
    ) {
        let Value::String(text) = value else {
            return;
        };
        let Some(mut parsed) = self.parse_text(text, at) else {
            return;
        };
        if !self.enter(at) {
            return;
        }
        walk(&mut parsed, self);
        self.leave();
        if self.apply {
            *value = parsed;
        } else {
            self.pending = true;
        }
    }

    fn parse_text(&mut self, text: &str, at: &Path<'_>) -> Option<Value> {
        match serde_json::from_str::<Value>(text) {
            Ok(parsed) => Some(parsed),
            Err(e) => {
                if is_recursion_limit(&e) {
                    self.too_deep = true;
                    self.report(|| Issue::too_deep(at.render(), MAX_DEPTH));
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

impl Cx {
    /// Whether the check pass found issues (kept or counted).
    #[inline]
    pub(crate) fn found_issues(&self) -> bool {
        !self.issues.is_empty() || self.omitted > 0
    }

    /// Whether the check pass found JSON text to repair.
    #[inline]
    pub(crate) fn pending(&self) -> bool {
        self.pending
    }

    /// The issues of a check pass that found some (not generic: one copy for every type), and
    /// whether the value nests too deep to drop recursively.
    #[cold]
    pub(crate) fn refusal(self) -> (ArgsError, bool) {
        (
            ArgsError::with_omitted(self.issues, self.omitted),
            self.too_deep,
        )
    }
}

/// Whether `value` is an array or an object.
#[inline]
pub(crate) fn is_container(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}
