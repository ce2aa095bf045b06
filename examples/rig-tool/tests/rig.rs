//! The tools driven through rig's own dispatch, as an agent runs them: a tool call (name and
//! JSON text, as the model wrote it) served by rig's `ToolAdapter` through `serve_inline`,
//! which parses the arguments into `Tool::Args` and calls the tool. No model, no network.

use std::sync::Arc;

use futures::executor::block_on;
use rig_core::effect::{EffectKind, FamilyDescriptor, Outcome};
use rig_core::serve::{adapters::ToolAdapter, serve_inline, ErasedHandler};
use rig_core::tool::{tool_definition, Tool, ToolContext, ToolErrorKind, ToolResult};
use serde_json::json;
use stitch_rig_example::{Files, SearchTool, ToolError, ViewFile, ViewFileTool};
use stitch_runtime::ToolArgs;

const TEXT_LIST: &str =
    "paths is a list written as text \u{2014} pass the array itself, not JSON written as text";

fn files() -> Arc<Files> {
    Arc::new(Files::new([
        ("a.txt", "The quick brown fox.\nSecond line of a.\n"),
        ("notes.md", "Notes on the release.\nThe fox is quick.\n"),
    ]))
}

/// Serves one tool call, as rig's runtime does, and returns the tool's result.
fn call(tool: impl Tool + 'static, arguments: &str) -> ToolResult {
    let handler = ErasedHandler::new(ToolAdapter::new(tool));
    let name = handler_name(&handler);
    let kind = EffectKind::ToolCall {
        name,
        args: arguments.to_owned(),
    };
    match block_on(serve_inline(&handler, kind)) {
        Ok(Outcome::ToolResult { result }) => result,
        other => panic!("rig answered a tool call with {other:?}"),
    }
}

fn handler_name(handler: &ErasedHandler) -> String {
    match handler.descriptor().family {
        FamilyDescriptor::Tool { name, .. } => name,
        other => panic!("not a tool handler: {other:?}"),
    }
}

#[test]
fn the_definition_rig_sends_is_stitchs_schema() {
    let files = files();
    let handler = ErasedHandler::new(ToolAdapter::new(ViewFileTool(files.clone())));
    let FamilyDescriptor::Tool {
        name,
        description,
        parameters,
        ..
    } = handler.descriptor().family
    else {
        panic!("not a tool handler");
    };
    assert_eq!(name, "view_file");
    assert_eq!(description, "Show one or more files to the model.");
    assert_eq!(&parameters, ViewFile::input_schema());
    // The same parameters and description as stitch's own OpenAI definition.
    let openai = stitch_runtime::tool::openai::<ViewFile>("view_file", None);
    assert_eq!(parameters, openai["function"]["parameters"]);
    assert_eq!(description, openai["function"]["description"]);

    // rig's typed definition says the same.
    let definition = tool_definition(&ViewFileTool(files));
    assert_eq!(definition.name, "view_file");
    assert_eq!(definition.parameters, parameters);
}

