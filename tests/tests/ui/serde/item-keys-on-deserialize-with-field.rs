use serde::{Deserialize, Deserializer};
use stitch_runtime::ToolArgs;

fn comma_separated<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let text = String::deserialize(d)?;
    Ok(text.split(',').map(str::to_owned).collect())
}

// The function reads the value as sent: stitch checks and repairs nothing there.
#[derive(Deserialize, ToolArgs)]
struct Args {
    #[serde(deserialize_with = "comma_separated")]
    #[stitch(max_items = 3, lenient_scalars)]
    cols: Vec<String>,
    #[serde(with = "comma_list")]
    #[stitch(min_items = 1)]
    keys: Vec<String>,
}

mod comma_list {
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        super::comma_separated(d)
    }
}

fn main() {}
