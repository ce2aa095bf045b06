//! The array check against the serde oracle on a text that is not a list, repeated, for
//! valgrind's callgrind to count: `instructions_check <stitch|oracle> <text> <times>`.
//! `benches/instructions.sh --array-check` runs it at two counts and takes the difference.
//! A binary of its own, apart from `instructions`: code added to that one moves the compiler's
//! inlining of the corpus calls, and with it their counts.

use std::hint::black_box;
use std::process::ExitCode;

fn main() -> ExitCode {
    let (side, call, times) =
        match stitch_benches::harness::args("instructions_check <stitch|oracle> <text> <times>") {
            Ok(args) => args,
            Err(code) => return code,
        };
    let (side, call) = (side.as_str(), call.as_str());
    match array_check(side, call, times) {
        Some(true) => ExitCode::SUCCESS,
        Some(false) => ExitCode::FAILURE,
        None => {
            eprintln!("no array check {side} {call}");
            ExitCode::from(2)
        }
    }
}

/// `call` `times` times, stopping at the first that fails.
fn repeat(times: usize, mut call: impl FnMut() -> bool) -> bool {
    (0..times).all(|_| call())
}

/// The array check (`stitch`) or the serde oracle (`oracle`) on a text that is
/// not a list, `times` times: `call` is `plain`, `bracketed` or `truncated` and a size (`10B`,
/// `1KiB`, `1MiB`), the texts of the `check_no` group of `benches/perf.rs`. `true` when every
/// answer was "not a list".
fn array_check(side: &str, call: &str, times: usize) -> Option<bool> {
    use stitch_runtime::__private::{is_json_string, is_text_list, Bounds};
    let (kind, size) = call.split_once('_')?;
    let len = stitch_benches::CHECK_SIZES
        .iter()
        .find(|(name, _)| *name == size)?
        .1;
    let (_, text) = stitch_benches::not_lists(len)
        .into_iter()
        .find(|(name, _)| *name == kind)?;
    let text = text.as_str();
    match side {
        "stitch" => Some(repeat(times, || {
            !is_text_list(black_box(text), is_json_string, Bounds::NONE)
        })),
        "oracle" => Some(repeat(times, || {
            serde_json::from_str::<Vec<String>>(black_box(text)).is_err()
        })),
        _ => None,
    }
}
