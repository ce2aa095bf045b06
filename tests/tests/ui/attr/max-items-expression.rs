use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

const LIMIT: usize = 20;

#[derive(Deserialize, ToolArgs)]
struct ViewFile {
    #[stitch(max_items = LIMIT + 1)]
    paths: OneOrMany<String>,
}

fn main() {}
