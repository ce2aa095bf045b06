//! Behaviour tests: one binary, a module per feature.

mod enums;
mod errors;
mod one_or_many;
mod properties;
mod rules;
mod serde_names;
mod text_list;
mod vectors;
