//! Item bounds (`#[stitch(min_items = …, max_items = …)]`). They count the JSON array's items
//! as sent, so a set's repeats count though serde collapses them (`["a","a"]` is two items).

/// Inclusive bounds on an array's item count.
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

    /// A missing side is unbounded.
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

    pub(crate) const fn exactly(n: usize) -> Bounds {
        Bounds { min: n, max: n }
    }

    /// Whether `len` items satisfy both bounds.
    pub const fn contains(&self, len: usize) -> bool {
        self.min <= len && len <= self.max
    }

    /// Whether no bound is set.
    pub const fn is_none(&self) -> bool {
        self.min == 0 && self.max == usize::MAX
    }
}
