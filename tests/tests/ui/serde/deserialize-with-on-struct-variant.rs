use serde::{Deserialize, Deserializer};
use stitch_runtime::ToolArgs;

fn pair<'de, D: Deserializer<'de>>(d: D) -> Result<(u32, u32), D::Error> {
    let text = String::deserialize(d)?;
    let (a, b) = text.split_once('-').unwrap_or(("0", "0"));
    Ok((a.parse().unwrap_or(0), b.parse().unwrap_or(0)))
}

// The function reads the whole content: stitch can leave it alone only in a newtype variant.
#[derive(Deserialize, ToolArgs)]
enum Op {
    #[serde(deserialize_with = "pair")]
    Range { start: u32, end: u32 },
    #[serde(deserialize_with = "pair")]
    Pair(u32, u32),
}

fn main() {}
