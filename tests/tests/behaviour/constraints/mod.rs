//! Field constraints (`docs/rules.md#constraints`): each keyword refused across its bound and
//! accepted at it, on every surface, at its dotted path, all at once with the other issues and
//! in field order; the text-list refusal first; the schema carries the keywords.

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{Args, IssueKind, OneOrMany, Reported, ToolArgs};

use stitch_tests::{issues, surfaces};

#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Job {
    /// Seconds before the job is stopped.
    #[stitch(minimum = 1, maximum = 3600)]
    timeout_secs: u32,
    #[stitch(max_length = 8, pattern = "^[a-z]+$")]
    name: String,
    #[stitch(exclusive_minimum = 0, exclusive_maximum = 1)]
    ratio: f64,
    #[stitch(multiple_of = 5)]
    #[serde(default)]
    step: Option<u16>,
    #[stitch(min_length = 2, max_items = 3)]
    #[serde(default)]
    tags: Vec<String>,
    #[stitch(pattern = "^[a-z./]+$")]
    #[serde(default)]
    paths: Option<OneOrMany<String>>,
}

#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Batch {
    jobs: Vec<Job>,
    #[stitch(minimum = -2.5, maximum = 2.5)]
    #[serde(default)]
    bias: Option<f32>,
}

/// A newtype carries its field's constraints wherever it is used.
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Slug(#[stitch(min_length = 1, max_length = 16, pattern = "^[a-z0-9-]+$")] String);

#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Publish {
    slug: Slug,
    #[serde(default)]
    aliases: Vec<Slug>,
    #[stitch(maximum = 10)]
    #[serde(default)]
    weights: std::collections::BTreeMap<String, u8>,
}

fn good_job() -> Value {
    json!({"timeout_secs": 1, "name": "build", "ratio": 0.5})
}

/// Every surface refuses `args` with exactly `expected` (path, message), in that order.
fn refused<T: ToolArgs + std::fmt::Debug>(args: Value, expected: &[(&str, &str)]) {
    let s = surfaces::<T>(&args);
    let want: Vec<(String, String)> = expected
        .iter()
        .map(|(p, m)| (p.to_string(), m.to_string()))
        .collect();
    let got = |e: &stitch_runtime::ArgsError| -> Vec<(String, String)> {
        e.issues()
            .iter()
            .map(|i| (i.path().to_owned(), i.message().to_owned()))
            .collect()
    };
    assert_eq!(
        got(&s.from_value.unwrap_err()),
        want,
        "from_value of {args}"
    );
    assert_eq!(got(&s.from_json.unwrap_err()), want, "from_json of {args}");
    let pretty = serde_json::to_string_pretty(&args).unwrap();
    assert_eq!(
        got(&T::from_json(&pretty).unwrap_err()),
        want,
        "from_json (pretty)"
    );
    let (result, left) = s.coerced;
    assert_eq!(got(&result.unwrap_err()), want, "coerce_value of {args}");
    assert_eq!(left, args, "a refused call leaves the value as it was");
    assert_eq!(
        got(&T::from_value_reported(args.clone()).unwrap_err()),
        want
    );
    assert_eq!(
        got(&T::from_json_reported(&args.to_string()).unwrap_err()),
        want
    );
    let e = serde_json::from_value::<Args<T>>(args.clone()).unwrap_err();
    assert!(e.to_string().contains(&want[0].1), "Args<T>: {e}");
    let e = serde_json::from_value::<Reported<T>>(args.clone()).unwrap_err();
    assert!(e.to_string().contains(&want[0].1), "Reported<T>: {e}");
}

fn accepted<T: ToolArgs + std::fmt::Debug + PartialEq>(args: Value) -> T {
    let s = surfaces::<T>(&args);
    let v = s
        .from_value
        .unwrap_or_else(|e| panic!("from_value of {args}: {e}"));
    assert_eq!(s.from_json.as_ref().ok(), Some(&v), "from_json of {args}");
    s.coerced.0.unwrap();
    let a = serde_json::from_value::<Args<T>>(args.clone()).unwrap();
    assert_eq!(a.0, v);
    v
}

