//! Type parameters and the container's own type: the `where` clause of the impls, and the
//! marker that stands for the container in its own schema.
//!
//! `Self` itself is gone by now: the model replaced it in every field type
//! ([`crate::model::ast::Field::ty`]) and noted which type parameters each type names as written.

use quote::format_ident;

use crate::model::ast::Container;

/// The input's generics plus the bounds the impls need:
///
/// ```text
/// impl<T, U> _stitch::Coerce for Args<T, U>
/// where
///     T: _stitch::Coerce,                     // T is named by a walked field
///     Args<T, U>: _stitch::DeserializeOwned,  // whenever there are type parameters
/// ```
///
/// A `#[serde(from = "Raw")]` container gets `for<'__stitch> Raw: _stitch::Coerce` instead of
/// bounds from its fields.
///
/// A parameter named only by skipped or opaque fields, or only through `Self`, gets no
/// `Coerce` bound: the walk never reaches a `T` there (and the impl being written is the one
/// that covers `Self`).
pub(super) fn bounded(cont: &Container) -> syn::Generics {
    let mut generics = cont.generics.clone();
    if let Some(raw) = cont.serde.from.as_ref().and_then(|f| f.ty.as_ref()) {
        // A `from` type's impls delegate to `Raw`: they hold where `Raw` has a walk. The bound
        // is higher-ranked so that, with no type parameter in it, it is not a trivially false
        // bound when `Raw` has none (see `delegate`): the impls then just do not apply.
        generics
            .make_where_clause()
            .predicates
            .push(syn::parse_quote!(for<'__stitch> #raw: _stitch::Coerce));
    }
    if generics.type_params().next().is_none() {
        return generics;
    }
    let used: Vec<&syn::Ident> = cont
        .all_fields()
        // A `from` type's fields are not walked: `Raw` is.
        .filter(|f| f.walked() && cont.serde.from.is_none())
        .flat_map(|f| &f.type_params)
        .collect();
    // In the order the parameters are declared, whatever order the fields name them in.
    let bounded: Vec<syn::Ident> = generics
        .type_params()
        .map(|p| p.ident.clone())
        .filter(|p| used.contains(&p))
        .collect();
    let ident = cont.ident;
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let where_clause = generics.make_where_clause();
    for param in bounded {
        where_clause
            .predicates
            .push(syn::parse_quote!(#param: _stitch::Coerce));
    }
    where_clause
        .predicates
        .push(syn::parse_quote!(#ident #ty_generics: _stitch::DeserializeOwned));
    generics
}

/// The marker type that stands for the container inside its own fields' schemas.
pub(super) fn marker() -> syn::Ident {
    format_ident!("__StitchRecursion")
}

/// `ty` with each path type naming the container (`Tree`, `Tree<T>`, in any generic argument,
/// array, slice, tuple or parentheses) replaced by [`marker`]. The schema of `Vec<Tree>` is
/// then `Vec<marker>`'s, whose items are `{"$ref":"#Tree"}`, instead of a constant that
/// contains itself.
pub(super) fn with_marker(ty: &syn::Type, ident: &syn::Ident) -> syn::Type {
    let mut ty = ty.clone();
    replace_in(&mut ty, ident);
    ty
}

fn replace_in(ty: &mut syn::Type, ident: &syn::Ident) {
    match ty {
        syn::Type::Path(path) if path.qself.is_none() => {
            let names_us = path.path.segments.last().is_some_and(|s| s.ident == *ident);
            // Only the bare name: `crate::Tree` or `<Tree>::Item` is left as written.
            if names_us && path.path.segments.len() == 1 {
                let marker = marker();
                *ty = syn::parse_quote!(#marker);
                return;
            }
            for segment in path.path.segments.iter_mut() {
                if let syn::PathArguments::AngleBracketed(args) = &mut segment.arguments {
                    for arg in args.args.iter_mut() {
                        if let syn::GenericArgument::Type(inner) = arg {
                            replace_in(inner, ident);
                        }
                    }
                }
            }
        }
        syn::Type::Array(array) => replace_in(&mut array.elem, ident),
        syn::Type::Slice(slice) => replace_in(&mut slice.elem, ident),
        syn::Type::Tuple(tuple) => tuple.elems.iter_mut().for_each(|t| replace_in(t, ident)),
        syn::Type::Paren(paren) => replace_in(&mut paren.elem, ident),
        syn::Type::Group(group) => replace_in(&mut group.elem, ident),
        _ => {}
    }
}
