//! Arbitrary bytes as a tool call's arguments text → `T::from_json` for realistic tool types
//! (nested rows, maps, tagged and untagged enums, a recursive type, `OneOrMany` of strings,
//! numbers, enums and structs): never a panic, and the same answer as `from_value`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use stitch_tests::checks;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = checks::from_json_input(data) {
        panic!("{e}");
    }
});
