//! `json_schema::Coercer` and value constraints (issue #22): `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`, `maxLength` and `pattern`
//! of a hand-written schema are checked at each number or string a position takes, in the
//! derive's words, at and across each bound; a pattern that does not compile is a schema
//! error at its pointer; and the text-list refusal (R3) comes first, judged by shape and item
//! bounds only (`docs/coercer.md`).

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::json_schema::Coercer;
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};

const TEXT_LIST: &str =
    " is a list written as text \u{2014} pass the array itself, not JSON written as text";

/// `args` coerced: the repaired value, or the issues' messages in order.
fn coerce(coercer: &Coercer, args: Value) -> Result<Value, Vec<String>> {
    let mut value = args.clone();
    match coercer.coerce(&mut value) {
        Ok(()) => Ok(value),
        Err(e) => {
            assert_eq!(value, args, "a refusal changed the value");
            Err(e.issues().iter().map(|i| i.message().to_owned()).collect())
        }
    }
}

/// A coercer of one property `x` of schema `x`.
fn one(x: Value) -> Coercer {
    Coercer::new(&json!({"type": "object", "properties": {"x": x}})).unwrap()
}

/// `x` is accepted as sent.
fn takes(coercer: &Coercer, x: Value) {
    let args = json!({ "x": x });
    assert_eq!(coerce(coercer, args.clone()), Ok(args), "{x}");
}

/// `x` is refused with `reason` (at `x`), alone.
fn refuses(coercer: &Coercer, x: Value, reason: &str) {
    assert_eq!(
        coerce(coercer, json!({ "x": x })),
        Err(vec![format!("x: {reason}")]),
        "{x}"
    );
}

#[test]
fn minimum_and_maximum_at_and_across_each_bound() {
    let c = one(json!({"type": "integer", "minimum": 1, "maximum": 3600}));
    takes(&c, json!(1));
    takes(&c, json!(3600));
    refuses(&c, json!(0), "0 is less than the minimum of 1");
    refuses(&c, json!(3601), "3601 is greater than the maximum of 3600");
    // Beyond every integer type: the bound speaks, the schema naming no Rust type.
    refuses(
        &c,
        json!(5_000_000_000u64),
        "5000000000 is greater than the maximum of 3600",
    );
    // A value of another type is a type error, the bounds not judged.
    refuses(
        &c,
        json!(1.5),
        "invalid type: floating point `1.5`, expected an integer",
    );
    refuses(
        &c,
        json!("5"),
        "invalid type: string \"5\", expected an integer",
    );
    // A number's bounds, fractional ones as JSON writes them.
    let c = one(json!({"type": "number", "minimum": -2.5, "maximum": 1.0}));
    takes(&c, json!(-2.5));
    takes(&c, json!(1));
    refuses(&c, json!(-3), "-3 is less than the minimum of -2.5");
    refuses(&c, json!(1.5), "1.5 is greater than the maximum of 1.0");
}

#[test]
fn exclusive_bounds_and_multiples() {
    let c = one(json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}));
    takes(&c, json!(0.5));
    takes(&c, json!(0.999));
    refuses(
        &c,
        json!(0),
        "0 is not greater than the exclusive minimum of 0",
    );
    refuses(
        &c,
        json!(0.0),
        "0.0 is not greater than the exclusive minimum of 0",
    );
    refuses(
        &c,
        json!(1),
        "1 is not less than the exclusive maximum of 1",
    );
    let c = one(json!({"type": "integer", "multipleOf": 5}));
    takes(&c, json!(0));
    takes(&c, json!(15));
    takes(&c, json!(-10));
    refuses(&c, json!(7), "7 is not a multiple of 5");
    let c = one(json!({"type": "number", "multipleOf": 0.25}));
    takes(&c, json!(0.75));
    takes(&c, json!(2));
    refuses(&c, json!(0.3), "0.3 is not a multiple of 0.25");
    // draft-04: a boolean `exclusiveMinimum` makes `minimum` exclusive.
    let c = one(
        json!({"type": "number", "minimum": 0, "exclusiveMinimum": true,
        "maximum": 10, "exclusiveMaximum": false}),
    );
    takes(&c, json!(10));
    refuses(
        &c,
        json!(0),
        "0 is not greater than the exclusive minimum of 0",
    );
}

