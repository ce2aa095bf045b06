//! Item bounds (`#[stitch(min_items = …, max_items = …)]`) and every check of an item count.
//!
//! Bounds count the JSON array's items as sent, on every form and every surface: a set's
//! repeats count, though serde collapses them (`["a","a"]` is two items).
//!
//! A stage below every other: the walk checks a real array's length against them, the
//! JSON-array check takes them as its `bounds` argument (R3 refuses a list written as text
//! only when the array form would accept it, bounds included), and the fast path of
//! `from_json` checks them on the deserialized value.

/// Inclusive bounds on the number of items of an array form. `max == usize::MAX` means unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// Fewest items allowed.
    pub min: usize,
    /// Most items allowed; `usize::MAX` means no upper bound.
    pub max: usize,
}

impl Bounds {
    /// No bounds.
    pub const NONE: Bounds = Bounds {
        min: 0,
        max: usize::MAX,
    };

    /// Bounds from optional `minItems` / `maxItems`; a missing side is unbounded.
    pub const fn new(min: Option<usize>, max: Option<usize>) -> Bounds {
        Bounds {
            min: match min {
                Some(min) => min,
                None => 0,
            },
            max: match max {
                Some(max) => max,
                None => usize::MAX,
            },
        }
    }

    /// Exactly `n` items (an array `[T; N]`).
    pub(crate) const fn exactly(n: usize) -> Bounds {
        Bounds { min: n, max: n }
    }

    /// True when `len` items satisfy both bounds.
    pub const fn contains(&self, len: usize) -> bool {
        self.min <= len && len <= self.max
    }

    /// True when no bound is set (every length is allowed).
    pub const fn is_none(&self) -> bool {
        self.min == 0 && self.max == usize::MAX
    }
}
