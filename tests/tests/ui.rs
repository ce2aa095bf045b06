//! Compile-fail cases: each file under `tests/ui/` is one derive mistake, and its `.stderr`
//! holds the errors it must produce. Compiler output drifts between toolchains, so the cases
//! are written with the one `rust-toolchain.toml` pins, and fail loudly on any other unless
//! `STITCH_SKIP_UI=1` says to skip them.

/// The toolchain the `.stderr` files were written with: `rust-toolchain.toml`'s channel
/// (checked by `the_pinned_toolchain_is_rust_toolchain_toml`).
const PINNED: &str = "1.95.0";

/// Whether this test is compiled by the pinned toolchain. `rustversion` needs the version as
/// a literal: keep it equal to [`PINNED`].
const ON_PINNED: bool = rustversion::cfg!(stable(1.95.0));

/// The opt-out: set to `1` to skip the cases on a toolchain other than the pinned one.
const SKIP: &str = "STITCH_SKIP_UI";

#[test]
#[ignore = "the compile-fail suite recompiles every case (about a minute): the full run, `cargo test -- --include-ignored`"]
fn compile_fail() {
    if std::env::var_os(SKIP).is_some_and(|v| v == "1") {
        eprintln!("{SKIP}=1: the compile-fail cases (tests/tests/ui) are skipped");
        return;
    }
    if !ON_PINNED {
        panic!(
            "the compile-fail cases compare compiler output written with Rust {PINNED}, the \
             toolchain rust-toolchain.toml pins, but this test was compiled by another ({}); \
             run it with the pinned toolchain (plain `cargo test` in the repository picks it), \
             or set {SKIP}=1 to skip it",
            option_env!("RUSTUP_TOOLCHAIN").unwrap_or("not named by rustup"),
        );
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/**/*.rs");
}

#[test]
fn the_pinned_toolchain_is_rust_toolchain_toml() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rust-toolchain.toml");
    let text = std::fs::read_to_string(path).expect("rust-toolchain.toml at the repository root");
    let channel = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("channel = "))
        .expect("rust-toolchain.toml names a channel");
    assert_eq!(channel, format!("\"{PINNED}\""));
}
