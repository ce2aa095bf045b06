//! Speed: stitch beside what a server does anyway, each figure a ratio measured in one run.
//!
//! | group | stitch | against |
//! |---|---|---|
//! | `from_value` | `T::from_value` | `serde_json::from_value::<T>` |
//! | `from_json` | `T::from_json` | `serde_json::from_str::<T>` |
//! | `raw` | `T::coerce_value` | `jsonschema` `is_valid`, same arguments, same schema |
//! | `schema` | `json_schema::Coercer` built from `T::input_schema()` | `T::coerce_value`, and `jsonschema` `is_valid`, same arguments |
//! | `schema_compile` | `Coercer::new` of each tool's schema | `jsonschema::validator_for` of the same schema |
//! | `one_or_many` | `OneOrMany<String>` | `serde_with::OneOrMany`, a `#[serde(untagged)]` enum |
//! | `check_no` | the JSON-array check, plain text and near misses | `from_str::<Vec<String>>` |
//! | `check_yes` | the same check on real text lists | the same oracle |
//!
//! Run `cargo bench -p stitch-benches --bench perf`, then `python3 benches/ratios.py` for the
//! table of BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use serde::Deserialize;
use serde_json::{json, Value};
use stitch_benches::corpus::{malformed, well_formed, Act, Edit, Search, ViewFile};
use stitch_runtime::__private::{is_json_string, is_text_list, Bounds};
use stitch_runtime::{OneOrMany, ToolArgs};

/// Calls the generic function `f::<Tool>(args…)` for the tool named by `name`'s prefix, so that
/// every measured call is statically dispatched (inlinable), as in a server, on both sides.
macro_rules! by_tool {
    ($name:expr, $f:ident($($arg:expr),*)) => {
        match $name.split('_').next().unwrap_or("") {
            "view" => $f::<ViewFile>($($arg),*),
            "search" => $f::<Search>($($arg),*),
            "edit" => $f::<Edit>($($arg),*),
            _ => $f::<Act>($($arg),*),
        }
    };
}

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn group<'a>(c: &'a mut Criterion, name: &str) -> Group<'a> {
    let mut g = c.benchmark_group(name);
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g
}

/// `T::from_value` and, for a well-formed call, `serde_json::from_value::<T>`. The clone is
/// set-up, not timed.
fn value_pair<T: ToolArgs>(g: &mut Group<'_>, name: &str, args: &Value, baseline: bool) {
    if baseline {
        g.bench_function(BenchmarkId::new("serde_json", name), |b| {
            b.iter_batched(
                || args.clone(),
                |v| serde_json::from_value::<T>(v).is_ok(),
                BatchSize::SmallInput,
            )
        });
    }
    g.bench_function(BenchmarkId::new("stitch", name), |b| {
        b.iter_batched(
            || args.clone(),
            |v| T::from_value(v).is_ok(),
            BatchSize::SmallInput,
        )
    });
}

/// `T::from_json` and, for a well-formed call, `serde_json::from_str::<T>`.
fn text_pair<T: ToolArgs>(g: &mut Group<'_>, name: &str, text: &str, baseline: bool) {
    if baseline {
        g.bench_function(BenchmarkId::new("serde_json", name), |b| {
            b.iter(|| serde_json::from_str::<T>(black_box(text)).is_ok())
        });
    }
    g.bench_function(BenchmarkId::new("stitch", name), |b| {
        b.iter(|| T::from_json(black_box(text)).is_ok())
    });
}

/// `T::coerce_value` against `jsonschema` validating the same call with `T`'s schema.
fn raw_pair<T: ToolArgs>(g: &mut Group<'_>, name: &str, args: &Value) {
    let validator = jsonschema::validator_for(T::input_schema()).expect("stitch's schema compiles");
    // A well-formed call is left as it is, so the same value serves every iteration.
    let mut value = args.clone();
    assert!(T::coerce_value(&mut value).is_ok() && value == *args);
    assert!(validator.is_valid(args), "{name}");
    g.bench_function(BenchmarkId::new("jsonschema", name), |b| {
        b.iter(|| validator.is_valid(black_box(args)))
    });
    g.bench_function(BenchmarkId::new("stitch", name), |b| {
        b.iter(|| T::coerce_value(black_box(&mut value)).is_ok())
    });
}

fn from_value(c: &mut Criterion) {
    let mut g = group(c, "from_value");
    for (name, args) in well_formed() {
        by_tool!(name, value_pair(&mut g, name, &args, true));
    }
    for (name, args) in malformed() {
        by_tool!(name, value_pair(&mut g, name, &args, false));
    }
    g.finish();
}

