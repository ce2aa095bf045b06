use stitch_runtime::ToolArgs;

#[derive(serde::Deserialize, ToolArgs)]
#[stitch(description = 5)]
struct Args {
    #[stitch(description = Some("x"))]
    name: String,
    #[stitch(description = "one", description = "two")]
    other: String,
}

fn main() {}
