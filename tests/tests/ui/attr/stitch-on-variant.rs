use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
enum Source {
    #[stitch(max_items = 3)]
    Paths(Vec<String>),
    Url(String),
}

fn main() {}
