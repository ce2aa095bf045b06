use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(Deserialize, ToolArgs)]
enum Source {
    Paths {
        #[stitch(max = 20)]
        paths: OneOrMany<String>,
    },
    Url(#[stitch(opaque = "yes")] String),
}

fn main() {}