#[test]
fn a_good_call_runs() {
    let files = files();
    let result = call(
        ViewFileTool(files.clone()),
        r#"{"paths": ["a.txt", "notes.md"]}"#,
    );
    assert!(result.is_success(), "{result:?}");
    assert_eq!(
        result.output().as_text(),
        Some("a.txt:\nThe quick brown fox.\nSecond line of a.\nnotes.md:\nNotes on the release.\nThe fox is quick.\n")
    );
    // One path for a `OneOrMany` is one path.
    let result = call(ViewFileTool(files.clone()), r#"{"paths": "a.txt"}"#);
    assert!(result.is_success(), "{result:?}");
    assert_eq!(
        files.runs(),
        [
            r#"view_file ["a.txt", "notes.md"]"#,
            r#"view_file ["a.txt"]"#
        ]
    );
}

#[test]
fn a_list_written_as_text_is_refused_by_name_and_the_tool_does_not_run() {
    let files = files();
    let result = call(
        ViewFileTool(files.clone()),
        r#"{"paths": "[\"a.txt\", \"notes.md\"]"}"#,
    );
    assert!(
        result.is_error_kind(ToolErrorKind::InvalidArgs),
        "{result:?}"
    );
    // What the model reads: rig's prefix, then stitch's refusal.
    let feedback = result.error().and_then(|e| e.model_feedback());
    assert_eq!(
        feedback,
        Some(format!("failed to parse tool arguments: {TEXT_LIST}").as_str())
    );
    assert!(files.runs().is_empty(), "the tool ran: {:?}", files.runs());
}

#[test]
fn every_issue_reaches_the_model_at_once() {
    let files = files();
    let result = call(
        SearchTool(files.clone()),
        r#"{"query": 5, "extensions": [1]}"#,
    );
    assert!(
        result.is_error_kind(ToolErrorKind::InvalidArgs),
        "{result:?}"
    );
    let feedback = result
        .error()
        .and_then(|e| e.model_feedback())
        .unwrap_or("");
    assert!(
        feedback.contains("query: invalid type: integer `5`, expected a string"),
        "{feedback}"
    );
    assert!(
        feedback.contains("extensions.0: invalid type: integer `1`, expected a string"),
        "{feedback}"
    );
    assert!(files.runs().is_empty(), "the tool ran: {:?}", files.runs());
}

#[test]
fn json_text_in_a_vec_field_is_repaired() {
    let files = files();
    let result = call(
        SearchTool(files.clone()),
        r#"{"query": "fox", "extensions": "[\"md\"]"}"#,
    );
    assert!(result.is_success(), "{result:?}");
    assert_eq!(
        result.output().as_text(),
        Some("notes.md:2: The fox is quick.\n")
    );
    assert_eq!(files.runs(), [r#"search "fox" ["md"]"#]);
}

#[test]
fn a_missing_file_is_the_tools_own_error() {
    let files = files();
    let result = call(ViewFileTool(files.clone()), r#"{"paths": ["nope.txt"]}"#);
    assert!(result.is_error_kind(ToolErrorKind::NotFound), "{result:?}");
    assert_eq!(
        result.error().and_then(|e| e.model_feedback()),
        Some("nope.txt: no such file")
    );
    assert_eq!(files.runs(), [r#"view_file ["nope.txt"]"#]);
}

/// `view_file` written with `type Args = ViewFile`: it compiles, and stitch never runs.
struct Unchecked(Arc<Files>);

impl Tool for Unchecked {
    const NAME: &'static str = "view_file";
    type Args = ViewFile;
    type Output = String;
    type Error = ToolError;

    fn description(&self) -> String {
        stitch_rig_example::description::<ViewFile>()
    }

    fn parameters(&self) -> serde_json::Value {
        ViewFile::input_schema().clone()
    }

    async fn call(&self, _context: &mut ToolContext, args: ViewFile) -> Result<String, ToolError> {
        self.0.view_file(&args)
    }
}

#[test]
fn type_args_t_compiles_and_silently_skips_stitch() {
    let unchecked = files();
    let result = call(Unchecked(unchecked.clone()), r#"{"paths": "[\"a.txt\"]"}"#);
    // No refusal: serde read the text as one path, and the tool ran with it.
    assert!(
        !result.is_error_kind(ToolErrorKind::InvalidArgs),
        "{result:?}"
    );
    assert_eq!(unchecked.runs(), [r#"view_file ["[\"a.txt\"]"]"#]);
    let error = result.error().map(ToString::to_string).unwrap_or_default();
    assert!(!error.contains("written as text"), "{error}");

    // Through `Args<ViewFile>` the same call is refused, and nothing runs.
    let checked = files();
    let result = call(ViewFileTool(checked.clone()), r#"{"paths": "[\"a.txt\"]"}"#);
    assert!(
        result.is_error_kind(ToolErrorKind::InvalidArgs),
        "{result:?}"
    );
    assert!(checked.runs().is_empty());
}

#[test]
fn a_direct_typed_call_needs_no_dispatch() {
    // rig's typed `Tool::call`, as a unit test of a tool would use it.
    let files = files();
    let args = serde_json::from_value(json!({"paths": "notes.md"})).expect("good arguments");
    let out = block_on(ViewFileTool(files.clone()).call(&mut ToolContext::new(), args));
    assert_eq!(
        out,
        Ok("notes.md:\nNotes on the release.\nThe fox is quick.\n".to_owned())
    );
}
