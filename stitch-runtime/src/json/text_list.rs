//! Recognises a list a model wrote as JSON text (`"[\"a.png\"]"`), for R3 (`docs/rules.md#r3`),
//! without building anything: [`is_text_list`], and `accepts` closures for string and char
//! items. Nothing here allocates, recurses or panics; every function is linear in its input.

use crate::bounds::Bounds;
use crate::json::depth::MAX_DEPTH;

// The scanner's stack holds one bit per open container.
const _: () = assert!(MAX_DEPTH <= 128);

/// Whether `text` (after JSON whitespace) is one JSON array whose elements `accepts` takes
/// (called in order with each element's exact text) and whose length is within `bounds`.
///
/// Equals `starts-with-'[' && serde_json::from_str::<Vec<T>>(text).is_ok_and(|v|
/// bounds.contains(v.len()))` whenever `accepts(e) == serde_json::from_str::<T>(e).is_ok()`,
/// serde_json's depth limit included. One divergence: serde_json does not limit nesting
/// inside values `T` ignores (a struct's unknown fields); this always applies [`MAX_DEPTH`].
#[inline(always)]
pub fn is_text_list(text: &str, accepts: impl FnMut(&str) -> bool, bounds: Bounds) -> bool {
    // Nearly every non-list is settled by its first bytes, here inlined; the rest scan out of line.
    let b = text.as_bytes();
    let i = match b.first() {
        Some(b'[') => 0,
        Some(b' ' | b'\t' | b'\n' | b'\r') => skip_ws(b, 0),
        _ => return false,
    };
    if b.get(i) != Some(&b'[') {
        return false;
    }
    let i = skip_ws(b, i + 1);
    match b.get(i) {
        Some(b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' | b'[' | b'{' | b']') => {
            // A list cut short is answered from its last bytes, before any element is scanned.
            closes_with_bracket(b) && list_from(text, i, accepts, bounds)
        }
        _ => false,
    }
}

#[inline]
fn closes_with_bracket(b: &[u8]) -> bool {
    let end = skip_ws_back(b, 0, b.len());
    end > 0 && b[end - 1] == b']'
}

/// `text[i]` is the first byte after the opening bracket and its whitespace.
#[inline(never)]
fn list_from(
    text: &str,
    mut i: usize,
    mut accepts: impl FnMut(&str) -> bool,
    bounds: Bounds,
) -> bool {
    let b = text.as_bytes();
    let mut count = 0usize;
    if b.get(i) != Some(&b']') {
        loop {
            if count >= bounds.max {
                return false;
            }
            let Some(end) = scan_value(b, i) else {
                return false;
            };
            match text.get(i..end) {
                Some(element) if accepts(element) => count += 1,
                _ => return false,
            }
            i = skip_ws(b, end);
            match b.get(i) {
                Some(b',') => i = skip_ws(b, i + 1),
                Some(b']') => break,
                _ => return false,
            }
        }
    }
    skip_ws(b, i + 1) == b.len() && count >= bounds.min
}

/// Whether `token` is exactly one JSON string literal that `serde_json::from_str::<String>`
/// accepts.
pub fn is_json_string(token: &str) -> bool {
    let b = token.as_bytes();
    b.first() == Some(&b'"') && scan_str::<true>(b, 1, |_| {}) == Some(b.len())
}

/// Decodes a JSON string literal, calling `f` with each char: `true` when [`is_json_string`]
/// holds, else `false`, possibly after some calls to `f`.
pub fn decode_json_string(token: &str, mut f: impl FnMut(char)) -> bool {
    let b = token.as_bytes();
    b.first() == Some(&b'"')
        && scan_str::<true>(b, 1, |piece| match piece {
            Piece::Run(start, end) => token
                .get(start..end)
                .into_iter()
                .flat_map(str::chars)
                .for_each(&mut f),
            Piece::Char(c) => f(c),
        }) == Some(b.len())
}

/// Whether `token` is a JSON string literal that `serde_json::from_str::<char>` accepts.
pub fn is_json_char(token: &str) -> bool {
    let mut chars = 0usize;
    decode_json_string(token, |_| chars += 1) && chars == 1
}

enum Piece {
    /// Bytes `start..end` of the input, copied verbatim.
    Run(usize, usize),
    Char(char),
}

#[inline]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// [`skip_ws`] from the other side, going back no further than `start`.
#[inline]
pub(crate) fn skip_ws_back(b: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && matches!(b[end - 1], b' ' | b'\t' | b'\n' | b'\r') {
        end -= 1;
    }
    end
}

/// The end of the JSON value at `b[i]`; `stack` holds one bit per open container (1 = object).
fn scan_value(b: &[u8], mut i: usize) -> Option<usize> {
    let mut stack: u128 = 0;
    let mut depth: u32 = 0;
    loop {
        let c = *b.get(i)?;
        i = match c {
            b'"' => scan_str::<false>(b, i + 1, |_| {})?,
            b'-' | b'0'..=b'9' => scan_number(b, i)?,
            b't' => literal(b, i, b"true")?,
            b'f' => literal(b, i, b"false")?,
            b'n' => literal(b, i, b"null")?,
            b'[' | b'{' => {
                depth += 1;
                if depth + 1 > MAX_DEPTH as u32 {
                    return None;
                }
                let object = c == b'{';
                stack = stack << 1 | u128::from(object);
                i = skip_ws(b, i + 1);
                let close = if object { b'}' } else { b']' };
                if b.get(i) != Some(&close) {
                    if object {
                        i = object_key(b, i)?;
                    }
                    continue;
                }
                depth -= 1;
                stack >>= 1;
                i + 1
            }
            _ => return None,
        };
        // A value ended just before `i`: close containers until another value is due.
        loop {
            if depth == 0 {
                return Some(i);
            }
            i = skip_ws(b, i);
            let object = stack & 1 == 1;
            match (*b.get(i)?, object) {
                (b',', false) => i = skip_ws(b, i + 1),
                (b',', true) => i = object_key(b, skip_ws(b, i + 1))?,
                (b']', false) | (b'}', true) => {
                    i += 1;
                    depth -= 1;
                    stack >>= 1;
                    continue;
                }
                _ => return None,
            }
            break;
        }
    }
}

fn object_key(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let i = skip_ws(b, scan_str::<false>(b, i + 1, |_| {})?);
    (b.get(i) == Some(&b':')).then(|| skip_ws(b, i + 1))
}

fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b.get(i..)?.starts_with(word).then_some(i + word.len())
}

