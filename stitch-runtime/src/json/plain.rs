//! The fast path of `from_json`: when no string in the text could be read by a rule, serde_json
//! deserializes it directly, with no `Value` between. Rules reading a number or literal written as
//! text act where serde refuses a string, so a direct read fails on them; the rest act on a string
//! opening with `[` or `{`, which [`plain`] finds. Item bounds are checked after (`bounds_hold`).

use crate::bounds::Bounds;
use crate::json::depth::MAX_DEPTH;
use crate::json::text_list::is_text_list;

/// Whether no string in `text` could be read by a rule. A `\u` escape, an exponent, a long run of
/// digits or too many brackets also say `false`: a direct read takes what a `Value` cannot hold.
#[inline]
pub(crate) fn plain(text: &str) -> bool {
    if text.len() < SHORT {
        return words_are_plain(text, true);
    }
    words_are_plain(text, false) && openings_are_plain(text)
}

/// Below this length openings are looked for in the number pass, not by `memchr`, whose
/// set-up costs more than such a text's scan.
const SHORT: usize = 128;

/// Whether no string opens with `[`, `{` or an escape, none is `\u`, and at most `MAX_DEPTH`
/// brackets open; `memchr` finds those three bytes.
fn openings_are_plain(text: &str) -> bool {
    let mut opens = 0usize;
    memchr::memchr3_iter(b'[', b'{', b'\\', text.as_bytes())
        .all(|at| opening_is_plain(text, at, &mut opens))
}

#[inline]
fn opening_is_plain(text: &str, at: usize, opens: &mut usize) -> bool {
    let b = text.as_bytes();
    if b[at] == b'\\' {
        if b.get(at + 1) == Some(&b'u') {
            return false;
        }
    } else {
        *opens += 1;
        if *opens > MAX_DEPTH {
            return false;
        }
    }
    let mut quote = at;
    while quote > 0 && b[quote - 1] == b' ' {
        quote -= 1;
    }
    !(quote > 0 && b[quote - 1] == b'"' && !string_is_plain(text, quote - 1))
}

/// No exponent and no run of [`LONG_DIGITS`] digits, eight bytes a step; with `openings`, also
/// [`opening_is_plain`].
fn words_are_plain(text: &str, openings: bool) -> bool {
    let b = text.as_bytes();
    let mut opens = 0usize;
    let mut run = 0usize;
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 9) {
        let here = word(&chunk[..8]);
        if openings {
            let mut found = bytes_equal(here | (ONES * 0x20), b'{') | bytes_equal(here, b'\\');
            while found != 0 {
                let at = i + (found.trailing_zeros() / 8) as usize;
                if !opening_is_plain(text, at, &mut opens) {
                    return false;
                }
                found &= found - 1;
            }
        }
        let digits = digit_bytes(here);
        if digits == 0 {
            run = 0;
        } else {
            let next = word(&chunk[1..]);
            if digits & bytes_equal(next | (ONES * 0x20), b'e') != 0 {
                return false;
            }
            let others = !digits & HIGH;
            if run + (others.trailing_zeros() / 8) as usize >= LONG_DIGITS {
                return false;
            }
            run = if others == 0 {
                run + 8
            } else {
                (others.leading_zeros() / 8) as usize
            };
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if openings && matches!(c, b'[' | b'{' | b'\\') && !opening_is_plain(text, i, &mut opens) {
            return false;
        }
        i += 1;
        if c.is_ascii_digit() {
            run += 1;
            if run >= LONG_DIGITS || matches!(b.get(i), Some(b'e' | b'E')) {
                return false;
            }
        } else {
            run = 0;
        }
    }
    true
}

/// Every integer that does not fit 64 bits has at least 20 digits.
const LONG_DIGITS: usize = 16;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = ONES << 7;
const LOW7: u64 = !HIGH;

#[inline(always)]
fn word(chunk: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(chunk);
    u64::from_le_bytes(word)
}

/// The high bit of each ASCII digit byte; no carry crosses a byte.
#[inline(always)]
fn digit_bytes(word: u64) -> u64 {
    let low = word & LOW7;
    let from_0 = low + ONES * u64::from(0x80 - b'0');
    let past_9 = low + ONES * u64::from(0x80 - b'9' - 1);
    from_0 & !past_9 & !word & HIGH
}

#[inline(always)]
fn bytes_equal(word: u64, c: u8) -> u64 {
    let t = word ^ (ONES * u64::from(c));
    !(((t & LOW7) + LOW7) | t) & HIGH
}