#[test]
fn numbers_at_each_bound_are_accepted_and_across_it_refused() {
    for (t, ok) in [(0, false), (1, true), (3600, true), (3601, false)] {
        let mut args = good_job();
        args["timeout_secs"] = json!(t);
        if ok {
            accepted::<Job>(args);
        } else {
            let msg = if t == 0 {
                "timeout_secs: 0 is less than the minimum of 1"
            } else {
                "timeout_secs: 3601 is greater than the maximum of 3600"
            };
            refused::<Job>(args, &[("timeout_secs", msg)]);
        }
    }
    for (r, msg) in [
        (
            0.0,
            "ratio: 0.0 is not greater than the exclusive minimum of 0",
        ),
        (
            1.0,
            "ratio: 1.0 is not less than the exclusive maximum of 1",
        ),
    ] {
        let mut args = good_job();
        args["ratio"] = json!(r);
        refused::<Job>(args, &[("ratio", msg)]);
    }
    let mut args = good_job();
    args["ratio"] = json!(0.999);
    accepted::<Job>(args);
    let mut args = good_job();
    args["step"] = json!(15);
    assert_eq!(accepted::<Job>(args).step, Some(15));
    let mut args = good_job();
    args["step"] = json!(7);
    refused::<Job>(args, &[("step", "step: 7 is not a multiple of 5")]);
    // `null` for an `Option` is not a number: nothing to check.
    let mut args = good_job();
    args["step"] = Value::Null;
    accepted::<Job>(args);
}

#[test]
fn strings_count_code_points_and_match_patterns_anywhere_anchored_as_written() {
    let mut args = good_job();
    args["name"] = json!("abcdefgh");
    accepted::<Job>(args);
    let mut args = good_job();
    args["name"] = json!("abcdefghi");
    refused::<Job>(
        args,
        &[(
            "name",
            "name: \"abcdefghi\" is longer than the maximum length of 8 characters",
        )],
    );
    let mut args = good_job();
    args["name"] = json!("Build");
    refused::<Job>(
        args,
        &[(
            "name",
            "name: \"Build\" does not match the pattern `^[a-z]+$`",
        )],
    );
    // Code points, not bytes: two of them in four bytes.
    let mut args = good_job();
    args["tags"] = json!(["éé", "x"]);
    refused::<Job>(
        args,
        &[(
            "tags.1",
            "tags.1: \"x\" is shorter than the minimum length of 2 characters",
        )],
    );
}

#[test]
fn lists_options_one_or_many_maps_and_newtypes_constrain_each_item() {
    let mut args = good_job();
    args["paths"] = json!("a/b.png");
    accepted::<Job>(args.clone());
    args["paths"] = json!(["a/b.png", "C.png"]);
    refused::<Job>(
        args,
        &[(
            "paths.1",
            "paths.1: \"C.png\" does not match the pattern `^[a-z./]+$`",
        )],
    );
    let p = json!({"slug": "my-post", "weights": {"a": 10, "b": 3}});
    assert_eq!(accepted::<Publish>(p).slug, Slug("my-post".into()));
    refused::<Publish>(
        json!({"slug": "My Post", "weights": {"a": 11}}),
        &[
            (
                "slug",
                "slug: \"My Post\" does not match the pattern `^[a-z0-9-]+$`",
            ),
            (
                "weights.a",
                "weights.a: 11 is greater than the maximum of 10",
            ),
        ],
    );
    refused::<Publish>(
        json!({"slug": "ok", "aliases": ["fine", "Not Fine"]}),
        &[(
            "aliases.1",
            "aliases.1: \"Not Fine\" does not match the pattern `^[a-z0-9-]+$`",
        )],
    );
    refused::<Publish>(
        json!({"slug": ""}),
        &[(
            "slug",
            "slug: \"\" is shorter than the minimum length of 1 character",
        )],
    );
}

#[test]
fn every_issue_at_once_in_field_order_at_dotted_paths() {
    let args = json!({
        "jobs": [
            good_job(),
            {"timeout_secs": 0, "name": "x", "ratio": 2, "tags": ["ok", "y"]},
            {"timeout_secs": "ten", "name": "ok", "ratio": 0.5, "step": 4},
        ],
        "bias": -3,
    });
    let s = surfaces::<Batch>(&args);
    let e = s.from_value.unwrap_err();
    let got: Vec<String> = e.issues().iter().map(|i| i.message().to_owned()).collect();
    assert_eq!(
        got,
        [
            "jobs.1.timeout_secs: 0 is less than the minimum of 1",
            "jobs.1.ratio: 2 is not less than the exclusive maximum of 1",
            "jobs.1.tags.1: \"y\" is shorter than the minimum length of 2 characters",
            "jobs.2.timeout_secs: invalid type: string \"ten\", expected u32",
            "jobs.2.step: 4 is not a multiple of 5",
            "bias: -3 is less than the minimum of -2.5",
        ]
    );
    assert!(e.issues().iter().all(|i| i.kind() == IssueKind::Invalid));
    assert_eq!(issues(&s.from_json.unwrap_err()), issues(&e));
}

