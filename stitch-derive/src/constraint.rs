//! The value constraints of a field, `#[stitch(minimum = 1, max_length = 64, pattern = "…")]`:
//! parsed strictly (each error at its token, all in one compile), checked against each other
//! here and against the field's type by `const` assertions in the output, and written as one
//! `_stitch::Limits` for the walk and the schema (`docs/rules.md#constraints`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::meta::ParseNestedMeta;

use crate::attr::Spanned;
use crate::ctxt::Ctxt;
use crate::pattern::pattern_ok;

/// A number bound as written: exact when an integer.
#[derive(Clone, Debug)]
pub struct Bound {
    /// The integer, when the literal is one.
    pub int: Option<i128>,
    /// The value as a float.
    pub float: f64,
    /// The literal as written (sign included), for messages and the schema.
    pub text: String,
}

impl Bound {
    fn cmp(&self, other: &Bound) -> core::cmp::Ordering {
        match (self.int, other.int) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self
                .float
                .partial_cmp(&other.float)
                .unwrap_or(core::cmp::Ordering::Equal),
        }
    }

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

/// A field's constraints; every part optional.
#[derive(Default)]
pub struct Constraints {
    pub minimum: Option<Spanned<Bound>>,
    pub maximum: Option<Spanned<Bound>>,
    pub exclusive_minimum: Option<Spanned<Bound>>,
    pub exclusive_maximum: Option<Spanned<Bound>>,
    pub multiple_of: Option<Spanned<Bound>>,
    pub min_length: Option<Spanned<usize>>,
    pub max_length: Option<Spanned<usize>>,
    pub pattern: Option<Spanned<String>>,
    /// Advertised only.
    pub format: Option<Spanned<String>>,
}

