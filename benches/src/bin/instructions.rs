//! stitch's side of the instruction counts (`benches/instructions.sh`; the harness:
//! `stitch_benches::harness`). Surfaces: `stitch_from_value` (including a clone of the
//! arguments, which `clone` measures alone) and `stitch_from_json`.

use std::hint::black_box;
use std::process::ExitCode;

use serde::de::DeserializeOwned;
use serde_json::Value;
use stitch_benches::harness::{self, repeat, Surfaces};
use stitch_runtime::ToolArgs;

struct Stitch;

impl Surfaces for Stitch {
    fn run<T: ToolArgs + DeserializeOwned>(
        surface: &str,
        value: &Value,
        text: &str,
        times: usize,
    ) -> bool {
        match surface {
            "clone" => harness::clone(value, times),
            "stitch_from_value" => repeat(times, || {
                black_box(T::from_value(black_box(value).clone())).is_ok()
            }),
            "stitch_from_json" => {
                repeat(times, || black_box(T::from_json(black_box(text))).is_ok())
            }
            _ => false,
        }
    }
}

fn main() -> ExitCode {
    harness::main::<Stitch>()
}
