use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Deserialize, ToolArgs)]
struct Move {
    to: Point,
}

fn main() {}
