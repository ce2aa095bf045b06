//! Probes: a check pass of one member of a union beside the walk, kept apart from it (its
//! issues dropped or absorbed, the notes of keys sent twice handed back).

use serde_json::{Map, Value};

use super::{Cx, Duplicates, UNTAGGED_NEST};

/// Probes: a check pass of one member of a union beside this walk, kept apart from it.
impl Cx {
    /// A check pass at this walk's place (its depth, `lenient_scalars` setting and keys sent
    /// twice), with no issue and nothing pending yet, whatever this walk's mode. Hand it back
    /// with [`Cx::end_probe`]: it holds this walk's record of the keys sent twice until then.
    #[inline]
    pub fn probe(&mut self) -> Cx {
        let duplicates = core::mem::replace(&mut self.duplicates, Duplicates::NONE);
        self.beside(false, duplicates)
    }

    /// A pass at this walk's place, in the mode `apply`, with no issue and nothing pending.
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

    /// A check pass at this walk's place that sees the value as a `Value` holds it: no key
    /// sent twice (a `Value` keeps the last).
    pub(crate) fn value_probe(&self) -> Cx {
        self.beside(false, Duplicates::NONE)
    }

    /// An apply pass at this walk's place, for a repair tried on a copy.
    pub(crate) fn apply_probe(&self) -> Cx {
        // A recording pass's probe records too: its caller forgets what an unchosen one did.
        self.beside(true, Duplicates::NONE)
    }

    /// Whether an untagged enum here may still search its members' repairs (see
    /// `UNTAGGED_NEST`); when not, serde's verdict on the value as sent decides.
    #[inline]
    pub fn may_decide(&self) -> bool {
        self.nest < UNTAGGED_NEST
    }

    /// Whether the arguments' text sent some key twice.
    pub(crate) fn has_duplicates(&self) -> bool {
        !self.duplicates.is_empty()
    }

    /// The entries of `maps` whose key the text sent twice: see [`Cx::follow`].
    pub(crate) fn noted_in(&self, maps: &[&Map<String, Value>]) -> Vec<(String, usize)> {
        self.duplicates.noted_in(maps)
    }

    /// The notes of keys sent twice follow the entries `noted` (from [`Cx::noted_in`]), moved
    /// into `maps`, so a walk of them there still knows which were sent twice.
    pub(crate) fn follow(&mut self, noted: &[(String, usize)], maps: &[&Map<String, Value>]) {
        if !noted.is_empty() {
            self.duplicates.follow(noted, maps);
        }
    }

    /// Whether the text sent the key holding `item` twice in its object (never, for a
    /// `Value`): a flattened externally tagged enum's variant then is the first one sent,
    /// which the `Value` does not hold, so serde alone reads it (from the text).
    #[inline]
    pub fn sent_twice(&self, item: &serde_json::Value) -> bool {
        !self.duplicates.is_empty() && self.duplicates.contains(item)
    }

    /// Ends `probe` (from [`Cx::probe`]): `true` when it found nothing, no issue and nothing
    /// to repair. Its issues are dropped.
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
        // Issues the probe counted past the cap sort after those it kept: counted here too
        // (not by a walk that keeps only R3's refusals: it cannot tell their kinds).
        if self.rules_only {
            return;
        }
        self.seen += probe.omitted;
        self.omitted += probe.omitted;
    }

    /// Whether a probe went past the depth limit.
    pub(crate) fn too_deep(&self) -> bool {
        self.too_deep
    }

    /// Whether a probe found nothing: no issue, nothing to repair.
    pub(crate) fn is_clean(&self) -> bool {
        !self.pending && !self.found_issues()
    }

    /// Whether a probe found something to repair and no issue.
    pub(crate) fn repairs_only(&self) -> bool {
        self.pending && !self.found_issues()
    }

    /// Runs `walk` one level up: for an object the walk has already entered, handed on as a
    /// value of its own (the shared keys of a flattened union), so that its depth is counted
    /// once.
    pub(crate) fn within_parent<R>(&mut self, walk: impl FnOnce(&mut Cx) -> R) -> R {
        let depth = self.depth;
        self.depth = depth.saturating_sub(1);
        let done = walk(self);
        self.depth = depth;
        done
    }
}
