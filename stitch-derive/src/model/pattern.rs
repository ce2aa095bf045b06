//! `#[stitch(pattern = "…")]`: whether stitch can run a pattern as JSON Schema reads it
//! (ECMA-262, with the runtime's linear-time engine), checked when the attribute is parsed.

use crate::ctxt::Ctxt;
use crate::model::attr::Spanned;

/// Whether `pattern` is one stitch can run as JSON Schema reads it; an error at the string
/// when not.
pub(crate) fn pattern_ok(cx: &Ctxt, pattern: &Spanned<String>) -> bool {
    match pattern_error(&pattern.value) {
        None => true,
        Some(why) => {
            cx.syn_error(syn::Error::new(pattern.span, why));
            false
        }
    }
}

/// Why `source` is refused: outside the ECMA-262 syntax JSON Schema uses, or not compiled by
/// the engine the runtime runs (lookaround and backreferences, which no linear-time engine
/// has).
#[cfg(feature = "pattern")]
fn pattern_error(source: &str) -> Option<String> {
    if let Some(why) = non_ecma(source) {
        return Some(why);
    }
    match regex_lite::Regex::new(source) {
        Ok(_) => None,
        Err(e) => {
            let reason = e.to_string();
            let reason = reason.lines().last().unwrap_or("").trim().to_owned();
            Some(format!(
                "this `pattern` does not compile: {reason} (stitch runs patterns in linear time: no lookaround, no backreferences)"
            ))
        }
    }
}

#[cfg(not(feature = "pattern"))]
fn pattern_error(_: &str) -> Option<String> {
    Some(
        "`pattern` needs the `pattern` feature of stitch-runtime: `stitch-runtime = { features = [\"pattern\"] }`"
            .to_owned(),
    )
}

/// Syntax the engine takes but ECMA-262 (and so a model's provider) reads otherwise or not at
/// all: inline flags and `(?P<…>`, `\A`, `\z`, POSIX classes.
#[cfg(feature = "pattern")]
fn non_ecma(source: &str) -> Option<String> {
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if let Some(&next) = bytes.get(i + 1) {
                    if matches!(next, b'A' | b'z' | b'Z') {
                        return Some(format!(
                            "`\\{}` is not ECMA-262 syntax, which JSON Schema patterns use; write `^` or `$`",
                            next as char
                        ));
                    }
                }
                i += 2;
                continue;
            }
            b'(' if bytes.get(i + 1) == Some(&b'?') => {
                let rest = &source[i + 2..];
                let lookaround = ["=", "!", "<=", "<!"].iter().any(|p| rest.starts_with(p));
                if lookaround {
                    return Some(
                        "lookaround is not supported: stitch runs patterns in linear time"
                            .to_owned(),
                    );
                }
                if !rest.starts_with(':') && !rest.starts_with('<') {
                    return Some(
                        "inline flags and `(?P<…>)` are not ECMA-262 syntax, which JSON Schema patterns use"
                            .to_owned(),
                    );
                }
            }
            b'[' if source[i..].starts_with("[[:") => {
                return Some(
                    "POSIX classes (`[[:alpha:]]`) are not ECMA-262 syntax, which JSON Schema patterns use"
                        .to_owned(),
                );
            }
            _ => {}
        }
        i += 1;
    }
    None
}
