//! The pieces of a walk that concern one field or one set of named fields: shared by
//! structs ([`super::struct_`]) and by the variants of every enum tagging.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
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

/// The table of the named fields `fields` (`&_stitch::Fields { … }`, an expression) that the
/// runtime's loop walks (`_stitch::walk_fields`) and reads the keys from (`Fields::declares`,
/// `Fields::owns`): every struct's and struct variant's, generic and flattened ones too.
///
/// ```text
/// &_stitch::Fields {
///     names: &[_stitch::FieldWalk(<OneOrMany<String> as _stitch::Coerce>::FIELD_TYPE, "paths", 0, 1), …],
///     deny: _stitch::None,                                 // or Some(&["paths", …])
///     flat: &[<Extra as _stitch::Coerce>::FLAT_FIELD, …],  // the flattened fields
/// }
/// ```
///
/// The caller places it in an impl: `const FIELDS` of a struct, whose `walk_flat`,
/// `declares_key` and `owns_key` are then the trait's defaults, or a struct variant's
/// `const __STITCH_FIELDS_i`. An associated constant, not a `const` item in a function: it
/// is evaluated where the type is walked, not in every build of the defining crate, and it
/// may name the impl's type parameters.
pub(super) fn fields_table(fields: &[Field], rules: FieldRules) -> TokenStream {
    let mut entries = Vec::new();
    let mut expected = Vec::new();
    let mut flat = Vec::new();
    // Required fields: a bit each in the walk's `seen` (more than 128 declared fields: serde
    // alone finds a missing one).
    let track = fields.len() <= 128;
    for (ordinal, field) in fields.iter().enumerate().filter(|(_, f)| !f.skip) {
        if field.flatten {
            // An opaque flattened field is left to serde: it claims no key for the walk.
            if field.attrs.opaque.is_none() {
                let coerce = coerce_of(field);
                flat.push(quote!(#coerce::FLAT_FIELD));
            }
            continue;
        }
        expected.push(field.names.wire.as_str());
        // Required as the schema says: no serde default, not `Option` (an opaque field's
        // type may not say: serde alone decides about it).
        let tracked = track && !field.default && !rules.container_default && field.walked();
        let defaulted = (field.default || rules.container_default) && field.walked();
        // serde reads a field under its wire name or any alias: an entry each, so an issue
        // names the key actually sent.
        let ordinal = ordinal as u32;
        for name in field.names.all() {
            entries.push(super::table::entry(
                field, name, ordinal, tracked, defaulted,
            ));
        }
    }
    // `deny_unknown_fields`: a key nothing claims is an issue, in serde's words.
    let deny = if rules.deny_unknown {
        quote!(_stitch::Some(&[#(#expected),*]))
    } else {
        quote!(_stitch::None)
    };
    quote!(&_stitch::Fields {
        names: &[#(#entries),*],
        deny: #deny,
        flat: &[#(#flat),*],
    })
}

/// What a set of named fields checks beyond their values.
#[derive(Clone, Copy, Default)]
pub(super) struct FieldRules {
    /// `#[serde(default)]` on the container: no field is required.
    pub container_default: bool,
    /// `#[serde(deny_unknown_fields)]`: a key no field claims (and the caller's `__owned`
    /// does not either) is an issue.
    pub deny_unknown: bool,
}
