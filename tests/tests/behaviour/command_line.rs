//! The command-line surface: `T::from_argv`.

use serde::Deserialize;
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
use stitch_tests::issues;
use stitch_tests::tools::{Act, Action, EntryKind, Search, ViewFile};

#[test]
fn flags_take_values_by_wire_name_or_kebab_case() {
    let got = Search::from_argv(
        "search",
        [
            "--query",
            "fox",
            "--max-hits",
            "5",
            "--maxHits=5",
            "--case-sensitive",
        ],
    );
    // `--max-hits` and `--maxHits` are the same flag, so it was given twice.
    let err = got.unwrap_err();
    assert_eq!(issues(&err), [("maxHits".to_owned(), IssueKind::Usage)]);
    assert_eq!(
        err.to_string(),
        "`--max-hits` is given 2 times but takes one value"
    );

    let got = Search::from_argv(
        "search",
        ["--query=fox", "--maxHits", "5", "--case-sensitive"],
    )
    .unwrap();
    assert_eq!(got.query, "fox");
    assert_eq!(got.max_hits, 5);
    assert!(got.case_sensitive);
    assert_eq!(got.tags, None);
}

#[test]
fn repeated_flags_make_a_list_and_once_is_one_value() {
    let one = ViewFile::from_argv("view", ["--paths", "a.png"]).unwrap();
    assert_eq!(one.paths, OneOrMany::One("a.png".to_owned()));
    let many =
        ViewFile::from_argv("view", ["--paths", "a.png", "--paths", "[preview].png"]).unwrap();
    assert_eq!(
        many.paths,
        OneOrMany::Many(vec!["a.png".into(), "[preview].png".into()])
    );
    let plain = ViewFile::from_argv("view", ["--paths", "[preview].png"]).unwrap();
    assert_eq!(plain.paths, OneOrMany::One("[preview].png".to_owned()));
}

#[test]
fn a_list_written_as_text_is_refused_as_on_mcp() {
    let err = ViewFile::from_argv("view", ["--paths", "[\"a.png\", \"b.png\"]"]).unwrap_err();
    assert_eq!(issues(&err), [("paths".to_owned(), IssueKind::TextList)]);
    assert_eq!(
        err.to_string(),
        "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
    );
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Tagging {
    tags: Vec<String>,
    #[serde(default)]
    sizes: Vec<u32>,
    #[serde(default)]
    flag: bool,
}

#[test]
fn list_fields_take_items_or_json_text() {
    let got = Tagging::from_argv(
        "tag",
        ["--tags", "a", "--tags", "b", "--sizes", "1", "--sizes", "2"],
    )
    .unwrap();
    assert_eq!(got.tags, ["a", "b"]);
    assert_eq!(got.sizes, [1, 2]);
    let got = Tagging::from_argv("tag", ["--tags", "[\"x\", \"y\"]", "--flag=false"]).unwrap();
    assert_eq!(got.tags, ["x", "y"]);
    assert!(!got.flag);
    let err = Tagging::from_argv("tag", ["--tags", "a", "--sizes", "many"]).unwrap_err();
    assert_eq!(issues(&err), [("sizes.0".to_owned(), IssueKind::Invalid)]);
}

#[test]
fn structured_fields_take_json_text() {
    let got = Act::from_argv(
        "act",
        ["--action", r#"{"action": "delete", "paths": ["a", "b"]}"#],
    )
    .unwrap();
    assert_eq!(
        got.action,
        Action::Delete {
            paths: OneOrMany::Many(vec!["a".into(), "b".into()])
        }
    );
    let got = Search::from_argv(
        "search",
        ["--query", "q", "--filters", r#"{"kinds": ["dir"]}"#],
    )
    .unwrap();
    assert_eq!(got.filters.kinds, [EntryKind::Dir]);
}

#[test]
fn mistakes_name_the_flag() {
    let err = ViewFile::from_argv("view", ["--path", "a", "--max-pixels", "7", "b", "--paths"])
        .unwrap_err();
    let messages: Vec<&str> = err.issues().iter().map(|i| i.message()).collect();
    assert_eq!(
        messages,
        [
            "unknown flag `--path`; expected one of --max-pixels, --paths",
            "unexpected argument `b`; a value follows its flag, as in `--name value`",
            "`--paths` needs a value",
        ]
    );
    assert!(err.issues().iter().all(|i| i.kind() == IssueKind::Usage));
    let err = ViewFile::from_argv("view", ["--paths", "a", "--max-pixels", "lots"]).unwrap_err();
    assert_eq!(
        issues(&err),
        [("max_pixels".to_owned(), IssueKind::Invalid)]
    );
    let err = ViewFile::from_argv("view", Vec::<String>::new()).unwrap_err();
    assert_eq!(err.to_string(), "paths: missing field `paths`");
}

#[test]
fn help_comes_from_the_doc_comments() {
    let err = Search::from_argv("search", ["--help"]).unwrap_err();
    assert_eq!(err.issues()[0].kind(), IssueKind::Help);
    let help = err.issues()[0].message();
    assert!(
        help.starts_with("usage: search [FLAGS]\n\nSearch the workspace for a text.\n"),
        "{help}"
    );
    assert!(help.contains("--query <text>"), "{help}");
    assert!(help.contains("(required) The text to look for."), "{help}");
    assert!(help.contains("--case-sensitive "), "{help}");
    assert!(help.contains("--tags <value>..."), "{help}");
    assert!(help.contains("--filters <json>"), "{help}");
}
