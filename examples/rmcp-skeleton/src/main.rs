use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use stitch_runtime::{Args, OneOrMany, ToolArgs};

/// Show one or more files to the model.
#[derive(Debug, serde::Deserialize, ToolArgs)]
struct ViewFile {
    /// One path or a list of paths.
    #[stitch(max_items = 20)]
    paths: OneOrMany<String>,
}

#[derive(Clone)]
struct Server;

#[tool_router]
impl Server {
    /// Show one or more files to the model.
    #[tool]
    fn view_file(&self, Parameters(Args(args)): Parameters<Args<ViewFile>>) -> CallToolResult {
        // `args: ViewFile`, already refused or repaired by stitch.
        let shown = args.paths.iter().map(ContentBlock::text);
        CallToolResult::success(shown.collect())
    }
}

#[tool_handler]
impl ServerHandler for Server {}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Server.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
