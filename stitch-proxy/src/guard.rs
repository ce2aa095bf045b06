//! The checks every HTTP request passes before any MCP processing (DNS rebinding): its `Host`
//! and its `Origin` must name an allowed host. The allow-list defaults to the loopback names.

/// The hosts a request may name, without port: `localhost`, `127.0.0.1` and `::1` by default.
#[derive(Clone, Debug, PartialEq)]
pub struct Allowed {
    hosts: Vec<String>,
}

impl Default for Allowed {
    fn default() -> Allowed {
        Allowed {
            hosts: vec!["localhost".into(), "127.0.0.1".into(), "::1".into()],
        }
    }
}

impl Allowed {
    /// Adds a host name (`--allow-host`), compared without case; `*` allows any.
    pub fn add(&mut self, host: &str) {
        self.hosts
            .push(host.trim_matches(['[', ']']).to_ascii_lowercase());
    }

    fn allows(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.hosts
            .iter()
            .any(|allowed| allowed == "*" || *allowed == host)
    }

    /// Whether a `Host` header value (`name[:port]`, `[v6][:port]`) names an allowed host.
    pub fn host(&self, value: &[u8]) -> bool {
        let Ok(value) = std::str::from_utf8(value) else {
            return false;
        };
        host_of_authority(value).is_some_and(|host| self.allows(host))
    }

    /// Whether an `Origin` header value (`scheme://host[:port]`) names an allowed host. The
    /// value `null` (a sandboxed page, a file) is refused.
    pub fn origin(&self, value: &[u8]) -> bool {
        let Ok(value) = std::str::from_utf8(value) else {
            return false;
        };
        let Some(rest) = value
            .strip_prefix("http://")
            .or_else(|| value.strip_prefix("https://"))
        else {
            return false;
        };
        if rest.contains(['/', '?', '#', '@']) {
            return false;
        }
        host_of_authority(rest).is_some_and(|host| self.allows(host))
    }
}

/// The host of `host[:port]` or `[v6][:port]`; `None` when malformed.
fn host_of_authority(authority: &str) -> Option<&str> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let end = rest.find(']')?;
        let after = &rest[end + 1..];
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':')?),
        };
        (&rest[..end], port)
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if let Some(port) = port {
        if port.is_empty() || port.len() > 5 || !port.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    if host.is_empty() || host.contains(|c: char| c.is_whitespace() || c == '/' || c == '@') {
        return None;
    }
    Some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_by_default() {
        let allowed = Allowed::default();
        for host in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:9",
            "[::1]",
            "LOCALHOST",
        ] {
            assert!(allowed.host(host.as_bytes()), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:80",
            "localhost.evil.example",
            "127.0.0.1.nip.io",
            "",
            "localhost:",
            "localhost:x",
            "[::1",
            "[::2]:1",
            "user@localhost",
            "0.0.0.0",
        ] {
            assert!(!allowed.host(host.as_bytes()), "{host}");
        }
        assert!(!allowed.host(b"\xff"));
        for origin in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:1",
        ] {
            assert!(allowed.origin(origin.as_bytes()), "{origin}");
        }
        for origin in [
            "null",
            "http://evil.example",
            "http://localhost.evil.example",
            "file://localhost",
            "http://localhost/path",
            "http://evil.example@localhost",
            "localhost",
        ] {
            assert!(!allowed.origin(origin.as_bytes()), "{origin}");
        }
    }

    #[test]
    fn hosts_added() {
        let mut allowed = Allowed::default();
        allowed.add("MCP.Example.org");
        allowed.add("[fd00::1]");
        assert!(allowed.host(b"mcp.example.org:443"));
        assert!(allowed.origin(b"https://mcp.example.org"));
        assert!(allowed.host(b"[fd00::1]:8080"));
        assert!(!allowed.host(b"example.org"));
        allowed.add("*");
        assert!(allowed.host(b"anything"));
    }
}
