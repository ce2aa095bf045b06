use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
struct ViewFile {
    #[stitch(max_items = 1.5)]
    paths: OneOrMany<String>,
}

fn main() {}
