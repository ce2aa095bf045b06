//! One tool's arguments under the same constraints, written three ways: stitch's
//! `#[stitch(…)]` (checked by the walk as the call is read), `validator`'s `#[validate(…)]` and
//! `garde`'s `#[garde(…)]` (each checked by `.validate()` after `serde_json` has read the call).
//! Shared by the criterion bench (`benches/constraints.rs`) and the instruction counts
//! (`examples/instructions_constraints.rs`, `benches/instructions.sh --constraints`).
//!
//! The constraints are those all three can state, after `tests/src/tools.rs`'s `Schedule`:
//! ranges (inclusive), lengths in characters, a pattern, a list's length, and each item of a
//! list. Left out, for all three: `exclusive_minimum`/`exclusive_maximum` and `multiple_of`
//! (garde has neither), and `OneOrMany` (stitch's own; a plain `Vec` here). `validator` has no
//! rule for a list's items: a `custom` function applies its own `length`, `regex` and `range`
//! checks to each item (what a user of it writes). The patterns run on `regex-lite` in stitch
//! and on `regex` (default features) in `validator` and `garde`.

// The fields exist for serde to fill; the measurements never read them back.
#![allow(dead_code)]

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::ToolArgs;
use validator::{ValidateLength, ValidateRange, ValidateRegex, ValidationError};

/// Schedule a job (stitch: the constraints in the derive).
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Stitched {
    /// The job's name: lowercase letters, digits and dashes.
    #[stitch(min_length = 1, max_length = 32, pattern = "^[a-z0-9-]+$")]
    name: String,
    /// Seconds before the job is stopped.
    #[stitch(minimum = 1, maximum = 3600)]
    timeout_secs: u32,
    /// Minutes between runs.
    #[stitch(minimum = 5, maximum = 1440)]
    #[serde(default)]
    every_minutes: Option<u16>,
    /// The share of the machine it may use.
    #[stitch(minimum = 0, maximum = 1)]
    #[serde(default)]
    share: Option<f64>,
    /// Labels in lowercase.
    #[stitch(max_items = 5, min_length = 2, max_length = 16, pattern = "^[a-z]+$")]
    #[serde(default)]
    tags: Vec<String>,
    /// Seconds to wait before each retry.
    #[stitch(maximum = 600)]
    #[serde(default)]
    retry_delays: Vec<u32>,
}

/// The same fields without #22's constraints (the list's `max_items`, which is older, kept):
/// what stitch costs on this call without them, the `from_json` fast path included.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Unconstrained {
    name: String,
    timeout_secs: u32,
    #[serde(default)]
    every_minutes: Option<u16>,
    #[serde(default)]
    share: Option<f64>,
    #[stitch(max_items = 5)]
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    retry_delays: Vec<u32>,
}

static NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new("^[a-z0-9-]+$").unwrap());
static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new("^[a-z]+$").unwrap());

/// The same, checked by `validator`.
#[derive(Debug, Deserialize, validator::Validate)]
pub struct WithValidator {
    #[validate(length(min = 1, max = 32), regex(path = *NAME))]
    name: String,
    #[validate(range(min = 1, max = 3600))]
    timeout_secs: u32,
    #[validate(range(min = 5, max = 1440))]
    #[serde(default)]
    every_minutes: Option<u16>,
    #[validate(range(min = 0.0, max = 1.0))]
    #[serde(default)]
    share: Option<f64>,
    #[validate(length(max = 5), custom(function = "tag_items"))]
    #[serde(default)]
    tags: Vec<String>,
    #[validate(custom(function = "delay_items"))]
    #[serde(default)]
    retry_delays: Vec<u32>,
}

/// `validator`'s own checks on each tag.
fn tag_items(tags: &[String]) -> Result<(), ValidationError> {
    for tag in tags {
        if !tag.validate_length(Some(2), Some(16), None) || !tag.validate_regex(&*TAG) {
            return Err(ValidationError::new("tag"));
        }
    }
    Ok(())
}

/// `validator`'s own range check on each delay.
fn delay_items(delays: &[u32]) -> Result<(), ValidationError> {
    for delay in delays {
        if !delay.validate_range(None, Some(600), None, None) {
            return Err(ValidationError::new("range"));
        }
    }
    Ok(())
}

