use serde::Deserialize;
use stitch_runtime::{tool, ToolArgs};

#[derive(Deserialize, ToolArgs)]
struct Window {
    size: (u32, u32),
}

/// Open a window.
#[derive(Deserialize, ToolArgs)]
struct Open {
    windows: Vec<Window>,
}

fn main() {
    let _ = tool::openai_strict::<Open>("open", None);
}
