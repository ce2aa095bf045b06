use serde_json::Value;
use stitch_runtime::{tool, ObjectArgs, ToolArgs};

// `ToolArgs` alone does not say the arguments are an object: the compiler asks for the public
// bound, which the helper below names.
fn schema_of<T: ToolArgs>() -> Value {
    tool::mcp::<T>("n", None)
}

fn named<T: ObjectArgs>() -> Value {
    tool::mcp::<T>("n", None)
}

/// A mode, written as its name.
#[derive(serde::Deserialize, ToolArgs)]
enum Mode {
    Fast,
}

fn main() {
    let _ = schema_of::<Mode>();
    let _ = named::<Mode>();
}
