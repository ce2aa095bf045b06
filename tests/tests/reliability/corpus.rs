//! Replays the fuzz corpora through the fuzz targets' own checks, as a normal test on stable:
//! `fuzz/seeds/<target>/*` (the test vectors) and `fuzz/corpus/<target>/*` (what the fuzzer
//! found, minimized), on a thread with the default 2 MiB stack.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::seeds::{check_of, fuzz_dir, TARGETS};

fn panic_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned())
}

/// Runs every file of `fuzz/<dir>/<target>`; returns how many there were, or the failures.
fn replay(dir: &str, target: &str) -> Result<usize, Vec<String>> {
    let path = fuzz_dir(dir, target);
    let mut files: Vec<_> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let check = check_of(target);
    let mut failures = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        let outcome = catch_unwind(AssertUnwindSafe(|| check(&data)));
        let failure = match outcome {
            Ok(Ok(())) => continue,
            Ok(Err(e)) => e,
            Err(payload) => format!("panicked: {}", panic_text(&*payload)),
        };
        failures.push(format!("{}: {failure}", file.display()));
    }
    if failures.is_empty() {
        Ok(files.len())
    } else {
        Err(failures)
    }
}

fn replay_all(target: &'static str) {
    let run = move || {
        let mut total = 0;
        let mut failures = Vec::new();
        for dir in ["seeds", "corpus"] {
            match replay(dir, target) {
                Ok(n) => {
                    assert!(n > 0, "fuzz/{dir}/{target} is empty");
                    total += n;
                }
                Err(f) => failures.extend(f),
            }
        }
        assert!(
            failures.is_empty(),
            "{} inputs of {target} fail:\n{}",
            failures.len(),
            failures.join("\n")
        );
        total
    };
    let total = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap_or_else(|payload| panic!("{}", panic_text(&*payload)));
    eprintln!("replayed {total} inputs of {target}");
}

#[test]
#[ignore = "long (every input the fuzzers kept): the full run, `cargo test -- --include-ignored`; the seeds run in the quick one"]
fn replay_from_json() {
    replay_all(TARGETS[0]);
}

#[test]
#[ignore = "long (every input the fuzzers kept): the full run, `cargo test -- --include-ignored`; the seeds run in the quick one"]
fn replay_text_list() {
    replay_all(TARGETS[1]);
}

#[test]
#[ignore = "long (every input the fuzzers kept): the full run, `cargo test -- --include-ignored`; the seeds run in the quick one"]
fn replay_coerce_value() {
    replay_all(TARGETS[2]);
}

#[test]
#[ignore = "long (every input the fuzzers kept): the full run, `cargo test -- --include-ignored`; the seeds run in the quick one"]
fn replay_proxy_lines() {
    replay_all(TARGETS[3]);
}

#[test]
#[ignore = "long (every input the fuzzers kept): the full run, `cargo test -- --include-ignored`; the seeds run in the quick one"]
fn replay_serde_oracle() {
    replay_all(TARGETS[4]);
}
