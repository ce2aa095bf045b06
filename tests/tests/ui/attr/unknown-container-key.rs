use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
#[stitch(rename_all = "camelCase")]
struct ViewFile {
    paths: OneOrMany<String>,
}

fn main() {}
