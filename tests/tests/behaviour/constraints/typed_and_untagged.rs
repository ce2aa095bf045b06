//! Constraints judged on what serde read: typed values on `from_json`'s fast path, and the
//! variants of untagged enums.

use super::*;

/// `from_json`'s fast path judges a typed value as the walk judges its JSON, or declines.
#[test]
fn typed_values_are_judged_exactly_or_sent_down_the_full_path() {
    use stitch_runtime::__private::Coerce;
    use stitch_runtime::{Limits, Num};
    let range = Limits {
        minimum: Some(Num::Int(1)),
        maximum: Some(Num::Int(9_007_199_254_740_993)),
        ..Limits::NONE
    };
    assert!(<u64 as Coerce>::limits_hold(&9_007_199_254_740_993, &range));
    assert!(!<u64 as Coerce>::limits_hold(
        &9_007_199_254_740_994,
        &range
    ));
    assert!(!<u8 as Coerce>::limits_hold(&0, &range));
    assert!(<Vec<Option<u16>> as Coerce>::limits_hold(
        &vec![Some(1), None],
        &range
    ));
    assert!(!<Vec<Option<u16>> as Coerce>::limits_hold(
        &vec![Some(0)],
        &range
    ));
    assert!(<f64 as Coerce>::limits_hold(&1.5, &range));
    // An f32 was rounded from the JSON number: the walk decides.
    assert!(!<f32 as Coerce>::limits_hold(&1.5, &range));
    let short = Limits {
        max_length: Some(2),
        ..Limits::NONE
    };
    assert!(<OneOrMany<String> as Coerce>::limits_hold(
        &OneOrMany::One("éé".into()),
        &short
    ));
    assert!(!<OneOrMany<String> as Coerce>::limits_hold(
        &OneOrMany::Many(vec!["ok".into(), "long".into()]),
        &short
    ));
    assert!(<std::path::PathBuf as Coerce>::limits_hold(
        &"ab".into(),
        &short
    ));
    // A float bound beside an f32 field: from_json and from_value agree through the full path.
    let args = json!({"jobs": [], "bias": 2.5000001});
    let s = surfaces::<Batch>(&args);
    assert_eq!(s.from_value.is_ok(), s.from_json.is_ok());
}

/// An untagged enum's struct variant checks its fields' constraints (serde's pick is walked).
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
#[serde(untagged)]
enum Target {
    Host {
        #[stitch(pattern = "^[a-z.]+$")]
        host: String,
        #[stitch(minimum = 1, maximum = 65535)]
        port: u32,
    },
    Socket {
        #[stitch(min_length = 1)]
        socket: std::path::PathBuf,
    },
}

#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Connect {
    target: Target,
}

#[test]
fn untagged_struct_variants_check_their_fields() {
    accepted::<Connect>(json!({"target": {"host": "db.local", "port": 5432}}));
    refused::<Connect>(
        json!({"target": {"host": "db.local", "port": 0}}),
        &[(
            "target.port",
            "target.port: 0 is less than the minimum of 1",
        )],
    );
    refused::<Connect>(
        json!({"target": {"host": "DB", "port": 1}}),
        &[(
            "target.host",
            "target.host: \"DB\" does not match the pattern `^[a-z.]+$`",
        )],
    );
    refused::<Connect>(
        json!({"target": {"socket": ""}}),
        &[(
            "target.socket",
            "target.socket: \"\" is shorter than the minimum length of 1 character",
        )],
    );
}

/// An untagged enum walks the variant serde picks for a lone number or string when a variant
/// may refuse one by a constraint: its own field's, or its newtype's.
#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
#[serde(untagged)]
enum Ref {
    Id(#[stitch(minimum = 1)] u32),
    Name(#[stitch(pattern = "^[a-z]+$")] String),
    Slugs(Vec<Slug>),
}

#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
#[serde(untagged)]
enum Alt {
    Count(u64),
    Slug(Option<Slug>),
}

#[derive(Debug, Deserialize, ToolArgs, PartialEq)]
struct Lookup {
    target: Ref,
    #[serde(default)]
    alt: Option<Alt>,
}

#[test]
fn untagged_newtype_variants_check_the_value_serde_picks_them_for() {
    assert_eq!(accepted::<Lookup>(json!({"target": 5})).target, Ref::Id(5));
    assert_eq!(
        accepted::<Lookup>(json!({"target": "abc"})).target,
        Ref::Name("abc".into())
    );
    refused::<Lookup>(
        json!({"target": 0}),
        &[("target", "target: 0 is less than the minimum of 1")],
    );
    refused::<Lookup>(
        json!({"target": "ABC"}),
        &[(
            "target",
            "target: \"ABC\" does not match the pattern `^[a-z]+$`",
        )],
    );
    refused::<Lookup>(
        json!({"target": ["my-post", "Not A Slug"]}),
        &[(
            "target.1",
            "target.1: \"Not A Slug\" does not match the pattern `^[a-z0-9-]+$`",
        )],
    );
    accepted::<Lookup>(json!({"target": 1, "alt": 7}));
    accepted::<Lookup>(json!({"target": 1, "alt": "a-slug"}));
    refused::<Lookup>(
        json!({"target": 1, "alt": "Bad Slug"}),
        &[(
            "alt",
            "alt: \"Bad Slug\" does not match the pattern `^[a-z0-9-]+$`",
        )],
    );
}
