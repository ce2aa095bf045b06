use std::collections::HashMap;

use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Env {
    #[stitch(min_items = 1)]
    vars: HashMap<String, String>,
}

fn main() {}
