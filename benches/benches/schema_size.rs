//! How `json_schema::Coercer` scales with the size of a schema (issue #19): the time of
//! `Coercer::new` and of one `coerce` of a call that sends every property, for schemas of
//! 1 000 and 32 000 string properties (all required), and for an `allOf` of two
//! 40 000-property members. Linear steps keep the 32 000 / 1 000 ratio near 32; a quadratic
//! one makes it near 1 000.
//!
//! ```text
//! cargo bench -p stitch-benches --bench schema_size
//! ```
//!
//! Each figure is the median of a few runs (the large schemas take long enough that
//! criterion's sampling adds nothing). Figures go to BENCHMARKS.md.

use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};
use stitch_runtime::json_schema::Coercer;

/// A schema of `n` string properties named `<prefix><i>`, all required, and a call that sends
/// each.
fn wide(n: usize, prefix: &str) -> (Value, Value) {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut args = Map::new();
    for i in 0..n {
        let key = format!("{prefix}{i}");
        properties.insert(key.clone(), json!({"type": "string"}));
        required.push(Value::from(key.clone()));
        args.insert(key, Value::from("v"));
    }
    (
        json!({"type": "object", "properties": properties, "required": required}),
        Value::Object(args),
    )
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// Median times of `Coercer::new(schema)` and of `coerce(args)`.
fn time(schema: &Value, args: &Value, runs: usize) -> (Duration, Duration) {
    let mut compile = Vec::new();
    let mut coerce = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let coercer = Coercer::new(schema).unwrap();
        compile.push(start.elapsed());
        let mut value = args.clone();
        let start = Instant::now();
        coercer.coerce(&mut value).unwrap();
        coerce.push(start.elapsed());
    }
    (median(compile), median(coerce))
}

fn main() {
    println!("json_schema::Coercer against the size of the schema (median of 5 runs):");
    let mut rows = Vec::new();
    for n in [1_000, 32_000] {
        let (schema, args) = wide(n, "p");
        let (compile, coerce) = time(&schema, &args, 5);
        println!(
            "  {n:>6} properties: Coercer::new {:>10}, coerce {:>10}",
            ms(compile),
            ms(coerce)
        );
        rows.push((compile, coerce));
    }
    let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-9);
    println!(
        "  ratio 32 000 / 1 000: Coercer::new {:.0}×, coerce {:.0}× (linear: 32×)",
        ratio(rows[0].0, rows[1].0),
        ratio(rows[0].1, rows[1].1)
    );
    let (a, args_a) = wide(40_000, "a");
    let (b, args_b) = wide(40_000, "b");
    let mut args = args_a.as_object().unwrap().clone();
    args.extend(args_b.as_object().unwrap().clone());
    let schema = json!({"allOf": [a, b]});
    let (compile, coerce) = time(&schema, &Value::Object(args), 3);
    println!(
        "  allOf of two 40 000-property members: Coercer::new {}, coerce {}",
        ms(compile),
        ms(coerce)
    );
}
