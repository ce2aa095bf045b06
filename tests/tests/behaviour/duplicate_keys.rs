//! Keys the text sends twice: a tag, a content key or a variant's key is refused as serde
//! refuses it, on every text surface; duplicates are told apart exactly; an untagged enum
//! gives serde's answer for the text (`docs/rules.md#duplicates`, issue 18 items 2–4).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use stitch_runtime::{Args, ToolArgs};

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Internal {
    Del { path: String },
    Move { path: String, to: Option<String> },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A(Vec<u32>),
    C(String),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum External {
    Go(Vec<u32>),
    Stop(Vec<u32>),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsExternal {
    action: External,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsInternal {
    step: Internal,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Row {
    names: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct Collide {
    um: Value,
    aaaaaaaa_x_bbbbbbbb: Value,
    aaaaaaaa_y_bbbbbbbb: Option<Row>,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct S {
    k: u32,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum SOrMap {
    S(S),
    M(BTreeMap<String, u32>),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsUntagged {
    um: SOrMap,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum OnlyStructs {
    S(S),
    T { k: u32, extra: Option<u32> },
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
struct HoldsOnlyStructs {
    v: OnlyStructs,
}

/// The answer of each text surface to `text`: `from_json`, then `Args<T>`.
fn text_surfaces<T: ToolArgs>(text: &str) -> [Result<T, String>; 2] {
    [
        T::from_json(text).map_err(|e| e.to_string()),
        serde_json::from_str::<Args<T>>(text)
            .map(Args::into_inner)
            .map_err(|e| e.to_string()),
    ]
}

/// `text` is refused by serde and by both text surfaces, the surfaces with `message`.
fn refused<T: ToolArgs + std::fmt::Debug>(text: &str, message: &str) {
    assert!(
        serde_json::from_str::<T>(text).is_err(),
        "serde reads {text}"
    );
    for got in text_surfaces::<T>(text) {
        assert_eq!(got.unwrap_err(), message, "{text}");
    }
}

/// `text` is read by serde and by both text surfaces, to the same value.
fn read_as_serde<T: ToolArgs + std::fmt::Debug + PartialEq>(text: &str) {
    let serde = serde_json::from_str::<T>(text).expect("serde reads it");
    for got in text_surfaces::<T>(text) {
        assert_eq!(got.unwrap(), serde, "{text}");
    }
}

#[test]
fn a_tag_sent_twice_is_refused_at_the_tag() {
    refused::<Internal>(
        r#"{"op":"del","op":"move","path":"a"}"#,
        "op: duplicate field `op`",
    );
    refused::<HoldsInternal>(
        r#"{"step":{"op":"move","path":"a","op":"move"}}"#,
        "step.op: duplicate field `op`",
    );
    refused::<Adjacent>(r#"{"t":"C","t":"A","c":[1]}"#, "t: duplicate field `t`");
    read_as_serde::<Internal>(r#"{"op":"del","path":"a"}"#);
}

#[test]
fn a_content_key_sent_twice_is_refused_at_the_content() {
    refused::<Adjacent>(r#"{"t":"C","c":"x","c":"y"}"#, "c: duplicate field `c`");
    read_as_serde::<Adjacent>(r#"{"t":"C","c":"y"}"#);
}

#[test]
fn a_variant_key_sent_twice_is_refused_at_the_enum() {
    refused::<HoldsExternal>(
        r#"{"action":{"go":[1],"go":[2]}}"#,
        "action: invalid value: map, expected map with a single key",
    );
    read_as_serde::<HoldsExternal>(r#"{"action":{"go":[1]}}"#);
}

#[test]
fn keys_that_differ_only_in_their_middles_are_not_confused() {
    let text = r#"{"um":{"s":"x"},"aaaaaaaa_x_bbbbbbbb":{"names":"a","names":"b"},"aaaaaaaa_y_bbbbbbbb":{"names":"c"}}"#;
    read_as_serde::<Collide>(text);
    // The same key sent twice under the typed field is still refused.
    let text = r#"{"um":1,"aaaaaaaa_x_bbbbbbbb":{"names":"c"},"aaaaaaaa_y_bbbbbbbb":{"names":"a","names":"b"}}"#;
    refused::<Collide>(text, "aaaaaaaa_y_bbbbbbbb.names: duplicate field `names`");
}

#[test]
fn a_replaced_value_does_not_leave_its_duplicates_behind() {
    // serde refuses the first `aaaaaaaa_y_bbbbbbbb` (its `names` twice) as it streams, and
    // then the field sent twice; stitch refuses the field sent twice.
    let text = r#"{"um":1,"aaaaaaaa_x_bbbbbbbb":2,"aaaaaaaa_y_bbbbbbbb":{"names":"a","names":"b"},"aaaaaaaa_y_bbbbbbbb":{"names":"c"}}"#;
    for got in text_surfaces::<Collide>(text) {
        assert_eq!(
            got.unwrap_err(),
            "aaaaaaaa_y_bbbbbbbb: duplicate field `aaaaaaaa_y_bbbbbbbb`"
        );
    }
}

#[test]
fn an_untagged_enum_gives_serdes_answer_for_the_text() {
    read_as_serde::<HoldsUntagged>(r#"{"um":{"k":1,"k":2}}"#);
    let read = HoldsUntagged::from_json(r#"{"um":{"k":1,"k":2}}"#).unwrap();
    assert_eq!(read.um, SOrMap::M(BTreeMap::from([("k".to_owned(), 2)])));
    read_as_serde::<HoldsUntagged>(r#"{"um":{"k":1}}"#);
    // No member reads the text: serde's words for it.
    refused::<HoldsOnlyStructs>(
        r#"{"v":{"k":1,"k":2}}"#,
        "v: data did not match any variant of untagged enum OnlyStructs",
    );
    read_as_serde::<HoldsOnlyStructs>(r#"{"v":{"k":1,"extra":2}}"#);
    // `from_value` answers for the `Value`, which holds the key once.
    let value: Value = serde_json::from_str(r#"{"v":{"k":1,"k":2}}"#).unwrap();
    assert_eq!(
        HoldsOnlyStructs::from_value(value).unwrap().v,
        OnlyStructs::S(S { k: 2 })
    );
}
