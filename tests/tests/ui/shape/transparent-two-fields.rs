use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
#[serde(transparent)]
struct Query {
    text: String,
    limit: u32,
}

fn main() {}
