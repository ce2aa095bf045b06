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
    // On a command line the list is the flag repeated: the message says so.
    assert_eq!(
        err.to_string(),
        "`--paths` is a list written as text \u{2014} repeat the flag for each item \
         (`--paths a --paths b`), not JSON written as text"
    );
    // As the flag was written.
    let err = ViewFile::from_argv("view", ["--paths=[\"a.png\"]"]).unwrap_err();
    assert!(err.to_string().starts_with("`--paths` is a list"), "{err}");
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
fn a_list_flag_given_once_is_the_whole_list_only_when_it_is_a_json_array() {
    // Text that starts with `[` but is no JSON array is one item.
    for text in ["[preview].png", " [x", "[1,2", "[\"a\"] b", "[]x"] {
        let got = Tagging::from_argv("tag", ["--tags", text]).unwrap();
        assert_eq!(got.tags, [text], "{text}");
    }
    let got = Tagging::from_argv("tag", ["--sizes", "[1,2", "--tags", "a"]).unwrap_err();
    assert_eq!(issues(&got), [("sizes.0".to_owned(), IssueKind::Invalid)]);
    // A JSON array, surrounding whitespace allowed, is the whole list, repaired by R1.
    let got = Tagging::from_argv("tag", ["--tags", " [\"x\"] ", "--sizes", "[1, 2]"]).unwrap();
    assert_eq!(got.tags, ["x"]);
    assert_eq!(got.sizes, [1, 2]);
    let got = Tagging::from_argv("tag", ["--tags", "[]"]).unwrap();
    assert!(got.tags.is_empty());
    // Items R1 cannot repair are refused as on MCP, not swallowed as one item.
    // The same issue, said of the flag.
    let err = Tagging::from_argv("tag", ["--tags", "a", "--sizes", "[1, \"x\"]"]).unwrap_err();
    let mcp = Tagging::from_value(serde_json::json!({"tags": ["a"], "sizes": "[1, \"x\"]"}));
    let mcp = mcp.unwrap_err();
    assert_eq!(issues(&err), issues(&mcp));
    assert_eq!(
        mcp.to_string(),
        "sizes.1: invalid type: string \"x\", expected u32"
    );
    assert_eq!(
        err.to_string(),
        "`--sizes.1`: invalid type: string \"x\", expected u32"
    );
}

/// Run a job.
#[derive(Debug, Deserialize, ToolArgs)]
struct Job {
    /// How long to wait.
    #[serde(default = "default_timeout")]
    timeout_secs: u32,
    /// How to run it.
    #[serde(default)]
    mode: Mode,
    /// Where to send the result.
    #[serde(default)]
    to: OneOrMany<String>,
    /// Labels by name.
    #[serde(default)]
    labels: std::collections::BTreeMap<String, u32>,
}

fn default_timeout() -> u32 {
    30
}

#[derive(Debug, Default, Deserialize, ToolArgs, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Mode {
    #[default]
    Fast,
    Careful,
}

#[test]
fn type_errors_name_the_flag_as_it_was_written() {
    let err = Job::from_argv("job", ["--timeout-secs", "soon"]).unwrap_err();
    assert_eq!(
        issues(&err),
        [("timeout_secs".to_owned(), IssueKind::Invalid)]
    );
    assert_eq!(
        err.to_string(),
        "`--timeout-secs`: invalid type: string \"soon\", expected u32"
    );
    let err = Job::from_argv("job", ["--timeout_secs=soon", "--mode", "slow"]).unwrap_err();
    let messages: Vec<&str> = err.issues().iter().map(|i| i.message()).collect();
    assert_eq!(
        messages,
        [
            "`--timeout_secs`: invalid type: string \"soon\", expected u32",
            "`--mode`: unknown variant `slow`, expected `fast` or `careful`",
        ]
    );
    // The same call from MCP names the fields.
    let mcp = Job::from_value(serde_json::json!({"timeout_secs": "soon"})).unwrap_err();
    assert_eq!(
        mcp.to_string(),
        "timeout_secs: invalid type: string \"soon\", expected u32"
    );
}

