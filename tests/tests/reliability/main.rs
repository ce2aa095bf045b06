//! Reliability: no input crashes a server or loses an argument (see `RELIABILITY.md`).
//!
//! - `corpus`: replays the fuzz corpora and the seed vectors through the fuzz targets' checks;
//! - `properties`: the same three properties as property tests;
//! - `agreement`: the schema-driven coercer agrees with the derive on generated calls;
//! - `one_answer`: every surface gives one answer to generated calls near several shapes;
//! - `depth`: 100 000 levels of nesting through every surface, on a 2 MiB stack;
//! - `size`: a 100 MiB string and a 1 000 000-element array, handled without copying.

// Many argument types exist only to be walked; their fields are not read back.
#![allow(dead_code)]

mod agreement;
mod corpus;
mod depth;
mod findings;
mod one_answer;
mod properties;
mod seeds;
mod serde_oracle;
mod size;
