//! What the providers' formats can express of the type, as marker impls the `tool::*`
//! functions require: a type a format cannot take is then a type error at the user's own call
//! (`tool::openai_strict::<Label>(…)`), said once, with the provider's reason, and the field
//! that holds the part pointed at ("unsatisfied trait bound introduced here"):
//!
//! ```text
//! impl _stitch::ObjectArgs for Label {}                  // public: what generic code names
//! impl _stitch::ObjectRoot for Label {}                  // the arguments are a JSON object
//! impl _stitch::StrictRoot for Label {}                  // a struct: strict mode's root
//! impl _stitch::StrictPart for Label                     // strict mode can say every part
//! where
//!     for<'__stitch> String: _stitch::StrictPart,        // one per walked field, spanned at its type
//!     for<'__stitch> BTreeMap<String, String>: _stitch::StrictPart,
//! {}
//! impl _stitch::StrictArgs for Label where /* the three marks' bounds */ {}
//! ```
//!
//! The bounds are higher-ranked so that a bound with no type parameter in it is not a
//! trivially false bound (an error where the type is defined): the impl just does not apply,
//! and the error waits for a call that needs it. A field that names the container is left
//! out (its bound would be the impl itself, a cycle); the runtime's compile-time check of the
//! schema tree still covers what sits inside it.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::ast::{Container, Data, Field, Style, Tagging};

/// Where the marks come from.
pub(super) enum Marks<'a> {
    /// The type's own fields and variants.
    Own,
    /// A `#[serde(from = "Raw")]` container: `Raw`'s.
    From(&'a syn::Type),
    /// The stub beside errors: every mark, so that no further error follows from them.
    All,
}

/// The three marker impls of the type (see the module docs), in the shell `wrap` writes.
pub(super) fn marks(cont: &Container, generics: &syn::Generics, marks: Marks<'_>) -> TokenStream {
    let ident = cont.ident;
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let base: Vec<syn::WherePredicate> = generics
        .where_clause
        .as_ref()
        .map(|w| w.predicates.iter().cloned().collect())
        .unwrap_or_default();
    let impl_of = |mark: &str, extra: Option<Vec<TokenStream>>| -> TokenStream {
        let Some(extra) = extra else {
            return quote!();
        };
        let mark = syn::Ident::new(mark, proc_macro2::Span::call_site());
        let predicates = base.iter().map(|p| quote!(#p)).chain(extra);
        quote! {
            #[automatically_derived]
            impl #impl_generics _stitch::#mark for #ident #ty_generics
            where #(#predicates,)*
            {}
        }
    };
    let (object, strict_root, strict_part) = match marks {
        Marks::All => (Some(Vec::new()), Some(Vec::new()), Some(Vec::new())),
        Marks::From(raw) => (
            Some(vec![delegate(raw, "ObjectRoot")]),
            Some(vec![delegate(raw, "StrictRoot")]),
            Some(vec![delegate(raw, "StrictPart")]),
        ),
        Marks::Own => own(cont),
    };
    // The public bounds generic code names hold where the marks do, on the same bounds: an
    // impl of the type's own, so that a generic `T` missing one is told to name it.
    let strict = match (&object, &strict_root, &strict_part) {
        (Some(o), Some(r), Some(p)) => Some(o.iter().chain(r).chain(p).cloned().collect()),
        _ => None,
    };
    let mut out = impl_of("ObjectArgs", object.clone());
    out.extend(impl_of("ObjectRoot", object));
    out.extend(impl_of("StrictRoot", strict_root));
    out.extend(impl_of("StrictPart", strict_part));
    out.extend(impl_of("StrictArgs", strict));
    out
}

/// `for<'__stitch> Raw: _stitch::Mark`, spanned at `Raw`.
fn delegate(ty: &syn::Type, mark: &str) -> TokenStream {
    let mark = syn::Ident::new(mark, ty.span());
    quote_spanned!(ty.span()=> for<'__stitch> #ty: _stitch::#mark)
}

/// The bounds of each mark from the type's own shape; `None`: the mark is not implemented.
type Bounds = Option<Vec<TokenStream>>;

fn own(cont: &Container) -> (Bounds, Bounds, Bounds) {
    match &cont.data {
        Data::Struct(fields) if cont.serde.transparent => {
            match crate::model::ast::transparent_field(fields) {
                Some(field) => through(field),
                None => (None, None, None),
            }
        }
        Data::Struct(fields) => (
            Some(Vec::new()),
            Some(Vec::new()),
            Some(parts(fields.iter())),
        ),
        Data::Newtype(field) => through(field),
        Data::Enum(variants) => {
            let variants: Vec<_> = variants.iter().filter(|v| !v.skip).collect();
            let object = match cont.tagging() {
                Tagging::Internal { .. } | Tagging::Adjacent { .. } => Some(Vec::new()),
                // A unit variant is written as its name, a string.
                Tagging::External => variants
                    .iter()
                    .all(|v| v.style != Style::Unit)
                    .then(Vec::new),
                // Each member must be an object itself.
                Tagging::Untagged => variants
                    .iter()
                    .map(|v| match v.style {
                        Style::Struct => Some(None),
                        Style::Newtype => Some(Some(delegate(&v.fields[0].ty, "ObjectRoot"))),
                        Style::Unit | Style::Tuple => None,
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(|bounds| bounds.into_iter().flatten().collect()),
            };
            // A tuple variant is an array of different members (`prefixItems`), which
            // strict mode has not; strict mode takes no enum at the root (`anyOf` there), but
            // says one under a field.
            let tuple = variants.iter().any(|v| v.style == Style::Tuple);
            let fields = variants.iter().flat_map(|v| v.fields.iter());
            (object, None, (!tuple).then(|| parts(fields)))
        }
        Data::Unsupported => (None, None, None),
    }
}

/// A type read as its one field (transparent, newtype struct): each mark is the field's.
fn through(field: &Field) -> (Bounds, Bounds, Bounds) {
    if !field.walked() {
        return (None, None, None);
    }
    let ty = &field.ty;
    (
        Some(vec![delegate(ty, "ObjectRoot")]),
        Some(vec![delegate(ty, "StrictRoot")]),
        Some(vec![delegate(ty, "StrictPart")]),
    )
}

/// `StrictPart` of every walked field that does not name the container.
fn parts<'f>(fields: impl Iterator<Item = &'f Field>) -> Vec<TokenStream> {
    fields
        .filter(|f| f.walked() && !f.recursive)
        .map(|f| delegate(&f.ty, "StrictPart"))
        .collect()
}
