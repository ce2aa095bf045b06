//! Value constraints from a schema: read into a node's [`Limits`] and pattern, checked in the
//! derive's words (`crate::limits`), and stripped from the validators' schema so that R3 and
//! serde's pick judge types and shapes only, as the derive's do (`docs/coercer.md`).

use serde_json::{Map, Value};

use super::message::integer_name;
use super::node::{Matcher, Node, TextPattern, Types};
use super::read::{join, malformed};
use super::SchemaError;
use crate::error::Issue;
use crate::limits::{pattern_broken, Num};
use crate::path::Path;
use crate::walk::Cx;

/// A node's `constraint_keys` has bit `i` for `KEYWORDS[i]`.
pub(super) use crate::limits::KEYWORDS;

const MINIMUM: u8 = 1;
const MAXIMUM: u8 = 1 << 1;
const EXCLUSIVE_MINIMUM: u8 = 1 << 2;
const EXCLUSIVE_MAXIMUM: u8 = 1 << 3;
const MULTIPLE_OF: u8 = 1 << 4;
const MIN_LENGTH: u8 = 1 << 5;
const MAX_LENGTH: u8 = 1 << 6;
const PATTERN: u8 = 1 << 7;

/// `node`'s type is read already: an integer's bounds that are exactly a Rust type's range
/// and a string's lengths of 1 and 1 stay facts of the type (`range`, `length`). A pattern
/// neither `regex-lite` nor `jsonschema` compiles is a [`SchemaError`] at its pointer.
pub(super) fn read(map: &Map<String, Value>, at: &str, node: &mut Node) -> Result<(), SchemaError> {
    let limits = &mut node.limits;
    let mut keys = 0u8;
    limits.minimum = bound(map, at, "minimum", MINIMUM, &mut keys)?;
    limits.maximum = bound(map, at, "maximum", MAXIMUM, &mut keys)?;
    // draft-04: `exclusiveMinimum: true` beside `minimum` makes the minimum exclusive.
    match map.get("exclusiveMinimum") {
        Some(Value::Bool(exclusive)) => {
            keys |= EXCLUSIVE_MINIMUM;
            if *exclusive {
                limits.exclusive_minimum = limits.minimum.take();
            }
        }
        _ => {
            limits.exclusive_minimum =
                bound(map, at, "exclusiveMinimum", EXCLUSIVE_MINIMUM, &mut keys)?
        }
    }
    match map.get("exclusiveMaximum") {
        Some(Value::Bool(exclusive)) => {
            keys |= EXCLUSIVE_MAXIMUM;
            if *exclusive {
                limits.exclusive_maximum = limits.maximum.take();
            }
        }
        _ => {
            limits.exclusive_maximum =
                bound(map, at, "exclusiveMaximum", EXCLUSIVE_MAXIMUM, &mut keys)?
        }
    }
    limits.multiple_of = bound(map, at, "multipleOf", MULTIPLE_OF, &mut keys)?;
    if limits.multiple_of.is_some_and(|step| !step.is_positive()) {
        return Err(malformed(at, "multipleOf", "a number greater than zero"));
    }
    limits.min_length = length(map, at, "minLength", MIN_LENGTH, &mut keys)?;
    limits.max_length = length(map, at, "maxLength", MAX_LENGTH, &mut keys)?;

    let only = node.types.without(Types::NULL);
    if node.typed && only == Types::INTEGER {
        if let (Some(lo), Some(hi)) = (
            limits.minimum.and_then(whole),
            limits.maximum.and_then(whole),
        ) {
            if integer_name((Some(lo), Some(hi))) != "an integer" {
                node.range = (Some(lo), Some(hi));
                (limits.minimum, limits.maximum) = (None, None);
                keys &= !(MINIMUM | MAXIMUM);
            }
        }
    }
    if node.typed
        && only == Types::STRING
        && (limits.min_length, limits.max_length) == (Some(1), Some(1))
    {
        node.length = (Some(1), Some(1));
        (limits.min_length, limits.max_length) = (None, None);
        keys &= !(MIN_LENGTH | MAX_LENGTH);
    }

    match map.get("pattern") {
        None => {}
        Some(Value::String(source)) => {
            let lite = crate::limits::PatternMatcher::new(source);
            let matcher = if lite.compiles() {
                Matcher::Lite(std::sync::Arc::new(lite))
            } else {
                // Valid ECMA-262 that regex-lite does not run: `jsonschema`'s `pattern`.
                match jsonschema::validator_for(&serde_json::json!({ "pattern": source })) {
                    Ok(validator) => Matcher::Ecma(std::sync::Arc::new(validator)),
                    Err(e) => {
                        return Err(SchemaError::new(
                            join(at, "pattern"),
                            format!("the pattern {source:?} does not compile: {e}"),
                        ))
                    }
                }
            };
            keys |= PATTERN;
            node.text_pattern = Some(Box::new(TextPattern {
                source: source.clone(),
                matcher,
            }));
        }
        Some(_) => return Err(malformed(at, "pattern", "a string")),
    }
    node.constraint_keys = keys;
    Ok(())
}