#[test]
fn the_text_list_refusal_comes_first_and_repairs_are_checked() {
    // A list written as text at a string-bearing position is refused by name, not judged
    // against the pattern as one string.
    let mut args = good_job();
    args["paths"] = json!("[\"a.png\", \"B.png\"]");
    refused::<Job>(
        args,
        &[(
            "paths",
            "paths is a list written as text — pass the array itself, not JSON written as text",
        )],
    );
    // JSON text where no string is read is repaired, and what it holds is checked.
    let mut args = good_job();
    args["tags"] = json!("[\"ok\", \"y\"]");
    refused::<Job>(
        args,
        &[(
            "tags.1",
            "tags.1: \"y\" is shorter than the minimum length of 2 characters",
        )],
    );
    let mut args = good_job();
    args["tags"] = json!("[\"ok\", \"fine\"]");
    assert_eq!(accepted::<Job>(args).tags, ["ok", "fine"]);
}

/// A field whose pattern describes bracketed strings: `[…]` is one value of it.
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Spans {
    #[stitch(pattern = r"^\[.*\]$")]
    spans: OneOrMany<String>,
}

#[test]
fn a_pattern_that_tells_the_readings_apart_keeps_the_string() {
    // The pattern matches the text and not its item: the field's own pattern says the
    // string was meant, so it is one value, on every surface and through the derived schema.
    let args = json!({"spans": "[\"a\"]"});
    let want = Spans {
        spans: OneOrMany::One("[\"a\"]".to_owned()),
    };
    assert_eq!(accepted::<Spans>(args.clone()), want);
    let coercer = stitch_runtime::json_schema::Coercer::new(
        &stitch_runtime::tool::mcp::<Spans>("s", None)["inputSchema"],
    )
    .unwrap();
    let mut value = args.clone();
    coercer.coerce(&mut value).unwrap();
    assert_eq!(value, args);
    // Its item matches too: the pattern cannot tell them apart, and R3 refuses.
    let both = json!({"spans": "[\"[1]\"]"});
    let refusal = [(
        "spans",
        "spans is a list written as text — pass the array itself, not JSON written as text",
    )];
    refused::<Spans>(both.clone(), &refusal);
    let mut value = both.clone();
    let error = coercer.coerce(&mut value).unwrap_err();
    assert_eq!(error.issues()[0].message(), refusal[0].1);
    assert_eq!(value, both);
}

/// A decimal step.
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Dose {
    #[stitch(multiple_of = 0.1)]
    ml: f64,
}

#[test]
fn a_decimal_multiple_of_is_judged_on_the_decimals_as_written() {
    // `0.3 / 0.1` is 2.9999999999999996 in binary floating point; 0.3 is 3 tenths.
    let coercer = stitch_runtime::json_schema::Coercer::new(
        &stitch_runtime::tool::mcp::<Dose>("d", None)["inputSchema"],
    )
    .unwrap();
    for ml in [0.3, 0.7, 1.1, 2.0, 0.0] {
        assert_eq!(accepted::<Dose>(json!({"ml": ml})).ml, ml);
        coercer.coerce(&mut json!({"ml": ml})).unwrap();
    }
    refused::<Dose>(
        json!({"ml": 0.35}),
        &[("ml", "ml: 0.35 is not a multiple of 0.1")],
    );
    let error = coercer.coerce(&mut json!({"ml": 0.35})).unwrap_err();
    assert_eq!(
        error.issues()[0].message(),
        "ml: 0.35 is not a multiple of 0.1"
    );
}

/// An `f32` field: its bounds are judged on the `f32` the tool receives.
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Gain {
    #[stitch(exclusive_maximum = 1.0)]
    level: f32,
    #[serde(default)]
    raw: Option<f32>,
}