fn from_json(c: &mut Criterion) {
    let mut g = group(c, "from_json");
    for (name, args) in well_formed() {
        by_tool!(name, text_pair(&mut g, name, &args.to_string(), true));
    }
    for (name, args) in malformed() {
        by_tool!(name, text_pair(&mut g, name, &args.to_string(), false));
    }
    g.finish();
}

/// The schema-driven coercer beside `T::coerce_value` and `jsonschema`'s `is_valid`, on one
/// call. A call that is left as it is serves every iteration; one the walk repairs or refuses
/// is cloned per iteration (set-up, not timed), on both sides alike.
fn schema_pair<T: ToolArgs>(g: &mut Group<'_>, name: &str, args: &Value) {
    use stitch_runtime::json_schema::Coercer;
    let coercer = Coercer::new(T::input_schema()).expect("stitch's schema compiles");
    let mut by_type = args.clone();
    let mut by_schema = args.clone();
    let (a, b) = (
        T::coerce_value(&mut by_type),
        coercer.coerce(&mut by_schema),
    );
    assert_eq!(a.is_ok(), b.is_ok(), "{name}");
    assert_eq!(by_type, by_schema, "{name}");
    if by_type == *args && a.is_ok() {
        let validator = jsonschema::validator_for(T::input_schema()).expect("compiles");
        assert!(validator.is_valid(args), "{name}");
        g.bench_function(BenchmarkId::new("jsonschema", name), |b| {
            b.iter(|| validator.is_valid(black_box(args)))
        });
        let mut value = args.clone();
        g.bench_function(BenchmarkId::new("coerce_value", name), |b| {
            b.iter(|| T::coerce_value(black_box(&mut value)).is_ok())
        });
        g.bench_function(BenchmarkId::new("coercer", name), |b| {
            b.iter(|| coercer.coerce(black_box(&mut value)).is_ok())
        });
    } else {
        g.bench_function(BenchmarkId::new("coerce_value", name), |b| {
            b.iter_batched(
                || args.clone(),
                |mut v| T::coerce_value(&mut v).is_ok(),
                BatchSize::SmallInput,
            )
        });
        g.bench_function(BenchmarkId::new("coercer", name), |b| {
            b.iter_batched(
                || args.clone(),
                |mut v| coercer.coerce(&mut v).is_ok(),
                BatchSize::SmallInput,
            )
        });
    }
}

fn schema(c: &mut Criterion) {
    let mut g = group(c, "schema");
    for (name, args) in well_formed().into_iter().chain(malformed()) {
        by_tool!(name, schema_pair(&mut g, name, &args));
    }
    g.finish();
}

/// Building a coercer (its validators included) and, beside it, a `jsonschema` validator of
/// the whole schema.
fn compile_pair<T: ToolArgs>(g: &mut Group<'_>, name: &str) {
    use stitch_runtime::json_schema::Coercer;
    let schema = T::input_schema();
    g.bench_function(BenchmarkId::new("coercer", name), |b| {
        b.iter(|| Coercer::new(black_box(schema)).is_ok())
    });
    g.bench_function(BenchmarkId::new("jsonschema", name), |b| {
        b.iter(|| jsonschema::validator_for(black_box(schema)).is_ok())
    });
}

fn schema_compile(c: &mut Criterion) {
    let mut g = group(c, "schema_compile");
    for name in ["view_file", "search", "edit", "action"] {
        by_tool!(name, compile_pair(&mut g, name));
    }
    g.finish();
}

fn raw(c: &mut Criterion) {
    let mut g = group(c, "raw");
    for (name, args) in well_formed() {
        by_tool!(name, raw_pair(&mut g, name, &args));
    }
    g.finish();
}

#[derive(Deserialize)]
struct Ours {
    #[allow(dead_code)]
    v: OneOrMany<String>,
}

