use stitch_runtime::ToolArgs;

#[derive(ToolArgs)]
union Number {
    int: u64,
    float: f64,
}

// serde cannot derive `Deserialize` for a union; this one exists so that the only error is ours.
impl<'de> serde::Deserialize<'de> for Number {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        u64::deserialize(deserializer).map(|int| Number { int })
    }
}

fn main() {}
