use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Timeout {
    after: std::time::Duration,
}

fn main() {}
