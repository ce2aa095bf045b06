//! Generating arguments near a type: valid values, wrong ones, lists written as text.

use super::*;

// --- Generating arguments near a type ------------------------------------------------------------

/// What a position of a shape reads, for generating values near it.
#[derive(Debug)]
pub(crate) enum G {
    /// A string.
    Str,
    /// An unsigned integer (`u32`).
    Num,
    /// A `u8`.
    Small,
    Bool,
    /// One of these strings (values at and across a constraint's bounds).
    Words(&'static [&'static str]),
    /// One of these integers.
    Ints(&'static [i64]),
    /// One of these numbers, each written as a float (`1.0`).
    Floats(&'static [f64]),
    /// A unit variant's content: nothing.
    Unit,
    Ref(&'static G),
    Seq(&'static G),
    Tuple(&'static [G]),
    OneOrMany(&'static G),
    /// A struct: its fields (wire name, what it reads, required) and what other keys read (a
    /// flattened map), if anything.
    Obj(&'static [(&'static str, G, bool)], Option<&'static G>),
    External(&'static [(&'static str, G)]),
    Internal(&'static str, &'static [(&'static str, G)]),
    Adjacent(&'static str, &'static str, &'static [(&'static str, G)]),
    Untagged(&'static [G]),
}

/// Strings that mean something somewhere: JSON text, lists written as text, numbers and
/// variant names as text, commas for `comma_separated`.
pub(super) const WORDS: &[&str] = &[
    "a",
    "a,b",
    "5",
    "",
    "[preview].png",
    "[\"a\"]",
    " [\"a\",\"b\"]",
    "[1]",
    "[[\"a\"]]",
    "{\"x\":1}",
    "[{\"x\":1}]",
    "{\"line\":1}",
    "null",
    "true",
    "stop",
    "Stop",
    "x y",
];

/// Keys no shape declares (under a flattened map: its keys).
pub(super) const OTHER_KEYS: &[&str] = &["other", "extra", "x", "kind", "t"];

/// A value of the wrong type almost anywhere.
pub(super) fn wrong() -> impl Strategy<Value = Value> {
    select(vec![
        Value::Null,
        Value::Bool(true),
        Value::from(-1),
        Value::from(1.5),
        Value::from(4_294_967_296u64),
        Value::from("x"),
        Value::from("5"),
        Value::Array(Vec::new()),
        Value::Object(Map::new()),
    ])
}

/// A list of words written as text, with or without whitespace.
pub(super) fn text_list() -> impl Strategy<Value = Value> {
    (
        select(&["", " ", "\n"][..]),
        prop::collection::vec(select(WORDS), 0..4),
    )
        .prop_map(|(ws, words)| {
            Value::from(format!("{ws}{}", serde_json::to_string(&words).unwrap()))
        })
}

/// Values near what `g` reads: mostly [`valid`] ones (themselves made of values near their
/// parts), sometimes a wrong type, JSON text of a nearby value, or a list written as text.
pub(crate) fn near(g: &'static G) -> BoxedStrategy<Value> {
    let g: &'static G = match g {
        G::Ref(inner) => inner,
        g => g,
    };
    let scalar = matches!(
        g,
        G::Str | G::Num | G::Small | G::Bool | G::Unit | G::Words(_) | G::Ints(_) | G::Floats(_)
    );
    let mut options: Vec<(u32, BoxedStrategy<Value>)> = vec![
        (10, valid(g)),
        (1, wrong().boxed()),
        (1, text_list().boxed()),
    ];
    if !scalar {
        // JSON text of a value near this one, compact or pretty-printed.
        options.push((
            3,
            (valid(g), any::<bool>())
                .prop_map(|(v, pretty)| {
                    Value::String(if pretty {
                        serde_json::to_string_pretty(&v).unwrap()
                    } else {
                        v.to_string()
                    })
                })
                .boxed(),
        ));
    }
    Union::new_weighted(options).boxed()
}

/// A value `g` reads as it is (made of values near its parts, so not always valid).
pub(super) fn valid(g: &'static G) -> BoxedStrategy<Value> {
    match g {
        G::Str => select(WORDS).prop_map(Value::from).boxed(),
        G::Num => prop_oneof![6 => 0u32..10, 1 => Just(0), 1 => Just(u32::MAX)]
            .prop_map(Value::from)
            .boxed(),
        G::Small => (0u32..300).prop_map(Value::from).boxed(),
        G::Bool => any::<bool>().prop_map(Value::from).boxed(),
        G::Words(words) => select(*words).prop_map(Value::from).boxed(),
        G::Ints(ints) => select(*ints).prop_map(Value::from).boxed(),
        G::Floats(floats) => select(*floats).prop_map(Value::from).boxed(),
        G::Unit => Just(Value::Null).boxed(),
        G::Ref(g) => valid(g),
        G::Seq(item) => prop::collection::vec(near(item), 0..4)
            .prop_map(Value::Array)
            .boxed(),
        G::Tuple(items) => items
            .iter()
            .map(near)
            .collect::<Vec<_>>()
            .prop_map(Value::Array)
            .boxed(),
        G::OneOrMany(item) => prop_oneof![
            near(item),
            prop::collection::vec(near(item), 0..5).prop_map(Value::Array),
        ]
        .boxed(),
        G::Obj(fields, rest) => object(fields, *rest).prop_map(Value::Object).boxed(),
        G::External(variants) => Union::new(variants.iter().map(|(name, content)| {
            let name = name.to_string();
            match content {
                G::Unit => Just(Value::String(name)).boxed(),
                content => near(content)
                    .prop_map(move |c| Value::Object(Map::from_iter([(name.clone(), c)])))
                    .boxed(),
            }
        }))
        .boxed(),
        G::Internal(tag, variants) => {
            Union::new(variants.iter().map(|(name, content)| {
                let content: &'static G = match content {
                    G::Ref(inner) => inner,
                    g => g,
                };
                let fields = match content {
                    G::Obj(fields, rest) => object(fields, *rest).boxed(),
                    _ => Just(Map::new()).boxed(),
                };
                // The tag where serde looks for it, sometimes not a variant's name.
                (
                    fields,
                    prop_oneof![4 => Just(name.to_string()), 1 => Just("Nope".to_owned())],
                )
                    .prop_map(move |(mut map, name)| {
                        map.insert(tag.to_string(), Value::String(name));
                        Value::Object(map)
                    })
            }))
            .boxed()
        }
        G::Adjacent(tag, content_key, variants) => {
            Union::new(variants.iter().map(|(name, content)| {
                let name = Value::from(*name);
                let content = match content {
                    G::Unit => Just(None).boxed(),
                    content => prop::option::weighted(0.9, near(content)).boxed(),
                };
                content.prop_map(move |content| {
                    let mut map = Map::from_iter([(tag.to_string(), name.clone())]);
                    if let Some(content) = content {
                        map.insert(content_key.to_string(), content);
                    }
                    Value::Object(map)
                })
            }))
            .boxed()
        }
        G::Untagged(members) => Union::new(members.iter().map(near)).boxed(),
    }
}

/// An object with the fields of a struct: a required one missing one time in ten, an optional
/// one half the time, and sometimes a key it does not declare.
pub(super) fn object(
    fields: &'static [(&'static str, G, bool)],
    rest: Option<&'static G>,
) -> impl Strategy<Value = Map<String, Value>> {
    let entries: Vec<_> = fields
        .iter()
        .map(|(name, g, required)| {
            let p = if *required { 0.9 } else { 0.5 };
            prop::option::weighted(p, near(g)).prop_map(move |v| v.map(|v| (name.to_string(), v)))
        })
        .collect();
    let other = match rest {
        Some(rest) => near(rest),
        None => prop_oneof![near(&G::Str), wrong()].boxed(),
    };
    let unknown = prop::option::weighted(0.2, (select(OTHER_KEYS), other));
    (entries, unknown).prop_map(|(entries, unknown)| {
        let mut map: Map<String, Value> = entries.into_iter().flatten().collect();
        if let Some((key, value)) = unknown {
            map.insert(key.to_owned(), value);
        }
        map
    })
}

