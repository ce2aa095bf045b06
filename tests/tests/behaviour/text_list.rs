//! Behaviour of `text_list`: JSON-text lists, string tokens and chars, checked against the
//! serde_json oracle (`from_str::<Vec<T>>`, `from_str::<String>`, `from_str::<char>`).

use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::Value;
use stitch_runtime::__private::{
    decode_json_string, is_json_char, is_json_string, is_text_list, Bounds,
};
use stitch_tests::checks::starts_with_bracket;
use stitch_tests::text_edit::{apply, TextEdit};

/// Characters used to mutate JSON text.
const ALPHABET: &str = "[]{}\",:\\u0123456789abcdefntrl -+.eE\t\n\r";

/// Asserts `is_text_list` agrees with `from_str::<Vec<T>>` plus bounds for each listed `T`,
/// using `from_str::<T>` as the element check.
macro_rules! agree {
    ($text:expr, $bounds:expr; $($t:ty),+) => {{
        let (text, bounds): (&str, Bounds) = ($text, $bounds);
        $(
            let expected = starts_with_bracket(text)
                && serde_json::from_str::<Vec<$t>>(text).is_ok_and(|v| bounds.contains(v.len()));
            let got = is_text_list(text, |e| serde_json::from_str::<$t>(e).is_ok(), bounds);
            prop_assert_eq!(got, expected, "T = {}, text = {:?}, bounds = {:?}", stringify!($t), text, bounds);
        )+
    }};
}

/// Compares `is_text_list` with the oracle for every item type under test, also with the
/// module's own `is_json_string` / `is_json_char` as element checks, and checks that
/// `accepts` sees each element's exact text.
fn check_list(text: &str, bounds: Bounds) -> Result<(), TestCaseError> {
    agree!(text, bounds; String, u32, i64, f64, bool, char, Value);
    let strings = starts_with_bracket(text)
        && serde_json::from_str::<Vec<String>>(text).is_ok_and(|v| bounds.contains(v.len()));
    prop_assert_eq!(
        is_text_list(text, is_json_string, bounds),
        strings,
        "strings: {:?}",
        text
    );
    let chars = starts_with_bracket(text)
        && serde_json::from_str::<Vec<char>>(text).is_ok_and(|v| bounds.contains(v.len()));
    prop_assert_eq!(
        is_text_list(text, is_json_char, bounds),
        chars,
        "chars: {:?}",
        text
    );

    // Structure alone (every element accepted) must match `Vec<Value>` wherever `Value` adds no
    // content checks of its own: no `\u` escapes (surrogates), no exponents and no very long
    // digit runs (numbers out of range).
    let exponent = text
        .as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_digit() && matches!(w[1], b'e' | b'E'));
    let long_number = text
        .split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() > 300);
    if !exponent && !long_number && !text.contains("\\u") {
        let structure = starts_with_bracket(text)
            && serde_json::from_str::<Vec<Value>>(text).is_ok_and(|v| bounds.contains(v.len()));
        prop_assert_eq!(
            is_text_list(text, |_| true, bounds),
            structure,
            "structure: {:?}",
            text
        );
    }

    let mut seen = Vec::new();
    let listed = is_text_list(
        text,
        |e| {
            seen.push(e.to_owned());
            true
        },
        Bounds::NONE,
    );
    if let (true, Ok(values)) = (listed, serde_json::from_str::<Vec<Value>>(text)) {
        prop_assert_eq!(seen.len(), values.len());
        for (e, v) in seen.iter().zip(&values) {
            prop_assert_eq!(e.trim_matches([' ', '\t', '\n', '\r']), e.as_str());
            prop_assert_eq!(&serde_json::from_str::<Value>(e).unwrap(), v);
        }
    }
    Ok(())
}

/// Compares the token functions with `from_str::<String>` / `from_str::<char>` (tokens with
/// surrounding whitespace are not bare literals, so they must be refused).
fn check_token(token: &str) -> Result<(), TestCaseError> {
    let bare = token.starts_with('"') && token.ends_with('"');
    let string = serde_json::from_str::<String>(token).ok().filter(|_| bare);
    prop_assert_eq!(is_json_string(token), string.is_some(), "token {:?}", token);
    let mut decoded = String::new();
    let ok = decode_json_string(token, |c| decoded.push(c));
    prop_assert_eq!(ok, string.is_some(), "decode {:?}", token);
    if let Some(expected) = string {
        prop_assert_eq!(decoded, expected);
    }
    let char_ok = bare && serde_json::from_str::<char>(token).is_ok();
    prop_assert_eq!(is_json_char(token), char_ok, "char {:?}", token);
    Ok(())
}

