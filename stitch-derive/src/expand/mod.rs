//! Generates the `Coerce`, `Describe` and `ToolArgs` impls from a checked model.
//!
//! Hygiene, for every generator under this module:
//! - every name the output uses goes through `_stitch`, a `use` of the runtime's `__private`
//!   module inside a `const _` block (short paths are fewer tokens for every build to parse
//!   and resolve), std items as `_stitch::core::…`, never a bare `Option` or `Result`;
//! - locals and helper functions are `__`-prefixed, so they cannot meet a user's name;
//! - each field's wire name is a string literal, so a path segment costs no allocation;
//! - a type written by the user is spanned at its tokens (`coerce_of`), so a type stitch
//!   does not know is reported at the field, once.
//!
//! The stages: [`generics`] bounds the impls, [`struct_`] and [`enum_`] write the walk
//! (`enum_` hands each tagging to its own file), [`schema`] the `Describe` impl, and
//! [`fallback()`] the stub emitted beside errors; [`delegate`] writes all of it for a
//! `#[serde(from)]` / `try_from` container, from its source type.

mod adjacently;
mod bounds_hold;
mod constraints;
mod delegate;
mod enum_;
mod enum_schema;
mod externally;
mod fallback;
mod fields;
mod flat_enum;
mod formats;
mod generics;
mod internally;
mod schema;
mod struct_;
mod table;
mod untagged;

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::model::ast::{Container, Data};

pub use self::fallback::fallback;

