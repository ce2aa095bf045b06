//! Issue #34: `stitch-proxy wrap` and `unwrap` on files: the backup, `--dry-run`, a malformed
//! file left as it was, and each client's file back byte for byte.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::PROXY;

fn run(args: &[&str]) -> Output {
    Command::new(PROXY).args(args).output().unwrap()
}

/// A fresh directory with the client configuration `name` of `tests/configs` in it.
fn copy(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("stitch-proxy-wrap-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/configs")
        .join(name);
    std::fs::copy(source, &file).unwrap();
    (dir, file)
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn each_clients_file_comes_back_byte_for_byte_with_a_backup() {
    for name in [
        "claude_desktop_config.json",
        "claude_desktop_config_windows.json",
        "cursor_mcp.json",
        "claude_code_mcp.json",
    ] {
        let (dir, file) = copy(name);
        let original = std::fs::read(&file).unwrap();
        let path = file.to_str().unwrap();
        let dry = run(&["wrap", path, "--dry-run"]);
        assert!(dry.status.success(), "{}", text(&dry));
        assert!(text(&dry).contains("\n+++ "), "{}", text(&dry));
        assert_eq!(
            std::fs::read(&file).unwrap(),
            original,
            "--dry-run writes nothing"
        );
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no backup either"
        );

        let wrapped = run(&["wrap", path, "--", "--report-only"]);
        assert!(wrapped.status.success(), "{}", text(&wrapped));
        let now = std::fs::read_to_string(&file).unwrap();
        assert!(now.contains("\"--report-only\""), "{now}");
        // The proxy named by its path: this very program.
        assert!(
            now.contains(&serde_json::to_string(PROXY).unwrap()),
            "{now}"
        );
        let backup = dir.join(format!("{name}.bak"));
        assert_eq!(std::fs::read(&backup).unwrap(), original);

        let again = run(&["wrap", path]);
        assert!(
            text(&again).contains("nothing to change"),
            "{}",
            text(&again)
        );

        let back = run(&["unwrap", path]);
        assert!(back.status.success(), "{}", text(&back));
        assert_eq!(std::fs::read(&file).unwrap(), original, "{name}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_malformed_file_is_refused_with_its_line_and_left_as_it_was() {
    let (dir, file) = copy("cursor_mcp.json");
    let broken = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"\n  }\n";
    std::fs::write(&file, broken).unwrap();
    let path = file.to_str().unwrap();
    let output = run(&["wrap", path]);
    assert_eq!(output.status.code(), Some(1));
    let said = text(&output);
    assert!(
        said.contains(&format!("{path}:5:0: not valid JSON")),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no backup");
    let output = run(&["unwrap", dir.join("missing.json").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output).contains("missing.json"), "{}", text(&output));
    let output = run(&["wrap"]);
    assert_eq!(output.status.code(), Some(2));
    // Options each proxy could not run with are not written into the file.
    let output = run(&["wrap", path, "--", "--reprot-only"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("--reprot-only"), "{}", text(&output));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);
    let _ = std::fs::remove_dir_all(&dir);
}
