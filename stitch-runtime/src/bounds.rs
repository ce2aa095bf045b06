//! Item bounds (`#[stitch(min_items = …, max_items = …)]`) and every check of an item count.
//!
//! Bounds count the JSON array's items as sent, on every form and every surface: a set's
//! repeats count, though serde collapses them (`["a","a"]` is two items).
//!
//! The walk checks a real array's length ([`Cx::check_len`](crate::walk::Cx::check_len),
//! whose message is [`error::item_count`](crate::error::item_count)); the JSON-array check
//! takes them as its `bounds` argument (R3 refuses a list written as text only when the array
//! form would accept it, bounds included); the fast path of `from_json` checks them on the
//! deserialized value ([`items_hold`], [`set_holds`]).

use crate::walk::Coerce;

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

/// A sequence's length is within `bounds` and its items keep theirs (the fast path's check of
/// a deserialized sequence).
pub(crate) fn items_hold<'a, T: Coerce + 'a>(
    items: impl IntoIterator<Item = &'a T>,
    len: usize,
    bounds: Bounds,
) -> bool {
    bounds.contains(len) && items.into_iter().all(|item| item.bounds_hold(Bounds::NONE))
}

/// A set collapses repeats, so its length says nothing about the array it came from, and
/// bounds count the array's items as sent: a bounded set always takes the full path, where
/// the walk counts the array.
pub(crate) fn set_holds<'a, T: Coerce + 'a>(
    items: impl IntoIterator<Item = &'a T>,
    bounds: Bounds,
) -> bool {
    bounds.is_none() && items.into_iter().all(|item| item.bounds_hold(Bounds::NONE))
}
