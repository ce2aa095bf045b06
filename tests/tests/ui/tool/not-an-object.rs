use serde::Deserialize;
use stitch_runtime::{tool, ToolArgs};

/// A mode, written as its name.
#[derive(Deserialize, ToolArgs)]
enum Mode {
    Fast,
    Careful,
}

/// One or more numbers, or a name.
#[derive(Deserialize, ToolArgs)]
#[serde(untagged)]
enum Pick {
    Name(String),
    Ids(Vec<u32>),
}

fn main() {
    let _ = tool::mcp::<Mode>("mode", None);
    let _ = tool::gemini::<Pick>("pick", None);
}
