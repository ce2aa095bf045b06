use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
struct ViewFile {
    #[stitch(max_items = 20, max_items = 30)]
    paths: OneOrMany<String>,
}

fn main() {}
