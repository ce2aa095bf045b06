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

/// Found in review: an untagged enum that nests itself, where every level needs a repair and
/// serde accepts no level as sent, was decided by walking each level's value several times
/// (a probe, serde's pick, each member's trial), so the time grew as 3 to the power of the
/// nesting: sixty levels never finished. Untagged decisions now search their members' repairs
/// only a few levels deep; deeper ones take serde's verdict on the value as sent, so this
/// finishes at once and every surface gives the same answer.
#[derive(Debug, PartialEq, serde::Deserialize, ToolArgs)]
#[serde(untagged)]
enum Tree {
    Branch(Vec<Tree>),
    Leaf(Vec<u32>),
}

#[derive(Debug, PartialEq, serde::Deserialize, ToolArgs)]
struct Forest {
    t: Tree,
}

fn nested(levels: usize) -> String {
    format!(
        r#"{{"t":{}"[1]"{}}}"#,
        "[".repeat(levels),
        "]".repeat(levels)
    )
}

#[test]
fn nested_untagged_enums_are_decided_in_time_linear_in_the_value() {
    // Shallow: the repair is found, as the untagged rule says (`["[1]"]` is a branch holding
    // a leaf written as text).
    let shallow = Forest::from_json(&nested(2)).unwrap();
    assert_eq!(
        shallow.t,
        Tree::Branch(vec![Tree::Branch(vec![Tree::Leaf(vec![1])])])
    );
    // Deep: decided at once, the same on both surfaces, refused with serde's message.
    on_small_stack(|| {
        let text = nested(60);
        let from_json = Forest::from_json(&text).unwrap_err();
        let value: Value = serde_json::from_str(&text).unwrap();
        let from_value = Forest::from_value(value).unwrap_err();
        assert_eq!(from_json, from_value);
        assert_eq!(from_json.issues()[0].kind(), IssueKind::Invalid);
        assert!(
            from_json.to_string().contains("untagged enum Tree"),
            "{from_json}"
        );
    });
}