#[test]
fn lengths_count_code_points_and_patterns_match_anywhere() {
    let c = one(json!({"type": "string", "minLength": 2, "maxLength": 3}));
    takes(&c, json!("éé"));
    takes(&c, json!("日本語"));
    refuses(
        &c,
        json!("é"),
        "\"é\" is shorter than the minimum length of 2 characters",
    );
    refuses(
        &c,
        json!("abcd"),
        "\"abcd\" is longer than the maximum length of 3 characters",
    );
    let c = one(json!({"type": "string", "maxLength": 8, "pattern": "^[a-z]+$"}));
    takes(&c, json!("build"));
    refuses(
        &c,
        json!("Build"),
        "\"Build\" does not match the pattern `^[a-z]+$`",
    );
    // The length is judged first, as the derive judges it.
    refuses(
        &c,
        json!("Abcdefghi"),
        "\"Abcdefghi\" is longer than the maximum length of 8 characters",
    );
    // Not anchored unless written so.
    let c = one(json!({"type": "string", "pattern": "b"}));
    takes(&c, json!("abc"));
    refuses(&c, json!("xyz"), "\"xyz\" does not match the pattern `b`");
    // Without a type, a constraint applies to its own kind only.
    let c = one(json!({"maxLength": 2, "minimum": 3}));
    takes(&c, json!("ab"));
    takes(&c, json!(true));
    refuses(
        &c,
        json!("abc"),
        "\"abc\" is longer than the maximum length of 2 characters",
    );
    refuses(&c, json!(2), "2 is less than the minimum of 3");
}

#[test]
fn a_rust_type_range_and_a_char_length_still_name_the_type() {
    let c = one(json!({"type": "integer", "minimum": 0, "maximum": 255}));
    refuses(&c, json!(256), "invalid value: integer `256`, expected u8");
    refuses(&c, json!(-1), "invalid value: integer `-1`, expected u8");
    let c = one(json!({"type": "string", "minLength": 1, "maxLength": 1}));
    takes(&c, json!("é"));
    refuses(
        &c,
        json!("ab"),
        "invalid value: string \"ab\", expected a character",
    );
    // Any other range is a constraint: said in the derive's words.
    let c = one(json!({"type": "integer", "minimum": 0, "maximum": 10}));
    refuses(&c, json!(-1), "-1 is less than the minimum of 0");
    refuses(&c, json!(256), "256 is greater than the maximum of 10");
}

#[test]
fn items_map_values_one_or_many_and_repairs_are_checked_in_field_order() {
    let coercer = Coercer::new(&json!({"type": "object", "properties": {
        "a_ratios": {"type": "array", "items": {"type": "number", "exclusiveMaximum": 1}},
        "b_paths": {"anyOf": [
            {"type": "string", "pattern": "^[a-z./]+$"},
            {"type": "array", "items": {"type": "string", "pattern": "^[a-z./]+$"}}]},
        "c_weights": {"type": "object", "additionalProperties":
            {"type": "integer", "minimum": 0, "maximum": 10}},
        "d_name": {"type": "string", "minLength": 3},
        "e_n": {"type": "integer"}}}))
    .unwrap();
    let refused = coerce(
        &coercer,
        json!({
            "e_n": "x",
            "d_name": "ab",
            "c_weights": {"a": 3, "b": 11},
            "b_paths": ["a.png", "B.png"],
            "a_ratios": "[0.5, 1, 2]",
        }),
    )
    .unwrap_err();
    // Every issue at once, in the order of the properties, the JSON text's items checked.
    assert_eq!(
        refused,
        [
            "a_ratios.1: 1 is not less than the exclusive maximum of 1",
            "a_ratios.2: 2 is not less than the exclusive maximum of 1",
            "b_paths.1: \"B.png\" does not match the pattern `^[a-z./]+$`",
            "c_weights.b: 11 is greater than the maximum of 10",
            "d_name: \"ab\" is shorter than the minimum length of 3 characters",
            "e_n: invalid type: string \"x\", expected an integer",
        ]
    );
    // The one value of the union, and a repair whose items keep their bounds.
    assert_eq!(
        coerce(&coercer, json!({"b_paths": "B"})),
        Err(vec![
            "b_paths: \"B\" does not match the pattern `^[a-z./]+$`".to_owned()
        ])
    );
    assert_eq!(
        coerce(
            &coercer,
            json!({"a_ratios": "[0.5]", "b_paths": "a/b.png", "c_weights": "{\"a\": 10}"})
        ),
        Ok(json!({"a_ratios": [0.5], "b_paths": "a/b.png", "c_weights": {"a": 10}}))
    );
}

