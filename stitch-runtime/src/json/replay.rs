//! The arguments' text as serde would read it, rebuilt from a `Value` and the keys the text
//! sent twice ([`Duplicates`]): each repeated key is written once per time it was sent, its
//! values in the order sent, the one the `Value` kept last.
//!
//! serde reads a repeated key as it streams: a struct refuses it (`duplicate field`), a map
//! keeps the last value, and an untagged enum buffers both and tries its members on them, so a
//! member that meets the key twice fails and the next may read (`docs/rules.md#duplicates`).
//! A `Value` holds the key once. So when the text sent a key twice and the walk repaired
//! nothing, `from_json` and `Args<T>` deserialize this text, not the `Value`, and give serde's
//! answer for what was sent. The keys of each object come in the `Value`'s order (sorted by
//! key, unless serde_json's `preserve_order` feature is on), which changes no value serde
//! reads. Built only when some key was sent twice; linear in the size of the value.

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

/// A string, number, boolean or `null`, as serde_json writes it.
fn leaf(out: &mut String, value: &Value) {
    out.push_str(&value.to_string());
}
