use stitch_runtime::ToolArgs;

#[derive(serde::Deserialize, ToolArgs)]
struct Args {
    name: String,
    #[serde(skip)]
    #[stitch(description = "Never shown.")]
    cache: Vec<String>,
}

fn main() {}