#[test]
fn a_list_written_as_text_is_refused_first_whatever_the_constraints() {
    let coercer = Coercer::new(&json!({"type": "object", "properties": {
        "paths": {"anyOf": [
            {"type": "string", "pattern": "^[a-z]+$", "maxLength": 4},
            {"type": "array", "maxItems": 2,
             "items": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 4}}]},
        "ids": {"anyOf": [
            {"type": "string", "minLength": 30},
            {"type": "array", "items": {"type": "integer", "minimum": 10}}]}}}))
    .unwrap();
    let text_list = |path: &str| Err(vec![format!("{path}{TEXT_LIST}")]);
    // Items the pattern refuses, or too long: still a list written as text.
    assert_eq!(
        coerce(&coercer, json!({"paths": "[\"A\"]"})),
        text_list("paths")
    );
    assert_eq!(
        coerce(&coercer, json!({"paths": "[\"abcdefgh\", \"b\"]"})),
        text_list("paths")
    );
    // Items below the minimum, checked by the validator (not a plain list of strings).
    assert_eq!(coerce(&coercer, json!({"ids": "[1, 2]"})), text_list("ids"));
    // Item bounds take part: three items are more than the array member takes, so the text is
    // one string, and as one string it is too long for the pattern's member.
    assert_eq!(
        coerce(&coercer, json!({"paths": "[\"a\",\"b\",\"c\"]"})),
        Err(vec![
            "paths: \"[\\\"a\\\",\\\"b\\\",\\\"c\\\"]\" is longer than the maximum length of 4 characters"
                .to_owned()
        ])
    );
    // Only the refusal of R3 in `coerce_rules_only`; a broken constraint is the next
    // validator's to judge.
    let mut args = json!({"paths": "[\"A\"]"});
    let e = coercer.coerce_rules_only(&mut args).unwrap_err();
    assert_eq!(e.issues()[0].kind(), IssueKind::TextList);
    let mut args = json!({"paths": "ABCDEFG", "ids": [1]});
    coercer.coerce_rules_only(&mut args).unwrap();
    assert_eq!(args, json!({"paths": "ABCDEFG", "ids": [1]}));
}

/// R3 as the derive judges it: by shape and item bounds, whatever the constraints.
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
#[serde(untagged)]
enum Pick {
    Name(String),
    Ids(Vec<Id>),
}

/// An id of at least 10 (a newtype carries its constraints into the untagged enum's list).
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Id(#[stitch(minimum = 10)] u32);

#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Picks {
    pick: Pick,
    #[stitch(pattern = "^[a-z]+$", max_items = 2)]
    #[serde(default)]
    names: Option<OneOrMany<String>>,
}

#[test]
fn the_derive_and_the_coercer_refuse_the_same_lists_written_as_text() {
    let coercer = Coercer::new(Picks::input_schema()).unwrap();
    for (args, list) in [
        // Items below the minimum: a list of `u32` all the same.
        (json!({"pick": "[1]"}), true),
        (json!({"pick": "[20]"}), true),
        (json!({"pick": "[\"a\"]"}), false),
        // Items the pattern refuses: a list of strings all the same.
        (json!({"pick": "x", "names": "[\"A\", \"b\"]"}), true),
        // More items than the list takes: one string (which the pattern refuses).
        (
            json!({"pick": "x", "names": "[\"a\", \"b\", \"c\"]"}),
            false,
        ),
    ] {
        let mut derived = args.clone();
        let by_type = Picks::coerce_value(&mut derived).map_err(|e| e.to_string());
        let mut coerced = args.clone();
        let by_schema = coercer.coerce(&mut coerced).map_err(|e| e.to_string());
        let text_list = |r: &Result<(), String>| r.as_ref().is_err_and(|e| e.contains(TEXT_LIST));
        assert_eq!(text_list(&by_type), list, "derive, {args}: {by_type:?}");
        assert_eq!(
            text_list(&by_schema),
            list,
            "coercer, {args}: {by_schema:?}"
        );
        assert_eq!(by_type, by_schema, "{args}");
    }
}

