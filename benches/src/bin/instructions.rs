//! One accepted call of the corpus, repeated, for valgrind's callgrind to count:
//! `instructions <surface> <call> <times>`. `benches/instructions.sh` runs it at two counts
//! and takes the difference, so the process's fixed cost cancels out and what is left is the
//! call itself.
//!
//! Surfaces: `stitch_from_value` and `serde_from_value` (each including a clone of the
//! arguments, which `clone` measures alone), `stitch_from_json` and `serde_from_json`.

use std::hint::black_box;
use std::process::ExitCode;

use serde::de::DeserializeOwned;
use serde_json::Value;
use stitch_benches::corpus::{well_formed, Act, Edit, Search, ViewFile};
use stitch_benches::shapes::{shapes, Flat20, Nested, OneField};
use stitch_runtime::ToolArgs;

/// What one surface does with one call, `times` times over. The surface is chosen once,
/// before the loop: a `match` on its name inside the loop would charge each surface the
/// string comparisons before its own arm, which differ from one surface to the next.
fn run<T: ToolArgs + DeserializeOwned>(surface: &str, value: &Value, times: usize) -> bool {
    let text = value.to_string();
    let text = text.as_str();
    match surface {
        "clone" => repeat(times, || {
            black_box(black_box(value).clone());
            true
        }),
        "stitch_from_value" => repeat(times, || {
            black_box(T::from_value(black_box(value).clone())).is_ok()
        }),
        "serde_from_value" => repeat(times, || {
            black_box(serde_json::from_value::<T>(black_box(value).clone())).is_ok()
        }),
        "stitch_from_json" => repeat(times, || black_box(T::from_json(black_box(text))).is_ok()),
        "serde_from_json" => repeat(times, || {
            black_box(serde_json::from_str::<T>(black_box(text))).is_ok()
        }),
        _ => false,
    }
}

/// `call` `times` times, stopping at the first that fails.
#[inline(always)]
fn repeat(times: usize, mut call: impl FnMut() -> bool) -> bool {
    (0..times).all(|_| call())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [surface, call, times] = args.as_slice() else {
        eprintln!("usage: instructions <surface> <call> <times>");
        return ExitCode::from(2);
    };
    let Ok(times) = times.parse::<usize>() else {
        eprintln!("times: not a number: {times}");
        return ExitCode::from(2);
    };
    let found = well_formed()
        .into_iter()
        .chain(shapes())
        .find(|(name, _)| name == call);
    let Some((_, value)) = found else {
        eprintln!("no well-formed call named {call}");
        return ExitCode::from(2);
    };
    // Statically dispatched on both sides, as in a server.
    let ok = match call.split('_').next().unwrap_or("") {
        "view" => run::<ViewFile>(surface, &value, times),
        "search" => run::<Search>(surface, &value, times),
        "edit" => run::<Edit>(surface, &value, times),
        "one" => run::<OneField>(surface, &value, times),
        "nested" => run::<Nested>(surface, &value, times),
        "flat" => run::<Flat20>(surface, &value, times),
        _ => run::<Act>(surface, &value, times),
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("{surface} {call}: not accepted (or no such surface)");
        ExitCode::FAILURE
    }
}
