//! A type's schema text: the [`SchemaText`] constant behind
//! [`ToolArgs::INPUT_SCHEMA`](crate::ToolArgs::INPUT_SCHEMA), and the run-time rendering and
//! cache behind [`ToolArgs::input_schema`](crate::ToolArgs::input_schema).

use crate::schema::write::{as_str, len, write, MAX_SCHEMA_TEXT};
use crate::schema::{Describe, Schema};

/// A type's schema text as a constant, for [`ToolArgs::INPUT_SCHEMA`](crate::ToolArgs).
///
/// Generic constants are evaluated only where named: const evaluation is slow, and a crate
/// that never names them does not wait for them.
#[doc(hidden)]
pub trait SchemaText {
    /// The text in a fixed buffer, and its length.
    const BUFFER: ([u8; MAX_SCHEMA_TEXT], usize);
    /// The text.
    const TEXT: &'static str;
}

impl<T: Describe + ?Sized> SchemaText for T {
    const BUFFER: ([u8; MAX_SCHEMA_TEXT], usize) = {
        let mut buf = [0u8; MAX_SCHEMA_TEXT];
        let len = write(T::SCHEMA, &mut buf);
        if len > MAX_SCHEMA_TEXT {
            panic!("stitch: this schema is longer than `MAX_SCHEMA_TEXT` bytes; use `input_schema()`, which builds it at run time");
        }
        (buf, len)
    };
    const TEXT: &'static str = as_str(Self::BUFFER.0.split_at(Self::BUFFER.1).0);
}

/// Rendered once and kept for the program's life, keyed by the address of the type's tree
/// (a key by type name could mix up two versions of one crate).
pub(crate) fn cached<T: Describe + ?Sized>() -> &'static serde_json::Value {
    cached_tree(T::SCHEMA)
}

fn cached_tree(schema: &'static Schema) -> &'static serde_json::Value {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock, PoisonError};

    static CACHE: OnceLock<Mutex<HashMap<usize, &'static serde_json::Value>>> = OnceLock::new();
    let key = core::ptr::from_ref(schema) as usize;
    let cache = CACHE.get_or_init(Default::default);
    let mut map = cache.lock().unwrap_or_else(PoisonError::into_inner);
    map.entry(key)
        .or_insert_with(|| Box::leak(Box::new(render(schema))))
}

/// Never panics: a tree not built by the derive that renders as no JSON gets `{}` with the
/// reason in a `$comment`, rather than a panic inside a server's `tools/list`.
pub(crate) fn render(schema: &Schema) -> serde_json::Value {
    let mut buf = vec![0u8; len(schema)];
    write(schema, &mut buf);
    let parsed = match core::str::from_utf8(&buf) {
        Ok(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    parsed.unwrap_or_else(|reason| {
        serde_json::json!({
            "$comment": format!("stitch could not render this type's schema as JSON: {reason}")
        })
    })
}

#[cfg(test)]
mod tests {
    use super::render;
    use crate::schema::Schema;

    #[test]
    fn a_tree_that_renders_badly_gets_a_valid_schema_not_a_panic() {
        let bad = Schema::Raw("{\"type\": ");
        let schema = render(&bad);
        let comment = schema["$comment"].as_str().unwrap();
        assert!(comment.starts_with("stitch could not render"), "{comment}");
        assert_eq!(schema.as_object().map(|o| o.len()), Some(1));
        assert_eq!(
            render(&Schema::String),
            serde_json::json!({"type": "string"})
        );
    }
}
