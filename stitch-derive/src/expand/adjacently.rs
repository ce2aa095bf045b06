//! The walk of an adjacently tagged enum (`#[serde(tag = "t", content = "c")]`):
//! `{"t": "Variant", "c": content}`.

use proc_macro2::TokenStream;
use quote::quote;

use super::enum_::{content_walk, tagged_object, which_variant};
use crate::model::ast::Variant;

/// ```text
/// const SHAPE: _stitch::Shape = _stitch::Shape::new(_stitch::Kind::Union, false, false, true);
/// fn walk(__value, __cx, __at, __bounds) {
///     match __value {
///         _stitch::Value::Object(__map) => if __cx.enter(__at) {
///             let __which: usize = /* enum_::which_variant, by the "t" key */;
///             for (__key, __item) in __map.iter_mut() {
///                 if __key.as_str() == "c" {
///                     // (only when `__cx.key_once(__item, __at, "c")`: not sent twice)
///                     match __which {
///                         0 => /* enum_::content_walk at __at.field("c") */,
///                         _ => __cx.untyped(__item, &__at.field("c")),   // no variant
///                     }
///                 } else {
///                     __cx.untyped(__item, &__at.key(__key));            // the tag, others
///                 }
///             }
///             __cx.leave();
///             // no variant named: __cx.check::<Self>(__value, __at), serde says why
///         },
///         _stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),   // R1
///         __other => __cx.check::<Self>(__other, __at),                     // serde says why
///     }
/// }
/// ```
pub(super) fn walk(variants: &[&Variant], tag: &str, content: &str) -> TokenStream {
    let which = which_variant(variants, tag);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let walk = content_walk(i, v, quote!(__item), quote!(&__at.field(#content, 1)));
        quote!(#i => #walk,)
    });
    tagged_object(
        which,
        tag,
        quote! {
            for (__key, __item) in __map.iter_mut() {
                if __key.as_str() == #content {
                    // The content key sent twice is refused as serde refuses it.
                    if __cx.key_once(__item, __at, #content) {
                        match __which {
                            #(#arms)*
                            _ => __cx.untyped(__item, &__at.field(#content, 1)),
                        }
                    }
                } else {
                    __cx.untyped(__item, &__at.key(__key));
                }
            }
        },
    )
}
