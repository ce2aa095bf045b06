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
/// Inlined: only the choice of scan is here, so that a short call pays one test of the CPU
/// and one call, not a frame of its own around them.
#[inline]
pub(crate) fn plain(text: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: this CPU has AVX2 and POPCNT (`has_avx2`).
        return unsafe {
            if text.len() <= 32 {
                short_avx2(text)
            } else {
                plain_avx2(text)
            }
        };
    }
    plain_sse2(text)
}

/// Whether the CPU has AVX2 and POPCNT, asked of std once and kept in one byte (std keeps
/// each feature apart, which costs a test each).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx2() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    /// 0: not asked yet; 1: no; 2: yes.
    static AVX2: AtomicU8 = AtomicU8::new(0);
    match AVX2.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => {
            let yes = std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt");
            AVX2.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
    }
}

/// [`plain`] sixteen bytes at a time (SSE2 on x86_64, a portable loop elsewhere).
#[inline(never)]
fn plain_sse2(text: &str) -> bool {
    plain_by::<16>(text)
}

/// [`plain`] thirty-two bytes at a time, with AVX2 (and the bracket count with POPCNT, which
/// every CPU with AVX2 has).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn plain_avx2(text: &str) -> bool {
    plain_by::<32>(text)
}

/// [`plain_avx2`] of a text of at most thirty-two bytes, in a function of its own that calls
/// nothing on the common path (so saves no register). One window: the text cannot hold more
/// brackets than `MAX_DEPTH`, and a run of digits is wholly inside it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline(never)]
unsafe fn short_avx2(text: &str) -> bool {
    const _: () = assert!(32 < MAX_DEPTH && 32 >= LONG_DIGITS);
    let mut window = [0u8; 48];
    pad(&mut window, text.as_bytes());
    // SAFETY: this CPU has AVX2 (the caller's promise); the window holds 48 bytes.
    let chunk = unsafe { scan32(&window) };
    !chunk.careful
        && (chunk.digits == 0 || !holds_long_run(chunk.digits))
        && (chunk.pairs == 0 || pairs_are_plain(text, chunk.pairs, 0))
}

/// [`plain`] `W` bytes at a time (16, or 32 with AVX2). Inlined into its caller, so that
/// [`plain_avx2`]'s copy is compiled with AVX2.
#[inline(always)]
fn plain_by<const W: usize>(text: &str) -> bool {
    let b = text.as_bytes();
    // Only an opening quote can be followed by `[`, `{`, `\` or a space followed by `[` or `{`:
    // after a closing quote comes `:`, `,`, `}`, `]` or white space before one of those. So
    // the text is searched for those pairs, `W` bytes at a time, and only a string that
    // starts like a JSON array or object is looked at further. Numbers and literals written
    // as text need no look: every rule that reads them acts where serde refuses a string, so
    // the direct deserialization fails and the full path runs.
    //
    // A direct deserialization also reads what a `Value` cannot hold, and skips the values of
    // unknown keys without reading them as `from_value` does (serde_json checks neither
    // surrogate pairs, nor the range of a number, nor the depth there). So a text with a `\u`
    // escape, a number with an exponent, a run of `LONG_DIGITS` digits anywhere (an integer
    // past 64 bits reads into a `u128` from text, but a `Value` holds it as a float), or more
    // than `MAX_DEPTH` brackets in all takes the full path too.
    let mut scan = Scan::default();
    if b.len() <= W {
        // A short text is scanned in a copy padded with zeros (none of the bytes looked for).
        let mut window = [0u8; 48];
        pad(&mut window, b);
        return window_is_plain::<W>(text, &window[..W + 1], 0, 0, &mut scan);
    }
    let mut i = 0;
    while i + W < b.len() {
        if !window_is_plain::<W>(text, &b[i..i + W + 1], i, 0, &mut scan) {
            return false;
        }
        i += W;
    }
    // At most `W` bytes are left. They are scanned in the window that ends with the text, its
    // positions before `i` masked off (scanned already). The last byte is looked at only as
    // the successor of the one before it: each thing looked for is a byte and the next one,
    // and an opening bracket as the last byte leaves the text malformed, for serde_json to
    // refuse. A digit there may still end a long run, so it is counted on its own.
    if i + 1 < b.len() {
        let start = b.len() - (W + 1);
        if !window_is_plain::<W>(text, &b[start..], start, i - start, &mut scan) {
            return false;
        }
    }
    !(i < b.len() && b[b.len() - 1].is_ascii_digit() && scan.digits + 1 >= LONG_DIGITS)
}