/// Scans `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; what may follow is the caller's.
fn scan_number(b: &[u8], mut i: usize) -> Option<usize> {
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match *b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(b, i),
        _ => return None,
    };
    if b.get(i) == Some(&b'.') {
        i = some_digits(b, i + 1)?;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        i = some_digits(b, i)?;
    }
    Some(i)
}

#[inline]
fn digits(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

#[inline]
fn some_digits(b: &[u8], i: usize) -> Option<usize> {
    let end = digits(b, i);
    (end > i).then_some(end)
}

/// Scans a string body to just past its closing quote; `None` if serde_json would refuse it.
/// With `STRICT`, `\u` escapes must form chars (as for a `String`) and `sink` gets the pieces.
#[inline]
fn scan_str<const STRICT: bool>(
    b: &[u8],
    mut i: usize,
    mut sink: impl FnMut(Piece),
) -> Option<usize> {
    loop {
        let j = find_special(b, i);
        if STRICT && j > i {
            sink(Piece::Run(i, j));
        }
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => {}
            _ => return None, // a raw control character
        }
        let c = match *b.get(j + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = hex4(b, j + 2)?;
                i = j + 6;
                if !STRICT {
                    continue;
                }
                if (0xD800..0xDC00).contains(&unit) {
                    // A high surrogate must be followed at once by `\u` and a low surrogate.
                    if b.get(i..i + 2) != Some(&b"\\u"[..]) {
                        return None;
                    }
                    let low = hex4(b, i + 2)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    i += 6;
                    sink(Piece::Char(char::from_u32(
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00),
                    )?));
                } else {
                    // `from_u32` refuses a lone low surrogate.
                    sink(Piece::Char(char::from_u32(unit)?));
                }
                continue;
            }
            _ => return None,
        };
        if STRICT {
            sink(Piece::Char(c));
        }
        i = j + 2;
    }
}

#[inline]
fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let digits = b.get(i..)?.first_chunk::<4>()?;
    digits
        .iter()
        .try_fold(0, |acc, &d| Some(acc << 4 | char::from(d).to_digit(16)?))
}

/// The first `"`, `\` or control byte at or after `i`, or `b.len()`, eight bytes a step; the
/// tests are exact per byte, so the last step may reuse the last eight bytes.
#[inline]
fn find_special(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let flags = special_flags(u64::from_le_bytes(*chunk));
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    if i >= b.len() {
        return b.len();
    }
    if let Some(last) = b.last_chunk::<8>() {
        // Fewer than eight bytes remain: test the last eight and skip the ones before `i`.
        let skip = i + 8 - b.len();
        let flags = special_flags(u64::from_le_bytes(*last)) >> (skip * 8);
        return (i + (flags.trailing_zeros() / 8) as usize).min(b.len());
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// Sets the high bit of each byte of `w` (little-endian) that is `"`, `\` or below 0x20.
#[inline]
fn special_flags(w: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const LOW7: u64 = ONES * 0x7F;
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    // The high bit of `((v & 0x7F) + k) | v` is set when byte `v` is at least 0x80 - k; no carries.
    let not_quote = ((quote & LOW7) + LOW7) | quote;
    let not_backslash = ((backslash & LOW7) + LOW7) | backslash;
    let not_control = ((w & LOW7) + ONES * 0x60) | w;
    !(not_quote & not_backslash & not_control) & (ONES << 7)
}
