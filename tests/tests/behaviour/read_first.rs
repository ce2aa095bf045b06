//! `from_value` reads a plain call straight into the type and walks it only when that read
//! fails or the result breaks a bound (`tool_args::read_value`, `json::plain_value`). The read
//! moves the strings it hands to an owned `String` out of the value, so what the walk sees
//! after a failed read is not what was sent: these calls check that the answer is still the
//! one the walk gives first (`coerce_value`, then the read), with every issue at once, each
//! quoting the value as sent; and that `from_json` of the same text gives it too.

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{ArgsError, OneOrMany, ToolArgs};

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Kind {
    File,
    Dir,
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Job {
    label: String,
    kind: Kind,
    size: u32,
    tags: OneOrMany<String>,
    #[serde(default)]
    kinds: Option<OneOrMany<Kind>>,
}

/// A string constraint: the walk judges `alias` by its content, so it goes first. (serde
/// reads the keys in the order a `Value` keeps them, by name: `alias` before `size`.)
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Named {
    #[stitch(min_length = 3)]
    alias: String,
    size: u32,
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct RawPair {
    low: String,
    high: String,
}

/// serde reads a `RawPair` (taking its strings), then refuses it in words that quote them.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(try_from = "RawPair")]
struct Pair {
    low: String,
    high: String,
}

impl TryFrom<RawPair> for Pair {
    type Error = String;

    fn try_from(raw: RawPair) -> Result<Pair, String> {
        if raw.low > raw.high {
            return Err(format!("{:?} comes after {:?}", raw.low, raw.high));
        }
        Ok(Pair {
            low: raw.low,
            high: raw.high,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Span {
    label: String,
    pair: Pair,
}

/// A bounded list and an `f32` constraint, which the read's result cannot judge exactly
/// (`limits_hold` declines for `f32`): the walk runs after a read that succeeded.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Scaled {
    file: String,
    #[stitch(maximum = 10)]
    ratio: f32,
    #[stitch(max_items = 2)]
    paths: OneOrMany<String>,
}

/// The same answer from `from_value`, from `from_json`, and from the walk first
/// (`coerce_value`, then the read of what it left).
fn one_answer<T: ToolArgs + PartialEq + std::fmt::Debug>(args: Value) -> Result<T, ArgsError> {
    let mut coerced = args.clone();
    let walked = match T::coerce_value(&mut coerced) {
        Ok(()) => T::from_value(coerced),
        Err(e) => Err(e),
    };
    let text = T::from_json(&args.to_string());
    match (&text, &walked) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("from_json {text:?}, walk first {walked:?}"),
    }
    let read = T::from_value(args);
    match (&read, &walked) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("from_value {read:?}, walk first {walked:?}"),
    }
    read
}

fn messages(error: ArgsError) -> Vec<String> {
    error.issues().iter().map(ToString::to_string).collect()
}

#[test]
fn a_failed_read_still_reports_every_issue_in_the_words_of_the_value_sent() {
    let err = one_answer::<Job>(json!({
        "label": "build", "kind": "fil", "size": "x", "tags": "a", "kinds": ["dir"]
    }))
    .unwrap_err();
    let messages = messages(err);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].starts_with("kind: ") && messages[0].contains("`fil`"));
    assert!(messages[1].starts_with("size: ") && messages[1].contains("\"x\""));
}

#[test]
fn a_plain_call_reads_as_serde_reads_it() {
    let args = json!({
        "label": "build", "kind": "dir", "size": 3, "tags": ["a", "[b]"], "kinds": "file"
    });
    let job = one_answer::<Job>(args.clone()).unwrap();
    assert_eq!(job, serde_json::from_value::<Job>(args).unwrap());
    assert_eq!(job.kinds, Some(OneOrMany::One(Kind::File)));
}

#[test]
fn a_string_constraint_is_judged_on_the_string_sent() {
    let err = one_answer::<Named>(json!({"alias": "ab", "size": "x"})).unwrap_err();
    let messages = messages(err);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("\"ab\""), "{messages:?}");
    let ok = one_answer::<Named>(json!({"alias": "abc", "size": 1})).unwrap();
    assert_eq!(ok.alias, "abc");
}

