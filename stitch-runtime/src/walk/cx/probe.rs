//! Probes: a check pass of one member of a union beside the walk, kept apart from it (its
//! issues dropped or absorbed, the notes of keys sent twice handed back).

use serde_json::{Map, Value};

use super::{Cx, Duplicates, UNTAGGED_NEST};

impl Cx {
    /// A check pass at this walk's place, clean whatever this walk's mode; it holds the notes of
    /// keys sent twice until [`Cx::end_probe`].
    #[inline]
    pub fn probe(&mut self) -> Cx {
        let duplicates = core::mem::replace(&mut self.duplicates, Duplicates::NONE);
        self.beside(false, duplicates)
    }

    #[inline]
    fn beside(&self, apply: bool, duplicates: Duplicates) -> Cx {
        Cx {
            apply,
            lenient: self.lenient,
            limits: self.limits,
            pending: false,
            too_deep: false,
            depth: self.depth,
            issues: Vec::new(),
            seen: 0,
            omitted: 0,
            duplicates,
            one_or_many: self.one_or_many,
            nest: self.nest.saturating_add(1),
            // An apply pass beside a recording one records too (its caller adopts them).
            record: apply && self.record,
            met_duplicate: false,
            rules_only: false,
        }
    }

    /// A check pass that sees the value as a `Value` holds it: no key sent twice.
    pub(crate) fn value_probe(&self) -> Cx {
        self.beside(false, Duplicates::NONE)
    }

    /// An apply pass for a repair tried on a copy (recording if this pass records).
    pub(crate) fn apply_probe(&self) -> Cx {
        self.beside(true, Duplicates::NONE)
    }

    /// Whether an untagged enum here may still search its members' repairs (see `UNTAGGED_NEST`).
    #[inline]
    pub fn may_decide(&self) -> bool {
        self.nest < UNTAGGED_NEST
    }

    pub(crate) fn has_duplicates(&self) -> bool {
        !self.duplicates.is_empty()
    }

    pub(crate) fn noted_in(&self, maps: &[&Map<String, Value>]) -> Vec<(String, usize)> {
        self.duplicates.noted_in(maps)
    }

    /// The notes of keys sent twice follow the entries `noted` moved into `maps`.
    pub(crate) fn follow(&mut self, noted: &[(String, usize)], maps: &[&Map<String, Value>]) {
        if !noted.is_empty() {
            self.duplicates.follow(noted, maps);
        }
    }

    /// Whether the text sent the key holding `item` twice: a flattened externally tagged enum's
    /// variant is then the first sent, which the `Value` lacks, so serde alone reads it.
    #[inline]
    pub fn sent_twice(&self, item: &serde_json::Value) -> bool {
        !self.duplicates.is_empty() && self.duplicates.contains(item)
    }

    /// Ends `probe`, dropping its issues: `true` when it found no issue and nothing to repair.
    #[inline]
    pub fn end_probe(&mut self, probe: Cx) -> bool {
        let clean = probe.is_clean();
        self.met_duplicate |= probe.met_duplicate;
        if !probe.duplicates.is_empty() {
            self.duplicates = probe.duplicates;
        }
        clean
    }

    /// Ends `probe` and reports its issues here (not its repairs), in the order it found them.
    pub(crate) fn absorb(&mut self, mut probe: Cx) {
        if !probe.duplicates.is_empty() {
            self.duplicates = core::mem::replace(&mut probe.duplicates, Duplicates::NONE);
        }
        self.too_deep |= probe.too_deep;
        self.met_duplicate |= probe.met_duplicate;
        if self.apply {
            return;
        }
        probe.issues.sort_by_key(|f| f.seq);
        for found in probe.issues {
            self.keep(found.order, || found.issue);
        }
        // What the probe counted past the cap counts here too, but not in a rules-only walk.
        if self.rules_only {
            return;
        }
        self.seen += probe.omitted;
        self.omitted += probe.omitted;
    }

    pub(crate) fn too_deep(&self) -> bool {
        self.too_deep
    }

    pub(crate) fn is_clean(&self) -> bool {
        !self.pending && !self.found_issues()
    }

    pub(crate) fn repairs_only(&self) -> bool {
        self.pending && !self.found_issues()
    }

    /// Runs `walk` one level up, for an object already entered and handed on (a flattened union's
    /// keys), so its depth counts once.
    pub(crate) fn within_parent<R>(&mut self, walk: impl FnOnce(&mut Cx) -> R) -> R {
        let depth = self.depth;
        self.depth = depth.saturating_sub(1);
        let done = walk(self);
        self.depth = depth;
        done
    }
}
