//! How the check pass keeps what it finds: an issue is built only if it will be kept (the first
//! [`MAX_ISSUES`] by path order), and serde is asked where the walk's quick test is unsure. Only
//! the closures and serde's call are generic; the bookkeeping compiles once.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{is_container, Cx, Found};
use crate::error::{self, ArgsError, Issue, MAX_ISSUES};
use crate::json::parse::Duplicates;
use crate::path::{Order, Path};
use crate::walk::{pattern_claims, FlatField};

#[derive(Clone, Copy)]
enum Slot {
    Push(usize),
    /// In place of the kept issue `.0`, which sorts after it.
    Replace(usize, usize),
    /// Kept only if it is R3's refusal (`Cx::rules_only`).
    RulesOnly,
}

impl Cx {
    /// Records an issue at `at`, built only if it is among the first [`MAX_ISSUES`] by path order;
    /// the others are counted.
    #[cold]
    pub fn report(&mut self, at: &Path<'_>, issue: impl FnOnce() -> Issue) {
        if self.apply {
            return;
        }
        self.keep(at.order(), issue);
    }

    /// Generic over the closure only, so the bookkeeping around it compiles once.
    #[inline]
    pub(super) fn keep(&mut self, order: Order, issue: impl FnOnce() -> Issue) {
        if let Some(slot) = self.slot(order) {
            let issue = issue();
            self.put(slot, order, issue);
        }
    }

    /// `None` when the list is full and `order` sorts after every kept issue, so it is never built.
    fn slot(&mut self, order: Order) -> Option<Slot> {
        if self.rules_only {
            return Some(Slot::RulesOnly);
        }
        self.place(order)
    }

    fn place(&mut self, order: Order) -> Option<Slot> {
        let seq = self.seen;
        self.seen += 1;
        if self.issues.len() < MAX_ISSUES {
            return Some(Slot::Push(seq));
        }
        self.omitted += 1;
        let last = self
            .issues
            .iter()
            .enumerate()
            .max_by(|(_, a), (_, b)| (a.order, a.seq).cmp(&(b.order, b.seq)))
            .map(|(i, _)| i);
        match last {
            Some(i) if order < self.issues[i].order => Some(Slot::Replace(i, seq)),
            _ => None,
        }
    }

    fn put(&mut self, slot: Slot, order: Order, issue: Issue) {
        match slot {
            Slot::RulesOnly => {
                if issue.kind() == crate::IssueKind::TextList {
                    if let Some(slot) = self.place(order) {
                        self.put(slot, order, issue);
                    }
                }
            }
            Slot::Push(seq) => {
                if self.issues.capacity() == 0 {
                    self.issues.reserve_exact(4);
                }
                self.issues.push(Found { order, seq, issue });
            }
            Slot::Replace(i, seq) => self.issues[i] = Found { order, seq, issue },
        }
    }

    /// Whether the field's own `pattern` claims `text`, so it is one value, not R3's.
    pub(crate) fn pattern_claims(&self, text: &str) -> bool {
        let pattern = self.limits.and_then(|limits| limits.pattern.as_ref());
        pattern.is_some_and(|pattern| pattern_claims(text, |s| pattern.is_match(s)))
    }

