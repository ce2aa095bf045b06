//! The walk of an untagged enum (`#[serde(untagged)]`): serde tries the variants in order and
//! keeps the first that deserializes. The walk cannot try (it must not change what serde
//! would pick), so it follows the first variant that can take the value's JSON kind.

use proc_macro2::TokenStream;
use quote::quote;

use super::enum_::content_fn;
use super::fields::{coerce_of, inherited_bounds};
use super::walk_fn;
use crate::ast::{Style, Variant};

/// ```text
/// // What any variant accepts: the union of their shapes.
/// const SHAPE: _stitch::Shape = _stitch::Shape::new(_stitch::Kind::Union, false, false, false)
///     .union(<String as _stitch::Coerce>::SHAPE).union(_stitch::Shape::OBJECT);
/// fn walk(__value, __cx, __at, __bounds) {
///     match __value {
///         // R3's one home: a list written as text that an array member takes is refused
///         // (`accepts_text_list` below); another string stays when a variant takes strings
///         // (R2), and is JSON text to repair otherwise (R1).
///         _stitch::Value::String(_) => _stitch::union_string::<Self>(__value, __cx, __at, __bounds, |_, _| {}),
///         // The first variant whose shape takes arrays (objects), as serde would try it.
///         _stitch::Value::Array(_) => {
///             if <Vec<String> as _stitch::Coerce>::SHAPE.arrays {
///                 <Vec<String> as _stitch::Coerce>::walk(__value, __cx, __at, __bounds)
///             } else { /* the next variant … */ _stitch::walk_leaf(__value, __cx, __at) }
///         }
///         _stitch::Value::Object(_) => { /* the same for objects; a struct variant: */
///             Self::__stitch_content_1(__value, __cx, __at)
///         }
///         __other => _stitch::walk_leaf(__other, __cx, __at),
///     }
/// }
/// // R3 for the enum and its parents: does an array member take this list written as text?
/// fn accepts_text_list(__text: &str, __bounds: _stitch::Bounds) -> bool {
///     <Vec<String> as _stitch::Coerce>::accepts_text_list(__text, __bounds) || …   // or `false`
/// }
/// ```
pub(super) fn walk(variants: &[&Variant]) -> TokenStream {
    let shapes = variants.iter().map(|v| variant_shape(v));
    let shape = quote!(_stitch::Shape::new(_stitch::Kind::Union, false, false, false)
        #(.union(#shapes))*);
    // R3: the array members are the newtype variants with an array form.
    let lists: Vec<TokenStream> = variants
        .iter()
        .filter(|v| v.style == Style::Newtype && v.fields[0].walked())
        .map(|v| {
            let coerce = coerce_of(&v.fields[0]);
            quote!(#coerce::accepts_text_list(__text, __bounds))
        })
        .collect();
    let refused = if lists.is_empty() {
        quote!({
            let _ = (__text, __bounds);
            false
        })
    } else {
        quote!(#(#lists)||*)
    };
    let (arrays, objects) = (first_taker(variants, true), first_taker(variants, false));
    let accepts = quote! {
        #[inline]
        fn accepts_text_list(__text: &str, __bounds: _stitch::Bounds) -> bool {
            #refused
        }
    };
    let walk = walk_fn(quote! {
        match __value {
            // R2/R3 (R1 when no member reads a string), decided in the runtime's one place.
            _stitch::Value::String(_) => _stitch::union_string::<Self>(
                __value, __cx, __at, __bounds, |_, _| {},
            ),
            _stitch::Value::Array(_) => { #arrays }
            _stitch::Value::Object(_) => { #objects }
            __other => __cx.check::<Self>(__other, __at),
        }
    });
    quote! {
        const SHAPE: _stitch::Shape = #shape;
        #walk
        #accepts
    }
}

/// What a variant accepts: a unit variant is read from `null` (a scalar); an opaque newtype
/// accepts anything; a tuple variant, an array; a struct variant, an object.
fn variant_shape(variant: &Variant) -> TokenStream {
    match variant.style {
        Style::Unit => quote!(_stitch::Shape::SCALAR),
        Style::Newtype if variant.fields[0].attrs.opaque.is_some() => {
            quote!(_stitch::Shape::ANY)
        }
        Style::Newtype => {
            let coerce = coerce_of(&variant.fields[0]);
            quote!(#coerce::SHAPE)
        }
        Style::Tuple => quote!(_stitch::Shape::TUPLE),
        Style::Struct => quote!(_stitch::Shape::OBJECT),
    }
}

/// The walk of an array (`arrays`) or an object: a chain of `if`s, in variant order, going to
/// the first variant that takes it. A newtype variant asks its type's `SHAPE` (known only
/// once the type is), a tuple variant takes arrays and a struct variant objects outright (the
/// chain stops there), and when none does the value is walked for depth only.
fn first_taker(variants: &[&Variant], arrays: bool) -> TokenStream {
    let mut out = quote!(__cx.check::<Self>(__value, __at));
    // Built from the last variant back, each wrapping the rest as its `else`.
    for (i, v) in variants.iter().enumerate().rev() {
        out = match v.style {
            Style::Newtype if v.fields[0].walked() => {
                let coerce = coerce_of(&v.fields[0]);
                let flag = if arrays {
                    quote!(arrays)
                } else {
                    quote!(objects)
                };
                let bounds = inherited_bounds(&v.fields[0]);
                quote! {
                    if #coerce::SHAPE.#flag {
                        #coerce::walk(__value, __cx, __at, #bounds)
                    } else {
                        #out
                    }
                }
            }
            Style::Tuple if arrays => {
                let name = content_fn(i);
                quote!(Self::#name(__value, __cx, __at))
            }
            Style::Struct if !arrays => {
                let name = content_fn(i);
                quote!(Self::#name(__value, __cx, __at))
            }
            _ => out,
        };
    }
    out
}
