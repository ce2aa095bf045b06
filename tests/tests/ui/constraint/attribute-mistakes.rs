use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Job {
    #[stitch(minimum = 10, maximum = 5)]
    a: u32,
    #[stitch(exclusive_minimum = 1, exclusive_maximum = 1)]
    b: f64,
    #[stitch(min_length = 5, max_length = 2)]
    c: String,
    #[stitch(multiple_of = 0)]
    d: u32,
    #[stitch(minimum = "1", maximum = 1u8)]
    e: u32,
    #[stitch(min_length = -1, minimum)]
    f: String,
    #[stitch(minimum = 1, minimum = 2)]
    g: u32,
    #[stitch(pattern = "(unclosed")]
    h: String,
    #[stitch(pattern = "(?=ahead)x")]
    i: String,
    #[stitch(pattern = "(?i)abc")]
    j: String,
    #[stitch(pattern = "\\Aabc\\z")]
    k: String,
    #[stitch(pattern = "[[:alpha:]]+")]
    l: String,
    #[stitch(opaque, max_length = 3)]
    m: String,
    #[stitch(format = "phone")]
    o: String,
}

#[derive(Deserialize, ToolArgs)]
struct Generic<T> {
    #[stitch(minimum = 1)]
    n: T,
}

fn main() {}
