//! Argument types and inputs shared by stitch's benchmarks (`benches/`): the criterion
//! benches and the instruction counts.

pub mod corpus;
pub mod harness;
pub mod shapes;

use serde::Deserialize;
use serde_json::{Map, Value};
use stitch_runtime::{OneOrMany, ToolArgs};

/// One path or many, unbounded: the README's tool without its `max_items`.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct ViewFile {
    /// One path or a list of paths.
    pub paths: OneOrMany<String>,
}

/// A list of strings: JSON text here is repaired.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Tags {
    /// The tags.
    pub tags: Vec<String>,
}

/// The sizes the array check is measured at, with their names.
pub const CHECK_SIZES: [(&str, usize); 3] = [("10B", 10), ("1KiB", 1 << 10), ("1MiB", 1 << 20)];

/// The texts of `len` bytes that are not lists, by kind, on which the array check is measured
/// against the serde oracle (`check_no` in `benches/perf.rs`, and `instructions_check`): plain
/// text, a bracketed name, and a list cut short (valid items all the way, then no closing
/// bracket).
pub fn not_lists(len: usize) -> [(&'static str, String); 3] {
    [
        ("plain", sized("img/photo.png ", len)),
        (
            "bracketed",
            format!("[preview]{}", sized(".png", len.saturating_sub(9))),
        ),
        (
            "truncated",
            format!("[1,2{}", sized(",3", len.saturating_sub(4))),
        ),
    ]
}

/// `len` bytes of `unit` repeated.
pub fn sized(unit: &str, len: usize) -> String {
    unit.repeat(len / unit.len() + 1)[..len].to_owned()
}

/// `{key: value}`, built without copying `value` (unlike `json!`, which serializes it).
pub fn args(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(key.to_owned(), value);
    Value::Object(map)
}

/// A string of `len` bytes that opens like a list written as text and is not one (its closing
/// bracket is missing), so the whole of it is scanned and it stays one value.
pub fn unclosed_list(len: usize) -> String {
    let mut text = String::with_capacity(len);
    text.push_str("[\"");
    text.extend(std::iter::repeat_n('a', len.saturating_sub(3)));
    text.push('"');
    text
}

/// A list of one string written as text, `len` bytes in all: scanned whole, then refused.
pub fn one_item_list(len: usize) -> String {
    let mut text = unclosed_list(len.saturating_sub(1));
    text.push(']');
    text
}

/// A real array of `n` short strings.
pub fn array(n: usize) -> Value {
    Value::Array((0..n).map(|i| Value::from(format!("f{i}.png"))).collect())
}

/// The same `n` strings as a list written as text.
pub fn array_text(n: usize) -> String {
    array(n).to_string()
}
