//! The shapes of the agreement test beyond `one_answer`'s: the tools of `tools.rs`, a
//! recursive type, unit enums, maps, tuples, bounds.

use std::collections::BTreeMap;

use serde::Deserialize;
use stitch_runtime::{OneOrMany, ToolArgs};

use crate::one_answer::G;

pub(super) static VIEW_FILE: G = G::Obj(
    &[
        ("paths", G::OneOrMany(&G::Str), true),
        ("max_pixels", G::Num, false),
    ],
    None,
);

pub(super) static FILTERS: G = G::Obj(
    &[
        ("kinds", G::Seq(&G::Str), false),
        ("ext", G::OneOrMany(&G::Str), false),
        ("max_bytes", G::Num, false),
    ],
    None,
);

pub(super) static SEARCH: G = G::Obj(
    &[
        ("query", G::Str, true),
        ("tags", G::OneOrMany(&G::Str), false),
        ("filters", G::Ref(&FILTERS), false),
        ("maxHits", G::Small, false),
        ("caseSensitive", G::Bool, false),
    ],
    None,
);

pub(super) static EDIT_ROW: G = G::Obj(
    &[
        ("line", G::Num, true),
        ("names", G::OneOrMany(&G::Str), true),
        ("notes", G::Obj(&[], Some(&G::Str)), false),
    ],
    None,
);

pub(super) static EDIT: G = G::Obj(
    &[
        ("file", G::Str, true),
        ("rows", G::Seq(&EDIT_ROW), true),
        ("dry_run", G::Bool, false),
    ],
    None,
);

pub(super) static ACT: G = G::Obj(
    &[
        (
            "action",
            G::Internal(
                "action",
                &[
                    (
                        "copy",
                        G::Obj(
                            &[("from", G::OneOrMany(&G::Str), true), ("to", G::Str, true)],
                            None,
                        ),
                    ),
                    (
                        "delete",
                        G::Obj(&[("paths", G::OneOrMany(&G::Str), true)], None),
                    ),
                    ("edit", G::Ref(&EDIT)),
                    ("noop", G::Unit),
                ],
            ),
            true,
        ),
        ("reason", G::Str, false),
    ],
    None,
);

/// A recursive type: its schema refers to itself through an `$anchor`.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(crate) struct Tree {
    name: String,
    #[serde(default)]
    children: Vec<Tree>,
    #[serde(default)]
    #[stitch(max_items = 2)]
    tags: Option<OneOrMany<String>>,
}

// Generated three levels deep (the generator builds its strategies eagerly).
pub(super) static TREE: G = G::Obj(
    &[
        ("name", G::Str, true),
        ("children", G::Seq(&TREE_1), false),
        ("tags", G::OneOrMany(&G::Str), false),
    ],
    None,
);

pub(super) static TREE_1: G = G::Obj(
    &[
        ("name", G::Str, true),
        ("children", G::Seq(&TREE_2), false),
        ("tags", G::OneOrMany(&G::Str), false),
    ],
    None,
);

pub(super) static TREE_2: G = G::Obj(
    &[
        ("name", G::Str, true),
        ("tags", G::OneOrMany(&G::Str), false),
    ],
    None,
);

/// A unit-variant enum, read from its name (`a` and `stop` are among the generated words).
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mode {
    A,
    Stop,
}

/// String-bearing with an array member of numbers.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(untagged)]
pub(crate) enum Pick {
    Name(String),
    Ids(Vec<u32>),
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub(crate) struct Misc {
    modes: OneOrMany<Mode>,
    #[serde(default)]
    pick: Option<Pick>,
    #[serde(default)]
    grid: Option<Vec<Vec<u8>>>,
    #[serde(default)]
    files: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    pair: Option<(String, u32)>,
    #[serde(default)]
    #[stitch(min_items = 1, max_items = 2)]
    few: Option<OneOrMany<u32>>,
    #[serde(default)]
    letter: Option<char>,
    #[serde(default)]
    ratio: Option<f64>,
}

pub(super) static MISC: G = G::Obj(
    &[
        ("modes", G::OneOrMany(&G::Str), true),
        ("pick", G::Untagged(&[G::Str, G::Seq(&G::Num)]), false),
        ("grid", G::Seq(&G::Seq(&G::Small)), false),
        ("files", G::Obj(&[], Some(&G::Seq(&G::Str))), false),
        ("pair", G::Tuple(&[G::Str, G::Num]), false),
        ("few", G::OneOrMany(&G::Num), false),
        ("letter", G::Str, false),
        ("ratio", G::Num, false),
    ],
    None,
);
