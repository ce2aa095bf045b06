//! The schema of an enum, by tagging (part of the `Describe` impl, `super::schema`): one
//! member per variant and per name it is read under.

use proc_macro2::TokenStream;
use quote::quote;

use super::schema::{content, object, Ctx};
use crate::json::escape as esc;
use crate::model::ast::{Style, Tagging, Variant};

/// The schema of an enum, by tagging:
///
/// ```text
/// &_stitch::Schema::Enum(&["get", "put"])                  // external, unit variants only
/// &_stitch::Schema::OneOf(&[
///     &_stitch::Schema::Enum(&["stop"]),                    // external: the unit variants,
///     &_stitch::Schema::External { key: "get", content },   // then one per other variant
///     &_stitch::Schema::Tagged { tag: "type", value: "get", body },            // internal
///     &_stitch::Schema::Adjacent { tag, value, content_key, content: Option }, // adjacent
/// ])
/// &_stitch::Schema::AnyOf(&[/* each variant's content */])  // untagged
/// ```
///
/// Skipped variants are left out. A variant read under aliases (`#[serde(alias)]`) is described
/// under each name: more strings of the `Enum` for an externally tagged unit variant, one more
/// member per alias for the others (another key, another tag value).
pub(super) fn enumeration(cx: &Ctx, variants: &[Variant]) -> TokenStream {
    let variants: Vec<&Variant> = variants.iter().filter(|v| !v.skip).collect();
    let tagging = cx.cont.tagging();
    let units: Vec<String> = variants
        .iter()
        .filter(|v| v.style == Style::Unit)
        .flat_map(|v| v.names.all())
        .map(esc)
        .collect();
    if tagging == Tagging::External
        && units.len() == variants.iter().flat_map(|v| v.names.all()).count()
    {
        // With `#[serde(other)]`, serde takes any name: the widest truth is a string.
        if variants.iter().any(|v| v.other) {
            return quote!(&_stitch::Schema::String);
        }
        return quote!(&_stitch::Schema::Enum(&[#(#units),*]));
    }
    let members: Vec<TokenStream> = match &tagging {
        Tagging::External => {
            let mut members = Vec::new();
            if !units.is_empty() {
                members.push(quote!(&_stitch::Schema::Enum(&[#(#units),*])));
            }
            // A variant read under an alias too is a member per name, as serde reads it.
            for v in variants.iter().filter(|v| v.style != Style::Unit) {
                let content = content(cx, v);
                for key in v.names.all().map(esc) {
                    members
                        .push(quote!(&_stitch::Schema::External { key: #key, content: #content }));
                }
            }
            members
        }
        Tagging::Internal { tag } => variants
            .iter()
            .flat_map(|v| v.names.all().map(move |name| (v, name)))
            .filter(|(v, name)| !v.other || *name == v.names.wire)
            .map(|(v, name)| {
                let tag = esc(tag);
                let value = tag_value(v, name);
                let body = if v.style == Style::Unit {
                    // A unit variant is the tag alone; its doc comment describes that object.
                    object(cx, &[], v.doc.clone())
                } else {
                    content(cx, v)
                };
                quote!(&_stitch::Schema::Tagged { tag: #tag, value: #value, body: #body })
            })
            .collect(),
        Tagging::Adjacent { tag, content: key } => variants
            .iter()
            .flat_map(|v| v.names.all().map(move |name| (v, name)))
            .filter(|(v, name)| !v.other || *name == v.names.wire)
            .map(|(v, name)| {
                let (tag, key) = (esc(tag), esc(key));
                let value = tag_value(v, name);
                let body = if v.style == Style::Unit {
                    quote!(_stitch::None)
                } else {
                    let c = content(cx, v);
                    quote!(_stitch::Some(#c))
                };
                quote! {
                    &_stitch::Schema::Adjacent {
                        tag: #tag,
                        value: #value,
                        content_key: #key,
                        content: #body,
                    }
                }
            })
            .collect(),
        Tagging::Untagged => {
            let members = variants.iter().map(|v| content(cx, v));
            return quote!(&_stitch::Schema::AnyOf(&[#(#members),*]));
        }
    };
    // A variant that takes any other tag overlaps the others: `anyOf`, not `oneOf`.
    if tagging != Tagging::External && variants.iter().any(|v| v.other) {
        return quote!(&_stitch::Schema::AnyOf(&[#(#members),*]));
    }
    quote!(&_stitch::Schema::OneOf(&[#(#members),*]))
}

/// A tagged variant's tag value: its name, or any string for `#[serde(other)]`.
fn tag_value(v: &Variant, name: &str) -> TokenStream {
    if v.other {
        quote!(_stitch::Schema::ANY_TAG)
    } else {
        let name = esc(name);
        quote!(#name)
    }
}