/// Random `minItems` / `maxItems`, each possibly absent.
fn bounds() -> impl Strategy<Value = Bounds> {
    (prop::option::of(0usize..5), prop::option::of(0usize..5))
        .prop_map(|(min, max)| Bounds::new(min, max))
}

/// Whitespace, mostly JSON whitespace; form feed and U+00A0 are not JSON whitespace.
fn ws() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        40 => select(vec!["", "", "", " ", "\n", "\t ", "\r\n"]),
        1 => select(vec!["\u{c}", "\u{a0}"]),
    ]
}

/// Characters for decoded strings: anything, with the troublesome ones made common.
fn text_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => any::<char>(),
        2 => prop::char::range('a', 'z'),
        2 => select(vec!['"', '\\', '\0', '\u{1f}', '\n', '\u{7f}', 'é', '😀', '\u{feff}', '\u{a0}', '/']),
    ]
}

/// A piece of a string literal body: mostly valid, sometimes not.
fn string_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => any::<char>()
            .prop_map(|c| if c == '"' || c == '\\' || c < ' ' { '?' } else { c }) // plain chars only
            .prop_map(String::from),
        5 => "[a-z .é😀\u{7f}\u{a0}]{1,4}",
        4 => select(vec![
            "\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t", "\\u00e9", "\\u0041", "\\u0000",
            "\\u001F", "\\uD83D\\uDE00", "\\ud83d\\ude00", "\\uDBFF\\uDFFF", "\\uFFFF",
        ])
        .prop_map(String::from),
        1 => select(vec![
            "\\ud800", "\\udc00", "\\udc00\\ud800", "\\ud800\\ud800", "\\ud800\\n", "\\ud800x",
            "\\ud800\\u0041", "\\ud800\\", "\\ud800\\u", "\\u12", "\\uZZZZ", "\\u+123", "\\a", "\\x41",
            "\\", "\"", "\u{0}", "\u{1}", "\u{1f}", "\t", "\n",
        ])
        .prop_map(String::from),
    ]
}

/// A string literal token built from [`string_piece`]s.
fn string_token() -> impl Strategy<Value = String> {
    prop::collection::vec(string_piece(), 0..5)
        .prop_map(|pieces| format!("\"{}\"", pieces.concat()))
}

/// JSON-ish values, mostly valid, with nested arrays and objects.
fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        3 => string_token(),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => any::<u32>().prop_map(|n| n.to_string()),
        1 => any::<f64>().prop_map(|f| f.to_string()),
        1 => any::<f64>().prop_map(|f| format!("{f:e}")),
        2 => select(vec![
            "true", "false", "null", "0", "-0", "0.5", "-1.5e-3", "1E+2", "1e-400", "4294967296",
            "18446744073709551616", "-9223372036854775809", "\"x\"", "[]", "{}",
        ])
        .prop_map(String::from),
        1 => select(vec![
            "1e400", "-1e400", "01", "1.", "-", "1e", ".5", "+1", "tru", "nul", "NaN", "\"\\ud800\"",
        ])
        .prop_map(String::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec((ws(), inner.clone(), ws()), 0..4).prop_map(|items| {
                let items: Vec<String> = items
                    .into_iter()
                    .map(|(a, v, b)| format!("{a}{v}{b}"))
                    .collect();
                format!("[{}]", items.join(","))
            }),
            prop::collection::vec((string_token(), ws(), inner), 0..4).prop_map(|entries| {
                let entries: Vec<String> = entries
                    .into_iter()
                    .map(|(k, s, v)| format!("{k}{s}:{s}{v}"))
                    .collect();
                format!("{{{}}}", entries.join(","))
            }),
        ]
    })
}

/// A list written as text: `[` elements `]` with random whitespace around everything.
fn list_text() -> impl Strategy<Value = String> {
    (
        ws(),
        prop::collection::vec((ws(), json_value(), ws()), 0..6),
        ws(),
    )
        .prop_map(|(lead, items, tail)| {
            let items: Vec<String> = items
                .into_iter()
                .map(|(a, v, b)| format!("{a}{v}{b}"))
                .collect();
            format!("{lead}[{}]{tail}", items.join(","))
        })
}

