//! The subset of `#[serde(...)]` that decides wire names and shapes, read leniently: keys we
//! do not need, and anything malformed, are serde's business and are skipped silently.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;

use crate::model::attr::skip_value;
use crate::model::case::RenameRule;

/// What the container's `#[serde(...)]` says.
#[derive(Default)]
pub struct SerdeContainer {
    /// `rename_all` (or its `deserialize` half).
    pub rename_all: Option<RenameRule>,
    /// `rename_all_fields`, for the fields of struct variants.
    pub rename_all_fields: Option<RenameRule>,
    /// `tag = "…"`
    pub tag: Option<String>,
    /// `content = "…"`
    pub content: Option<String>,
    /// `untagged`
    pub untagged: bool,
    /// `transparent`
    pub transparent: bool,
    /// `deny_unknown_fields`
    pub deny_unknown_fields: bool,
    /// `default` on the container.
    pub default: bool,
    /// `from = "Raw"` or `try_from = "Raw"`: serde reads `Raw`, then converts.
    pub from: Option<FromType>,
}

/// A container's `#[serde(from = "Raw")]` or `#[serde(try_from = "Raw")]`.
pub struct FromType {
    /// `from` or `try_from`.
    pub key: &'static str,
    /// `Raw`, its tokens spanned at the string; `None` when the string is not a type (serde
    /// reports that).
    pub ty: Option<syn::Type>,
    /// The string.
    pub span: Span,
}

/// A field's or variant's `#[serde(deserialize_with = "…")]` or `#[serde(with = "…")]`: serde
/// hands the value to the user's function.
#[derive(Clone, Copy)]
pub struct DeserializeWith {
    /// `deserialize_with` or `with`.
    pub key: &'static str,
    /// The string (the key, when the value is not one).
    pub span: Span,
}

/// What a field's `#[serde(...)]` says.
#[derive(Default)]
pub struct SerdeField {
    /// `rename` (or its `deserialize` half).
    pub rename: Option<String>,
    /// Every `alias`.
    pub aliases: Vec<String>,
    /// `default` or `default = "…"`
    pub default: bool,
    /// `default = "…"`: a function the derive cannot see into.
    pub default_path: bool,
    /// `skip` or `skip_deserializing`
    pub skip: bool,
    /// `flatten`
    pub flatten: bool,
    /// `deserialize_with` or `with`.
    pub with: Option<DeserializeWith>,
}

/// What a variant's `#[serde(...)]` says.
#[derive(Default)]
pub struct SerdeVariant {
    /// `rename` (or its `deserialize` half).
    pub rename: Option<String>,
    /// Every `alias`.
    pub aliases: Vec<String>,
    /// `rename_all`, for the variant's fields.
    pub rename_all: Option<RenameRule>,
    /// `skip` or `skip_deserializing`
    pub skip: bool,
    /// `other`
    pub other: bool,
    /// `untagged` on one variant.
    pub untagged: bool,
    /// `deserialize_with` or `with`.
    pub with: Option<DeserializeWith>,
}

fn serde_attrs(attrs: &[syn::Attribute]) -> impl Iterator<Item = &syn::Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("serde"))
}

/// `key = "x"` or `key(deserialize = "x", serialize = "y")`: the deserialize name.
fn de_name(meta: &ParseNestedMeta) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        let lit: syn::LitStr = meta.value()?.parse()?;
        return Ok(Some(lit.value()));
    }
    let mut found = None;
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| {
            if inner.path.is_ident("deserialize") {
                let lit: syn::LitStr = inner.value()?.parse()?;
                found = Some(lit.value());
                Ok(())
            } else {
                skip_value(&inner)
            }
        })?;
    }
    Ok(found)
}

fn de_rule(meta: &ParseNestedMeta) -> syn::Result<Option<RenameRule>> {
    Ok(de_name(meta)?.and_then(|name| RenameRule::from_str(&name)))
}

/// `deserialize_with = "…"` / `with = "…"`, if `meta` is one (`serialize_with` changes nothing
/// serde reads). The first one wins; serde refuses a second.
fn de_with(meta: &ParseNestedMeta, slot: &mut Option<DeserializeWith>) -> syn::Result<bool> {
    let key = if meta.path.is_ident("deserialize_with") {
        "deserialize_with"
    } else if meta.path.is_ident("with") {
        "with"
    } else {
        return Ok(false);
    };
    let mut span = syn::spanned::Spanned::span(&meta.path);
    if meta.input.peek(syn::Token![=]) {
        let lit: syn::LitStr = meta.value()?.parse()?;
        span = lit.span();
    }
    slot.get_or_insert(DeserializeWith { key, span });
    Ok(true)
}

