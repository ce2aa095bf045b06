//! serde itself as the oracle (issue 18, "proof, not examples"), over types that cover flatten
//! chains (struct → struct → map, in variants), all four taggings, untagged members with maps,
//! `deny_unknown_fields`, `rename_all`, `alias` and `default`:
//!
//! - a value serde reads *unchanged* (an object, with no string at a position stitch repairs or
//!   refuses: none that opens, after white space, with `[`, `{` or `"`) is accepted by every
//!   surface (`from_value`, `from_json`, `Args<T>`, `coerce_value`) with serde's result, and
//!   `coerce_value` leaves it as it was;
//! - the same value's text with one key sent twice: where serde refuses the text, every text
//!   surface refuses it; where serde reads it (and nothing is to repair), both read what serde
//!   reads.

use std::fmt::Debug;

use proptest::prelude::*;
use serde_json::Value;
use stitch_runtime::{Args, ToolArgs};

use stitch_tests::shapes::{
    may_be_text, Chain, FlatAdjacent, FlatExternal, FlatOption, FlatOptionTagged, FlatTagged,
    FlatTwo, FlatUntagged, Internal, Loose, Rare, Top,
};

use super::one_answer::{near, twice, with_a_key_twice, Twice, G};

/// The full run's cases per type (an eighth of it in the quick run: `stitch_tests::cases`).
const CASES: u32 = 4096;

// ---- What each reads, for the generator -------------------------------------------------

static NUMS: G = G::Seq(&G::Num);
static LEAF: &[(&str, G, bool)] = &[("num", G::Num, false), ("n", G::Num, false)];
static CHAIN: G = G::Obj(
    &[
        ("id", G::Num, true),
        ("topName", G::Str, true),
        ("tags", G::Seq(&G::Str), false),
        ("num", G::Num, false),
        ("n", G::Num, false),
    ],
    Some(&NUMS),
);
static INTERNAL: G = G::Internal(
    "op",
    &[
        ("run", G::Obj(&[("n", G::Num, false)], Some(&NUMS))),
        ("wrap", G::Obj(LEAF, Some(&NUMS))),
        ("stop", G::Unit),
    ],
);
static ADJACENT: G = G::Adjacent(
    "t",
    "c",
    &[
        ("A", G::Seq(&G::Num)),
        ("B", G::Obj(&[("x", G::Str, true)], None)),
        ("U", G::Unit),
    ],
);
static EXTERNAL: G = G::External(&[
    ("go", G::Seq(&G::Num)),
    ("stop", G::Obj(&[("why", G::Str, true)], None)),
]);
static UNTAGGED: G = G::Untagged(&[
    G::Obj(&[("k", G::Num, true), ("d", G::Bool, false)], None),
    G::Obj(&[], Some(&G::Num)),
    G::Seq(&G::Str),
]);
static TOP: G = G::Obj(
    &[
        ("internal", G::Ref(&INTERNAL), true),
        ("adjacent", G::Ref(&ADJACENT), false),
        ("external", G::Seq(&EXTERNAL), false),
        ("untagged", G::Ref(&UNTAGGED), false),
        (
            "opts",
            G::Obj(&[("a", G::Bool, false), ("b", G::Str, false)], None),
            false,
        ),
    ],
    None,
);
static FLAT_TAGGED: G = G::Internal(
    "op",
    &[
        (
            "run",
            G::Obj(
                &[("n", G::Num, false), ("note", G::Str, false)],
                Some(&NUMS),
            ),
        ),
        (
            "wrap",
            G::Obj(
                &[("num", G::Num, false), ("note", G::Str, false)],
                Some(&NUMS),
            ),
        ),
        ("stop", G::Obj(&[("note", G::Str, false)], None)),
    ],
);

