//! The walk of an enum: what every tagging shares (the walkers of a variant's content, the
//! tag lookup, `bounds_hold`), then one file per tagging: [`super::externally`],
//! [`super::internally`], [`super::adjacently`], [`super::untagged`].

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::bounds_hold::bounds_checks;
use super::fields::{coerce_of, field_walk, fields_table};
use super::walk_fn;
use crate::model::ast::{Container, Field, Style, Tagging, Variant};

/// The `Coerce` items of an enum. Skipped variants (`#[serde(skip)]`) are not read by serde,
/// so the walk ignores them; `bounds_hold` still matches them, as a value may hold one.
pub(super) fn expand(
    cont: &Container,
    variants: &[Variant],
    helpers: &mut Vec<TokenStream>,
) -> TokenStream {
    let walk = walk(cont, variants, helpers);
    // Flattened, an enum with data reads its keys from the parent's object; a unit-variant
    // enum (read from a string) keeps the trait's no-op hooks.
    let read: Vec<&Variant> = variants.iter().filter(|v| !v.skip).collect();
    let flat = if cont.tagging() == Tagging::External && read.iter().all(|v| v.style == Style::Unit)
    {
        quote!()
    } else {
        super::flat_enum::expand(cont, &read)
    };
    let bounds_hold = bounds_hold(variants, cont.tagging() == Tagging::Untagged);
    // Only an untagged enum can be an array member (its `accepts_text_list` is its own).
    let text_list = if cont.tagging() == Tagging::Untagged {
        quote!()
    } else {
        super::no_text_list()
    };
    quote!(#walk #flat #bounds_hold #text_list)
}

/// `SHAPE` and `walk`, plus the helpers they call: for each variant `i` with fields, a content
/// walker (`__stitch_content_i`, see [`content_walker`]), and for a struct variant the table
/// of its fields (`__STITCH_FIELDS_i`, walked by [`fields_walk`]; shared with the internally
/// tagged form, whose fields sit beside the tag).
fn walk(cont: &Container, all: &[Variant], helpers: &mut Vec<TokenStream>) -> TokenStream {
    // The indices `i` below count the variants serde reads, skipped ones left out.
    let variants: Vec<&Variant> = all.iter().filter(|v| !v.skip).collect();
    let tagging = cont.tagging();
    if tagging == Tagging::External && variants.iter().all(|v| v.style == Style::Unit) {
        // A unit-variant enum is read from a string: nothing to repair; the quick test is a
        // string naming a variant, serde judges anything else.
        let names = variants
            .iter()
            .flat_map(|v| v.names.all())
            .collect::<Vec<_>>();
        let walk = walk_fn(quote! {
            let __admits = _stitch::core::matches!(
                __value,
                _stitch::Value::String(__s) if _stitch::core::matches!(__s.as_str(), #(#names)|*)
            );
            _stitch::walk_leaf::<Self>(__value, __cx, __at, __admits)
        });
        return quote! {
            const SHAPE: _stitch::Shape = _stitch::Shape::STRING_LIKE;
            #walk
        };
    }
    for (i, variant) in variants.iter().enumerate() {
        if matches!(variant.style, Style::Tuple | Style::Struct) {
            helpers.push(content_walker(i, variant));
        }
    }
    for (i, variant) in variants.iter().enumerate() {
        if variant.style == Style::Struct {
            let table = fields_table(&variant.fields, super::fields::FieldRules::default());
            let name = fields_const(i);
            helpers.push(quote! {
                #[doc(hidden)]
                const #name: &'static _stitch::Fields = #table;
            });
        }
    }
    match tagging {
        Tagging::External => super::externally::walk(&variants),
        Tagging::Internal { tag } => super::internally::walk(&variants, &tag),
        Tagging::Adjacent { tag, content } => super::adjacently::walk(&variants, &tag, &content),
        Tagging::Untagged => super::untagged::walk(&variants, all, helpers),
    }
}

/// The name of variant `i`'s content walker.
pub(super) fn content_fn(i: usize) -> syn::Ident {
    format_ident!("__stitch_content_{}", i)
}

/// The name of struct variant `i`'s field table.
fn fields_const(i: usize) -> syn::Ident {
    format_ident!("__STITCH_FIELDS_{}", i)
}

/// The walk of struct variant `i`'s fields over `__map` at `__at`, handed `claims` (what the
/// levels around the object declare): the runtime's loop over the variant's table.
pub(super) fn fields_walk(i: usize, claims: TokenStream) -> TokenStream {
    let table = fields_const(i);
    quote!(_stitch::walk_fields(__map, __cx, __at, #claims, Self::#table))
}

/// The walker of a tuple or struct variant's content, wherever the tagging puts it:
///
/// ```text
/// fn __stitch_content_0(__value: &mut _stitch::Value, __cx: &mut _stitch::Cx, __at: &_stitch::Path<'_>) {
///     match __value {
///         // a struct variant:
///         _stitch::Value::Object(__map) => if __cx.enter(__at) {
///             _stitch::walk_fields(__map, __cx, __at, &_stitch::Claims::NONE, Self::__STITCH_FIELDS_0);
///             __cx.leave();
///         },
///         // a tuple variant: each element as its field's type, extra elements depth only
///         _stitch::Value::Array(__items) => if __cx.enter(__at) {
///             for (__i, __item) in __items.iter_mut().enumerate() {
///                 let __here = __at.index(__i);
///                 match __i { 0 => /* field walk */, _ => __cx.untyped(__item, &__here) }
///             }
///             __cx.leave();
///         },
///         // R1: content written as JSON text is parsed and walked again by this function
///         _stitch::Value::String(_) => __cx.repair_with(__value, __at, Self::__stitch_content_0),
///         __other => _stitch::walk_leaf(__other, __cx, __at),
///     }
/// }
/// ```
fn content_walker(i: usize, variant: &Variant) -> TokenStream {
    let name = content_fn(i);
    let shape = match variant.style {
        Style::Struct => quote!(_stitch::Shape::OBJECT),
        _ => quote!(_stitch::Shape::TUPLE),
    };
    let body = match variant.style {
        Style::Struct => {
            let walk = fields_walk(i, quote!(&_stitch::Claims::NONE));
            quote! {
                _stitch::Value::Object(__map) => {
                    if __cx.enter(__at) {
                        #walk;
                        __cx.leave();
                    }
                }
            }
        }
        _ => {
            let arms = variant.fields.iter().enumerate().map(|(n, field)| {
                let walk = field_walk(field, quote!(__item), quote!(&__here));
                quote!(#n => #walk,)
            });
            quote! {
                _stitch::Value::Array(__items) => {
                    if __cx.enter(__at) {
                        for (__i, __item) in __items.iter_mut().enumerate() {
                            let __here = __at.index(__i);
                            match __i {
                                #(#arms)*
                                _ => __cx.untyped(__item, &__here),
                            }
                        }
                        __cx.leave();
                    }
                }
            }
        }
    };
    quote! {
        #[doc(hidden)]
        #[inline]
        fn #name(
            __value: &mut _stitch::Value,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
        ) {
            match __value {
                #body
                _stitch::Value::String(_) => {
                    // What is not repaired is serde's to judge, with the whole enum.
                    let _ = __cx.repair_with(__value, __at, #shape, Self::#name);
                }
                __other => __cx.untyped(__other, __at),
            }
        }
    }
}

/// The walk of variant `i`'s content `item` found at path `at`, for the taggings that hold
/// the content as one value (external and adjacent):
///
/// ```text
/// _stitch::walk_leaf(item, __cx, at)                 // unit: nothing expected, depth only
/// <T as _stitch::Coerce>::walk(item, __cx, at, …)    // newtype: the field's walk
/// Self::__stitch_content_i(item, __cx, at)           // tuple or struct
/// ```
pub(super) fn content_walk(
    i: usize,
    variant: &Variant,
    item: TokenStream,
    at: TokenStream,
) -> TokenStream {
    match variant.style {
        Style::Unit => quote!(__cx.untyped(#item, #at)),
        Style::Newtype => field_walk(&variant.fields[0], item, at),
        Style::Tuple | Style::Struct => {
            let name = content_fn(i);
            quote!(Self::#name(#item, __cx, #at))
        }
    }
}

/// The lookup of the variant a tag names, for the taggings that have one: a `usize`
/// expression, the variant's index, or `!0` when the tag is missing, not a string, or names
/// no variant (serde then fails, and the walk only checks depth), or `!1` when the text sent
/// the tag twice (refused here, as serde refuses it).
///
/// ```text
/// match __map.get("type") {
///     _stitch::Some(_stitch::Value::String(__tag)) => match __tag.as_str() {
///         "get" | "fetch" => 0,      // a variant's wire name and aliases
///         "put" => 1,
///         _ => !0,
///     },
///     _ => !0,
/// }
/// ```
pub(super) fn which_variant(variants: &[&Variant], tag: &str) -> TokenStream {
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let names = v.names.all();
        quote!(#(#names)|* => #i,)
    });
    quote! {
        match __map.get(#tag) {
            _stitch::Some(
                _stitch::Value::String(__tag),
            ) => match __tag.as_str() {
                #(#arms)*
                _ => !0,
            },
            _ => !0,
        }
    }
}

/// `SHAPE` and `walk` of an enum read from one object whose tag key names the variant
/// (internally and adjacently tagged); `body` walks `__map`, the variant's index in `__which`
/// (`which`, from [`which_variant`]).
///
/// ```text
/// const SHAPE: _stitch::Shape = _stitch::Shape::new(_stitch::Kind::Union, false, false, true);
/// fn walk(__value, __cx, __at, __bounds) {
///     match __value {
///         _stitch::Value::Object(__map) => if __cx.enter(__at) {
///             let __which: usize = if __cx.tag_twice(__map, __at, "type") { !1 } else { /* which */ };
///             /* body */
///             __cx.leave();
///             if __which == !0 { __cx.check::<Self>(__value, __at) }  // serde says why
///         },
///         _stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),  // R1
///         __other => __cx.check::<Self>(__other, __at),
///     }
/// }
/// ```
pub(super) fn tagged_object(which: TokenStream, tag: &str, body: TokenStream) -> TokenStream {
    let walk = walk_fn(quote! {
        match __value {
            _stitch::Value::Object(__map) => {
                if __cx.enter(__at) {
                    // The tag sent twice: refused as serde refuses it, no variant walked (`!1`).
                    let __which: usize = if __cx.tag_twice(__map, __at, #tag) { !1 } else { #which };
                    #body
                    __cx.leave();
                    if __which == !0 {
                        // No variant named: serde says why (a missing or unknown tag).
                        __cx.check::<Self>(__value, __at);
                    }
                }
            }
            _stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),
            __other => __cx.check::<Self>(__other, __at),
        }
    });
    quote! {
        const SHAPE: _stitch::Shape = _stitch::Shape::new(
            _stitch::Kind::Union, false, false, true,
        );
        #walk
    }
}

/// The `bounds_hold` of an enum: the variant held checks its own walked fields.
///
/// ```text
/// fn bounds_hold(&self, _: _stitch::Bounds) -> bool {
///     match self {
///         Self::Unit => true,
///         Self::Search { paths: __f0, limit: __f1 } => true && <…>::bounds_hold(__f0, bounds) && …,
///         Self::Pair(__f0, __f1) => true && …,
///     }
/// }
/// ```
///
/// `true` outright when no variant has fields. A walked newtype member of an untagged enum
/// without bounds of its own takes the incoming ones, as its walk does (item bounds count the
/// array as sent, whichever member reads it).
fn bounds_hold(variants: &[Variant], untagged: bool) -> TokenStream {
    if variants.iter().all(|v| v.fields.is_empty()) {
        return super::no_bounds();
    }
    let arms = variants.iter().map(|v| {
        let ident = v.ident;
        if v.skip || v.fields.is_empty() {
            return match v.style {
                Style::Unit => quote!(Self::#ident => true,),
                Style::Struct => quote!(Self::#ident { .. } => true,),
                _ => quote!(Self::#ident(..) => true,),
            };
        }
        let bindings: Vec<syn::Ident> = (0..v.fields.len())
            .map(|i| format_ident!("__f{}", i))
            .collect();
        let accessed: Vec<(&Field, TokenStream)> = v
            .fields
            .iter()
            .zip(&bindings)
            .map(|(f, b)| (f, quote!(#b)))
            .collect();
        let inherits = untagged
            && v.style == Style::Newtype
            && v.fields[0].walked()
            && v.fields[0].attrs.max_items.is_none()
            && v.fields[0].attrs.min_items.is_none();
        let checks = if inherits {
            let coerce = coerce_of(&v.fields[0]);
            let limits = super::bounds_hold::limits_hold(&v.fields[0], &coerce, &quote!(__f0));
            quote!(#coerce::bounds_hold(__f0, __bounds) #limits)
        } else {
            bounds_checks(&accessed)
        };
        let pattern = match v.style {
            Style::Struct => {
                let members = v.fields.iter().map(|f| &f.member);
                quote!(Self::#ident { #(#members: #bindings),* })
            }
            _ => quote!(Self::#ident(#(#bindings),*)),
        };
        // The bindings of skipped and opaque fields are not read; `unused_variables` does not
        // fire on bindings spanned at the derive's call site.
        quote!(#pattern => #checks,)
    });
    quote! {
        #[inline]
        fn bounds_hold(&self, __bounds: _stitch::Bounds) -> bool {
            let _ = __bounds;
            match self {
                #(#arms)*
            }
        }
    }
}
