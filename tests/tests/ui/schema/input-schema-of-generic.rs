use stitch_runtime::{OneOrMany, ToolArgs};

#[derive(serde::Deserialize, ToolArgs)]
struct Wrapper<T> {
    items: OneOrMany<T>,
}

const SCHEMA: &str = Wrapper::<String>::INPUT_SCHEMA;

fn main() {
    println!("{SCHEMA}");
}
