//! Value constraints (issue #22): a shape with every keyword, generated at and across each
//! bound, and the one difference they bring ([`beyond_the_type`]).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use stitch_runtime::{OneOrMany, ToolArgs};

use super::schema_at;
use crate::one_answer::G;

/// Every constraint keyword, on numbers in a `Vec`, an `Option` and a map, and on strings in a
/// `OneOrMany` (with item bounds, which R3 weighs) and in a `Vec`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(crate) struct Limited {
    #[stitch(minimum = 1, maximum = 3600)]
    timeout: u32,
    #[stitch(exclusive_minimum = 0, exclusive_maximum = 1)]
    #[serde(default)]
    ratios: Vec<f64>,
    #[stitch(multiple_of = 5, maximum = 100)]
    #[serde(default)]
    step: Option<u16>,
    #[stitch(minimum = -2.5, maximum = 2.5, multiple_of = 0.5)]
    #[serde(default)]
    bias: Option<f64>,
    #[stitch(pattern = "^[a-z./]+$", max_length = 12, max_items = 2)]
    paths: OneOrMany<String>,
    #[stitch(min_length = 2, max_length = 4)]
    #[serde(default)]
    code: Option<String>,
    #[stitch(maximum = 10)]
    #[serde(default)]
    weights: BTreeMap<String, u8>,
    #[stitch(min_length = 1, pattern = "a")]
    #[serde(default)]
    tags: Vec<String>,
}

pub(super) static LIMITED: G = G::Obj(
    &[
        (
            "timeout",
            G::Ints(&[0, 1, 2, 3599, 3600, 3601, -1, 5_000_000_000]),
            true,
        ),
        (
            "ratios",
            G::Seq(&G::Floats(&[0.0, 0.5, 0.999, 1.0, 1.5, -0.5])),
            false,
        ),
        ("step", G::Ints(&[0, 5, 7, 100, 105, -5, 70_000]), false),
        (
            "bias",
            G::Floats(&[-3.0, -2.5, -1.0, 0.25, 0.5, 2.5, 2.75]),
            false,
        ),
        (
            "paths",
            G::OneOrMany(&G::Words(&[
                "a.png",
                "a/b",
                "B.png",
                "",
                "abcdefghijkl",
                "abcdefghijklm",
                "[\"a\"]",
                "[\"A\"]",
                "[\"a\",\"b\",\"c\"]",
                "x y",
            ])),
            true,
        ),
        (
            "code",
            G::Words(&["a", "ab", "abcd", "abcde", "é", "éé", "日本語日本"]),
            false,
        ),
        (
            "weights",
            G::Obj(&[], Some(&G::Ints(&[0, 10, 11, 300, -1]))),
            false,
        ),
        (
            "tags",
            G::Seq(&G::Words(&["", "a", "ab", "b", "[\"a\"]"])),
            false,
        ),
    ],
    None,
);

/// The integer types serde names, with their ranges.
const INTEGERS: [(&str, i128, i128); 8] = [
    ("u8", 0, u8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("u64", 0, u64::MAX as i128),
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
];

/// The derive's `message` at `path` as the coercer must say it, where the two differ by design
/// (`docs/rules.md`, "Where the two must differ"): at an integer whose `minimum`/`maximum` are
/// a constraint rather than its type's range, the schema cannot say the Rust type. serde
/// refuses a value beyond the type (`invalid value: integer `5000000000`, expected u32`),
/// which the coercer refuses by the bound it crosses (`5000000000 is greater than the maximum
/// of 3600`), and a value of another type expected as `u32` is `expected an integer`.
/// `None`: no such difference, the messages must be equal.
pub(super) fn beyond_the_type(schema: &Value, path: &str, message: &str) -> Option<String> {
    let reason = message.strip_prefix(path)?.strip_prefix(": ")?;
    let (head, ty) = reason.rsplit_once(", expected ")?;
    let &(_, lo, hi) = INTEGERS.iter().find(|(name, _, _)| *name == ty)?;
    let leaf = integer_at(schema_at(schema, path)?)?;
    let bound = |key: &str| {
        let n = leaf.get(key)?;
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    let (min, max) = (bound("minimum"), bound("maximum"));
    if (min, max) == (Some(lo), Some(hi)) {
        return None;
    }
    if head.starts_with("invalid type: ") {
        return Some(format!("{path}: {head}, expected an integer"));
    }
    let sent: i128 = head
        .strip_prefix("invalid value: integer `")?
        .strip_suffix('`')?
        .parse()
        .ok()?;
    match (min, max) {
        (Some(min), _) if sent < min => {
            Some(format!("{path}: {sent} is less than the minimum of {min}"))
        }
        (_, Some(max)) if sent > max => Some(format!(
            "{path}: {sent} is greater than the maximum of {max}"
        )),
        _ => None,
    }
}

/// The integer schema at a position: itself, or a union's integer member (`OneOrMany<u32>`'s
/// one value).
fn integer_at(schema: &Value) -> Option<&Value> {
    let integer = |s: &Value| match s.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(types)) => types.iter().any(|t| t == "integer"),
        _ => false,
    };
    if integer(schema) {
        return Some(schema);
    }
    schema
        .get("anyOf")
        .and_then(Value::as_array)?
        .iter()
        .find(|m| integer(m))
}
