use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
#[stitch = "stitch_runtime"]
struct ViewFile {
    #[stitch]
    paths: OneOrMany<String>,
}

fn main() {}
