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
//! produced, once the item bounds are checked on the result ([`crate::Coerce::bounds_hold`]);
//! anything else takes the full path.

/// `true` when no string in `text` could be read by a rule (see the module docs). A `false`
/// costs nothing but the full path; malformed text is left to serde_json to refuse.
pub(crate) fn plain(text: &str) -> bool {
    let b = text.as_bytes();
    // Only an opening quote can be followed by `[`, `{`, `\` or a space followed by `[` or `{`:
    // after a closing quote comes `:`, `,`, `}`, `]` or white space before one of those. So
    // the text is searched for those pairs, sixteen bytes at a time, and only a string that
    // starts like a JSON array or object is looked at further. Numbers and literals written
    // as text need no look: every rule that reads them acts where serde refuses a string, so
    // the direct deserialization fails and the full path runs.
    let mut i = 0;
    while i + 17 <= b.len() {
        let hits = pairs16(&b[i..i + 17]);
        if hits != 0 {
            let mut bits = hits;
            while bits != 0 {
                let at = i + bits.trailing_zeros() as usize;
                if !string_is_plain(text, at) {
                    return false;
                }
                bits &= bits - 1;
            }
        }
        i += 16;
    }
    while i < b.len() {
        if b[i] == b'"'
            && matches!(b.get(i + 1), Some(b'[' | b'{' | b'\\' | b' '))
            && !string_is_plain(text, i)
        {
            return false;
        }
        i += 1;
    }
    true
}

/// Bit `k` set when `w[k]` is `"` and `w[k + 1]` is `[`, `{`, `\` or a space (`w` holds 17
/// bytes; the sixteen pairs that start in its first sixteen).
#[inline]
fn pairs16(w: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8,
            _mm_or_si128, _mm_set1_epi8,
        };
        debug_assert!(w.len() >= 17);
        // SAFETY: SSE2 is part of every x86_64 target; both unaligned loads read 16 bytes
        // inside `w`, which holds 17 (checked by the caller's loop and the assertion).
        unsafe {
            let here = _mm_loadu_si128(w.as_ptr().cast::<__m128i>());
            let next = _mm_loadu_si128(w.as_ptr().add(1).cast::<__m128i>());
            let quote = _mm_cmpeq_epi8(here, _mm_set1_epi8(b'"' as i8));
            let opens = _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpeq_epi8(next, _mm_set1_epi8(b'[' as i8)),
                    _mm_cmpeq_epi8(next, _mm_set1_epi8(b'{' as i8)),
                ),
                _mm_or_si128(
                    _mm_cmpeq_epi8(next, _mm_set1_epi8(b'\\' as i8)),
                    _mm_cmpeq_epi8(next, _mm_set1_epi8(b' ' as i8)),
                ),
            );
            _mm_movemask_epi8(_mm_and_si128(quote, opens)) as u32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut bits = 0u32;
        for k in 0..16 {
            if w[k] == b'"' && matches!(w[k + 1], b'[' | b'{' | b'\\' | b' ') {
                bits |= 1 << k;
            }
        }
        bits
    }
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
            // have them lead to `[` or `{`.
            let first = b[start..].iter().position(|&c| c != b' ');
            if !matches!(first.map(|i| b[start + i]), Some(b'[' | b'{')) {
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
    let content = &text[start..start + len];
    if content.trim_start_matches(' ').starts_with('[') {
        // The zero-allocation array scanner: `[preview].png` fails at its second byte.
        !crate::text_list::is_text_list(content, |_| true, crate::Bounds::NONE)
    } else {
        serde_json::from_str::<serde::de::IgnoredAny>(content).is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn plain_text_is_plain() {
        assert!(plain(
            r#"{"paths": "a.png", "n": 5, "rows": [{"names": ["x", "y["]}]}"#
        ));
        assert!(plain("{\n  \"query\": \"fox\",\n  \"ok\": true\n}"));
        assert!(plain(
            r#"{"name": "trueish", "t": "nullable", "p": "[preview].png"}"#
                .replace("[preview]", "preview")
                .as_str()
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
            r#"{"n": " [] "}"#,
            r#"{"longer text before the pair, padding": 1, "n": "[1]"}"#,
        ] {
            assert!(!plain(text), "{text}");
        }
    }
}
