//! What the coerce check allows a call's value to have changed: only repairs (rule R1) at
//! the structured positions of the type's description ([`Sch`]).

use super::*;

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `after` is `before` with, at most, strings at structured positions of `schema` replaced by
/// the JSON they parse to, and that JSON in turn repaired (rule R1); nothing else changed, no
/// key added, dropped or reordered, no element added or dropped.
pub fn only_repairs(schema: &Sch, before: &Value, after: &Value) -> Outcome {
    if before == after {
        return Ok(());
    }
    let here = |what: String| Err(format!("at this position: {what}"));
    match (schema, before) {
        (Sch::Ref(s), _) => only_repairs(s, before, after),
        (Sch::Str | Sch::Scalar | Sch::Unit | Sch::Any, _) => here(format!(
            "{} changed at a position that takes no repair ({schema:?})",
            kind(before)
        )),
        (Sch::OneOrMany(item), Value::Array(a)) => items(a, after, |_| Some(item)),
        (Sch::OneOrMany(item), Value::String(_)) if item.strings() => {
            only_repairs(item, before, after)
        }
        (Sch::OneOrMany(_), Value::String(text)) => reparsed(schema, text, after),
        (Sch::OneOrMany(item), _) => only_repairs(item, before, after),
        (Sch::External(_), Value::String(_)) if schema.strings() => {
            here("a string changed at an enum with unit variants".to_owned())
        }
        (Sch::Untagged { strings: true, .. }, Value::String(_)) => {
            here("a string changed at a string-bearing untagged enum".to_owned())
        }
        (_, Value::String(text)) => reparsed(schema, text, after),
        (Sch::Seq(item), Value::Array(a)) => items(a, after, |_| Some(item)),
        (Sch::Tuple(list), Value::Array(a)) => items(a, after, |i| list.get(i)),
        (Sch::Map(v), Value::Object(a)) => entries(a, after, |_| Some(v)),
        (Sch::Obj(fields, rest), Value::Object(a)) => {
            entries(a, after, |k| find(fields, k).or(*rest))
        }
        (Sch::External(variants), Value::Object(a)) if a.len() == 1 => {
            entries(a, after, |k| find(variants, k))
        }
        (Sch::Internal(tag, variants), Value::Object(a)) => {
            match a
                .get(*tag)
                .and_then(Value::as_str)
                .and_then(|t| find(variants, t))
            {
                Some(variant) => only_repairs(variant, before, after),
                None => entries(a, after, |_| None),
            }
        }
        (Sch::Adjacent(tag, content, variants), Value::Object(a)) => {
            let variant = a
                .get(*tag)
                .and_then(Value::as_str)
                .and_then(|t| find(variants, t));
            entries(a, after, |k| if k == *content { variant } else { None })
        }
        (Sch::Untagged { array, .. }, Value::Array(_)) => only_repairs(array, before, after),
        (Sch::Untagged { object, .. }, Value::Object(_)) => only_repairs(object, before, after),
        _ => here(format!(
            "a {} changed where it is not walked ({schema:?})",
            kind(before)
        )),
    }
}

/// A string at a structured position: it must parse, and the result be repaired as the same type.
fn reparsed(schema: &Sch, text: &str, after: &Value) -> Outcome {
    match serde_json::from_str::<Value>(text) {
        Ok(parsed) => only_repairs(schema, &parsed, after)
            .map_err(|e| format!("(inside the JSON text {text:?}) {e}")),
        Err(_) => Err(format!(
            "the string {text:?}, not JSON, changed into {after}"
        )),
    }
}

fn items<'s>(
    before: &[Value],
    after: &Value,
    schema: impl Fn(usize) -> Option<&'s Sch>,
) -> Outcome {
    let Value::Array(after) = after else {
        return Err(format!("an array became a {}", kind(after)));
    };
    if before.len() != after.len() {
        return Err(format!(
            "an array of {} items became one of {}",
            before.len(),
            after.len()
        ));
    }
    for (i, (b, a)) in before.iter().zip(after).enumerate() {
        match schema(i) {
            Some(s) => only_repairs(s, b, a),
            None if a == b => Ok(()),
            None => Err("an item past a tuple's end changed".to_owned()),
        }
        .map_err(|e| format!("{i}.{e}"))?;
    }
    Ok(())
}

fn entries<'s>(
    before: &Map<String, Value>,
    after: &Value,
    schema: impl Fn(&str) -> Option<&'s Sch>,
) -> Outcome {
    let Value::Object(after) = after else {
        return Err(format!("an object became a {}", kind(after)));
    };
    // R8: a declared field sent as `null` may be dropped (a defaulted field left out); no
    // other key is dropped, added or reordered. (A required field's `null` is refused, so it
    // is never dropped on `Ok`.)
    let dropped =
        |key: &str, b: &Value| b.is_null() && schema(key).is_some() && !after.contains_key(key);
    let kept: Vec<(&String, &Value)> = before.iter().filter(|(k, b)| !dropped(k, b)).collect();
    if !kept.iter().map(|(k, _)| *k).eq(after.keys()) {
        let b: Vec<&String> = before.keys().collect();
        let a: Vec<&String> = after.keys().collect();
        return Err(format!("the keys {b:?} became {a:?}"));
    }
    for ((key, b), a) in kept.into_iter().zip(after.values()) {
        match schema(key) {
            Some(s) => only_repairs(s, b, a),
            None if a == b => Ok(()),
            None => Err("a key the type does not walk changed".to_owned()),
        }
        .map_err(|e| format!("{key}.{e}"))?;
    }
    Ok(())
}
