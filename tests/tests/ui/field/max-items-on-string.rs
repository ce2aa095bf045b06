use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Search {
    #[stitch(max_items = 3)]
    query: String,
}

fn main() {}
