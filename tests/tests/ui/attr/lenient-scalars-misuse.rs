use stitch_runtime::ToolArgs;

#[derive(serde::Deserialize)]
struct Stamp(u64);

#[derive(serde::Deserialize, ToolArgs)]
#[stitch(lenient_scalars = true)]
struct Args {
    #[stitch(opaque, lenient_scalars)]
    stamp: Stamp,
    #[stitch(lenient_scalars, lenient_scalars)]
    count: u32,
}

fn main() {}
