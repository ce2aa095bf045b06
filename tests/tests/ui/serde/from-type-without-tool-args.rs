use stitch_runtime::ToolArgs;

// serde reads `RawSpan`, but stitch cannot walk it.
#[derive(serde::Deserialize)]
struct RawSpan {
    start: u32,
}

#[derive(serde::Deserialize, ToolArgs)]
#[serde(from = "RawSpan")]
struct Span {
    first: u32,
}

impl From<RawSpan> for Span {
    fn from(raw: RawSpan) -> Span {
        Span { first: raw.start }
    }
}

fn main() {}
