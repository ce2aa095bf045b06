//! Arbitrary lines through `stitch-proxy`'s message path: no panic, one line out per line,
//! each request forwarded or answered once, and a call the rules leave alone forwarded as the
//! client's exact bytes (`stitch_tests::proxy_lines`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use stitch_tests::proxy_lines;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = proxy_lines::proxy_input(data) {
        panic!("{e}");
    }
});
