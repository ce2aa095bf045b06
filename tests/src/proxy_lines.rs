//! The check of the fuzz target `proxy_lines`: arbitrary lines through `stitch-proxy`'s
//! message path (the routing, in process), in front of a server that lists three tools.
//!
//! Input: the first byte chooses the mode (bit 0: `--refuse-invalid`); the rest is lines, a
//! line starting with `S` being one the server sends (without the `S`), any other one the
//! client's. What must hold, line by line:
//!
//! - nothing panics, and every line the proxy writes is one line (one `\n`, at its end, and
//!   no `\r`): nothing a client writes inside a string becomes a message of its own;
//! - a client line is forwarded to the server, or answered, or (blank) dropped — a request
//!   (an id and a method) gets exactly one of the two, a notification is forwarded;
//! - a `tools/call` to a listed tool whose arguments the rules neither refuse nor repair
//!   (`coerce_rules_only`, on the arguments as `serde_json` reads them, when it can) reaches
//!   the server as the client's exact bytes, but for carriage returns (`as_sent`);
//! - a forwarded line is JSON whenever the client's was, and an answer the proxy writes is
//!   JSON.

use serde_json::{json, Value};
use stitch_proxy::routing::{Core, Options};
use stitch_runtime::json_schema::Coercer;

use crate::checks::Outcome;

/// The tools the server lists.
fn tools() -> Value {
    let strings = json!({"type": "array", "items": {"type": "string"}});
    json!([
        {"name": "view", "inputSchema": {"type": "object", "properties": {
            "paths": {"anyOf": [{"type": "string"}, strings]}}, "required": ["paths"]}},
        {"name": "tag", "inputSchema": {"type": "object", "properties": {
            "tags": strings, "n": {"type": "integer", "minimum": 0},
            "meta": {"type": "object", "properties": {"k": strings}},
            "opt": {"type": "string"}}}},
        {"name": "open", "inputSchema": {"type": "object",
            "patternProperties": {"^x-": strings}, "additionalProperties": false}}
    ])
}

/// One line of a newline-delimited stream: one `\n`, at its end, and no carriage return a
/// reader could take for a line end (a JSON line holds neither raw: nothing is smuggled).
fn one_line(line: &[u8]) -> bool {
    line.last() == Some(&b'\n')
        && line.iter().filter(|b| **b == b'\n').count() == 1
        && !line.contains(&b'\r')
}

/// The client's line as an untouched call leaves the proxy: its exact bytes, but a CRLF ending
/// becomes `\n` and a raw CR inside (white space, in JSON) a space, so that no reader takes it
/// for a line end.
fn as_sent(line: &[u8]) -> Vec<u8> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut out: Vec<u8> = line
        .iter()
        .map(|&b| if b == b'\r' { b' ' } else { b })
        .collect();
    out.push(b'\n');
    out
}

fn is_json(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|text| stitch_proxy::raw::parse(text).is_some())
}

/// A tool call as `serde_json` reads it: its tool's name and its arguments.
type Call = (String, Value);

/// What `serde_json` reads of a client line: `(has id, has method, tool call)`.
fn read(line: &[u8]) -> Option<(bool, bool, Option<Call>)> {
    let value: Value = serde_json::from_slice(line).ok()?;
    let object = value.as_object()?;
    let method = object.get("method").map(Value::is_string);
    let call = (object.get("method") == Some(&json!("tools/call")))
        .then(|| {
            let params = object.get("params")?.as_object()?;
            let name = params.get("name")?.as_str()?.to_owned();
            Some((name, params.get("arguments")?.clone()))
        })
        .flatten();
    Some((object.contains_key("id"), method == Some(true), call))
}

