use serde::Deserialize;
use stitch_runtime::{tool, ToolArgs};

/// Label a file.
#[derive(Deserialize, ToolArgs)]
struct Label {
    file: String,
    #[serde(default)]
    labels: std::collections::BTreeMap<String, String>,
}

fn main() {
    // Strict mode closes every object: a map cannot be said. The error is at this call,
    // once, and points at the field.
    let _ = tool::openai_strict::<Label>("label", None);
}
