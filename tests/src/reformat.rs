//! The same JSON text laid out differently: whitespace outside strings dropped ([`compact`]),
//! laid out as `serde_json::to_string_pretty` lays it out ([`pretty`]), or random runs of
//! JSON whitespace wherever JSON allows them ([`spaced`]).
//!
//! Each works on the text's tokens, not on a parsed value, so keys sent twice and numbers as
//! spelled are kept. For JSON text only: in text that is not JSON the result means nothing.

/// The chars that JSON allows around its tokens.
const JSON_WHITESPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// Calls `token` for each piece of `text` outside whitespace: a whole string (quotes
/// included), a structural char, or a char of a number or literal.
fn tokens(text: &str, mut token: impl FnMut(Token<'_>)) {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if c == '"' {
            string_len(rest)
        } else {
            c.len_utf8()
        };
        let (piece, after) = rest.split_at(len);
        match c {
            _ if JSON_WHITESPACE.contains(&c) => {}
            '"' => token(Token::String(piece)),
            '{' | '[' => token(Token::Open(c)),
            '}' | ']' => token(Token::Close(c)),
            ',' | ':' => token(Token::Punct(c)),
            _ => token(Token::Scalar(c)),
        }
        rest = after;
    }
}

#[derive(Clone, Copy)]
enum Token<'a> {
    String(&'a str),
    Open(char),
    Close(char),
    Punct(char),
    Scalar(char),
}

/// The length in bytes of the string opening `text` (which starts with `"`), closing quote
/// included; all of `text` when the string does not close.
fn string_len(text: &str) -> usize {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return i + 1,
            _ => {}
        }
    }
    text.len()
}

/// `text` without whitespace between its tokens.
pub fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    tokens(text, |token| match token {
        Token::String(s) => out.push_str(s),
        Token::Open(c) | Token::Close(c) | Token::Punct(c) | Token::Scalar(c) => out.push(c),
    });
    out
}

/// `text` laid out as `serde_json::to_string_pretty` lays out a value: two spaces of indent, a
/// line per entry and item, `": "` after keys, empty containers as `{}` and `[]`.
pub fn pretty(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut depth = 0usize;
    // An opening bracket waits for the next token: before a closing one it stays `{}`/`[]`.
    let mut open = false;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    tokens(text, |token| {
        if open && !matches!(token, Token::Close(_)) {
            newline(&mut out, depth);
        }
        match token {
            Token::String(s) => out.push_str(s),
            Token::Scalar(c) => out.push(c),
            Token::Open(c) => {
                out.push(c);
                depth += 1;
            }
            Token::Close(c) => {
                depth = depth.saturating_sub(1);
                if !open {
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            Token::Punct(',') => {
                out.push(',');
                newline(&mut out, depth);
            }
            Token::Punct(c) => {
                out.push(c);
                out.push(' ');
            }
        }
        open = matches!(token, Token::Open(_));
    });
    out
}

/// `text` with a random run of JSON whitespace (often none) before and after each structural
/// char and at both ends, and none elsewhere; `seed` decides the runs.
pub fn spaced(text: &str, seed: u64) -> String {
    let mut state = seed | 1;
    let mut gap = |out: &mut String| {
        // xorshift64*: small, and the same runs for the same seed everywhere.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let mut bits = state.wrapping_mul(0x2545_f491_4f6c_dd1d);
        if bits & 1 == 0 {
            return;
        }
        bits >>= 1;
        for _ in 0..=(bits & 3) {
            bits >>= 2;
            out.push(JSON_WHITESPACE[(bits & 3) as usize]);
        }
    };
    let mut out = String::with_capacity(text.len() * 2);
    gap(&mut out);
    tokens(text, |token| match token {
        Token::String(s) => out.push_str(s),
        Token::Scalar(c) => out.push(c),
        Token::Open(c) | Token::Close(c) | Token::Punct(c) => {
            gap(&mut out);
            out.push(c);
            gap(&mut out);
        }
    });
    gap(&mut out);
    out
}
