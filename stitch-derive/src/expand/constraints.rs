//! A field's constraints in the output: one `_stitch::Limits` `static` per field, read by the
//! walk and the schema alike; and the `const` assertions that check the field's attributes
//! against its type where the type is known (after expansion, by the compiler): constraints of
//! the right kind and within the type's values, item bounds on a type with an array form,
//! `lenient_scalars` on scalars. Each assertion is spanned at the attribute, so a misuse is a
//! compile error at its token.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::model::ast::{Container, Field};
use crate::model::attr::Spanned;
use crate::model::constraint::{Bound, Constraints};

/// `const` assertions that item bounds sit on a type with an array form, one per bounded
/// field, spanned at the bound so the compile error points at it:
///
/// ```text
/// const _: () = {
///     if !_stitch::takes_item_bounds(<String as _stitch::Coerce>::SHAPE) {
///         _stitch::core::panic!("`max_items` and `min_items` apply only to … not `String`");
///     }
/// };
/// ```
///
/// Types without type parameters only: a generic field's shape is not known until the type is
/// used. (A tuple, whose walk takes no bounds, is refused earlier by `check`.)
pub(super) fn type_asserts(cont: &Container) -> TokenStream {
    if cont.generics.type_params().next().is_some() {
        return quote!();
    }
    let mut out = constraint_asserts(cont);
    for field in cont.all_fields().filter(|f| f.walked()) {
        let span = match (&field.attrs.max_items, &field.attrs.min_items) {
            (Some(s), _) | (None, Some(s)) => s.span,
            (None, None) => continue,
        };
        // Outside the impls, where `Self` could not be named: the model has replaced it.
        let ty = &field.ty;
        let message = format!(
            "`max_items` and `min_items` apply only to a field with an array form (`OneOrMany<T>`, `Vec<T>` or another sequence), not `{}`",
            quote!(#ty).to_string().replace(' ', "")
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

/// The `const` assertions of every constrained field of a type without type parameters, each
/// spanned at the constraint, so a misuse is a compile error there:
///
/// ```text
/// const _: () = {
///     if !_stitch::takes_number_limits(_stitch::schema_of::<String>()) {
///         _stitch::core::panic!("`minimum` applies only to a number field …, not `String`");
///     }
/// };
/// ```
fn constraint_asserts(cont: &Container) -> TokenStream {
    let mut out = TokenStream::new();
    for field in cont.all_fields().filter(|f| f.walked()) {
        out.extend(field_asserts(field, &field.attrs.limits));
    }
    out
}

fn field_asserts(field: &Field, limits: &Constraints) -> TokenStream {
    let ty = &field.ty;
    let shown = quote!(#ty).to_string().replace(' ', "");
    let mut out = TokenStream::new();
    if let Some((key, span)) = limits.first_number() {
        let message = format!(
            "`{key}` applies only to a number field (an integer or a float, or a list, map or `Option` of them), not `{shown}`"
        );
        out.extend(quote_spanned! {span=>
            const _: () = {
                if !_stitch::takes_number_limits(_stitch::schema_of::<#ty>()) {
                    _stitch::core::panic!(#message);
                }
            };
        });
        for (key, bound) in limits.numbers() {
            let Some(bound) = bound else { continue };
            if key == "multiple_of" {
                continue;
            }
            let message = format!(
                "`{key} = {}` lies outside the range of the field's type `{shown}`",
                bound.value.text
            );
            let n = bound.value.tokens();
            out.extend(quote_spanned! {bound.span=>
                const _: () = {
                    if !_stitch::within_range(_stitch::schema_of::<#ty>(), #n) {
                        _stitch::core::panic!(#message);
                    }
                };
            });
        }
    }
    if let Some((key, span)) = limits.first_textual() {
        let message = format!(
            "`{key}` applies only to a string field (`String`, `PathBuf`, or a list, map or `Option` of them), not `{shown}`"
        );
        out.extend(quote_spanned! {span=>
            const _: () = {
                if !_stitch::takes_string_limits(_stitch::schema_of::<#ty>()) {
                    _stitch::core::panic!(#message);
                }
            };
        });
    }
    out.extend(range_asserts(&ty_tokens(ty), &shown, limits));
    if let Some(span) = field.attrs.lenient_scalars {
        let message = format!(
            "`lenient_scalars` applies only to a number or boolean field (or a list, map or `Option` of them), not `{shown}`"
        );
        out.extend(quote_spanned! {span=>
            const _: () = {
                if !_stitch::takes_lenient_scalars(_stitch::schema_of::<#ty>()) {
                    _stitch::core::panic!(#message);
                }
            };
        });
    }
    out
}

fn ty_tokens(ty: &syn::Type) -> TokenStream {
    quote!(#ty)
}

/// The bounds an integer field's type cannot take: a fractional bound, and bounds that leave
/// no value of the type (`exclusive_maximum = 0` on a `u8`), alone or as a pair. Each is
/// checked where the type is known, in a `const`, spanned at the bound.
fn range_asserts(ty: &TokenStream, shown: &str, limits: &Constraints) -> TokenStream {
    let mut out = TokenStream::new();
    for (key, bound) in limits.numbers() {
        let Some(bound) = bound else { continue };
        if key == "multiple_of" || bound.value.int.is_some() {
            continue;
        }
        let message = format!(
            "`{key} = {}` is not a whole number, and the field's type `{shown}` holds integers",
            bound.value.text
        );
        let n = bound.value.tokens();
        out.extend(quote_spanned! {bound.span=>
            const _: () = {
                if !_stitch::whole_for_integers(_stitch::schema_of::<#ty>(), #n) {
                    _stitch::core::panic!(#message);
                }
            };
        });
    }
    fn side<'b>(
        key: &'static str,
        bound: &'b Option<Spanned<Bound>>,
        exclusive: bool,
    ) -> Option<(&'static str, &'b Spanned<Bound>, bool)> {
        bound.as_ref().map(|b| (key, b, exclusive))
    }
    let lows = [
        side("minimum", &limits.minimum, false),
        side("exclusive_minimum", &limits.exclusive_minimum, true),
    ];
    let highs = [
        side("maximum", &limits.maximum, false),
        side("exclusive_maximum", &limits.exclusive_maximum, true),
    ];
    let arg = |side: Option<(&str, &Spanned<Bound>, bool)>| match side {
        Some((_, b, exclusive)) => {
            let n = b.value.tokens();
            quote!(_stitch::Some((#n, #exclusive)))
        }
        None => quote!(_stitch::None),
    };
    let said = |(key, b, _): (&str, &Spanned<Bound>, bool)| format!("`{key} = {}`", b.value.text);
    for low in lows.iter().copied().chain([None]) {
        for high in highs.iter().copied().chain([None]) {
            let (span, words) = match (low, high) {
                (None, None) => continue,
                (Some(l), None) => (l.1.span, format!("{} leaves", said(l))),
                (None, Some(h)) => (h.1.span, format!("{} leaves", said(h))),
                (Some(l), Some(h)) => (h.1.span, format!("{} and {} leave", said(l), said(h))),
            };
            let message = format!("{words} no value of the field's type `{shown}`");
            let (low, high) = (arg(low), arg(high));
            out.extend(quote_spanned! {span=>
                const _: () = {
                    if !_stitch::admits_an_integer(_stitch::schema_of::<#ty>(), #low, #high) {
                        _stitch::core::panic!(#message);
                    }
                };
            });
        }
    }
    out
}

impl Bound {
    /// The bound as a `_stitch::Num`: exact when an integer, else the float and its text.
    pub fn tokens(&self) -> TokenStream {
        match self.int {
            Some(i) => {
                let lit = proc_macro2::Literal::i128_unsuffixed(i);
                quote!(_stitch::Num::Int(#lit))
            }
            None => {
                let lit = proc_macro2::Literal::f64_unsuffixed(self.float);
                let text = &self.text;
                quote!(_stitch::Num::Float(#lit, #text))
            }
        }
    }
}

impl Constraints {
    /// `_stitch::Limits { … }` as an expression of type `&'static _stitch::Limits` (a block
    /// holding the `static`), or `None` without constraints.
    pub fn limits(&self) -> Option<TokenStream> {
        if !self.any() {
            return None;
        }
        let num = |b: &Option<Spanned<Bound>>| match b {
            Some(b) => {
                let t = b.value.tokens();
                quote!(_stitch::Some(#t))
            }
            None => quote!(_stitch::None),
        };
        let count = |n: &Option<Spanned<usize>>| match n {
            Some(n) => {
                let n = n.value;
                quote!(_stitch::Some(#n))
            }
            None => quote!(_stitch::None),
        };
        let (min, max, xmin, xmax, step) = (
            num(&self.minimum),
            num(&self.maximum),
            num(&self.exclusive_minimum),
            num(&self.exclusive_maximum),
            num(&self.multiple_of),
        );
        let (min_len, max_len) = (count(&self.min_length), count(&self.max_length));
        let format = match &self.format {
            Some(f) => {
                let f = &f.value;
                quote!(_stitch::Some(#f))
            }
            None => quote!(_stitch::None),
        };
        let pattern = match &self.pattern {
            Some(p) => {
                let source = &p.value;
                let escaped = crate::json::escape(source);
                quote!(_stitch::Some(_stitch::Pattern::new(#source, #escaped, {
                    fn compiled() -> &'static _stitch::PatternMatcher {
                        static CELL: _stitch::OnceLock<_stitch::PatternMatcher> =
                            _stitch::OnceLock::new();
                        _stitch::compile_once(&CELL, #source)
                    }
                    compiled
                })))
            }
            None => quote!(_stitch::None),
        };
        Some(quote!({
            static LIMITS: _stitch::Limits = _stitch::Limits {
                minimum: #min,
                maximum: #max,
                exclusive_minimum: #xmin,
                exclusive_maximum: #xmax,
                multiple_of: #step,
                min_length: #min_len,
                max_length: #max_len,
                pattern: #pattern,
                format: #format,
            };
            &LIMITS
        }))
    }
}
