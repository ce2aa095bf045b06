//! The flatten hooks of an enum with data (`#[serde(flatten)] act: Act`): `walk_flat`,
//! `declares_key` and `owns_key`, the enum's keys read from its parent's object as serde's
//! flatten reads them (`docs/rules.md#flattened-unions`):
//!
//! - externally tagged: the first key naming a variant, walked as that variant's content;
//!   no such key is serde's refusal (`no variant of enum Act found in flattened data`);
//! - internally tagged: the tag names the variant, whose fields are keys of the parent;
//! - adjacently tagged: the tag names the variant, read from the content key;
//! - untagged: every key, as one object (serde tries each variant on them all).

use proc_macro2::TokenStream;
use quote::quote;

use super::enum_::{content_walk, which_variant};
use super::fields::coerce_of;
use crate::model::ast::{Container, Style, Tagging, Variant};

/// The hooks of the enum `cont`, whose variants serde reads are `variants`.
pub(super) fn expand(cont: &Container, variants: &[&Variant]) -> TokenStream {
    let (walk, declares, owns) = match cont.tagging() {
        Tagging::External => {
            let arms = variants.iter().enumerate().flat_map(|(i, v)| {
                v.names.all().map(move |name| {
                    let walk = content_walk(i, v, quote!(__item), quote!(&__at.field(#name, 0)));
                    // After the first, and when the text sent it twice (serde reads the first
                    // sent, which the value does not hold): depth only.
                    quote!(#name => {
                        if __found || __cx.sent_twice(__item) {
                            __cx.untyped(__item, &__at.key(__key));
                        } else {
                            #walk;
                        }
                        __found = true;
                    })
                })
            });
            let names = variants.iter().flat_map(|v| v.names.all());
            let walk = quote! {
                let _ = __owned;
                let mut __found = false;
                for (__key, __item) in __map.iter_mut() {
                    match __key.as_str() {
                        #(#arms)*
                        _ => {}
                    }
                }
                if !__found {
                    _stitch::no_flat_variant::<Self>(__cx, __at);
                }
            };
            let declares = quote!(_stitch::core::matches!(__key, #(#names)|*));
            (walk, declares, None)
        }
        Tagging::Internal { tag } => {
            let which = which_variant(variants, &tag);
            let arms = super::internally::arms(
                variants,
                quote!(&__owned.within(|__key: &str| __key == #tag)),
                true,
            );
            let walk = quote! {
                let __which: usize = if __cx.tag_twice(__map, __at, #tag) { !1 } else { #which };
                match __which {
                    #(#arms)*
                    _ => {}
                }
                // A tag that is not a string (a variant's index, which serde's flatten reads)
                // is left to serde's read of the whole.
                if __which == !0 && __map.get(#tag).is_none_or(_stitch::Value::is_string) {
                    _stitch::flat_refused::<Self>(__map, __cx, __at, __owned, _stitch::None);
                }
            };
            let (declares, owns) = variant_keys(variants, &[&tag]);
            (walk, declares, owns)
        }
        Tagging::Adjacent { tag, content } => {
            let which = which_variant(variants, &tag);
            let arms = variants.iter().enumerate().map(|(i, v)| {
                let walk = content_walk(i, v, quote!(__item), quote!(&__at.field(#content, 1)));
                quote!(#i => #walk,)
            });
            let walk = quote! {
                let __which: usize = if __cx.tag_twice(__map, __at, #tag) { !1 } else { #which };
                if let _stitch::Some(__item) = __map.get_mut(#content) {
                    if __cx.key_once(__item, __at, #content) {
                        match __which {
                            #(#arms)*
                            _ => __cx.untyped(__item, &__at.field(#content, 1)),
                        }
                    }
                }
                // A tag that is not a string (a variant's index, which serde's flatten reads)
                // is left to serde's read of the whole.
                if __which == !0 && __map.get(#tag).is_none_or(_stitch::Value::is_string) {
                    _stitch::flat_refused::<Self>(__map, __cx, __at, __owned, _stitch::Some(&[#tag, #content]));
                }
            };
            let declares = quote!(_stitch::core::matches!(__key, #tag | #content));
            (walk, declares, None)
        }
        Tagging::Untagged => {
            let walk = quote!(_stitch::walk_flat_whole::<Self>(__map, __cx, __at, __owned));
            let (declares, owns) = variant_keys(variants, &[]);
            (walk, declares, owns)
        }
    };
    let walk_flat = super::flat_fn(&quote::format_ident!("walk_flat"), walk);
    // `owns_key` is the trait's (`declares_key`) unless a nested type owns more.
    let owns = owns.map(|owns| {
        quote! {
            #[inline]
            fn owns_key(__key: &str) -> bool {
                #owns
            }
        }
    });
    quote! {
        #walk_flat
        #[inline]
        fn declares_key(__key: &str) -> bool {
            #declares
        }
        #owns
    }
}

/// The bodies of `declares_key` and `owns_key` of an enum whose variants' fields are keys of
/// the shared object (internally tagged, untagged): `extra` (the tag), each struct variant's
/// fields, and what a flattened field or a newtype variant's type declares (owns).
fn variant_keys(variants: &[&Variant], extra: &[&str]) -> (TokenStream, Option<TokenStream>) {
    let mut names: Vec<&str> = extra.to_vec();
    let mut nested = Vec::new();
    for v in variants {
        match v.style {
            Style::Struct => {
                for f in v.fields.iter().filter(|f| !f.skip) {
                    if f.flatten {
                        if f.attrs.opaque.is_none() {
                            nested.push(coerce_of(f));
                        }
                    } else {
                        names.extend(f.names.all());
                    }
                }
            }
            Style::Newtype if v.fields[0].walked() => nested.push(coerce_of(&v.fields[0])),
            _ => {}
        }
    }
    let own = if names.is_empty() {
        quote!(false)
    } else {
        quote!(_stitch::core::matches!(__key, #(#names)|*))
    };
    let owns = (!nested.is_empty()).then(|| quote!(#own #(|| #nested::owns_key(__key))*));
    (quote!(#own #(|| #nested::declares_key(__key))*), owns)
}