/// A real `Vec<String>` serialized by serde_json (compact or pretty).
fn serialized_strings() -> impl Strategy<Value = String> {
    let string = prop::collection::vec(text_char(), 0..8).prop_map(String::from_iter);
    (prop::collection::vec(string, 0..6), any::<bool>()).prop_map(|(v, pretty)| {
        if pretty {
            serde_json::to_string_pretty(&v)
        } else {
            serde_json::to_string(&v)
        }
        .unwrap()
    })
}

/// No change half the time, otherwise one or two edits with JSON-ish chars.
fn edits() -> impl Strategy<Value = Vec<TextEdit>> {
    let c = || select(ALPHABET.chars().collect::<Vec<_>>());
    let edit = prop_oneof![
        1 => any::<Index>().prop_map(TextEdit::Truncate),
        3 => (any::<Index>(), c()).prop_map(|(i, c)| TextEdit::Insert(i, c)),
        3 => any::<Index>().prop_map(TextEdit::Delete),
        3 => (any::<Index>(), c()).prop_map(|(i, c)| TextEdit::Replace(i, c)),
    ];
    prop_oneof![Just(Vec::new()), prop::collection::vec(edit, 1..3)]
}

/// One container per entry of `kinds` (true = object, but the outermost is always an array),
/// innermost holding `inner`.
fn nested(kinds: &[bool], inner: &str) -> String {
    let mut text = String::new();
    for (k, &object) in kinds.iter().enumerate() {
        text.push_str(if object && k > 0 { "{\"k\":" } else { "[" });
    }
    text.push_str(inner);
    for (k, &object) in kinds.iter().enumerate().rev() {
        text.push(if object && k > 0 { '}' } else { ']' });
    }
    text
}

/// `is_text_list` for `String` items, with serde_json as the element check.
fn strings(text: &str, bounds: Bounds) -> bool {
    is_text_list(text, |e| serde_json::from_str::<String>(e).is_ok(), bounds)
}

