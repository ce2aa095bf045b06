//! The walk of an untagged enum (`#[serde(untagged)]`): serde tries the variants in order and
//! keeps the first that deserializes, and a repair must never change that pick
//! (`docs/rules.md#untagged`). The quick test walks the first variant that can take the
//! value's JSON kind in a probe; when it finds nothing to refuse or repair, the value is
//! accepted as sent. Otherwise the runtime's `untagged` decides with serde's own pick.

use proc_macro2::TokenStream;
use quote::quote;

use super::enum_::content_fn;
use super::fields::{coerce_of, inherited_bounds};
use super::walk_fn;
use crate::model::ast::{Style, Variant};

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
///         _stitch::Value::Array(_) | _stitch::Value::Object(_) => {
///             // The quick test: the first variant that takes the kind, walked in a probe.
///             let mut __probe = __cx.probe();
///             let __taken = {
///                 let __cx = &mut __probe;
///                 match __value {
///                     _stitch::Value::Array(_) => if <Vec<String> as _stitch::Coerce>::SHAPE.arrays {
///                         <Vec<String> as _stitch::Coerce>::walk(__value, __cx, __at, __bounds);
///                         true
///                     } else { /* the next variant … */ false },
///                     _ => { /* the same for objects; a struct variant: */
///                         Self::__stitch_content_1(__value, __cx, __at);
///                         true
///                     }
///                 }
///             };
///             if !__taken {
///                 // No variant takes the kind: serde's message for it.
///                 __cx.end_probe(__probe);
///                 __cx.check::<Self>(__value, __at)
///             } else if !__cx.end_probe(__probe) {
///                 // Something to refuse or repair: serde's pick decides (out of line), or,
///                 // past a few nested decisions, serde's verdict on the value as sent.
///                 if __cx.may_decide() {
///                     Self::__stitch_untagged(__value, __cx, __at, __bounds)
///                 } else {
///                     __cx.check::<Self>(__value, __at)
///                 }
///             }
///         }
///         __other => __cx.check::<Self>(__other, __at),
///     }
/// }
/// // R3 for the enum and its parents: does an array member take this list written as text?
/// fn accepts_text_list(__text: &str, __bounds: _stitch::Bounds) -> bool {
///     <Vec<String> as _stitch::Coerce>::accepts_text_list(__text, __bounds) || …   // or `false`
/// }
/// ```
///
/// and the helpers `__stitch_untagged` and `__stitch_pick` ([`decide`]). `variants` are the
/// variants serde reads, `all` every variant (for an exhaustive `match`).
pub(super) fn walk(
    variants: &[&Variant],
    all: &[Variant],
    helpers: &mut Vec<TokenStream>,
) -> TokenStream {
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
    // A lone number or string is walked as serde's pick only when some member may refuse one
    // by a constraint (`LIMITED`): a constant, so other enums pay nothing.
    let limited_members: Vec<TokenStream> = variants
        .iter()
        .filter(|v| v.style == Style::Newtype && v.fields[0].walked())
        .map(|v| {
            let field = &v.fields[0];
            let own = field.attrs.limits.checked();
            if field.recursive {
                quote!(#own)
            } else {
                let coerce = coerce_of(field);
                quote!(#own || #coerce::LIMITED)
            }
        })
        .collect();
    let limited = quote!(false #(|| #limited_members)*);
    let walk = walk_fn(quote! {
        match __value {
            // R2/R3 (R1 when no member reads a string), decided in the runtime's one place.
            _stitch::Value::String(_) => _stitch::union_string::<Self>(
                __value, __cx, __at, __bounds, |__value, __cx| {
                    if <Self as _stitch::Coerce>::LIMITED {
                        Self::__stitch_scalar(__value, __cx, __at, __bounds)
                    }
                },
            ),
            _stitch::Value::Array(_) | _stitch::Value::Object(_) => {
                let mut __probe = __cx.probe();
                let __taken = {
                    let __cx = &mut __probe;
                    match __value {
                        _stitch::Value::Array(_) => { #arrays }
                        _ => { #objects }
                    }
                };
                if !__taken {
                    __cx.end_probe(__probe);
                    __cx.check::<Self>(__value, __at)
                } else if !__cx.end_probe(__probe) {
                    if __cx.may_decide() {
                        Self::__stitch_untagged(__value, __cx, __at, __bounds)
                    } else {
                        // Deeply nested untagged enums: serde's verdict as sent, no search.
                        __cx.check::<Self>(__value, __at)
                    }
                }
            }
            __other => {
                __cx.check::<Self>(__other, __at);
                if <Self as _stitch::Coerce>::LIMITED {
                    Self::__stitch_scalar(__other, __cx, __at, __bounds)
                }
            }
        }
    });
    helpers.push(decide(variants, all));
    helpers.push(scalar(variants));
    quote! {
        const SHAPE: _stitch::Shape = #shape;
        const LIMITED: bool = #limited;
        #walk
        #accepts
    }
}

/// The cold part of the walk and serde's pick:
///
/// ```text
/// #[cold]
/// #[inline(never)]
/// fn __stitch_untagged(__value, __cx, __at, __bounds) {
///     let __members = [
///         // a walked newtype variant: its type's shape and walk, with the bounds it inherits
///         _stitch::Member {
///             arrays: <Vec<String> as _stitch::Coerce>::SHAPE.arrays,
///             objects: <Vec<String> as _stitch::Coerce>::SHAPE.objects,
///             walk: |__value, __cx, __at, __bounds| <Vec<String> as _stitch::Coerce>::walk(__value, __cx, __at, __bounds),
///         },
///         // a struct variant (a tuple variant takes arrays instead)
///         _stitch::Member { arrays: false, objects: true, walk: |__value, __cx, __at, _| Self::__stitch_content_1(__value, __cx, __at) },
///         // a unit or opaque variant: nothing to repair, only its depth to check
///         _stitch::Member { arrays: false, objects: false, walk: |__value, __cx, __at, _| __cx.untyped(__value, __at) },
///     ];
///     if !_stitch::untagged(__value, __cx, __at, __bounds, &__members, Self::__stitch_pick) {
///         __cx.no_member::<Self>(__value, __at)   // serde's message, for the text
///     }
/// }
/// // The index (among the variants serde reads) of the variant serde reads from a value.
/// fn __stitch_pick(__value: &_stitch::Value) -> Option<usize> {
///     match _stitch::deserialized::<Self>(__value) {
///         Some(Self::Names(..)) => Some(0),
///         Some(Self::Row { .. }) => Some(1),
///         Some(Self::Skipped(..)) | None => None,
///     }
/// }
/// ```
fn decide(variants: &[&Variant], all: &[Variant]) -> TokenStream {
    let members = variants.iter().enumerate().map(|(i, v)| {
        let (arrays, objects, walk) = match v.style {
            Style::Newtype if v.fields[0].walked() => {
                let coerce = coerce_of(&v.fields[0]);
                let walk = member_walk(&v.fields[0]);
                (
                    quote!(#coerce::SHAPE.arrays),
                    quote!(#coerce::SHAPE.objects),
                    quote!(|__value, __cx, __at, __bounds| {
                        let _ = __bounds;
                        #walk
                    }),
                )
            }
            Style::Tuple | Style::Struct => {
                let name = content_fn(i);
                let tuple = v.style == Style::Tuple;
                (
                    quote!(#tuple),
                    quote!(!#tuple),
                    quote!(|__value, __cx, __at, _| Self::#name(__value, __cx, __at)),
                )
            }
            _ => (
                quote!(false),
                quote!(false),
                quote!(|__value, __cx, __at, _| __cx.untyped(__value, __at)),
            ),
        };
        quote!(_stitch::Member { arrays: #arrays, objects: #objects, walk: #walk })
    });
    let count = variants.len();
    let mut read = 0usize;
    let arms = all.iter().map(|v| {
        let ident = v.ident;
        let pattern = match v.style {
            Style::Unit => quote!(Self::#ident),
            Style::Struct => quote!(Self::#ident { .. }),
            _ => quote!(Self::#ident(..)),
        };
        let index = if v.skip {
            quote!(_stitch::None)
        } else {
            read += 1;
            let i = read - 1;
            quote!(_stitch::Some(#i))
        };
        quote!(_stitch::Some(#pattern) => #index,)
    });
    quote! {
        #[doc(hidden)]
        #[cold]
        #[inline(never)]
        fn __stitch_untagged(
            __value: &mut _stitch::Value,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
            __bounds: _stitch::Bounds,
        ) {
            let __members: [_stitch::Member; #count] = [#(#members),*];
            if !_stitch::untagged(__value, __cx, __at, __bounds, &__members, Self::__stitch_pick) {
                __cx.no_member::<Self>(__value, __at)
            }
        }

        #[doc(hidden)]
        fn __stitch_pick(__value: &_stitch::Value) -> _stitch::Option<usize> {
            match _stitch::deserialized::<Self>(__value) {
                #(#arms)*
                _stitch::None => _stitch::None,
            }
        }
    }
}

/// The walk of a lone number or string as the newtype variant serde picks for it, so that the
/// constraints of that variant's type (or its own field's) are judged:
///
/// ```text
/// #[cold]
/// fn __stitch_scalar(__value, __cx, __at, __bounds) {
///     match Self::__stitch_pick(__value) {
///         Some(0) => <Slug as _stitch::Coerce>::walk(__value, __cx, __at, __bounds),
///         _ => {}
///     }
/// }
/// ```
fn scalar(variants: &[&Variant]) -> TokenStream {
    let arms = variants.iter().enumerate().filter_map(|(i, v)| {
        if v.style != Style::Newtype || !v.fields[0].walked() {
            return None;
        }
        let walk = member_walk(&v.fields[0]);
        Some(quote!(_stitch::Some(#i) => #walk,))
    });
    quote! {
        #[doc(hidden)]
        #[cold]
        #[inline(never)]
        fn __stitch_scalar(
            __value: &mut _stitch::Value,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
            __bounds: _stitch::Bounds,
        ) {
            let _ = __bounds;
            match Self::__stitch_pick(__value) {
                #(#arms)*
                _ => {}
            }
        }
    }
}

/// A newtype variant's walk of `__value`: its type's, with the bounds it inherits and its own
/// constraints set around it.
fn member_walk(field: &crate::model::ast::Field) -> TokenStream {
    let coerce = coerce_of(field);
    let bounds = inherited_bounds(field);
    super::fields::limited(field, quote!(#coerce::walk(__value, __cx, __at, #bounds)))
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

/// The quick test of an array (`arrays`) or an object: a chain of `if`s, in variant order,
/// walking the first variant that takes it and giving `true`, or `false` when none does. A
/// newtype variant asks its type's `SHAPE` (known only once the type is); a tuple variant
/// takes arrays and a struct variant objects outright (the chain stops there).
fn first_taker(variants: &[&Variant], arrays: bool) -> TokenStream {
    let mut out = quote!(false);
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
                let walk = member_walk(&v.fields[0]);
                quote! {
                    if #coerce::SHAPE.#flag {
                        #walk;
                        true
                    } else {
                        #out
                    }
                }
            }
            Style::Tuple if arrays => {
                let name = content_fn(i);
                quote!({
                    Self::#name(__value, __cx, __at);
                    true
                })
            }
            Style::Struct if !arrays => {
                let name = content_fn(i);
                quote!({
                    Self::#name(__value, __cx, __at);
                    true
                })
            }
            _ => out,
        };
    }
    out
}
