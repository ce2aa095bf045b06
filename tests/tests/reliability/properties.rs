//! The fuzz targets' three properties as property tests, with a fixed number of cases each
//! ([`CASES`] in the full run, an eighth of it in the quick one: `stitch_tests::cases`).
//!
//! The generated arguments use the fuzzed types' own keys and variant names, and put JSON text
//! (a generated value written as a string, sometimes twice) at any position.

use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::{Map, Value};
use stitch_runtime::__private::Bounds;

use stitch_tests::checks;
use stitch_tests::text_edit::{apply, TextEdit};

/// Cases per property.
pub const CASES: u32 = 256;

/// The keys and tags of the fuzzed types, and a few others.
const KEYS: &[&str] = &[
    "paths",
    "query",
    "tags",
    "ids",
    "modes",
    "rows",
    "filters",
    "meta",
    "extra",
    "line",
    "names",
    "kinds",
    "max_size",
    "range",
    "files",
    "size",
    "action",
    "pick",
    "ext",
    "op",
    "adj",
    "ns",
    "type",
    "t",
    "c",
    "name",
    "children",
    "by_name",
    "next",
    "labels",
    "kids",
    "id",
    "filePaths",
    "tagList",
    "Meta",
    "deque",
    "set",
    "ordered",
    "boxed",
    "pair",
    "json_map",
    "letters",
    "floats",
    "lists",
    "shared",
    "flags",
    "other",
    "",
];

/// The keys of string-bearing positions (where a list written as text is refused) and of
/// containers of them, drawn more often.
const HOT_KEYS: &[&str] = &[
    "paths",
    "tags",
    "names",
    "labels",
    "filePaths",
    "pick",
    "rows",
    "files",
    "action",
    "kids",
];

fn key() -> impl Strategy<Value = &'static str> {
    prop_oneof![2 => select(HOT_KEYS), 3 => select(KEYS)]
}

/// Variant names, unit-enum names and other strings that matter somewhere.
const WORDS: &[&str] = &[
    "stop",
    "move",
    "edit",
    "view",
    "swap",
    "edit_rows",
    "Add",
    "Remove",
    "Stop",
    "Move",
    "Swap",
    "Edit",
    "fly",
    "fast",
    "slow",
    "a",
    "[preview].png",
    "",
    "[",
    "[]",
    "{}",
    "null",
    "123",
    "[\"a\"]",
    " [1, 2]",
    "[1,2",
    "\u{a0}[\"a\"]",
    "\"[\\\"a\\\"]\"",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::from),
        2 => (0u64..10).prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_filter_map("finite", serde_json::Number::from_f64).prop_map(Value::Number),
        4 => select(WORDS).prop_map(Value::from),
        2 => "\\PC{0,6}".prop_map(Value::from),
        3 => text_list(),
    ]
}

/// A list written as text, as a model writes it.
fn text_list() -> impl Strategy<Value = Value> {
    (
        select(&["", " ", "\n"][..]),
        prop::collection::vec(select(WORDS), 0..4),
    )
        .prop_map(|(ws, words)| {
            Value::from(format!("{ws}{}", serde_json::to_string(&words).unwrap()))
        })
}

/// The keys of `OneOrMany<String>` fields and of a string-bearing untagged enum.
const STRING_KEYS: &[&str] = &["paths", "tags", "names", "labels", "filePaths", "pick"];

fn object(
    value: impl Strategy<Value = Value>,
    len: std::ops::Range<usize>,
) -> impl Strategy<Value = Value> {
    prop::collection::vec((key(), value), len).prop_map(|entries| {
        Value::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect::<Map<_, _>>(),
        )
    })
}

/// Arguments: objects under the fuzzed types' keys, arrays, and any of them written as text.
pub fn args() -> impl Strategy<Value = Value> {
    let value = leaf().prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            3 => object(inner.clone(), 0..4),
            2 => prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            2 => inner.prop_map(|v| Value::String(v.to_string())),
        ]
    });
    // Mostly an arguments object, its values often leaves, often with a list written as text
    // where one value is also valid.
    let entry = prop_oneof![1 => leaf(), 1 => value.clone()];
    prop_oneof![
        3 => object(entry.clone(), 0..7),
        2 => (object(entry, 0..5), select(STRING_KEYS), text_list()).prop_map(|(mut args, key, text)| {
            if let Value::Object(map) = &mut args {
                map.insert(key.to_owned(), text);
            }
            args
        }),
        1 => value,
    ]
}

