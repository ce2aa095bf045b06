//! The surfaces a tool's arguments and schema reach users through: [`Args<T>`](args::Args)
//! for serde-based frameworks, the command line, the providers' tool definitions, and
//! schemars.

pub(crate) mod args;
pub(crate) mod cli;
pub mod definition;
pub(crate) mod providers;
#[cfg(feature = "schemars")]
pub(crate) mod schemars;