#[test]
fn serde_s_own_refusal_after_the_read_quotes_the_value_sent() {
    // The walk finds nothing wrong: the answer is serde's, from the read of the value as sent.
    let err =
        one_answer::<Span>(json!({"label": "l", "pair": {"low": "b", "high": "a"}})).unwrap_err();
    assert!(err.to_string().contains("\"b\" comes after \"a\""), "{err}");
    let ok = one_answer::<Span>(json!({"label": "l", "pair": {"low": "a", "high": "b"}})).unwrap();
    assert_eq!(ok.pair.high, "b");
}

#[test]
fn a_read_that_succeeds_and_breaks_or_cannot_judge_a_bound_is_walked() {
    let err = one_answer::<Scaled>(json!({"file": "f", "ratio": 0.5, "paths": ["a", "b", "c"]}))
        .unwrap_err();
    assert!(err.to_string().starts_with("paths: "), "{err}");
    let err = one_answer::<Scaled>(json!({"file": "f", "ratio": 11.5, "paths": "a"})).unwrap_err();
    assert!(err.to_string().contains("11.5"), "{err}");
    // Within the bound, judged by the walk (an `f32`): the strings read stay in the result.
    let ok = one_answer::<Scaled>(json!({"file": "f", "ratio": 0.5, "paths": ["a", "b"]})).unwrap();
    assert_eq!(ok.file, "f");
    assert_eq!(
        ok.paths,
        OneOrMany::Many(vec!["a".to_owned(), "b".to_owned()])
    );
}

#[test]
fn json_text_and_null_members_take_the_walk() {
    // Repaired (R1) and left out (R8) as before: the read never ran on these.
    #[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
    struct Rows {
        file: String,
        rows: Vec<u32>,
        #[serde(default)]
        limit: u32,
    }
    let ok = one_answer::<Rows>(json!({"file": "f", "rows": "[1, 2]", "limit": null})).unwrap();
    assert_eq!((ok.file.as_str(), ok.rows, ok.limit), ("f", vec![1, 2], 0));
    let err = one_answer::<Job>(json!({
        "label": "n", "kind": "dir", "size": 1, "tags": "[\"a\", \"b\"]"
    }))
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("tags is a list written as text"),
        "{err}"
    );
}

/// A strict-mode call: every optional field sent, as `null` where it is left out.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Strict {
    query: String,
    #[serde(default)]
    tags: Option<Vec<String>>,
    note: Option<String>,
    #[serde(default)]
    limit: u32,
    #[serde(default)]
    data: Option<OneOrMany<String>>,
}

#[test]
fn a_null_at_an_option_reads_as_none_beside_r8_and_refusals() {
    let ok = one_answer::<Strict>(json!({"query": "q", "tags": null, "note": null, "data": null}))
        .unwrap();
    assert_eq!((ok.tags, ok.note, ok.limit, ok.data), (None, None, 0, None));
    // A `null` at a defaulted `u32` is the field left out (R8), beside `Option`s' `null`s.
    let ok = one_answer::<Strict>(json!({"query": "q", "tags": null, "limit": null})).unwrap();
    assert_eq!((ok.tags, ok.limit), (None, 0));
    // A `null` R8 leaves out beside a refusal: the refusal alone.
    let err = one_answer::<Strict>(json!({"query": 5, "limit": null, "note": null})).unwrap_err();
    assert_eq!(messages(err).len(), 1);
    // Reported, the left-out field is a repair.
    let reported = Strict::from_value_reported(json!({"query": "q", "limit": null})).unwrap();
    assert_eq!(
        reported.repairs.to_string(),
        "limit: null taken as the field left out"
    );
    // A refusal elsewhere: the walk's issues, each quoting the value as sent.
    let err =
        one_answer::<Strict>(json!({"query": 5, "tags": null, "note": null, "data": "[\"a\"]"}))
            .unwrap_err();
    let messages = messages(err);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].starts_with("query: "), "{messages:?}");
    assert!(
        messages[1].starts_with("data is a list written as text"),
        "{messages:?}"
    );
    // `null` where serde requires a value: refused as serde refuses it.
    let err = one_answer::<Strict>(json!({"query": null, "note": null})).unwrap_err();
    assert!(err.to_string().starts_with("query: "), "{err}");
    // A type with no R8 field: every `null` is serde's, at a field or at an unknown key.
    #[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
    struct Options {
        name: Option<String>,
        #[serde(default)]
        paths: Option<OneOrMany<String>>,
    }
    let ok = one_answer::<Options>(json!({"name": null, "paths": null, "other": null})).unwrap();
    assert_eq!((ok.name, ok.paths), (None, None));
    let err = one_answer::<Options>(json!({"name": 1, "paths": null})).unwrap_err();
    assert!(err.to_string().starts_with("name: "), "{err}");
    // JSON text in a list next to `null`s: repaired (R1).
    let ok = one_answer::<Strict>(json!({"query": "q", "tags": "[\"a\"]", "note": null})).unwrap();
    assert_eq!(ok.tags, Some(vec!["a".to_owned()]));
}

