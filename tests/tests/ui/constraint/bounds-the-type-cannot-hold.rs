use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

/// Bounds that compile as numbers but that no value of the field's type can meet, and an
/// option on a field it cannot apply to: each a compile error at its token.
#[derive(Deserialize, ToolArgs)]
struct Impossible {
    #[stitch(exclusive_maximum = 0)]
    level: u8,
    #[stitch(minimum = 1.5)]
    count: u32,
    #[stitch(exclusive_minimum = 1, exclusive_maximum = 2)]
    slot: i32,
    #[stitch(maximum = 0.5)]
    #[serde(default)]
    retries: Option<u16>,
    #[stitch(lenient_scalars)]
    ids: OneOrMany<u32>,
}

/// What stays accepted: a fractional bound on a float, an exclusive bound inside the range, a
/// whole float on an integer, `lenient_scalars` on numbers.
#[derive(Deserialize, ToolArgs)]
struct Fine {
    #[stitch(exclusive_maximum = 0.5)]
    ratio: f32,
    #[stitch(exclusive_maximum = 1)]
    flag: u8,
    #[stitch(maximum = 1e3)]
    size: u32,
    #[stitch(lenient_scalars)]
    sizes: Vec<u64>,
}

fn main() {}
