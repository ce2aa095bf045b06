use stitch_runtime::ToolArgs;

#[derive(serde::Deserialize, ToolArgs)]
struct Args {
    #[stitch(schema = r#"{"type": "string"}"#)]
    name: String,
}

fn main() {}
