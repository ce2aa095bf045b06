//! The judgement of values against `Limits`, message by message.

use super::*;
use serde_json::json;

fn reason(limits: &Limits, value: Value) -> Option<String> {
    limits.broken(&value).map(|b| b.to_string())
}

#[test]
fn numbers_at_and_across_each_bound() {
    let l = Limits {
        minimum: Some(Num::Int(1)),
        maximum: Some(Num::Int(3600)),
        ..Limits::NONE
    };
    assert_eq!(reason(&l, json!(1)), None);
    assert_eq!(reason(&l, json!(3600)), None);
    assert_eq!(
        reason(&l, json!(0)).as_deref(),
        Some("0 is less than the minimum of 1")
    );
    assert_eq!(
        reason(&l, json!(3601)).as_deref(),
        Some("3601 is greater than the maximum of 3600")
    );
    assert_eq!(
        reason(&l, json!(0.5)).as_deref(),
        Some("0.5 is less than the minimum of 1")
    );
    let x = Limits {
        exclusive_minimum: Some(Num::Float(0.5, "0.5")),
        exclusive_maximum: Some(Num::Int(2)),
        multiple_of: Some(Num::Float(0.25, "0.25")),
        ..Limits::NONE
    };
    assert_eq!(reason(&x, json!(0.75)), None);
    assert_eq!(
        reason(&x, json!(0.5)).as_deref(),
        Some("0.5 is not greater than the exclusive minimum of 0.5")
    );
    assert_eq!(
        reason(&x, json!(2)).as_deref(),
        Some("2 is not less than the exclusive maximum of 2")
    );
    assert_eq!(
        reason(&x, json!(1.1)).as_deref(),
        Some("1.1 is not a multiple of 0.25")
    );
    // Integers beyond 2^53 compare exactly.
    let big = Limits {
        maximum: Some(Num::Int(9_007_199_254_740_993)),
        ..Limits::NONE
    };
    assert_eq!(reason(&big, json!(9_007_199_254_740_993u64)), None);
    assert!(reason(&big, json!(9_007_199_254_740_994u64)).is_some());
}

#[cfg(feature = "json-schema")]
#[test]
fn a_schemas_bounds_show_as_json_wrote_them() {
    let bound = |v: Value| Num::from_schema(v.as_number().unwrap()).unwrap();
    // A float stays one (`1.0`, as the derive shows `minimum = 1.0`), an integer exact.
    assert_eq!(bound(json!(1.0)).to_string(), "1.0");
    assert_eq!(bound(json!(-2.5)).to_string(), "-2.5");
    assert_eq!(bound(json!(0.25)).to_string(), "0.25");
    assert_eq!(bound(json!(3600)), Num::Int(3600));
    assert_eq!(bound(json!(u64::MAX)), Num::Int(u64::MAX as i128));
    assert!(!bound(json!(0)).is_positive() && bound(json!(0.5)).is_positive());
    let l = Limits {
        maximum: Some(bound(json!(1.0))),
        ..Limits::NONE
    };
    assert_eq!(
        reason(&l, json!(1.5)).as_deref(),
        Some("1.5 is greater than the maximum of 1.0")
    );
    assert_eq!(reason(&l, json!(1)), None);
}

#[cfg(feature = "json-schema")]
#[test]
fn the_coercers_pattern_refusal_is_worded_as_the_derives() {
    assert_eq!(
        pattern_broken("Abc", "^[a-z]+$").to_string(),
        "\"Abc\" does not match the pattern `^[a-z]+$`"
    );
}

#[test]
fn lengths_count_code_points_and_long_strings_are_not_quoted() {
    let l = Limits {
        min_length: Some(2),
        max_length: Some(3),
        ..Limits::NONE
    };
    assert_eq!(reason(&l, json!("éé")), None);
    assert_eq!(reason(&l, json!("日本語")), None);
    assert_eq!(
        reason(&l, json!("é")).as_deref(),
        Some("\"é\" is shorter than the minimum length of 2 characters")
    );
    let long = "x".repeat(50);
    assert_eq!(
        reason(&l, json!(long)).as_deref(),
        Some("a string of 50 characters is longer than the maximum length of 3 characters")
    );
    // Another kind is the type's business.
    assert_eq!(reason(&l, json!(5)), None);
}

#[cfg(feature = "pattern")]
#[test]
fn patterns_match_anywhere() {
    fn lower() -> &'static PatternMatcher {
        static CELL: std::sync::OnceLock<PatternMatcher> = std::sync::OnceLock::new();
        compile_once(&CELL, "^[a-z]+$")
    }
    fn b() -> &'static PatternMatcher {
        static CELL: std::sync::OnceLock<PatternMatcher> = std::sync::OnceLock::new();
        compile_once(&CELL, "b")
    }
    let l = Limits {
        pattern: Some(Pattern::new("^[a-z]+$", "^[a-z]+$", lower)),
        ..Limits::NONE
    };
    assert_eq!(reason(&l, json!("abc")), None);
    assert_eq!(
        reason(&l, json!("Abc")).as_deref(),
        Some("\"Abc\" does not match the pattern `^[a-z]+$`")
    );
    let anywhere = Limits {
        pattern: Some(Pattern::new("b", "b", b)),
        ..Limits::NONE
    };
    assert_eq!(reason(&anywhere, json!("abc")), None);
}
