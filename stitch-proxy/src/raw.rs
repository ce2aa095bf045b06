//! A client's JSON as it was written: every value with the byte range of its text, so that a
//! repaired call is the same bytes with only the repaired strings replaced (`rewrite`), and a
//! reading that never fails on a value `serde_json::Value` cannot hold.
//!
//! `serde_json` refuses a number past `f64` (`1e400`), a lone surrogate escape (`"\ud800"`)
//! and nesting past 128 levels, and a call holding one anywhere would go unchecked. Here such
//! a value is read all the same; [`to_value`] gives the coercer a stand-in of the same kind
//! that it judges as it would judge the value (see there), so the decision about one field
//! never depends on whether an unrelated value fits a `Value`.

use std::ops::Range;

use serde_json::{Map, Number, Value};

/// Below this depth containers are read into nodes; deeper ones are checked and skipped (the
/// coercer stops at `stitch_runtime::MAX_DEPTH` and never looks further).
pub const READ_DEPTH: usize = stitch_runtime::MAX_DEPTH + 2;

/// One value of the text.
#[derive(Debug)]
pub struct Node {
    /// Its text: `text[span]`.
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Debug)]
pub enum Kind {
    Null,
    Bool(bool),
    Number,
    String(Str),
    Array(Vec<Node>),
    Object(Vec<Member>),
    /// A container nested deeper than [`READ_DEPTH`]: checked, not read (`true`: an array).
    Deep(bool),
}

/// A string's value. A lone surrogate escape, which no Rust string holds, reads as U+FFFD
/// (`lossy`).
#[derive(Debug)]
pub struct Str {
    pub value: String,
    pub lossy: bool,
}

/// One member of an object.
#[derive(Debug)]
pub struct Member {
    pub key: Str,
    /// Where the key's opening quote is.
    pub start: usize,
    pub value: Node,
}

impl Node {
    /// The member `key` of an object (the last one, when the key is sent twice, as a `Value`
    /// keeps it).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            Kind::Object(members) => members
                .iter()
                .rev()
                .find(|m| m.key.value == key)
                .map(|m| &m.value),
            _ => None,
        }
    }

    /// The string's value, when the node is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(&s.value),
            _ => None,
        }
    }
}

