//! Types whose reading serde decides in its subtler ways: flatten chains (struct → struct →
//! map, in variants), every tagging, untagged members with maps, `deny_unknown_fields`,
//! `rename_all`, `alias`, `default`, and issue #33's rarer shapes ([`Rare`]). The serde-oracle property test and the `serde_oracle`
//! fuzz target read them ([`serde_oracle_input`]).

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::Deserialize;
use serde_json::Value;
use stitch_runtime::{Args, OneOrMany, ToolArgs};

use crate::checks::Outcome;

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Leaf {
    #[serde(alias = "n")]
    pub num: Option<u32>,
    #[serde(flatten)]
    pub rest: BTreeMap<String, Vec<u32>>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "camelCase")]
pub struct Mid {
    pub top_name: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(flatten)]
    pub leaf: Leaf,
}

/// struct → struct → struct → map.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Chain {
    pub id: u32,
    #[serde(flatten)]
    pub mid: Mid,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Internal {
    Run {
        n: Option<u32>,
        #[serde(flatten)]
        env: BTreeMap<String, Vec<u32>>,
    },
    Wrap(Leaf),
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    A(Vec<u32>),
    B { x: String },
    U,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum External {
    Go(Vec<u32>),
    Stop { why: String },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(deny_unknown_fields)]
pub struct Strict {
    pub k: u32,
    #[serde(default)]
    pub d: bool,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum Untagged {
    S(Strict),
    M(BTreeMap<String, u32>),
    L(Vec<String>),
}

#[derive(Debug, Default, PartialEq, Deserialize, ToolArgs)]
#[serde(default)]
pub struct Opts {
    pub a: bool,
    pub b: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Top {
    pub internal: Internal,
    pub adjacent: Option<Adjacent>,
    #[serde(default)]
    pub external: Vec<External>,
    pub untagged: Option<Untagged>,
    #[serde(default)]
    pub opts: Opts,
}

/// Maps, where a key sent twice is no error, beside an untagged enum with a map member.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Loose {
    pub m: BTreeMap<String, u32>,
    pub u: Option<Untagged>,
}

/// An internally tagged enum flattened beside a field.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct FlatTagged {
    pub note: Option<String>,
    #[serde(flatten)]
    pub op: Internal,
}

/// An untagged enum that reads `null` (its unit variant).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum Maybe {
    Nothing,
    Count(u32),
}

/// A unit-only enum that takes any other name.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub enum Speed {
    Fast,
    Slow,
    #[serde(other)]
    Unknown,
}

/// `Maybe`'s default in [`Rare`], which its `null` does not read as.
pub fn seven() -> Maybe {
    Maybe::Count(7)
}

/// An `Option`'s default other than `None`.
pub fn five() -> Option<u32> {
    Some(5)
}

/// A `OneOrMany<Option<_>>`'s default other than `One(None)`.
pub fn one_x() -> OneOrMany<Option<String>> {
    OneOrMany::One(Some("x".to_owned()))
}

/// The rarer shapes of issue #33: `null` that serde reads at fields with other defaults, an
/// `f32`, an alias, `other`, `Option` items.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Rare {
    #[serde(default = "seven")]
    pub maybe: Maybe,
    #[serde(default = "five")]
    pub count: Option<u32>,
    #[serde(default = "one_x")]
    pub names: OneOrMany<Option<String>>,
    pub ratio: Option<f32>,
    #[serde(alias = "colour", default)]
    pub color: Option<String>,
    #[serde(default)]
    pub speed: Option<Speed>,
    #[serde(default)]
    pub readings: Vec<Option<u32>>,
}

/// An externally tagged enum flattened beside a field: the first key naming a variant.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct FlatExternal {
    pub note: Option<String>,
    #[serde(flatten)]
    pub act: External,
}

/// An adjacently tagged enum flattened beside a field: its tag and content keys.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct FlatAdjacent {
    pub note: Option<String>,
    #[serde(flatten)]
    pub act: Adjacent,
}

/// An untagged enum flattened beside a field: its members tried on the keys the field leaves.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct FlatUntagged {
    pub note: Option<String>,
    #[serde(flatten)]
    pub act: Untagged,
}

/// A flattened `Option` of a struct chain and of an internally tagged enum: `None` when the
/// keys do not read as one, never an error.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct FlatOption {
    pub id: u32,
    #[serde(flatten)]
    pub mid: Option<Mid>,
}

