//! `pattern`: the derive's checked patterns and how one is matched (`docs/rules.md#constraints`).

/// A `pattern`: an ECMA-262 regular expression as JSON Schema reads it (not anchored: it
/// matches anywhere in the string), run by `regex-lite` in time linear in the string.
///
/// Only the derive makes one, from a pattern it checked at compile time.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    source: &'static str,
    escaped: &'static str,
    #[cfg(feature = "pattern")]
    compiled: fn() -> &'static PatternMatcher,
}

impl Pattern {
    /// A pattern the derive checked, JSON-escaped too, with the function that compiles it once.
    #[doc(hidden)]
    #[cfg(feature = "pattern")]
    pub const fn new(
        source: &'static str,
        escaped: &'static str,
        compiled: fn() -> &'static PatternMatcher,
    ) -> Pattern {
        Pattern {
            source,
            escaped,
            compiled,
        }
    }

    /// The pattern as written.
    pub const fn source(&self) -> &'static str {
        self.source
    }

    /// The pattern JSON-escaped, as the schema holds it.
    pub(crate) const fn escaped(&self) -> &'static str {
        self.escaped
    }

    /// The derive checked the pattern with the same engine, so it always compiles.
    #[cfg(feature = "pattern")]
    pub(crate) fn is_match(&self, text: &str) -> bool {
        (self.compiled)().is_match(text)
    }

    #[cfg(not(feature = "pattern"))]
    pub(crate) fn is_match(&self, _: &str) -> bool {
        // No `Pattern` can be made without the feature.
        true
    }
}

#[doc(hidden)]
#[cfg(feature = "pattern")]
pub fn compile_once(
    cell: &'static std::sync::OnceLock<PatternMatcher>,
    source: &str,
) -> &'static PatternMatcher {
    cell.get_or_init(|| PatternMatcher::new(source))
}

/// `regex-lite`'s compiled form, plus, for the common `^[a-z0-9-]+$` shape (one ASCII class
/// over the whole string), a table of the class that answers far faster than the engine.
#[doc(hidden)]
#[cfg(feature = "pattern")]
#[derive(Debug)]
pub struct PatternMatcher {
    class: Option<AsciiClass>,
    regex: Option<regex_lite::Regex>,
}

#[cfg(feature = "pattern")]
impl PatternMatcher {
    pub(crate) fn new(source: &str) -> PatternMatcher {
        PatternMatcher {
            class: AsciiClass::of(source),
            regex: regex_lite::Regex::new(source).ok(),
        }
    }

    #[cfg(feature = "json-schema")]
    pub(crate) fn compiles(&self) -> bool {
        self.regex.is_some()
    }

    /// Nothing matches a pattern the engine refused.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        match (&self.class, &self.regex) {
            (Some(class), Some(_)) => class.matches(text),
            (_, Some(regex)) => regex.is_match(text),
            (_, None) => false,
        }
    }
}

/// `^[class]+$` or `^[class]*$` over ASCII letters, digits, a few plain marks and one-kind ranges.
#[cfg(feature = "pattern")]
#[derive(Debug)]
struct AsciiClass {
    bits: [u64; 2],
    nonempty: bool,
}

#[cfg(feature = "pattern")]
impl AsciiClass {
    /// `None` for any other shape: the engine decides.
    fn of(source: &str) -> Option<AsciiClass> {
        let body = source.strip_prefix("^[")?;
        let (body, nonempty) = match (body.strip_suffix("]+$"), body.strip_suffix("]*$")) {
            (Some(body), _) => (body, true),
            (None, Some(body)) => (body, false),
            (None, None) => return None,
        };
        let bytes = body.as_bytes();
        if bytes.is_empty() || bytes[0] == b'^' {
            return None;
        }
        let plain = |c: u8| {
            c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b' ' | b'/' | b':' | b'@')
        };
        let mut bits = [0u64; 2];
        let mut set = |c: u8| bits[usize::from(c >> 6)] |= 1u64 << (c & 63);
        let mut i = 0;
        while i < bytes.len() {
            let (c, next) = match bytes[i] {
                b'\\' => match bytes.get(i + 1) {
                    Some(&e) if matches!(e, b'-' | b'.' | b'_' | b'/' | b'\\') => (e, i + 2),
                    _ => return None,
                },
                // A `-` first or last is itself.
                b'-' if i == 0 || i + 1 == bytes.len() => (b'-', i + 1),
                c if plain(c) => (c, i + 1),
                _ => return None,
            };
            let kind = |c: u8| {
                (
                    c.is_ascii_lowercase(),
                    c.is_ascii_uppercase(),
                    c.is_ascii_digit(),
                )
            };
            if bytes.get(next) == Some(&b'-') && next + 1 < bytes.len() && bytes[i] != b'\\' {
                let end = bytes[next + 1];
                if !end.is_ascii_alphanumeric()
                    || kind(end) != kind(c)
                    || end < c
                    || !c.is_ascii_alphanumeric()
                {
                    return None;
                }
                for b in c..=end {
                    set(b);
                }
                i = next + 2;
            } else {
                set(c);
                i = next;
            }
        }
        Some(AsciiClass { bits, nonempty })
    }

    fn matches(&self, text: &str) -> bool {
        (!self.nonempty || !text.is_empty())
            && text
                .bytes()
                .all(|b| b < 128 && self.bits[usize::from(b >> 6)] & (1u64 << (b & 63)) != 0)
    }
}

#[cfg(all(test, feature = "pattern"))]
mod tests {
    use super::*;

    /// Every string of up to three characters from an alphabet that reaches each edge.
    #[test]
    fn the_class_table_answers_as_the_engine() {
        let with_table = [
            "^[a-z0-9-]+$",
            "^[a-z]+$",
            "^[-a-z]*$",
            "^[a-z-]+$",
            "^[a-z.\\-_]+$",
            "^[0-9]+$",
            "^[A-Za-z0-9_]*$",
            "^[ab/: @]+$",
        ];
        let without = [
            "^[a-z]+",
            "[a-z]+$",
            "^[^a-z]+$",
            "^[a-z]{2}$",
            "^[z-a]+$",
            "^[a-Z]+$",
            "^[\\w]+$",
            "^[a-z]+$|x",
        ];
        let alphabet = [
            'a', 'z', 'Z', '0', '9', '-', '.', '_', '/', ' ', ':', '@', '\n', 'é', 'b', '\\',
        ];
        let mut strings = vec![String::new()];
        for _ in 0..3 {
            let more: Vec<String> = strings
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            strings.extend(more);
        }
        strings.sort();
        strings.dedup();
        for source in with_table {
            let matcher = PatternMatcher::new(source);
            assert!(matcher.class.is_some(), "{source} has no table");
            let engine = regex_lite::Regex::new(source).unwrap();
            for s in &strings {
                assert_eq!(matcher.is_match(s), engine.is_match(s), "{source} on {s:?}");
            }
        }
        for source in without {
            assert!(AsciiClass::of(source).is_none(), "{source} has a table");
        }
    }
}
