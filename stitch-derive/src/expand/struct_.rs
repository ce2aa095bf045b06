//! The walk of a struct: named fields, or one field read as the whole (a newtype struct, or
//! `#[serde(transparent)]`).

use proc_macro2::TokenStream;
use quote::quote;

use super::bounds_hold::bounds_checks;
use super::fields::{coerce_of, fields_table, inherited_bounds, FieldRules};
use super::{flat_delegation, no_bounds, no_text_list, walk_fn};
use crate::model::ast::{Container, Field};

/// The `Coerce` items of a struct with named fields:
///
/// ```text
/// fn bounds_hold(&self, _: _stitch::Bounds) -> bool {
///     true && <OneOrMany<String> as _stitch::Coerce>::bounds_hold(&self.paths, bounds) && …
/// }
/// fn accepts_text_list(_: &str, _: _stitch::Bounds) -> bool { false }  // no array member
/// const SHAPE: _stitch::Shape = _stitch::Shape::OBJECT;
/// const FIELDS: _stitch::Option<&'static _stitch::Fields> = _stitch::Some(&_stitch::Fields { … });
/// ```
///
/// `walk` (R1 for a string, then `walk_flat`), `walk_flat`, `declares_key` and `owns_key` are
/// the trait's defaults, which read the table (`fields::fields_table`): the fields are walked
/// in `walk_flat` so that the same code serves the struct flattened into another
/// (`#[serde(flatten)]`) or as an internally tagged variant's content.
pub(super) fn named(cont: &Container, fields: &[Field]) -> TokenStream {
    let rules = FieldRules {
        container_default: cont.serde.default,
        deny_unknown: cont.serde.deny_unknown_fields,
    };
    let table = fields_table(fields, rules);
    let bounds_hold = bounds_hold(fields);
    // A struct is no array member: R3 never refuses at it (its fields decide for themselves).
    let text_list = no_text_list();
    quote! {
        #bounds_hold
        #text_list
        const SHAPE: _stitch::Shape = _stitch::Shape::OBJECT;
        #[doc(hidden)]
        const FIELDS: _stitch::Option<&'static _stitch::Fields> = _stitch::Some(#table);
    }
}

/// The `bounds_hold` of a struct with named fields: each walked field checks its own bounds.
fn bounds_hold(fields: &[Field]) -> TokenStream {
    let accessed: Vec<(&Field, TokenStream)> = fields
        .iter()
        .map(|f| {
            let member = &f.member;
            (f, quote!(&self.#member))
        })
        .collect();
    let checks = bounds_checks(&accessed);
    quote! {
        #[inline]
        fn bounds_hold(&self, _: _stitch::Bounds) -> bool {
            #checks
        }
    }
}

/// The `Coerce` items of a struct read as its one field (`struct Ids(Vec<u64>)`, or
/// `#[serde(transparent)]`): every item forwards to the field's type, with the field's own
/// bounds or else the ones the struct was given.
///
/// ```text
/// const SHAPE: _stitch::Shape = <Vec<u64> as _stitch::Coerce>::SHAPE;
/// fn walk(__value, __cx, __at, __bounds) {
///     <Vec<u64> as _stitch::Coerce>::walk(__value, __cx, __at, __bounds)
/// }
/// fn accepts_text_list(__text, __bounds) -> bool { <Vec<u64> as …>::accepts_text_list(__text, __bounds) }
/// fn walk_flat(…) { <Vec<u64> as …>::walk_flat(…) }
/// fn owns_key(__key) -> bool { <Vec<u64> as …>::owns_key(__key) }   // and declares_key
/// fn bounds_hold(&self, __bounds) -> bool { <Vec<u64> as …>::bounds_hold(&self.0, __bounds) }
/// ```
///
/// An opaque field makes the struct opaque: `SHAPE` is `ANY`, the walk checks depth only, and
/// it has no array form (`accepts_text_list` is `false`, `bounds_hold` `true`).
pub(super) fn transparent(field: &Field) -> TokenStream {
    if field.attrs.opaque.is_some() {
        // Left to serde: no array form the walk knows of.
        let (text_list, bounds_hold) = (no_text_list(), no_bounds());
        let walk = walk_fn(quote!(__cx.untyped(__value, __at);));
        return quote! {
            #text_list
            #bounds_hold
            const SHAPE: _stitch::Shape = _stitch::Shape::ANY;
            #walk
        };
    }
    let coerce = coerce_of(field);
    let flat = flat_delegation(&coerce);
    let member = &field.member;
    let bounds = inherited_bounds(field);
    let walk = super::fields::limited(field, quote!(#coerce::walk(__value, __cx, __at, #bounds)));
    let walk = walk_fn(walk);
    let limits = super::bounds_hold::limits_hold(field, &coerce, &quote!(&self.#member));
    let hold = quote!(#coerce::bounds_hold(&self.#member, #bounds) #limits);
    // A lone value of the newtype may break its field's constraints (or its field type's, when
    // that is a newtype itself; a field naming the type is left out, whose constant would name
    // itself).
    let limited = field.attrs.limits.checked();
    let limited = if field.recursive {
        quote!(#limited)
    } else {
        quote!(#limited || #coerce::LIMITED)
    };
    quote! {
        const SHAPE: _stitch::Shape = #coerce::SHAPE;
        const LIMITED: bool = #limited;
        #walk
        #[inline]
        fn accepts_text_list(__text: &str, __bounds: _stitch::Bounds) -> bool {
            #coerce::accepts_text_list(__text, #bounds)
        }
        #flat
        #[inline]
        fn bounds_hold(&self, __bounds: _stitch::Bounds) -> bool {
            #hold
        }
    }
}
