//! The top stage: serde frameworks (`Args<T>`, `Reported<T>`), provider tool definitions,
//! schemars.

pub(crate) mod args;
pub(crate) mod bounds;
pub mod definition;
pub(crate) mod providers;
pub(crate) mod root;
#[cfg(feature = "schemars")]
pub(crate) mod schemars;
pub(crate) mod unstated;
