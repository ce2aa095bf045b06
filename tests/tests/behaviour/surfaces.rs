//! The surfaces a tool is called through besides the three methods: `Args<T>` for frameworks
//! that deserialize with serde and advertise a schemars schema (rmcp's `Parameters<T>`), and
//! an agent loop reading a model's `tool_calls` (the `agent_step` example, tested as it is).

use serde::de::IntoDeserializer;
use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{Args, ArgsError, IssueKind, OneOrMany, ToolArgs};
use stitch_tests::text_list_message;
use stitch_tests::tools::{RowWithoutNotes, ViewFile};

/// The example `cargo run -p stitch-runtime --example agent_step`, compiled here unchanged.
#[path = "../../../stitch-runtime/examples/agent_step.rs"]
mod agent_step;

/// What to do with the names.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum MarkOrTag {
    /// Mark them.
    Mark,
    /// Tag them.
    Tag {
        /// One label or several.
        labels: OneOrMany<String>,
    },
}

/// Act on names on lines of a file.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct MarkEdit {
    /// The file.
    file: String,
    /// One row per line.
    rows: Vec<RowWithoutNotes>,
    /// What to do.
    action: MarkOrTag,
}

fn view(paths: &[&str]) -> ViewFile {
    ViewFile {
        paths: OneOrMany::Many(paths.iter().map(|p| p.to_string()).collect()),
        max_pixels: None,
    }
}

// --- Args<T>: Deserialize -----------------------------------------------------------------

#[test]
fn args_deserializes_through_stitch() {
    let Args(args) =
        serde_json::from_value::<Args<ViewFile>>(json!({"paths": ["a", "b"]})).unwrap();
    assert_eq!(args, view(&["a", "b"]));

    let one = serde_json::from_str::<Args<ViewFile>>(r#"{"paths": "[preview].png"}"#).unwrap();
    assert_eq!(one.paths, OneOrMany::One("[preview].png".to_owned()));

    // JSON text where no string is expected is repaired, as `from_value` does.
    let edit = serde_json::from_value::<Args<MarkEdit>>(json!({
        "file": "notes.md",
        "rows": "[{\"line\": 2, \"names\": [\"fox\"]}]",
        "action": {"kind": "mark"},
    }))
    .unwrap()
    .into_inner();
    assert_eq!(edit.rows[0].names.as_slice(), ["fox"]);
}

/// The serde error a refusal becomes carries the `ArgsError`'s full text, nothing more: this
/// is what rmcp puts after `failed to deserialize parameters: `.
#[test]
fn a_refusal_is_the_deserializers_error_with_the_full_message() {
    let args = json!({"paths": "[\"a.png\"]"});
    let expected = ViewFile::from_value(args.clone()).unwrap_err();
    let err = serde_json::from_value::<Args<ViewFile>>(args).unwrap_err();
    assert_eq!(err.to_string(), expected.to_string());
    assert_eq!(err.to_string(), text_list_message("paths"));

    // Several issues: every one, one per line, in the order stitch reports them.
    let args = json!({
        "file": "notes.md",
        "rows": [{"line": 1, "names": "[\"fox\"]"}, {"line": 2, "names": "[\"a\", \"b\"]"}],
        "action": {"kind": "tag", "labels": "[\"x\"]"},
    });
    let expected = MarkEdit::from_value(args.clone()).unwrap_err();
    assert_eq!(expected.issues().len(), 3);
    let err = serde_json::from_value::<Args<MarkEdit>>(args).unwrap_err();
    assert_eq!(err.to_string(), expected.to_string());
    let text = expected.to_string();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            text_list_message("action.labels"),
            text_list_message("rows.0.names"),
            text_list_message("rows.1.names"),
        ]
    );

    // A wrong type: the path and serde's reason.
    let err = serde_json::from_value::<Args<MarkEdit>>(json!({
        "file": "notes.md",
        "rows": [{"line": "two", "names": "fox"}],
        "action": {"kind": "mark"},
    }))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "rows.0.line: invalid type: string \"two\", expected u32"
    );
}

