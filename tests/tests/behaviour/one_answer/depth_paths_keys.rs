//! Items 5–8: one depth boundary, deserialization errors at their place, a list flag given
//! once, and keys sent twice.

use super::*;

// --- 5. One depth boundary, one path -------------------------------------------------------

#[derive(Debug, Deserialize, ToolArgs)]
#[serde(untagged)]
enum Tree {
    Leaf(String),
    Branch(Vec<Tree>),
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Holder {
    #[serde(default)]
    tree: Option<Tree>,
    #[serde(default)]
    any: Value,
}

/// `{key: [[…["x"]…]]}` with `arrays` arrays, as a value and as text.
fn nested(key: &str, arrays: usize) -> (Value, String) {
    let mut inner = Value::String("x".to_owned());
    for _ in 0..arrays {
        inner = Value::Array(vec![inner]);
    }
    let mut object = Map::new();
    object.insert(key.to_owned(), inner);
    let text = format!(
        r#"{{"{key}":{}"x"{}}}"#,
        "[".repeat(arrays),
        "]".repeat(arrays)
    );
    (Value::Object(object), text)
}

#[test]
fn item_5_one_depth_boundary_and_one_path_on_every_surface() {
    // Under a walked field, under a `Value` field, under an unknown key.
    for key in ["tree", "any", "unknown"] {
        // The arguments' object and 126 arrays: 127 open at once, serde_json's limit.
        let (value, text) = nested(key, 126);
        let mut coerced = value.clone();
        assert_eq!(Holder::coerce_value(&mut coerced), Ok(()), "{key}");
        assert!(Holder::from_value(value).is_ok(), "{key}");
        assert!(Holder::from_json(&text).is_ok(), "{key}");

        // One more: the 127th array is the container that goes one level too far.
        let (value, text) = nested(key, 127);
        let path = format!("{key}{}", ".0".repeat(126));
        let expected = vec![(path.clone(), IssueKind::TooDeep)];
        let message =
            format!("{path}: nested deeper than {MAX_DEPTH} levels; send a flatter value");
        let mut coerced = value.clone();
        let answers = [
            ("coerce_value", Holder::coerce_value(&mut coerced).map(drop)),
            ("from_value", Holder::from_value(value).map(drop)),
            ("from_json", Holder::from_json(&text).map(drop)),
        ];
        for (surface, answer) in answers {
            let err = answer.expect_err(&format!("{surface} accepted 127 arrays under {key}"));
            assert_eq!(issues(&err), expected, "{surface}, under {key}");
            assert_eq!(err.issues()[0].message(), message, "{surface}, under {key}");
        }
    }
}

// --- 6. Deserialization errors keep their place --------------------------------------------

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind")]
enum InternalOp {
    Add { n: u32 },
    Clear,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
enum AdjacentOp {
    Add { paths: Vec<String> },
    Clear,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Op<T> {
    op: T,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct PathList {
    paths: Vec<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Flat {
    #[serde(default)]
    note: String,
    #[serde(flatten)]
    inner: PathList,
}

#[test]
fn item_6_internally_tagged_errors_name_the_field() {
    let (paths, messages) = refusal(one_answer::<Op<InternalOp>>(
        r#"{"op":{"kind":"Add","n":"x"}}"#,
    ));
    assert_eq!(paths, [at("op.n", IssueKind::Invalid)]);
    assert_eq!(
        messages,
        [r#"op.n: invalid type: string "x", expected u32"#]
    );
}

#[test]
fn item_6_adjacently_tagged_errors_name_the_field() {
    let (paths, messages) = refusal(one_answer::<Op<AdjacentOp>>(
        r#"{"op":{"t":"Add","c":{"paths":5}}}"#,
    ));
    assert_eq!(paths, [at("op.c.paths", IssueKind::Invalid)]);
    assert_eq!(
        messages,
        ["op.c.paths: invalid type: integer `5`, expected a sequence"]
    );
}

#[test]
fn item_6_flattened_errors_name_the_field() {
    let (paths, messages) = refusal(one_answer::<Flat>(r#"{"note":"n","paths":5}"#));
    assert_eq!(paths, [at("paths", IssueKind::Invalid)]);
    assert_eq!(
        messages,
        ["paths: invalid type: integer `5`, expected a sequence"]
    );
}

// --- 7. from_argv: a list flag given once with text that is no JSON array -------------------

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct Tagging {
    tags: Vec<String>,
}

#[test]
fn item_7_a_list_flag_given_once_with_bracketed_text_is_one_item() {
    for text in ["[preview].png", " [x", "[1,2"] {
        assert_eq!(
            Tagging::from_argv("tag", ["--tags", text]),
            Ok(Tagging {
                tags: strings(&[text])
            }),
            "{text}"
        );
    }
    // A JSON array written as text is still the whole list.
    assert_eq!(
        Tagging::from_argv("tag", ["--tags", r#"["a", "b"]"#]),
        Ok(Tagging {
            tags: strings(&["a", "b"])
        })
    );
}

// --- 8. Duplicate keys ----------------------------------------------------------------------

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct MarkRow {
    names: OneOrMany<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct Mark {
    file: String,
    rows: Vec<MarkRow>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Aliased {
    #[serde(alias = "file_path")]
    file: String,
    rows: Vec<MarkRow>,
}

#[test]
fn item_8_a_duplicated_field_is_refused_at_its_path_as_serde_does() {
    let text = r#"{"paths":"[\"a\"]","paths":"x"}"#;
    assert!(serde_json::from_str::<ViewFile>(text).is_err());
    let err = ViewFile::from_json(text).unwrap_err();
    assert_eq!(issues(&err), [at("paths", IssueKind::Invalid)]);
    assert_eq!(err.to_string(), "paths: duplicate field `paths`");

    let text = r#"{"file":"f","rows":[{"names":"a"},{"names":"a","names":"[\"b\"]"}]}"#;
    assert!(serde_json::from_str::<Mark>(text).is_err());
    let err = Mark::from_json(text).unwrap_err();
    assert_eq!(issues(&err), [at("rows.1.names", IssueKind::Invalid)]);
    assert_eq!(err.to_string(), "rows.1.names: duplicate field `names`");

    // Through the fast path's text too (nothing in it a rule could read).
    let text = r#"{"file":"f","file":"g","rows":[]}"#;
    assert!(serde_json::from_str::<Mark>(text).is_err());
    let err = Mark::from_json(text).unwrap_err();
    assert_eq!(err.to_string(), "file: duplicate field `file`");

    // `Args<T>` reads text as `from_json` does.
    let text = r#"{"file":"f","rows":[{"names":"a","names":"b"}]}"#;
    let err = serde_json::from_str::<Args<Mark>>(text).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("rows.0.names: duplicate field `names`"),
        "{err}"
    );
    // Through a struct variant of a tagged enum, and under an alias: named by its wire name.
    let text = r#"{"op":{"kind":"Add","n":1,"n":2}}"#;
    assert!(serde_json::from_str::<Op<InternalOp>>(text).is_err());
    let err = Op::<InternalOp>::from_json(text).unwrap_err();
    assert_eq!(err.to_string(), "op.n: duplicate field `n`");
    let text = r#"{"file_path":"f","file_path":"g","rows":[]}"#;
    assert!(serde_json::from_str::<Aliased>(text).is_err());
    let err = Aliased::from_json(text).unwrap_err();
    assert_eq!(err.to_string(), "file_path: duplicate field `file`");

    // A key the type does not declare may repeat, as serde lets it.
    let text = r#"{"file":"f","rows":[],"x":1,"x":2}"#;
    let serde = serde_json::from_str::<Mark>(text).unwrap();
    assert_eq!(Mark::from_json(text), Ok(serde));
}
