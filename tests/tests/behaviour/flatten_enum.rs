//! A flattened enum of every tagging, and a flattened `Option` (issue #33, items 1 and 4):
//! every surface gives serde's verdict and value on the value as repaired.

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::__private::strict_error;
use stitch_runtime::json_schema::Coercer;
use stitch_runtime::{tool, Args, OneOrMany, ToolArgs};

use super::round_trip::{open_formats, round_trip, surfaces};

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) enum ExtAct {
    Move {
        paths: OneOrMany<String>,
        #[stitch(minimum = 1)]
        n: Option<u32>,
    },
    Tag(Vec<String>),
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct HoldsExt {
    name: String,
    #[serde(flatten)]
    act: ExtAct,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op")]
pub(super) enum IntAct {
    Move {
        paths: OneOrMany<String>,
        #[stitch(minimum = 1)]
        n: Option<u32>,
    },
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct HoldsInt {
    name: String,
    #[serde(flatten)]
    act: IntAct,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op", content = "args")]
pub(super) enum AdjAct {
    Move {
        paths: OneOrMany<String>,
        #[stitch(minimum = 1)]
        n: Option<u32>,
    },
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct HoldsAdj {
    name: String,
    #[serde(flatten)]
    act: AdjAct,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub(super) enum UntAct {
    Move {
        paths: OneOrMany<String>,
        #[stitch(minimum = 1)]
        n: Option<u32>,
    },
    Code {
        code: u32,
    },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct HoldsUnt {
    name: String,
    #[serde(flatten)]
    act: UntAct,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(super) struct HoldsOptAct {
    name: String,
    #[serde(flatten)]
    act: Option<IntAct>,
}

/// A flattened enum under a field: OpenAI's strict modes take it there.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Job {
    job: HoldsInt,
    ext: Option<HoldsExt>,
    adj: Option<HoldsAdj>,
    unt: Option<HoldsUnt>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Inner {
    top: u32,
    #[serde(default)]
    tags: Vec<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsOpt {
    name: Option<Vec<u32>>,
    #[serde(flatten)]
    inner: Option<Inner>,
}

/// Every surface's verdict on `args`: `Ok(value)` or `Err(message)`, from `from_value`,
/// `from_json`, `coerce_value` then serde, `Args<T>`, and the schema's `Coercer` then serde.
fn verdicts<T>(args: &Value) -> Vec<(&'static str, Result<T, String>)>
where
    T: ToolArgs + stitch_runtime::ObjectArgs + PartialEq + std::fmt::Debug,
{
    let text = args.to_string();
    let coerced = {
        let mut v = args.clone();
        T::coerce_value(&mut v)
            .map_err(|e| e.to_string())
            .and_then(|()| serde_json::from_value::<T>(v).map_err(|e| e.to_string()))
    };
    let schema = tool::mcp::<T>("t", None)["inputSchema"].clone();
    let by_schema = {
        let mut v = args.clone();
        Coercer::new(&schema)
            .unwrap()
            .coerce(&mut v)
            .map_err(|e| e.to_string())
            .and_then(|()| serde_json::from_value::<T>(v).map_err(|e| e.to_string()))
    };
    vec![
        (
            "from_value",
            T::from_value(args.clone()).map_err(|e| e.to_string()),
        ),
        ("from_json", T::from_json(&text).map_err(|e| e.to_string())),
        ("coerce_value", coerced),
        (
            "Args",
            serde_json::from_str::<Args<T>>(&text)
                .map(|Args(t)| t)
                .map_err(|e| e.to_string()),
        ),
        ("Coercer", by_schema),
    ]
}

/// Every surface reads `args` as `expected` (serde's value for the repaired arguments).
fn reads<T>(args: Value, expected: T)
where
    T: ToolArgs + stitch_runtime::ObjectArgs + PartialEq + std::fmt::Debug,
{
    for (surface, got) in verdicts::<T>(&args) {
        assert_eq!(got.as_ref(), Ok(&expected), "{surface} {args}");
    }
}

/// Every surface but the schema's `Coercer` reads `args` as `expected`: where the schema
/// cannot say a flattened `Option`'s `None` (`the_schema_cannot_say_a_flattened_none`).
fn reads_but_schema<T>(args: Value, expected: T)
where
    T: ToolArgs + stitch_runtime::ObjectArgs + PartialEq + std::fmt::Debug,
{
    for (surface, got) in verdicts::<T>(&args) {
        if surface != "Coercer" {
            assert_eq!(got.as_ref(), Ok(&expected), "{surface} {args}");
        }
    }
}

/// Every surface refuses `args`, `from_value` with `message`.
fn refuses<T>(args: Value, message: &str)
where
    T: ToolArgs + stitch_runtime::ObjectArgs + PartialEq + std::fmt::Debug,
{
    for (surface, got) in verdicts::<T>(&args) {
        let err = got.expect_err(&format!("{surface} accepted {args}"));
        if surface == "from_value" {
            assert_eq!(err, message, "{args}");
        }
    }
}

/// serde's value for `args` (as sent, or as repaired).
fn serde<T: ToolArgs>(args: Value) -> T {
    serde_json::from_value(args).expect("serde reads it")
}

const TEXT_LIST: &str =
    "is a list written as text — pass the array itself, not JSON written as text";

#[test]
fn a_list_written_as_text_inside_a_flattened_enum_is_refused_for_every_tagging() {
    // serde reads each as one path named `["a.png"]`: the rule was bypassed.
    let ext = json!({"name": "a", "Move": {"paths": "[\"a.png\"]"}});
    let int = json!({"name": "a", "op": "Move", "paths": "[\"a.png\"]"});
    let adj = json!({"name": "a", "op": "Move", "args": {"paths": "[\"a.png\"]"}});
    let unt = json!({"name": "a", "paths": "[\"a.png\"]"});
    let opt = json!({"name": "a", "op": "Move", "paths": "[\"a.png\"]"});
    serde::<HoldsExt>(ext.clone());
    serde::<HoldsInt>(int.clone());
    serde::<HoldsAdj>(adj.clone());
    serde::<HoldsUnt>(unt.clone());
    assert!(serde::<HoldsOptAct>(opt.clone()).act.is_some());
    refuses::<HoldsExt>(ext, &format!("Move.paths {TEXT_LIST}"));
    refuses::<HoldsInt>(int, &format!("paths {TEXT_LIST}"));
    refuses::<HoldsAdj>(adj, &format!("args.paths {TEXT_LIST}"));
    refuses::<HoldsUnt>(unt, &format!("paths {TEXT_LIST}"));
    refuses::<HoldsOptAct>(opt, &format!("paths {TEXT_LIST}"));
}

#[test]
fn constraints_inside_a_flattened_variant_apply() {
    let bound = "0 is less than the minimum of 1";
    refuses::<HoldsExt>(
        json!({"name": "a", "Move": {"paths": "x", "n": 0}}),
        &format!("Move.n: {bound}"),
    );
    refuses::<HoldsInt>(
        json!({"name": "a", "op": "Move", "paths": "x", "n": 0}),
        &format!("n: {bound}"),
    );
    refuses::<HoldsAdj>(
        json!({"name": "a", "op": "Move", "args": {"paths": "x", "n": 0}}),
        &format!("args.n: {bound}"),
    );
    refuses::<HoldsUnt>(
        json!({"name": "a", "paths": "x", "n": 0}),
        &format!("n: {bound}"),
    );
    // A flattened `Option`: every surface but the schema's (whose `None` member takes any
    // call: `the_schema_cannot_say_a_flattened_none`).
    let args = json!({"name": "a", "op": "Move", "paths": "x", "n": 0});
    for (surface, got) in verdicts::<HoldsOptAct>(&args) {
        if surface != "Coercer" {
            assert_eq!(got, Err(format!("n: {bound}")), "{surface}");
        }
    }
}

#[test]
fn json_text_inside_a_flattened_variant_is_repaired_as_serde_reads_the_repair() {
    reads::<HoldsExt>(
        json!({"name": "a", "Tag": "[\"x\"]"}),
        serde(json!({"name": "a", "Tag": ["x"]})),
    );
    reads::<HoldsExt>(
        json!({"name": "a", "Move": "{\"paths\": \"x\"}"}),
        serde(json!({"name": "a", "Move": {"paths": "x"}})),
    );
    reads::<HoldsAdj>(
        json!({"name": "a", "op": "Move", "args": "{\"paths\": [\"x\"]}"}),
        serde(json!({"name": "a", "op": "Move", "args": {"paths": ["x"]}})),
    );
}

#[test]
fn calls_serde_reads_are_read_alike_on_every_surface() {
    for args in [
        json!({"name": "a", "Move": {"paths": "x", "n": 2}}),
        json!({"name": "a", "Move": {"paths": ["x", "y"]}}),
        json!({"name": "a", "Tag": ["x"]}),
        json!({"name": "a", "Stop": null}),
        json!({"name": "a", "Stop": null, "Move": {"paths": "x"}}),
        json!({"name": "a", "other": "[1]", "Stop": null}),
    ] {
        reads::<HoldsExt>(args.clone(), serde(args));
    }
    for args in [
        json!({"name": "a", "op": "Move", "paths": "[x]", "n": 3}),
        json!({"name": "a", "op": "Stop"}),
        json!({"name": "a", "op": "Stop", "extra": "[1]"}),
    ] {
        reads::<HoldsInt>(args.clone(), serde(args));
    }
    for args in [
        json!({"name": "a", "op": "Move", "args": {"paths": "x"}}),
        json!({"name": "a", "op": "Stop"}),
        json!({"name": "a", "op": "Stop", "args": null}),
    ] {
        reads::<HoldsAdj>(args.clone(), serde(args));
    }
    for args in [
        json!({"name": "a", "paths": "x"}),
        json!({"name": "a", "code": 3}),
    ] {
        reads::<HoldsUnt>(args.clone(), serde(args));
    }
    for args in [
        json!({"name": "a", "op": "Move", "paths": "x"}),
        json!({"name": "a"}),
    ] {
        reads::<HoldsOptAct>(args.clone(), serde(args));
    }
    // A tag no variant has is serde's `None`: the type's schema says so, the provider formats'
    // one object (whose `op` lists the variants) does not (`docs/rules.md#flattened-unions`).
    let args = json!({"name": "a", "op": "Nope"});
    reads_but_schema::<HoldsOptAct>(args.clone(), serde(args.clone()));
    let mut by_type = args.clone();
    Coercer::new(HoldsOptAct::input_schema())
        .unwrap()
        .coerce(&mut by_type)
        .unwrap();
    assert_eq!(serde::<HoldsOptAct>(by_type), serde(args.clone()));
}

#[test]
fn calls_serde_refuses_are_refused_on_every_surface_in_its_words() {
    fn check<T>(args: Value)
    where
        T: ToolArgs + stitch_runtime::ObjectArgs + PartialEq + std::fmt::Debug,
    {
        let message = serde_json::from_value::<T>(args.clone())
            .expect_err("serde refuses it")
            .to_string();
        refuses::<T>(args, &message);
    }
    check::<HoldsExt>(json!({"name": "a"}));
    check::<HoldsExt>(json!({"name": "a", "move": {"paths": "x"}}));
    check::<HoldsInt>(json!({"name": "a"}));
    check::<HoldsInt>(json!({"name": "a", "op": "Jump"}));
    check::<HoldsAdj>(json!({"name": "a"}));
    check::<HoldsUnt>(json!({"name": "a"}));
    check::<HoldsUnt>(json!({"name": "a", "code": "3"}));
}

/// Item 4: serde reads a flattened `Option<Inner>` as `Some` when `Inner` reads the keys and as
/// `None` otherwise, never refusing; a repair that makes `Inner` read them gives `Some`, as
/// serde reads the repaired call.
#[test]
fn a_flattened_option_is_what_serde_reads() {
    let some = |top| {
        Some(Inner {
            top,
            tags: Vec::new(),
        })
    };
    reads(
        json!({"top": 1}),
        HoldsOpt {
            name: None,
            inner: some(1),
        },
    );
    // serde's `None`, where the walk of `Inner` refused or reported a missing field.
    for args in [
        json!({}),
        json!({"tags": ["a"]}),
        json!({"top": "x"}),
        json!({"top": null}),
        json!({"top": 1, "tags": "x"}),
    ] {
        assert_eq!(serde::<HoldsOpt>(args.clone()).inner, None, "{args}");
        reads_but_schema(args.clone(), serde::<HoldsOpt>(args));
    }
    // A repair elsewhere in the call leaves the `None` a `None`.
    reads_but_schema(
        json!({"name": "[1]", "top": "x"}),
        HoldsOpt {
            name: Some(vec![1]),
            inner: None,
        },
    );
    reads(
        json!({"name": "[1]", "top": 2}),
        serde::<HoldsOpt>(json!({"name": [1], "top": 2})),
    );
    // JSON text is not repaired into a `Some` serde reads as `None`: the text stays.
    let args = json!({"top": 1, "tags": "[\"a\"]"});
    assert_eq!(serde::<HoldsOpt>(args.clone()).inner, None);
    reads_but_schema(args.clone(), serde::<HoldsOpt>(args.clone()));
    let mut coerced = args.clone();
    HoldsOpt::coerce_value(&mut coerced).unwrap();
    assert_eq!(coerced, args);
    // Nor is a defaulted field's `null` taken as left out (R8) there: serde's `None`.
    let args = json!({"top": 1, "tags": null});
    assert_eq!(serde::<HoldsOpt>(args.clone()).inner, None);
    reads_but_schema(args.clone(), serde::<HoldsOpt>(args));
}

/// Where JSON Schema cannot say what serde means (`docs/rules.md#flattened-unions`): a
/// flattened `Option<Inner>` whose keys are sent with values `Inner` refuses is serde's `None`,
/// and the schema (which says `Inner`'s keys) refuses them.
#[test]
fn the_schema_cannot_say_a_flattened_none() {
    let schema = tool::mcp::<HoldsOpt>("t", None)["inputSchema"].clone();
    let args = json!({"top": "x"});
    assert_eq!(serde::<HoldsOpt>(args.clone()).inner, None);
    assert!(HoldsOpt::from_value(args.clone()).is_ok());
    assert!(!jsonschema::is_valid(&schema, &args), "{schema}");
    let mut by_schema = args.clone();
    assert!(Coercer::new(&schema)
        .unwrap()
        .coerce(&mut by_schema)
        .is_err());
    // A flattened `Option` of an enum: the parent alone is a member of the schema's `anyOf`
    // (serde's `None`), so the schema takes a call whose variant breaks a constraint, which
    // serde reads as `Some` and stitch refuses. The provider formats' one object states `n`'s
    // bound for every call, and refuses it as stitch does.
    let schema = HoldsOptAct::input_schema();
    let args = json!({"name": "a", "op": "Move", "paths": "x", "n": 0});
    assert!(serde::<HoldsOptAct>(args.clone()).act.is_some());
    assert!(HoldsOptAct::from_value(args.clone()).is_err());
    assert!(jsonschema::is_valid(schema, &args), "{schema}");
    let merged = tool::mcp::<HoldsOptAct>("t", None)["inputSchema"].clone();
    assert!(!jsonschema::is_valid(&merged, &args), "{merged}");
}

#[test]
fn every_schema_format_carries_the_tag_and_the_variants_properties() {
    // The type's own schema: one member per variant.
    let int = HoldsInt::input_schema().clone();
    let members = int["anyOf"].as_array().expect("an anyOf of variants");
    assert_eq!(members.len(), 2, "{int}");
    assert_eq!(members[0]["properties"]["op"]["const"], "Move", "{int}");
    assert_eq!(members[0]["properties"]["n"]["minimum"], 1, "{int}");
    assert_eq!(members[0]["required"], json!(["name", "op", "paths"]));
    let ext = HoldsExt::input_schema().clone();
    assert!(ext["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["required"] == json!(["name", "Move"])));
    let adj = HoldsAdj::input_schema().clone();
    assert_eq!(adj["anyOf"][0]["required"], json!(["name", "op", "args"]));
    // A flattened `Option`: the parent alone is a member too.
    let opt = HoldsOptAct::input_schema().clone();
    assert_eq!(opt["anyOf"][2]["required"], json!(["name"]), "{opt}");
    // The provider formats: one object, the tag an `enum`, every variant's properties, what
    // every variant requires required (`docs/rules.md#flattened-unions`).
    let int = tool::mcp::<HoldsInt>("t", None)["inputSchema"].clone();
    assert_eq!(
        int["properties"]["op"],
        json!({"type": "string", "enum": ["Move", "Stop"]})
    );
    assert_eq!(int["properties"]["n"]["minimum"], 1, "{int}");
    assert_eq!(int["required"], json!(["name", "op"]), "{int}");
    let ext = tool::anthropic::<HoldsExt>("t", None)["input_schema"].clone();
    for key in ["name", "Move", "Tag", "Stop"] {
        assert!(ext["properties"].get(key).is_some(), "{key}: {ext}");
    }
    assert_eq!(ext["required"], json!(["name"]), "{ext}");
    // Strict mode wants properties at the root: a flattened enum there is a compile error.
    assert!(strict_error::<HoldsInt>().is_some());
    assert_eq!(strict_error::<Job>(), None);
    let strict = tool::anthropic_strict::<HoldsInt>("t", None)["input_schema"].clone();
    assert_eq!(strict["additionalProperties"], false, "{strict}");
    let keys: Vec<&String> = strict["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["n", "name", "op", "paths"], "{strict}");
}

#[test]
fn flattened_enums_round_trip_in_every_format() {
    let open = |mut all: Vec<(&'static str, Value)>, anthropic: Value| {
        all.push(("anthropic_strict", anthropic));
        all
    };
    // Every other format that takes an object at the root, for each type.
    fn others<T: stitch_runtime::ObjectArgs>() -> Vec<(&'static str, Value)> {
        vec![
            (
                "openai_responses",
                tool::openai_responses::<T>("t", None)["parameters"].clone(),
            ),
            (
                "gemini_json_schema",
                tool::gemini_json_schema::<T>("t", None)["parametersJsonSchema"].clone(),
            ),
            ("gemini", tool::gemini::<T>("t", None)["parameters"].clone()),
        ]
    }
    round_trip::<HoldsExt>(others::<HoldsExt>(), 40);
    round_trip::<HoldsInt>(others::<HoldsInt>(), 40);
    round_trip::<HoldsAdj>(others::<HoldsAdj>(), 40);
    round_trip::<HoldsUnt>(others::<HoldsUnt>(), 40);
    round_trip::<HoldsOptAct>(others::<HoldsOptAct>(), 40);
    round_trip::<HoldsExt>(
        open(
            surfaces::<HoldsExt>(),
            tool::anthropic_strict::<HoldsExt>("t", None)["input_schema"].clone(),
        ),
        60,
    );
    round_trip::<HoldsInt>(
        open(
            surfaces::<HoldsInt>(),
            tool::anthropic_strict::<HoldsInt>("t", None)["input_schema"].clone(),
        ),
        60,
    );
    round_trip::<HoldsAdj>(
        open(
            surfaces::<HoldsAdj>(),
            tool::anthropic_strict::<HoldsAdj>("t", None)["input_schema"].clone(),
        ),
        60,
    );
    round_trip::<HoldsUnt>(
        open(
            surfaces::<HoldsUnt>(),
            tool::anthropic_strict::<HoldsUnt>("t", None)["input_schema"].clone(),
        ),
        60,
    );
    round_trip::<HoldsOptAct>(
        open(
            surfaces::<HoldsOptAct>(),
            tool::anthropic_strict::<HoldsOptAct>("t", None)["input_schema"].clone(),
        ),
        60,
    );
    let mut strict = surfaces::<Job>();
    strict.push((
        "anthropic_strict",
        tool::anthropic_strict::<Job>("t", None)["input_schema"].clone(),
    ));
    strict.push((
        "openai_strict",
        tool::openai_strict::<Job>("t", None)["function"]["parameters"].clone(),
    ));
    strict.push((
        "openai_responses_strict",
        tool::openai_responses_strict::<Job>("t", None)["parameters"].clone(),
    ));
    round_trip::<Job>(strict, 200);
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct MidAct {
    x: Option<u32>,
    #[serde(flatten)]
    act: IntAct,
}

/// A flattened enum inside a flattened struct.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsMid {
    name: String,
    #[serde(flatten)]
    mid: MidAct,
}

/// A flattened enum inside a variant.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind")]
enum Outer {
    Job {
        name: String,
        #[serde(flatten)]
        act: AdjAct,
    },
    Idle,
}

#[test]
fn a_flattened_enum_deeper_down_is_walked() {
    let args = json!({"name": "a", "x": 1, "op": "Move", "paths": "[\"a.png\"]"});
    serde::<HoldsMid>(args.clone());
    refuses::<HoldsMid>(args, &format!("paths {TEXT_LIST}"));
    let mut all = surfaces::<HoldsMid>();
    all.push((
        "anthropic_strict",
        tool::anthropic_strict::<HoldsMid>("t", None)["input_schema"].clone(),
    ));
    round_trip::<HoldsMid>(all, 60);
    assert!(strict_error::<HoldsMid>().is_some());
    refuses::<Outer>(
        json!({"kind": "Job", "name": "a", "op": "Move", "args": {"paths": "[\"a.png\"]"}}),
        &format!("args.paths {TEXT_LIST}"),
    );
    let args = json!({"kind": "Job", "name": "a", "op": "Move", "args": "{\"paths\": \"x\"}"});
    reads::<Outer>(
        args,
        serde(json!({"kind": "Job", "name": "a", "op": "Move", "args": {"paths": "x"}})),
    );
    let mut all = surfaces::<Outer>();
    all.push((
        "anthropic_strict",
        tool::anthropic_strict::<Outer>("t", None)["input_schema"].clone(),
    ));
    round_trip::<Outer>(all, 60);
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct MaybeExt {
    name: String,
    #[serde(flatten)]
    act: Option<ExtAct>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct MaybeAdj {
    name: String,
    #[serde(flatten)]
    act: Option<AdjAct>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct MaybeUnt {
    name: String,
    #[serde(flatten)]
    act: Option<UntAct>,
}

/// A flattened `Option` of an enum of each tagging: serde's `None` where no variant reads the
/// keys (nothing refused), serde's `Some` otherwise, its text lists refused.
#[test]
fn a_flattened_option_of_every_tagging_is_what_serde_reads() {
    for args in [
        json!({"name": "a"}),
        json!({"name": "a", "Move": {"paths": "x"}}),
        json!({"name": "a", "Move": {"paths": 5}}),
        json!({"name": "a", "Tag": "x"}),
    ] {
        reads_but_schema::<MaybeExt>(args.clone(), serde(args));
    }
    for args in [
        json!({"name": "a"}),
        json!({"name": "a", "op": "Stop"}),
        json!({"name": "a", "op": "Move", "args": {"paths": "x"}}),
        json!({"name": "a", "op": "Move", "args": "{\"paths\": \"x\"}"}),
    ] {
        reads_but_schema::<MaybeAdj>(args.clone(), serde(args));
    }
    for args in [
        json!({"name": "a"}),
        json!({"name": "a", "code": 3}),
        json!({"name": "a", "code": "3"}),
        json!({"name": "a", "paths": ["x"]}),
    ] {
        reads_but_schema::<MaybeUnt>(args.clone(), serde(args));
    }
    assert_eq!(
        serde::<MaybeExt>(json!({"name": "a", "Tag": "x"})).act,
        None
    );
    refuses::<MaybeExt>(
        json!({"name": "a", "Move": {"paths": "[\"a.png\"]"}}),
        &format!("Move.paths {TEXT_LIST}"),
    );
    refuses::<MaybeAdj>(
        json!({"name": "a", "op": "Move", "args": {"paths": "[\"a.png\"]"}}),
        &format!("args.paths {TEXT_LIST}"),
    );
    refuses::<MaybeUnt>(
        json!({"name": "a", "paths": "[\"a.png\"]"}),
        &format!("paths {TEXT_LIST}"),
    );
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Picks {
    top: u32,
    paths: OneOrMany<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsPicks {
    name: String,
    #[serde(flatten)]
    picks: Option<Picks>,
}

/// The text surfaces' verdicts on `text`: `from_json`, then `Args<T>`.
fn text_verdicts<T: ToolArgs + std::fmt::Debug>(text: &str) -> [Result<T, String>; 2] {
    [
        T::from_json(text).map_err(|e| e.to_string()),
        serde_json::from_str::<Args<T>>(text)
            .map(|Args(t)| t)
            .map_err(|e| e.to_string()),
    ]
}

#[test]
fn a_key_sent_twice_does_not_let_a_list_written_as_text_through_a_flattened_union() {
    // An unknown key sent twice beside the list: serde reads the text as `One("[\"a\"]")`.
    let untagged = r#"{"name": "a", "x": 1, "x": 2, "paths": "[\"a\", \"b\"]"}"#;
    let option = r#"{"name": "a", "x": 1, "x": 2, "top": 1, "paths": "[\"a\"]"}"#;
    assert!(serde_json::from_str::<HoldsUnt>(untagged).is_ok());
    assert!(serde_json::from_str::<HoldsPicks>(option).is_ok());
    for got in text_verdicts::<HoldsUnt>(untagged) {
        assert_eq!(got, Err(format!("paths {TEXT_LIST}")), "{untagged}");
    }
    for got in text_verdicts::<HoldsPicks>(option) {
        assert_eq!(got, Err(format!("paths {TEXT_LIST}")), "{option}");
    }
}

#[test]
fn a_key_sent_twice_in_a_flattened_union_is_read_as_serde_reads_the_text() {
    let texts = [
        // Nothing a rule acts on.
        r#"{"name": "a", "x": 1, "x": 2, "paths": ["a"]}"#,
        // `Move` meets `paths` twice, so serde reads `Code`: the lists are not its.
        r#"{"name": "a", "paths": ["a"], "paths": ["b"], "code": 1}"#,
        r#"{"name": "a", "paths": "[\"a\"]", "paths": "[\"b\"]", "code": 1}"#,
    ];
    for text in texts {
        let serde = serde_json::from_str::<HoldsUnt>(text).map_err(|e| e.to_string());
        for got in text_verdicts::<HoldsUnt>(text) {
            assert_eq!(got, serde, "{text}");
        }
    }
    // `top` sent twice: serde refuses `Picks` for the text, so the field is `None`, and the
    // list written as text is no one's.
    let texts = [
        r#"{"name": "a", "top": 1, "top": 2, "paths": "[\"a\"]"}"#,
        r#"{"name": "a", "x": 1, "x": 2, "top": 1, "paths": ["a"]}"#,
    ];
    for text in texts {
        let serde = serde_json::from_str::<HoldsPicks>(text).map_err(|e| e.to_string());
        assert!(serde.is_ok(), "{text}");
        for got in text_verdicts::<HoldsPicks>(text) {
            assert_eq!(got, serde, "{text}");
        }
    }
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind")]
enum Target {
    File {
        path: String,
    },
    Url {
        url: String,
        #[stitch(minimum = 1)]
        port: Option<u16>,
    },
}

/// Two flattened enums: the schema is one member per pair of variants.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct TwoFlat {
    name: String,
    #[serde(flatten)]
    act: IntAct,
    #[serde(flatten)]
    target: Target,
}

/// Two more, of other taggings, one of them an `Option`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct TwoMixed {
    name: String,
    #[serde(flatten)]
    act: ExtAct,
    #[serde(flatten)]
    target: Option<Target>,
}

/// Two flattened enums under a field, where strict formats take them.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct TwoJob {
    two: TwoFlat,
    mixed: Option<TwoMixed>,
}

/// Every format's schema of `T` that takes it at the root: [`open_formats`] and Gemini's.
fn every_format<T: stitch_runtime::ObjectArgs>() -> Vec<(&'static str, Value)> {
    let mut all = open_formats::<T>();
    all.push(("gemini", tool::gemini::<T>("t", None)["parameters"].clone()));
    all
}

#[test]
fn two_flattened_enums_are_both_in_every_schema_format() {
    let two = json!([
        {"name": "a", "op": "Move", "paths": ["x"], "n": 2, "kind": "File", "path": "p"},
        {"name": "a", "op": "Stop", "kind": "Url", "url": "u"},
        {"name": "a", "op": "Move", "paths": "x", "kind": "Url", "url": "u"},
    ]);
    let mixed = json!([
        {"name": "a", "Move": {"paths": "x"}, "kind": "File", "path": "p"},
        {"name": "a", "Tag": ["t"]},
        {"name": "a", "Stop": null, "kind": "Url", "url": "u"},
    ]);
    let schema = TwoFlat::input_schema().clone();
    let members = schema["anyOf"].as_array().expect("an anyOf");
    assert_eq!(members.len(), 4, "{schema}");
    assert_eq!(
        members[1]["required"],
        json!(["name", "op", "kind", "path"]),
        "{schema}"
    );
    assert_eq!(members[3]["properties"]["port"]["minimum"], 1, "{schema}");
    // 3 choices of `ExtAct` (`Stop`, `Move`, `Tag`) by 3 of `Option<Target>` (`None` too).
    let schema = TwoMixed::input_schema().clone();
    assert_eq!(schema["anyOf"].as_array().unwrap().len(), 9, "{schema}");
    // Every call serde accepts is valid under every format's schema, and every surface and
    // the schema's `Coercer` read it as serde does.
    let formats = |calls: &Value, all: Vec<(&'static str, Value)>| {
        for call in calls.as_array().unwrap() {
            for (format, schema) in &all {
                assert!(
                    jsonschema::is_valid(schema, call),
                    "{format}: {call}\n{schema}"
                );
            }
        }
    };
    formats(&two, every_format::<TwoFlat>());
    formats(&mixed, every_format::<TwoMixed>());
    for call in two.as_array().unwrap() {
        reads::<TwoFlat>(call.clone(), serde(call.clone()));
    }
    for call in mixed.as_array().unwrap() {
        reads::<TwoMixed>(call.clone(), serde(call.clone()));
    }
    // OpenAI's strict formats send every key, an optional one as `null`; Anthropic's leaves
    // it out.
    let job = json!({
        "two": two[0],
        "mixed": {"name": "a", "Move": {"paths": "x", "n": null}, "kind": "File", "path": "p"},
    });
    let left_out = json!({"two": two[1], "mixed": mixed[0]});
    let strict = [
        (
            &job,
            tool::openai_strict::<TwoJob>("t", None)["function"]["parameters"].clone(),
        ),
        (
            &job,
            tool::openai_responses_strict::<TwoJob>("t", None)["parameters"].clone(),
        ),
        (
            &left_out,
            tool::anthropic_strict::<TwoJob>("t", None)["input_schema"].clone(),
        ),
    ];
    for (call, schema) in strict {
        assert!(jsonschema::is_valid(&schema, call), "{call}\n{schema}");
        reads::<TwoJob>(call.clone(), serde(call.clone()));
    }
    // The second enum's rules and constraints hold on every surface, the Coercer's too.
    refuses::<TwoFlat>(
        json!({"name": "a", "op": "Stop", "kind": "Url", "url": "u", "port": 0}),
        "port: 0 is less than the minimum of 1",
    );
    refuses::<TwoFlat>(
        json!({"name": "a", "op": "Stop", "kind": "Go"}),
        "unknown variant `Go`, expected `File` or `Url`",
    );
}

#[test]
fn flattened_enums_round_trip_in_every_format_two_at_a_time() {
    round_trip::<TwoFlat>(every_format::<TwoFlat>(), 60);
    round_trip::<TwoMixed>(every_format::<TwoMixed>(), 90);
    let mut strict = every_format::<TwoJob>();
    strict.push((
        "openai_strict",
        tool::openai_strict::<TwoJob>("t", None)["function"]["parameters"].clone(),
    ));
    strict.push((
        "openai_responses_strict",
        tool::openai_responses_strict::<TwoJob>("t", None)["parameters"].clone(),
    ));
    round_trip::<TwoJob>(strict, 200);
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct FiveFlat {
    #[serde(flatten)]
    a: IntAct,
    #[serde(flatten)]
    b: Target,
    #[serde(flatten)]
    c: Option<Picks>,
    #[serde(flatten)]
    d: UntAct,
    #[serde(flatten)]
    e: AdjAct,
    #[serde(flatten)]
    f: ExtAct,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Under {
    five: Option<FiveFlat>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "f")]
enum Five {
    A,
    B,
    C,
    D,
    E,
}

/// Four flattened enums whose choices multiply to 5 × 3 × 3 × 2 = 90 members.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Wide {
    #[serde(flatten)]
    f: Five,
    #[serde(flatten)]
    act: ExtAct,
    #[serde(flatten)]
    target: Option<Target>,
    #[serde(flatten)]
    adj: AdjAct,
}

#[test]
fn too_many_flattened_enums_are_a_compile_error_not_a_wrong_schema() {
    let error = stitch_runtime::__private::tool_error::<Wide>().expect("refused");
    assert!(error.contains("more than 64 objects"), "{error}");
    // `INPUT_SCHEMA`, which no `tool::…` function checks, says nothing of the enums' keys
    // then: open, it takes every call serde reads (and more), never fewer.
    let schema: Value = serde_json::from_str(Wide::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema["anyOf"].as_array().map(Vec::len),
        Some(1),
        "{schema}"
    );
    let call = json!({"f": "A", "Stop": null, "op": "Stop"});
    assert!(serde::<Wide>(call.clone()).target.is_none());
    assert!(jsonschema::is_valid(&schema, &call), "{schema}");
    use stitch_runtime::__private::tool_error;
    // IntAct 2 × Target 2 × UntAct 2 × AdjAct 2 × ExtAct 3 = 48 members, within the bound;
    // past it, a compile error naming the object.
    let error = tool_error::<FiveFlat>().expect("refused");
    assert!(error.contains("more than 4 enums"), "{error}");
    let error = tool_error::<Under>().expect("refused");
    assert!(error.contains("`five`"), "{error}");
    assert_eq!(tool_error::<TwoMixed>(), None);
}

/// The provider formats that write a root union as one object, of `T`.
fn provider_formats<T: stitch_runtime::ObjectArgs>() -> [(&'static str, Value); 6] {
    [
        ("gemini", tool::gemini::<T>("t", None)["parameters"].clone()),
        ("mcp", tool::mcp::<T>("t", None)["inputSchema"].clone()),
        (
            "anthropic",
            tool::anthropic::<T>("t", None)["input_schema"].clone(),
        ),
        (
            "openai",
            tool::openai::<T>("t", None)["function"]["parameters"].clone(),
        ),
        (
            "openai_responses",
            tool::openai_responses::<T>("t", None)["parameters"].clone(),
        ),
        (
            "anthropic_strict",
            tool::anthropic_strict::<T>("t", None)["input_schema"].clone(),
        ),
    ]
}

/// Anthropic's Messages API refuses a tool whose `input_schema` has `oneOf`, `allOf` or `anyOf`
/// at the top level (400 for the whole request), and MCP clients pass `inputSchema` on to it:
/// a root union is one object in these formats (`docs/rules.md#flattened-unions`).
#[test]
fn no_provider_format_has_a_combinator_at_the_top() {
    fn check<T: stitch_runtime::ObjectArgs>() {
        let name = std::any::type_name::<T>();
        assert!(super::round_trip::root_union(T::input_schema()), "{name}");
        for (format, schema) in provider_formats::<T>() {
            for key in ["anyOf", "oneOf", "allOf"] {
                assert!(schema.get(key).is_none(), "{name} {format}: {schema}");
            }
            assert_eq!(schema["type"], "object", "{name} {format}: {schema}");
            assert!(schema["properties"].is_object(), "{name} {format}");
            if format == "anthropic_strict" {
                assert_eq!(schema["additionalProperties"], false, "{name}: {schema}");
            }
        }
    }
    check::<HoldsExt>();
    check::<HoldsInt>();
    check::<HoldsAdj>();
    check::<HoldsUnt>();
    check::<HoldsOptAct>();
    check::<TwoFlat>();
    check::<TwoMixed>();
    check::<HoldsMid>();
    check::<Outer>();
    // Tagged enums as the arguments themselves.
    check::<IntAct>();
    check::<AdjAct>();
    check::<UntAct>();
    check::<super::round_trip::FileAct>();
    check::<super::round_trip::External>();
    // Nested: a flattened enum in a variant is merged too, its tag an `enum` of both levels.
    let outer = tool::mcp::<Outer>("t", None)["inputSchema"].clone();
    assert_eq!(outer["properties"]["kind"]["enum"], json!(["Job", "Idle"]));
    assert_eq!(outer["properties"]["op"]["enum"], json!(["Move", "Stop"]));
    assert_eq!(outer["required"], json!(["kind"]), "{outer}");
    // The variants' doc comments, no longer beside their fields, are said by tag.
    let act = tool::anthropic::<super::round_trip::FileAct>("t", None)["input_schema"].clone();
    assert_eq!(
        act["properties"]["kind"]["description"],
        "`open`: Open a file. `find`: Find files. `grow`: A recursive type. `stop`: Stop.",
        "{act}"
    );
    assert_eq!(act["description"], "Act on one file.");
}

/// What `stitch-proxy` sees from a server with such a tool: the `Coercer` built from
/// `tool::mcp`'s one object still refuses a list written as text inside a variant's field, by
/// name, and repairs JSON text where no string is expected.
#[test]
fn the_coercer_of_the_mcp_schema_keeps_the_rules_inside_a_variant() {
    fn coerce<T: stitch_runtime::ObjectArgs>(mut args: Value) -> Result<Value, String> {
        let schema = tool::mcp::<T>("t", None)["inputSchema"].clone();
        assert!(!super::round_trip::root_union(&schema), "{schema}");
        Coercer::new(&schema)
            .unwrap()
            .coerce(&mut args)
            .map(|()| args)
            .map_err(|e| e.to_string())
    }
    let text = "[\"a.png\"]";
    let refused = [
        (
            coerce::<HoldsExt>(json!({"name": "a", "Move": {"paths": text}})),
            "Move.paths",
        ),
        (
            coerce::<HoldsInt>(json!({"name": "a", "op": "Move", "paths": text})),
            "paths",
        ),
        (
            coerce::<HoldsAdj>(json!({"name": "a", "op": "Move", "args": {"paths": text}})),
            "args.paths",
        ),
        (
            coerce::<HoldsUnt>(json!({"name": "a", "paths": text})),
            "paths",
        ),
        (
            coerce::<HoldsOptAct>(json!({"name": "a", "op": "Move", "paths": text})),
            "paths",
        ),
        (
            coerce::<TwoFlat>(json!({"name": "a", "op": "Move", "paths": text,
                "kind": "File", "path": "p"})),
            "paths",
        ),
        (
            coerce::<IntAct>(json!({"op": "Move", "paths": text})),
            "paths",
        ),
    ];
    for (got, at) in refused {
        assert_eq!(got, Err(format!("{at} {TEXT_LIST}")));
    }
    // JSON text where an object or a list is expected: repaired, as serde reads the repair.
    let repaired =
        coerce::<HoldsAdj>(json!({"name": "a", "op": "Move", "args": "{\"paths\": [\"x\"]}"}));
    assert_eq!(
        repaired,
        Ok(json!({"name": "a", "op": "Move", "args": {"paths": ["x"]}}))
    );
    let repaired = coerce::<HoldsExt>(json!({"name": "a", "Tag": "[\"x\"]"}));
    assert_eq!(repaired, Ok(json!({"name": "a", "Tag": ["x"]})));
}

/// What the one object cannot say (`docs/rules.md#flattened-unions`): it is wider than the
/// union (a tag with another variant's fields, or without its own, validates; stitch judges
/// the call when it arrives), except where a variant that does not state a key leaves it to
/// serde, which ignores it: the object gives the key the type the other variants give it.
#[test]
fn the_one_object_loses_the_pairing_of_a_tag_with_its_fields() {
    let schema = tool::mcp::<HoldsInt>("t", None)["inputSchema"].clone();
    let faithful = HoldsInt::input_schema();
    // Wider: `Move` without its required `paths`.
    let wider = json!({"name": "a", "op": "Move"});
    assert!(jsonschema::is_valid(&schema, &wider));
    assert!(!jsonschema::is_valid(faithful, &wider));
    assert!(HoldsInt::from_value(wider).is_err());
    // Narrower: `Stop` with a `paths` serde ignores.
    let ignored = json!({"name": "a", "op": "Stop", "paths": 5});
    assert!(HoldsInt::from_value(ignored.clone()).is_ok());
    assert!(jsonschema::is_valid(faithful, &ignored));
    assert!(!jsonschema::is_valid(&schema, &ignored));
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum Un {
    A { a: i64 },
    B { b: Vec<String> },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsOptUn {
    x: Option<Vec<String>>,
    #[serde(flatten)]
    u: Option<Un>,
}

/// A flattened `Option` of an untagged enum whose member meets its own key sent twice is
/// serde's `None` (docs/rules.md#duplicates), not the enum's "no member" refusal: the notes of
/// a key sent twice reach the probe that decides the `Option` from the untagged enum's own
/// probes of its members.
#[test]
fn a_key_sent_twice_inside_a_flattened_option_of_an_untagged_enum_is_serdes_none() {
    for text in [r#"{"a":1,"a":2}"#, r#"{"a":1,"a":2,"size":"[\"a\"]"}"#] {
        let by_serde: HoldsOptUn = serde_json::from_str(text).unwrap();
        assert_eq!(by_serde.u, None, "{text}");
        assert_eq!(HoldsOptUn::from_json(text).unwrap(), by_serde, "{text}");
        let args: Args<HoldsOptUn> = serde_json::from_str(text).unwrap();
        assert_eq!(args.0, by_serde, "{text}");
    }
    // A repair elsewhere reads the repaired value, whose last `a` makes the member.
    let text = r#"{"a":1,"a":2,"x":"[\"a\"]"}"#;
    let read = HoldsOptUn::from_json(text).unwrap();
    assert_eq!(read.x, Some(vec!["a".to_owned()]));
    assert_eq!(read.u, Some(Un::A { a: 2 }));
}

/// A recursive struct, flattened or the content of a flattened enum's variant.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Tree {
    name: String,
    #[serde(default)]
    children: Vec<Tree>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct FlatTree {
    path: String,
    #[serde(flatten)]
    tree: Tree,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op")]
enum Grow {
    Plant(Tree),
    Cut { n: i64 },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct FlatGrow {
    path: String,
    #[serde(flatten)]
    act: Grow,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum UGrow {
    T(Tree),
    C { n: i64 },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct FlatUGrow {
    path: String,
    #[serde(flatten)]
    act: UGrow,
}

/// A recursive struct whose fields are written inline (flattened, or a flattened variant's
/// content) keeps its anchor: written once under `$defs` beside them, so its
/// self-references resolve, in the type's schema and in every format that keeps `$ref`s.
#[test]
fn a_flattened_recursive_struct_keeps_its_anchor() {
    fn check<T: ToolArgs + stitch_runtime::ObjectArgs>(call: Value) {
        let name = core::any::type_name::<T>();
        for (format, schema) in [
            ("input_schema", T::input_schema().clone()),
            ("mcp", tool::mcp::<T>("t", None)["inputSchema"].clone()),
            (
                "anthropic",
                tool::anthropic::<T>("t", None)["input_schema"].clone(),
            ),
            (
                "anthropic_strict",
                tool::anthropic_strict::<T>("t", None)["input_schema"].clone(),
            ),
            (
                "gemini_json_schema",
                tool::gemini_json_schema::<T>("t", None)["parametersJsonSchema"].clone(),
            ),
        ] {
            let validator = jsonschema::validator_for(&schema)
                .unwrap_or_else(|e| panic!("{name} {format}: {e}\n{schema}"));
            if format != "anthropic_strict" {
                assert!(
                    validator.is_valid(&call),
                    "{name} {format}: {call}\n{schema}"
                );
            }
            Coercer::new(&schema).unwrap_or_else(|e| panic!("{name} {format}: {e}\n{schema}"));
        }
        T::from_value(call.clone()).unwrap();
    }
    let tree = json!({"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]});
    let mut flat = tree.clone();
    flat["path"] = json!("p");
    check::<FlatTree>(flat.clone());
    flat["op"] = json!("Plant");
    check::<FlatGrow>(flat.clone());
    flat.as_object_mut().unwrap().remove("op");
    check::<FlatUGrow>(flat);
}
