//! Issue #23: `--upstream https://…` against an MCP server on loopback that speaks only TLS,
//! with certificates made for the run (rcgen): a test CA signs the server's certificate for
//! `localhost`. Trusted through `--ca-file`, the session works as over plain HTTP (the rule
//! included); without it, the proxy answers with the reason, at once.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

use crate::support::upstream::{
    collect, json, serve, status, Seen, Served, Stdio2Http, INIT, INITIALIZED,
};
use crate::support::{PROXY, TEXT_LIST};

/// A run's certificates: the server's TLS configuration, and a PEM file holding a
/// self-signed certificate that has nothing to do with the server, then the test CA (every
/// certificate of the file is read, not just the first).
struct Pki {
    server: Arc<rustls::ServerConfig>,
    ca_file: PathBuf,
}

fn pki(name: &str) -> Pki {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(DnType::CommonName, "stitch-proxy test CA");
    let ca = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["localhost".to_owned()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    let other = rcgen::generate_simple_self_signed(vec!["other.example".to_owned()]).unwrap();
    let ca_file = std::env::temp_dir().join(format!(
        "stitch-proxy-https-{}-{name}.pem",
        std::process::id()
    ));
    std::fs::write(&ca_file, format!("{}{}", other.cert.pem(), ca.pem())).unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let server = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![leaf.der().clone(), ca.der().clone()], key)
        .unwrap();
    Pki {
        server: Arc::new(server),
        ca_file,
    }
}

/// An MCP server over TLS: `initialize` opens session `T1`; `echo` answers with its
/// arguments; `view` takes a string or a list of strings; no GET stream.
fn mcp_over_tls(tls: Arc<rustls::ServerConfig>) -> Served {
    serve(Some(tls), |request: &Seen| {
        let message = request.message();
        let id = message["id"].to_string();
        match (request.method.as_str(), message["method"].as_str()) {
            ("POST", Some("initialize")) => json(
                Some("T1"),
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":"2025-06-18","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"tls","version":"0"}}}}}}"#
                ),
            ),
            ("POST", Some("tools/list")) => json(
                None,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{{"name":"echo","inputSchema":{{"type":"object"}}}},{{"name":"view","inputSchema":{{"type":"object","properties":{{"paths":{{"anyOf":[{{"type":"string"}},{{"type":"array","items":{{"type":"string"}}}}]}}}}}}}}]}}}}"#
                ),
            ),
            ("POST", Some("tools/call")) => json(
                None,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":{}}}]}}}}"#,
                    serde_json::Value::from(format!(
                        "echo over TLS {}",
                        message["params"]["arguments"]
                    ))
                ),
            ),
            ("POST", _) => status(202, "Accepted"),
            ("DELETE", _) => status(200, "OK"),
            _ => status(405, "Method Not Allowed"),
        }
    })
}

#[test]
fn an_https_upstream_trusted_by_ca_file_round_trips_a_call_and_refuses_a_text_list() {
    let pki = pki("trusted");
    let server = mcp_over_tls(pki.server.clone());
    let url = format!("https://localhost:{}/mcp", server.port);
    let ca_file = pki.ca_file.display().to_string();
    let mut up = Stdio2Http::start(&["--upstream", &url, "--ca-file", &ca_file]);
    up.send(INIT);
    let answer = up.recv_json();
    assert_eq!(answer["result"]["serverInfo"]["name"], "tls", "{answer}");
    up.send(INITIALIZED);
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a" : [1, 2]}}}"#;
    up.send(call);
    assert_eq!(
        up.recv(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"echo over TLS {\"a\":[1,2]}"}]}}"#
    );
    up.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"a.png\"]"}}}"#);
    let refusal = up.recv_json();
    assert_eq!(refusal["id"], 2);
    assert_eq!(refusal["result"]["isError"], true, "{refusal}");
    let text = refusal["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(text, format!("paths {TEXT_LIST}"));
    let stderr = up.finish();
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Every request came over TLS (the server speaks nothing else): the session's, the
    // proxy's own tools/list, the call byte for byte, the DELETE; the refused call never.
    // The proxy may exit before the server has read its DELETE: wait for it.
    let mut seen: Vec<Seen> = Vec::new();
    collect(&server.requests, &mut seen, |s| {
        s.iter().any(|r| r.method == "DELETE")
    });
    seen.extend(server.requests.try_iter());
    assert_eq!(seen[0].body, INIT);
    assert!(seen.iter().any(|r| r.body == call), "{seen:#?}");
    assert!(seen.iter().any(|r| r.message()["method"] == "tools/list"));
    assert!(
        !seen.iter().any(|r| r.body.contains("\"view\"")),
        "{seen:#?}"
    );
    assert_eq!(seen.last().unwrap().method, "DELETE");
    assert_eq!(seen.last().unwrap().header("mcp-session-id"), Some("T1"));
    let _ = std::fs::remove_file(&pki.ca_file);
}

#[test]
fn without_ca_file_an_unknown_issuer_is_a_clear_error_at_once() {
    let pki = pki("untrusted");
    let server = mcp_over_tls(pki.server.clone());
    let url = format!("https://localhost:{}/mcp", server.port);
    let mut up = Stdio2Http::start(&["--upstream", &url]);
    let started = std::time::Instant::now();
    up.send(INIT);
    let answer = up.recv_json();
    assert_eq!(answer["id"], 0);
    assert_eq!(answer["error"]["code"], -32000);
    let text = answer["error"]["message"].as_str().unwrap();
    assert!(
        text.contains("cannot be reached")
            && text.contains("invalid peer certificate: UnknownIssuer"),
        "{text}"
    );
    assert!(text.contains("--ca-file"), "{text}");
    // Each request is answered so, and none waits for a timeout.
    up.send(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    assert_eq!(up.recv_json()["id"], "p");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let stderr = up.finish();
    assert!(stderr.contains("UnknownIssuer"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // No request got through the handshake.
    assert_eq!(server.requests.try_iter().count(), 0);
    let _ = std::fs::remove_file(&pki.ca_file);
}

#[test]
fn a_ca_file_that_cannot_be_used_is_a_usage_error_naming_it() {
    let dir = std::env::temp_dir();
    let empty = dir.join(format!(
        "stitch-proxy-https-{}-empty.pem",
        std::process::id()
    ));
    std::fs::write(&empty, "not a certificate\n").unwrap();
    let empty_name = empty.display().to_string();
    for (file, error) in [
        (
            "/nonexistent/ca.pem",
            "--ca-file \"/nonexistent/ca.pem\": cannot be read",
        ),
        (empty_name.as_str(), "holds no PEM certificate"),
    ] {
        let out = Command::new(PROXY)
            .args(["--upstream", "https://localhost:9/mcp", "--ca-file", file])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(error) && stderr.contains(file), "{stderr}");
        assert!(stderr.contains("usage:"), "{stderr}");
    }
    let _ = std::fs::remove_file(&empty);
}
