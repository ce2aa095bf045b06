//! Compile-fail cases: each file under `tests/ui/` is one derive mistake, and its `.stderr`
//! holds the errors it must produce. Compiler output drifts between toolchains, so the cases
//! run only on the one their `.stderr` files were written with.

#[rustversion::attr(
    not(stable(1.95)),
    ignore = "compiler output differs on other toolchains"
)]
#[test]
fn compile_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/**/*.rs");
}
