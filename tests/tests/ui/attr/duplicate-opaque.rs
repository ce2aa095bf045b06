use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Timeout {
    #[stitch(opaque, opaque)]
    after: std::time::Duration,
}

fn main() {}
