//! The value constraints of a field, `#[stitch(minimum = 1, max_length = 64, pattern = "…")]`,
//! parsed strictly: each error at its token, all in one compile (`docs/rules.md#constraints`).
//! `check::constraint` checks them against each other, `expand::constraints` against the
//! field's type, and writes them as one `_stitch::Limits`.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;

use super::attr::Spanned;
use super::pattern::pattern_ok;
use crate::ctxt::Ctxt;

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
    /// Orders two bounds: exactly when both are integers.
    pub fn cmp(&self, other: &Bound) -> core::cmp::Ordering {
        match (self.int, other.int) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self
                .float
                .partial_cmp(&other.float)
                .unwrap_or(core::cmp::Ordering::Equal),
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
                let parsed = super::attr::parse_count(cx, meta, &key, "characters")?;
                let slot = if key == "min_length" {
                    &mut self.min_length
                } else {
                    &mut self.max_length
                };
                super::attr::store(cx, meta, slot, parsed);
                return Ok(true);
            }
            "pattern" => {
                let parsed = super::attr::parse_text(
                    cx,
                    meta,
                    "pattern",
                    "pattern = \"^[a-z][a-z0-9_]*$\"",
                )?;
                let parsed = parsed.filter(|p| pattern_ok(cx, p));
                super::attr::store(cx, meta, &mut self.pattern, parsed);
                return Ok(true);
            }
            "format" => {
                let parsed = super::attr::parse_text(cx, meta, "format", "format = \"email\"")?;
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
                super::attr::store(cx, meta, &mut self.format, parsed);
                return Ok(true);
            }
            _ => return Ok(false),
        };
        let parsed = parse_bound(cx, meta, &key)?;
        super::attr::store(cx, meta, slot, parsed);
        Ok(true)
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

/// The bound `0`.
pub fn zero() -> Bound {
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
    if !super::attr::expect_value(cx, meta, &example)? {
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
            super::attr::bad_value(
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
