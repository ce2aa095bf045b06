//! What a constrained call costs (#22): stitch reading and checking one call against serde
//! reading it and `validator` or `garde` checking it, the same constraints on the same fields
//! (`constraints/schedule.rs` says which, and what was left out), each figure a ratio measured
//! in one run.
//!
//! | group | stitch | against |
//! |---|---|---|
//! | `constraints_value` | `T::from_value` | `serde_json::from_value` then `.validate()` (validator, garde) |
//! | `constraints_json` | `T::from_json` | `serde_json::from_str` then `.validate()` (validator, garde) |
//!
//! Each group measures an accepted call and a refused one (one bound broken). Beside them, on
//! the accepted call only: `serde` (serde_json alone, nothing checked: the floor),
//! `unconstrained` (stitch on the same fields without the constraints), and
//! `accepted_no_pattern` (all three with every constraint but the two patterns: the cost of the
//! checks apart from the pattern engines).
//!
//! Run `cargo bench -p stitch-benches --bench constraints`, then `python3 benches/ratios.py`.

#[path = "constraints/schedule.rs"]
mod schedule;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use serde::de::DeserializeOwned;
use serde_json::Value;
use stitch_runtime::ToolArgs;

use schedule::{
    accepted, calls, GardeNoPattern, Stitched, StitchedNoPattern, Unconstrained,
    ValidatorNoPattern, WithGarde, WithValidator,
};

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn group<'a>(c: &'a mut Criterion, name: &str) -> Group<'a> {
    let mut g = c.benchmark_group(name);
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g
}

/// serde_json then `validator`.
fn by_validator<T: validator::Validate>(v: T) -> bool {
    v.validate().is_ok()
}

/// serde_json then `garde`.
fn by_garde<T: garde::Validate<Context = ()>>(v: T) -> bool {
    v.validate().is_ok()
}

/// Every side agrees on the call before it is measured: stitch (`S`), validator (`V`) and
/// garde (`G`) accept `accepted` and refuse `refused`.
fn check<S, V, G>(name: &str, args: &Value)
where
    S: ToolArgs,
    V: DeserializeOwned + validator::Validate,
    G: DeserializeOwned + garde::Validate<Context = ()>,
{
    let want = name.starts_with("accepted");
    let text = args.to_string();
    let verdicts = [
        S::from_value(args.clone()).is_ok(),
        S::from_json(&text).is_ok(),
        serde_json::from_value(args.clone()).is_ok_and(by_validator::<V>),
        serde_json::from_str(&text).is_ok_and(by_validator::<V>),
        serde_json::from_value(args.clone()).is_ok_and(by_garde::<G>),
        serde_json::from_str(&text).is_ok_and(by_garde::<G>),
    ];
    assert_eq!(verdicts, [want; 6], "{name}");
}

/// `serde_json::from_value::<T>` then `then`, the clone set-up, not timed.
fn serde_value<T: DeserializeOwned>(
    g: &mut Group<'_>,
    side: &str,
    name: &str,
    args: &Value,
    then: impl Fn(T) -> bool + Copy,
) {
    g.bench_function(BenchmarkId::new(side, name), |b| {
        b.iter_batched(
            || args.clone(),
            |v| serde_json::from_value::<T>(v).is_ok_and(then),
            BatchSize::SmallInput,
        )
    });
}

/// `T::from_value`, the clone set-up, not timed.
fn stitch_value<T: ToolArgs>(g: &mut Group<'_>, side: &str, name: &str, args: &Value) {
    g.bench_function(BenchmarkId::new(side, name), |b| {
        b.iter_batched(
            || args.clone(),
            |v| T::from_value(v).is_ok(),
            BatchSize::SmallInput,
        )
    });
}

fn serde_json_text<T: DeserializeOwned>(
    g: &mut Group<'_>,
    side: &str,
    name: &str,
    text: &str,
    then: impl Fn(T) -> bool + Copy,
) {
    g.bench_function(BenchmarkId::new(side, name), |b| {
        b.iter(|| serde_json::from_str::<T>(black_box(text)).is_ok_and(then))
    });
}

fn stitch_text<T: ToolArgs>(g: &mut Group<'_>, side: &str, name: &str, text: &str) {
    g.bench_function(BenchmarkId::new(side, name), |b| {
        b.iter(|| T::from_json(black_box(text)).is_ok())
    });
}

fn constraints_value(c: &mut Criterion) {
    let mut g = group(c, "constraints_value");
    for (name, args) in calls() {
        check::<Stitched, WithValidator, WithGarde>(name, &args);
        stitch_value::<Stitched>(&mut g, "stitch", name, &args);
        serde_value(
            &mut g,
            "validator",
            name,
            &args,
            by_validator::<WithValidator>,
        );
        serde_value(&mut g, "garde", name, &args, by_garde::<WithGarde>);
        if name == "accepted" {
            serde_value(&mut g, "serde", name, &args, |_: WithValidator| true);
            stitch_value::<Unconstrained>(&mut g, "unconstrained", name, &args);
        }
    }
    let (name, args) = ("accepted_no_pattern", accepted());
    check::<StitchedNoPattern, ValidatorNoPattern, GardeNoPattern>(name, &args);
    stitch_value::<StitchedNoPattern>(&mut g, "stitch", name, &args);
    serde_value(
        &mut g,
        "validator",
        name,
        &args,
        by_validator::<ValidatorNoPattern>,
    );
    serde_value(&mut g, "garde", name, &args, by_garde::<GardeNoPattern>);
    g.finish();
}

fn constraints_json(c: &mut Criterion) {
    let mut g = group(c, "constraints_json");
    for (name, args) in calls() {
        let text = args.to_string();
        stitch_text::<Stitched>(&mut g, "stitch", name, &text);
        serde_json_text(
            &mut g,
            "validator",
            name,
            &text,
            by_validator::<WithValidator>,
        );
        serde_json_text(&mut g, "garde", name, &text, by_garde::<WithGarde>);
        if name == "accepted" {
            serde_json_text(&mut g, "serde", name, &text, |_: WithValidator| true);
            stitch_text::<Unconstrained>(&mut g, "unconstrained", name, &text);
        }
    }
    let (name, text) = ("accepted_no_pattern", accepted().to_string());
    stitch_text::<StitchedNoPattern>(&mut g, "stitch", name, &text);
    serde_json_text(
        &mut g,
        "validator",
        name,
        &text,
        by_validator::<ValidatorNoPattern>,
    );
    serde_json_text(&mut g, "garde", name, &text, by_garde::<GardeNoPattern>);
    g.finish();
}

criterion_group!(benches, constraints_value, constraints_json);
criterion_main!(benches);