/// No change two times in three, otherwise one or two edits with JSON-ish chars.
fn edits() -> impl Strategy<Value = Vec<TextEdit>> {
    let c = || select("[]{}\",:\\ u0123456789antrl".chars().collect::<Vec<_>>());
    let edit = prop_oneof![
        1 => any::<Index>().prop_map(TextEdit::Truncate),
        2 => (any::<Index>(), c()).prop_map(|(i, c)| TextEdit::Insert(i, c)),
        2 => any::<Index>().prop_map(TextEdit::Delete),
    ];
    prop_oneof![
        2 => Just(Vec::new()),
        1 => prop::collection::vec(edit, 1..3),
    ]
}

fn ws() -> impl Strategy<Value = &'static str> {
    select(&["", "", "", " ", "\n", "\t ", "\r\n", "\u{a0}", "\u{c}"][..])
}

/// Strings for the text-list property: serialized lists of strings (and of other values),
/// with whitespace around them, sometimes edited, and any text.
fn list_text() -> impl Strategy<Value = String> {
    let strings = prop::collection::vec("\\PC{0,5}|[\"\\\\\\[\\]]{0,3}", 0..7)
        .prop_map(|v| serde_json::to_string(&v).unwrap());
    let values = prop::collection::vec(leaf(), 0..5).prop_map(|v| Value::Array(v).to_string());
    let listed = prop_oneof![3 => strings, 1 => values];
    prop_oneof![
        4 => (ws(), listed, ws(), edits())
            .prop_map(|(a, list, b, edits)| apply(&format!("{a}{list}{b}"), &edits)),
        1 => "\\PC{0,24}",
        1 => "[\\[\\]\" ,a\\\\u0-9{}:]{0,24}",
    ]
}

fn bounds() -> impl Strategy<Value = Bounds> {
    (prop::option::of(0usize..6), prop::option::of(0usize..6))
        .prop_map(|(min, max)| Bounds::new(min, max))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(stitch_tests::cases(CASES)))]

    /// Property 1: `from_json` of any text, for every fuzzed type.
    #[test]
    fn from_json_never_panics_and_agrees_with_from_value(args in args(), edits in edits()) {
        let text = apply(&args.to_string(), &edits);
        if let Err(e) = checks::check_from_json_all(&text) {
            prop_assert!(false, "{}", e);
        }
    }

    /// Property 2: the text-list verdict equals the oracle, on every surface.
    #[test]
    fn text_list_verdict_equals_the_oracle(text in list_text(), bounds in bounds()) {
        if let Err(e) = checks::check_text_list(&text, bounds) {
            prop_assert!(false, "{}", e);
        }
    }

    /// Property 3: `coerce_value` changes nothing on `Err`, and on `Ok` is idempotent and
    /// changes only strings at structured positions.
    #[test]
    fn coerce_value_is_all_or_nothing_and_idempotent(args in args()) {
        if let Err(e) = checks::check_coerce_all(&args) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// The generator really reaches the interesting outcomes: repairs, refusals and plain
/// acceptances, so the properties above are not passing vacuously.
#[test]
fn the_generator_reaches_repairs_and_refusals() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use stitch_runtime::ToolArgs;

    let mut runner = TestRunner::deterministic();
    let strategy = args();
    let (mut repaired, mut refused, mut kept) = (0, 0, 0);
    for _ in 0..2000 {
        let value = strategy.new_tree(&mut runner).unwrap().current();
        for outcome in [
            coerced::<checks::Search>(&value),
            coerced::<checks::Call>(&value),
            coerced::<checks::Node>(&value),
            coerced::<checks::Misc>(&value),
        ] {
            match outcome {
                Some(true) => repaired += 1,
                Some(false) => kept += 1,
                None => refused += 1,
            }
        }
    }
    // coerce_value now refuses every type error too (#11), so a random value that holds a
    // repair is usually refused for another field: fewer repairs get through whole.
    assert!(
        repaired > 50 && refused > 200 && kept > 200,
        "{repaired} repaired, {refused} refused, {kept} kept"
    );

    fn coerced<T: ToolArgs>(value: &Value) -> Option<bool> {
        let mut v = value.clone();
        T::coerce_value(&mut v).ok().map(|()| v != *value)
    }
}