#[test]
fn spec_table() {
    assert!(strings(r#"["a","b"]"#, Bounds::NONE));
    assert!(strings(" [\"a\"]\n", Bounds::NONE));
    assert!(strings("[]", Bounds::NONE));
    assert!(is_text_list("[]", |_| false, Bounds::NONE));
    assert!(is_text_list(
        " [\t\"a.png\" ,\r\n \"b.png\" ] ",
        is_json_string,
        Bounds::new(Some(2), Some(2))
    ));
    for no in [
        "[preview].png",
        "[1,2",
        r#"["a", "b""#,
        r#"["a", "b"] x"#,
        r#"["a"] ]"#,
        "[\"a\"]\u{a0}",
        "plain",
        "123",
        r#"[{"a":1}]"#,
        "\u{a0}[\"a\"]",
        "\u{feff}[\"a\"]",
        "",
    ] {
        assert!(!strings(no, Bounds::NONE), "{no:?}");
    }
    assert!(!strings(r#"["a","b"]"#, Bounds::new(None, Some(1))));
    assert!(!strings(r#"["a","b"]"#, Bounds::new(Some(3), None)));
    assert!(!strings("[]", Bounds::new(Some(1), None)));
    assert!(!is_text_list(
        r#"["a"]"#,
        |e| serde_json::from_str::<u32>(e).is_ok(),
        Bounds::NONE
    ));
    assert!(is_text_list(
        "[1, 2]",
        |e| serde_json::from_str::<u32>(e).is_ok(),
        Bounds::NONE
    ));
}

#[test]
fn syntax_table_matches_oracle() {
    let yes = [
        r#"[{"a":1,"a":2}]"#,
        r#"[-0, 1.5e+3, 1E2, true, false, null, "x", [], {}, [[1], {"k": [null]}]]"#,
        r#"["\u00e9\uD83D\uDE00\/\b\f\n\r\t\"\\", "\u007f"]"#,
        "[123456789012345678901234567890]",
    ];
    let no = [
        "[1,]",
        "[,1]",
        "[1 2]",
        r#"["a"]x"#,
        "[01]",
        "[1.]",
        "[-]",
        "[1e]",
        "[.5]",
        "[+1]",
        "[tru]",
        "[truex]",
        "[nul]",
        r#"[{"a" 1}]"#,
        r#"[{"a":1,}]"#,
        r#"[{a:1}]"#,
        r#"[{"a":}]"#,
        "[{,}]",
        "[[]",
        "[]]",
        "[}",
        r#"["\a"]"#,
        r#"["\u12"]"#,
        "[\"\u{1f}\"]",
        r#"[["\x"]]"#,
        "[{\"k\":\"\n\"}]",
        r#"[{"\q":1}]"#,
        r#"[[1,]]"#,
        "[1e400]",
        "[NaN]",
        "\u{c}[]",
        "[\u{c}]",
        "[1\u{b}]",
        "[]\u{c}",
        r#"["a"]["b"]"#,
        "[\"a]",
        r#"["\"]"#,
    ];
    for text in yes {
        assert!(
            is_text_list(
                text,
                |e| serde_json::from_str::<Value>(e).is_ok(),
                Bounds::NONE
            ),
            "{text}"
        );
    }
    for text in no {
        assert!(
            !is_text_list(
                text,
                |e| serde_json::from_str::<Value>(e).is_ok(),
                Bounds::NONE
            ),
            "{text}"
        );
    }
    for text in yes.iter().chain(&no) {
        check_list(text, Bounds::NONE).unwrap();
    }
}

#[test]
fn lone_surrogates_are_left_to_the_element_check() {
    // serde_json only pairs surrogates when it builds a `String`; values it skips may hold them.
    assert!(is_text_list(
        r#"["\ud800", {"k": "\udc00"}]"#,
        |_| true,
        Bounds::NONE
    ));
    assert!(!is_text_list(r#"["\ud800"]"#, is_json_string, Bounds::NONE));
    assert!(!is_text_list(
        r#"[{"k": "\udc00"}]"#,
        |e| serde_json::from_str::<Value>(e).is_ok(),
        Bounds::NONE
    ));
}

#[test]
fn elements_are_passed_exactly_and_scanning_stops_early() {
    let mut seen = Vec::new();
    let text = " [ \"a\" , 1 ,{\"k\" : [ ]}\n,-2.5e3 ] ";
    assert!(is_text_list(
        text,
        |e| {
            seen.push(e.to_owned());
            true
        },
        Bounds::NONE
    ));
    assert_eq!(seen, ["\"a\"", "1", "{\"k\" : [ ]}", "-2.5e3"]);

    let mut calls = 0;
    assert!(!is_text_list(
        r#"["a","b","c"]"#,
        |_| {
            calls += 1;
            true
        },
        Bounds::new(None, Some(1))
    ));
    assert_eq!(calls, 1);
    calls = 0;
    assert!(!is_text_list(
        r#"[1, "x", "y"]"#,
        |_| {
            calls += 1;
            false
        },
        Bounds::NONE
    ));
    assert_eq!(calls, 1);
    calls = 0;
    assert!(!is_text_list(
        "[preview].png",
        |_| {
            calls += 1;
            true
        },
        Bounds::NONE
    ));
    assert!(!is_text_list(
        "[\"a\"",
        |_| {
            calls += 1;
            true
        },
        Bounds::new(None, Some(0))
    ));
    assert_eq!(calls, 0);
}

#[test]
fn recursion_limit_matches_serde_json() {
    for depth in 1..=135 {
        let text = nested(&vec![false; depth], "");
        let value = is_text_list(
            &text,
            |e| serde_json::from_str::<Value>(e).is_ok(),
            Bounds::NONE,
        );
        assert_eq!(value, depth <= 127, "depth {depth}");
        check_list(&text, Bounds::NONE).unwrap();
        let mut mixed: Vec<bool> = (0..depth).map(|k| k % 3 == 1).collect();
        check_list(&nested(&mixed, "1"), Bounds::NONE).unwrap();
        mixed.iter_mut().for_each(|k| *k = !*k);
        check_list(&format!("[0,{}]", nested(&mixed, "{}")), Bounds::NONE).unwrap();
    }
    // Nesting well past any fixed stack is refused without growing the stack.
    let huge = "[".repeat(1 << 20);
    assert!(!is_text_list(&huge, |_| true, Bounds::NONE));
}

#[test]
fn string_token_table() {
    let yes = [
        r#""""#,
        r#""a""#,
        r#""\uD83D\uDE00""#,
        r#""\ud83d\ude00""#,
        r#""\uDBFF\uDFFF""#,
        r#""\u0000""#,
        r#""\/\b\f\n\r\t\"\\""#,
        "\"\u{7f}\u{a0}é😀\"",
    ];
    let no = [
        r#""\ud800""#,
        r#""\ud800x""#,
        r#""\ud800\n""#,
        r#""\ud800\ud800""#,
        r#""\udc00""#,
        r#""\udc00\ud800""#,
        r#""\ud800\u0041""#,
        r#""\ud800\""#,
        r#""\uZZZZ""#,
        r#""\a""#,
        "\"\u{1f}\"",
        "\"\0\"",
        r#"""#,
        r#""a"#,
        "a",
        "",
        r#" "a""#,
        r#""a" "#,
        r#""a""b""#,
        r#""\""#,
    ];
    for token in yes {
        assert!(is_json_string(token), "{token}");
    }
    for token in no {
        assert!(!is_json_string(token), "{token}");
    }
    for token in yes.iter().chain(&no) {
        check_token(token).unwrap();
    }
    let mut decoded = String::new();
    assert!(decode_json_string(r#""a\u00e9\n\uD83D\uDE00z""#, |c| {
        decoded.push(c)
    }));
    assert_eq!(decoded, "aé\n😀z");
    assert!(is_json_char(r#""\uD83D\uDE00""#));
    assert!(is_json_char("\"é\""));
    assert!(!is_json_char(r#""ab""#));
    assert!(!is_json_char(r#""""#));
}

#[test]
fn bounds_api() {
    assert_eq!(Bounds::new(None, None), Bounds::NONE);
    assert!(Bounds::NONE.is_none());
    assert!(!Bounds::new(Some(1), None).is_none());
    assert!(!Bounds::new(None, Some(3)).is_none());
    let b = Bounds::new(Some(1), Some(2));
    assert_eq!((b.min, b.max), (1, 2));
    assert!(!b.contains(0) && b.contains(1) && b.contains(2) && !b.contains(3));
    assert!(Bounds::NONE.contains(0) && Bounds::NONE.contains(usize::MAX));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(stitch_tests::cases(512)))]

    #[test]
    fn mutated_serialized_strings_match_oracle(text in serialized_strings(), edits in edits(), bounds in bounds()) {
        check_list(&apply(&text, &edits), bounds)?;
    }

    #[test]
    fn mutated_json_lists_match_oracle(text in list_text(), edits in edits(), bounds in bounds()) {
        check_list(&apply(&text, &edits), bounds)?;
    }

    #[test]
    fn arbitrary_text_matches_oracle(
        text in prop_oneof![
            any::<String>(),
            (any::<bool>(), r#"[\[\]{}",:\\u0-9a-fntrlE+. \t\n\r-]{0,30}"#)
                .prop_map(|(open, s)| if open { format!("[{s}") } else { s }),
        ],
        bounds in bounds(),
    ) {
        check_list(&text, bounds)?;
    }

    #[test]
    fn deep_nesting_matches_oracle(
        depth in 118usize..=134,
        kinds in prop::collection::vec(any::<bool>(), 134),
        inner in select(vec!["", "1", "\"s\"", "[]", "{}", "[1,]", "{\"a\":[]}"]),
        prefix in select(vec!["", "0,", "[],", "{\"k\":{}},"]),
        edits in prop::collection::vec(edits(), 0..2),
    ) {
        let body = nested(&kinds[..depth], inner);
        let text = if prefix.is_empty() { body } else { format!("[{prefix}{body}]") };
        let text = edits.iter().fold(text, |t, e| apply(&t, e));
        check_list(&text, Bounds::NONE)?;
    }

    #[test]
    fn string_tokens_match_oracle(token in string_token(), edits in edits(), ws in (ws(), ws())) {
        let token = apply(&token, &edits);
        check_token(&token)?;
        check_token(&format!("{}{token}{}", ws.0, ws.1))?;
    }

    #[test]
    fn arbitrary_tokens_match_oracle(token in prop_oneof![any::<String>(), r#""[a-z\\"u0-9A-F \x00-\x1f]{0,12}"?"#]) {
        check_token(&token)?;
    }
}
