use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
#[stitch(crate = "not a path")]
struct Search {
    query: String,
}

fn main() {}