/// The string whose quote is at `at` and whose content opens with `[`, `{`, `\` or a space.
#[cold]
fn string_is_plain(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let start = at + 1;
    match b.get(start) {
        // An escape first, or a quote itself escaped: the full path.
        Some(b'\\') => return false,
        _ if at > 0 && b[at - 1] == b'\\' => return false,
        Some(b' ') => {
            // Only an opening quote's spaces can lead to `[`, `{` or an escape.
            let first = b[start..].iter().position(|&c| c != b' ');
            if !matches!(first.map(|i| b[start + i]), Some(b'[' | b'{' | b'\\')) {
                return true;
            }
        }
        _ => {}
    }
    // Without escapes, content is JSON only as brackets around numbers and literals.
    let Some(len) = memchr::memchr2(b'"', b'\\', &b[start..]) else {
        return false;
    };
    if b[start + len] != b'"' {
        return false;
    }
    // Both ends are ASCII: char boundaries.
    let Some(content) = text.get(start..start + len) else {
        return false;
    };
    // `is_text_list` skips leading spaces itself; the `trim` is for an object's text only.
    if content.as_bytes().first() == Some(&b'[') || content.trim_start_matches(' ').starts_with('[')
    {
        !is_text_list(content, |_| true, Bounds::NONE)
    } else {
        serde_json::from_str::<serde::de::IgnoredAny>(content).is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn each_byte_is_classed_alone_in_its_word() {
        for c in 0..=255u8 {
            for x in [0u8, b'0', b'9', b'e', b'E', 0x80, 0xff, b'/', b':'] {
                for k in 0..8 {
                    let mut bytes = [x; 8];
                    bytes[k] = c;
                    let expect = |f: &dyn Fn(u8) -> bool| {
                        bytes
                            .iter()
                            .enumerate()
                            .filter(|(_, b)| f(**b))
                            .fold(0u64, |m, (j, _)| m | 0x80 << (8 * j))
                    };
                    let word = super::word(&bytes);
                    assert_eq!(super::digit_bytes(word), expect(&|b| b.is_ascii_digit()));
                    assert_eq!(super::bytes_equal(word, b'e'), expect(&|b| b == b'e'));
                }
            }
        }
    }

    #[test]
    fn each_pair_is_found_at_every_offset() {
        // A list as text, an escape and an exponent at each offset across the windows.
        for pad in 0..=70 {
            let xs = "x".repeat(pad);
            assert!(plain(&format!(r#"{{"a": "{xs}", "b": 1}}"#)), "{pad}");
            assert!(!plain(&format!(r#"{{"a{xs}": "[1]"}}"#)), "{pad}");
            assert!(!plain(&format!(r#"{{"a{xs}": "x\u0041"}}"#)), "{pad}");
            assert!(!plain(&format!(r#"{{"a{xs}": 1e5}}"#)), "{pad}");
            assert!(plain(&format!(r#"{{"a{xs}": "[x].png"}}"#)), "{pad}");
        }
    }

    #[test]
    fn plain_text_is_plain() {
        assert!(plain(
            r#"{"paths": "a.png", "n": 5, "rows": [{"names": ["x", "y["]}]}"#
        ));
        assert!(plain("{\n  \"query\": \"fox\",\n  \"ok\": true\n}"));
        assert!(plain(
            r#"{"name": "trueish", "t": "nullable", "p": "preview.png"}"#
        ));
        // A string opening with `[` that is no JSON array is plain: no rule could read it.
        assert!(plain(r#"{"p": "[preview].png"}"#));
        assert!(plain(
            r#"{"name": "trueish", "t": "nullable", "p": "[preview].png", "q": "[x]y"}"#
        ));
    }

    #[test]
    fn strings_that_could_be_json_are_not() {
        for text in [
            r#"{"paths": "[\"a\"]"}"#,
            r#"{"paths": " [\"a\"]"}"#,
            r#"{"meta": "{\"x\":1}"}"#,
            r#"{"s": "\"quoted\""}"#,
            r#"{"s": "\n"}"#,
            r#"{"n": "[1, 2]"}"#,
            r#"{"n": "{}"}"#,
            r#"{"paths":" \n[\"a.png\"]"}"#,
            r#"{"paths":"a.png","note":"x\udc00"}"#,
            r#"{"paths":"a.png","x":1e400}"#,
            "{\"paths\":\"a\",\"x\":10000000000000000000000000000000000000000}",
            r#"{"n": " [] "}"#,
            r#"{"longer text before the pair, padding": 1, "n": "[1]"}"#,
        ] {
            assert!(!plain(text), "{text}");
        }
        let deep = format!(
            r#"{{"paths":"a","x":{}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        assert!(!plain(&deep));
    }

    #[test]
    fn a_long_run_of_digits_is_found_wherever_it_falls() {
        // Every alignment of the run against the windows: sixteen digits or more is never plain.
        for pad in 0..=72 {
            for run in [15, 16, 17, 20, 31, 32, 33, 40] {
                let number = "1".repeat(run);
                let spaces = " ".repeat(pad);
                let xs = "x".repeat(pad);
                for text in [
                    format!(r#"{{"a":{spaces}{number}, "note": "hello world, some text"}}"#),
                    format!(r#"{{"note": "{xs}", "a": {number}}}"#),
                    format!("{{\n  \"a\":{spaces}{number}\n}}"),
                    format!(r#"{{"a":{spaces}{number}}}"#),
                    format!(r#"{{"a":-{number}.5,"b":"{xs}"}}"#),
                    format!("{spaces}{number}"),
                ] {
                    assert_eq!(plain(&text), run < super::LONG_DIGITS, "{text:?}");
                }
            }
        }
    }
}