/// The whole output for a model without errors.
pub fn expand(cont: &Container) -> TokenStream {
    if let Some(from) = &cont.serde.from {
        // `#[serde(from)]` / `try_from`: everything is the source type's.
        return delegate::expand(cont, from);
    }
    // Associated functions the walk calls by name (`Self::__stitch_content_0`); they go in an
    // inherent impl beside the trait impls.
    let mut helpers = Vec::new();
    let body = match &cont.data {
        Data::Struct(fields) if cont.serde.transparent => {
            match crate::model::ast::transparent_field(fields) {
                Some(field) => struct_::transparent(field),
                // Refused by `check`, so never reached.
                None => quote!(),
            }
        }
        Data::Struct(fields) => struct_::named(cont, fields),
        Data::Newtype(field) => struct_::transparent(field),
        Data::Enum(variants) => enum_::expand(cont, variants, &mut helpers),
        Data::Unsupported => quote!(),
    };
    let asserts = constraints::type_asserts(cont);
    let (describe, beside) = schema::describe(cont);
    let parts = Parts {
        body,
        helpers: quote!(#(#helpers)*),
        asserts: quote!(#asserts #beside),
        describe,
        marks: formats::Marks::Own,
    };
    wrap(cont, parts)
}

/// The pieces `wrap` assembles.
struct Parts<'a> {
    /// The items of the `Coerce` impl.
    body: TokenStream,
    /// Associated functions of the type itself, called by the walk.
    helpers: TokenStream,
    /// Items beside the impls: `const` assertions, the schema's recursion marker.
    asserts: TokenStream,
    /// The items of the `Describe` impl.
    describe: TokenStream,
    /// Where the formats' marker impls come from (`formats`).
    marks: formats::Marks<'a>,
}

/// The shell every output shares:
///
/// ```text
/// #[doc(hidden)]
/// const _: () = {
///     use ::stitch_runtime::__private as _stitch;   // or `#[stitch(crate = "…")]`'s path
///     /* asserts */
///     impl<T> Args<T> where … { /* helpers */ }     // only when there are any
///     impl<T> _stitch::Coerce for Args<T> where … { /* body */ }
///     impl<T> _stitch::Describe for Args<T> where … { /* describe */ }
///     impl<T> _stitch::ToolArgs for Args<T> where … {
///         const DESCRIPTION: _stitch::Option<&'static str> = Some("…");
///     }
///     /* the formats' marker impls: ObjectRoot, StrictRoot, StrictPart (`formats`) */
/// };
/// ```
///
/// No `#[allow]` is needed on any of it: rustc and clippy do not lint code spanned at a
/// derive's call site as they lint the user's (that is where `_stitch`, the helpers and the
/// pattern bindings are spanned), and nothing here trips a lint on the user's own tokens.
/// The hygiene test (under `#![deny(warnings)]`) and clippy on the tests crate keep it so.
///
/// The `where` clause is [`generics::bounded`]'s. `ToolArgs` carries the type's description
/// (its doc comment or `#[stitch(description = "…")]`), as plain text. No `JsonSchema` impl
/// is written: a user's own `#[derive(JsonSchema)]` must not meet one (features unify across
/// a build); `Args<T>` is the runtime's `JsonSchema` of a tool's arguments.
fn wrap(cont: &Container, parts: Parts) -> TokenStream {
    let Parts {
        body,
        helpers,
        asserts,
        describe,
        marks,
    } = parts;
    let krate = cont.krate();
    // Spanned at the user's `crate = "…"`, so a wrong path is reported there.
    let use_krate = match &cont.attrs.krate {
        Some(k) => quote_spanned!(k.span=> use #krate::__private as _stitch;),
        None => quote!(use #krate::__private as _stitch;),
    };
    let ident = cont.ident;
    let description = match schema::described(&cont.attrs.description, &cont.doc) {
        Some(text) => quote!(_stitch::Some(#text)),
        None => quote!(_stitch::None),
    };
    let generics = generics::bounded(cont);
    let marks = formats::marks(cont, &generics, marks);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let helpers = if helpers.is_empty() {
        quote!()
    } else {
        quote! {
            #[automatically_derived]
            impl #impl_generics #ident #ty_generics #where_clause {
                #helpers
            }
        }
    };
    quote! {
        #[doc(hidden)]
        const _: () = {
            #use_krate

            #asserts

            #helpers

            #[automatically_derived]
            impl #impl_generics _stitch::Coerce for #ident #ty_generics #where_clause {
                #body
            }

            #[automatically_derived]
            impl #impl_generics _stitch::Describe for #ident #ty_generics #where_clause {
                #describe
            }

            #[automatically_derived]
            impl #impl_generics _stitch::ToolArgs for #ident #ty_generics #where_clause {
                const DESCRIPTION: _stitch::Option<&'static str> = #description;
            }

            #marks
        };
    }
}

/// `accepts_text_list` of a type with no array form (`Coerce` has no default for it, so a
/// generator cannot forget it): no list written as text is its to take.
fn no_text_list() -> TokenStream {
    quote! {
        #[inline]
        fn accepts_text_list(_: &str, _: _stitch::Bounds) -> bool {
            false
        }
    }
}

/// `bounds_hold` of a type with no array form anywhere inside: nothing to check.
fn no_bounds() -> TokenStream {
    quote! {
        #[inline]
        fn bounds_hold(&self, _: _stitch::Bounds) -> bool {
            true
        }
    }
}

/// The flatten hooks of a type that is walked as another (`coerce`, a `<T as Coerce>` path):
/// a transparent struct's field, a `from`/`try_from` source. Both hand a flattened map and
/// the question "is this key yours" to `coerce`.
fn flat_delegation(coerce: &TokenStream) -> TokenStream {
    let walk_flat = flat_fn(
        &quote::format_ident!("walk_flat"),
        quote!(#coerce::walk_flat(__map, __cx, __at, __owned)),
    );
    quote! {
        #walk_flat
        #[inline]
        fn owns_key(__key: &str) -> bool {
            #coerce::owns_key(__key)
        }
        #[inline]
        fn declares_key(__key: &str) -> bool {
            #coerce::declares_key(__key)
        }
    }
}

/// A function `name` with `walk_flat`'s parameters around `body`, which reads `__map`, `__cx`,
/// `__at` and `__owned`: a flattened enum's or a delegating type's `walk_flat`.
fn flat_fn(name: &syn::Ident, body: TokenStream) -> TokenStream {
    quote! {
        #[inline]
        fn #name(
            __map: &mut _stitch::Map<_stitch::String, _stitch::Value>,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
            __owned: &_stitch::Claims<'_>,
        ) {
            #body
        }
    }
}

/// The `walk` of a `Coerce` impl around `body`, which reads `__value`, `__cx`, `__at` and
/// `__bounds`.
fn walk_fn(body: TokenStream) -> TokenStream {
    quote! {
        #[inline]
        fn walk(
            __value: &mut _stitch::Value,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
            __bounds: _stitch::Bounds,
        ) {
            #body
        }
    }
}