/// Copies `b` (at most 32 bytes) to the start of `out` (zeros), in pieces of a fixed size
/// that may overlap, rather than by a call to `memcpy`, which costs a short call more than
/// its scan (and makes its caller save registers around it).
#[inline(always)]
fn pad(out: &mut [u8; 48], b: &[u8]) {
    let n = b.len();
    // `& 31` keeps each end piece inside `out` as the compiler sees it (no bounds check); it
    // changes nothing for the lengths each branch takes.
    if n >= 16 {
        out[..16].copy_from_slice(&b[..16]);
        out[(n - 16) & 31..][..16].copy_from_slice(&b[n - 16..n]);
    } else if n >= 8 {
        out[..8].copy_from_slice(&b[..8]);
        out[(n - 8) & 15..][..8].copy_from_slice(&b[n - 8..n]);
    } else if n >= 4 {
        out[..4].copy_from_slice(&b[..4]);
        out[(n - 4) & 7..][..4].copy_from_slice(&b[n - 4..n]);
    } else if n > 0 {
        out[0] = b[0];
        out[n / 2] = b[n / 2];
        out[n - 1] = b[n - 1];
    }
}

/// A run of this many digits (in a number, a string, anywhere) sends the text down the full
/// path: every integer that does not fit 64 bits has at least 20.
const LONG_DIGITS: usize = 16;

/// What the scan carries from one window to the next.
#[derive(Default)]
struct Scan {
    /// Opening brackets seen so far.
    opens: usize,
    /// Length of the run of digits that ends the bytes scanned so far.
    digits: usize,
}

/// Scans the `W` bytes of `w` (which holds one more, their successor) found at `base` in
/// `text`, from its `skip`th on: `false` when the text is not plain. Counts brackets and
/// carries the run of digits in `scan`.
#[inline(always)]
fn window_is_plain<const W: usize>(
    text: &str,
    w: &[u8],
    base: usize,
    skip: usize,
    scan: &mut Scan,
) -> bool {
    let chunk = scan_window::<W>(w);
    // A `careful` find before `skip` would have ended the scan already.
    if chunk.careful {
        return false;
    }
    // The run of digits: the one carried in, continued by this window's leading digits, must
    // stay short; then the run that ends this window is carried on. A window's bits above its
    // `W`th are clear, so `lead` stops there. A window wider than a long run may also hold
    // one inside it, touching neither end.
    if chunk.digits == 0 {
        // No digit: no run continues, none is carried on (most windows of a call's text).
        scan.digits = 0;
    } else {
        let digits = chunk.digits >> skip;
        let lead = (!digits).trailing_zeros() as usize;
        if scan.digits + lead >= LONG_DIGITS {
            return false;
        }
        if W > LONG_DIGITS && holds_long_run(digits) {
            return false;
        }
        scan.digits = if lead == W - skip {
            scan.digits + lead
        } else {
            (chunk.digits << (64 - W)).leading_ones() as usize
        };
    }
    let keep = u64::MAX << skip;
    // Most windows hold no bracket; the count (a software popcount on baseline x86_64, one
    // instruction in the AVX2 scan) is taken only for those that do.
    if chunk.opens & keep != 0 {
        scan.opens += (chunk.opens & keep).count_ones() as usize;
        if scan.opens > MAX_DEPTH {
            return false;
        }
    }
    let bits = chunk.pairs & keep;
    bits == 0 || pairs_are_plain(text, bits, base)
}

/// Whether each string whose opening quote is at a set bit of `bits` (plus `base`) is plain:
/// out of line, as most windows have none.
#[cold]
#[inline(never)]
fn pairs_are_plain(text: &str, mut bits: u64, base: usize) -> bool {
    while bits != 0 {
        if !string_is_plain(text, base + bits.trailing_zeros() as usize) {
            return false;
        }
        bits &= bits - 1;
    }
    true
}

