use stitch_runtime::ToolArgs;

#[derive(serde::Deserialize)]
struct Stamp(String);

#[derive(serde::Deserialize, ToolArgs)]
struct Args {
    #[stitch(opaque, schema = "{type: string}")]
    stamp: Stamp,
}

fn main() {}