/// A flattened externally tagged enum: `note` beside the variants' keys, any of them (none, one
/// or several).
static FLAT_EXTERNAL: G = G::Obj(
    &[
        ("note", G::Str, false),
        ("go", G::Seq(&G::Num), false),
        ("stop", G::Obj(&[("why", G::Str, true)], None), false),
    ],
    None,
);
static FLAT_ADJACENT: G = G::Obj(
    &[
        ("note", G::Str, false),
        ("t", G::Words(&["A", "B", "U", "C"]), true),
        ("c", G::Ref(&ADJACENT_CONTENT), false),
    ],
    None,
);
/// Two flattened enums: the adjacently tagged one's keys beside the externally tagged one's.
static FLAT_TWO: G = G::Obj(
    &[
        ("note", G::Str, false),
        ("t", G::Words(&["A", "B", "U", "C"]), true),
        ("c", G::Ref(&ADJACENT_CONTENT), false),
        ("go", G::Seq(&G::Num), true),
        ("stop", G::Obj(&[("why", G::Str, true)], None), false),
    ],
    None,
);
static ADJACENT_CONTENT: G = G::Untagged(&[G::Seq(&G::Num), G::Obj(&[("x", G::Str, true)], None)]);
static FLAT_UNTAGGED: G = G::Obj(
    &[
        ("note", G::Str, false),
        ("k", G::Num, false),
        ("d", G::Bool, false),
    ],
    Some(&G::Num),
);
static FLAT_OPTION: G = G::Obj(
    &[
        ("id", G::Num, true),
        ("topName", G::Str, false),
        ("tags", G::Seq(&G::Str), false),
        ("num", G::Num, false),
        ("n", G::Num, false),
    ],
    Some(&NUMS),
);
static FLAT_OPTION_TAGGED: G = G::Internal(
    "op",
    &[
        (
            "run",
            G::Obj(
                &[("n", G::Num, false), ("note", G::Str, false)],
                Some(&NUMS),
            ),
        ),
        ("wrap", G::Obj(&[("num", G::Num, false)], Some(&NUMS))),
        ("stop", G::Obj(&[("note", G::Str, false)], None)),
    ],
);

static LOOSE: G = G::Obj(
    &[
        ("m", G::Obj(&[], Some(&G::Num)), true),
        ("u", G::Ref(&UNTAGGED), true),
    ],
    None,
);

static MAYBE: G = G::Untagged(&[G::Unit, G::Num]);
static RARE: G = G::Obj(
    &[
        ("maybe", G::Ref(&MAYBE), false),
        ("count", G::Num, false),
        ("names", G::OneOrMany(&G::Str), false),
        // Rounded to 1.0, the largest `f32`, an ordinary one. (Past `f32::MAX` serde reads
        // infinity from a `Value` but refuses it in text, and stitch refuses it everywhere:
        // docs/rules.md#constraints; the fuzz check, whose oracle is the text, covers it.)
        ("ratio", G::Floats(&[0.99999999, 3.4028235e38, 0.5]), false),
        ("color", G::Str, false),
        ("colour", G::Str, false),
        (
            "speed",
            G::Words(&["Fast", "Slow", "Warp", "Unknown"]),
            false,
        ),
        ("readings", G::Seq(&G::Num), false),
    ],
    None,
);

// ---- The property ------------------------------------------------------------------------

/// The answers of the text surfaces to `text`.
fn from_text<T: ToolArgs>(text: &str) -> [Result<T, String>; 2] {
    [
        T::from_json(text).map_err(|e| e.to_string()),
        serde_json::from_str::<Args<T>>(text)
            .map(Args::into_inner)
            .map_err(|e| e.to_string()),
    ]
}

/// What the property found for one case, for the guard that both halves ran.
#[derive(Debug, Default)]
struct Seen {
    read_unchanged: usize,
    refused_twice: usize,
    read_twice: usize,
}

