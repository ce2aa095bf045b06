//! The arguments as JSON text: the depth limit, the array check, the fast paths, the reader that
//! notes keys sent twice, and the deserializer that names a failure's path.

pub(crate) mod de;
pub(crate) mod depth;
pub(crate) mod parse;
pub(crate) mod plain;
pub(crate) mod plain_value;
pub(crate) mod replay;
pub(crate) mod text_list;
