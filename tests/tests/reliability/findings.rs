//! Minimal reproducers of what the fuzzing found in `from_json`'s fast path, kept as
//! regression tests now that each is fixed (RELIABILITY.md lists them). What is still open is
//! `#[ignore]`d with the reason in `depth.rs`.

use serde_json::Value;
use stitch_runtime::{IssueKind, ToolArgs};
use stitch_tests::tools::Paths;
use stitch_tests::{issues, on_small_stack};

/// Found by the `from_json` target (`{"tags":"falsetr[\"##k$####\udc00###]"}` for a type
/// without `tags`). `from_json`'s fast path deserializes plain text with
/// `serde_json::from_str::<T>`, which skips the value of an unknown key without validating
/// its `\u` escapes; the text is not JSON (`serde_json::from_str::<Value>` refuses it), and
/// `from_value` can never see it.
#[test]
fn from_json_refuses_text_that_is_not_json_inside_an_unknown_key() {
    let text = r#"{"paths":"a.png","note":"x\udc00"}"#;
    assert!(serde_json::from_str::<Value>(text).is_err());
    let err = Paths::from_json(text).expect_err("not JSON, yet accepted");
    assert_eq!(issues(&err), [(String::new(), IssueKind::Invalid)]);
}

/// The same fast path skips an unknown key's value with serde_json's iterative skipper, which
/// has no depth limit: text nested 100 000 levels deep there is accepted by `from_json`,
/// while the same arguments through `from_value` are refused (rule R7).
#[test]
fn from_json_refuses_deep_nesting_inside_an_unknown_key() {
    on_small_stack(|| {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        let text = format!(r#"{{"paths":"a.png","junk":{deep}}}"#);
        let err = Paths::from_json(&text).expect_err("100 000 levels accepted");
        assert_eq!(err.issues()[0].kind(), IssueKind::TooDeep);
    });
}

/// Found by the `text_list` target (`{"pick":"  \r\r [\r0 ]"}` for a string-bearing untagged
/// enum). A list written as text that starts with a space and then an escape in the arguments'
/// text (`\n`, `\r`, `\t`, or `\u005b` for the `[` itself) slips through `from_json`: the
/// fast path's `string_is_plain` sees a space, skips the spaces, finds `\` rather than `[` or
/// `{` and calls the string plain, so serde reads it as one value. `from_value` and
/// `coerce_value` refuse it (rule R3: leading JSON whitespace is space, tab, LF, CR).
#[test]
fn from_json_refuses_a_text_list_after_a_space_and_an_escape() {
    let texts = [
        r#"{"paths":" \n[\"a.png\"]"}"#,
        r#"{"paths":"  \t [\"a.png\"]"}"#,
        r#"{"paths":" \r\n[\"a.png\"]"}"#,
        r#"{"paths":" \u005b\"a.png\"]"}"#,
    ];
    for text in texts {
        let parsed: Value = serde_json::from_str(text).unwrap();
        let err = Paths::from_value(parsed).unwrap_err();
        assert_eq!(issues(&err), [("paths".to_owned(), IssueKind::TextList)]);
    }
    let accepted: Vec<String> = texts
        .into_iter()
        .filter_map(|text| {
            let args = Paths::from_json(text).ok()?;
            Some(format!("{text} -> {args:?}"))
        })
        .collect();
    assert!(
        accepted.is_empty(),
        "from_json accepted:\n{}",
        accepted.join("\n")
    );
}
