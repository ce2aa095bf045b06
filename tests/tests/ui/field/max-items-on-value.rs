use stitch_runtime::ToolArgs;

#[derive(serde::Deserialize, ToolArgs)]
struct Args {
    #[stitch(max_items = 3)]
    anything: serde_json::Value,
}

fn main() {}
