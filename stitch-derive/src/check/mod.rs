//! Checks across attributes that parsing alone cannot make.

mod constraint;

use proc_macro2::Span;

use crate::ctxt::Ctxt;
use crate::model::ast::{Container, Data, Field, Style};
use crate::model::attr::FieldAttrs;
use crate::model::serde_attr::FromType;

/// Records every problem of the model in `cx`.
pub fn check(cx: &Ctxt, cont: &Container) {
    if let Some(from) = &cont.serde.from {
        return check_from(cx, cont, from);
    }
    match &cont.data {
        Data::Struct(fields) => {
            fields.iter().for_each(|f| check_field(cx, f));
            if cont.serde.transparent && crate::model::ast::transparent_field(fields).is_none() {
                cx.error_spanned_by(
                    cont.ident,
                    "`#[serde(transparent)]` needs exactly one field that is not skipped, defaulted or `PhantomData`",
                );
            }
        }
        Data::Newtype(field) => check_field(cx, field),
        Data::Enum(variants) => {
            for variant in variants {
                variant.fields.iter().for_each(|f| check_field(cx, f));
                match (variant.with, variant.style) {
                    (Some(_), Style::Newtype) | (None, _) => {}
                    (Some(with), _) => cx.syn_error(syn::Error::new(
                        with.span,
                        format!(
                            "stitch leaves a variant read by `{}` to your function only when it is a newtype variant; hold the content in one field (`{}(Content)`)",
                            with.key, variant.ident
                        ),
                    )),
                }
            }
        }
        Data::Unsupported => {}
    }
}

