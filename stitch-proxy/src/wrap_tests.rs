//! `wrap` and `unwrap` on the configuration files of each client (`tests/configs/`): every
//! one comes back byte for byte.

use serde_json::{json, Value};

use super::*;

const FILES: [(&str, &str); 4] = [
    (
        "claude_desktop_config.json",
        include_str!("../tests/configs/claude_desktop_config.json"),
    ),
    (
        "claude_desktop_config_windows.json",
        include_str!("../tests/configs/claude_desktop_config_windows.json"),
    ),
    (
        "cursor_mcp.json",
        include_str!("../tests/configs/cursor_mcp.json"),
    ),
    (
        ".mcp.json",
        include_str!("../tests/configs/claude_code_mcp.json"),
    ),
];

const PROXY: Proxy<'static> = Proxy {
    command: "/opt/bin/stitch-proxy",
    options: &[],
};

fn servers(text: &str) -> Value {
    let value: Value = serde_json::from_str(text).expect("wrap writes JSON");
    value["mcpServers"].clone()
}

#[test]
fn every_client_file_comes_back_byte_for_byte() {
    let options = [
        "--report-only".to_owned(),
        "--log-format".to_owned(),
        "json".to_owned(),
    ];
    for proxy in [
        PROXY,
        Proxy {
            command: "stitch-proxy",
            options: &options,
        },
    ] {
        for (name, text) in FILES {
            let wrapped = wrap(name, text, &proxy).unwrap();
            assert_ne!(wrapped.text, text, "{name}");
            assert!(wrapped.changes.iter().any(|c| c.changed), "{name}");
            let back = unwrap(name, &wrapped.text).unwrap();
            assert_eq!(back.text, text, "{name}: wrapped\n{}", wrapped.text);
            // Wrapping again changes nothing.
            assert_eq!(
                wrap(name, &wrapped.text, &proxy).unwrap().text,
                wrapped.text
            );
            // Only the entries changed: the rest of the file is as it was.
            let (before, after): (Value, Value) = (
                serde_json::from_str(text).unwrap(),
                serde_json::from_str(&wrapped.text).unwrap(),
            );
            for (key, value) in before.as_object().unwrap() {
                if key != "mcpServers" {
                    assert_eq!(after[key], *value, "{name}: {key}");
                }
            }
        }
    }
}

