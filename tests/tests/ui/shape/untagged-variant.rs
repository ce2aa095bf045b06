use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
enum Source {
    Url(String),
    #[serde(untagged)]
    Paths(Vec<String>),
}

fn main() {}
