use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
enum Wait {
    For(std::time::Duration),
    Until { at: std::time::SystemTime },
}

fn main() {}
