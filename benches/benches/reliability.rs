//! Size: the time stitch takes grows linearly with the size of the arguments.
//!
//! - `string`: a string of 1, 10, 50 and 100 MiB at a `OneOrMany<String>` position, scanned
//!   whole (a list written as text, refused; an unclosed list, kept and moved into the typed
//!   value). Throughput in bytes: the same figure at each size is linear time.
//! - `array`: 10 000, 100 000, 1 000 000 and 4 000 000 strings at a `OneOrMany<String>`
//!   position, as a real array and as a list written as text, and at a `Vec<String>` position
//!   as text to repair. Throughput in elements. (Past about 1 000 000 elements the value no
//!   longer fits in the cache: the throughput steps down once, then stays level.)
//!
//! Run: `cargo bench -p stitch-benches --bench reliability`.

use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use serde_json::Value;
use stitch_benches::{args, array, array_text, one_item_list, unclosed_list, Tags, ViewFile};
use stitch_runtime::ToolArgs;

const MIB: usize = 1 << 20;

fn string(c: &mut Criterion) {
    let mut group = c.benchmark_group("string");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sampling_mode(SamplingMode::Flat);
    for mib in [1, 10, 50, 100] {
        let len = mib * MIB;
        group.throughput(Throughput::Bytes(len as u64));

        // Refused: coerce_value reads the value and changes nothing, so it is reused.
        let mut refused = args("paths", Value::String(one_item_list(len)));
        group.bench_function(
            BenchmarkId::new("coerce_value/text_list_refused", mib),
            |b| b.iter(|| ViewFile::coerce_value(&mut refused).unwrap_err()),
        );

        let mut kept = args("paths", Value::String(unclosed_list(len)));
        group.bench_function(BenchmarkId::new("coerce_value/unclosed_kept", mib), |b| {
            b.iter(|| ViewFile::coerce_value(&mut kept).unwrap())
        });

        // from_value takes the value: each iteration gets a fresh copy, made outside the timing.
        group.bench_function(BenchmarkId::new("from_value/unclosed_kept", mib), |b| {
            b.iter_batched(
                || kept.clone(),
                |value| ViewFile::from_value(value).unwrap(),
                BatchSize::PerIteration,
            )
        });

        // from_json includes serde_json's parse of the text into a `Value`.
        let text = kept.to_string();
        group.bench_function(BenchmarkId::new("from_json/unclosed_kept", mib), |b| {
            b.iter(|| ViewFile::from_json(&text).unwrap())
        });
    }
    group.finish();
}

fn elements(c: &mut Criterion) {
    let mut group = c.benchmark_group("array");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sampling_mode(SamplingMode::Flat);
    for n in [10_000, 100_000, 1_000_000, 4_000_000] {
        group.throughput(Throughput::Elements(n as u64));

        let mut real = args("paths", array(n));
        group.bench_function(BenchmarkId::new("coerce_value/real_array", n), |b| {
            b.iter(|| ViewFile::coerce_value(&mut real).unwrap())
        });
        group.bench_function(BenchmarkId::new("from_value/real_array", n), |b| {
            b.iter_batched(
                || real.clone(),
                |value| ViewFile::from_value(value).unwrap(),
                BatchSize::PerIteration,
            )
        });

        let text = array_text(n);
        let mut refused = args("paths", Value::String(text.clone()));
        group.bench_function(BenchmarkId::new("coerce_value/text_list_refused", n), |b| {
            b.iter(|| ViewFile::coerce_value(&mut refused).unwrap_err())
        });

        // Repaired in place: each iteration gets the text afresh.
        let repairable = args("tags", Value::String(text));
        group.bench_function(BenchmarkId::new("coerce_value/text_repaired", n), |b| {
            b.iter_batched(
                || repairable.clone(),
                |mut value| {
                    Tags::coerce_value(&mut value).unwrap();
                    value
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, string, elements);
criterion_main!(benches);
