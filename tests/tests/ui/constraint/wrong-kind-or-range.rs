use serde::Deserialize;
use stitch_runtime::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct Job {
    #[stitch(minimum = 1)]
    name: String,
    #[stitch(max_length = 8)]
    timeout: u32,
    #[stitch(pattern = "^[a-z]$")]
    initial: char,
    #[stitch(multiple_of = 2)]
    labels: Vec<String>,
    #[stitch(maximum = 300)]
    level: u8,
    #[stitch(minimum = -1)]
    count: Option<Vec<u32>>,
    #[stitch(format = "email")]
    contact: u32,
}

fn main() {}
