//! The walk of an internally tagged enum (`#[serde(tag = "type")]`): `{"type": "Variant",
//! …the variant's fields}`, the tag and the content sharing one object.

use proc_macro2::TokenStream;
use quote::quote;

use super::enum_::{fields_walk, tagged_object, which_variant};
use super::fields::coerce_of;
use crate::model::ast::{Style, Variant};

/// ```text
/// const SHAPE: _stitch::Shape = _stitch::Shape::new(_stitch::Kind::Union, false, false, true);
/// fn walk(__value, __cx, __at, __bounds) {
///     match __value {
///         _stitch::Value::Object(__map) => if __cx.enter(__at) {
///             let __which: usize = /* enum_::which_variant, by the "type" key */;
///             match __which {
///                 0 => _stitch::walk_fields(__map, __cx, __at, &__tag, Self::__STITCH_FIELDS_0),
///                                                                    // a struct variant
///                 1 => <Inner as _stitch::Coerce>::walk_flat(__map, __cx, __at, &__tag),
///                                                                    // a newtype variant
///                 _ => _stitch::untyped_entries(__map, __cx, __at),   // unit, or no variant
///             }
///             __cx.leave();
///             // no variant named: __cx.check::<Self>(__value, __at), serde says why
///         },
///         _stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),   // R1
///         __other => __cx.check::<Self>(__other, __at),                     // serde says why
///     }
/// }
/// ```
///
/// `__tag` is `_stitch::Claims::beside(|__key| __key == "type")`: no flattened map of the
/// variant reads the tag's key. In a struct variant the tag's own key is no field's, so it is walked as an unknown key
/// (depth only); the tag's string is read by serde, never repaired.
pub(super) fn walk(variants: &[&Variant], tag: &str) -> TokenStream {
    let which = which_variant(variants, tag);
    let arms = arms(
        variants,
        quote!(&_stitch::Claims::beside(|__key: &str| __key == #tag)),
        false,
    );
    tagged_object(
        which,
        tag,
        quote! {
            match __which {
                #(#arms)*
                _ => _stitch::untyped_entries(__map, __cx, __at),
            }
        },
    )
}

/// The `match __which` arms walking each variant's keys in `__map`, handed `claims` (the
/// tag's, and the levels around a flattened enum's). `flat`: the object is a parent's (the
/// enum flattened), whose other keys the parent walks: a unit variant walks nothing.
pub(super) fn arms(variants: &[&Variant], claims: TokenStream, flat: bool) -> Vec<TokenStream> {
    variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let walk = match v.style {
                Style::Struct => {
                    // The tag is the enum's key: no flattened map of the variant reads it. Only
                    // a variant with a flattened field asks (the others are handed nothing to
                    // build), unless the enum is itself flattened.
                    if flat || v.fields.iter().any(|f| f.flatten && !f.skip) {
                        fields_walk(i, claims.clone())
                    } else {
                        fields_walk(i, quote!(&_stitch::Claims::NONE))
                    }
                }
                // The newtype's type (a struct, a map) reads its keys from the shared object;
                // the tag is the enum's key, not an unknown one of the content.
                Style::Newtype if v.fields[0].attrs.opaque.is_none() => {
                    let coerce = coerce_of(&v.fields[0]);
                    quote!(#coerce::walk_flat(__map, __cx, __at, #claims))
                }
                _ if flat => quote!({}),
                _ => quote!(_stitch::untyped_entries(__map, __cx, __at)),
            };
            quote!(#i => #walk,)
        })
        .collect()
}