/// A flattened `Option` of an internally tagged enum.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct FlatOptionTagged {
    pub note: Option<String>,
    #[serde(flatten)]
    pub op: Option<Internal>,
}

/// Two flattened enums beside a field, each reading its own keys: an adjacently tagged one and
/// an externally tagged one (the first key naming a variant).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct FlatTwo {
    pub note: Option<String>,
    #[serde(flatten)]
    pub act: Adjacent,
    #[serde(flatten)]
    pub go: External,
}

/// Whether some string in `value` opens like JSON text (after white space): one that a rule
/// may repair or refuse somewhere.
pub fn may_be_text(value: &Value) -> bool {
    match value {
        Value::String(s) => matches!(
            s.trim_start_matches([' ', '\t', '\n', '\r']).chars().next(),
            Some('[' | '{' | '"')
        ),
        Value::Array(items) => items.iter().any(may_be_text),
        Value::Object(map) => map.values().any(may_be_text),
        _ => false,
    }
}

fn has_null(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.iter().any(has_null),
        Value::Object(map) => map.values().any(has_null),
        _ => false,
    }
}

/// For a text no rule acts on (an object, no string that opens like JSON text, no `null`),
/// keys sent twice or not: `from_json` and `Args<T>` give serde's answer for the text (the
/// same value, or a refusal), and when no key is sent twice, so do `from_value` and
/// `coerce_value` (which leaves the value as it was).
pub fn check_serde_oracle<T: ToolArgs + PartialEq + Debug>(text: &str) -> Outcome {
    let name = std::any::type_name::<T>();
    let Ok(parsed) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    if !parsed.is_object() || may_be_text(&parsed) || has_null(&parsed) {
        return Ok(());
    }
    let serde = serde_json::from_str::<T>(text).map_err(|e| e.to_string());
    let agrees = |got: &Result<T, String>| match (got, &serde) {
        (Ok(a), Ok(b)) => a == b,
        (Err(_), Err(_)) => true,
        _ => false,
    };
    let from_json = T::from_json(text).map_err(|e| e.to_string());
    let through_args = serde_json::from_str::<Args<T>>(text)
        .map(Args::into_inner)
        .map_err(|e| e.to_string());
    for (surface, got) in [("from_json", &from_json), ("Args<T>", &through_args)] {
        if !agrees(got) {
            return Err(format!(
                "{name}: {surface} gave {got:?}, serde {serde:?}\n text {text:?}"
            ));
        }
    }
    if crate::duplicates::sends_a_key_twice(text) {
        return Ok(());
    }
    let from_value = T::from_value(parsed.clone()).map_err(|e| e.to_string());
    if !agrees(&from_value) {
        return Err(format!(
            "{name}: from_value gave {from_value:?}, serde {serde:?}\n text {text:?}"
        ));
    }
    let mut coerced = parsed.clone();
    let walked = T::coerce_value(&mut coerced);
    if coerced != parsed || (walked.is_err() && serde.is_ok()) {
        return Err(format!(
            "{name}: coerce_value gave {walked:?} and {coerced} for what serde reads as {serde:?}\n text {text:?}"
        ));
    }
    Ok(())
}

/// [`check_serde_oracle`] for every type of this module.
pub fn check_serde_oracle_all(text: &str) -> Outcome {
    check_serde_oracle::<Chain>(text)?;
    check_serde_oracle::<Internal>(text)?;
    check_serde_oracle::<FlatTagged>(text)?;
    check_serde_oracle::<Top>(text)?;
    check_serde_oracle::<Loose>(text)?;
    check_serde_oracle::<Rare>(text)?;
    check_serde_oracle::<FlatExternal>(text)?;
    check_serde_oracle::<FlatAdjacent>(text)?;
    check_serde_oracle::<FlatUntagged>(text)?;
    check_serde_oracle::<FlatOption>(text)?;
    check_serde_oracle::<FlatOptionTagged>(text)?;
    check_serde_oracle::<FlatTwo>(text)?;
    Ok(())
}

/// Fuzz entry: any bytes, read as text (lossily).
pub fn serde_oracle_input(data: &[u8]) -> Outcome {
    check_serde_oracle_all(&String::from_utf8_lossy(data))
}
