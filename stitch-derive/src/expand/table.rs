//! The table a struct's named fields are walked from (`_stitch::Fields`, the runtime's loop):
//! one entry per name a field is read under.

use proc_macro2::TokenStream;
use quote::quote;

use super::fields::{bounds, checked_limits, coerce_of, has_bounds};
use crate::model::ast::Field;

/// One entry of a [`fields_table`](super::fields::fields_table): the field `field` read under `name`.
///
/// ```text
/// _stitch::FieldWalk(<T as _stitch::Coerce>::FIELD_TYPE, "paths", 0, 1)   // most fields
/// _stitch::FieldWalk(&_stitch::FieldType { walk: _stitch::Some(<T as _stitch::Coerce>::walk),
///     bounds, limits, lenient, null_absent, optional, wire }, "paths", 0, 1)  // the others
/// ```
///
/// The flags are `FieldWalk::TRACKED` (1) and `FieldWalk::DEFAULTED` (2).
pub(super) fn entry(
    field: &Field,
    name: &str,
    ordinal: u32,
    tracked: bool,
    defaulted: bool,
) -> TokenStream {
    let wire = &field.names.wire;
    let ty = &field.ty;
    let flags = u8::from(tracked) | u8::from(defaulted) << 1;
    let limits = checked_limits(field);
    let plain = field.attrs.opaque.is_none()
        && limits.is_none()
        && !has_bounds(field)
        && !field.lenient
        && name == wire.as_str();
    if plain {
        // Through the projection the schema names too, spanned at the type: a type stitch
        // cannot walk is one error there.
        let coerce = coerce_of(field);
        return quote!(_stitch::FieldWalk(#coerce::FIELD_TYPE, #name, #ordinal, #flags));
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
        _ => none.clone(),
    };
    let bounds = bounds(field);
    let lenient = field.lenient;
    // Read only with the flag that needs it (an opaque field has neither).
    let null_absent = if defaulted {
        quote!(_stitch::null_is_absent::<#ty>())
    } else {
        quote!(false)
    };
    let optional = if tracked {
        quote!(<#ty as _stitch::Describe>::OPTIONAL)
    } else {
        quote!(false)
    };
    let wire = if name == wire.as_str() {
        none
    } else {
        quote!(_stitch::Some(#wire))
    };
    quote!(_stitch::FieldWalk(
        &_stitch::FieldType {
            walk: #walk,
            bounds: #bounds,
            limits: #limits,
            lenient: #lenient,
            null_absent: #null_absent,
            optional: #optional,
            wire: #wire,
        },
        #name,
        #ordinal,
        #flags,
    ))
}
