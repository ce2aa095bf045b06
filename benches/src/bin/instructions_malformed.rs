//! One malformed call of the corpus (a list written as text, refused; JSON text, repaired),
//! repeated, for valgrind's callgrind to count: `instructions_malformed <surface> <call>
//! <times>`, surfaces `stitch_from_value` (including a clone of the arguments, which `clone`
//! measures alone) and `stitch_from_json`. `benches/instructions.sh --malformed` runs it at two
//! counts and takes the difference. serde has no answer to compare with (it reads these calls
//! wrong or not at all): the figures are followed from one change to the next. A binary of its
//! own, apart from `instructions`, whose inlining of the accepted calls it would move.

use std::hint::black_box;
use std::process::ExitCode;

use serde_json::Value;
use stitch_benches::corpus::{malformed, Act, Edit, Search, ViewFile};
use stitch_benches::shapes::{repaired, Flat20Defaults};
use stitch_runtime::ToolArgs;

/// `times` calls of one surface; the answer (`true`: accepted, repaired) if every call gave
/// the same one.
fn run<T: ToolArgs>(surface: &str, value: &Value, times: usize) -> Option<bool> {
    let text = value.to_string();
    let text = text.as_str();
    match surface {
        "clone" => same(times, || {
            black_box(black_box(value).clone());
            true
        }),
        "stitch_from_value" => same(times, || {
            black_box(T::from_value(black_box(value).clone())).is_ok()
        }),
        "stitch_from_json" => same(times, || black_box(T::from_json(black_box(text))).is_ok()),
        _ => None,
    }
}

/// `call` `times` times: its answer, if it never changed.
#[inline(always)]
fn same(times: usize, mut call: impl FnMut() -> bool) -> Option<bool> {
    let first = call();
    (1..times).all(|_| call() == first).then_some(first)
}

fn main() -> ExitCode {
    let (surface, call, times) =
        match stitch_benches::harness::args("instructions_malformed <surface> <call> <times>") {
            Ok(args) => args,
            Err(code) => return code,
        };
    let (surface, call) = (surface.as_str(), call.as_str());
    let found = malformed()
        .into_iter()
        .chain(repaired())
        .find(|(name, _)| *name == call);
    let Some((_, value)) = found else {
        eprintln!("no malformed call named {call}");
        return ExitCode::from(2);
    };
    let answer = match call.split('_').next().unwrap_or("") {
        "view" => run::<ViewFile>(surface, &value, times),
        "search" => run::<Search>(surface, &value, times),
        "edit" => run::<Edit>(surface, &value, times),
        "flat" => run::<Flat20Defaults>(surface, &value, times),
        _ => run::<Act>(surface, &value, times),
    };
    match answer {
        // What the call came to, for the table.
        Some(accepted) => {
            println!("{}", if accepted { "repaired" } else { "refused" });
            ExitCode::SUCCESS
        }
        None => {
            eprintln!(
                "{surface} {call}: answers differ from one call to the next (or no such surface)"
            );
            ExitCode::FAILURE
        }
    }
}