/// A `#[serde(from = "Raw")]` / `try_from` container: stitch walks, describes and reads flags
/// of `Raw`, so every `#[stitch]` key that would describe the container's own body (or the
/// container itself) could never apply, and is refused at the key.
fn check_from(cx: &Ctxt, cont: &Container, from: &FromType) {
    let raw = match &from.ty {
        Some(ty) => quote::quote!(#ty).to_string().replace(' ', ""),
        None => "the source type".to_owned(),
    };
    let refuse = |span: Span, key: &str, what: &str| {
        cx.syn_error(syn::Error::new(
            span,
            format!(
                "`{}` is read from `{raw}` (`#[serde({})]`), so stitch walks and describes `{raw}` {what}; put `{key}` on `{raw}`",
                cont.ident, from.key
            ),
        ));
    };
    if let Some(d) = &cont.attrs.description {
        refuse(d.span, "description", "and shows its description");
    }
    if let Some(span) = cont.attrs.lenient_scalars {
        refuse(span, "lenient_scalars", "instead");
    }
    for field in cont.all_fields() {
        for (key, span) in written_keys(&field.attrs) {
            if key == "opaque" && field.with.is_some() {
                // Made opaque by serde's `deserialize_with`, not written by the user.
                continue;
            }
            refuse(span, key, "and never reads these fields");
        }
    }
}

/// Each `#[stitch]` key written on a field, with its span.
fn written_keys(attrs: &FieldAttrs) -> Vec<(&'static str, Span)> {
    let spanned = |s: &Option<crate::model::attr::Spanned<usize>>| s.as_ref().map(|s| s.span);
    let text = |s: &Option<crate::model::attr::Spanned<String>>| s.as_ref().map(|s| s.span);
    [
        ("max_items", spanned(&attrs.max_items)),
        ("min_items", spanned(&attrs.min_items)),
        ("opaque", attrs.opaque),
        ("description", text(&attrs.description)),
        ("schema", text(&attrs.schema)),
        ("lenient_scalars", attrs.lenient_scalars),
    ]
    .into_iter()
    .filter_map(|(key, span)| span.map(|span| (key, span)))
    .collect()
}

fn check_field(cx: &Ctxt, field: &Field) {
    let attrs = &field.attrs;
    if let Some(schema) = &attrs.schema {
        if attrs.opaque.is_none() {
            cx.syn_error(syn::Error::new(
                schema.span,
                "`schema` describes an `opaque` field; stitch describes this field's type itself, so add `opaque` or remove `schema`",
            ));
        }
        if let Err(why) = crate::json::check(&schema.value) {
            cx.syn_error(syn::Error::new(
                schema.span,
                format!("`schema` must be JSON text: {why}"),
            ));
        }
    }
    if field.skip {
        if let Some(description) = &attrs.description {
            cx.syn_error(syn::Error::new(
                description.span,
                "this field is skipped by serde, so it is not in the schema and its `description` would never be shown",
            ));
        }
    }
    if let (Some(min), Some(max)) = (&attrs.min_items, &attrs.max_items) {
        if max.value < min.value {
            cx.syn_error(syn::Error::new(
                max.span,
                format!(
                    "`max_items = {}` is less than `min_items = {}`; no list could satisfy both",
                    max.value, min.value
                ),
            ));
        }
    }
    attrs.limits.check(cx);
    if let Some((key, span)) = attrs.limits.first() {
        let why = if let Some(with) = field.with {
            Some(format!(
                "`#[serde({})]` hands this field to your function exactly as sent, so stitch leaves it alone and `{key}` cannot apply to it; remove `{key}`",
                with.key
            ))
        } else if attrs.opaque.is_some() {
            Some(format!(
                "an `opaque` field is left to serde, so `{key}` cannot apply to it; remove `opaque` or `{key}`"
            ))
        } else if !field.type_params.is_empty() {
            Some(format!(
                "`{key}` cannot apply to a field whose type names a type parameter: its kind is not known until the type is used"
            ))
        } else {
            None
        };
        if let Some(why) = why {
            cx.syn_error(syn::Error::new(span, why));
        }
    }
    if let Some(with) = field.with {
        // The field is opaque (see `Field::opaque_by_serde`): nothing stitch would check or
        // repair at it can apply.
        for (key, span) in [
            ("lenient_scalars", attrs.lenient_scalars),
            ("max_items", attrs.max_items.as_ref().map(|s| s.span)),
            ("min_items", attrs.min_items.as_ref().map(|s| s.span)),
        ] {
            if let Some(span) = span {
                cx.syn_error(syn::Error::new(
                    span,
                    format!(
                        "`#[serde({})]` hands this field to your function exactly as sent, so stitch leaves it alone and `{key}` cannot apply to it; remove `{key}`",
                        with.key
                    ),
                ));
            }
        }
        return;
    }
    if let (Some(opaque), Some(_)) = (attrs.opaque, attrs.lenient_scalars) {
        cx.syn_error(syn::Error::new(
            opaque,
            "`opaque` leaves the field to serde, so `lenient_scalars` cannot apply to it; remove one of them",
        ));
    }
    if let Some(opaque) = attrs.opaque {
        for (key, present) in [
            ("max_items", attrs.max_items.is_some()),
            ("min_items", attrs.min_items.is_some()),
        ] {
            if present {
                cx.syn_error(syn::Error::new(
                    opaque,
                    format!("`opaque` leaves the field to serde, so `{key}` cannot apply to it; remove one of them"),
                ));
            }
        }
    }
    if attrs.opaque.is_none() && !field.skip {
        // The walk of a tuple takes no bounds (its length is fixed), though serde reads it from
        // an array; the `const` check of the array form would let it through.
        if let (Some(bound), syn::Type::Tuple(tuple)) = (bound_key(attrs), ungroup(&field.ty)) {
            cx.error_spanned_by(
                tuple,
                format!("`{bound}` applies only to a field with an array form: `OneOrMany<T>`, `Vec<T>` or another sequence; a tuple has a fixed length"),
            );
        }
    }
    if field.skip {
        if let Some(span) = attrs
            .max_items
            .as_ref()
            .map(|s| s.span)
            .or(attrs.min_items.as_ref().map(|s| s.span))
        {
            cx.syn_error(syn::Error::new(
                span,
                "this field is skipped by serde, so item bounds on it would never be checked",
            ));
        }
    }
}

/// The first item bound on a field, by its key.
fn bound_key(attrs: &crate::model::attr::FieldAttrs) -> Option<&'static str> {
    if attrs.max_items.is_some() {
        Some("max_items")
    } else if attrs.min_items.is_some() {
        Some("min_items")
    } else {
        None
    }
}

/// The type inside any invisible groups and parentheses (`(T)`, a `$ty` of a macro).
fn ungroup(mut ty: &syn::Type) -> &syn::Type {
    loop {
        match ty {
            syn::Type::Group(group) => ty = &group.elem,
            syn::Type::Paren(paren) => ty = &paren.elem,
            _ => return ty,
        }
    }
}
