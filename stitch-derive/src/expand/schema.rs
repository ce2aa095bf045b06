//! Generates the `Describe` impl: the type's schema as a `&'static` tree of the runtime's
//! `Schema` values, which the runtime renders to JSON during compilation (`INPUT_SCHEMA`, for
//! types without generics) or once at run time.
//!
//! Each field's part of the tree comes from its type's own `Describe` constants, so a field
//! of any type stitch walks is described the way that type says, `OneOrMany<T>` included.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::generics::{marker, with_marker};
use crate::model::ast::{Container, Data, Field, Style, Tagging, Variant};

use crate::json::escape as esc;

/// The description: `#[stitch(description = "…")]`, else the doc comment.
pub(super) fn described(
    attr: &Option<crate::model::attr::Spanned<String>>,
    doc: &Option<String>,
) -> Option<String> {
    attr.as_ref()
        .map(|d| d.value.clone())
        .or_else(|| doc.clone())
}

/// What the schema code needs to know about the container.
pub(super) struct Ctx<'a> {
    pub(super) cont: &'a Container<'a>,
    /// The container names itself in a field: its self-references become `{"$ref":"#Name"}`.
    pub(super) recursive: bool,
}

/// The items of the `Describe` impl, plus any item the const block needs beside it:
///
/// ```text
/// const SCHEMA: &'static _stitch::Schema = &_stitch::Schema::Object(&_stitch::Object { … });
/// const OPTIONAL: bool = …;         // a newtype or transparent struct only: its field's answer
/// ```
///
/// A type that names itself in a field (`children: Vec<Tree>`) is anchored, and its fields
/// name a marker whose schema is a reference back, so the tree stays finite:
///
/// ```text
/// const SCHEMA: &'static _stitch::Schema =
///     &_stitch::Schema::Anchored { anchor: "Tree", inner: /* fields use __StitchRecursion */ };
/// // beside the impls:
/// struct __StitchRecursion;
/// impl _stitch::Describe for __StitchRecursion {
///     const SCHEMA: &'static _stitch::Schema = &_stitch::Schema::Ref("Tree");
/// }
/// ```
pub(super) fn describe(cont: &Container) -> (TokenStream, TokenStream) {
    let recursive = cont.recursive();
    let cx = Ctx { cont, recursive };
    let (schema, optional) = match &cont.data {
        Data::Struct(fields) if cont.serde.transparent => {
            match crate::model::ast::transparent_field(fields) {
                Some(field) => (field_schema(&cx, field), Some(optional_of(&cx, field))),
                None => (quote!(&_stitch::Schema::Any), None),
            }
        }
        Data::Struct(fields) => {
            let description = described(&cont.attrs.description, &cont.doc);
            (object(&cx, fields, description), None)
        }
        // A newtype struct is not optional when its field is: serde reads a missing field
        // through `deserialize_newtype_struct`, which refuses it (only `transparent` forwards).
        Data::Newtype(field) => (field_schema(&cx, field), None),
        Data::Enum(variants) => {
            let schema = super::enum_schema::enumeration(&cx, variants);
            // The enum's own description, at its root (a struct's is in its object).
            match described(&cont.attrs.description, &cont.doc) {
                Some(description) => {
                    let description = esc(&description);
                    (
                        quote!(&_stitch::Schema::Described { description: #description, inner: #schema }),
                        None,
                    )
                }
                None => (schema, None),
            }
        }
        Data::Unsupported => (quote!(&_stitch::Schema::Any), None),
    };
    let nullable = nullable(&cx);
    let name = esc(&cont.ident.to_string());
    let (schema, beside) = if recursive {
        let marker = marker();
        (
            quote!(&_stitch::Schema::Anchored { anchor: #name, inner: #schema }),
            quote! {
                #[doc(hidden)]
                struct #marker;
                impl _stitch::Describe for #marker {
                    const SCHEMA: &'static _stitch::Schema =
                        &_stitch::Schema::Ref(#name);
                }
            },
        )
    } else {
        (schema, quote!())
    };
    // `OPTIONAL` is `false` unless stated (a newtype's or a transparent struct's field's).
    let optional = optional.map(|optional| quote!(const OPTIONAL: bool = #optional;));
    let items = quote! {
        const SCHEMA: &'static _stitch::Schema = #schema;
        #optional
        #nullable
    };
    (items, beside)
}

/// `const NULLABLE` where serde reads `null` as a value of the type other than through
/// `OPTIONAL` (the default): a newtype's or transparent struct's field's, and an untagged
/// enum's with a unit variant (`null`) or a member that reads it.
fn nullable(cx: &Ctx) -> TokenStream {
    let through = |field: &Field| {
        let nullable = constant(cx, field, "NULLABLE");
        // Its item schema is the field type's (`null` too for an `Option`), unless an
        // attribute of the field shapes the schema.
        let plain = field.attrs.opaque.is_none()
            && field.attrs.min_items.is_none()
            && field.attrs.max_items.is_none()
            && !field.attrs.limits.any()
            && !(cx.recursive && field.recursive);
        let item = plain.then(|| {
            let item = constant(cx, field, "ITEM_SCHEMA");
            quote!(const ITEM_SCHEMA: &'static _stitch::Schema = #item;)
        });
        quote!(const NULLABLE: bool = #nullable; #item)
    };
    match &cx.cont.data {
        Data::Struct(fields) if cx.cont.serde.transparent => {
            crate::model::ast::transparent_field(fields).map_or_else(TokenStream::new, through)
        }
        Data::Newtype(field) if field.attrs.opaque.is_none() => through(field),
        Data::Enum(variants) if matches!(cx.cont.tagging(), Tagging::Untagged) => {
            let variants = variants.iter().filter(|v| !v.skip);
            let mut members = Vec::new();
            for v in variants {
                match v.style {
                    Style::Unit => {
                        return quote!(
                            const NULLABLE: bool = true;
                        )
                    }
                    Style::Newtype if v.fields[0].attrs.opaque.is_none() => {
                        members.push(constant(cx, &v.fields[0], "NULLABLE"));
                    }
                    _ => {}
                }
            }
            if members.is_empty() {
                quote!()
            } else {
                quote!(const NULLABLE: bool = false #(|| #members)*;)
            }
        }
        _ => quote!(),
    }
}

/// The field's type as the schema code names it.
fn schema_type(cx: &Ctx, field: &Field) -> syn::Type {
    if cx.recursive {
        with_marker(&field.ty, cx.cont.ident)
    } else {
        field.ty.clone()
    }
}

/// One of the field type's schema constants (`SCHEMA`, `OPTIONAL`, `NULLABLE`, `DEFAULT`), spanned at the
/// type. A type that names the container goes through `Describe` (the marker implements only
/// that); any other through `Coerce`, so a type stitch does not know gets the walk's error
/// only, once.
fn constant(cx: &Ctx, field: &Field, which: &str) -> TokenStream {
    let ty = schema_type(cx, field);
    let span = syn::spanned::Spanned::span(&field.ty);
    if cx.recursive && field.recursive {
        let item = syn::Ident::new(which, span);
        quote_spanned!(span=> <#ty as _stitch::Describe>::#item)
    } else {
        let f = syn::Ident::new(
            match which {
                "SCHEMA" => "schema_of",
                "OPTIONAL" => "optional_of",
                "NULLABLE" => "nullable_of",
                "ITEM_SCHEMA" => "item_schema_of",
                _ => "default_of",
            },
            span,
        );
        quote_spanned!(span=> _stitch::#f::<#ty>())
    }
}

/// The field's schema expression, with its item bounds.
fn field_schema(cx: &Ctx, field: &Field) -> TokenStream {
    field_schema_as(cx, field, "SCHEMA")
}

/// The field's schema expression from the type's `which` schema constant (`SCHEMA`, or
/// `ITEM_SCHEMA`: `null` too for an `Option`).
fn field_schema_as(cx: &Ctx, field: &Field, which: &str) -> TokenStream {
    if field.attrs.opaque.is_some() {
        return match &field.attrs.schema {
            Some(text) => {
                let text = &text.value;
                quote!(&_stitch::Schema::Raw(#text))
            }
            None => quote!(&_stitch::Schema::Any),
        };
    }
    let schema = constant(cx, field, which);
    let schema = match field.attrs.limits.limits() {
        Some(limits) => quote!(&_stitch::Schema::Limited { inner: #schema, limits: #limits }),
        None => schema,
    };
    let (min, max) = (&field.attrs.min_items, &field.attrs.max_items);
    if min.is_none() && max.is_none() {
        return schema;
    }
    let min = min.as_ref().map_or(0, |m| m.value);
    let max = match max {
        Some(m) => {
            let m = m.value;
            quote!(#m)
        }
        None => quote!(usize::MAX),
    };
    quote!(&_stitch::Schema::Bounded { inner: #schema, min: #min, max: #max })
}

/// Whether serde accepts the field missing because of its type (`Option<T>`).
fn optional_of(cx: &Ctx, field: &Field) -> TokenStream {
    if field.attrs.opaque.is_some() {
        let option = match &field.ty {
            syn::Type::Path(path) => path
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "Option"),
            _ => false,
        };
        return quote!(#option);
    }
    constant(cx, field, "OPTIONAL")
}

fn text(value: Option<String>) -> TokenStream {
    match value {
        Some(v) => {
            let v = esc(&v);
            quote!(_stitch::Some(#v))
        }
        None => quote!(_stitch::None),
    }
}

/// The property of a plain field (not opaque, no item bounds or constraints, not naming the
/// container), which reads the type's constants from the one projection the walk's table
/// names too, spanned at the type: a type stitch cannot walk is one error there.
///
/// ```text
/// _stitch::Property(<Vec<String> as _stitch::Coerce>::FIELD, "paths", flags, "description")
/// ```
fn compact_property(
    cx: &Ctx,
    field: &Field,
    name: &str,
    flags: u8,
    description: &str,
) -> Option<TokenStream> {
    if field.attrs.opaque.is_some()
        || field.attrs.min_items.is_some()
        || field.attrs.max_items.is_some()
        || field.attrs.limits.any()
        || (cx.recursive && field.recursive)
    {
        return None;
    }
    let ty = &field.ty;
    let span = syn::spanned::Spanned::span(ty);
    let field = syn::Ident::new("FIELD", span);
    Some(quote_spanned!(span=>
        _stitch::Property(<#ty as _stitch::Coerce>::#field, #name, #flags, #description)
    ))
}

/// The object schema of named fields (a struct, a struct variant):
///
/// ```text
/// &_stitch::Schema::Object(&_stitch::Object {
///     properties: &[
///         _stitch::Property(<Vec<String> as _stitch::Coerce>::FIELD, "paths", flags, "description"),
///         _stitch::Property(&_stitch::FieldOf { schema, optional, default },
///             "ids", flags, "")                               // opaque, bounded, limited, recursive
///     ],
///     flatten: &[_stitch::Flattened { schema: /* the flattened type's */, optional }],
///     deny_unknown_fields: false,
///     description: _stitch::Some("…"),
/// })
/// ```
///
/// The flags are `Property::SERDE_DEFAULT` (1: serde defaults the field, so it is not
/// required), `TYPE_DEFAULT` (2: the schema lists the type's default), `DESCRIBED` (4) and
/// `ALIAS` (8: another name of the field before it, `#[serde(alias)]`).
/// Skipped fields are not in it. A field is required unless serde defaults it (`default`
/// on it or on the container) or its type may be missing (`Option<T>`: `OPTIONAL`).
pub(super) fn object(cx: &Ctx, fields: &[Field], description: Option<String>) -> TokenStream {
    let container_default = cx.cont.serde.default;
    let properties = fields
        .iter()
        .filter(|f| !f.skip && !f.flatten)
        .flat_map(|field| {
            // The wire name, then each alias (flag `ALIAS`, 8): serde reads the field under any.
            field
                .names
                .all()
                .enumerate()
                .map(move |(i, name)| (field, name, i > 0))
        })
        .map(|(field, name, alias)| {
            let name = esc(name);
            let description = described(&field.attrs.description, &field.doc);
            let serde_default = field.default || container_default;
            let type_default = field.default && !field.default_path && field.attrs.opaque.is_none();
            let flags = u8::from(serde_default)
                | u8::from(type_default) << 1
                | u8::from(description.is_some()) << 2
                | u8::from(alias) << 3;
            let description = esc(description.as_deref().unwrap_or(""));
            // With a default other than `Default::default()` (`default = "…"`), serde reads a
            // `null` as the type's value (an `Option`'s `None`), not as the field left out:
            // the schema says `null` there (the type's item schema).
            let null_read = field.default_path && field.attrs.opaque.is_none();
            if !null_read && !field.lenient {
                if let Some(compact) = compact_property(cx, field, &name, flags, &description) {
                    return compact;
                }
            }
            let schema =
                field_schema_as(cx, field, if null_read { "ITEM_SCHEMA" } else { "SCHEMA" });
            // Its numbers and booleans may be written as text too, as the walk reads them.
            let schema = if field.lenient {
                quote!(&_stitch::Schema::Lenient(#schema))
            } else {
                schema
            };
            let optional = if serde_default {
                quote!(false)
            } else {
                optional_of(cx, field)
            };
            let default = if type_default {
                constant(cx, field, "DEFAULT")
            } else {
                quote!(_stitch::None)
            };
            quote! {
                _stitch::Property(
                    &_stitch::FieldOf {
                        schema: #schema,
                        optional: #optional,
                        default: #default,
                    },
                    #name,
                    #flags,
                    #description,
                )
            }
        });
    let flattened = fields.iter().filter(|f| !f.skip && f.flatten).map(|field| {
        let schema = field_schema(cx, field);
        let optional = optional_of(cx, field);
        quote!(_stitch::Flattened { schema: #schema, optional: #optional })
    });
    let deny = cx.cont.serde.deny_unknown_fields;
    let description = text(description);
    quote! {
        &_stitch::Schema::Object(&_stitch::Object {
            properties: &[#(#properties),*],
            flatten: &[#(#flattened),*],
            deny_unknown_fields: #deny,
            description: #description,
        })
    }
}

/// The schema of a variant's content (what follows its tag).
pub(super) fn content(cx: &Ctx, variant: &Variant) -> TokenStream {
    match variant.style {
        Style::Unit => quote!(&_stitch::Schema::Null),
        Style::Newtype => field_schema(cx, &variant.fields[0]),
        Style::Tuple => {
            let items = variant.fields.iter().map(|f| field_schema(cx, f));
            quote!(&_stitch::Schema::Tuple(&[#(#items),*]))
        }
        Style::Struct => object(cx, &variant.fields, variant.doc.clone()),
    }
}
