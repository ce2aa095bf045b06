use stitch_runtime::ToolArgs;

#[derive(serde::Deserialize, ToolArgs)]
#[stitch(crate = "stitch_runtime::no_such_module")]
struct Args {
    paths: Vec<String>,
}

fn main() {}
