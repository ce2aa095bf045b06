//! Size: a 100 MiB string at a `OneOrMany<String>` position and a 1 000 000-element array are
//! handled without copying them. (Their time, linear in the size, is measured by the criterion
//! benchmark `benches/benches/reliability.rs`, not here.)
//!
//! A counting allocator (bytes requested, per thread) shows what each call allocates; the
//! pointer of the string shows it is moved, not copied, into the typed value.

use serde_json::{json, Value};
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
use stitch_tests::alloc::{measure, Counting};
use stitch_tests::tools::{Paths, Paths20};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f`, returning its result and the bytes it asked the allocator for on this thread.
fn allocated<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let (r, counts) = measure(f);
    (r, counts.bytes)
}

const MIB: usize = 1 << 20;
const BIG: usize = 100 * MIB;
const ELEMENTS: usize = 1_000_000;

/// Bytes a call may allocate that is not a copy of its input: an issue, a path.
const SMALL: usize = 4096;

/// `{"paths": text}`, and the address of the text's bytes.
fn args(text: String) -> (Value, *const u8) {
    let ptr = text.as_ptr();
    // Not `json!`, which would serialize (copy) the string.
    let mut map = serde_json::Map::new();
    map.insert("paths".to_owned(), Value::String(text));
    (Value::Object(map), ptr)
}

fn text_ptr(value: &Value) -> *const u8 {
    value["paths"].as_str().unwrap().as_ptr()
}

/// A 100 MiB string: plain, a list written as text, and one that opens like a list and is not
/// one (so the whole of it is scanned).
fn big_texts() -> [(&'static str, String, bool); 3] {
    let body = "a".repeat(BIG - 4);
    [
        ("plain", format!("x{body}yz"), false),
        ("a text list", format!("[\"{body}\"]"), true),
        ("an unclosed list", format!("[\"{body}\""), false),
    ]
}

#[test]
#[ignore = "long (100 MiB, a million elements): the full run, `cargo test -- --include-ignored`"]
fn a_100_mib_string_is_checked_and_moved_without_a_copy() {
    for (what, text, refused) in big_texts() {
        assert!(text.len() >= BIG - 4);
        let len = text.len();
        let (mut value, ptr) = args(text);

        let (result, bytes) = allocated(|| Paths::coerce_value(&mut value));
        assert_eq!(result.is_err(), refused, "{what}");
        assert!(
            bytes <= SMALL,
            "{what}: coerce_value allocated {bytes} bytes"
        );
        assert_eq!(text_ptr(&value), ptr, "{what}: the string moved");

        let (result, bytes) = allocated(|| Paths::from_value(value));
        assert!(bytes <= SMALL, "{what}: from_value allocated {bytes} bytes");
        match result {
            Err(err) => {
                assert!(refused, "{what}: {err}");
                assert_eq!(err.issues()[0].kind(), IssueKind::TextList);
            }
            Ok(Paths {
                paths: OneOrMany::One(s),
            }) => {
                assert!(!refused, "{what}");
                assert_eq!(
                    (s.as_ptr(), s.len()),
                    (ptr, len),
                    "{what}: the string was copied"
                );
            }
            Ok(other) => panic!("{what}: {other:?}"),
        }
    }
}

#[test]
#[ignore = "long (100 MiB, a million elements): the full run, `cargo test -- --include-ignored`"]
fn a_100_mib_string_over_the_bound_is_one_value() {
    // 30 elements written as text, over `max_items = 20`: one plain value, moved.
    let item = "b".repeat(BIG / 30);
    let text = serde_json::to_string(&vec![item; 30]).unwrap();
    let (value, ptr) = args(text);
    let (result, bytes) = allocated(|| Paths20::from_value(value));
    assert!(bytes <= SMALL, "from_value allocated {bytes} bytes");
    match result.unwrap().paths {
        OneOrMany::One(s) => assert_eq!(s.as_ptr(), ptr),
        many => panic!("{} items", many.len()),
    }
}

#[test]
#[ignore = "long (100 MiB, a million elements): the full run, `cargo test -- --include-ignored`"]
fn a_1_000_000_element_array_is_walked_without_allocating() {
    let items: Vec<Value> = (0..ELEMENTS)
        .map(|i| Value::from(format!("f{i}.png")))
        .collect();
    let mut value = json!({ "paths": items });
    let (result, bytes) = allocated(|| Paths::coerce_value(&mut value));
    result.unwrap();
    assert_eq!(bytes, 0, "coerce_value allocated {bytes} bytes");

    // The strings themselves are moved into the typed value; only the Vec is new (grown by
    // doubling, so the allocator is asked for about twice its final size in all).
    let first = value["paths"][0].as_str().unwrap().as_ptr();
    let (result, bytes) = allocated(|| Paths::from_value(value));
    let paths = result.unwrap().paths.into_vec();
    assert_eq!(paths.len(), ELEMENTS);
    assert_eq!(paths[0].as_ptr(), first);
    let vec_bytes = ELEMENTS * std::mem::size_of::<String>();
    assert!(
        bytes <= 3 * vec_bytes,
        "from_value allocated {bytes} bytes for a Vec of {vec_bytes}"
    );

    // Over the bound: refused by its length alone.
    let items: Vec<Value> = (0..ELEMENTS).map(|_| Value::from("a")).collect();
    let mut value = json!({ "paths": items });
    let (result, bytes) = allocated(|| Paths20::coerce_value(&mut value));
    assert_eq!(result.unwrap_err().to_string(), "paths: at most 20 items");
    assert!(bytes <= SMALL, "{bytes}");
}

#[test]
#[ignore = "long (100 MiB, a million elements): the full run, `cargo test -- --include-ignored`"]
fn a_1_000_000_element_list_written_as_text_is_refused_without_allocating() {
    let text = serde_json::to_string(&vec!["a.png"; ELEMENTS]).unwrap();
    let (mut value, ptr) = args(text);
    let (result, bytes) = allocated(|| Paths::coerce_value(&mut value));
    assert_eq!(result.unwrap_err().issues()[0].kind(), IssueKind::TextList);
    assert!(bytes <= SMALL, "coerce_value allocated {bytes} bytes");
    assert_eq!(text_ptr(&value), ptr);
}

#[derive(Debug, serde::Deserialize, ToolArgs)]
struct Grouped {
    groups: std::collections::BTreeMap<String, Leafy>,
}

#[derive(Debug, serde::Deserialize, ToolArgs)]
struct Leafy {
    n: u32,
}

/// `{"groups":{"<1 MiB key>":{"n":0,<n>,"k0":0,"k0":0,…}}}`: 2 000 keys sent twice under a
/// 1 MiB ancestor key, and `n` sent once or twice.
fn grouped_text(n_twice: bool) -> String {
    let mut text = format!("{{\"groups\":{{\"{}\":{{\"n\":0,", "g".repeat(MIB));
    if n_twice {
        text.push_str("\"n\":1,");
    }
    for i in 0..2000 {
        text.push_str(&format!("\"k{i}\":0,\"k{i}\":0,"));
    }
    text.push_str("\"end\":0}}}");
    text
}

#[test]
fn duplicates_under_a_1_mib_key_are_noted_without_copying_it() {
    // Each duplicate once copied its whole path: 2 000 × 1 MiB.
    let text = grouped_text(false);
    let (result, bytes) = allocated(|| Grouped::from_json(&text));
    let grouped = result.unwrap();
    assert_eq!(grouped.groups["g".repeat(MIB).as_str()].n, 0);
    assert!(
        bytes < 4 * text.len(),
        "from_json allocated {bytes} bytes for a text of {}",
        text.len()
    );

    // A declared field sent twice there is still refused at its path; its siblings are not.
    let text = grouped_text(true);
    let (result, bytes) = allocated(|| Grouped::from_json(&text));
    let message = result.unwrap_err().to_string();
    assert!(message.starts_with("groups.g"), "{}", &message[..40]);
    assert!(
        message.ends_with(".n: duplicate field `n`"),
        "{}",
        &message[message.len() - 40..]
    );
    // The issue names its path, the 1 MiB key included: a few copies of it, not 2 000.
    assert!(bytes < 8 * text.len(), "{bytes} for {}", text.len());
}
