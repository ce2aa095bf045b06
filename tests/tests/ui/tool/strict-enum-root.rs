use serde::Deserialize;
use stitch_runtime::{tool, ToolArgs};

/// Edit or view a file.
#[derive(Deserialize, ToolArgs)]
#[serde(tag = "op")]
enum Act {
    View { path: String },
    Edit { path: String, text: String },
}

fn main() {
    // Fine everywhere else:
    let _ = tool::openai::<Act>("act", None);
    // Strict mode wants an object with properties at the root.
    let _ = tool::openai_strict::<Act>("act", None);
}
