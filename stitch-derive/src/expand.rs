//! Generates the `Coerce` and `ToolArgs` impls from a checked model.
//!
//! Every name the output uses goes through `_stitch` (a `use` of the runtime's `__private`
//! module inside a `const _` block; short paths are fewer tokens for every build to parse and
//! resolve), locals are `__`-prefixed, and each field's wire name is a static string.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Container, Data, Field, Style, Tagging, Variant};

/// The whole output for a model without errors.
pub fn expand(cont: &Container) -> TokenStream {
    let mut helpers = Vec::new();
    let body = match &cont.data {
        Data::Struct(fields) if cont.serde.transparent => {
            match crate::ast::transparent_field(fields) {
                Some(field) => transparent(field),
                None => quote!(),
            }
        }
        Data::Struct(fields) => structure(fields, &mut helpers),
        Data::Newtype(field) => transparent(field),
        Data::Enum(variants) => {
            let walk = enumeration(cont, variants, &mut helpers);
            let bounds_hold = enum_bounds_hold(variants, cont.tagging() == Tagging::Untagged);
            quote!(#walk #bounds_hold)
        }
        Data::Unsupported => quote!(),
    };
    let asserts = bound_asserts(cont);
    let (describe, beside) = crate::schema::describe(cont);
    let parts = Parts {
        body,
        helpers: quote!(#(#helpers)*),
        asserts: quote!(#asserts #beside),
        describe,
    };
    wrap(cont, parts)
}

/// The pieces `wrap` assembles.
struct Parts {
    body: TokenStream,
    helpers: TokenStream,
    asserts: TokenStream,
    describe: TokenStream,
}

/// The impls with an empty walk, emitted beside the errors so that only the real mistakes show.
pub fn fallback(cont: &Container) -> TokenStream {
    let body = quote! {
        const SHAPE: _stitch::Shape = _stitch::Shape::OBJECT;
        #[inline]
        fn walk(
            _: &mut _stitch::Value,
            _: &mut _stitch::Cx,
            _: &_stitch::Path<'_>,
            _: _stitch::Bounds,
        ) {
        }
    };
    let describe = quote! {
        const SCHEMA: &'static _stitch::Schema = &_stitch::Schema::Any;
    };
    let parts = Parts {
        body,
        helpers: quote!(),
        asserts: quote!(),
        describe,
    };
    wrap(cont, parts)
}

fn wrap(cont: &Container, parts: Parts) -> TokenStream {
    let Parts {
        body,
        helpers,
        asserts,
        describe,
    } = parts;
    let krate = cont.krate();
    // Spanned at the user's `crate = "…"`, so a wrong path is reported there.
    let use_krate = match &cont.attrs.krate {
        Some(k) => quote_spanned!(k.span=> use #krate::__private as _stitch;),
        None => quote!(use #krate::__private as _stitch;),
    };
    let ident = cont.ident;
    let name = ident.to_string();
    let generics = bounded_generics(cont);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let helpers = if helpers.is_empty() {
        quote!()
    } else {
        quote! {
            #[automatically_derived]
            #[allow(non_snake_case, clippy::all)]
            impl #impl_generics #ident #ty_generics #where_clause {
                #helpers
            }
        }
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::needless_lifetimes)]
        const _: () = {
            #[allow(unused_imports)]
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
            impl #impl_generics _stitch::ToolArgs for #ident #ty_generics #where_clause {}

            _stitch::__stitch_json_schema! {
                [#impl_generics] [#ident #ty_generics] [#where_clause] #name
            }
        };
    }
}

/// The input's generics, plus `T: Coerce` for each type parameter a walked field mentions and
/// `Self: DeserializeOwned` when there are type parameters.
fn bounded_generics(cont: &Container) -> syn::Generics {
    let mut generics = cont.generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    if params.is_empty() {
        return generics;
    }
    let mut used = vec![false; params.len()];
    for field in all_fields(cont).filter(|f| f.walked()) {
        let ty = field.ty;
        mark_used(quote!(#ty), &params, &mut used);
    }
    let ident = cont.ident;
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let where_clause = generics.make_where_clause();
    for (param, used) in params.iter().zip(used) {
        if used {
            where_clause
                .predicates
                .push(syn::parse_quote!(#param: _stitch::Coerce));
        }
    }
    where_clause
        .predicates
        .push(syn::parse_quote!(#ident #ty_generics: _stitch::DeserializeOwned));
    generics
}

fn mark_used(tokens: TokenStream, params: &[syn::Ident], used: &mut [bool]) {
    for tt in tokens {
        match tt {
            proc_macro2::TokenTree::Ident(ident) => {
                if let Some(i) = params.iter().position(|p| *p == ident) {
                    used[i] = true;
                }
            }
            proc_macro2::TokenTree::Group(group) => mark_used(group.stream(), params, used),
            _ => {}
        }
    }
}

fn all_fields<'c, 'a>(cont: &'c Container<'a>) -> Box<dyn Iterator<Item = &'c Field<'a>> + 'c> {
    match &cont.data {
        Data::Struct(fields) => Box::new(fields.iter()),
        Data::Newtype(field) => Box::new(std::iter::once(&**field)),
        Data::Enum(variants) => Box::new(variants.iter().flat_map(|v| v.fields.iter())),
        Data::Unsupported => Box::new(std::iter::empty()),
    }
}

/// `const` assertions that item bounds sit on a type with an array form (non-generic types
/// only: a generic field's shape is not known until it is used).
fn bound_asserts(cont: &Container) -> TokenStream {
    if cont.generics.type_params().next().is_some() {
        return quote!();
    }
    let mut out = TokenStream::new();
    for field in all_fields(cont).filter(|f| f.walked()) {
        let span = match (&field.attrs.max_items, &field.attrs.min_items) {
            (Some(s), _) | (None, Some(s)) => s.span,
            (None, None) => continue,
        };
        // `Self` cannot be named outside the impl; the type is not generic, so its name works.
        let field_ty = field.ty;
        let ty = replace_self(quote!(#field_ty), cont.ident);
        let message = format!(
            "`max_items` and `min_items` apply only to a field with an array form (`OneOrMany<T>`, `Vec<T>` or another sequence), not `{}`",
            quote!(#field_ty).to_string().replace(' ', "")
        );
        out.extend(quote_spanned! {span=>
            const _: () = {
                if !_stitch::takes_item_bounds(<#ty as _stitch::Coerce>::SHAPE) {
                    _stitch::core::panic!(#message);
                }
            };
        });
    }
    out
}

/// `tokens` with every `Self` replaced by `ident`.
fn replace_self(tokens: TokenStream, ident: &syn::Ident) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| match tt {
            proc_macro2::TokenTree::Ident(i) if i == "Self" => {
                proc_macro2::TokenTree::Ident(syn::Ident::new(&ident.to_string(), i.span()))
            }
            proc_macro2::TokenTree::Group(g) => {
                let mut group =
                    proc_macro2::Group::new(g.delimiter(), replace_self(g.stream(), ident));
                group.set_span(g.span());
                proc_macro2::TokenTree::Group(group)
            }
            other => other,
        })
        .collect()
}

/// `Bounds` of a field, as an expression.
fn bounds(field: &Field) -> TokenStream {
    let opt = |v: &Option<crate::attr::Spanned<usize>>| match v {
        Some(s) => {
            let n = s.value;
            quote!(_stitch::core::option::Option::Some(#n))
        }
        None => quote!(_stitch::core::option::Option::None),
    };
    if field.attrs.max_items.is_none() && field.attrs.min_items.is_none() {
        return quote!(_stitch::Bounds::NONE);
    }
    let (min, max) = (opt(&field.attrs.min_items), opt(&field.attrs.max_items));
    quote!(_stitch::Bounds::new(#min, #max))
}

/// `<Ty as Coerce>`, spanned at the field's type so a missing impl points there.
fn coerce_of(field: &Field) -> TokenStream {
    let ty = field.ty;
    quote_spanned!(ty.span()=> <#ty as _stitch::Coerce>)
}

/// The walk of one field's value `item` at path `at` (an expression).
fn field_walk(field: &Field, item: TokenStream, at: TokenStream) -> TokenStream {
    if field.attrs.opaque.is_some() {
        return quote!(__cx.untyped(#item, #at));
    }
    let coerce = coerce_of(field);
    let bounds = bounds(field);
    if field.lenient {
        // Numbers and booleans written as text are read at this field and inside it, up to
        // the next struct, which follows its own attributes.
        return quote!({
            let __prev = __cx.set_lenient(true);
            #coerce::walk(#item, __cx, #at, #bounds);
            __cx.set_lenient(__prev);
        });
    }
    quote!(#coerce::walk(#item, __cx, #at, #bounds))
}

/// Statements walking `__map` (a `&mut Map`) as the fields `fields` at `__at`. `suffix` names
/// the helper functions that decide which keys the fields own, when some are flattened.
fn fields_walk(
    fields: &[Field],
    suffix: &str,
    helpers: &mut Vec<TokenStream>,
) -> (TokenStream, TokenStream) {
    let mut arms = Vec::new();
    let mut own_names = Vec::new();
    let mut flattened = Vec::new();
    for field in fields.iter().filter(|f| !f.skip) {
        if field.flatten {
            flattened.push(field);
            continue;
        }
        // A field sent twice in the text is refused by its wire name, as serde does, and its
        // value is not walked (serde reads neither).
        let wire = &field.names.wire;
        for name in field.names.all() {
            own_names.push(name.to_owned());
            let walk = field_walk(field, quote!(__item), quote!(&__at.field(#name)));
            arms.push(
                quote!(#name => if __cx.sent_once(&__at.field(#name), #wire) {
                    #walk;
                }),
            );
        }
    }
    let own = if own_names.is_empty() {
        quote!({
            let _ = __key;
            false
        })
    } else {
        quote!(_stitch::core::matches!(__key, #(#own_names)|*))
    };
    if flattened.is_empty() && arms.is_empty() {
        let body = quote! {
            for (__key, __item) in __map.iter() {
                __cx.untyped(__item, &__at.key(__key));
            }
        };
        return (body, own);
    }
    if flattened.is_empty() {
        let body = quote! {
            for (__key, __item) in __map.iter_mut() {
                match __key.as_str() {
                    #(#arms)*
                    _ => __cx.untyped(__item, &__at.key(__key)),
                }
            }
        };
        return (body, own);
    }
    // With flattened fields: the keys the struct's own fields and flattened structs read, for a
    // flattened map beside them; and every key claimed (a flattened map claims all).
    let own_fn = format_ident!("__stitch_own{}", suffix);
    let owns_fn = format_ident!("__stitch_owns{}", suffix);
    // An opaque flattened field is left to serde: it claims no key for the walk.
    let flat_types: Vec<TokenStream> = flattened
        .iter()
        .filter(|f| f.attrs.opaque.is_none())
        .map(|f| coerce_of(f))
        .collect();
    helpers.push(quote! {
        #[doc(hidden)]
        #[inline]
        fn #own_fn(__key: &str) -> bool {
            #own #(|| (!_stitch::core::matches!(
                #flat_types::SHAPE.kind,
                _stitch::Kind::Map
            ) && #flat_types::owns_key(__key)))*
        }
        #[doc(hidden)]
        #[inline]
        fn #owns_fn(__key: &str) -> bool {
            #own #(|| #flat_types::owns_key(__key))*
        }
    });
    let flat_walks = flattened.iter().map(|field| {
        if field.attrs.opaque.is_some() {
            return quote!();
        }
        let coerce = coerce_of(field);
        quote!(#coerce::walk_flat(__map, __cx, __at, Self::#own_fn);)
    });
    let body = quote! {
        for (__key, __item) in __map.iter_mut() {
            match __key.as_str() {
                #(#arms)*
                _ => {
                    if !Self::#owns_fn(__key) {
                        __cx.untyped(__item, &__at.key(__key));
                    }
                }
            }
        }
        #(#flat_walks)*
    };
    (body, quote!(Self::#owns_fn(__key)))
}

/// `true && <A as Coerce>::bounds_hold(a, …) && …` for the walked fields, each named by
/// `access` (`&self.a`, or a pattern binding).
fn bounds_checks(fields: &[(&Field, TokenStream)]) -> TokenStream {
    let checks = fields
        .iter()
        .filter(|(f, _)| f.walked())
        .map(|(field, access)| {
            let coerce = coerce_of(field);
            let bounds = bounds(field);
            quote!(&& #coerce::bounds_hold(#access, #bounds))
        });
    quote!(true #(#checks)*)
}

/// The `bounds_hold` of a struct with these fields.
fn struct_bounds_hold(fields: &[Field]) -> TokenStream {
    let accessed: Vec<(&Field, TokenStream)> = fields
        .iter()
        .map(|f| {
            let member = &f.member;
            (f, quote!(&self.#member))
        })
        .collect();
    let checks = bounds_checks(&accessed);
    quote! {
        #[inline]
        fn bounds_hold(&self, _: _stitch::Bounds) -> bool {
            #checks
        }
    }
}

/// The `bounds_hold` of an enum: each variant checks its own fields. A walked newtype member
/// of an untagged enum without bounds of its own takes the incoming ones, as its walk does.
fn enum_bounds_hold(variants: &[Variant], untagged: bool) -> TokenStream {
    if variants.iter().all(|v| v.fields.is_empty()) {
        return quote!();
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
        let checks = if untagged && v.style == Style::Newtype && v.fields[0].walked() && {
            let attrs = &v.fields[0].attrs;
            attrs.max_items.is_none() && attrs.min_items.is_none()
        } {
            let coerce = coerce_of(&v.fields[0]);
            quote!(#coerce::bounds_hold(__f0, __bounds))
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
        quote!(#[allow(unused_variables)] #pattern => #checks,)
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

fn transparent(field: &Field) -> TokenStream {
    if field.attrs.opaque.is_some() {
        return quote! {
            const SHAPE: _stitch::Shape = _stitch::Shape::ANY;
            #[inline]
            fn walk(
                __value: &mut _stitch::Value,
                __cx: &mut _stitch::Cx,
                __at: &_stitch::Path<'_>,
                _: _stitch::Bounds,
            ) {
                __cx.untyped(__value, __at);
            }
        };
    }
    let coerce = coerce_of(field);
    let member = &field.member;
    let bounds = if field.attrs.max_items.is_some() || field.attrs.min_items.is_some() {
        bounds(field)
    } else {
        quote!(__bounds)
    };
    quote! {
        const SHAPE: _stitch::Shape = #coerce::SHAPE;
        #[inline]
        fn walk(
            __value: &mut _stitch::Value,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
            __bounds: _stitch::Bounds,
        ) {
            #coerce::walk(__value, __cx, __at, #bounds)
        }
        #[inline]
        fn accepts_text_list(__text: &str, __bounds: _stitch::Bounds) -> bool {
            #coerce::accepts_text_list(__text, #bounds)
        }
        #[inline]
        fn walk_flat(
            __map: &mut _stitch::Map<_stitch::String, _stitch::Value>,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
            __owned: fn(&str) -> bool,
        ) {
            #coerce::walk_flat(__map, __cx, __at, __owned)
        }
        #[inline]
        fn owns_key(__key: &str) -> bool {
            #coerce::owns_key(__key)
        }
        #[inline]
        fn bounds_hold(&self, __bounds: _stitch::Bounds) -> bool {
            #coerce::bounds_hold(&self.#member, #bounds)
        }
    }
}

fn structure(fields: &[Field], helpers: &mut Vec<TokenStream>) -> TokenStream {
    let (walk, owns) = fields_walk(fields, "", helpers);
    let bounds_hold = struct_bounds_hold(fields);
    quote! {
        #bounds_hold
        const SHAPE: _stitch::Shape = _stitch::Shape::OBJECT;
        #[inline]
        fn walk(
            __value: &mut _stitch::Value,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
            _: _stitch::Bounds,
        ) {
            _stitch::walk_object::<Self>(__value, __cx, __at)
        }
        #[inline]
        fn walk_flat(
            __map: &mut _stitch::Map<_stitch::String, _stitch::Value>,
            __cx: &mut _stitch::Cx,
            __at: &_stitch::Path<'_>,
            _: fn(&str) -> bool,
        ) {
            #walk
        }
        #[inline]
        fn owns_key(__key: &str) -> bool {
            #owns
        }
    }
}

fn enumeration(
    cont: &Container,
    variants: &[Variant],
    helpers: &mut Vec<TokenStream>,
) -> TokenStream {
    let variants: Vec<&Variant> = variants.iter().filter(|v| !v.skip).collect();
    let tagging = cont.tagging();
    if tagging == Tagging::External && variants.iter().all(|v| v.style == Style::Unit) {
        // A unit-variant enum is read from a string.
        return quote! {
            const SHAPE: _stitch::Shape = _stitch::Shape::STRING_LIKE;
            #[inline]
            fn walk(
                __value: &mut _stitch::Value,
                __cx: &mut _stitch::Cx,
                __at: &_stitch::Path<'_>,
                _: _stitch::Bounds,
            ) {
                _stitch::walk_leaf(__value, __cx, __at)
            }
        };
    }
    // Per-variant content walkers for tuple and struct variants.
    for (i, variant) in variants.iter().enumerate() {
        if matches!(variant.style, Style::Tuple | Style::Struct) {
            helpers.push(content_walker(i, variant));
        }
    }
    let mut extra = Vec::new();
    for (i, variant) in variants.iter().enumerate() {
        if variant.style == Style::Struct {
            let (walk, _) = fields_walk(&variant.fields, &format!("_{i}"), &mut extra);
            let fields_fn = format_ident!("__stitch_fields_{}", i);
            extra.push(quote! {
                #[doc(hidden)]
                #[inline]
                fn #fields_fn(
                    __map: &mut _stitch::Map<_stitch::String, _stitch::Value>,
                    __cx: &mut _stitch::Cx,
                    __at: &_stitch::Path<'_>,
                ) {
                    #walk
                }
            });
        }
    }
    helpers.extend(extra);
    match tagging {
        Tagging::External => external(&variants),
        Tagging::Internal { tag } => internal(&variants, &tag),
        Tagging::Adjacent { tag, content } => adjacent(&variants, &tag, &content),
        Tagging::Untagged => untagged(&variants),
    }
}

fn helpers_for(i: usize) -> syn::Ident {
    format_ident!("__stitch_content_{}", i)
}

/// `fn __stitch_content_i(value, cx, at)`: walks a tuple or struct variant's content.
fn content_walker(i: usize, variant: &Variant) -> TokenStream {
    let name = helpers_for(i);
    let body = match variant.style {
        Style::Struct => {
            let fields_fn = format_ident!("__stitch_fields_{}", i);
            quote! {
                _stitch::Value::Object(__map) => {
                    if __cx.enter(__at) {
                        Self::#fields_fn(__map, __cx, __at);
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
                _stitch::Value::String(_) => __cx.repair_with(__value, __at, Self::#name),
                __other => _stitch::walk_leaf(__other, __cx, __at),
            }
        }
    }
}

/// The walk of variant `i`'s content `item` found at path `at` (external and adjacent).
fn content_walk(i: usize, variant: &Variant, item: TokenStream, at: TokenStream) -> TokenStream {
    match variant.style {
        Style::Unit => quote!(_stitch::walk_leaf(#item, __cx, #at)),
        Style::Newtype => field_walk(&variant.fields[0], item, at),
        Style::Tuple | Style::Struct => {
            let name = helpers_for(i);
            quote!(Self::#name(#item, __cx, #at))
        }
    }
}

fn walk_signature(body: TokenStream) -> TokenStream {
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

/// `match` arms from a variant's names to its index (for tag values).
fn tag_arms(variants: &[&Variant]) -> TokenStream {
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let names = v.names.all();
        quote!(#(#names)|* => #i,)
    });
    quote!(#(#arms)*)
}

fn external(variants: &[&Variant]) -> TokenStream {
    let has_unit = variants.iter().any(|v| v.style == Style::Unit);
    let arms = variants.iter().enumerate().flat_map(|(i, v)| {
        v.names
            .all()
            .map(move |name| {
                let walk = content_walk(i, v, quote!(__item), quote!(&__at.field(#name)));
                quote!(#name => #walk,)
            })
            .collect::<Vec<_>>()
    });
    let string_arm = if has_unit {
        quote!()
    } else {
        quote!(_stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),)
    };
    let walk = walk_signature(quote! {
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
            __other => _stitch::walk_leaf(__other, __cx, __at),
        }
    });
    quote! {
        const SHAPE: _stitch::Shape = _stitch::Shape::new(
            _stitch::Kind::Union, #has_unit, false, true,
        );
        #walk
    }
}

fn internal(variants: &[&Variant], tag: &str) -> TokenStream {
    let tags = tag_arms(variants);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let walk = match v.style {
            Style::Struct => {
                let fields_fn = format_ident!("__stitch_fields_{}", i);
                quote!(Self::#fields_fn(__map, __cx, __at))
            }
            Style::Newtype if v.fields[0].attrs.opaque.is_none() => {
                let coerce = coerce_of(&v.fields[0]);
                quote!(#coerce::walk_flat(__map, __cx, __at, _stitch::owns_nothing))
            }
            _ => quote!(_stitch::untyped_entries(__map, __cx, __at)),
        };
        quote!(#i => #walk,)
    });
    let walk = walk_signature(quote! {
        match __value {
            _stitch::Value::Object(__map) => {
                if __cx.enter(__at) {
                    let __which: usize = match __map.get(#tag) {
                        _stitch::core::option::Option::Some(
                            _stitch::Value::String(__tag),
                        ) => match __tag.as_str() {
                            #tags
                            _ => !0,
                        },
                        _ => !0,
                    };
                    match __which {
                        #(#arms)*
                        _ => _stitch::untyped_entries(__map, __cx, __at),
                    }
                    __cx.leave();
                }
            }
            _stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),
            __other => _stitch::walk_leaf(__other, __cx, __at),
        }
    });
    quote! {
        const SHAPE: _stitch::Shape = _stitch::Shape::new(
            _stitch::Kind::Union, false, false, true,
        );
        #walk
    }
}

fn adjacent(variants: &[&Variant], tag: &str, content: &str) -> TokenStream {
    let tags = tag_arms(variants);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let walk = content_walk(i, v, quote!(__item), quote!(&__at.field(#content)));
        quote!(#i => #walk,)
    });
    let walk = walk_signature(quote! {
        match __value {
            _stitch::Value::Object(__map) => {
                if __cx.enter(__at) {
                    let __which: usize = match __map.get(#tag) {
                        _stitch::core::option::Option::Some(
                            _stitch::Value::String(__tag),
                        ) => match __tag.as_str() {
                            #tags
                            _ => !0,
                        },
                        _ => !0,
                    };
                    for (__key, __item) in __map.iter_mut() {
                        if __key.as_str() == #content {
                            match __which {
                                #(#arms)*
                                _ => __cx.untyped(__item, &__at.field(#content)),
                            }
                        } else {
                            __cx.untyped(__item, &__at.key(__key));
                        }
                    }
                    __cx.leave();
                }
            }
            _stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),
            __other => _stitch::walk_leaf(__other, __cx, __at),
        }
    });
    quote! {
        const SHAPE: _stitch::Shape = _stitch::Shape::new(
            _stitch::Kind::Union, false, false, true,
        );
        #walk
    }
}

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

fn untagged(variants: &[&Variant]) -> TokenStream {
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
        quote!(false)
    } else {
        quote!(#(#lists)||*)
    };
    // Arrays and objects go to the first variant that takes them, as serde tries them in order.
    let chain = |arrays: bool| -> TokenStream {
        let mut out = quote!(_stitch::walk_leaf(__value, __cx, __at));
        for (i, v) in variants.iter().enumerate().rev() {
            out = match v.style {
                Style::Newtype if v.fields[0].walked() => {
                    let coerce = coerce_of(&v.fields[0]);
                    let flag = if arrays {
                        quote!(arrays)
                    } else {
                        quote!(objects)
                    };
                    let bounds = if v.fields[0].attrs.max_items.is_some()
                        || v.fields[0].attrs.min_items.is_some()
                    {
                        bounds(&v.fields[0])
                    } else {
                        quote!(__bounds)
                    };
                    quote! {
                        if #coerce::SHAPE.#flag {
                            #coerce::walk(__value, __cx, __at, #bounds)
                        } else {
                            #out
                        }
                    }
                }
                Style::Tuple if arrays => {
                    let name = helpers_for(i);
                    quote!(Self::#name(__value, __cx, __at))
                }
                Style::Struct if !arrays => {
                    let name = helpers_for(i);
                    quote!(Self::#name(__value, __cx, __at))
                }
                _ => out,
            };
        }
        out
    };
    let (arrays, objects) = (chain(true), chain(false));
    let string_arm = if lists.is_empty() {
        quote!(_stitch::Value::String(_) if <Self as _stitch::Coerce>::SHAPE.strings => {})
    } else {
        quote! {
            _stitch::Value::String(__text) if <Self as _stitch::Coerce>::SHAPE.strings => {
                if #refused {
                    __cx.text_list(__at);
                }
            }
        }
    };
    let accepts = if lists.is_empty() {
        quote!()
    } else {
        quote! {
            #[inline]
            fn accepts_text_list(__text: &str, __bounds: _stitch::Bounds) -> bool {
                #refused
            }
        }
    };
    let walk = walk_signature(quote! {
        match __value {
            #string_arm
            _stitch::Value::String(_) => __cx.repair::<Self>(__value, __at, __bounds),
            _stitch::Value::Array(_) => { #arrays }
            _stitch::Value::Object(_) => { #objects }
            __other => _stitch::walk_leaf(__other, __cx, __at),
        }
    });
    quote! {
        const SHAPE: _stitch::Shape = #shape;
        #walk
        #accepts
    }
}