/// The same, checked by `garde`.
#[derive(Debug, Deserialize, garde::Validate)]
pub struct WithGarde {
    #[garde(length(chars, min = 1, max = 32), pattern(r"^[a-z0-9-]+$"))]
    name: String,
    #[garde(range(min = 1, max = 3600))]
    timeout_secs: u32,
    #[garde(range(min = 5, max = 1440))]
    #[serde(default)]
    every_minutes: Option<u16>,
    #[garde(range(min = 0.0, max = 1.0))]
    #[serde(default)]
    share: Option<f64>,
    #[garde(
        length(max = 5),
        inner(length(chars, min = 2, max = 16), pattern(r"^[a-z]+$"))
    )]
    #[serde(default)]
    tags: Vec<String>,
    #[garde(inner(range(max = 600)))]
    #[serde(default)]
    retry_delays: Vec<u32>,
}

/// The same constraints less the two patterns, for stitch: what the walk and the other bounds
/// cost without the pattern engine (`regex-lite` in stitch, `regex` in the other two).
#[derive(Debug, Deserialize, ToolArgs)]
pub struct StitchedNoPattern {
    #[stitch(min_length = 1, max_length = 32)]
    name: String,
    #[stitch(minimum = 1, maximum = 3600)]
    timeout_secs: u32,
    #[stitch(minimum = 5, maximum = 1440)]
    #[serde(default)]
    every_minutes: Option<u16>,
    #[stitch(minimum = 0, maximum = 1)]
    #[serde(default)]
    share: Option<f64>,
    #[stitch(max_items = 5, min_length = 2, max_length = 16)]
    #[serde(default)]
    tags: Vec<String>,
    #[stitch(maximum = 600)]
    #[serde(default)]
    retry_delays: Vec<u32>,
}

/// The same for `validator`.
#[derive(Debug, Deserialize, validator::Validate)]
pub struct ValidatorNoPattern {
    #[validate(length(min = 1, max = 32))]
    name: String,
    #[validate(range(min = 1, max = 3600))]
    timeout_secs: u32,
    #[validate(range(min = 5, max = 1440))]
    #[serde(default)]
    every_minutes: Option<u16>,
    #[validate(range(min = 0.0, max = 1.0))]
    #[serde(default)]
    share: Option<f64>,
    #[validate(length(max = 5), custom(function = "tag_lengths"))]
    #[serde(default)]
    tags: Vec<String>,
    #[validate(custom(function = "delay_items"))]
    #[serde(default)]
    retry_delays: Vec<u32>,
}

/// `validator`'s length check on each tag.
fn tag_lengths(tags: &[String]) -> Result<(), ValidationError> {
    match tags
        .iter()
        .all(|tag| tag.validate_length(Some(2), Some(16), None))
    {
        true => Ok(()),
        false => Err(ValidationError::new("tag")),
    }
}

/// The same for `garde`.
#[derive(Debug, Deserialize, garde::Validate)]
pub struct GardeNoPattern {
    #[garde(length(chars, min = 1, max = 32))]
    name: String,
    #[garde(range(min = 1, max = 3600))]
    timeout_secs: u32,
    #[garde(range(min = 5, max = 1440))]
    #[serde(default)]
    every_minutes: Option<u16>,
    #[garde(range(min = 0.0, max = 1.0))]
    #[serde(default)]
    share: Option<f64>,
    #[garde(length(max = 5), inner(length(chars, min = 2, max = 16)))]
    #[serde(default)]
    tags: Vec<String>,
    #[garde(inner(range(max = 600)))]
    #[serde(default)]
    retry_delays: Vec<u32>,
}

/// A call every bound accepts.
pub fn accepted() -> Value {
    json!({
        "name": "nightly-build",
        "timeout_secs": 900,
        "every_minutes": 60,
        "share": 0.5,
        "tags": ["ci", "nightly", "build"],
        "retry_delays": [10, 60, 300]
    })
}

/// The same call with one bound broken: `timeout_secs` over its maximum.
pub fn refused() -> Value {
    let mut call = accepted();
    call["timeout_secs"] = json!(3601);
    call
}

/// The two calls, by name.
pub fn calls() -> [(&'static str, Value); 2] {
    [("accepted", accepted()), ("refused", refused())]
}
