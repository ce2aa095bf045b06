//! Arbitrary JSON → `T::coerce_value`: on `Err` the value is byte for byte what it was; on
//! `Ok` a second call changes nothing, every key is still there, and nothing but strings at
//! structured positions changed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use stitch_tests::checks;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = checks::coerce_input(data) {
        panic!("{e}");
    }
});