/// Reads `text`, one JSON value with whitespace around it; `None` when it is not JSON.
pub fn parse(text: &str) -> Option<Node> {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
    };
    reader.skip_ws();
    let node = reader.value(0)?;
    reader.skip_ws();
    (reader.at == text.len()).then_some(node)
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        let start = self.at;
        let kind = match self.peek()? {
            b'{' | b'[' if depth >= READ_DEPTH => {
                let array = self.peek() == Some(b'[');
                self.skip_deep()?;
                Kind::Deep(array)
            }
            b'{' => self.object(depth)?,
            b'[' => self.array(depth)?,
            b'"' => Kind::String(self.string()?),
            b't' => self.word(b"true", Kind::Bool(true))?,
            b'f' => self.word(b"false", Kind::Bool(false))?,
            b'n' => self.word(b"null", Kind::Null)?,
            _ => {
                self.number()?;
                Kind::Number
            }
        };
        Some(Node {
            span: start..self.at,
            kind,
        })
    }

    fn word(&mut self, word: &[u8], kind: Kind) -> Option<Kind> {
        self.text[self.at..].starts_with(word).then(|| {
            self.at += word.len();
            kind
        })
    }

    fn object(&mut self, depth: usize) -> Option<Kind> {
        self.at += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.eat(b'}') {
            return Some(Kind::Object(members));
        }
        loop {
            self.skip_ws();
            let start = self.at;
            if self.peek() != Some(b'"') {
                return None;
            }
            let key = self.string()?;
            self.skip_ws();
            if !self.eat(b':') {
                return None;
            }
            self.skip_ws();
            let value = self.value(depth + 1)?;
            members.push(Member { key, start, value });
            self.skip_ws();
            if self.eat(b'}') {
                return Some(Kind::Object(members));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Kind> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.eat(b']') {
            return Some(Kind::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            if self.eat(b']') {
                return Some(Kind::Array(items));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// Checks a container nested past [`READ_DEPTH`] without reading it into nodes: a stack
    /// of the open containers, no recursion however deep it goes.
    fn skip_deep(&mut self) -> Option<()> {
        // `true`: an object; the second: a value is expected next (after `[`, `,` or `:`).
        let mut open: Vec<bool> = Vec::new();
        let mut expect_value = true;
        loop {
            self.skip_ws();
            let byte = self.peek()?;
            if expect_value {
                match byte {
                    b'[' => {
                        self.at += 1;
                        open.push(false);
                        self.skip_ws();
                        if self.eat(b']') {
                            open.pop();
                            expect_value = false;
                        }
                    }
                    b'{' => {
                        self.at += 1;
                        open.push(true);
                        self.skip_ws();
                        if self.eat(b'}') {
                            open.pop();
                            expect_value = false;
                        } else {
                            self.key()?;
                        }
                    }
                    b'"' => {
                        self.string()?;
                        expect_value = false;
                    }
                    b't' => {
                        self.word(b"true", Kind::Null)?;
                        expect_value = false;
                    }
                    b'f' => {
                        self.word(b"false", Kind::Null)?;
                        expect_value = false;
                    }
                    b'n' => {
                        self.word(b"null", Kind::Null)?;
                        expect_value = false;
                    }
                    _ => {
                        self.number()?;
                        expect_value = false;
                    }
                }
                if open.is_empty() && !expect_value {
                    return Some(());
                }
                continue;
            }
            let object = *open.last()?;
            self.at += 1;
            match (byte, object) {
                (b',', true) => {
                    self.skip_ws();
                    self.key()?;
                    expect_value = true;
                }
                (b',', false) => expect_value = true,
                (b'}', true) | (b']', false) => {
                    open.pop();
                    if open.is_empty() {
                        return Some(());
                    }
                }
                _ => return None,
            }
        }
    }

    /// A key and its colon, inside [`Reader::skip_deep`].
    fn key(&mut self) -> Option<()> {
        if self.peek() != Some(b'"') {
            return None;
        }
        self.string()?;
        self.skip_ws();
        self.eat(b':').then_some(())
    }

    fn number(&mut self) -> Option<()> {
        let start = self.at;
        self.eat(b'-');
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.eat(b'.') {
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.digits();
        }
        (self.at > start).then_some(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
    }

    fn hex4(&mut self) -> Option<u16> {
        let digits = self.text.get(self.at..self.at + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.at += 4;
        u16::from_str_radix(text, 16).ok()
    }

    fn string(&mut self) -> Option<Str> {
        self.at += 1;
        let mut value = String::new();
        let mut lossy = false;
        loop {
            let run = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The text is a `&str` cut at ASCII bytes: the run is UTF-8.
            value.push_str(std::str::from_utf8(&self.text[run..self.at]).ok()?);
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(Str { value, lossy });
                }
                b'\\' => {
                    self.at += 1;
                    let escape = self.peek()?;
                    self.at += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let unit = self.hex4()?;
                            match unit {
                                0xD800..=0xDBFF => {
                                    let low = self.text[self.at..].starts_with(b"\\u").then(|| {
                                        let at = self.at;
                                        self.at += 2;
                                        match self.hex4() {
                                            Some(low @ 0xDC00..=0xDFFF) => Some(low),
                                            _ => {
                                                self.at = at;
                                                None
                                            }
                                        }
                                    });
                                    match low.flatten() {
                                        Some(low) => {
                                            let c = 0x10000
                                                + ((u32::from(unit) - 0xD800) << 10)
                                                + (u32::from(low) - 0xDC00);
                                            char::from_u32(c)?
                                        }
                                        None => {
                                            lossy = true;
                                            '\u{FFFD}'
                                        }
                                    }
                                }
                                0xDC00..=0xDFFF => {
                                    lossy = true;
                                    '\u{FFFD}'
                                }
                                _ => char::from_u32(u32::from(unit))?,
                            }
                        }
                        _ => return None,
                    };
                    value.push(c);
                }
                // A control character must be escaped.
                _ => return None,
            }
        }
    }
}

/// The value the coercer judges for `node` (text `text`): the value itself where a `Value`
/// holds it, else a stand-in the coercer judges the same way:
///
/// - a number past `f64` (`1e400`) is `±f64::MAX`: a number, an integer as JSON Schema
///   counts it, beyond any bound a schema sets;
/// - a string with a lone surrogate has U+FFFD in its place: a string of the same length;
/// - a container past [`READ_DEPTH`] is an empty one of its kind: the coercer stops at its
///   depth limit before it and never sees it.
pub fn to_value(text: &str, node: &Node) -> Value {
    match &node.kind {
        Kind::Null => Value::Null,
        Kind::Bool(b) => Value::Bool(*b),
        Kind::Number => number(&text[node.span.clone()]),
        Kind::String(s) => Value::String(s.value.clone()),
        Kind::Array(items) => Value::Array(items.iter().map(|n| to_value(text, n)).collect()),
        Kind::Object(members) => {
            let mut map = Map::new();
            for member in members {
                map.insert(member.key.value.clone(), to_value(text, &member.value));
            }
            Value::Object(map)
        }
        Kind::Deep(true) => Value::Array(Vec::new()),
        Kind::Deep(false) => Value::Object(Map::new()),
    }
}

fn number(text: &str) -> Value {
    match serde_json::from_str::<Number>(text) {
        Ok(n) => Value::Number(n),
        Err(_) => {
            // Only a magnitude past f64's fails (the grammar was checked).
            let max = if text.starts_with('-') {
                -f64::MAX
            } else {
                f64::MAX
            };
            Number::from_f64(max).map_or(Value::Null, Value::Number)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value(text: &str) -> Value {
        to_value(text, &parse(text).expect("JSON"))
    }

    #[test]
    fn values_and_their_spans() {
        let text = r#" {"a" : [1, -2.5e3, "x\"y"], "b":{"c":null,"d":true}} "#;
        let node = parse(text).unwrap();
        assert_eq!(&text[node.span.clone()], text.trim());
        let a = node.get("a").unwrap();
        assert_eq!(&text[a.span.clone()], r#"[1, -2.5e3, "x\"y"]"#);
        assert_eq!(
            value(text),
            json!({"a": [1, -2500.0, "x\"y"], "b": {"c": null, "d": true}})
        );
    }

    #[test]
    fn what_a_value_cannot_hold_is_read_with_a_stand_in() {
        assert_eq!(value("1e400"), json!(f64::MAX));
        assert_eq!(value("-1e400"), json!(-f64::MAX));
        assert_eq!(value(r#""a\ud800b""#), json!("a\u{fffd}b"));
        assert_eq!(value(r#""\udc00""#), json!("\u{fffd}"));
        assert_eq!(value(r#""\ud83d\ude00""#), json!("\u{1f600}"));
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let node = parse(&deep).unwrap();
        assert_eq!(node.span, 0..deep.len());
    }

    #[test]
    fn what_is_not_json_is_refused() {
        for text in [
            "",
            "{",
            "[1,]",
            "{\"a\"}",
            "01",
            "1.",
            "-",
            "\"a",
            "\"\\x\"",
            "\"\u{1}\"",
            "tru",
            "[1] x",
            "{\"a\":1,}",
        ] {
            assert!(parse(text).is_none(), "{text:?}");
        }
        let deep = format!("{}1,]{}", "[".repeat(200), "]".repeat(199));
        assert!(parse(&deep).is_none());
        let deep = format!("{}{{\"a\" 1}}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&deep).is_none());
        let deep = format!("{}{{\"a\":[1,{{}}]}}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&deep).is_some());
    }
}
