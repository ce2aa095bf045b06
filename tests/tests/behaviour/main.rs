//! Behaviour tests: one binary, a module per feature.

// Many argument types exist only to be walked and refused; their fields are not read back.
#![allow(dead_code)]

mod command_line;
mod constraints;
mod derive_shapes;
mod docs_map;
mod duplicate_keys;
mod enums;
mod errors;
mod flatten_chain;
mod flatten_enum;
mod helpers;
mod hygiene;
mod json_schema;
mod json_schema_constraints;
mod json_schema_reading;
mod lenient;
mod malformed_json;
mod one_answer;
mod one_or_many;
mod properties;
mod providers;
mod read_first;
mod reports;
mod root_and_twice;
mod round_trip;
mod round_trip_enums;
mod rules;
mod schema;
mod serde_names;
mod serde_reads;
mod surfaces;
mod text_list;
mod vectors;
