use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
#[stitch(rename_all = "camelCase")]
struct ViewFile {
    #[stitch(max_item = 20)]
    paths: OneOrMany<String>,
    #[stitch(max_items = "20")]
    names: OneOrMany<String>,
    #[stitch(min_items = 1, min_items = 2)]
    tags: Vec<String>,
    #[stitch(min_items = 3, max_items = 1)]
    ids: Vec<u32>,
    #[stitch(opaque, min_items = 1)]
    after: Vec<std::time::Duration>,
    #[stitch(opaque = yes)]
    before: std::time::Duration,
}

fn main() {}
