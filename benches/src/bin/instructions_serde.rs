//! Plain serde's side of the instruction counts, in a binary without stitch's surfaces
//! (`benches/instructions.sh`; the harness: `stitch_benches::harness`). Surfaces:
//! `serde_from_value` (including a clone of the arguments, which `clone` measures alone) and
//! `serde_from_json`.

use std::hint::black_box;
use std::process::ExitCode;

use serde::de::DeserializeOwned;
use serde_json::Value;
use stitch_benches::harness::{self, repeat, Surfaces};
use stitch_runtime::ToolArgs;

struct Serde;

impl Surfaces for Serde {
    fn run<T: ToolArgs + DeserializeOwned>(
        surface: &str,
        value: &Value,
        text: &str,
        times: usize,
    ) -> bool {
        match surface {
            "clone" => harness::clone(value, times),
            "serde_from_value" => repeat(times, || {
                black_box(serde_json::from_value::<T>(black_box(value).clone())).is_ok()
            }),
            "serde_from_json" => repeat(times, || {
                black_box(serde_json::from_str::<T>(black_box(text))).is_ok()
            }),
            _ => false,
        }
    }
}

fn main() -> ExitCode {
    harness::main::<Serde>()
}
