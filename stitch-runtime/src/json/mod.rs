//! The arguments as JSON text: serde_json's depth limit, the JSON-array check, the plain-text
//! fast path of `from_json`, and the deserializer that names the path of a failure.

pub(crate) mod de;
pub(crate) mod depth;
pub(crate) mod plain;
pub(crate) mod text_list;
