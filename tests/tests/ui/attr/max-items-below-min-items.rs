use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
struct ViewFile {
    #[stitch(min_items = 5, max_items = 2)]
    paths: OneOrMany<String>,
}

fn main() {}
