//! Shared test types and helpers for stitch's integration tests.
//!
//! Each type derives both `serde::Deserialize` and `ToolArgs`, so every test can compare what
//! stitch reports against what serde reads.

pub mod alloc;
pub mod checks;
pub mod duplicates;
pub mod proxy_lines;
pub mod reformat;
pub mod shapes;
pub mod text_edit;
pub mod tools;

use serde_json::Value;
use stitch_runtime::{ArgsError, IssueKind, ToolArgs};

/// The environment variable that asks for the full run, as CI makes it: every property test
/// at its full case count. `STITCH_FULL_TESTS=1 cargo test --workspace -- --include-ignored`
/// runs everything CI runs of the tests (the ignored set is the compile-fail suite and the
/// long size and depth tests).
pub const FULL_TESTS: &str = "STITCH_FULL_TESTS";

/// How many cases a property test runs: `full` in the full run ([`FULL_TESTS`]`=1`), an eighth
/// of it (at least 16) in the quick run a contributor repeats after each edit.
pub fn cases(full: u32) -> u32 {
    if std::env::var_os(FULL_TESTS).is_some_and(|v| v == "1") {
        full
    } else {
        (full / 8).max(16)
    }
}

/// The outcome of one call through the three surfaces.
#[derive(Debug)]
pub struct Surfaces<T> {
    /// `T::from_value`
    pub from_value: Result<T, ArgsError>,
    /// `T::from_json` of the same arguments' text
    pub from_json: Result<T, ArgsError>,
    /// `T::coerce_value` and the value it left
    pub coerced: (Result<(), ArgsError>, Value),
}

/// Runs `args` through all three surfaces.
pub fn surfaces<T: ToolArgs>(args: &Value) -> Surfaces<T> {
    let mut coerced = args.clone();
    let result = T::coerce_value(&mut coerced);
    Surfaces {
        from_value: T::from_value(args.clone()),
        from_json: T::from_json(&args.to_string()),
        coerced: (result, coerced),
    }
}

/// The `(path, kind)` of each issue.
pub fn issues(err: &ArgsError) -> Vec<(String, IssueKind)> {
    err.issues()
        .iter()
        .map(|i| (i.path().to_owned(), i.kind()))
        .collect()
}

/// The refusal message R3 prescribes for `path` (the root's is "the arguments ...").
pub fn text_list_message(path: &str) -> String {
    let shown = if path.is_empty() {
        "the arguments are"
    } else {
        &format!("{path} is")
    };
    format!(
        "{shown} a list written as text \u{2014} pass the array itself, not JSON written as text"
    )
}

/// Runs `f` on a thread with a 2 MiB stack (a small one, as a server's worker may have), and
/// returns what it returns: deep inputs must neither overflow it nor be dropped recursively.
pub fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// Drops a value without recursion, however deep (serde_json's `Drop` recurses).
pub fn drop_deep(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}
