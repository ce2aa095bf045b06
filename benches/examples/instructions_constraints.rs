//! One constrained call (`benches/constraints/schedule.rs`), repeated, for valgrind's
//! callgrind to count: `instructions_constraints <surface> <call> <times>`, the call `accepted`,
//! `refused`, or `accepted_no_pattern` (the first, read as the structs without the patterns). `benches/instructions.sh --constraints` runs it at two counts and takes the
//! difference, as `src/bin/instructions.rs` does for the corpus. An example rather than a bin
//! because `validator` and `garde` are dev-dependencies; behind the feature `constraint-counts`
//! so that `cargo test --workspace` does not build it (and criterion with it).
//!
//! Surfaces: `stitch_from_value`, `validator_from_value`, `garde_from_value`,
//! `serde_from_value` (serde_json alone, nothing checked) and `unconstrained_from_value`
//! (stitch on the same fields without the constraints), each including a clone of the
//! arguments, which `clone` measures alone; the same five `*_from_json`.

#[path = "../benches/constraints/schedule.rs"]
mod schedule;

use std::hint::black_box;
use std::process::ExitCode;

use serde::de::DeserializeOwned;
use serde_json::Value;
use stitch_runtime::ToolArgs;

use schedule::{
    accepted, calls, GardeNoPattern, Stitched, StitchedNoPattern, Unconstrained,
    ValidatorNoPattern, WithGarde, WithValidator,
};

/// serde_json's verdict on `value`, then `check`'s.
fn serde_value<T: DeserializeOwned>(value: &Value, check: impl Fn(T) -> bool) -> bool {
    black_box(serde_json::from_value::<T>(black_box(value).clone()).is_ok_and(check))
}

fn serde_text<T: DeserializeOwned>(text: &str, check: impl Fn(T) -> bool) -> bool {
    black_box(serde_json::from_str::<T>(black_box(text)).is_ok_and(check))
}

fn by_validator<T: validator::Validate>(v: T) -> bool {
    v.validate().is_ok()
}

fn by_garde<T: garde::Validate<Context = ()>>(v: T) -> bool {
    v.validate().is_ok()
}

/// Whether `surface` accepts `value` read as stitch's `S`, validator's `V` or garde's `G`, or
/// `None` for no such surface.
fn once<S, V, G>(surface: &str, value: &Value, text: &str) -> Option<bool>
where
    S: ToolArgs,
    V: DeserializeOwned + validator::Validate,
    G: DeserializeOwned + garde::Validate<Context = ()>,
{
    Some(match surface {
        "clone" => {
            black_box(black_box(value).clone());
            true
        }
        "stitch_from_value" => black_box(S::from_value(black_box(value).clone())).is_ok(),
        "validator_from_value" => serde_value(value, by_validator::<V>),
        "garde_from_value" => serde_value(value, by_garde::<G>),
        "serde_from_value" => serde_value(value, |_: V| true),
        "unconstrained_from_value" => {
            black_box(Unconstrained::from_value(black_box(value).clone())).is_ok()
        }
        "stitch_from_json" => black_box(S::from_json(black_box(text))).is_ok(),
        "validator_from_json" => serde_text(text, by_validator::<V>),
        "garde_from_json" => serde_text(text, by_garde::<G>),
        "serde_from_json" => serde_text(text, |_: V| true),
        "unconstrained_from_json" => black_box(Unconstrained::from_json(black_box(text))).is_ok(),
        _ => return None,
    })
}

fn main() -> ExitCode {
    let (surface, call, times) =
        match stitch_benches::harness::args("instructions_constraints <surface> <call> <times>") {
            Ok(args) => args,
            Err(code) => return code,
        };
    let (surface, call) = (surface.as_str(), call.as_str());
    // The third call is the first read as the structs without the patterns.
    let no_pattern = call == "accepted_no_pattern";
    let found = match no_pattern {
        true => Some(accepted()),
        false => calls()
            .into_iter()
            .find(|(name, _)| *name == call)
            .map(|(_, v)| v),
    };
    let Some(value) = found else {
        eprintln!("no call named {call} (accepted, refused, accepted_no_pattern)");
        return ExitCode::from(2);
    };
    let text = value.to_string();
    // What each surface must answer: serde alone, stitch without the constraints (and the
    // clone) accept both calls.
    let want = call.starts_with("accepted")
        || surface == "clone"
        || surface.starts_with("serde_")
        || surface.starts_with("unconstrained_");
    for _ in 0..times {
        let got = match no_pattern {
            false => once::<Stitched, WithValidator, WithGarde>(surface, &value, &text),
            true => once::<StitchedNoPattern, ValidatorNoPattern, GardeNoPattern>(
                surface, &value, &text,
            ),
        };
        match got {
            None => {
                eprintln!("no surface named {surface}");
                return ExitCode::from(2);
            }
            Some(got) if got != want => {
                eprintln!("{surface} {call}: accepted {got}, expected {want}");
                return ExitCode::FAILURE;
            }
            Some(_) => {}
        }
    }
    ExitCode::SUCCESS
}
