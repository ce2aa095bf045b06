use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
#[stitch(crate = 5, krate = "stitch_runtime")]
struct Search {
    query: String,
}

fn main() {}