#[test]
fn an_f32_bound_is_judged_on_the_f32_the_tool_receives() {
    // 0.99999999 rounds to 1.0 in an `f32`, which the bound excludes.
    assert_eq!(
        serde_json::from_value::<f32>(json!(0.99999999)).unwrap(),
        1.0
    );
    refused::<Gain>(
        json!({"level": 0.99999999}),
        &[(
            "level",
            "level: 1.0 is not less than the exclusive maximum of 1.0",
        )],
    );
    assert_eq!(accepted::<Gain>(json!({"level": 0.9999})).level, 0.9999);
    // Past `f32::MAX`: serde_json refuses it in text with `float_roundtrip` (on in this
    // workspace, through jsonschema) and reads infinity from a `Value`; stitch refuses it on
    // every surface, in a list too.
    assert!(serde_json::from_str::<Gain>(r#"{"level": 0.5, "raw": 1e39}"#).is_err());
    refused::<Gain>(
        json!({"level": 0.5, "raw": 1e39}),
        &[("raw", "raw: 1e+39 is out of the range of an f32")],
    );
    refused::<Gain>(
        json!({"level": 1e39}),
        &[("level", "level: 1e+39 is out of the range of an f32")],
    );
    assert_eq!(
        accepted::<Gain>(json!({"level": 0.5, "raw": 3.4028235e38})).raw,
        Some(f32::MAX)
    );
}

/// `f32` fields with bounds an `f32` cannot hold exactly.
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Tenths {
    #[stitch(maximum = 0.1)]
    low: f32,
    #[stitch(multiple_of = 0.1)]
    step: f32,
}

#[test]
fn an_f32_at_a_decimal_bound_keeps_it() {
    // 0.1 as an `f32` is 0.10000000149011612 as an `f64`: judged as the decimal it is.
    let read = accepted::<Tenths>(json!({"low": 0.1, "step": 0.3}));
    assert_eq!((read.low, read.step), (0.1, 0.3));
    refused::<Tenths>(
        json!({"low": 0.2, "step": 0.3}),
        &[("low", "low: 0.2 is greater than the maximum of 0.1")],
    );
    refused::<Tenths>(
        json!({"low": 0.1, "step": 0.35}),
        &[("step", "step: 0.35 is not a multiple of 0.1")],
    );
}

#[test]
fn the_command_line_checks_and_shows_them() {
    let e = Job::from_argv(
        "job",
        ["--timeout-secs", "0", "--name", "build", "--ratio", "0.5"],
    )
    .unwrap_err();
    assert_eq!(
        e.issues()[0].message(),
        "`--timeout-secs`: 0 is less than the minimum of 1"
    );
    let ok = Job::from_argv(
        "job",
        ["--timeout-secs", "60", "--name", "build", "--ratio", "0.5"],
    )
    .unwrap();
    assert_eq!(ok.timeout_secs, 60);
    // Every issue at once, each named by its flag, an item of a repeated flag by its index.
    let e = Job::from_argv(
        "job",
        [
            "--timeout-secs",
            "60",
            "--name",
            "Build",
            "--ratio",
            "1",
            "--step",
            "7",
            "--tags",
            "ok",
            "--tags",
            "y",
        ],
    )
    .unwrap_err();
    let got: Vec<&str> = e.issues().iter().map(|i| i.message()).collect();
    assert_eq!(
        got,
        [
            "`--name`: \"Build\" does not match the pattern `^[a-z]+$`",
            "`--ratio`: 1 is not less than the exclusive maximum of 1",
            "`--step`: 7 is not a multiple of 5",
            "`--tags.1`: \"y\" is shorter than the minimum length of 2 characters",
        ]
    );
    let help = Job::from_argv("job", ["--help"]).unwrap_err();
    let help = help.issues()[0].message();
    assert!(help.contains("[from 1 to 3600]"), "{help}");
    assert!(
        help.contains("[at most 8 characters, matching ^[a-z]+$]"),
        "{help}"
    );
}

#[test]
fn the_input_schema_carries_the_keywords() {
    let schema: Value = serde_json::from_str(Job::INPUT_SCHEMA).unwrap();
    let p = &schema["properties"];
    assert_eq!(
        p["timeout_secs"],
        json!({"description": "Seconds before the job is stopped.", "type": "integer", "minimum": 1, "maximum": 3600})
    );
    assert_eq!(
        p["name"],
        json!({"type": "string", "maxLength": 8, "pattern": "^[a-z]+$"})
    );
    assert_eq!(
        p["ratio"],
        json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1})
    );
    assert_eq!(p["step"]["multipleOf"], json!(5));
    assert_eq!(
        p["tags"]["items"],
        json!({"type": "string", "minLength": 2})
    );
    assert_eq!(p["tags"]["maxItems"], json!(3));
    assert_eq!(p["paths"]["anyOf"][0]["pattern"], json!("^[a-z./]+$"));
    assert_eq!(
        p["paths"]["anyOf"][1]["items"]["pattern"],
        json!("^[a-z./]+$")
    );
    let batch: Value = serde_json::from_str(Batch::INPUT_SCHEMA).unwrap();
    assert_eq!(
        batch["properties"]["bias"],
        json!({"type": "number", "minimum": -2.5, "maximum": 2.5})
    );
    let publish: Value = serde_json::from_str(Publish::INPUT_SCHEMA).unwrap();
    assert_eq!(
        publish["properties"]["weights"]["additionalProperties"],
        json!({"type": "integer", "minimum": 0, "maximum": 10})
    );
}

