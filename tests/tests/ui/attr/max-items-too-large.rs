use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
struct ViewFile {
    #[stitch(max_items = 100000000000000000000000)]
    paths: OneOrMany<String>,
}

fn main() {}
