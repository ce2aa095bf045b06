//! The arguments as JSON text: serde_json's depth limit, the JSON-array check, the plain-text
//! fast path of `from_json`, the reader that notes keys sent twice, and the deserializer that
//! names the path of a failure.

pub(crate) mod de;
pub(crate) mod depth;
pub(crate) mod parse;
pub(crate) mod plain;
pub(crate) mod plain_value;
pub(crate) mod replay;
pub(crate) mod text_list;