    /// A key no level reads under `deny_unknown_fields` with flattened structs, expecting every
    /// field of the type and of the structs flattened into it.
    #[cold]
    #[inline(never)]
    pub(crate) fn unknown_among(
        &mut self,
        at: &Path<'_>,
        key: &str,
        own: &'static [&'static str],
        flattened: &'static [&'static FlatField],
    ) {
        let mut expected: Vec<&str> = own.to_vec();
        flattened_names(&mut expected, flattened);
        // In name order, as the schema's coercer lists an object's properties.
        expected.sort_unstable();
        let listed: Vec<String> = expected.iter().map(|name| format!("`{name}`")).collect();
        let reason = match listed.as_slice() {
            [] => "there are no fields".to_owned(),
            [one] => format!("expected {one}"),
            [a, b] => format!("expected {a} or {b}"),
            all => format!("expected one of {}", all.join(", ")),
        };
        let here = at.key(key);
        self.report(&here, || {
            Issue::invalid(here.render(), format!("unknown field `{key}`, {reason}"))
        });
    }

    /// Refuses a list written as text at `at` (R3).
    #[cold]
    pub fn text_list(&mut self, at: &Path<'_>) {
        self.report(at, || Issue::text_list(at.render()));
    }

    /// A value the walk's quick test did not surely accept as a `T`: serde decides, and only its
    /// refusal is reported, so the walk never refuses what serde accepts.
    #[inline]
    pub fn check<T: DeserializeOwned>(&mut self, value: &Value, at: &Path<'_>) {
        self.check_by(value, at, verdict::<T>);
    }

    /// [`Cx::check`] compiled once; only `verdict` is generic.
    #[cold]
    #[inline(never)]
    pub(crate) fn check_by(&mut self, value: &Value, at: &Path<'_>, verdict: Verdict) {
        if self.may_check(value, at) {
            if let Err(e) = verdict(value) {
                self.refused_by_serde(value, at, e);
            }
        }
    }

    /// `false` in the apply pass and past the depth limit (serde would recurse as deep).
    fn may_check(&mut self, value: &Value, at: &Path<'_>) -> bool {
        if is_container(value) {
            self.untyped(value, at);
        }
        !(self.apply || self.too_deep)
    }

    /// A `OneOrMany`'s type error says what the union takes.
    #[cold]
    fn refused_by_serde(&mut self, value: &Value, at: &Path<'_>, e: crate::json::de::Error) {
        let one_or_many = match self.one_or_many {
            Some((addr, schema)) if addr == address(at) => Some(schema),
            _ => None,
        };
        self.report(at, || match one_or_many {
            Some(schema) if e.to_string().starts_with("invalid type:") => {
                Issue::invalid(at.render(), error::one_or_many_type(value, schema))
            }
            _ => Issue::invalid(at.render(), e),
        });
    }

    /// An untagged enum whose members all refuse `value`; when the text sent a key twice, refused
    /// as serde refuses the text, even where it reads the `Value`.
    #[cold]
    #[inline(never)]
    pub fn no_member<T: DeserializeOwned>(&mut self, value: &Value, at: &Path<'_>) {
        if self.has_duplicates()
            && !self.apply
            && !self.too_deep
            && crate::json::de::from_copy::<T>(value).is_ok()
        {
            let name = core::any::type_name::<T>();
            let name = name.split('<').next().unwrap_or(name);
            let name = name.rsplit("::").next().unwrap_or(name);
            self.report(at, || Issue::invalid(at.render(), error::no_variant(name)));
            return;
        }
        self.check::<T>(value, at);
    }
}

pub(crate) type Verdict = fn(&Value) -> Result<(), crate::json::de::Error>;

pub(crate) fn verdict<T: DeserializeOwned>(value: &Value) -> Result<(), crate::json::de::Error> {
    crate::json::de::from_copy::<T>(value).map(drop)
}

impl Cx {
    #[inline]
    pub(crate) fn found_issues(&self) -> bool {
        !self.issues.is_empty() || self.omitted > 0
    }

    pub(crate) fn into_duplicates(mut self) -> Duplicates {
        core::mem::replace(&mut self.duplicates, Duplicates::NONE)
    }

    #[inline]
    pub(crate) fn pending(&self) -> bool {
        self.pending
    }

    /// The issues found, and whether the value nests too deep to drop recursively.
    #[cold]
    pub(crate) fn refusal(mut self) -> (ArgsError, bool) {
        self.issues.sort_by_key(|f| (f.order, f.seq));
        let issues = self.issues.into_iter().map(|f| f.issue).collect();
        (ArgsError::with_omitted(issues, self.omitted), self.too_deep)
    }
}

/// To recognise the same position on the stack.
pub(super) fn address(at: &Path<'_>) -> usize {
    at as *const Path<'_> as usize
}

/// Adds the fields of the structs `flattened`, and of those flattened into them.
fn flattened_names(names: &mut Vec<&'static str>, flattened: &'static [&'static FlatField]) {
    for fields in flattened.iter().filter_map(|flat| flat.fields) {
        for name in fields.wire_names() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        flattened_names(names, fields.flat);
    }
}