fn bound(
    map: &Map<String, Value>,
    at: &str,
    keyword: &str,
    bit: u8,
    keys: &mut u8,
) -> Result<Option<Num>, SchemaError> {
    match map.get(keyword) {
        None => Ok(None),
        Some(Value::Number(n)) => match Num::from_schema(n) {
            Some(n) => {
                *keys |= bit;
                Ok(Some(n))
            }
            None => Err(malformed(at, keyword, "a finite number")),
        },
        Some(_) => Err(malformed(at, keyword, "a number")),
    }
}

/// A non-negative integer (`2.0` is one).
fn length(
    map: &Map<String, Value>,
    at: &str,
    keyword: &str,
    bit: u8,
    keys: &mut u8,
) -> Result<Option<usize>, SchemaError> {
    let Some(value) = map.get(keyword) else {
        return Ok(None);
    };
    let n = match value.as_u64() {
        Some(n) => n,
        None => match value.as_f64() {
            Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e19 => f as u64,
            _ => return Err(malformed(at, keyword, "a non-negative integer")),
        },
    };
    *keys |= bit;
    Ok(Some(usize::try_from(n).unwrap_or(usize::MAX)))
}

fn whole(n: Num) -> Option<i128> {
    match n {
        Num::Int(i) => Some(i),
        Num::Float(f, _) if f.fract() == 0.0 && f.abs() < 1e38 => Some(f as i128),
        Num::Float(..) => None,
    }
}

/// `value` is a number or string the node's type admits; the first constraint broken is an
/// issue at `at`.
#[inline]
pub(super) fn check(node: &Node, value: &Value, cx: &mut Cx, at: &Path<'_>) {
    if node.limited && cx.checks_constraints() {
        broken(node, value, cx, at);
    }
}

#[cold]
#[inline(never)]
fn broken(node: &Node, value: &Value, cx: &mut Cx, at: &Path<'_>) {
    let mut limits = node.limits;
    // Bounds of exactly `∓f32::MAX` (an `f32`'s schema): judged as the derive judges an `f32`
    // (`3.40282356e38` rounds to `f32::MAX`).
    let f32_bound =
        |n: Option<Num>, want: f32| matches!(n, Some(Num::Float(f, _)) if f == f64::from(want));
    if f32_bound(limits.minimum, -f32::MAX) && f32_bound(limits.maximum, f32::MAX) {
        if value.as_f64().is_some_and(|f| (f as f32).is_infinite()) {
            cx.report(at, || {
                Issue::invalid(
                    at.render(),
                    format!("{value} is out of the range of an f32"),
                )
            });
            return;
        }
        (limits.minimum, limits.maximum) = (None, None);
    }
    let broken = limits
        .broken(value)
        .or_else(|| match (value, &node.text_pattern) {
            (Value::String(text), Some(pattern)) if !pattern.is_match(text) => {
                Some(pattern_broken(text, &pattern.source))
            }
            _ => None,
        });
    if let Some(broken) = broken {
        cx.report(at, || Issue::invalid(at.render(), broken));
    }
}

/// A leaf's own constraints.
pub(super) fn has_own(node: &Node) -> bool {
    node.limits.on_numbers() || node.limits.on_strings() || node.text_pattern.is_some()
}

/// Takes the constraint keywords out of `document` at each node's pointer; whether any was.
pub(super) fn strip(document: &mut Value, nodes: &[Node]) -> bool {
    let mut any = false;
    for node in nodes.iter().filter(|n| n.constraint_keys != 0) {
        let Some(Value::Object(map)) = document.pointer_mut(&node.pointer) else {
            continue;
        };
        for (i, keyword) in KEYWORDS.iter().enumerate() {
            if node.constraint_keys & (1 << i) != 0 {
                any |= map.remove(*keyword).is_some();
            }
        }
    }
    any
}