/// Any deserializer, not only serde_json's: the input is read as a `Value` first.
#[test]
fn args_reads_from_any_deserializer() {
    let map = vec![("paths", "a.txt")].into_iter();
    let deserializer = serde::de::value::MapDeserializer::<_, serde::de::value::Error>::new(map);
    let Args(args) = Args::<ViewFile>::deserialize(deserializer).unwrap();
    assert_eq!(args.paths, OneOrMany::One("a.txt".to_owned()));

    let map = vec![("paths", "[\"a.png\"]")].into_iter();
    let deserializer = serde::de::value::MapDeserializer::<_, serde::de::value::Error>::new(map);
    let err = Args::<ViewFile>::deserialize(deserializer).unwrap_err();
    assert_eq!(err.to_string(), text_list_message("paths"));

    // Not an object: the refusal says so, at the root.
    let deserializer: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        "a.txt".into_deserializer();
    let err = Args::<ViewFile>::deserialize(deserializer).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: string \"a.txt\", expected struct ViewFile"
    );
}

/// Inside a larger message, serde_json adds the position of the arguments to the message.
#[test]
fn args_inside_an_envelope() {
    #[derive(Debug, Deserialize)]
    struct Call {
        name: String,
        arguments: Args<ViewFile>,
    }
    let call: Call =
        serde_json::from_str(r#"{"name": "view_file", "arguments": {"paths": "a.txt"}}"#).unwrap();
    assert_eq!(call.name, "view_file");
    assert_eq!(call.arguments.paths.as_slice(), ["a.txt"]);

    let text = r#"{"name": "view_file", "arguments": {"paths": "[\"a.png\"]"}}"#;
    let err = serde_json::from_str::<Call>(text).unwrap_err();
    let shown = err.to_string();
    let (message, position) = shown.split_once(" at line 1 column ").unwrap();
    assert_eq!(message, text_list_message("paths"));
    assert!(position.parse::<usize>().is_ok(), "{shown}");
    let err = serde_json::from_value::<Call>(serde_json::from_str(text).unwrap()).unwrap_err();
    assert_eq!(err.to_string(), text_list_message("paths"));
}

#[test]
fn args_is_its_value() {
    let mut args = Args(view(&["a"]));
    assert_eq!(args.paths.len(), 1); // Deref
    args.paths = OneOrMany::One("b".to_owned()); // DerefMut
    let copy = args.clone();
    assert_eq!(copy, args);
    assert_eq!(
        format!("{args:?}"),
        r#"Args(ViewFile { paths: One("b"), max_pixels: None })"#
    );
    assert_eq!(Args::from(view(&["b"])).into_inner(), view(&["b"]));
    assert_eq!(args.into_inner().paths, OneOrMany::One("b".to_owned()));
}

// --- Args<T>: JsonSchema ------------------------------------------------------------------

/// `Args<T>` is T's schema, inline: the schema of a framework's `Parameters<Args<T>>` root, and
/// of a field, with no `$ref` or `$defs`.
#[test]
fn args_has_the_types_schema_inline() {
    use schemars::{JsonSchema, SchemaGenerator};

    assert_eq!(<Args<ViewFile> as JsonSchema>::schema_name(), "ViewFile");
    assert!(<Args<MarkEdit> as JsonSchema>::inline_schema());

    let mut generator = SchemaGenerator::default();
    let schema = generator.subschema_for::<Args<MarkEdit>>().to_value();
    assert_eq!(&schema, MarkEdit::input_schema());
    assert!(generator.definitions().is_empty());

    // As rmcp builds a tool's inputSchema: a root schema, draft 2020-12 (rmcp then drops the
    // title and the description, which it gives the tool itself).
    let root = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<Args<ViewFile>>()
        .to_value();
    let mut expected = ViewFile::input_schema().clone();
    expected["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    expected["title"] = json!("ViewFile");
    assert_eq!(root, expected);
    let paths = &root["properties"]["paths"];
    assert_eq!(
        paths["anyOf"][1],
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 20})
    );

    // As a field of a schemars-derived type.
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Envelope {
        name: String,
        arguments: Args<MarkEdit>,
    }
    let envelope = schemars::schema_for!(Envelope).to_value();
    assert_eq!(
        &envelope["properties"]["arguments"],
        MarkEdit::input_schema()
    );
    assert!(!envelope.to_string().contains("$ref"), "{envelope}");
    assert!(envelope.get("$defs").is_none(), "{envelope}");
}

