use serde::Deserialize;
use stitch_runtime::ToolArgs;

// A type of another crate cannot derive `ToolArgs` here: the error says what to do instead,
// once, at the field.
#[derive(Deserialize, ToolArgs)]
struct Ping {
    host: std::net::IpAddr,
}

fn main() {}
