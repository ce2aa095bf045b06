//! Our own `#[stitch(...)]` attributes, parsed strictly: an unknown or repeated key, or a value
//! of the wrong type, is an error at its token. All of them are reported in one compile.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;

use crate::ctxt::Ctxt;

const CONTAINER_KEYS: &str = "`crate`, `description`, `lenient_scalars`";
const FIELD_KEYS: &str = "`description`, `exclusive_maximum`, `exclusive_minimum`, `format`, `lenient_scalars`, `max_items`, `max_length`, `maximum`, `min_items`, `min_length`, `minimum`, `multiple_of`, `opaque`, `pattern`, `schema`";

/// A value with the span of the token it came from.
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

/// `#[stitch(...)]` on the struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `crate = "path"`: where `stitch_runtime` is, for crates that re-export it.
    pub krate: Option<Spanned<syn::Path>>,
    /// `description = "…"`: the root schema's description, instead of the doc comment.
    pub description: Option<Spanned<String>>,
    /// `lenient_scalars`: every field reads numbers and booleans written as text.
    pub lenient_scalars: Option<Span>,
}

/// `#[stitch(...)]` on a field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `max_items = N`
    pub max_items: Option<Spanned<usize>>,
    /// `min_items = N`
    pub min_items: Option<Spanned<usize>>,
    /// `opaque`: leave the field to serde.
    pub opaque: Option<Span>,
    /// `description = "…"`: the property's description, instead of the doc comment.
    pub description: Option<Spanned<String>>,
    /// `schema = "…"`: the JSON Schema of an opaque field, as JSON text.
    pub schema: Option<Spanned<String>>,
    /// `lenient_scalars`: numbers and booleans written as text are read.
    pub lenient_scalars: Option<Span>,
    /// `minimum`, `max_length`, `pattern`, …: the value constraints.
    pub limits: crate::model::constraint::Constraints,
}

/// Parses a key that takes no value (`opaque`, `lenient_scalars`) into `slot`.
fn parse_flag(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    slot: &mut Option<Span>,
) -> syn::Result<()> {
    if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` takes no value; write `#[stitch({key})]`"),
        );
        skip_value(meta)?;
    } else if slot.is_some() {
        duplicate(cx, meta);
    } else {
        *slot = Some(meta.path.span());
    }
    Ok(())
}

fn stitch_attrs(attrs: &[syn::Attribute]) -> impl Iterator<Item = &syn::Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("stitch"))
}

/// The `#[stitch(...)]` attributes written with parentheses; an error for each other form
/// (`#[stitch]`, `#[stitch = "…"]`).
fn listed<'a>(
    cx: &'a Ctxt,
    attrs: &'a [syn::Attribute],
    expected: &'a str,
) -> impl Iterator<Item = &'a syn::Attribute> {
    stitch_attrs(attrs).filter(move |attr| match &attr.meta {
        syn::Meta::List(_) => true,
        other => {
            cx.error_spanned_by(
                other,
                format!("`stitch` takes its keys in parentheses, as in `#[stitch(...)]`; expected one of {expected}"),
            );
            false
        }
    })
}

/// The key as written: `max_items`, or `a::b` for a path.
fn key_name(meta: &ParseNestedMeta) -> String {
    let segments = meta.path.segments.iter().map(|s| s.ident.to_string());
    let joined = segments.collect::<Vec<_>>().join("::");
    if meta.path.leading_colon.is_some() {
        format!("::{joined}")
    } else {
        joined
    }
}

/// Skips whatever follows an unknown key (`= value` or `(…)`), so parsing can go on.
pub(crate) fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let value = meta.value()?;
        while !value.is_empty() && !value.peek(syn::Token![,]) {
            value.parse::<proc_macro2::TokenTree>()?;
        }
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

fn unknown(cx: &Ctxt, meta: &ParseNestedMeta, expected: &str) -> syn::Result<()> {
    cx.error_spanned_by(
        &meta.path,
        format!(
            "unknown `stitch` attribute `{}`; expected one of {expected}",
            key_name(meta)
        ),
    );
    skip_value(meta)
}

fn duplicate(cx: &Ctxt, meta: &ParseNestedMeta) {
    cx.error_spanned_by(
        &meta.path,
        format!("duplicate `stitch` attribute `{}`", key_name(meta)),
    );
}

