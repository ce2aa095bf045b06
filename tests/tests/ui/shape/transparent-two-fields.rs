use serde::Deserialize;
use stitch_runtime::ToolArgs;

// serde refuses this too; both errors name the same mistake.
#[derive(Deserialize, ToolArgs)]
#[serde(transparent)]
struct Query {
    text: String,
    limit: u32,
}

// serde's failed derive emits no impl: this one keeps `ToolArgs`'s impls from adding
// "`Query: Deserialize` is not satisfied" errors to the two above.
impl<'de> serde::Deserialize<'de> for Query {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(Query { text, limit: 0 })
    }
}

fn main() {}
