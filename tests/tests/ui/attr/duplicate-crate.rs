use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
#[stitch(crate = "stitch_runtime")]
#[stitch(crate = "stitch_runtime")]
struct Search {
    query: String,
}

fn main() {}