/// Skips the tokens of a value, up to the next `,`.
fn skip_rest(value: syn::parse::ParseStream) -> syn::Result<()> {
    while !value.is_empty() && !value.peek(syn::Token![,]) {
        value.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// Records `msg` at the tokens of a value, up to the next `,` (at the key when the value is
/// empty), and consumes them.
pub(crate) fn bad_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    value: syn::parse::ParseStream,
    msg: String,
) -> syn::Result<()> {
    let mut tokens = proc_macro2::TokenStream::new();
    while !value.is_empty() && !value.peek(syn::Token![,]) {
        tokens.extend([value.parse::<proc_macro2::TokenTree>()?]);
    }
    if tokens.is_empty() {
        cx.error_spanned_by(&meta.path, msg);
    } else {
        cx.error_spanned_by(&tokens, msg);
    }
    Ok(())
}

/// Records an error at the key when it has no `= value` (`max_items`, `max_items(20)`), and
/// skips whatever follows it. Returns whether a `=` follows.
pub(crate) fn expect_value(cx: &Ctxt, meta: &ParseNestedMeta, example: &str) -> syn::Result<bool> {
    if meta.input.peek(syn::Token![=]) {
        return Ok(true);
    }
    cx.error_spanned_by(
        &meta.path,
        format!("`{}` takes a value, as in `{example}`", key_name(meta)),
    );
    skip_value(meta)?;
    Ok(false)
}

/// Parses a `key = 20` integer (a count of `unit`); records an error at the value if it is
/// not one.
pub(crate) fn parse_count(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    unit: &str,
) -> syn::Result<Option<Spanned<usize>>> {
    if !expect_value(cx, meta, &format!("{key} = 20"))? {
        return Ok(None);
    }
    let value = meta.value()?;
    if value.peek(syn::Token![-]) {
        // `-1`: point at the sign and the number together.
        bad_value(
            cx,
            meta,
            value,
            format!("`{key}` cannot be negative; write a count of {unit}, as in `{key} = 20`"),
        )?;
        return Ok(None);
    }
    let expr: syn::Lit = match value.parse() {
        Ok(lit) => lit,
        Err(_) => {
            bad_value(
                cx,
                meta,
                value,
                format!("expected an integer literal for `{key}`, as in `{key} = 20`"),
            )?;
            return Ok(None);
        }
    };
    match &expr {
        syn::Lit::Int(int) => match int.base10_parse::<usize>() {
            Ok(n) => Ok(Some(Spanned {
                value: n,
                span: int.span(),
            })),
            Err(_) => {
                cx.error_spanned_by(
                    int,
                    format!(
                        "`{key} = {}` is too large; it must fit in `usize`",
                        int.base10_digits()
                    ),
                );
                Ok(None)
            }
        },
        other => {
            cx.error_spanned_by(
                other,
                format!("expected an integer literal for `{key}`, as in `{key} = 20`"),
            );
            skip_rest(value)?;
            Ok(None)
        }
    }
}

/// Parses `crate = "path"`; records an error at the value if it is not a string holding a
/// path.
fn parse_crate(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<syn::Path>>> {
    const EXAMPLE: &str = "crate = \"my_crate::stitch\"";
    if !expect_value(cx, meta, EXAMPLE)? {
        return Ok(None);
    }
    let value = meta.value()?;
    if !value.peek(syn::LitStr) {
        bad_value(
            cx,
            meta,
            value,
            format!("expected a string literal for `crate`, as in `{EXAMPLE}`"),
        )?;
        return Ok(None);
    }
    let lit: syn::LitStr = value.parse()?;
    match lit.parse::<syn::Path>() {
        Ok(path) => Ok(Some(Spanned {
            value: path,
            span: lit.span(),
        })),
        Err(_) => {
            cx.error_spanned_by(&lit, format!("`crate` must be a path, as in `{EXAMPLE}`"));
            Ok(None)
        }
    }
}

/// Parses `key = "text"`; records an error at the value if it is not a string literal.
pub(crate) fn parse_text(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    example: &str,
) -> syn::Result<Option<Spanned<String>>> {
    if !expect_value(cx, meta, example)? {
        return Ok(None);
    }
    let value = meta.value()?;
    if !value.peek(syn::LitStr) {
        bad_value(
            cx,
            meta,
            value,
            format!("expected a string literal for `{key}`, as in `{example}`"),
        )?;
        return Ok(None);
    }
    let lit: syn::LitStr = value.parse()?;
    Ok(Some(Spanned {
        value: lit.value(),
        span: lit.span(),
    }))
}

/// Stores `parsed` in `slot`, or records a duplicate.
pub(crate) fn store<T>(cx: &Ctxt, meta: &ParseNestedMeta, slot: &mut Option<T>, parsed: Option<T>) {
    if slot.is_some() {
        duplicate(cx, meta);
    } else {
        *slot = parsed;
    }
}

impl ContainerAttrs {
    /// Reads every `#[stitch(...)]` on the container.
    pub fn from_attrs(cx: &Ctxt, attrs: &[syn::Attribute]) -> ContainerAttrs {
        let mut out = ContainerAttrs::default();
        for attr in listed(cx, attrs, CONTAINER_KEYS) {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("crate") {
                    let parsed = parse_crate(cx, &meta)?;
                    if out.krate.is_some() {
                        duplicate(cx, &meta);
                    } else {
                        out.krate = parsed;
                    }
                    Ok(())
                } else if meta.path.is_ident("description") {
                    let parsed = parse_text(
                        cx,
                        &meta,
                        "description",
                        "description = \"Search the files.\"",
                    )?;
                    store(cx, &meta, &mut out.description, parsed);
                    Ok(())
                } else if meta.path.is_ident("lenient_scalars") {
                    parse_flag(cx, &meta, "lenient_scalars", &mut out.lenient_scalars)
                } else {
                    unknown(cx, &meta, CONTAINER_KEYS)
                }
            });
            if let Err(e) = result {
                cx.syn_error(e);
            }
        }
        out
    }
}