#[test]
fn a_stdio_server_runs_behind_the_proxy_with_its_env_and_cwd() {
    let (_, text) = FILES[0];
    let wrapped = wrap("c.json", text, &PROXY).unwrap();
    let servers = servers(&wrapped.text);
    assert_eq!(
        servers["filesystem"],
        json!({"command": "/opt/bin/stitch-proxy", "args": ["--", "npx", "-y",
            "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"],
            WRAPPED: true})
    );
    assert_eq!(
        servers["github"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"],
        "<YOUR_TOKEN>"
    );
    assert_eq!(servers["github"]["args"][1], "docker");
    // No args before: a new member.
    assert_eq!(
        servers["memory"]["args"],
        json!(["--", "/usr/local/bin/mcp-memory"])
    );
    assert_eq!(servers["weather"]["cwd"], "C:\\Users\\me\\weather");
    assert_eq!(
        servers["weather"]["args"][1],
        "C:\\Program Files\\nodejs\\node.exe"
    );
    // Already behind the proxy: left alone.
    assert_eq!(
        servers["already"]["args"],
        json!(["--", "python", "server.py"])
    );
    let already = wrapped
        .changes
        .iter()
        .find(|c| c.server == "already")
        .unwrap();
    assert!(
        !already.changed && already.what.contains("already"),
        "{already:?}"
    );
    // The file's own layout: one element a line where it was so.
    assert!(
        wrapped
            .text
            .contains("      \"args\": [\n        \"--\",\n        \"npx\",\n        \"-y\",\n"),
        "{}",
        wrapped.text
    );
}

#[test]
fn a_url_server_becomes_the_proxy_with_upstream_and_its_headers() {
    let (_, text) = FILES[2];
    let wrapped = wrap("mcp.json", text, &PROXY).unwrap();
    let linear = &servers(&wrapped.text)["linear"];
    assert_eq!(linear["command"], "/opt/bin/stitch-proxy");
    assert_eq!(
        linear["args"],
        json!([
            "--upstream",
            "https://mcp.linear.app/mcp",
            "--header",
            "Authorization: Bearer lin_api_xxx",
            "--header",
            "X-Team: eng"
        ])
    );
    assert!(linear.get("url").is_none() && linear.get("headers").is_none());
    assert!(linear[ORIGINAL]
        .as_str()
        .unwrap()
        .contains("\"X-Team\": \"eng\""));
    let (_, code) = FILES[3];
    let wrapped = wrap(".mcp.json", code, &PROXY).unwrap();
    let servers = servers(&wrapped.text);
    assert_eq!(
        servers["api-server"]["type"], "stdio",
        "Claude Code's http type"
    );
    assert_eq!(
        servers["api-server"]["args"][3],
        "Authorization: Bearer ${API_KEY}"
    );
    // An sse server is left alone, an empty args list filled.
    assert_eq!(
        servers["events"],
        json!({"type": "sse", "url": "https://mcp.example.com/sse"})
    );
    assert_eq!(
        servers["shared-server"]["args"],
        json!(["--", "/path/to/server"])
    );
    assert_eq!(servers["python"]["env"], json!({"LOG_LEVEL": "debug"}));
}

#[test]
fn only_streamable_http_url_servers_are_wrapped() {
    let text = r#"{"mcpServers": {"a": {"type": "streamable-http", "url": "https://a"}, "b": {"type": "ws", "url": "wss://b"}, "c": {"type": "sse-ide", "url": "http://c"}, "d": {"type": 1, "url": "http://d"}}}"#;
    let wrapped = wrap("c.json", text, &PROXY).unwrap();
    let changed: Vec<(&str, bool)> = wrapped
        .changes
        .iter()
        .map(|c| (c.server.as_str(), c.changed))
        .collect();
    assert_eq!(
        changed,
        [("a", true), ("b", false), ("c", false), ("d", false)]
    );
    assert!(
        wrapped.changes[1].what.contains("a ws server"),
        "{:?}",
        wrapped.changes
    );
    assert_eq!(servers(&wrapped.text)["a"]["type"], "stdio");
    assert_eq!(unwrap("c.json", &wrapped.text).unwrap().text, text);
}

#[test]
fn a_malformed_file_is_refused_with_its_line_and_column() {
    let text = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}\n";
    let error = wrap("conf.json", text, &PROXY).unwrap_err();
    assert!(error.starts_with("conf.json:3:26: "), "{error}");
    let error = unwrap("conf.json", "{\"servers\": {}}").unwrap_err();
    assert!(error.contains("no \"mcpServers\""), "{error}");
    assert!(wrap("conf.json", "", &PROXY)
        .unwrap_err()
        .starts_with("conf.json:1:0: "));
}

#[test]
fn unwrap_leaves_alone_what_wrap_did_not_write() {
    let text = r#"{"mcpServers": {"a": {"command": "stitch-proxy", "args": ["--upstream", "https://x"]}, "b": {"command": "npx"}}}"#;
    let back = unwrap("c.json", text).unwrap();
    assert_eq!(back.text, text);
    assert!(
        back.changes.iter().all(|c| !c.changed),
        "{:?}",
        back.changes
    );
    // Behind the proxy by hand (no marker): unwrap leaves it so, and the file of each client
    // that holds one comes back byte for byte all the same.
    let (_, desktop) = FILES[0];
    let back = unwrap("c.json", desktop).unwrap();
    assert_eq!(back.text, desktop);
    let already = back.changes.iter().find(|c| c.server == "already").unwrap();
    assert!(already.what.contains("not by wrap"), "{already:?}");
}

#[test]
fn the_dry_run_diff_shows_the_changed_lines() {
    let (_, text) = FILES[2];
    let wrapped = wrap("mcp.json", text, &PROXY).unwrap();
    let shown = diff(text, &wrapped.text, "mcp.json", 1);
    assert!(
        shown.starts_with("--- mcp.json\n+++ mcp.json\n@@ -3,"),
        "{shown}"
    );
    assert!(
        shown.contains("\n-      \"command\": \"npx\",\n"),
        "{shown}"
    );
    assert!(
        shown.contains("\n+      \"command\": \"/opt/bin/stitch-proxy\",\n"),
        "{shown}"
    );
    assert!(
        shown.contains("\n+      \"x-stitch-proxy-wrapped\": true\n"),
        "{shown}"
    );
    assert!(
        shown.contains("\n-      \"url\": \"https://mcp.linear.app/mcp\",\n"),
        "{shown}"
    );
    assert_eq!(diff(text, text, "x", 3), "");
}
