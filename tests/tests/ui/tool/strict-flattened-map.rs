use std::collections::HashMap;

use serde::Deserialize;
use stitch_runtime::{tool, ToolArgs};

/// Run a command.
#[derive(Deserialize, ToolArgs)]
struct Run {
    command: String,
    #[serde(flatten)]
    env: HashMap<String, String>,
}

fn main() {
    let _ = tool::openai_responses_strict::<Run>("run", None);
}
