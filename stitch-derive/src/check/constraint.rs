//! The constraints of one field checked against each other: a range no number satisfies, a
//! `multiple_of` that is not positive, lengths that cross (`docs/rules.md#constraints`).

use crate::ctxt::Ctxt;
use crate::model::constraint::{zero, Constraints};

impl Constraints {
    /// Errors for constraints that contradict each other, at the later one.
    pub fn check(&self, cx: &Ctxt) {
        use core::cmp::Ordering::{Equal, Greater};
        let pairs = [
            (&self.minimum, &self.maximum, "minimum", "maximum", false),
            (
                &self.exclusive_minimum,
                &self.maximum,
                "exclusive_minimum",
                "maximum",
                true,
            ),
            (
                &self.minimum,
                &self.exclusive_maximum,
                "minimum",
                "exclusive_maximum",
                true,
            ),
            (
                &self.exclusive_minimum,
                &self.exclusive_maximum,
                "exclusive_minimum",
                "exclusive_maximum",
                true,
            ),
        ];
        for (low, high, low_key, high_key, exclusive) in pairs {
            let (Some(low), Some(high)) = (low, high) else {
                continue;
            };
            let order = low.value.cmp(&high.value);
            if order == Greater || (exclusive && order == Equal) {
                cx.syn_error(syn::Error::new(
                    high.span,
                    format!(
                        "`{high_key} = {}` and `{low_key} = {}` leave no number that satisfies both",
                        high.value.text, low.value.text
                    ),
                ));
            }
        }
        if let Some(step) = &self.multiple_of {
            if step.value.cmp(&zero()) != Greater {
                cx.syn_error(syn::Error::new(
                    step.span,
                    format!(
                        "`multiple_of = {}` must be greater than zero",
                        step.value.text
                    ),
                ));
            }
        }
        if let (Some(min), Some(max)) = (&self.min_length, &self.max_length) {
            if min.value.cmp(&max.value) == Greater {
                cx.syn_error(syn::Error::new(
                    max.span,
                    format!(
                        "`max_length = {}` is less than `min_length = {}`; no string could satisfy both",
                        max.value, min.value
                    ),
                ));
            }
        }
    }
}