fn oracle<T>(args: &Value, twice: &Twice, seen: &mut Seen) -> Result<(), String>
where
    T: ToolArgs + PartialEq + Debug,
{
    let plain = args.is_object() && !may_be_text(args);
    let sent_once = serde_json::from_value::<T>(args.clone());
    if let (true, Ok(serde)) = (plain, &sent_once) {
        seen.read_unchanged += 1;
        let text = args.to_string();
        let got = T::from_value(args.clone()).map_err(|e| e.to_string());
        if got.as_ref() != Ok(serde) {
            return Err(format!(
                "from_value gave {got:?}, serde {serde:?}\n args {text}"
            ));
        }
        for got in from_text::<T>(&text) {
            if got.as_ref() != Ok(serde) {
                return Err(format!(
                    "a text surface gave {got:?}, serde {serde:?}\n args {text}"
                ));
            }
        }
        let mut coerced = args.clone();
        if let Err(e) = T::coerce_value(&mut coerced) {
            return Err(format!(
                "coerce_value refused ({e}) what serde reads\n args {text}"
            ));
        }
        if coerced != *args {
            return Err(format!(
                "coerce_value changed what serde reads to {coerced}\n args {text}"
            ));
        }
    }
    let Some(text) = with_a_key_twice(args, twice) else {
        return Ok(());
    };
    // Only an object is a tool's arguments; the half about refusals is about texts that
    // serde refuses for the key sent twice: it reads the same arguments sent once.
    // Nor is a string a rule acts on sent either time (R1 repairs what serde refuses).
    let plain = plain && twice.other.as_ref().is_none_or(|other| !may_be_text(other));
    if !plain {
        return Ok(());
    }
    match serde_json::from_str::<T>(&text) {
        Err(e) if sent_once.is_ok() => {
            seen.refused_twice += 1;
            if let Some(read) = from_text::<T>(&text).into_iter().find_map(Result::ok) {
                return Err(format!(
                    "a text surface read {read:?} where serde refuses ({e})\n text {text}"
                ));
            }
        }
        Ok(serde) => {
            seen.read_twice += 1;
            for got in from_text::<T>(&text) {
                if got.as_ref() != Ok(&serde) {
                    return Err(format!(
                        "a text surface gave {got:?}, serde reads {serde:?}\n text {text}"
                    ));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

macro_rules! oracle_tests {
    ($($test:ident: $ty:ty = $g:expr;)*) => {$(
        #[test]
        fn $test() {
            let seen = std::cell::RefCell::new(Seen::default());
            let config = ProptestConfig::with_cases(stitch_tests::cases(CASES));
            let mut runner = proptest::test_runner::TestRunner::new(config);
            let strategy = (near($g), twice());
            runner
                .run(&strategy, |(args, twice)| {
                    oracle::<$ty>(&args, &twice, &mut seen.borrow_mut())
                        .map_err(TestCaseError::fail)
                })
                .unwrap();
            // Both halves of the property ran on this type.
            let seen = seen.into_inner();
            assert!(seen.read_unchanged > 0 && seen.refused_twice > 0, "{seen:?}");
        }
    )*};
}

oracle_tests! {
    serde_answers_for_a_flatten_chain: Chain = &CHAIN;
    serde_answers_for_an_internally_tagged_root: Internal = &INTERNAL;
    serde_answers_for_an_internally_tagged_enum_flattened: FlatTagged = &FLAT_TAGGED;
    serde_answers_for_every_tagging_nested: Top = &TOP;
    serde_answers_for_maps_and_untagged_members: Loose = &LOOSE;
    serde_answers_for_the_rarer_shapes: Rare = &RARE;
    serde_answers_for_an_externally_tagged_enum_flattened: FlatExternal = &FLAT_EXTERNAL;
    serde_answers_for_an_adjacently_tagged_enum_flattened: FlatAdjacent = &FLAT_ADJACENT;
    serde_answers_for_an_untagged_enum_flattened: FlatUntagged = &FLAT_UNTAGGED;
    serde_answers_for_a_flattened_option_of_a_struct: FlatOption = &FLAT_OPTION;
    serde_answers_for_a_flattened_option_of_a_tagged_enum: FlatOptionTagged = &FLAT_OPTION_TAGGED;
    serde_answers_for_two_flattened_enums: FlatTwo = &FLAT_TWO;
}

#[test]
fn texts_with_a_key_twice_that_serde_reads_are_read_alike() {
    let seen = std::cell::RefCell::new(Seen::default());
    let config = ProptestConfig::with_cases(stitch_tests::cases(CASES));
    let mut runner = proptest::test_runner::TestRunner::new(config);
    runner
        .run(&(near(&LOOSE), twice()), |(args, twice)| {
            oracle::<Loose>(&args, &twice, &mut seen.borrow_mut()).map_err(TestCaseError::fail)
        })
        .unwrap();
    let seen = seen.into_inner();
    assert!(seen.read_twice > 0, "{seen:?}");
}
