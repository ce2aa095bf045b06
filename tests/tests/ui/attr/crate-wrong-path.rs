use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
#[stitch(crate = "stitch_runtime::no_such_module")]
struct Search {
    query: String,
}

fn main() {}
