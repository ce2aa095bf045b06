//! Every issue at once, messages a model can act on, and the decisions taken.

use super::*;

// --- Every issue at once --------------------------------------------------------------------

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct FindFilters {
    extensions: OneOrMany<String>,
    case: bool,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct Find {
    query: String,
    max_hits: u32,
    filters: FindFilters,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub(super) struct IndexOpts {
    langs: OneOrMany<String>,
    #[serde(default)]
    follow: bool,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub(super) struct Index {
    root: String,
    opts: IndexOpts,
    #[serde(default)]
    depth: u8,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct Batch {
    items: Vec<MarkRow>,
}

#[test]
fn all_at_once_every_type_error_in_field_order() {
    let (paths, messages) = refusal(one_answer::<Find>(
        r#"{"query":"x","max_hits":"5","filters":{"extensions":["md"],"case":"yes"}}"#,
    ));
    assert_eq!(
        paths,
        [
            at("max_hits", IssueKind::Invalid),
            at("filters.case", IssueKind::Invalid),
        ]
    );
    assert_eq!(
        messages,
        [
            r#"max_hits: invalid type: string "5", expected u32"#,
            r#"filters.case: invalid type: string "yes", expected a boolean"#,
        ]
    );
}

#[test]
fn all_at_once_a_list_written_as_text_hides_no_type_error() {
    let (paths, messages) = refusal(one_answer::<Mark>(
        r#"{"file":5,"rows":[{"names":"[\"x\"]"}]}"#,
    ));
    assert_eq!(
        paths,
        [
            at("file", IssueKind::Invalid),
            at("rows.0.names", IssueKind::TextList),
        ]
    );
    assert_eq!(
        messages,
        [
            "file: invalid type: integer `5`, expected a string".to_owned(),
            text_list_message("rows.0.names"),
        ]
    );
}

#[test]
fn all_at_once_elements_by_index_each_at_its_path() {
    let (paths, messages) = refusal(one_answer::<Mark>(
        r#"{"file":"f","rows":[{"names":"[\"x\"]"},{"names":"ok"},{"names":7},{"names":"[\"y\"]"}]}"#,
    ));
    assert_eq!(
        paths,
        [
            at("rows.0.names", IssueKind::TextList),
            at("rows.2.names", IssueKind::Invalid),
            at("rows.3.names", IssueKind::TextList),
        ]
    );
    assert_eq!(
        messages,
        [
            text_list_message("rows.0.names"),
            "rows.2.names: invalid type: integer `7`, expected a string or an array of strings"
                .to_owned(),
            text_list_message("rows.3.names"),
        ]
    );
}

#[test]
fn all_at_once_missing_and_unknown_fields_at_their_paths() {
    let (paths, messages) = refusal(one_answer::<Index>(
        r#"{"extra":true,"root":7,"opts":{"follow":"yes","exclude":"x"},"depth":300}"#,
    ));
    assert_eq!(
        paths,
        [
            at("root", IssueKind::Invalid),
            at("opts.langs", IssueKind::Invalid),
            at("opts.follow", IssueKind::Invalid),
            at("opts.exclude", IssueKind::Invalid),
            at("depth", IssueKind::Invalid),
            at("extra", IssueKind::Invalid),
        ]
    );
    assert_eq!(
        messages,
        [
            "root: invalid type: integer `7`, expected a string",
            "opts.langs: missing field `langs`",
            r#"opts.follow: invalid type: string "yes", expected a boolean"#,
            "opts.exclude: unknown field `exclude`, expected `langs` or `follow`",
            "depth: invalid value: integer `300`, expected u8",
            "extra: unknown field `extra`, expected one of `root`, `opts`, `depth`",
        ]
    );
}

#[test]
fn all_at_once_a_missing_field_at_the_root_is_at_its_own_path() {
    let (paths, messages) = refusal(one_answer::<Mark>(r#"{"rows":[{}]}"#));
    assert_eq!(
        paths,
        [
            at("file", IssueKind::Invalid),
            at("rows.0.names", IssueKind::Invalid),
        ]
    );
    assert_eq!(
        messages,
        [
            "file: missing field `file`",
            "rows.0.names: missing field `names`",
        ]
    );
}

#[test]
fn all_at_once_up_to_the_cap_in_order() {
    // 25 rows: a list written as text at each even index, a number at each odd one.
    let rows: Vec<Value> = (0..25)
        .map(|i| {
            if i % 2 == 0 {
                json!({"names": "[\"x\"]"})
            } else {
                json!({"names": i})
            }
        })
        .collect();
    let text = json!({ "items": rows }).to_string();
    let err = one_answer::<Batch>(&text).unwrap_err();
    assert_eq!(err.issues().len(), MAX_ISSUES);
    assert_eq!(err.omitted(), 25 - MAX_ISSUES);
    for (i, issue) in err.issues().iter().enumerate() {
        let path = format!("items.{i}.names");
        assert_eq!(issue.path(), path);
        if i % 2 == 0 {
            assert_eq!(issue.kind(), IssueKind::TextList);
            assert_eq!(issue.message(), text_list_message(&path));
        } else {
            assert_eq!(issue.kind(), IssueKind::Invalid);
            assert_eq!(
                issue.message(),
                format!(
                    "{path}: invalid type: integer `{i}`, expected a string or an array of strings"
                )
            );
        }
    }
}

// --- Messages a model can act on ------------------------------------------------------------

#[test]
fn message_a_one_or_many_says_what_it_takes() {
    for (sent, what) in [("null", "null"), ("5", "integer `5`"), ("{}", "map")] {
        let text = format!(r#"{{"paths":{sent}}}"#);
        let (paths, messages) = refusal(one_answer::<ViewFile>(&text));
        assert_eq!(paths, [at("paths", IssueKind::Invalid)], "{text}");
        assert_eq!(
            messages,
            [format!(
                "paths: invalid type: {what}, expected a string or an array of strings"
            )],
            "{text}"
        );
    }
}

#[test]
fn message_after_a_repair_describes_what_was_sent() {
    for sent in ["5", "null", "true"] {
        let text = json!({ "tags": sent }).to_string();
        let (paths, messages) = refusal(one_answer::<Tagging>(&text));
        assert_eq!(paths, [at("tags", IssueKind::Invalid)], "{text}");
        assert_eq!(
            messages,
            [format!(
                r#"tags: invalid type: string "{sent}", expected a sequence"#
            )],
            "{text}"
        );
    }
}

#[test]
fn message_a_refusal_at_the_root_reads_as_a_sentence() {
    let (paths, messages) = refusal(one_answer::<ManyOrOne>(r#""[\"a\", \"b\"]""#));
    assert_eq!(paths, [at("", IssueKind::TextList)]);
    assert_eq!(
        messages,
        ["the arguments are a list written as text \u{2014} pass the array itself, not JSON written as text"]
    );
}

#[test]
fn message_command_line_a_missing_required_flag_is_named() {
    let err = ViewFile::from_argv("view", Vec::<String>::new()).unwrap_err();
    assert_eq!(err.issues().len(), 1, "{err}");
    assert_eq!(err.issues()[0].path(), "paths");
    assert!(err.to_string().contains("`--paths`"), "{err}");
}

#[test]
fn message_command_line_a_boolean_flag_with_a_separate_value_hints_at_equals() {
    let argv = [
        "--file",
        "a.md",
        "--rows",
        r#"[{"line":1,"names":"x"}]"#,
        "--dry-run",
        "false",
    ];
    let err = Edit::from_argv("edit", argv).unwrap_err();
    assert!(
        err.issues()
            .iter()
            .any(|i| i.kind() == IssueKind::Usage && i.message().contains("`--dry-run=false`")),
        "{err}"
    );
    let ok = Edit::from_argv("edit", {
        let mut argv = argv.to_vec();
        argv.truncate(4);
        argv.push("--dry-run=false");
        argv
    })
    .unwrap();
    assert!(!ok.dry_run);
}

#[test]
fn message_command_line_a_bare_double_dash_ends_the_flags() {
    assert_eq!(
        ViewFile::from_argv("view", ["--paths", "a.png", "--"]),
        ViewFile::from_argv("view", ["--paths", "a.png"]),
    );
    assert!(ViewFile::from_argv("view", ["--paths", "a.png", "--"]).is_ok());
}

// --- Decided and documented -----------------------------------------------------------------

#[test]
fn decided_one_or_many_of_value_is_string_bearing() {
    let (paths, messages) = refusal(one_answer::<V<OneOrMany<Value>>>(r#"{"v":"[1,2]"}"#));
    assert_eq!(paths, [at("v", IssueKind::TextList)]);
    assert_eq!(messages, [text_list_message("v")]);
    assert_eq!(
        one_answer(r#"{"v":"x"}"#),
        Ok(V {
            v: OneOrMany::One(json!("x"))
        })
    );
    // Inside a real array, values are never touched.
    assert_eq!(
        one_answer(r#"{"v":[1,"[2]"]}"#),
        Ok(V {
            v: OneOrMany::Many(vec![json!(1), json!("[2]")])
        })
    );
}

#[test]
fn decided_a_list_holding_a_lone_surrogate_is_one_plain_value() {
    // The string's text is `["\ud800"]`: JavaScript reads it as a list, serde_json does not.
    assert_eq!(
        one_answer(r#"{"paths":"[\"\\ud800\"]"}"#),
        Ok(ViewFile {
            paths: OneOrMany::One(r#"["\ud800"]"#.to_owned()),
            max_pixels: None,
        })
    );
    assert!(serde_json::from_str::<Vec<String>>(r#"["\ud800"]"#).is_err());
}

// --- deny_unknown_fields under flatten: serde hands a flattened struct only its own keys ----

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub(super) struct DenyInner {
    a: u32,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct FlatDeny {
    #[serde(flatten)]
    inner: DenyInner,
    b: u32,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct FlatDenyAndMap {
    #[serde(flatten)]
    inner: DenyInner,
    b: u32,
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, u32>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub(super) struct DenyFlatDeny {
    #[serde(flatten)]
    inner: DenyInner,
    b: u32,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind")]
pub(super) enum TaggedDeny {
    V(DenyInner),
}

/// The answer of `one_answer` (every surface) is serde's, accepted or refused.
#[track_caller]
pub(super) fn as_serde<T>(text: &str) -> Result<T, ArgsError>
where
    T: ToolArgs + PartialEq + Debug + for<'de> Deserialize<'de>,
{
    let answer = one_answer::<T>(text);
    let serde = serde_json::from_value::<T>(serde_json::from_str(text).unwrap());
    match (&answer, serde) {
        (Ok(read), Ok(expected)) => assert_eq!(*read, expected, "{text}"),
        (Err(_), Err(_)) => {}
        (answer, serde) => panic!("{text}: stitch {answer:?}, serde {serde:?}"),
    }
    answer
}

#[test]
fn a_flattened_deny_unknown_fields_struct_leaves_other_keys_to_its_parent() {
    let read = as_serde::<FlatDeny>(r#"{"a":1,"b":2,"c":3}"#).unwrap();
    assert_eq!(read.inner.a, 1);
    as_serde::<FlatDeny>(r#"{"a":1,"b":2}"#).unwrap();
    let read = as_serde::<FlatDenyAndMap>(r#"{"a":1,"b":2,"c":3}"#).unwrap();
    assert_eq!(read.rest.get("c"), Some(&3));
    // The inner struct still reads its own field.
    let (paths, _) = refusal(as_serde::<FlatDeny>(r#"{"a":"x","b":2,"c":3}"#));
    assert_eq!(paths, [at("a", IssueKind::Invalid)]);
}

#[test]
fn deny_unknown_fields_on_the_flattening_struct_answers_as_serde() {
    as_serde::<DenyFlatDeny>(r#"{"a":1,"b":2}"#).unwrap();
    assert!(as_serde::<DenyFlatDeny>(r#"{"a":1,"b":2,"c":3}"#).is_err());
}

#[test]
fn an_internally_tagged_deny_unknown_fields_struct_refuses_unknown_keys_but_the_tag() {
    assert_eq!(
        as_serde::<TaggedDeny>(r#"{"kind":"V","a":1}"#).unwrap(),
        TaggedDeny::V(DenyInner { a: 1 })
    );
    let (paths, _) = refusal(as_serde::<TaggedDeny>(r#"{"kind":"V","a":1,"c":3}"#));
    assert_eq!(paths, [at("c", IssueKind::Invalid)]);
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub(super) enum Shade {
    Light,
    Dark,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct Paint {
    shade: Shade,
    shades: OneOrMany<Shade>,
    marks: Vec<char>,
    count: u32,
}

/// A unit-variant enum or a `char` judges its string: an item of a list of them that names
/// no variant (or holds more than one character) is an issue beside the others, not left to
/// serde, which would report only the first.
#[test]
fn items_that_judge_their_string_are_reported_with_the_rest() {
    let args =
        json!({"shade": "dim", "shades": ["light", "pale"], "marks": ["x", "yz"], "count": "7"});
    let err = Paint::from_value(args.clone()).unwrap_err();
    let paths: Vec<&str> = err.issues().iter().map(|i| i.path()).collect();
    assert_eq!(paths, ["shade", "shades.1", "marks.1", "count"], "{err}");
    assert_eq!(
        err.to_string(),
        Paint::from_json(&args.to_string()).unwrap_err().to_string()
    );
    let ok = Paint::from_value(
        json!({"shade": "dark", "shades": ["light"], "marks": ["x"], "count": 7}),
    );
    assert_eq!(ok.unwrap().shades, OneOrMany::Many(vec![Shade::Light]));
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct Knobs<T> {
    #[serde(alias = "lvl")]
    level: T,
    #[serde(default)]
    note: Option<String>,
}

/// Type parameters and flattened fields at once: the struct, its flattened struct and map are
/// walked from their tables (issue #35), with the parameter's type read through them.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct Tuned<T> {
    paths: OneOrMany<String>,
    #[serde(default)]
    count: u32,
    #[serde(flatten)]
    knobs: Knobs<T>,
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, Vec<u32>>,
}

#[test]
fn a_generic_struct_with_flattened_fields_answers_as_serde() {
    // A list written as text for a field that takes one value or a list: refused by name.
    let (paths, messages) = refusal(one_answer::<Tuned<u8>>(
        r#"{"paths": "[\"a.png\"]", "level": 1}"#,
    ));
    assert_eq!(paths, [at("paths", IssueKind::TextList)]);
    assert_eq!(messages, [text_list_message("paths")]);
    // A defaulted field's `null` is left out (R8); the flattened struct's keys, its alias
    // too, are not the map's; the map's list written as text is repaired (no string expected
    // there).
    let text = r#"{"paths": ["a"], "count": null, "level": 3, "extra": "[1, 2]"}"#;
    let read = one_answer::<Tuned<u8>>(text).unwrap();
    let alias = r#"{"paths": ["a"], "count": null, "lvl": 3, "extra": "[1, 2]"}"#;
    assert_eq!(one_answer::<Tuned<u8>>(alias).unwrap(), read);
    let mut rest = std::collections::BTreeMap::new();
    rest.insert("extra".to_owned(), vec![1, 2]);
    let expected = Tuned {
        paths: OneOrMany::Many(vec!["a".to_owned()]),
        count: 0,
        knobs: Knobs {
            level: 3,
            note: None,
        },
        rest,
    };
    assert_eq!(read, expected);
    // The coercer built from the schema (which names no alias) makes the same repairs.
    let schema = Tuned::<u8>::input_schema();
    let coercer = stitch_runtime::json_schema::Coercer::new(schema).unwrap();
    let (mut by_walk, mut by_schema) = (serde_json::from_str::<Value>(text).unwrap(), None);
    Tuned::<u8>::coerce_value(&mut by_walk).unwrap();
    let mut value: Value = serde_json::from_str(text).unwrap();
    if coercer.coerce(&mut value).is_ok() {
        by_schema = Some(value);
    }
    assert_eq!(by_schema, Some(by_walk));
    // Missing fields, the parameter's included, are named where they would have been.
    let (paths, _) = refusal(one_answer::<Tuned<u8>>(r#"{"note": "x", "level": "high"}"#));
    assert_eq!(
        paths,
        [
            at("paths", IssueKind::Invalid),
            at("level", IssueKind::Invalid)
        ]
    );
}
