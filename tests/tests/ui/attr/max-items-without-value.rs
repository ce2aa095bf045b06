use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
struct ViewFile {
    #[stitch(max_items, min_items(1))]
    paths: OneOrMany<String>,
}

fn main() {}
