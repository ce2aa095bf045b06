use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Tags {
    #[serde(skip)]
    #[stitch(max_items = 3)]
    tags: Vec<String>,
}

fn main() {}
