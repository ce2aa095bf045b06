//! Building the fake server (`fake_server.rs`, an example of the package, so that
//! `cargo install` never installs it) into the profile directory of the running test or bench:
//! `<target>/<profile>/examples/`, beside `<target>/<profile>/deps/` where it runs. The tests
//! (`support/mod.rs`) and both benches build it through this one function.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The example's name.
pub const FAKE_SERVER: &str = "stitch-proxy-fake-server";

/// Builds the fake server with the running executable's profile and returns its path. A
/// `cargo test` of the package builds examples too: when that binary is newer than the fake
/// server's sources (it and the proxy's JSON reader it uses), it is taken as it is, without a
/// second cargo, whose own feature resolution would build stitch's crates again.
pub fn build_fake_server() -> PathBuf {
    let exe = std::env::current_exe().expect("the running executable");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("<target>/<profile>/deps")
        .to_owned();
    let built = profile_dir
        .join("examples")
        .join(format!("{FAKE_SERVER}{}", std::env::consts::EXE_SUFFIX));
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let sources = ["tests/support/fake_server.rs", "src/raw.rs"]
        .map(|source| modified(&Path::new(env!("CARGO_MANIFEST_DIR")).join(source)));
    if let Some(binary) = modified(&built) {
        if sources.iter().all(|s| s.is_some_and(|s| s <= binary)) {
            return built;
        }
    }
    let target_dir = profile_dir.parent().expect("<target>");
    let mut build = Command::new(env!("CARGO"));
    build
        .args([
            "build",
            "--quiet",
            "-p",
            "stitch-proxy",
            "--example",
            FAKE_SERVER,
        ])
        .arg("--target-dir")
        .arg(target_dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if profile_dir.file_name() == Some("release".as_ref()) {
        build.arg("--release");
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "building the fake server failed");
    let path = profile_dir
        .join("examples")
        .join(format!("{FAKE_SERVER}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} was not built", path.display());
    path
}