/// A key sent twice: which object (in pre-order) and which of its keys, the other value, and
/// whether it comes first.
#[derive(Debug, Clone)]
pub(crate) struct Twice {
    object: Index,
    key: Index,
    pub(crate) other: Option<Value>,
    first: bool,
}

pub(crate) fn twice() -> impl Strategy<Value = Twice> {
    (
        any::<Index>(),
        any::<Index>(),
        prop::option::of(prop_oneof![
            wrong(),
            text_list(),
            select(WORDS).prop_map(Value::from)
        ]),
        any::<bool>(),
    )
        .prop_map(|(object, key, other, first)| Twice {
            object,
            key,
            other,
            first,
        })
}

/// The compact text of `value` with one key of one object sent twice (the other value, or the
/// same again), or `None` when `value` holds no object with a key.
pub(crate) fn with_a_key_twice(value: &Value, twice: &Twice) -> Option<String> {
    pub(super) fn objects(value: &Value) -> usize {
        match value {
            Value::Object(map) => {
                usize::from(!map.is_empty()) + map.values().map(objects).sum::<usize>()
            }
            Value::Array(items) => items.iter().map(objects).sum(),
            _ => 0,
        }
    }
    pub(super) fn write(
        value: &Value,
        target: &mut Option<usize>,
        twice: &Twice,
        out: &mut String,
    ) {
        match value {
            Value::Object(map) if !map.is_empty() => {
                let here = *target == Some(0);
                *target = target.and_then(|n| n.checked_sub(1));
                let chosen = twice.key.index(map.len());
                out.push('{');
                let mut sep = "";
                for (i, (key, v)) in map.iter().enumerate() {
                    let key = Value::from(key.as_str()).to_string();
                    let mut entry = |v: &Value, out: &mut String| {
                        out.push_str(sep);
                        sep = ",";
                        out.push_str(&key);
                        out.push(':');
                        write(v, target, twice, out);
                    };
                    if here && i == chosen {
                        let other = twice.other.as_ref().unwrap_or(v);
                        if twice.first {
                            entry(other, out);
                            entry(v, out);
                        } else {
                            entry(v, out);
                            entry(other, out);
                        }
                    } else {
                        entry(v, out);
                    }
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(v, target, twice, out);
                }
                out.push(']');
            }
            v => out.push_str(&v.to_string()),
        }
    }
    let n = objects(value);
    if n == 0 {
        return None;
    }
    let mut out = String::new();
    write(value, &mut Some(twice.object.index(n)), twice, &mut out);
    Some(out)
}