/// `Args<T>`'s schema is a tool's `inputSchema` in rmcp (`Parameters<Args<T>>`): a root union
/// (a flattened enum) is one object there, as `tool::mcp` writes it, with no `anyOf`, `oneOf`
/// or `allOf` at its top, which Anthropic's API refuses (docs/rules.md#flattened-unions).
#[test]
fn args_of_a_root_union_is_one_object_as_tool_mcp_writes_it() {
    use super::flatten_enum::HoldsInt;
    let root = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<Args<HoldsInt>>()
        .to_value();
    for combinator in ["anyOf", "oneOf", "allOf"] {
        assert!(root.get(combinator).is_none(), "{root}");
    }
    // The type's own schema keeps the union.
    assert!(HoldsInt::input_schema().get("anyOf").is_some());
    assert_eq!(
        root["properties"]["op"]["enum"],
        json!(["Move", "Stop"]),
        "{root}"
    );
    let mcp = stitch_runtime::tool::mcp::<HoldsInt>("t", None);
    assert_eq!(root["properties"], mcp["inputSchema"]["properties"]);
}

/// What `Args<T>`'s schema advertises, `Args<T>` accepts, as `T::from_value` does.
#[test]
fn args_accepts_what_its_schema_allows() {
    let schema = schemars::SchemaGenerator::default()
        .subschema_for::<Args<ViewFile>>()
        .to_value();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for args in [
        json!({"paths": "a.txt"}),
        json!({"paths": ["a.txt", "b.txt"]}),
        json!({"paths": "[preview].png"}),
        json!({"paths": []}),
        json!({"paths": 5}),
        json!({"paths": ["a"], "extra": 1}),
    ] {
        let valid = validator.is_valid(&args);
        let read = serde_json::from_value::<Args<ViewFile>>(args.clone());
        assert_eq!(valid, read.is_ok(), "{args}: {read:?}");
    }
    // The one string the schema allows and stitch refuses: a list written as text.
    let text_list = json!({"paths": "[\"a.png\"]"});
    assert!(validator.is_valid(&text_list));
    assert!(serde_json::from_value::<Args<ViewFile>>(text_list).is_err());
}

// --- an agent loop --------------------------------------------------------------------------

fn call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
}

/// The issues a refusal's content carries, parsed back.
fn refusal_content(message: &Value) -> Value {
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap()
}

