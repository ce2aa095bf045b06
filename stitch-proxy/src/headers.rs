//! The HTTP headers of a modern-era request (MCP 2026-07-28, Streamable HTTP): what the body
//! says, mirrored where an intermediary can read it without the body.
//!
//! - `MCP-Protocol-Version`: the envelope's version;
//! - `Mcp-Method`: the JSON-RPC method, on every POST;
//! - `Mcp-Name`: `params.name` of `tools/call` and `prompts/get`, `params.uri` of
//!   `resources/read`;
//! - `Mcp-Param-{Name}`: for a `tools/call`, each argument whose property in the tool's
//!   `inputSchema` carries `"x-mcp-header": "{Name}"`.
//!
//! A value that is not plain visible ASCII (or has white space at either end, or looks like
//! the sentinel itself) is written `=?base64?{Base64 of its UTF-8}?=`. `--upstream` writes
//! these headers from the body it sends, after any repair; `--listen` checks a client's
//! against the body it received.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::Value;

/// One `x-mcp-header` parameter of a tool: the header's name part and the chain of
/// `properties` keys that leads to the argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub token: String,
    pub path: Vec<String>,
}

/// Reads a tool's `x-mcp-header` parameters. An annotation only counts on a property reached
/// from the root through `properties` alone, of type string, integer or boolean, its name an
/// HTTP token unique (ignoring case) in the schema; `Err` says why one does not, which makes
/// the whole tool invalid for the specification (the proxy then leaves its headers to the
/// client). Bounded by the schema's own nesting of `properties`, at most 64 levels.
pub fn params_of(schema: &Value) -> Result<Vec<Param>, String> {
    let mut params = Vec::new();
    let mut stack = vec![(schema, Vec::new())];
    while let Some((node, path)) = stack.pop() {
        if path.len() > 64 {
            return Err("x-mcp-header parameters nest deeper than 64 properties".into());
        }
        if let Some(token) = node.get("x-mcp-header") {
            let Some(token) = token.as_str().filter(|t| is_token(t)) else {
                return Err(format!("x-mcp-header {token} is not an HTTP token"));
            };
            let primitive = matches!(
                node.get("type").and_then(Value::as_str),
                Some("string" | "integer" | "boolean")
            );
            if path.is_empty() || !primitive {
                return Err(format!(
                    "x-mcp-header {token} is not on a string, integer or boolean property"
                ));
            }
            if params
                .iter()
                .any(|p: &Param| p.token.eq_ignore_ascii_case(token))
            {
                return Err(format!("x-mcp-header {token} is given twice"));
            }
            params.push(Param {
                token: token.to_owned(),
                path: path.clone(),
            });
        }
        if let Some(Value::Object(properties)) = node.get("properties") {
            for (key, property) in properties {
                let mut next = path.clone();
                next.push(key.clone());
                stack.push((property, next));
            }
        }
    }
    params.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(params)
}

/// RFC 9110's `token`: one or more `tchar`.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

const SENTINEL: (&str, &str) = ("=?base64?", "?=");

/// A value as a header carries it: as it is when that is safe, else in the Base64 form.
pub fn encode(value: &str) -> String {
    let visible = value
        .bytes()
        .all(|b| b == b' ' || b == b'\t' || b.is_ascii_graphic());
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let sentinel = value.starts_with(SENTINEL.0) && value.ends_with(SENTINEL.1);
    let plain = visible && !padded && !sentinel;
    if plain {
        value.to_owned()
    } else {
        format!("{}{}{}", SENTINEL.0, STANDARD.encode(value), SENTINEL.1)
    }
}

/// What a header value stands for: the Base64 form decoded (`None` when it is malformed or
/// not UTF-8), any other value as it is.
pub fn decode(value: &str) -> Option<String> {
    match value
        .strip_prefix(SENTINEL.0)
        .and_then(|rest| rest.strip_suffix(SENTINEL.1))
    {
        Some(encoded) => String::from_utf8(STANDARD.decode(encoded).ok()?).ok(),
        None => Some(value.to_owned()),
    }
}

/// A request body's version, method and the value of its `Mcp-Name`, when it is a modern
/// request or notification (its `params._meta` names a protocol version).
pub struct Modern<'a> {
    pub version: &'a str,
    pub method: &'a str,
    pub name: Option<&'a str>,
    /// `tools/call`'s tool and arguments.
    pub call: Option<(&'a str, &'a Value)>,
}

