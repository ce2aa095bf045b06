//! Arbitrary bytes as the string at a `OneOrMany<String>` position, with random bounds (the
//! first two bytes): the fast check's verdict equals the oracle
//! (`serde_json::from_str::<Vec<String>>` plus the bounds) on every surface.
#![no_main]

use libfuzzer_sys::fuzz_target;
use stitch_tests::checks;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = checks::text_list_input(data) {
        panic!("{e}");
    }
});
