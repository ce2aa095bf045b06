use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Timeouts {
    each: Vec<std::time::Duration>,
}

fn main() {}
