//! The two eras of MCP, as the proxy meets them message by message.
//!
//! - **Legacy** (2025-11-25 and earlier): a session opens with `initialize`, and requests
//!   carry no version.
//! - **Modern** (2026-07-28 and later): no handshake; every request carries the envelope in
//!   `params._meta` (`io.modelcontextprotocol/protocolVersion`, `…/clientCapabilities`,
//!   `…/clientInfo`) and every result a `resultType`.
//!
//! The era of a client request is read from the request itself ([`crate::message`] keeps the
//! envelope's version). The requests the proxy makes on its own behalf and the answers it
//! gives in the server's place are shaped here for the era of the request they serve.

use serde_json::Value;

use crate::message::{self, Id};

/// The `_meta` key of a modern request's protocol version.
pub const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The modern protocol versions the proxy speaks (`--listen` accepts these besides
/// [`LEGACY_VERSIONS`]).
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// The handshake-era versions a client may name.
pub const LEGACY_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The era a request is in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Era {
    /// The handshake era: no envelope.
    #[default]
    Legacy,
    /// The envelope's protocol version.
    Modern(String),
}

impl Era {
    /// The era of a request whose envelope names `version` (`None`: no envelope).
    pub fn of(version: Option<&str>) -> Era {
        match version {
            Some(version) => Era::Modern(version.to_owned()),
            None => Era::Legacy,
        }
    }

    /// Whether `version` is one the proxy knows, of either era.
    pub fn known(version: &str) -> bool {
        MODERN_VERSIONS.contains(&version) || LEGACY_VERSIONS.contains(&version)
    }

    /// Whether `version` names the modern era (a version the proxy knows as modern, or any
    /// later date: a version is an ISO date, and the modern era began with 2026-07-28).
    pub fn is_modern_version(version: &str) -> bool {
        version >= MODERN_VERSIONS[0]
    }

    /// For the log.
    pub fn name(&self) -> &str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern(version) => version,
        }
    }
}

/// The `_meta` envelope of a request the proxy makes itself in the modern era: the version of
/// the client request it serves, no capabilities, and the proxy's own name.
fn envelope(version: &str) -> String {
    format!(
        "{{{}:{},\"io.modelcontextprotocol/clientCapabilities\":{{}},\"io.modelcontextprotocol/clientInfo\":{{\"name\":\"stitch-proxy\",\"version\":\"{}\"}}}}",
        Value::from(VERSION_KEY),
        Value::from(version),
        env!("CARGO_PKG_VERSION")
    )
}

/// A `tools/list` request line the proxy sends on its own behalf, shaped for `era`.
pub fn list_request(id: &Id, cursor: Option<&str>, era: &Era) -> Vec<u8> {
    let mut params = Vec::new();
    if let Some(cursor) = cursor {
        params.push(format!("\"cursor\":{}", Value::from(cursor)));
    }
    if let Era::Modern(version) = era {
        params.push(format!("\"_meta\":{}", envelope(version)));
    }
    let params = if params.is_empty() {
        String::new()
    } else {
        format!(",\"params\":{{{}}}", params.join(","))
    };
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/list\"{params}}}\n",
        id.raw
    )
    .into_bytes()
}

/// The tool result of a refused call: one text content holding stitch's messages, and
/// `isError: true`, so the model reads why and retries. In the modern era a result states
/// its `resultType`.
pub fn refusal_line(id: &Id, messages: &str, era: &Era) -> Vec<u8> {
    let text = Value::from(messages);
    let result_type = match era {
        Era::Legacy => "",
        Era::Modern(_) => ",\"resultType\":\"complete\"",
    };
    message::result_line(
        id,
        &format!(
            "{{\"content\":[{{\"type\":\"text\",\"text\":{text}}}],\"isError\":true{result_type}}}"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(line: &[u8]) -> Value {
        serde_json::from_slice(line).unwrap()
    }

    #[test]
    fn a_modern_listing_carries_the_envelope_naming_the_proxy() {
        let id = Id::own("own-1");
        let line = list_request(&id, Some("p2"), &Era::Modern("2026-07-28".into()));
        assert_eq!(line.iter().filter(|b| **b == b'\n').count(), 1);
        let value = json(&line);
        assert_eq!(value["params"]["cursor"], "p2");
        let meta = &value["params"]["_meta"];
        assert_eq!(meta[VERSION_KEY], "2026-07-28");
        assert_eq!(
            meta["io.modelcontextprotocol/clientCapabilities"],
            serde_json::json!({})
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"]["name"],
            "stitch-proxy"
        );
    }

    #[test]
    fn a_legacy_listing_has_no_envelope() {
        let value = json(&list_request(&Id::own("a"), None, &Era::Legacy));
        assert!(value.get("params").is_none(), "{value}");
        let value = json(&list_request(&Id::own("a"), Some("c"), &Era::Legacy));
        assert_eq!(value["params"], serde_json::json!({"cursor": "c"}));
    }

    #[test]
    fn a_modern_refusal_is_a_complete_result() {
        let id = Id::of_text("7");
        let modern = json(&refusal_line(
            &id,
            "paths is …",
            &Era::Modern("2026-07-28".into()),
        ));
        assert_eq!(modern["result"]["resultType"], "complete");
        assert_eq!(modern["result"]["isError"], true);
        assert_eq!(modern["id"], 7);
        let legacy = json(&refusal_line(&id, "paths is …", &Era::Legacy));
        assert!(legacy["result"].get("resultType").is_none());
        assert_eq!(legacy["result"]["content"][0]["text"], "paths is …");
    }

    #[test]
    fn versions_are_sorted_into_eras() {
        assert!(Era::is_modern_version("2026-07-28"));
        assert!(Era::is_modern_version("2027-01-01"));
        assert!(!Era::is_modern_version("2025-11-25"));
        assert!(Era::known("2025-06-18") && Era::known("2026-07-28"));
        assert!(!Era::known("1900-01-01"));
    }
}