#[test]
fn help_shows_choices_and_defaults() {
    let err = Job::from_argv("job", ["--help"]).unwrap_err();
    let help = err.issues()[0].message();
    let line = |flag: &str| {
        help.lines()
            .find(|l| l.trim_start().starts_with(flag))
            .unwrap_or_else(|| panic!("no {flag} in {help}"))
            .to_owned()
    };
    assert!(
        line("--mode").ends_with("How to run it. [one of: fast, careful]"),
        "{help}"
    );
    // The defaults the schema knows (a std type's `Default`); a user's function is not.
    assert!(
        line("--labels").ends_with("Labels by name. [default: {}]"),
        "{help}"
    );
    assert!(line("--to").ends_with("[default: []]"), "{help}");
    assert!(
        line("--timeout-secs").ends_with("How long to wait."),
        "{help}"
    );
}

#[test]
fn a_map_key_holding_a_dot_is_written_in_brackets() {
    let args = serde_json::json!({"labels": {"team.name": "x", "team": 1}});
    let err = Job::from_value(args.clone()).unwrap_err();
    assert_eq!(
        issues(&err),
        [(r#"labels["team.name"]"#.to_owned(), IssueKind::Invalid)]
    );
    assert_eq!(
        err.to_string(),
        r#"labels["team.name"]: invalid type: string "x", expected u32"#
    );
    let from_json = Job::from_json(&args.to_string()).unwrap_err();
    assert_eq!(issues(&from_json), issues(&err));
    let err = Job::from_argv("job", ["--labels", r#"{"team.name": "x"}"#]).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"`--labels["team.name"]`: invalid type: string "x", expected u32"#
    );
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
    assert_eq!(issues(&err), [("paths".to_owned(), IssueKind::Usage)]);
    assert_eq!(err.to_string(), "missing required flag `--paths`");
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Copy {
    to: String,
    max_hits: u32,
    from: OneOrMany<String>,
    #[serde(default)]
    note: String,
}

#[test]
fn every_missing_flag_is_named_in_field_order_with_the_other_issues() {
    let err = Copy::from_argv("copy", Vec::<String>::new()).unwrap_err();
    let messages: Vec<&str> = err.issues().iter().map(|i| i.message()).collect();
    assert_eq!(
        messages,
        [
            "missing required flag `--to`",
            "missing required flag `--max-hits`",
            "missing required flag `--from`",
        ]
    );
    assert!(err.issues().iter().all(|i| i.kind() == IssueKind::Usage));
    // A value given alongside is still checked, in the same refusal.
    let err = Copy::from_argv("copy", ["--to", "dir", "--max-hits", "lots"]).unwrap_err();
    assert_eq!(
        issues(&err),
        [
            ("from".to_owned(), IssueKind::Usage),
            ("max_hits".to_owned(), IssueKind::Invalid),
        ]
    );
    // A flag written without its value is named once, not again as missing.
    let err = Copy::from_argv("copy", ["--to", "dir", "--max-hits", "1", "--from"]).unwrap_err();
    assert_eq!(err.to_string(), "`--from` needs a value");
}

#[test]
fn a_boolean_flag_takes_its_value_after_equals() {
    for word in ["false", "true"] {
        let err = Tagging::from_argv("tag", ["--tags", "a", "--flag", word]).unwrap_err();
        assert_eq!(issues(&err), [("flag".to_owned(), IssueKind::Usage)]);
        assert_eq!(
            err.to_string(),
            format!("`--flag` takes no separate value; write `--flag={word}`")
        );
    }
    let got = Tagging::from_argv("tag", ["--flag", "--tags", "a"]).unwrap();
    assert!(got.flag);
    let got = Tagging::from_argv("tag", ["--flag=false", "--tags", "a"]).unwrap();
    assert!(!got.flag);
}

#[test]
fn a_bare_double_dash_ends_the_flags() {
    let got = Tagging::from_argv("tag", ["--tags", "a", "--"]).unwrap();
    assert_eq!(got.tags, ["a"]);
    // After `--`, `--flag` is no flag but a positional argument, which no tool takes.
    let err = Tagging::from_argv("tag", ["--tags", "a", "--", "--flag", "b"]).unwrap_err();
    let messages: Vec<&str> = err.issues().iter().map(|i| i.message()).collect();
    assert_eq!(
        messages,
        [
            "unexpected argument `--flag` after `--`; `tag` takes flags only, no positional arguments",
            "unexpected argument `b` after `--`; `tag` takes flags only, no positional arguments",
        ]
    );
    assert!(err.issues().iter().all(|i| i.kind() == IssueKind::Usage));
    // `--help` before `--` still answers.
    let err = Tagging::from_argv("tag", ["--help", "--", "x"]).unwrap_err();
    assert_eq!(err.issues()[0].kind(), IssueKind::Help);
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

// The flattened enums of every tagging are `flatten_enum.rs`'s.
use super::flatten_enum::{
    HoldsAdj as FlatAdj, HoldsExt as FlatExt, HoldsInt as FlatInt, HoldsOptAct as FlatOpt,
    HoldsUnt as FlatUnt,
};

/// `from_argv` on `argv` gives what `from_value` gives for `args`, and that is accepted.
fn argv_reads<T: ToolArgs + PartialEq + std::fmt::Debug>(argv: &[&str], args: serde_json::Value) {
    let by_value = T::from_value(args.clone()).unwrap_or_else(|e| panic!("{args}: {e}"));
    let by_argv = T::from_argv("t", argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
    assert_eq!(by_argv, by_value, "{argv:?}");
}

#[test]
fn a_flattened_enum_of_every_tagging_is_read_from_its_flags() {
    use serde_json::json;
    argv_reads::<FlatInt>(
        &[
            "--name", "a", "--op", "Move", "--paths", "x", "--paths", "y", "--n", "2",
        ],
        json!({"name": "a", "op": "Move", "paths": ["x", "y"], "n": 2}),
    );
    argv_reads::<FlatInt>(
        &["--name", "a", "--op", "Stop"],
        json!({"name": "a", "op": "Stop"}),
    );
    argv_reads::<FlatExt>(
        &["--name", "a", "--move", r#"{"paths": "x"}"#],
        json!({"name": "a", "Move": {"paths": "x"}}),
    );
    argv_reads::<FlatExt>(
        &["--name", "a", "--tag", "x", "--tag", "y"],
        json!({"name": "a", "Tag": ["x", "y"]}),
    );
    argv_reads::<FlatExt>(
        &["--name", "a", "--stop"],
        json!({"name": "a", "Stop": null}),
    );
    argv_reads::<FlatAdj>(
        &[
            "--name",
            "a",
            "--op",
            "Move",
            "--args",
            r#"{"paths": ["x"]}"#,
        ],
        json!({"name": "a", "op": "Move", "args": {"paths": ["x"]}}),
    );
    argv_reads::<FlatAdj>(
        &["--name", "a", "--op", "Stop"],
        json!({"name": "a", "op": "Stop"}),
    );
    argv_reads::<FlatUnt>(
        &["--name", "a", "--paths", "x"],
        json!({"name": "a", "paths": "x"}),
    );
    argv_reads::<FlatUnt>(
        &["--name", "a", "--code", "3"],
        json!({"name": "a", "code": 3}),
    );
    argv_reads::<FlatOpt>(&["--name", "a"], json!({"name": "a"}));
    argv_reads::<FlatOpt>(
        &["--name", "a", "--op", "Move", "--paths", "x"],
        json!({"name": "a", "op": "Move", "paths": "x"}),
    );
}

#[test]
fn a_flattened_enums_flags_are_refused_as_every_surface_refuses_them() {
    // A list written as text at a variant's one-or-many field: R3, said of the flag.
    let argv = ["--name", "a", "--op", "Move", "--paths", r#"["x", "y"]"#];
    let err = FlatInt::from_argv("t", argv).unwrap_err();
    assert_eq!(issues(&err), [("paths".to_owned(), IssueKind::TextList)]);
    let err = FlatUnt::from_argv("t", ["--name", "a", "--paths", r#"["x"]"#]).unwrap_err();
    assert_eq!(issues(&err), [("paths".to_owned(), IssueKind::TextList)]);
    let err =
        FlatExt::from_argv("t", ["--name", "a", "--move", r#"{"paths": "[\"x\"]"}"#]).unwrap_err();
    assert_eq!(
        issues(&err),
        [("Move.paths".to_owned(), IssueKind::TextList)]
    );
    // A constraint of the variant's.
    let err = FlatInt::from_argv(
        "t",
        ["--name", "a", "--op", "Move", "--paths", "x", "--n", "0"],
    )
    .unwrap_err();
    assert_eq!(issues(&err), [("n".to_owned(), IssueKind::Invalid)]);
    // The tag is required, as serde requires it; under an `Option`, it is not.
    let err = FlatInt::from_argv("t", ["--name", "a"]).unwrap_err();
    assert_eq!(err.to_string(), "missing required flag `--op`");
    let err = FlatInt::from_argv("t", ["--name", "a", "--op", "Go"]).unwrap_err();
    let by_value = FlatInt::from_value(serde_json::json!({"name": "a", "op": "Go"})).unwrap_err();
    assert_eq!(issues(&err), issues(&by_value));
}

#[test]
fn help_lists_a_flattened_enums_flags() {
    let help = |err: stitch_runtime::ArgsError| err.issues()[0].message().to_owned();
    let int = help(FlatInt::from_argv("t", ["--help"]).unwrap_err());
    let line = |help: &str, flag: &str| {
        help.lines()
            .find(|l| l.trim_start().starts_with(flag))
            .unwrap_or_else(|| panic!("no {flag} in {help}"))
            .to_owned()
    };
    assert!(
        line(&int, "--op <text>").ends_with("(required) [one of: Move, Stop]"),
        "{int}"
    );
    assert!(
        line(&int, "--paths <value>...").contains("One value"),
        "{int}"
    );
    assert!(
        line(&int, "--n <number>").ends_with("[at least 1]"),
        "{int}"
    );
    let ext = help(FlatExt::from_argv("t", ["--help"]).unwrap_err());
    line(&ext, "--move <json>");
    line(&ext, "--tag <item>...");
    assert_eq!(line(&ext, "--stop").trim(), "--stop", "{ext}");
    let adj = help(FlatAdj::from_argv("t", ["--help"]).unwrap_err());
    line(&adj, "--args <json>");
    let unt = help(FlatUnt::from_argv("t", ["--help"]).unwrap_err());
    line(&unt, "--code <number>");
    let opt = help(FlatOpt::from_argv("t", ["--help"]).unwrap_err());
    assert!(!line(&opt, "--op <text>").contains("required"), "{opt}");
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op")]
enum OpenOp {
    Move {
        paths: OneOrMany<String>,
    },
    Cut {
        n: u32,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct FlatOpen {
    name: String,
    #[serde(flatten)]
    act: OpenOp,
}

/// A flattened enum with `#[serde(other)]`: its tag flag takes any other name, and `--help`
/// says so in words (not the schema's placeholder for "any tag").
#[test]
fn a_flattened_enums_other_tag_is_any_other_name() {
    use serde_json::json;
    argv_reads::<FlatOpen>(
        &["--name", "a", "--op", "zzz"],
        json!({"name": "a", "op": "zzz"}),
    );
    let err = FlatOpen::from_argv("t", ["--help"]).unwrap_err();
    let text = err.issues()[0].message();
    assert!(text.contains("[one of: Move, Cut, (any other)]"), "{text}");
    assert!(!text.contains('\0'), "{text:?}");
}
