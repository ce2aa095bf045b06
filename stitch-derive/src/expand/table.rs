//! The table a struct's named fields are walked from (`_stitch::Fields`, the runtime's loop):
//! one entry per name a field is read under.

use proc_macro2::TokenStream;
use quote::quote;

use super::fields::{bounds, checked_limits, coerce_of, has_bounds};
use crate::ast::Field;

/// One entry of a [`fields_walk`](super::fields::fields_walk) table: the field `field` read under `name`.
///
/// ```text
/// _stitch::FieldWalk::of(<T as _stitch::Coerce>::walk, <T as _stitch::Coerce>::FIELD,
///     "paths", 0, true, false)                                            // most fields
/// _stitch::FieldWalk { name: "paths", wire: "paths", ordinal: 0,
///     walk: Some(<OneOrMany<String> as _stitch::Coerce>::walk), bounds: _stitch::Bounds::NONE,
///     limits: None, lenient: false, tracked: true, null_absent: false, required: … }
/// ```
pub(super) fn entry(
    field: &Field,
    name: &str,
    ordinal: u32,
    tracked: bool,
    defaulted: bool,
) -> TokenStream {
    let wire = &field.names.wire;
    let ty = &field.ty;
    let limits = checked_limits(field);
    let plain = field.attrs.opaque.is_none()
        && limits.is_none()
        && !has_bounds(field)
        && !field.lenient
        && name == wire.as_str();
    if plain {
        // Through the projections the schema names too, spanned at the type: a type stitch
        // cannot walk is one error there.
        let coerce = coerce_of(field);
        return quote! {
            _stitch::FieldWalk::of(#coerce::walk, #coerce::FIELD, #name, #ordinal, #tracked, #defaulted)
        };
    }
    let none = quote!(_stitch::None);
    let walk = if field.attrs.opaque.is_some() {
        none.clone()
    } else {
        let coerce = coerce_of(field);
        quote!(_stitch::Some(#coerce::walk))
    };
    // As `field_walk`: an opaque field is walked without its constraints.
    let limits = match limits {
        Some(limits) if field.attrs.opaque.is_none() => quote!(_stitch::Some(#limits)),
        _ => none,
    };
    let bounds = bounds(field);
    let lenient = field.lenient;
    let null_absent = if defaulted {
        quote!(_stitch::null_is_absent::<#ty>())
    } else {
        quote!(false)
    };
    let required = if tracked {
        quote!(!<#ty as _stitch::Describe>::OPTIONAL)
    } else {
        quote!(false)
    };
    quote!(_stitch::FieldWalk {
        name: #name,
        wire: #wire,
        ordinal: #ordinal,
        walk: #walk,
        bounds: #bounds,
        limits: #limits,
        lenient: #lenient,
        tracked: #tracked,
        null_absent: #null_absent,
        required: #required,
    })
}
