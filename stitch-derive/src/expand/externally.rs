//! The walk of an externally tagged enum (serde's default): `{"Variant": content}`, or a unit
//! variant as the string `"Variant"`. (An enum of unit variants only is read as a string;
//! [`super::enum_`] handles it.)

use proc_macro2::TokenStream;
use quote::quote;

use super::enum_::content_walk;
use super::walk_fn;
use crate::model::ast::{Style, Variant};

/// ```text
/// // A unit variant makes strings part of the union (read as the variant's name).
/// const SHAPE: _stitch::Shape = _stitch::Shape::new(_stitch::Kind::Union, has_unit, false, true);
/// fn walk(__value, __cx, __at, __bounds) {
///     let _ = __bounds;
///     match __value {
///         // serde reads a one-key object as `{"Variant": content}`
///         _stitch::Value::Object(__map) if __map.len() == 1 => if __cx.enter(__at) {
///             for (__key, __item) in __map.iter_mut() {
///                 match __key.as_str() {
///                     "search" => if __cx.variant_once(__item, __at) {
///                         /* enum_::content_walk at __at.field("search") */
///                     },
///                     _ => __cx.untyped(__item, &__at.key(__key)),
///                 }
///             }
///             __cx.leave();
///         },
///         // R1, only when no unit variant could be that string
///         _stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),
///         __other => __cx.check::<Self>(__other, __at),                     // serde says why
///     }
/// }
/// ```
pub(super) fn walk(variants: &[&Variant]) -> TokenStream {
    let has_unit = variants.iter().any(|v| v.style == Style::Unit);
    let arms = variants.iter().enumerate().flat_map(|(i, v)| {
        v.names
            .all()
            .map(move |name| {
                let walk = content_walk(i, v, quote!(__item), quote!(&__at.field(#name, 0)));
                // The variant's key sent twice: serde refuses the object of two keys.
                quote!(#name => {
                    if __cx.variant_once(__item, __at) {
                        #walk;
                    }
                })
            })
            .collect::<Vec<_>>()
    });
    let string_arm = if has_unit {
        quote!()
    } else {
        quote!(_stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),)
    };
    let walk = walk_fn(quote! {
        let _ = __bounds;
        match __value {
            _stitch::Value::Object(__map) if __map.len() == 1 => {
                if __cx.enter(__at) {
                    for (__key, __item) in __map.iter_mut() {
                        match __key.as_str() {
                            #(#arms)*
                            _ => __cx.untyped(__item, &__at.key(__key)),
                        }
                    }
                    __cx.leave();
                }
            }
            #string_arm
            __other => __cx.check::<Self>(__other, __at),
        }
    });
    quote! {
        const SHAPE: _stitch::Shape = _stitch::Shape::new(
            _stitch::Kind::Union, #has_unit, false, true,
        );
        #walk
    }
}
