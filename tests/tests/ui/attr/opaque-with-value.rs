use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Timeout {
    #[stitch(opaque = true)]
    after: std::time::Duration,
}

fn main() {}
