//! The pieces of a walk that concern one field or one set of named fields: shared by
//! structs ([`super::struct_`]) and by the variants of every enum tagging.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::ast::Field;

/// The field's `Bounds` (its `min_items` / `max_items`), as an expression:
/// `_stitch::NONE`, or `_stitch::Bounds::new(Some(1), None)`.
pub(super) fn bounds(field: &Field) -> TokenStream {
    let opt = |v: &Option<crate::model::attr::Spanned<usize>>| match v {
        Some(s) => {
            let n = s.value;
            quote!(_stitch::Some(#n))
        }
        None => quote!(_stitch::None),
    };
    if !has_bounds(field) {
        return quote!(_stitch::NONE);
    }
    let (min, max) = (opt(&field.attrs.min_items), opt(&field.attrs.max_items));
    quote!(_stitch::Bounds::new(#min, #max))
}

/// Whether the field has `min_items` or `max_items`.
pub(super) fn has_bounds(field: &Field) -> bool {
    field.attrs.max_items.is_some() || field.attrs.min_items.is_some()
}

/// The bounds a field that stands for its whole container (a newtype, a transparent struct,
/// an untagged newtype variant) walks with: its own if it has any, else the ones its
/// container was given (`__bounds`), so `#[stitch(max_items = 3)] ids: Ids` reaches the
/// `Vec` inside `struct Ids(Vec<u64>)`.
pub(super) fn inherited_bounds(field: &Field) -> TokenStream {
    if has_bounds(field) {
        bounds(field)
    } else {
        quote!(__bounds)
    }
}

/// `<Ty as _stitch::Coerce>`, spanned at the field's type so a missing impl points there.
pub(super) fn coerce_of(field: &Field) -> TokenStream {
    let ty = &field.ty;
    quote_spanned!(ty.span()=> <#ty as _stitch::Coerce>)
}

/// The walk of one field's value `item` at path `at` (an expression):
///
/// ```text
/// <Ty as _stitch::Coerce>::walk(item, __cx, at, bounds)
/// __cx.untyped(item, at)                                  // #[stitch(opaque)]
/// { let __prev = __cx.set_lenient(true); /* walk */; __cx.set_lenient(__prev); }
///                                                         // #[stitch(lenient_scalars)]
/// ```
pub(super) fn field_walk(field: &Field, item: TokenStream, at: TokenStream) -> TokenStream {
    if field.attrs.opaque.is_some() {
        return quote!(__cx.untyped(#item, #at));
    }
    let walk = plain_walk(field, item, at, bounds(field));
    limited(field, walk)
}

/// `walk` (a field's walk) with the field's constraints set in the walker around it, when it
/// has any (`docs/rules.md#constraints`):
///
/// ```text
/// { let __limits = __cx.set_limits(Some(&LIMITS)); /* walk */; __cx.set_limits(__limits); }
/// ```
pub(super) fn limited(field: &Field, walk: TokenStream) -> TokenStream {
    match checked_limits(field) {
        None => walk,
        Some(limits) => quote!({
            let __limits = __cx.set_limits(_stitch::Some(#limits));
            #walk;
            __cx.set_limits(__limits);
        }),
    }
}

/// The field's constraints the walk checks (all but `format`), as an expression (`&LIMITS`,
/// a `static` of them), or `None`.
pub(super) fn checked_limits(field: &Field) -> Option<TokenStream> {
    if field.attrs.limits.checked() {
        field.attrs.limits.limits()
    } else {
        None
    }
}

/// A field's walk, without its constraints.
fn plain_walk(
    field: &Field,
    item: TokenStream,
    at: TokenStream,
    bounds: TokenStream,
) -> TokenStream {
    let coerce = coerce_of(field);
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

/// Statements walking `__map` (a `&mut Map`) as the named fields `fields` at `__at`, and an
/// expression telling whether the fields read `__key` (the body of `owns_key`). `suffix`
/// names the helpers made when some fields are flattened (`""` for a struct, `"_2"` for
/// variant 2), which go into `helpers`.
///
/// Without flattened fields:
///
/// ```text
/// for (__key, __item) in __map.iter_mut() {
///     match __key.as_str() {
///         "paths" | "path" => <OneOrMany<String> as _stitch::Coerce>::walk(__item, __cx, &__at.field("paths"), …),
///         _ => __cx.untyped(__item, &__at.key(__key)),    // unknown: depth only
///     }
/// }
/// // owns_key: _stitch::core::matches!(__key, "paths" | "path")
/// ```
///
/// With flattened fields, an unknown key is left alone when a flattened field reads it, and
/// each flattened field then walks the shared map itself:
///
/// ```text
/// fn __stitch_own(__key: &str) -> bool {      // what a flattened *map* must leave alone:
///     matches!(__key, "paths") || (!(<Extra as Coerce>::SHAPE.kind is Map) && <Extra as Coerce>::owns_key(__key))
/// }
/// fn __stitch_owns(__key: &str) -> bool {     // every key something here reads
///     matches!(__key, "paths") || <Extra as Coerce>::owns_key(__key)
/// }
/// for (__key, __item) in __map.iter_mut() {
///     match __key.as_str() {
///         "paths" => /* field walk */,
///         _ => if !Self::__stitch_owns(__key) { __cx.untyped(__item, &__at.key(__key)) },
///     }
/// }
/// <Extra as _stitch::Coerce>::walk_flat(__map, __cx, __at, Self::__stitch_own);
/// // owns_key: Self::__stitch_owns(__key)
/// ```
pub(super) fn fields_walk(
    fields: &[Field],
    suffix: &str,
    helpers: &mut Vec<TokenStream>,
    rules: FieldRules,
) -> (TokenStream, Keys) {
    let mut arms = Vec::new();
    // The same, as entries of a table for the runtime's loop (`table_entry`).
    let mut entries = Vec::new();
    let mut own_names = Vec::new();
    let mut flattened = Vec::new();
    // Required fields: a bit each in `__seen`, set by the field's arm (more than 128 declared
    // fields: serde alone finds a missing one).
    let track = fields.len() <= 128;
    let mut required = Vec::new();
    let mut expected = Vec::new();
    let mut absent_names: Vec<(String, syn::Type, u32)> = Vec::new();
    // A table walk (no flattened field, no type parameter) needs only the table's entries:
    // the `match` arms are not written (the derive's own time, in every user's build).
    let table = rules.table && !fields.iter().any(|f| !f.skip && f.flatten);
    for (ordinal, field) in fields.iter().enumerate().filter(|(_, f)| !f.skip) {
        if field.flatten {
            flattened.push(field);
            continue;
        }
        let ordinal = ordinal as u32;
        let wire = field.names.wire.as_str();
        expected.push(wire.to_owned());
        // Required as the schema says: no serde default, not `Option` (an opaque field's
        // type may not say: serde alone decides about it).
        let tracked = track && !field.default && !rules.container_default && field.walked();
        let defaulted = (field.default || rules.container_default) && field.walked();
        if table {
            for name in field.names.all() {
                own_names.push(name.to_owned());
                entries.push(super::table::entry(
                    field, name, ordinal, tracked, defaulted,
                ));
            }
            continue;
        }
        if tracked {
            let ty = &field.ty;
            required.push(quote! {
                | (if <#ty as _stitch::Describe>::OPTIONAL { 0 } else { 1u128 << #ordinal })
            });
        }
        let seen = if tracked {
            quote!(__seen |= 1u128 << #ordinal;)
        } else {
            quote!()
        };
        // serde reads a field under its wire name or any alias; each gets an arm that reports
        // the path under the name actually sent.
        // A field sent twice in the text is refused by its wire name, as serde does, and its
        // value is not walked (serde reads neither).
        let wire = &field.names.wire;
        // R8: a defaulted field's `null` is the field left out, when its type does not read
        // `null` itself (`null_is_absent`, a constant).
        let ty = &field.ty;
        for name in field.names.all() {
            own_names.push(name.to_owned());
            let walk = field_walk(field, quote!(__item), quote!(&__at.field(#name, #ordinal)));
            let walk = if defaulted {
                absent_names.push((name.to_owned(), ty.clone(), ordinal));
                quote! {
                    if __item.is_null() && _stitch::null_is_absent::<#ty>() {
                        __absent = true;
                    } else {
                        #walk;
                    }
                }
            } else {
                quote!(#walk;)
            };
            arms.push(quote!(#name => {
                #seen
                if __cx.sent_once(__item, &__at.field(#name, #ordinal), #wire) {
                    #walk
                }
            }));
        }
    }
    // After the keys: each required field not seen is an issue where it would have been. (A
    // table's entries say which are tracked: none is pushed to `required` for one.)
    let missing = if required.is_empty() {
        quote!()
    } else {
        let required_names = fields
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                !f.skip
                    && !f.flatten
                    && track
                    && !f.default
                    && !rules.container_default
                    && f.walked()
            })
            .map(|(i, f)| {
                let wire = f.names.wire.as_str();
                let i = i as u32;
                quote!((#wire, #i))
            });
        quote! {
            let __required: u128 = 0 #(#required)*;
            if __seen & __required != __required {
                __cx.missing(__at, &[#(#required_names),*], __required & !__seen);
            }
        }
    };
    let seen_decl = if required.is_empty() {
        quote!()
    } else {
        quote!(let mut __seen: u128 = 0;)
    };
    // After the keys: the defaulted fields sent as `null` are dropped (R8), in the apply pass,
    // each a repair (`NullLeftOut`) at the field's path.
    let (absent_decl, absent) = if absent_names.is_empty() {
        (quote!(), quote!())
    } else {
        let arms = absent_names
            .iter()
            .map(|(name, ty, ordinal)| {
                quote!(#name => _stitch::null_is_absent::<#ty>().then_some(#ordinal),)
            });
        (
            quote!(let mut __absent = false;),
            quote! {
                if __absent {
                    _stitch::drop_absent(__map, __cx, __at, |__key: &str| match __key {
                        #(#arms)*
                        _ => _stitch::None,
                    });
                }
            },
        )
    };
    let seen_decl = quote!(#seen_decl #absent_decl);
    let missing = quote!(#missing #absent);
    // `deny_unknown_fields`: a key nothing claims is an issue, in serde's words.
    let unknown = if rules.deny_unknown && flattened.is_empty() {
        quote! {
            if __owned.denies(__key) {
                __cx.unknown_field(__at, __key, &[#(#expected),*]);
            }
        }
    } else {
        quote!()
    };
    let own = if own_names.is_empty() {
        quote!({
            let _ = __key;
            false
        })
    } else {
        quote!(_stitch::core::matches!(__key, #(#own_names)|*))
    };
    if flattened.is_empty() && own_names.is_empty() {
        // No field to read (all skipped, or none): every key is unknown.
        let body = quote! {
            for (__key, __item) in __map.iter() {
                #unknown
                __cx.untyped(__item, &__at.key(__key));
            }
        };
        return (
            body,
            Keys {
                declares: own,
                owns: None,
                table: None,
            },
        );
    }
    if flattened.is_empty() && rules.table {
        let deny = if rules.deny_unknown {
            quote!(_stitch::Some(&[#(#expected),*]))
        } else {
            quote!(_stitch::None)
        };
        // The table is an associated constant (`Coerce::FIELDS` of a struct, read by the
        // trait's default `walk_flat` and `declares_key`, which the struct then does not
        // write; one of the helpers' for a struct variant): evaluated where the type is
        // walked, where a `const` item in the function would be evaluated in every build of
        // the defining crate.
        let table = quote!(&_stitch::Fields {
            names: &[#(#entries),*],
            deny: #deny,
        });
        let (body, table) = if suffix.is_empty() {
            (
                quote!(),
                quote! {
                    #[doc(hidden)]
                    const FIELDS: _stitch::Option<&'static _stitch::Fields> = _stitch::Some(#table);
                },
            )
        } else {
            let name = format_ident!("__STITCH_FIELDS{}", suffix);
            (
                quote!(_stitch::walk_fields(__map, __cx, __at, __owned, Self::#name);),
                quote! {
                    #[doc(hidden)]
                    const #name: &'static _stitch::Fields = #table;
                },
            )
        };
        return (
            body,
            Keys {
                declares: own,
                owns: None,
                table: Some(table),
            },
        );
    }
    if flattened.is_empty() {
        let body = quote! {
            #seen_decl
            for (__key, __item) in __map.iter_mut() {
                match __key.as_str() {
                    #(#arms)*
                    _ => {
                        #unknown
                        __cx.untyped(__item, &__at.key(__key))
                    }
                }
            }
            #missing
        };
        return (
            body,
            Keys {
                declares: own,
                owns: None,
                table: None,
            },
        );
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
    // At the head of a function body, a block (`{ let _ = __key; false }`, no own field) would
    // end a statement there, and `|| …` after it would read as a closure: parenthesize it.
    let own = if own_names.is_empty() {
        quote!((#own))
    } else {
        own
    };
    helpers.push(quote! {
        #[doc(hidden)]
        #[inline]
        fn #own_fn(__key: &str) -> bool {
            #own #(|| #flat_types::declares_key(__key))*
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
        // A flattened map reads the keys no declared field claims, at this level or any
        // around it (`__owned`); a flattened struct reads only its own fields, as serde's
        // flatten does, and leaves every other key to this level (its `deny_unknown_fields`
        // never fires there).
        quote!(#coerce::walk_flat(__map, __cx, __at, &__owned.within(Self::#own_fn));)
    });
    // `deny_unknown_fields` beside flattened structs: a key no level reads is refused at its
    // path, naming the fields this level and the flattened structs read.
    let unknown = if rules.deny_unknown {
        quote! {
            if __owned.denies(__key) {
                __cx.unknown_among(
                    __at,
                    __key,
                    &[#(#expected),*],
                    &[#(#flat_types::FIELDS),*],
                );
            }
        }
    } else {
        quote!()
    };
    let body = quote! {
        #seen_decl
        for (__key, __item) in __map.iter_mut() {
            match __key.as_str() {
                #(#arms)*
                _ => {
                    if !Self::#owns_fn(__key) {
                        #unknown
                        __cx.untyped(__item, &__at.key(__key));
                    }
                }
            }
        }
        #missing
        #(#flat_walks)*
    };
    let keys = Keys {
        declares: quote!(Self::#own_fn(__key)),
        owns: Some(quote!(Self::#owns_fn(__key))),
        table: None,
    };
    (body, keys)
}

/// What a set of named fields tells about the keys of a shared object: the bodies (over
/// `__key`) of `declares_key` and, when it differs from it (some field is flattened), of
/// `owns_key`.
pub(super) struct Keys {
    pub declares: TokenStream,
    pub owns: Option<TokenStream>,
    /// The fields' table (`const FIELDS`, or a struct variant's `const __STITCH_FIELDS_i`),
    /// for the caller to place in an impl: where the walk is a table.
    pub table: Option<TokenStream>,
}

/// What a set of named fields checks beyond their values.
#[derive(Clone, Copy, Default)]
pub(super) struct FieldRules {
    /// The walk is a table the runtime loops over (`_stitch::walk_fields`), not a `match`:
    /// for a container without type parameters, whose table can be a `const` item. (A const,
    /// not a static: its walks are compiled only where the type is read.)
    pub table: bool,
    /// `#[serde(default)]` on the container: no field is required.
    pub container_default: bool,
    /// `#[serde(deny_unknown_fields)]`: a key no field claims (and the caller's `__owned`
    /// does not either) is an issue.
    pub deny_unknown: bool,
}
