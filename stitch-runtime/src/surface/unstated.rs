//! Constraints a provider's schema cannot state, written into the description instead.

use serde_json::{json, Map, Value};

pub(crate) fn note(out: &mut Map<String, Value>, note: &str) {
    let text = match out.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} {note}"),
        _ => note.to_owned(),
    };
    out.insert("description".to_owned(), Value::String(text));
}

/// "From 0 to 255.", "At most 20 items.", "Exactly 1 character."
pub(crate) fn range(
    min: Option<&Value>,
    max: Option<&Value>,
    unit: Option<(&str, &str)>,
) -> Option<String> {
    let with_unit = |n: &Value| match unit {
        Some((one, many)) => format!("{n} {}", if n == &json!(1) { one } else { many }),
        None => n.to_string(),
    };
    Some(match (min, max) {
        (Some(a), Some(b)) if a == b => format!("Exactly {}.", with_unit(a)),
        (Some(a), Some(b)) => format!("From {a} to {}.", with_unit(b)),
        (Some(a), None) => format!("At least {}.", with_unit(a)),
        (None, Some(b)) => format!("At most {}.", with_unit(b)),
        (None, None) => return None,
    })
}

/// Moves the constraints not in `states` into the description; the tool still enforces them.
pub(crate) fn unstated(out: &mut Map<String, Value>, states: &[&str]) {
    let unstated = |key: &str| !states.contains(&key);
    let get = |out: &Map<String, Value>, key: &str| out.get(key).filter(|_| unstated(key)).cloned();
    let numbers = range(
        get(out, "minimum").as_ref(),
        get(out, "maximum").as_ref(),
        None,
    );
    let lengths = range(
        get(out, "minLength").as_ref(),
        get(out, "maxLength").as_ref(),
        Some(("character", "characters")),
    );
    let above = get(out, "exclusiveMinimum").map(|n| format!("Greater than {n}."));
    let below = get(out, "exclusiveMaximum").map(|n| format!("Less than {n}."));
    let step = get(out, "multipleOf").map(|n| format!("A multiple of {n}."));
    let pattern = get(out, "pattern")
        .as_ref()
        .and_then(Value::as_str)
        .map(|p| format!("Matches the pattern `{p}`."));
    for text in [numbers, above, below, step, lengths, pattern]
        .into_iter()
        .flatten()
    {
        note(out, &text);
    }
    for key in crate::limits::KEYWORDS {
        if unstated(key) {
            out.remove(key);
        }
    }
}
