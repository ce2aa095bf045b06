use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Resize {
    #[stitch(max_items = 2)]
    size: (u32, u32),
}

fn main() {}