impl Constraints {
    /// The number constraints, with their keys.
    pub fn numbers(&self) -> [(&'static str, &Option<Spanned<Bound>>); 5] {
        [
            ("minimum", &self.minimum),
            ("maximum", &self.maximum),
            ("exclusive_minimum", &self.exclusive_minimum),
            ("exclusive_maximum", &self.exclusive_maximum),
            ("multiple_of", &self.multiple_of),
        ]
    }

    /// Whether any constraint is set (`format` included).
    pub fn any(&self) -> bool {
        self.checked() || self.format.is_some()
    }

    /// Whether any constraint the walk checks is set (all but `format`).
    pub fn checked(&self) -> bool {
        self.first_number().is_some() || self.first_string().is_some()
    }

    /// The first constraint written, in the order of the keys listed here.
    pub fn first(&self) -> Option<(&'static str, Span)> {
        [self.first_number(), self.first_textual()]
            .into_iter()
            .flatten()
            .next()
    }

    /// The first number constraint written, in the order of the keys listed here.
    pub fn first_number(&self) -> Option<(&'static str, Span)> {
        self.numbers()
            .into_iter()
            .filter_map(|(key, b)| b.as_ref().map(|b| (key, b.span)))
            .next()
    }

    /// The first string constraint written, in the order of the keys listed here.
    fn first_string(&self) -> Option<(&'static str, Span)> {
        [
            ("min_length", self.min_length.as_ref().map(|s| s.span)),
            ("max_length", self.max_length.as_ref().map(|s| s.span)),
            ("pattern", self.pattern.as_ref().map(|s| s.span)),
        ]
        .into_iter()
        .filter_map(|(key, span)| span.map(|span| (key, span)))
        .next()
    }

    /// The first string constraint or `format`.
    pub fn first_textual(&self) -> Option<(&'static str, Span)> {
        self.first_string()
            .or_else(|| self.format.as_ref().map(|f| ("format", f.span)))
    }

    /// Reads `meta` when its key is a constraint: `Ok(false)` when it is another key.
    pub fn parse(&mut self, cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<bool> {
        let Some(key) = meta.path.get_ident().map(|i| i.to_string()) else {
            return Ok(false);
        };
        let slot = match key.as_str() {
            "minimum" => &mut self.minimum,
            "maximum" => &mut self.maximum,
            "exclusive_minimum" => &mut self.exclusive_minimum,
            "exclusive_maximum" => &mut self.exclusive_maximum,
            "multiple_of" => &mut self.multiple_of,
            "min_length" | "max_length" => {
                let parsed = crate::attr::parse_count(cx, meta, &key, "characters")?;
                let slot = if key == "min_length" {
                    &mut self.min_length
                } else {
                    &mut self.max_length
                };
                crate::attr::store(cx, meta, slot, parsed);
                return Ok(true);
            }
            "pattern" => {
                let parsed = crate::attr::parse_text(
                    cx,
                    meta,
                    "pattern",
                    "pattern = \"^[a-z][a-z0-9_]*$\"",
                )?;
                let parsed = parsed.filter(|p| pattern_ok(cx, p));
                crate::attr::store(cx, meta, &mut self.pattern, parsed);
                return Ok(true);
            }
            "format" => {
                let parsed = crate::attr::parse_text(cx, meta, "format", "format = \"email\"")?;
                let parsed = parsed.filter(|f| {
                    let known = FORMATS.contains(&f.value.as_str());
                    if !known {
                        cx.syn_error(syn::Error::new(
                            f.span,
                            format!(
                                "unknown `format`; expected one of {}",
                                FORMATS
                                    .iter()
                                    .map(|f| format!("`{f}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        ));
                    }
                    known
                });
                crate::attr::store(cx, meta, &mut self.format, parsed);
                return Ok(true);
            }
            _ => return Ok(false),
        };
        let parsed = parse_bound(cx, meta, &key)?;
        crate::attr::store(cx, meta, slot, parsed);
        Ok(true)
    }

    /// Errors for constraints that contradict each other, at the later one.
    pub fn check(&self, cx: &Ctxt) {
        use core::cmp::Ordering::{Equal, Greater, Less};
        let pairs = [
            (&self.minimum, &self.maximum, "minimum", "maximum", false),
            (
                &self.exclusive_minimum,
                &self.maximum,
                "exclusive_minimum",
                "maximum",
                true,
            ),
            (
                &self.minimum,
                &self.exclusive_maximum,
                "minimum",
                "exclusive_maximum",
                true,
            ),
            (
                &self.exclusive_minimum,
                &self.exclusive_maximum,
                "exclusive_minimum",
                "exclusive_maximum",
                true,
            ),
        ];
        for (low, high, low_key, high_key, exclusive) in pairs {
            let (Some(low), Some(high)) = (low, high) else {
                continue;
            };
            let order = low.value.cmp(&high.value);
            if order == Greater || (exclusive && order == Equal) {
                cx.syn_error(syn::Error::new(
                    high.span,
                    format!(
                        "`{high_key} = {}` and `{low_key} = {}` leave no number that satisfies both",
                        high.value.text, low.value.text
                    ),
                ));
            }
        }
        if let Some(step) = &self.multiple_of {
            if step.value.cmp(&zero()) != Greater {
                cx.syn_error(syn::Error::new(
                    step.span,
                    format!(
                        "`multiple_of = {}` must be greater than zero",
                        step.value.text
                    ),
                ));
            }
        }
        if let (Some(min), Some(max)) = (&self.min_length, &self.max_length) {
            if min.value.cmp(&max.value) == Greater {
                cx.syn_error(syn::Error::new(
                    max.span,
                    format!(
                        "`max_length = {}` is less than `min_length = {}`; no string could satisfy both",
                        max.value, min.value
                    ),
                ));
            }
        }
        let _ = Less;
    }

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

/// The string formats `format` takes: those JSON Schema defines that the providers' strict
/// modes list (OpenAI's and Anthropic's), advertised only.
const FORMATS: &[&str] = &[
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "time",
    "uri",
    "uuid",
];

fn zero() -> Bound {
    Bound {
        int: Some(0),
        float: 0.0,
        text: "0".to_owned(),
    }
}

/// Parses `key = N`, `key = -N` or `key = 0.5`: a number literal without a suffix, finite.
fn parse_bound(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
) -> syn::Result<Option<Spanned<Bound>>> {
    let example = format!("{key} = 1");
    if !crate::attr::expect_value(cx, meta, &example)? {
        return Ok(None);
    }
    let value = meta.value()?;
    let negative = value.peek(syn::Token![-]);
    let sign = if negative {
        Some(value.parse::<syn::Token![-]>()?)
    } else {
        None
    };
    let lit: syn::Lit = match value.parse() {
        Ok(lit) => lit,
        Err(_) => {
            crate::attr::bad_value(
                cx,
                meta,
                value,
                format!("expected a number literal for `{key}`, as in `{example}`"),
            )?;
            return Ok(None);
        }
    };
    let span = match &sign {
        Some(sign) => sign.span.join(lit.span()).unwrap_or_else(|| lit.span()),
        None => lit.span(),
    };
    let (digits, suffix) = match &lit {
        syn::Lit::Int(i) => (i.base10_digits().to_owned(), i.suffix().to_owned()),
        syn::Lit::Float(f) => (f.base10_digits().to_owned(), f.suffix().to_owned()),
        other => {
            cx.error_spanned_by(
                other,
                format!("expected a number literal for `{key}`, as in `{example}`"),
            );
            return Ok(None);
        }
    };
    if !suffix.is_empty() {
        cx.error_spanned_by(
            &lit,
            format!("write `{key}` without a type suffix (`{key} = {digits}`): the field's type gives it"),
        );
        return Ok(None);
    }
    let text = if negative {
        format!("-{digits}")
    } else {
        digits
    };
    let float: f64 = match text.parse() {
        Ok(f) if f64::is_finite(f) => f,
        _ => {
            cx.error_spanned_by(&lit, format!("`{key} = {text}` is not a finite number"));
            return Ok(None);
        }
    };
    let int = match &lit {
        syn::Lit::Int(_) => match text.parse::<i128>() {
            Ok(i) => Some(i),
            Err(_) => {
                cx.error_spanned_by(&lit, format!("`{key} = {text}` is too large"));
                return Ok(None);
            }
        },
        _ => None,
    };
    Ok(Some(Spanned {
        value: Bound { int, float, text },
        span,
    }))
}