/// Whether `bits` holds a run of `LONG_DIGITS` (16) set bits: each step keeps the bits that
/// start a run twice as long as the step before.
#[inline(always)]
fn holds_long_run(bits: u64) -> bool {
    let mut run = bits & (bits >> 1);
    run &= run >> 2;
    run &= run >> 4;
    run &= run >> 8;
    run != 0
}

/// What [`scan_window`] finds in `W` bytes.
struct Chunk {
    /// Bit `k`: byte `k` is `"` and byte `k + 1` is `[`, `{`, `\` or a space.
    pairs: u64,
    /// Bit `k`: byte `k` is `[` or `{`.
    opens: u64,
    /// Bit `k`: byte `k` is an ASCII digit (bits `W` and up clear).
    digits: u64,
    /// A `\u` escape, or a digit followed by `e`/`E`.
    careful: bool,
}

/// Looks at the `W` bytes starting `w` (which holds `W + 1`: each byte's next one too).
#[inline(always)]
fn scan_window<const W: usize>(w: &[u8]) -> Chunk {
    debug_assert!(w.len() > W);
    #[cfg(target_arch = "x86_64")]
    {
        if W == 32 {
            // SAFETY: `W` is 32 only in `plain_avx2`, which runs where the CPU has AVX2; the
            // window holds 33 bytes (asserted in tests, and by every caller's bounds).
            return unsafe { scan32(w) };
        }
        scan16(w)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut chunk = Chunk {
            pairs: 0,
            opens: 0,
            digits: 0,
            careful: false,
        };
        for k in 0..W {
            let (c, next) = (w[k], w[k + 1]);
            if c == b'"' && matches!(next, b'[' | b'{' | b'\\' | b' ') {
                chunk.pairs |= 1u64 << k;
            }
            if matches!(c, b'[' | b'{') {
                chunk.opens |= 1u64 << k;
            }
            if (c == b'\\' && next == b'u') || (c.is_ascii_digit() && matches!(next, b'e' | b'E')) {
                chunk.careful = true;
            }
            if c.is_ascii_digit() {
                chunk.digits |= 1u64 << k;
            }
        }
        chunk
    }
}

/// [`scan_window`] of sixteen bytes, with SSE2 (part of every x86_64 target).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn scan16(w: &[u8]) -> Chunk {
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_sub_epi8,
    };
    assert!(w.len() >= 17);
    // SAFETY: SSE2 is part of every x86_64 target; both unaligned loads read 16 bytes inside
    // `w`, which holds 17 (asserted).
    unsafe {
        let here = _mm_loadu_si128(w.as_ptr().cast::<__m128i>());
        let next = _mm_loadu_si128(w.as_ptr().add(1).cast::<__m128i>());
        let eq = |v: __m128i, c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        let quote = eq(here, b'"');
        let opens_here = _mm_or_si128(eq(here, b'['), eq(here, b'{'));
        let opens_next = _mm_or_si128(eq(next, b'['), eq(next, b'{'));
        let string_opens = _mm_or_si128(opens_next, _mm_or_si128(eq(next, b'\\'), eq(next, b' ')));
        let pairs = _mm_movemask_epi8(_mm_and_si128(quote, string_opens)) as u16;
        // A digit: `byte - '0'` (wrapping) is at most 9.
        let offset = _mm_sub_epi8(here, _mm_set1_epi8(b'0' as i8));
        let digit = _mm_cmpeq_epi8(_mm_min_epu8(offset, _mm_set1_epi8(9)), offset);
        let exponent = _mm_and_si128(digit, _mm_or_si128(eq(next, b'e'), eq(next, b'E')));
        let unicode = _mm_and_si128(eq(here, b'\\'), eq(next, b'u'));
        Chunk {
            pairs: u64::from(pairs),
            opens: u64::from(_mm_movemask_epi8(opens_here) as u16),
            digits: u64::from(_mm_movemask_epi8(digit) as u16),
            careful: _mm_movemask_epi8(_mm_or_si128(exponent, unicode)) != 0,
        }
    }
}

