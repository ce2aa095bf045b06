//! The surfaces a tool's arguments and schema reach users through: [`Args<T>`](args::Args)
//! (and `Reported<T>`) for serde-based frameworks, the providers' tool definitions, and
//! schemars: the top stage, above `ToolArgs`.

pub(crate) mod args;
pub(crate) mod bounds;
pub mod definition;
pub(crate) mod providers;
pub(crate) mod root;
#[cfg(feature = "schemars")]
pub(crate) mod schemars;
pub(crate) mod unstated;
