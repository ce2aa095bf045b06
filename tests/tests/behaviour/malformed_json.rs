//! Arguments that are not JSON at all (bare keys, single quotes, trailing commas, a markdown
//! fence): stitch refuses them, and a JSON syntax repairer put in front of `from_value` turns
//! them into JSON first, for a server that wants it. This is the README's "Malformed JSON"
//! example, run.
//!
//! Only the repairer's syntax step is used (`argmend::repair_json`): its schema step would
//! rewrite values (`"5"` to `5`) behind stitch's strict scalars.

use serde::Deserialize;
use serde_json::Value;
use stitch_runtime::{ArgsError, Issue, IssueKind, OneOrMany, ToolArgs};

/// Show one or more files.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct ViewFile {
    /// One path or a list of paths.
    paths: OneOrMany<String>,
    /// Largest side of an image, in pixels.
    #[serde(default)]
    max_pixels: Option<u32>,
}

/// The arguments' text, its syntax repaired when it is not JSON, then stitch's `from_value`.
fn from_model_text<T: ToolArgs>(text: &str) -> Result<T, ArgsError> {
    let value: Value = match argmend::repair_json(text) {
        argmend::RepairOutcome::Valid(value) | argmend::RepairOutcome::Repaired { value, .. } => {
            value
        }
        // Not JSON the repairer can read: stitch's own answer for text that is not JSON.
        argmend::RepairOutcome::Unfixable(_) | argmend::RepairOutcome::Ambiguous(_) => {
            return T::from_json(text);
        }
    };
    T::from_value(value)
}

fn only_issue(err: &ArgsError) -> &Issue {
    assert_eq!(err.issues().len(), 1, "{err}");
    &err.issues()[0]
}

#[test]
fn a_bare_key_holding_a_list_written_as_text_is_refused_by_name() {
    let text = r#"{paths: "[\"a.png\"]"}"#;
    // Without the repairer: not JSON, one refusal of the whole text.
    let err = ViewFile::from_json(text).unwrap_err();
    let issue = only_issue(&err);
    assert_eq!((issue.kind(), issue.path()), (IssueKind::Invalid, ""));
    assert!(issue.message().contains("not valid JSON"), "{issue}");
    // With it: stitch sees the arguments and names the field.
    let err = from_model_text::<ViewFile>(text).unwrap_err();
    let issue = only_issue(&err);
    assert_eq!((issue.kind(), issue.path()), (IssueKind::TextList, "paths"));
    assert_eq!(
        err.to_string(),
        "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
    );
}

#[test]
fn single_quotes_trailing_commas_and_fences_are_read() {
    let want = ViewFile {
        paths: OneOrMany::Many(vec!["a.png".into(), "b.png".into()]),
        max_pixels: Some(512),
    };
    for text in [
        r#"{'paths': ['a.png', 'b.png'], 'max_pixels': 512,}"#,
        "```json\n{\"paths\": [\"a.png\", \"b.png\"], \"max_pixels\": 512}\n```",
        r#"{paths: ["a.png", "b.png"], max_pixels: 512}"#,
    ] {
        assert!(
            ViewFile::from_json(text).is_err(),
            "stitch alone refuses {text}"
        );
        assert_eq!(from_model_text::<ViewFile>(text).unwrap(), want, "{text}");
    }
}

#[test]
fn the_syntax_step_leaves_stitchs_rules_in_charge() {
    // A number written as text stays text: stitch's strict scalars refuse it, by name.
    let err = from_model_text::<ViewFile>(r#"{paths: "a.png", max_pixels: "512"}"#).unwrap_err();
    let issue = only_issue(&err);
    assert_eq!(
        (issue.kind(), issue.path()),
        (IssueKind::Invalid, "max_pixels")
    );
    // A bracketed name stays one name.
    let one = from_model_text::<ViewFile>("{paths: '[preview].png'}").unwrap();
    assert_eq!(one.paths.as_slice(), ["[preview].png"]);
    // Valid JSON goes through unchanged.
    let ok = from_model_text::<ViewFile>(r#"{"paths": "a.png"}"#).unwrap();
    assert_eq!(ok.paths.as_slice(), ["a.png"]);
    // Text nothing can read is stitch's refusal of text that is not JSON.
    let err = from_model_text::<ViewFile>("paths please").unwrap_err();
    assert_eq!(only_issue(&err).path(), "");
}
