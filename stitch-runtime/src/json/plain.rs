//! The fast path of `from_json`: when the text holds no string that any rule could read
//! differently, serde_json deserializes it directly, with no `Value` in between.
//!
//! Every rule acts on a string whose text could be JSON. Those that read a number or a
//! literal written as text (R1 at a structured position, `lenient_scalars`) act where serde
//! refuses a string, so a direct deserialization fails on them and the full path runs. The
//! rest act on a string that starts (after spaces or escapes) with `[` or `{`: R3 refuses a
//! list written as text, R1 repairs JSON text. [`plain`] finds every string that starts so;
//! one that does not parse as JSON (`[preview].png`) is still plain. When the text is plain, a
//! direct deserialization that succeeds is exactly what the walk and `from_value` would have
//! produced, once the item bounds are checked on the result (`Coerce::bounds_hold`);
//! anything else takes the full path.

use crate::bounds::Bounds;
use crate::json::depth::MAX_DEPTH;
use crate::json::text_list::is_text_list;

/// `true` when no string in `text` could be read by a rule (see the module docs). A `false`
/// costs nothing but the full path; malformed text is left to serde_json to refuse.
///
/// A direct deserialization also reads what a `Value` cannot hold, and skips the values of
/// unknown keys without the checks `from_value` makes. So a `\u` escape, a number with an
/// exponent, a run of [`LONG_DIGITS`] digits (an integer past 64 bits), or more than
/// `MAX_DEPTH` brackets in all takes the full path too.
#[inline]
pub(crate) fn plain(text: &str) -> bool {
    if text.len() < SHORT {
        return words_are_plain(text, true);
    }
    words_are_plain(text, false) && openings_are_plain(text)
}

/// Below this length the openings are looked for in the same pass as the numbers, rather
/// than by `memchr`, whose set-up costs more than such a text's scan.
const SHORT: usize = 128;

/// Whether no string of `text` opens (after spaces or not) with `[`, `{` or an escape that
/// a rule could read, no escape is `\u`, and at most `MAX_DEPTH` brackets open in all. Only
/// those three bytes are looked at (by `memchr`): a string that opens like JSON has one.
fn openings_are_plain(text: &str) -> bool {
    let mut opens = 0usize;
    memchr::memchr3_iter(b'[', b'{', b'\\', text.as_bytes())
        .all(|at| opening_is_plain(text, at, &mut opens))
}

/// [`openings_are_plain`] of the `[`, `{` or `\` at `at`, the brackets so far in `opens`.
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

/// Whether `text` holds no digit followed by `e` or `E` (an exponent) and no run of
/// [`LONG_DIGITS`] digits, anywhere, eight bytes at a time in a `u64`, then one by one; and,
/// with `openings`, whether each `[`, `{` and `\` is plain ([`opening_is_plain`]).
fn words_are_plain(text: &str, openings: bool) -> bool {
    let b = text.as_bytes();
    let mut opens = 0usize;
    // The digits that end the bytes looked at so far.
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

/// A run of this many digits sends the text down the full path: every integer that does not
/// fit 64 bits has at least 20.
const LONG_DIGITS: usize = 16;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = ONES << 7;
const LOW7: u64 = !HIGH;

/// Eight bytes as a little-endian `u64`.
#[inline(always)]
fn word(chunk: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(chunk);
    u64::from_le_bytes(word)
}

/// The high bit of each byte of `word` that is an ASCII digit. Each byte's low seven bits are
/// added to apart from its high bit, so no carry crosses a byte.
#[inline(always)]
fn digit_bytes(word: u64) -> u64 {
    let low = word & LOW7;
    let from_0 = low + ONES * u64::from(0x80 - b'0');
    let past_9 = low + ONES * u64::from(0x80 - b'9' - 1);
    from_0 & !past_9 & !word & HIGH
}

/// The high bit of each byte of `word` that equals `c`.
#[inline(always)]
fn bytes_equal(word: u64, c: u8) -> u64 {
    let t = word ^ (ONES * u64::from(c));
    !(((t & LOW7) + LOW7) | t) & HIGH
}

/// Looks at the string whose quote is at `at` and whose content starts with `[`, `{`, `\` or
/// a space: `true` when no rule could read it.
#[cold]
fn string_is_plain(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let start = at + 1;
    match b.get(start) {
        // An escape first (`\n`, `\"`…), or a quote that is itself escaped: take the full path.
        Some(b'\\') => return false,
        _ if at > 0 && b[at - 1] == b'\\' => return false,
        Some(b' ') => {
            // After a closing quote, spaces lead to `:` `,` `}` `]`; only an opening quote can
            // have them lead to `[`, `{` or an escape (a newline written `\n` before `[`,
            // which the check below sends down the full path).
            let first = b[start..].iter().position(|&c| c != b' ');
            if !matches!(first.map(|i| b[start + i]), Some(b'[' | b'{' | b'\\')) {
                return true;
            }
        }
        _ => {}
    }
    // The content, up to the closing quote; with an escape, the full path. Without escapes a
    // string holds no quote, so its content is JSON only if it is brackets around numbers and
    // literals: `[preview].png` is not, and stays plain.
    let Some(len) = memchr::memchr2(b'"', b'\\', &b[start..]) else {
        return false;
    };
    if b[start + len] != b'"' {
        return false;
    }
    // Both ends are quotes or escapes (ASCII): char boundaries.
    let Some(content) = text.get(start..start + len) else {
        return false;
    };
    // `is_text_list` skips leading spaces itself; the `trim` is for an object's text only.
    if content.as_bytes().first() == Some(&b'[') || content.trim_start_matches(' ').starts_with('[')
    {
        // The zero-allocation array scanner: `[preview].png` fails at its second byte.
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
        // A list written as text, an escape and a brackets' overflow, at each offset across
        // two of the widest windows, the tail window and the padded short text.
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
        // A string that opens with `[` but is no JSON array is plain too: the array scanner
        // refuses `[preview].png` at its second byte, so no rule could read it. (Were it not,
        // the miss would only cost the full path, never a different answer.)
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
        // Every alignment of the run against the sixteen-byte windows, the tail window and the
        // last byte: a run of sixteen digits or more is never plain, fifteen always is.
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