fn str_value(meta: &ParseNestedMeta) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        let lit: syn::LitStr = meta.value()?.parse()?;
        Ok(Some(lit.value()))
    } else {
        Ok(None)
    }
}

/// Runs `f` on each entry of each `#[serde(...)]`; a malformed attribute is left to serde.
fn each(attrs: &[syn::Attribute], mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<bool>) {
    for attr in serde_attrs(attrs) {
        let _ = attr.parse_nested_meta(|meta| {
            if !f(&meta)? {
                skip_value(&meta)?;
            }
            Ok(())
        });
    }
}

impl SerdeContainer {
    /// Reads the container's serde attributes.
    pub fn from_attrs(attrs: &[syn::Attribute]) -> SerdeContainer {
        let mut out = SerdeContainer::default();
        each(attrs, |meta| {
            let p = &meta.path;
            if p.is_ident("rename_all") {
                out.rename_all = de_rule(meta)?;
            } else if p.is_ident("rename_all_fields") {
                out.rename_all_fields = de_rule(meta)?;
            } else if p.is_ident("tag") {
                out.tag = str_value(meta)?;
            } else if p.is_ident("content") {
                out.content = str_value(meta)?;
            } else if p.is_ident("untagged") {
                out.untagged = true;
            } else if p.is_ident("transparent") {
                out.transparent = true;
            } else if p.is_ident("deny_unknown_fields") {
                out.deny_unknown_fields = true;
            } else if p.is_ident("default") {
                out.default = true;
                return Ok(false);
            } else if (p.is_ident("from") || p.is_ident("try_from"))
                && meta.input.peek(syn::Token![=])
            {
                let key = if p.is_ident("from") {
                    "from"
                } else {
                    "try_from"
                };
                let lit: syn::LitStr = meta.value()?.parse()?;
                // `LitStr::parse` spans every token of the type at the string, so an error
                // about `Raw` points there.
                let from = FromType {
                    key,
                    ty: lit.parse().ok(),
                    span: lit.span(),
                };
                // serde refuses both at once; the first is kept.
                out.from.get_or_insert(from);
            } else {
                return Ok(false);
            }
            Ok(true)
        });
        out
    }
}

impl SerdeField {
    /// Reads a field's serde attributes.
    pub fn from_attrs(attrs: &[syn::Attribute]) -> SerdeField {
        let mut out = SerdeField::default();
        each(attrs, |meta| {
            let p = &meta.path;
            if p.is_ident("rename") {
                if let Some(name) = de_name(meta)? {
                    out.rename = Some(name);
                }
            } else if p.is_ident("alias") {
                if let Some(alias) = str_value(meta)? {
                    out.aliases.push(alias);
                }
            } else if p.is_ident("default") {
                out.default = true;
                out.default_path = meta.input.peek(syn::Token![=]);
                return Ok(false);
            } else if p.is_ident("skip") || p.is_ident("skip_deserializing") {
                out.skip = true;
            } else if p.is_ident("flatten") {
                out.flatten = true;
            } else if de_with(meta, &mut out.with)? {
                // Recorded by `de_with`.
            } else {
                return Ok(false);
            }
            Ok(true)
        });
        out
    }
}

impl SerdeVariant {
    /// Reads a variant's serde attributes.
    pub fn from_attrs(attrs: &[syn::Attribute]) -> SerdeVariant {
        let mut out = SerdeVariant::default();
        each(attrs, |meta| {
            let p = &meta.path;
            if p.is_ident("rename") {
                if let Some(name) = de_name(meta)? {
                    out.rename = Some(name);
                }
            } else if p.is_ident("alias") {
                if let Some(alias) = str_value(meta)? {
                    out.aliases.push(alias);
                }
            } else if p.is_ident("rename_all") {
                out.rename_all = de_rule(meta)?;
            } else if p.is_ident("skip") || p.is_ident("skip_deserializing") {
                out.skip = true;
            } else if p.is_ident("other") {
                out.other = true;
            } else if p.is_ident("untagged") {
                out.untagged = true;
            } else if de_with(meta, &mut out.with)? {
                // Recorded by `de_with`.
            } else {
                return Ok(false);
            }
            Ok(true)
        });
        out
    }
}
