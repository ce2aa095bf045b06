//! Counting-allocator checks: the success path of `coerce_value` allocates nothing, a "no"
//! from the JSON-array check allocates nothing, and a refusal allocates only for its issue.
//!
//! A binary of its own, since the counting allocator is global; counts are per thread.

// The argument types exist to be walked; their fields are not read back.
#![allow(dead_code)]

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::__private::{is_text_list, Bounds};
use stitch_runtime::{OneOrMany, ToolArgs};
use stitch_tests::alloc::{measure, Counting};
use stitch_tests::tools::{Paths20, RowWithoutNotes};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f`, returning its result and the number of allocations it made on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let (r, counts) = measure(f);
    (r, counts.allocations)
}

#[derive(Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Kind {
    File,
    Dir,
}

#[derive(Deserialize, ToolArgs)]
struct KindFilters {
    kinds: Vec<Kind>,
    #[serde(default)]
    max_size: Option<u64>,
}

#[derive(Deserialize, ToolArgs)]
struct SearchWithExtra {
    query: String,
    #[serde(default)]
    tags: Option<OneOrMany<String>>,
    filters: KindFilters,
    #[serde(default)]
    extra: Value,
}

#[derive(Deserialize, ToolArgs)]
struct LineEdit {
    file: String,
    rows: Vec<RowWithoutNotes>,
}

#[derive(Deserialize, ToolArgs)]
#[serde(tag = "action", rename_all = "snake_case")]
enum FileAction {
    Move {
        from: String,
        to: String,
    },
    Tag {
        paths: OneOrMany<String>,
        tags: Vec<String>,
    },
    Stop,
}

/// A named call, its arguments, and the `coerce_value` of its tool.
type Case = (&'static str, Value, fn(&mut Value) -> bool);

fn well_formed() -> Vec<Case> {
    let rows: Vec<Value> = (0..50)
        .map(|i| json!({"line": i, "names": if i % 2 == 0 { json!("[one].png") } else { json!(["a", "b", "[c]"]) }}))
        .collect();
    vec![
        ("view_file one", json!({"paths": "a.png"}), |v| {
            Paths20::coerce_value(v).is_ok()
        }),
        (
            "view_file 20",
            json!({"paths": (0..20).map(|i| format!("img/{i}.png")).collect::<Vec<_>>()}),
            |v| Paths20::coerce_value(v).is_ok(),
        ),
        (
            "view_file plain bracketed",
            json!({"paths": "[preview].png"}),
            |v| Paths20::coerce_value(v).is_ok(),
        ),
        (
            "search",
            json!({"query": "q", "tags": ["x", "[y"], "filters": {"kinds": ["file"], "max_size": 10}, "extra": {"a": [1, {"b": 2}]}}),
            |v| SearchWithExtra::coerce_value(v).is_ok(),
        ),
        ("edit 50 rows", json!({"file": "f.rs", "rows": rows}), |v| {
            LineEdit::coerce_value(v).is_ok()
        }),
        (
            "action",
            json!({"action": "tag", "paths": ["a", "b"], "tags": ["t"]}),
            |v| FileAction::coerce_value(v).is_ok(),
        ),
    ]
}

#[test]
fn coerce_value_allocates_nothing_on_well_formed_calls() {
    for (name, mut args, coerce) in well_formed() {
        let (ok, n) = allocations(|| coerce(&mut args));
        assert!(ok, "{name} is accepted");
        assert_eq!(n, 0, "{name}: {n} allocations");
    }
}

#[test]
fn a_no_from_the_array_check_allocates_nothing() {
    let big = format!("[\"{}\", 1]", "x".repeat(1 << 20));
    let texts = [
        "[preview].png",
        "[1,2",
        "plain",
        "123",
        "[{\"a\":1}]",
        "[\"a\",\"b\"]",
        " \u{a0}[\"a\"]",
        big.as_str(),
    ];
    for text in texts {
        let (verdict, n) = allocations(|| {
            is_text_list(
                text,
                stitch_runtime::__private::is_json_string,
                Bounds::new(None, Some(1)),
            )
        });
        assert!(!verdict, "{text:.20}");
        assert_eq!(n, 0, "{text:.20}: {n} allocations");
    }
}

#[test]
fn a_refusal_allocates_only_for_its_issue() {
    let mut args = json!({"file": "f", "rows": [{"line": 1, "names": "[\"a\"]"}]});
    let (result, n) = allocations(|| LineEdit::coerce_value(&mut args));
    let err = result.unwrap_err();
    assert_eq!(err.issues()[0].path(), "rows.0.names");
    // The rendered path and the message, the check pass's list of kept issues, and the
    // error's list: one allocation each. The check pass keeps each issue beside its sort key
    // (the path's order, 64 bytes inline), so the sorted issues cannot become the error's
    // list in the same buffer without a reallocation (the element sizes do not divide);
    // the fourth allocation is made only on a refusal.
    assert!(n <= 4, "{n} allocations for one refusal");
}

/// The schema-driven coercer, built from each tool's schema, allocates nothing on the same
/// well-formed calls either (issue #13).
#[test]
fn the_schema_coercer_allocates_nothing_on_well_formed_calls() {
    use stitch_runtime::json_schema::Coercer;
    let schemas = [
        Paths20::input_schema(),
        Paths20::input_schema(),
        Paths20::input_schema(),
        SearchWithExtra::input_schema(),
        LineEdit::input_schema(),
        FileAction::input_schema(),
    ];
    for ((name, mut args, _), schema) in well_formed().into_iter().zip(schemas) {
        let coercer = Coercer::new(schema).unwrap();
        let (ok, n) = allocations(|| coercer.coerce(&mut args).is_ok());
        assert!(ok, "{name} is accepted");
        assert_eq!(n, 0, "{name}: the coercer allocated {n} times");
    }
}

/// Nor with value constraints (issue #22): bounds, lengths and a pattern are checked without
/// allocating, once the pattern's engine has its cache on this thread (its first match).
#[test]
fn the_schema_coercer_checks_constraints_without_allocating() {
    use stitch_runtime::json_schema::Coercer;
    let coercer = Coercer::new(&json!({"type": "object", "properties": {
        "timeout": {"type": "integer", "minimum": 1, "maximum": 3600, "multipleOf": 5},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "name": {"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[a-z]+$"},
        "paths": {"anyOf": [
            {"type": "string", "pattern": "^[a-z./]+$"},
            {"type": "array", "items": {"type": "string", "pattern": "^[a-z./]+$"}}]}}}))
    .unwrap();
    let mut args = json!({"timeout": 60, "ratio": 0.5, "name": "build", "paths": ["a/b", "c"]});
    assert!(coercer.coerce(&mut args).is_ok());
    let (ok, n) = allocations(|| coercer.coerce(&mut args).is_ok());
    assert!(ok);
    assert_eq!(n, 0, "the coercer allocated {n} times");
}

#[test]
fn a_report_of_a_call_that_needed_no_repair_allocates_nothing() {
    for (name, mut args, _) in well_formed() {
        // `coerce_value_reported` of the same tool as the case's `coerce_value`.
        let (repairs, n) = allocations(|| match name {
            "search" => SearchWithExtra::coerce_value_reported(&mut args),
            "edit 50 rows" => LineEdit::coerce_value_reported(&mut args),
            "action" => FileAction::coerce_value_reported(&mut args),
            _ => Paths20::coerce_value_reported(&mut args),
        });
        assert!(repairs.unwrap().is_empty(), "{name}: nothing repaired");
        assert_eq!(n, 0, "{name}: {n} allocations");
    }
}

#[test]
fn from_value_and_from_json_reported_allocate_as_from_value_and_from_json_do() {
    for (name, args, _) in well_formed() {
        let text = args.to_string();
        macro_rules! same {
            ($t:ty) => {{
                let (plain, a) = allocations(|| <$t>::from_value(args.clone()).is_ok());
                let (reported, b) =
                    allocations(|| <$t>::from_value_reported(args.clone()).map(|r| r.repairs));
                assert!(plain && reported.unwrap().is_empty(), "{name}");
                assert_eq!(a, b, "{name}: from_value_reported allocates more");
                let (plain, a) = allocations(|| <$t>::from_json(&text).is_ok());
                let (reported, b) =
                    allocations(|| <$t>::from_json_reported(&text).map(|r| r.repairs));
                assert!(plain && reported.unwrap().is_empty(), "{name}");
                assert_eq!(a, b, "{name}: from_json_reported allocates more");
            }};
        }
        match name {
            "search" => same!(SearchWithExtra),
            "edit 50 rows" => same!(LineEdit),
            "action" => same!(FileAction),
            _ => same!(Paths20),
        }
    }
}

#[test]
fn a_repair_that_is_not_asked_for_is_not_recorded() {
    // The same repaired call with and without its report: only the report allocates more
    // (its list and each repair's path), so a plain `coerce_value` pays nothing for it.
    let sent = json!({"file": "f", "rows": "[{\"line\": 1, \"names\": \"a\"}]"});
    // Once unmeasured: with the `tracing` feature, the first call registers its callsites.
    assert!(LineEdit::coerce_value(&mut sent.clone()).is_ok());
    let mut args = sent.clone();
    let (ok, plain) = allocations(|| LineEdit::coerce_value(&mut args).is_ok());
    assert!(ok);
    let mut args = sent;
    let (repairs, reported) = allocations(|| LineEdit::coerce_value_reported(&mut args));
    assert_eq!(repairs.unwrap().to_string(), "rows: JSON text parsed");
    assert_eq!(
        reported,
        plain + 2,
        "{plain} allocations, {reported} with the report"
    );
}