#[test]
fn agent_step_runs_a_call() {
    let mut tools = agent_step::Tools::default();
    let message = agent_step::step(
        &mut tools,
        &call(
            "call_1",
            "view_file",
            r#"{"paths": ["a.txt", "readme.md"]}"#,
        ),
    )
    .unwrap();
    assert_eq!(message["role"], "tool");
    assert_eq!(message["tool_call_id"], "call_1");
    assert_eq!(
        message["content"],
        "a.txt:\nThe quick brown fox.\nSecond line of a.\n\
         readme.md:\n# Readme\nstitch refuses a list written as text.\n"
    );
    assert_eq!(tools.runs, [r#"view_file ["a.txt", "readme.md"]"#]);
}

#[test]
fn agent_step_offers_each_tool_with_the_schema_of_its_type() {
    let offered = agent_step::definitions();
    let offered = offered.as_array().unwrap();
    assert_eq!(offered.len(), 2);
    for (tool, name, schema, description) in [
        (
            &offered[0],
            "view_file",
            agent_step::ViewFile::input_schema(),
            "Show one or more files to the model.",
        ),
        (
            &offered[1],
            "search",
            agent_step::Search::input_schema(),
            "Find the lines containing a text.",
        ),
    ] {
        assert_eq!(tool["type"], "function");
        assert_eq!(tool["function"]["name"], name);
        assert_eq!(tool["function"]["description"], description);
        assert_eq!(&tool["function"]["parameters"], schema);
    }
}

#[test]
fn agent_step_answers_a_refusal_with_its_issues() {
    let mut tools = agent_step::Tools::default();
    let message = agent_step::step(
        &mut tools,
        &call(
            "call_2",
            "view_file",
            r#"{"paths": "[\"a.txt\", \"notes.md\"]"}"#,
        ),
    )
    .unwrap();
    assert_eq!(message["role"], "tool");
    assert_eq!(message["tool_call_id"], "call_2");
    let content = refusal_content(&message);
    assert_eq!(
        content,
        json!({
            "error": text_list_message("paths"),
            "issues": [{"path": "paths", "kind": "text_list", "message": text_list_message("paths")}],
        })
    );
    assert!(
        tools.runs.is_empty(),
        "a refused call ran: {:?}",
        tools.runs
    );
}

#[test]
fn agent_step_repairs_json_text_where_no_string_is_expected() {
    let mut tools = agent_step::Tools::default();
    let message = agent_step::step(
        &mut tools,
        &call(
            "call_4",
            "search",
            r#"{"query": "fox", "extensions": "[\"md\"]"}"#,
        ),
    )
    .unwrap();
    assert_eq!(message["content"], "notes.md:2: The fox is quick.\n");
    assert_eq!(tools.runs, [r#"search "fox" ["md"]"#]);
}

#[test]
fn agent_step_refuses_arguments_that_are_not_json() {
    let mut tools = agent_step::Tools::default();
    let text = r#"{"paths": ["a.txt""#;
    let message = agent_step::step(&mut tools, &call("call_6", "view_file", text)).unwrap();
    let content = refusal_content(&message);
    let parse_error = serde_json::from_str::<Value>(text).unwrap_err();
    let expected = format!("the arguments are not valid JSON: {parse_error}");
    assert_eq!(content["error"], expected);
    assert_eq!(
        content["issues"],
        json!([{"path": "", "kind": "invalid", "message": expected}])
    );
    assert!(tools.runs.is_empty());
}

#[test]
fn agent_step_names_every_issue() {
    let mut tools = agent_step::Tools::default();
    let message = agent_step::step(
        &mut tools,
        &call("call_7", "search", r#"{"query": 5, "extensions": "md"}"#),
    )
    .unwrap();
    let content = refusal_content(&message);
    let issues = content["issues"].as_array().unwrap();
    assert!(!issues.is_empty());
    let error = content["error"].as_str().unwrap();
    // The error text is the issues' messages, one per line.
    let messages: Vec<&str> = issues
        .iter()
        .map(|i| i["message"].as_str().unwrap())
        .collect();
    assert_eq!(error, messages.join("\n"));
    assert!(issues.iter().all(|i| i["kind"] == "invalid"), "{issues:?}");
    assert!(tools.runs.is_empty());
}

#[test]
fn agent_step_unknown_tool_and_malformed_calls() {
    let mut tools = agent_step::Tools::default();
    let message = agent_step::step(&mut tools, &call("call_8", "delete", "{}")).unwrap();
    assert_eq!(message["tool_call_id"], "call_8");
    assert_eq!(
        refusal_content(&message),
        json!({"error": "no tool named \"delete\""})
    );
    // No id to answer: not a message, an error for the loop.
    let err = agent_step::step(&mut tools, &json!({"type": "function"})).unwrap_err();
    assert!(
        err.starts_with("not a tool call: missing field `id`"),
        "{err}"
    );
    let err = agent_step::step(
        &mut tools,
        &json!({"id": "x", "type": "custom", "function": {"name": "a", "arguments": "{}"}}),
    )
    .unwrap_err();
    assert_eq!(err, "not a function call: type \"custom\"");
}

/// The example's own calls: two refused, one repaired, three run as sent.
#[test]
fn agent_step_sample_calls() {
    let mut tools = agent_step::Tools::default();
    let mut refused = 0;
    for call in agent_step::sample_calls().as_array().unwrap() {
        let message = agent_step::step(&mut tools, call).unwrap();
        if let Ok(Value::Object(content)) =
            serde_json::from_str::<Value>(message["content"].as_str().unwrap())
        {
            assert!(content.contains_key("issues"), "{content:?}");
            refused += 1;
        }
    }
    assert_eq!(refused, 2);
    assert_eq!(tools.runs.len(), 4);
}

/// `refusal` keeps the count of issues left out past the limit.
#[test]
fn agent_step_refusal_counts_omitted_issues() {
    let issues = (0..25)
        .map(|n| {
            let path = format!("rows.{n}.names");
            let message = text_list_message(&path);
            stitch_runtime::Issue::new(IssueKind::TextList, path, message)
        })
        .collect();
    let err = ArgsError::new(issues);
    let content: Value = serde_json::from_str(&agent_step::refusal(&err)).unwrap();
    assert_eq!(content["issues"].as_array().unwrap().len(), 20);
    assert_eq!(content["omitted"], 5);
    assert_eq!(content["error"], err.to_string());
    assert_eq!(content["issues"][0]["kind"], IssueKind::TextList.as_str());
}

// --- schemars' own derive beside ToolArgs -----------------------------------------------

/// A type deriving schemars' `JsonSchema` and `ToolArgs` both: the `schemars` feature is on in
/// this crate, and adds no impl of its own to a derived type (no E0119).
#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema, ToolArgs)]
pub struct BothDerives {
    /// A path.
    path: String,
    /// Labels.
    #[serde(default)]
    tags: Vec<String>,
}

#[test]
fn schemars_derive_beside_tool_args_compiles_and_args_gives_stitchs_schema() {
    use schemars::SchemaGenerator;

    // schemars' own schema, from its own derive.
    let theirs = schemars::schema_for!(BothDerives).to_value();
    assert_eq!(theirs["title"], "BothDerives");
    assert_eq!(theirs["properties"]["path"]["type"], "string");
    // `Args<T>` is stitch's, whatever `T` derives.
    let mut generator = SchemaGenerator::default();
    let ours = generator.subschema_for::<Args<BothDerives>>().to_value();
    assert_eq!(&ours, BothDerives::input_schema());
    assert_eq!(ours["properties"]["tags"]["default"], serde_json::json!([]));
    let Args(read) =
        serde_json::from_str::<Args<BothDerives>>(r#"{"path":"a","tags":"[\"x\"]"}"#).unwrap();
    assert_eq!(read.tags, ["x"]);
}

/// Say "hi" \n — a backslash \ here.
/// Second line.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct OddDoc {
    a: u8,
}

#[derive(Debug, Deserialize, ToolArgs)]
#[stitch(description = "a \"quoted\"\nline\\ end\t.")]
#[serde(tag = "k")]
pub enum OddAttr {
    A { a: u8 },
}

/// `DESCRIPTION` is the plain text, while the schema holds it JSON-escaped.
#[test]
fn description_is_plain_text() {
    assert_eq!(
        OddDoc::DESCRIPTION,
        Some("Say \"hi\" \\n — a backslash \\ here.\nSecond line.")
    );
    assert_eq!(OddAttr::DESCRIPTION, Some("a \"quoted\"\nline\\ end\t."));
    for (description, schema) in [
        (OddDoc::DESCRIPTION, OddDoc::input_schema()),
        (OddAttr::DESCRIPTION, OddAttr::input_schema()),
    ] {
        assert_eq!(schema["description"].as_str(), description);
    }
    assert_eq!(
        stitch_runtime::tool::openai::<OddAttr>("odd", None)["function"]["description"],
        "a \"quoted\"\nline\\ end\t."
    );
    assert_eq!(ViewFileNoDoc::DESCRIPTION, None);
    assert!(stitch_runtime::tool::mcp::<ViewFileNoDoc>("v", None)
        .get("description")
        .is_none());
}

#[derive(Debug, Deserialize, ToolArgs)]
pub struct ViewFileNoDoc {
    path: String,
}
