//! The fast path of `from_json`: when the text holds no string that any rule could read
//! differently, serde_json deserializes it directly, with no `Value` in between.
//!
//! Every rule acts on a string whose text could be JSON: R1 parses one at a structured
//! position, R3 refuses one that starts with `[`, `lenient_scalars` reads `"5"` and `"true"`.
//! A string that could be JSON starts (after its quote) with `[`, `{`, a digit, `-`, white
//! space or an escape, or is exactly `true`, `false` or `null`. [`plain`] looks at the first
//! bytes of every string in the text (keys too, which only makes it more careful) and says
//! whether there is none such. Then a direct deserialization that succeeds is exactly what the
//! walk and `from_value` would have produced, once the item bounds are checked on the result
//! ([`crate::Coerce::bounds_hold`]); anything else takes the full path.

use crate::text_list::find_special;

/// `true` when no string in `text` could be read by a rule (see the module docs). A `false`
/// costs nothing but the full path; malformed text answers `false`.
pub(crate) fn plain(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    loop {
        // Outside strings: find the next quote.
        i = find_special(b, i);
        match b.get(i) {
            None => return true,
            Some(b'"') => {}
            // A control byte (a newline of pretty-printed JSON) or a stray backslash.
            Some(_) => {
                i += 1;
                continue;
            }
        }
        let start = i + 1;
        match b.get(start) {
            Some(b'[' | b'{' | b'\\' | b'-' | b'0'..=b'9' | b' ' | b'\t' | b'\n' | b'\r') => {
                return false
            }
            Some(b't') if b[start..].starts_with(b"true\"") => return false,
            Some(b'f') if b[start..].starts_with(b"false\"") => return false,
            Some(b'n') if b[start..].starts_with(b"null\"") => return false,
            _ => {}
        }
        // Inside the string: find its closing quote.
        i = start;
        loop {
            i = find_special(b, i);
            match b.get(i) {
                Some(b'"') => {
                    i += 1;
                    break;
                }
                Some(b'\\') => i += 2,
                // A control byte inside a string, or no closing quote: not JSON.
                _ => return false,
            }
        }
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
            r#"{"n": "5"}"#,
            r#"{"n": "-5"}"#,
            r#"{"b": "true"}"#,
            r#"{"b": "null"}"#,
            r#"{"s": "\"quoted\""}"#,
            r#"{"s": "\n"}"#,
            r#"{"p": "[preview].png"}"#,
            r#"{"unterminated": "abc"#,
        ] {
            assert!(!plain(text), "{text}");
        }
    }
}
