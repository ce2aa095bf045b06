//! The instruction counts' harness, shared by `instructions` (stitch's surfaces) and
//! `instructions_serde` (plain serde's): one accepted call of the corpus, repeated, for
//! callgrind to count: `<binary> <surface> <call> <times>`. Plain serde is measured in a binary
//! of its own, so that its code is laid out and inlined as in a program without stitch: in one
//! binary, shared instantiations moved serde's count for view_file_20 by a third when an
//! unrelated line of the runtime changed.

use std::hint::black_box;
use std::process::ExitCode;

use serde::de::DeserializeOwned;
use serde_json::Value;
use stitch_runtime::ToolArgs;

use crate::corpus::{well_formed, Act, Edit, Search, ViewFile};
use crate::shapes::{shapes, Flat20, Nested, OneField};

/// One binary's surfaces: what `surface` does with one call, `times` times over (`false` for a
/// surface it does not have). Chosen once, before the loop: a `match` inside the loop would
/// charge each surface the string comparisons before its own arm.
pub trait Surfaces {
    /// Runs `surface` on `value` (`text` is its JSON text) `times` times.
    fn run<T: ToolArgs + DeserializeOwned>(
        surface: &str,
        value: &Value,
        text: &str,
        times: usize,
    ) -> bool;
}

/// `clone`, every binary's: the clone of the arguments that `from_value` pays, measured alone.
pub fn clone(value: &Value, times: usize) -> bool {
    repeat(times, || {
        black_box(black_box(value).clone());
        true
    })
}

/// Every counting binary's three arguments, `<what> <input> <times>`; exit code 2, with `usage`
/// said, when they are not that.
pub fn args(usage: &str) -> Result<(String, String, usize), ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [what, input, times] = args.as_slice() else {
        eprintln!("usage: {usage}");
        return Err(ExitCode::from(2));
    };
    let Ok(times) = times.parse::<usize>() else {
        eprintln!("times: not a number: {times}");
        return Err(ExitCode::from(2));
    };
    Ok((what.clone(), input.clone(), times))
}

/// `call` `times` times, stopping at the first that fails.
#[inline(always)]
pub fn repeat(times: usize, mut call: impl FnMut() -> bool) -> bool {
    (0..times).all(|_| call())
}

/// The binary's `main`: reads `<surface> <call> <times>` and runs them, statically dispatched
/// on the call's type, as in a server.
pub fn main<S: Surfaces>() -> ExitCode {
    let (surface, call, times) = match args("<surface> <call> <times>") {
        Ok(args) => args,
        Err(code) => return code,
    };
    let (surface, call) = (surface.as_str(), call.as_str());
    let found = well_formed()
        .into_iter()
        .chain(shapes())
        .find(|(name, _)| *name == call);
    let Some((_, value)) = found else {
        eprintln!("no well-formed call named {call}");
        return ExitCode::from(2);
    };
    let text = value.to_string();
    let (value, text) = (&value, text.as_str());
    let ok = match call.split('_').next().unwrap_or("") {
        "view" => S::run::<ViewFile>(surface, value, text, times),
        "search" => S::run::<Search>(surface, value, text, times),
        "edit" => S::run::<Edit>(surface, value, text, times),
        "one" => S::run::<OneField>(surface, value, text, times),
        "nested" => S::run::<Nested>(surface, value, text, times),
        "flat" => S::run::<Flat20>(surface, value, text, times),
        _ => S::run::<Act>(surface, value, text, times),
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("{surface} {call}: not accepted (or no such surface)");
        ExitCode::FAILURE
    }
}