/// [`scan_window`] of thirty-two bytes, with AVX2: the same comparisons as [`scan16`].
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn scan32(w: &[u8]) -> Chunk {
    use core::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_sub_epi8,
    };
    // A macro, not a closure: the comparisons stay in this function, compiled with AVX2.
    macro_rules! eq {
        ($v:expr, $c:expr) => {
            _mm256_cmpeq_epi8($v, _mm256_set1_epi8($c as i8))
        };
    }
    assert!(w.len() >= 33);
    // SAFETY: both unaligned loads read 32 bytes inside `w`, which holds 33 (asserted); the
    // caller vouches for AVX2.
    unsafe {
        let here = _mm256_loadu_si256(w.as_ptr().cast::<__m256i>());
        let next = _mm256_loadu_si256(w.as_ptr().add(1).cast::<__m256i>());
        let quote = eq!(here, b'"');
        let opens_here = _mm256_or_si256(eq!(here, b'['), eq!(here, b'{'));
        let opens_next = _mm256_or_si256(eq!(next, b'['), eq!(next, b'{'));
        let string_opens = _mm256_or_si256(
            opens_next,
            _mm256_or_si256(eq!(next, b'\\'), eq!(next, b' ')),
        );
        let pairs = _mm256_movemask_epi8(_mm256_and_si256(quote, string_opens)) as u32;
        let offset = _mm256_sub_epi8(here, _mm256_set1_epi8(b'0' as i8));
        let digit = _mm256_cmpeq_epi8(_mm256_min_epu8(offset, _mm256_set1_epi8(9)), offset);
        let exponent = _mm256_and_si256(digit, _mm256_or_si256(eq!(next, b'e'), eq!(next, b'E')));
        let unicode = _mm256_and_si256(eq!(here, b'\\'), eq!(next, b'u'));
        Chunk {
            pairs: u64::from(pairs),
            opens: u64::from(_mm256_movemask_epi8(opens_here) as u32),
            digits: u64::from(_mm256_movemask_epi8(digit) as u32),
            careful: _mm256_movemask_epi8(_mm256_or_si256(exponent, unicode)) != 0,
        }
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
    let Some(len) = quote_or_escape(&b[start..]) else {
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

/// Where the first `"` or `\\` of `rest` is. Most strings that open like JSON are short
/// (`[wip]`), where a plain loop answers before `memchr`'s dispatch would have started.
#[inline]
fn quote_or_escape(rest: &[u8]) -> Option<usize> {
    let head = rest.len().min(32);
    match rest[..head].iter().position(|&c| c == b'"' || c == b'\\') {
        Some(i) => Some(i),
        None => memchr::memchr2(b'"', b'\\', &rest[head..]).map(|i| head + i),
    }
}

#[cfg(test)]
mod tests {
    /// Both scans (sixteen bytes, and thirty-two where the CPU has AVX2), which must agree.
    fn plain(text: &str) -> bool {
        let narrow = super::plain_by::<16>(text);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: checked just above.
            let wide = unsafe { super::plain_avx2(text) };
            assert_eq!(wide, narrow, "the two scans disagree on {text:?}");
        }
        assert_eq!(super::plain(text), narrow);
        #[cfg(target_arch = "x86_64")]
        if text.len() <= 32 && super::has_avx2() {
            // SAFETY: checked just above.
            assert_eq!(unsafe { super::short_avx2(text) }, narrow, "{text:?}");
        }
        narrow
    }

    #[test]
    fn a_short_text_is_padded_with_zeros_whatever_its_length() {
        let text: Vec<u8> = (1..=32).collect();
        for n in 0..=32 {
            let mut out = [0u8; 48];
            super::pad(&mut out, &text[..n]);
            assert_eq!(&out[..n], &text[..n], "{n}");
            assert!(out[n..].iter().all(|&b| b == 0), "{n}");
        }
        // Each short length, plain or not, answered as the sixteen-byte scan answers it.
        for n in 0..=26 {
            let xs = "x".repeat(n);
            assert!(plain(&format!(r#"{{"{xs}":1}}"#)), "{n}");
            assert!(!plain(&format!(r#"{{"{xs}":"[1]"}}"#)), "{n}");
        }
    }

    #[test]
    fn each_pair_is_found_at_every_place_in_either_window() {
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
