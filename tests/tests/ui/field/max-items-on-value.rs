use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Raw {
    #[stitch(max_items = 3)]
    anything: serde_json::Value,
    #[stitch(max_items = 3)]
    pair: (u32, u32),
}

fn main() {}