#[serde_with::serde_as]
#[derive(Deserialize)]
struct SerdeWith {
    #[serde_as(as = "serde_with::OneOrMany<_>")]
    #[allow(dead_code)]
    v: Vec<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Untagged {
    #[allow(dead_code)]
    One(String),
    #[allow(dead_code)]
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct WithUntagged {
    #[allow(dead_code)]
    v: Untagged,
}

/// The floor: the same field as a plain `String` (one) or `Vec<String>` (twenty), which
/// only reads what it expects. No one-or-many type can be faster than that.
#[derive(Deserialize)]
struct PlainOne {
    #[allow(dead_code)]
    v: String,
}

#[derive(Deserialize)]
struct PlainMany {
    #[allow(dead_code)]
    v: Vec<String>,
}

/// A benchmark of reading one kind of input.
type Reader<I> = fn(&mut criterion::Bencher, &I);

/// Deserializes `T` from text, and drops it, as a server does with each call's arguments.
fn text_of<T: for<'de> Deserialize<'de>>(b: &mut criterion::Bencher, text: &str) {
    b.iter(|| serde_json::from_str::<T>(black_box(text)).is_ok())
}

/// Deserializes `T` from an owned `Value`, as rmcp reads a tool's arguments
/// (`serde_json::from_value(Value::Object(arguments))`), and drops it. The clone is set-up,
/// not timed; the `Value`'s teardown inside `from_value` is.
fn value_of<T: for<'de> Deserialize<'de>>(b: &mut criterion::Bencher, value: &Value) {
    b.iter_batched(
        || value.clone(),
        |v| serde_json::from_value::<T>(v).is_ok(),
        BatchSize::SmallInput,
    )
}

fn one_or_many(c: &mut Criterion) {
    let mut g = group(c, "one_or_many");
    let twenty: Vec<String> = (0..20).map(|i| format!("img/photo-{i:02}.png")).collect();
    for (name, value) in [
        ("one", json!({"v": "img/photo.png"})),
        ("twenty", json!({ "v": twenty })),
    ] {
        let text = value.to_string();
        // The floor: the plain type of this many items.
        let (plain_text, plain_value): (Reader<str>, Reader<Value>) = match name {
            "one" => (text_of::<PlainOne>, value_of::<PlainOne>),
            _ => (text_of::<PlainMany>, value_of::<PlainMany>),
        };
        let sides: [(&str, Reader<str>, Reader<Value>); 4] = [
            ("stitch", text_of::<Ours>, value_of::<Ours>),
            ("serde_with", text_of::<SerdeWith>, value_of::<SerdeWith>),
            (
                "untagged",
                text_of::<WithUntagged>,
                value_of::<WithUntagged>,
            ),
            ("plain", plain_text, plain_value),
        ];
        for (side, from_text, from_value) in sides {
            g.bench_function(BenchmarkId::new(format!("text/{side}"), name), |b| {
                from_text(b, &text)
            });
            g.bench_function(BenchmarkId::new(format!("value/{side}"), name), |b| {
                from_value(b, &value)
            });
        }
    }
    g.finish();
}

/// The oracle of the issue: serde_json reading the text as a list of strings.
fn oracle(text: &str) -> bool {
    serde_json::from_str::<Vec<String>>(text).is_ok()
}

fn fast(text: &str) -> bool {
    is_text_list(text, is_json_string, Bounds::NONE)
}

fn check_no(c: &mut Criterion) {
    let mut g = group(c, "check_no");
    for (size, len) in stitch_benches::CHECK_SIZES {
        g.throughput(Throughput::Bytes(len as u64));
        for (kind, text) in &stitch_benches::not_lists(len) {
            assert!(!fast(text) && !oracle(text));
            g.bench_function(BenchmarkId::new(format!("stitch/{kind}"), size), |b| {
                b.iter(|| fast(black_box(text)))
            });
            g.bench_function(BenchmarkId::new(format!("oracle/{kind}"), size), |b| {
                b.iter(|| oracle(black_box(text)))
            });
        }
    }
    g.finish();
}

fn check_yes(c: &mut Criterion) {
    let mut g = group(c, "check_yes");
    for (size, len) in [("1KiB", 1 << 10), ("1MiB", 1 << 20)] {
        let mut items = Vec::new();
        let mut total = 2;
        let mut i = 0;
        while total < len {
            let item = format!("img/photo-{i:06}.png");
            total += item.len() + 3;
            items.push(item);
            i += 1;
        }
        let text = serde_json::to_string(&items).unwrap();
        g.throughput(Throughput::Bytes(text.len() as u64));
        assert!(fast(&text) && oracle(&text));
        g.bench_function(BenchmarkId::new("stitch", size), |b| {
            b.iter(|| fast(black_box(&text)))
        });
        g.bench_function(BenchmarkId::new("oracle", size), |b| {
            b.iter(|| oracle(black_box(&text)))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    from_value,
    from_json,
    raw,
    schema,
    schema_compile,
    one_or_many,
    check_no,
    check_yes
);
criterion_main!(benches);
