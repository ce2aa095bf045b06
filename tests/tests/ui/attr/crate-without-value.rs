use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
#[stitch(crate)]
struct Search {
    query: String,
}

fn main() {}
