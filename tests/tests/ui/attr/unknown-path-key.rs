use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
struct ViewFile {
    #[stitch(serde::rename = "x")]
    paths: OneOrMany<String>,
}

fn main() {}
