//! The arguments' text rebuilt from a `Value` and the keys sent twice, each written once per time
//! sent: when the walk repaired nothing, `from_json` and `Args<T>` read this, so serde answers for
//! what was sent (`docs/rules.md#duplicates`).

use serde_json::Value;

use crate::json::parse::Duplicates;

/// The text of `value`, its repeated keys written as many times as `duplicates` notes.
#[cold]
pub(crate) fn text(value: &Value, duplicates: &Duplicates) -> String {
    let mut out = String::new();
    write(&mut out, value, duplicates);
    out
}

fn write(out: &mut String, value: &Value, duplicates: &Duplicates) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, item, duplicates);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            let mut first = true;
            for (key, item) in map {
                let earlier = duplicates.earlier(item).unwrap_or_default();
                for sent in earlier.iter().chain(core::iter::once(item)) {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    leaf(out, &Value::String(key.clone()));
                    out.push(':');
                    write(out, sent, duplicates);
                }
            }
            out.push('}');
        }
        other => leaf(out, other),
    }
}

fn leaf(out: &mut String, value: &Value) {
    out.push_str(&value.to_string());
}
