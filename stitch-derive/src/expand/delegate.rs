//! The impls of a `#[serde(from = "Raw")]` or `#[serde(try_from = "Raw")]` container: serde
//! reads `Raw` and converts, so the walk, the schema and the command line are `Raw`'s, and the
//! container's own body means nothing to stitch (its field types need no `Coerce`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{flat_delegation, walk_fn, wrap, Parts};
use crate::model::ast::Container;
use crate::model::serde_attr::FromType;

/// The whole output for a `from` / `try_from` container:
///
/// ```text
/// const _: fn() = _stitch::serde_source::<Raw>;   // at "Raw": must derive ToolArgs (no generics)
/// impl _stitch::Coerce for Span where for<'__stitch> Raw: _stitch::Coerce {
///     const SHAPE: _stitch::Shape = <Raw as _stitch::Coerce>::SHAPE;
///     fn walk(…) { <Raw as _stitch::Coerce>::walk(…) }          // and every other item
///     fn bounds_hold(&self, _) -> bool { false }                 // see below
/// }
/// impl _stitch::Describe for Span where … {
///     const SCHEMA: &'static _stitch::Schema = _stitch::schema_of::<Raw>();
///     const OPTIONAL: bool = _stitch::optional_of::<Raw>();
/// }
/// ```
///
/// The `where` clause ([`super::generics::bounded`]) is higher-ranked so that, when `Raw`
/// does not implement `Coerce`, it is not a trivially false bound (an error of its own): the
/// impls then simply do not apply, and the assertion is the one error, at the attribute.
pub fn expand(cont: &Container, from: &FromType) -> TokenStream {
    let Some(raw) = &from.ty else {
        // Not a type: serde reports it; stitch adds nothing but the stub.
        return super::fallback(cont);
    };
    let coerce = quote_spanned!(from.span=> <#raw as _stitch::Coerce>);
    let flat = flat_delegation(&coerce);
    // `accepts_text_list` must agree with serde on `Self`: `from` converts whatever `Raw`
    // reads, `try_from` may still refuse it (`accepts_element` is left at its default, serde
    // reading `Self` from the text).
    let text_list = match from.key {
        "try_from" => quote! {
            #coerce::accepts_text_list(__text, __bounds)
                && <Self as _stitch::Coerce>::accepts_element(__text)
        },
        _ => quote!(#coerce::accepts_text_list(__text, __bounds)),
    };
    let walk = walk_fn(quote!(#coerce::walk(__value, __cx, __at, __bounds)));
    let body = quote! {
        const SHAPE: _stitch::Shape = #coerce::SHAPE;
        #walk
        #[inline]
        fn accepts_text_list(__text: &str, __bounds: _stitch::Bounds) -> bool {
            #text_list
        }
        // A value of the container cannot give back the `Raw` it was built from, so `Raw`'s
        // bounds cannot be checked on it: the fast path of `from_json` always hands such a
        // call to the full path, whose walk of `Raw` checks them.
        #[inline]
        fn bounds_hold(&self, _: _stitch::Bounds) -> bool {
            false
        }
        #flat
    };
    let describe = quote_spanned! {from.span=>
        const SCHEMA: &'static _stitch::Schema = _stitch::schema_of::<#raw>();
        const OPTIONAL: bool = _stitch::optional_of::<#raw>();
    };
    // Outside the impls, so only without type parameters: `Raw<T>` may have a walk only for
    // some `T`, which the impls' `where` clause leaves to each use.
    let asserts = if cont.generics.type_params().next().is_none() {
        quote_spanned! {from.span=>
            const _: fn() = _stitch::serde_source::<#raw>;
        }
    } else {
        quote!()
    };
    let parts = Parts {
        body,
        helpers: quote!(),
        asserts,
        describe,
        marks: super::formats::Marks::From(raw),
    };
    wrap(cont, parts)
}
