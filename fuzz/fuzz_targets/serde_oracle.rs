//! Arbitrary bytes as the arguments text of types whose reading serde decides in its subtler
//! ways (flatten chains, every tagging, untagged members with maps, keys sent twice): where no
//! rule acts, every surface gives serde's own answer for the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use stitch_tests::shapes;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = shapes::serde_oracle_input(data) {
        panic!("{e}");
    }
});