/// Reads what the standard headers mirror from a message; `None` for a message of the
/// handshake era, a response or a batch.
pub fn modern(body: &Value) -> Option<Modern<'_>> {
    let method = body.get("method")?.as_str()?;
    let params = body.get("params");
    let version = params?
        .get("_meta")?
        .get(crate::era::VERSION_KEY)?
        .as_str()?;
    let name_key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => "",
    };
    let name = params.and_then(|p| p.get(name_key)).and_then(Value::as_str);
    let call = match (method, name, params.and_then(|p| p.get("arguments"))) {
        ("tools/call", Some(tool), Some(arguments)) => Some((tool, arguments)),
        _ => None,
    };
    Some(Modern {
        version,
        method,
        name,
        call,
    })
}

/// The text of an argument as its `Mcp-Param-*` header carries it (before encoding); `None`
/// when the argument is absent, null or not a primitive.
pub fn param_value(arguments: &Value, param: &Param) -> Option<String> {
    let mut at = arguments;
    for key in &param.path {
        at = at.get(key)?;
    }
    match at {
        Value::String(text) => Some(text.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Every header a modern message carries, as `(name, value)`; `params` are the
/// `x-mcp-header` parameters of the tool it calls, if any.
pub fn of_modern(modern: &Modern<'_>, params: &[Param]) -> Vec<(String, String)> {
    let mut headers = vec![
        ("mcp-protocol-version".to_owned(), modern.version.to_owned()),
        ("mcp-method".to_owned(), encode(modern.method)),
    ];
    if let Some(name) = modern.name {
        headers.push(("mcp-name".to_owned(), encode(name)));
    }
    if let Some((_, arguments)) = modern.call {
        for param in params {
            if let Some(value) = param_value(arguments, param) {
                headers.push((format!("mcp-param-{}", param.token), encode(&value)));
            }
        }
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_encoded_as_the_specification_shows() {
        assert_eq!(encode("us-west1"), "us-west1");
        assert_eq!(encode("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(
            encode("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        for value in [
            "us-west1",
            "Hello, 世界",
            " padded ",
            "a\r\nb",
            "=?base64?x?=",
        ] {
            assert_eq!(decode(&encode(value)).as_deref(), Some(value));
        }
        assert_eq!(decode("=?base64?!!?="), None);
    }

    #[test]
    fn only_statically_reachable_primitives_are_parameters() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "opts": {"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}},
            "q": {"type": "string"}
        }});
        let params = params_of(&schema).unwrap();
        assert_eq!(
            params,
            [
                Param {
                    token: "N".into(),
                    path: vec!["opts".into(), "n".into()]
                },
                Param {
                    token: "Region".into(),
                    path: vec!["region".into()]
                },
            ]
        );
        let number = json!({"properties": {"x": {"type": "number", "x-mcp-header": "X"}}});
        assert!(params_of(&number).is_err());
        let twice = json!({"properties": {
            "a": {"type": "string", "x-mcp-header": "A"},
            "b": {"type": "string", "x-mcp-header": "a"}
        }});
        assert!(params_of(&twice).is_err());
        let bad = json!({"properties": {"a": {"type": "string", "x-mcp-header": "A B"}}});
        assert!(params_of(&bad).is_err());
    }

    #[test]
    fn a_modern_call_has_every_header_from_its_body() {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "sql", "arguments": {"region": "eu west ", "opts": {"n": 42}, "flag": true},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
        }});
        let params = vec![
            Param {
                token: "Region".into(),
                path: vec!["region".into()],
            },
            Param {
                token: "N".into(),
                path: vec!["opts".into(), "n".into()],
            },
            Param {
                token: "Missing".into(),
                path: vec!["nope".into()],
            },
        ];
        let headers = of_modern(&modern(&body).unwrap(), &params);
        let get = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("mcp-protocol-version"), Some("2026-07-28"));
        assert_eq!(get("mcp-method"), Some("tools/call"));
        assert_eq!(get("mcp-name"), Some("sql"));
        assert_eq!(get("mcp-param-Region"), Some("=?base64?ZXUgd2VzdCA=?="));
        assert_eq!(get("mcp-param-N"), Some("42"));
        assert_eq!(get("mcp-param-Missing"), None);
        let legacy =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}});
        assert!(modern(&legacy).is_none());
    }
}