#[test]
fn an_untagged_union_picks_by_type_and_checks_its_members_constraints() {
    let coercer = one(json!({"anyOf": [
        {"type": "integer", "maximum": 5},
        {"type": "string", "pattern": "^a"},
        {"type": "string", "pattern": "^b"},
        {"type": "array", "items": {"type": "integer", "minimum": 0}}]}));
    takes(&coercer, json!(5));
    takes(&coercer, json!("ax"));
    // Another member takes it in full: that member is serde's pick.
    takes(&coercer, json!("bx"));
    takes(&coercer, json!([0, 1]));
    // No member takes it in full: the first that takes its type reads it, and says why.
    refuses(&coercer, json!(7), "7 is greater than the maximum of 5");
    refuses(
        &coercer,
        json!("cx"),
        "\"cx\" does not match the pattern `^a`",
    );
    assert_eq!(
        coerce(&coercer, json!({"x": [1, -1]})),
        Err(vec!["x.1: -1 is less than the minimum of 0".to_owned()])
    );
}

#[test]
fn all_of_merges_constraints() {
    let coercer = Coercer::new(&json!({
        "type": "object",
        "$defs": {"Slug": {"type": "string", "pattern": "^[a-z-]+$"}},
        "properties": {"slug": {"allOf": [{"$ref": "#/$defs/Slug"}, {"maxLength": 5}]}}
    }))
    .unwrap();
    assert_eq!(
        coerce(&coercer, json!({"slug": "my-po"})),
        Ok(json!({"slug": "my-po"}))
    );
    assert_eq!(
        coerce(&coercer, json!({"slug": "my-post"})),
        Err(vec![
            "slug: \"my-post\" is longer than the maximum length of 5 characters".to_owned()
        ])
    );
    assert_eq!(
        coerce(&coercer, json!({"slug": "My"})),
        Err(vec![
            "slug: \"My\" does not match the pattern `^[a-z-]+$`".to_owned()
        ])
    );
}

#[test]
fn a_pattern_that_does_not_compile_is_a_schema_error_at_its_pointer() {
    let e = Coercer::new(&json!({"type": "object", "properties": {
        "names": {"type": "array", "items": {"type": "string", "pattern": "(unclosed"}}}}))
    .expect_err("compiled");
    assert_eq!(e.pointer(), "/properties/names/items/pattern", "{e}");
    assert!(e.message().contains("does not compile"), "{e}");
}

/// A schema someone else wrote may use ECMA-262 beyond what the derive takes (lookaround,
/// backreferences): the coercer still runs it (`jsonschema`'s `pattern`), so the tool keeps
/// every rule (stitch-proxy would otherwise forward its calls unchecked).
#[test]
fn ecma_patterns_beyond_regex_lite_are_still_checked() {
    for (pattern, good, bad) in [
        ("^(?=.*[0-9])[a-z0-9]+$", "abc1", "abc"),
        ("^(a+)-\\1$", "aa-aa", "aa-a"),
    ] {
        let coercer = Coercer::new(&json!({"type": "object", "properties": {
            "names": {"type": "array", "items": {"type": "string", "pattern": pattern}}}}))
        .unwrap_or_else(|e| panic!("{pattern}: {e}"));
        assert_eq!(
            coerce(&coercer, json!({"names": [good]})),
            Ok(json!({"names": [good]}))
        );
        assert_eq!(
            coerce(&coercer, json!({"names": [good, bad]})),
            Err(vec![format!(
                "names.1: \"{bad}\" does not match the pattern `{}`",
                pattern.replace("\\\\", "\\")
            )])
        );
        // R3 still acts at the tool.
        let one_or_many = Coercer::new(&json!({"type": "object", "properties": {"p": {"anyOf": [
            {"type": "string", "pattern": pattern},
            {"type": "array", "items": {"type": "string", "pattern": pattern}}]}}}))
        .unwrap();
        assert!(
            coerce(&one_or_many, json!({"p": "[\"x\"]"})).unwrap_err()[0]
                .contains("is a list written as text")
        );
    }
}

#[test]
fn malformed_constraints_are_schema_errors_at_their_pointer() {
    for (x, pointer) in [
        (json!({"minimum": "1"}), "/properties/x/minimum"),
        (
            json!({"exclusiveMaximum": null}),
            "/properties/x/exclusiveMaximum",
        ),
        (json!({"multipleOf": 0}), "/properties/x/multipleOf"),
        (json!({"multipleOf": -0.5}), "/properties/x/multipleOf"),
        (json!({"minLength": -1}), "/properties/x/minLength"),
        (json!({"maxLength": 1.5}), "/properties/x/maxLength"),
        (json!({"pattern": 5}), "/properties/x/pattern"),
    ] {
        let e =
            Coercer::new(&json!({"type": "object", "properties": {"x": x}})).expect_err("compiled");
        assert_eq!(e.pointer(), pointer, "{x}: {e}");
    }
}
