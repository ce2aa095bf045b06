//! What the derive writes for `Coerce::bounds_hold`: whether a value serde read straight from
//! text keeps every item bound and constraint the walk would check, field by field.

use proc_macro2::TokenStream;
use quote::quote;

use super::fields::{bounds, checked_limits, coerce_of, has_bounds};
use crate::model::ast::Field;

/// `true && <A as Coerce>::bounds_hold(a, bounds) && …` for the walked fields, each read by
/// its `access` expression (`&self.a`, or a pattern binding).
pub(super) fn bounds_checks(fields: &[(&Field, TokenStream)]) -> TokenStream {
    let checks = fields
        .iter()
        .filter(|(f, _)| f.walked())
        .map(|(field, access)| {
            let coerce = coerce_of(field);
            let limits = limits_hold(field, &coerce, access);
            let bounds = if has_bounds(field) {
                bounds(field)
            } else {
                quote!(_stitch::NONE)
            };
            quote!(&& #coerce::bounds_hold(#access, #bounds) #limits)
        });
    quote!(true #(#checks)*)
}

/// `&& <Ty as Coerce>::limits_hold(access, LIMITS)` for a field with constraints the walk
/// checks (`docs/rules.md#constraints`), else nothing.
pub(super) fn limits_hold(
    field: &Field,
    coerce: &TokenStream,
    access: &TokenStream,
) -> TokenStream {
    match checked_limits(field) {
        Some(limits) => quote!(&& #coerce::limits_hold(#access, #limits)),
        None => quote!(),
    }
}