/// Answers the proxy's own `tools/list` requests among `server` (lines the proxy sent the
/// server) with the same tools, until it asks no more; returns what it sent the client.
fn answer_own_lists(proxy: &mut Core, mut server: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let mut to_client = Vec::new();
    loop {
        let own: Vec<Value> = server
            .iter()
            .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
            .filter(|m| {
                m["method"] == "tools/list"
                    && m["id"]
                        .as_str()
                        .is_some_and(|id| id.starts_with("stitch-proxy-"))
            })
            .collect();
        if own.is_empty() {
            return to_client;
        }
        server = Vec::new();
        for request in own {
            let answer =
                json!({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": tools()}});
            proxy.server_sent(answer.to_string().into_bytes());
            let (more, client) = proxy.take_lines();
            server.extend(more);
            to_client.extend(client);
        }
    }
}

/// Runs the lines of `data` through the proxy's routing; `Err` names a broken promise.
pub fn proxy_input(data: &[u8]) -> Outcome {
    let Some((&mode, lines)) = data.split_first() else {
        return Ok(());
    };
    // The proxy's warnings (a line that is not JSON…) are expected here.
    stitch_proxy::log::set_level(stitch_proxy::log::Level::Error);
    let options = Options {
        refuse_invalid: mode & 1 == 1,
        ..Options::default()
    };
    let mut proxy = Core::new(options.clone());
    proxy.client_sent(br#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#.to_vec());
    let listed = json!({"jsonrpc": "2.0", "id": "l", "result": {"tools": tools()}});
    proxy.server_sent(listed.to_string().into_bytes());
    proxy.take_lines();
    let coercers: Vec<(String, Coercer)> = tools()
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let name = t["name"].as_str().unwrap().to_owned();
            (name, Coercer::new(&t["inputSchema"]).unwrap())
        })
        .collect();

    // Whether a server line may have changed what the proxy knows of the tools (a list the
    // client asked for): the check of untouched calls, which knows the tools above, stops.
    let mut tools_changed = false;
    for line in lines.split(|b| *b == b'\n') {
        let mut sent = line.to_vec();
        sent.push(b'\n');
        if let Some(rest) = line.strip_prefix(b"S") {
            let mut rest = rest.to_vec();
            rest.push(b'\n');
            tools_changed |= rest.windows(7).any(|w| w == b"\"tools\"");
            proxy.server_sent(rest);
            let (server, mut client) = proxy.take_lines();
            // `notifications/tools/list_changed`: the proxy asks again; the server answers.
            client.extend(answer_own_lists(&mut proxy, server));
            for out in client {
                if !one_line(&out) {
                    return Err(format!("a server line became {out:?}"));
                }
            }
            continue;
        }
        proxy.client_sent(sent.clone());
        let (forwarded, answered) = proxy.take_lines();
        for out in forwarded.iter().chain(&answered) {
            if !one_line(out) {
                return Err(format!("{line:?} became {out:?}"));
            }
        }
        for out in &answered {
            if !is_json(out) {
                return Err(format!("the proxy answered {line:?} with {out:?}"));
            }
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if is_json(line) {
            for out in &forwarded {
                if !is_json(out) {
                    return Err(format!("{line:?} was forwarded as {out:?}, not JSON"));
                }
            }
        }
        let Some((id, method, call)) = read(line) else {
            continue;
        };
        if id && method && forwarded.len() + answered.len() != 1 {
            return Err(format!(
                "the request {line:?} was forwarded {} and answered {} times",
                forwarded.len(),
                answered.len()
            ));
        }
        let Some((name, arguments)) = call else {
            continue;
        };
        let Some((_, coercer)) = coercers.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        if !id || arguments.is_null() || options.refuse_invalid || tools_changed {
            continue;
        }
        let mut coerced = arguments.clone();
        if coercer.coerce_rules_only(&mut coerced).is_ok()
            && coerced == arguments
            && forwarded != [as_sent(line)]
        {
            return Err(format!(
                "a call the rules leave alone was not forwarded untouched: {line:?} became {forwarded:?}"
            ));
        }
    }
    Ok(())
}
