use stitch_runtime::ToolArgs;

#[derive(serde::Deserialize, ToolArgs)]
struct RawSpan {
    start: u32,
    tags: Vec<String>,
}

// The container's body is not what serde reads: its `#[stitch]` keys could never apply.
#[derive(serde::Deserialize, ToolArgs)]
#[serde(try_from = "RawSpan")]
#[stitch(description = "A span.", lenient_scalars)]
struct Span {
    first: u32,
    #[stitch(max_items = 2, description = "Labels.")]
    labels: Vec<String>,
}

impl TryFrom<RawSpan> for Span {
    type Error = String;
    fn try_from(raw: RawSpan) -> Result<Span, String> {
        Ok(Span {
            first: raw.start,
            labels: raw.tags,
        })
    }
}

fn main() {}