#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Contact {
    #[stitch(format = "email", max_length = 64)]
    email: String,
    #[stitch(format = "date-time")]
    #[serde(default)]
    since: Option<String>,
}

#[test]
fn format_is_advertised_and_not_checked() {
    let schema: Value = serde_json::from_str(Contact::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema["properties"]["email"],
        json!({"type": "string", "maxLength": 64, "format": "email"})
    );
    assert_eq!(schema["properties"]["since"]["format"], "date-time");
    // Not an email, not a date: accepted, as the rules say (the tool parses them).
    let c = accepted::<Contact>(json!({"email": "not an email", "since": "yesterday"}));
    assert_eq!(c.email, "not an email");
    // The other constraints beside it are checked.
    let long = format!("{}@example.com", "a".repeat(60));
    refused::<Contact>(
        json!({"email": long}),
        &[(
            "email",
            "email: a string of 72 characters is longer than the maximum length of 64 characters",
        )],
    );
}

/// README's "Constraints" example, as written there.
#[test]
fn the_readme_example_holds() {
    let readme = include_str!("../../../../README.md");
    let start = readme
        .find("## Constraints: ranges, lengths, patterns")
        .unwrap();
    let block = &readme[start..];
    let code = &block[block.find("```rust\n").unwrap() + 8..];
    let code = &code[..code.find("```").unwrap()];
    assert!(code.contains(
        r##"Schedule::from_json(r#"{"name":"Nightly","timeout_secs":0,"tags":["ci","CD"]}"#)"##
    ));

    /// Run a job on a schedule.
    #[derive(Debug, serde::Deserialize, ToolArgs)]
    #[allow(dead_code)]
    struct Schedule {
        /// The job's name.
        #[stitch(min_length = 1, max_length = 32, pattern = "^[a-z0-9-]+$")]
        name: String,
        /// Seconds before the job is stopped.
        #[stitch(minimum = 1, maximum = 3600)]
        timeout_secs: u32,
        /// Minutes between runs.
        #[stitch(exclusive_minimum = 0, multiple_of = 5)]
        #[serde(default)]
        every_minutes: Option<u16>,
        /// Labels, one or many, in lowercase.
        #[stitch(max_items = 5, pattern = "^[a-z]+$")]
        #[serde(default)]
        tags: Option<OneOrMany<String>>,
    }
    for line in [
        "#[stitch(min_length = 1, max_length = 32, pattern = \"^[a-z0-9-]+$\")]",
        "#[stitch(minimum = 1, maximum = 3600)]",
        "#[stitch(exclusive_minimum = 0, multiple_of = 5)]",
        "#[stitch(max_items = 5, pattern = \"^[a-z]+$\")]",
    ] {
        assert!(code.contains(line), "README lost {line}");
    }
    let err = Schedule::from_json(r#"{"name":"Nightly","timeout_secs":0,"tags":["ci","CD"]}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "name: \"Nightly\" does not match the pattern `^[a-z0-9-]+$`\n\
         timeout_secs: 0 is less than the minimum of 1\n\
         tags.1: \"CD\" does not match the pattern `^[a-z]+$`"
    );
    assert!(code.contains(r#"timeout_secs: 0 is less than the minimum of 1\n\"#));
}

mod typed_and_untagged;