/// serde reads these through a buffer of the value (the tag first, then the variant; each
/// member in turn; the keys no field claims): the first read lends their strings, so what a
/// failed read leaves is the value as sent.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Op {
    Copy {
        from: OneOrMany<String>,
        to: String,
        mode: Kind,
    },
    Remove {
        paths: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
enum Target {
    Line { line: u32, file: String },
    Name(String),
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Extra {
    note: String,
    level: u8,
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Buffered {
    op: Op,
    target: Target,
    #[serde(flatten)]
    extra: Extra,
}

#[test]
fn buffered_shapes_are_read_first_and_walked_as_sent_when_refused() {
    let ok = one_answer::<Buffered>(json!({
        "op": {"op": "copy", "from": ["a", "b"], "to": "c", "mode": "dir"},
        "target": {"line": 3, "file": "f.rs"}, "note": "n", "level": 2
    }))
    .unwrap();
    assert_eq!(
        ok.target,
        Target::Line {
            line: 3,
            file: "f.rs".to_owned()
        }
    );
    assert_eq!(ok.extra.note, "n");
    // The tag and every string before the first failure were read: the issues still quote
    // the value as sent, all of them.
    let err = one_answer::<Buffered>(json!({
        "op": {"op": "copy", "from": "a", "to": "c", "mode": "fil"},
        "target": {"line": "x", "file": "f.rs"}, "note": "n", "level": 300
    }))
    .unwrap_err();
    let messages = messages(err);
    assert!(messages.len() >= 3, "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("`fil`")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("300")), "{messages:?}");
}

/// Every field of every variant takes any string as it is, read through serde's buffer of
/// the variant: a refused call still answers as the walk does on the value as sent.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "action", rename_all = "snake_case")]
enum Act {
    Copy { from: OneOrMany<String>, to: String },
    Delete { paths: OneOrMany<String> },
    Noop,
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Acting {
    action: Act,
    #[serde(default)]
    reason: Option<String>,
    count: u32,
}

/// A variant with a field that refuses a string: its buffer's strings stay lent.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "action")]
enum Counted {
    Add { name: String, times: u32 },
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Counting {
    action: Counted,
    note: String,
}

#[test]
fn a_tagged_enum_of_strings_moves_them_and_still_answers_as_sent() {
    let ok = one_answer::<Acting>(json!({
        "action": {"action": "copy", "from": ["a", "b"], "to": "c"}, "reason": "r", "count": 1
    }))
    .unwrap();
    let from = OneOrMany::Many(vec!["a".to_owned(), "b".to_owned()]);
    assert_eq!(
        ok.action,
        Act::Copy {
            from,
            to: "c".to_owned()
        }
    );
    // The enum sent as a string is quoted as sent (it was lent), and so is every issue after it.
    let err = one_answer::<Acting>(json!({"action": "copy", "reason": "r", "count": "x"}));
    let messages_sent = messages(err.unwrap_err());
    assert!(
        messages_sent.iter().any(|m| m.contains("\"copy\"")),
        "{messages_sent:?}"
    );
    assert!(
        messages_sent.iter().any(|m| m.contains("\"x\"")),
        "{messages_sent:?}"
    );
    // A read that failed inside the variant, after moving `from` out of it: the walk judges
    // what is left there by kind, and reports every issue.
    let err = one_answer::<Acting>(json!({
        "action": {"action": "copy", "from": "a", "to": 5}, "count": "y"
    }))
    .unwrap_err();
    assert_eq!(err.issues().len(), 2, "{err}");
    // A variant field that refuses a string quotes it as sent: that buffer was lent.
    let err = one_answer::<Counting>(json!({
        "action": {"action": "Add", "name": "n", "times": "abc"}, "note": "z"
    }))
    .unwrap_err();
    let refused = messages(err);
    assert!(refused.iter().any(|m| m.contains("\"abc\"")), "{refused:?}");
}

/// An opaque field judges its string by its content: a variant holding one keeps its buffer
/// lent, whichever form the enum comes in.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "type")]
enum Target2 {
    Host {
        #[stitch(opaque)]
        ip: std::net::IpAddr,
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Calling {
    target: Target2,
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct RawWord {
    word: String,
}

/// A newtype whose conversion judges its string: empty, or a word it refuses by name.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(try_from = "RawWord")]
struct Word {
    word: String,
}

impl TryFrom<RawWord> for Word {
    type Error = String;

    fn try_from(raw: RawWord) -> Result<Word, String> {
        match raw.word.as_str() {
            "" => Err("the word is empty".to_owned()),
            "bad" => Err(format!("{:?} is not allowed", raw.word)),
            _ => Ok(Word { word: raw.word }),
        }
    }
}

/// Every position of its variant takes a string (the `try_from` source's), so sent as an
/// object its strings move; sent as an array, serde's verdict on the whole enum judges them.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind")]
enum Tagged {
    Said(Word),
}

#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Saying {
    said: Tagged,
}

#[test]
fn strings_judged_by_their_content_inside_a_tagged_enum_stay_as_sent() {
    // The array form of the variant, one element short: serde's own words, not the IP's.
    let err = one_answer::<Calling>(json!({"target": ["Host", "::1"]})).unwrap_err();
    assert!(!err.to_string().contains("IP address"), "{err}");
    // Sent as an array, the conversion's refusal quotes the word as sent.
    let err = one_answer::<Saying>(json!({"said": ["Said", "bad"]})).unwrap_err();
    assert!(err.to_string().contains("\"bad\""), "{err}");
    let ok = one_answer::<Saying>(json!({"said": {"kind": "Said", "word": "good"}})).unwrap();
    assert_eq!(
        ok.said,
        Tagged::Said(Word {
            word: "good".to_owned()
        })
    );
}

/// Lists at positions that take any string as it is: `from_value` does not look into them
/// before its read (`json::plain_value::Root`), so a string item that is JSON text is read as
/// it is, and an item of another kind fails the read after the strings before it moved.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolArgs)]
struct Lists {
    paths: OneOrMany<String>,
    names: Vec<String>,
    #[serde(default)]
    counts: Vec<u32>,
}

#[test]
fn lists_of_strings_taken_as_they_are_answer_as_the_walk_does() {
    let ok = one_answer::<Lists>(json!({
        "paths": ["[\"a.png\"]", "{\"b\": 1}"], "names": ["[1]", "true"]
    }))
    .unwrap();
    assert_eq!(
        ok.paths,
        OneOrMany::Many(vec!["[\"a.png\"]".to_owned(), "{\"b\": 1}".to_owned()])
    );
    assert_eq!(ok.names, ["[1]", "true"]);
    // Every issue at once (a string item that is JSON text is none), and no repair of
    // `counts` kept, the call being refused.
    let err = one_answer::<Lists>(json!({
        "paths": ["a", 3, "[\"x\"]"], "names": ["b", ["c"]], "counts": "[1, 2]"
    }))
    .unwrap_err();
    let messages = messages(err);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].starts_with("paths.1: "), "{messages:?}");
    assert!(messages[1].starts_with("names.1: "), "{messages:?}");
    // Too deep inside such a list: refused as the walk refuses it.
    let mut deep = json!("x");
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let err = one_answer::<Lists>(json!({"paths": ["a", deep], "names": []})).unwrap_err();
    assert!(err.to_string().starts_with("paths.1"), "{err}");
}