impl FieldAttrs {
    /// Reads every `#[stitch(...)]` on a field.
    pub fn from_attrs(cx: &Ctxt, attrs: &[syn::Attribute]) -> FieldAttrs {
        let mut out = FieldAttrs::default();
        for attr in listed(cx, attrs, FIELD_KEYS) {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("max_items") {
                    let n = parse_count(cx, &meta, "max_items", "items")?;
                    if out.max_items.is_some() {
                        duplicate(cx, &meta);
                    } else {
                        out.max_items = n;
                    }
                } else if meta.path.is_ident("min_items") {
                    let n = parse_count(cx, &meta, "min_items", "items")?;
                    if out.min_items.is_some() {
                        duplicate(cx, &meta);
                    } else {
                        out.min_items = n;
                    }
                } else if meta.path.is_ident("opaque") {
                    parse_flag(cx, &meta, "opaque", &mut out.opaque)?;
                } else if meta.path.is_ident("lenient_scalars") {
                    parse_flag(cx, &meta, "lenient_scalars", &mut out.lenient_scalars)?;
                } else if meta.path.is_ident("description") {
                    let parsed = parse_text(
                        cx,
                        &meta,
                        "description",
                        "description = \"The files to show.\"",
                    )?;
                    store(cx, &meta, &mut out.description, parsed);
                } else if meta.path.is_ident("schema") {
                    let parsed = parse_text(
                        cx,
                        &meta,
                        "schema",
                        "schema = \"{\\\"type\\\":\\\"string\\\"}\"",
                    )?;
                    store(cx, &meta, &mut out.schema, parsed);
                } else if !out.limits.parse(cx, &meta)? {
                    return unknown(cx, &meta, FIELD_KEYS);
                }
                Ok(())
            });
            if let Err(e) = result {
                cx.syn_error(e);
            }
        }
        out
    }
}

/// Records an error for each `#[stitch]` on a variant, where none is accepted yet.
pub fn reject_on_variant(cx: &Ctxt, attrs: &[syn::Attribute]) {
    for attr in stitch_attrs(attrs) {
        cx.error_spanned_by(
            attr,
            "`#[stitch(...)]` has no variant attributes; put `max_items`, `min_items`, a constraint (`minimum`, `max_length`, `pattern`, …), `opaque`, `description` or `schema` on a field, and document a variant with a doc comment",
        );
    }
}
