//! The README's rig section is the code between the markers below, word for word, and the
//! tool it shows works through rig's own dispatch.

use futures::executor::block_on;
use rig_core::effect::{EffectKind, Outcome};
use rig_core::serve::{adapters::ToolAdapter, serve_inline, ErasedHandler};
use rig_core::tool::{ToolErrorKind, ToolResult};

// README begin
use rig_core::tool::{Tool, ToolContext};
use stitch_runtime::{Args, OneOrMany, ToolArgs};

/// Show one or more files to the model.
#[derive(Debug, serde::Deserialize, ToolArgs)]
struct ViewFile {
    /// One path or a list of paths.
    #[stitch(max_items = 20)]
    paths: OneOrMany<String>,
}

struct ViewFileTool;

impl Tool for ViewFileTool {
    const NAME: &'static str = "view_file";
    type Args = Args<ViewFile>; // not `ViewFile`, which compiles and skips stitch
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        ViewFile::DESCRIPTION.unwrap_or_default().to_owned()
    }

    fn parameters(&self) -> serde_json::Value {
        ViewFile::input_schema().clone()
    }

    async fn call(
        &self,
        _: &mut ToolContext,
        Args(args): Args<ViewFile>,
    ) -> Result<String, Self::Error> {
        // `args: ViewFile`, already refused or repaired by stitch.
        Ok(args.paths.as_slice().join("\n"))
    }
}
// README end

const THIS_FILE: &str = include_str!("readme.rs");
const README: &str = include_str!("../../../README.md");

#[test]
fn the_readme_shows_this_tool_as_it_is() {
    let code = THIS_FILE
        .split_once("// README begin\n")
        .and_then(|(_, rest)| rest.split_once("// README end\n"))
        .map(|(code, _)| code)
        .expect("the markers");
    let block = README
        .split_once("\n## rig\n")
        .and_then(|(_, section)| section.split_once("```rust\n"))
        .and_then(|(_, rest)| rest.split_once("```\n"))
        .map(|(block, _)| block)
        .expect("the README has a section `## rig` with a ```rust block");
    assert_eq!(
        block, code,
        "the README's rig block and tests/readme.rs differ"
    );
}

fn call(arguments: &str) -> ToolResult {
    let handler = ErasedHandler::new(ToolAdapter::new(ViewFileTool));
    let kind = EffectKind::ToolCall {
        name: "view_file".to_owned(),
        args: arguments.to_owned(),
    };
    match block_on(serve_inline(&handler, kind)) {
        Ok(Outcome::ToolResult { result }) => result,
        other => panic!("rig answered a tool call with {other:?}"),
    }
}

#[test]
fn the_readme_tool_runs_and_refuses() {
    let good = call(r#"{"paths": ["a.png", "b.png"]}"#);
    assert_eq!(good.output().as_text(), Some("a.png\nb.png"), "{good:?}");
    let refused = call(r#"{"paths": "[\"a.png\"]"}"#);
    assert!(
        refused.is_error_kind(ToolErrorKind::InvalidArgs),
        "{refused:?}"
    );
    assert_eq!(
        refused.error().and_then(|e| e.model_feedback()),
        Some(
            "failed to parse tool arguments: paths is a list written as text \u{2014} \
             pass the array itself, not JSON written as text"
        )
    );
    assert_eq!(
        ViewFileTool.description(),
        "Show one or more files to the model."
    );
}
