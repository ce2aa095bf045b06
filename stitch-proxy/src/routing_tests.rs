//! The routing's own tests (src/routing.rs): lines in, actions out, no IO.

use super::*;

/// What the core asked to send to the server and to the client since the last look.
#[derive(Default)]
struct Sides {
    server: Vec<String>,
    client: Vec<String>,
}

fn take(core: &mut Core) -> Sides {
    let mut sides = Sides::default();
    for action in core.take_actions_compiled() {
        match action {
            Action::ToServer(line) => sides.server.push(String::from_utf8(line).unwrap()),
            Action::ToClient(line) => sides.client.push(String::from_utf8(line).unwrap()),
            Action::EndServer => sides.server.push("END".into()),
            Action::Timer(..) | Action::Compile(..) | Action::Record(..) => {}
        }
    }
    sides
}

#[test]
fn answers_to_the_servers_requests_never_wait_behind_a_held_call() {
    let mut proxy = Core::new(Options::default());
    proxy.client_sent(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":"[1]"}}}"#.to_vec());
    proxy.client_sent(br#"{"jsonrpc":"2.0","method":"notifications/x"}"#.to_vec());
    proxy.client_sent(br#"{"jsonrpc":"2.0","id":"s1","result":{}}"#.to_vec());
    proxy.client_closed();
    // The proxy's own list request, then the answer to the server's request; the call
    // and the notification wait.
    let first = take(&mut proxy);
    assert!(first.client.is_empty(), "{:?}", first.client);
    let sent = first.server;
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(sent[0].contains(r#""method":"tools/list""#), "{sent:?}");
    assert_eq!(
        sent[1],
        "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}\n"
    );
    let own_id: serde_json::Value = serde_json::from_str(&sent[0]).unwrap();
    let answer = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"tools":[{{"name":"t","inputSchema":{{"type":"object","properties":{{"x":{{"type":"array"}}}}}}}}]}}}}"#,
        own_id["id"]
    );
    proxy.server_sent(answer.into_bytes());
    let released = take(&mut proxy);
    // Released in order: the repaired call, the notification, then the end of input.
    assert_eq!(
        released.server,
        [
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"x\":[1]}}}\n",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}\n",
            "END",
        ]
    );
    // The answer to the proxy's own request never reached the client.
    assert!(released.client.is_empty());
}

/// A modern call (the envelope in `params._meta`): the proxy's own listing carries the
/// envelope at the call's version, and the refusal is a complete modern result.
#[test]
fn a_modern_call_is_listed_and_refused_in_its_era() {
    let mut proxy = Core::new(Options::default());
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":"00-a-b-01"}"#;
    proxy.client_sent(
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#)
            .into_bytes(),
    );
    proxy.client_sent(format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"v","arguments":{{"paths":"[\"a.png\"]"}},{meta}}}}}"#).into_bytes());
    let sent = take(&mut proxy).server;
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(sent[0].contains("server/discover"), "forwarded as it came");
    let own: serde_json::Value = serde_json::from_str(&sent[1]).unwrap();
    assert_eq!(own["method"], "tools/list");
    assert_eq!(
        own["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    let answer = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[{{"name":"v","inputSchema":{{"type":"object","properties":{{"paths":{{"anyOf":[{{"type":"string"}},{{"type":"array","items":{{"type":"string"}}}}]}}}}}}}}]}}}}"#,
        own["id"]
    );
    proxy.server_sent(answer.into_bytes());
    let sides = take(&mut proxy);
    assert!(
        sides.server.is_empty(),
        "the refused call never reaches the server"
    );
    let answered = sides.client;
    assert_eq!(answered.len(), 1, "{answered:?}");
    let refusal: serde_json::Value = serde_json::from_str(&answered[0]).unwrap();
    assert_eq!(refusal["id"], 2);
    assert_eq!(refusal["result"]["resultType"], "complete");
    assert_eq!(refusal["result"]["isError"], true);
    assert_eq!(
        refusal["result"]["content"][0]["text"],
        "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
    );
    // A legacy call after it is refused in its own era.
    proxy.client_sent(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"v","arguments":{"paths":"[\"b\"]"}}}"#.to_vec());
    let legacy: serde_json::Value = serde_json::from_str(&take(&mut proxy).client[0]).unwrap();
    assert_eq!(legacy["id"], 3);
    assert!(legacy["result"].get("resultType").is_none(), "{legacy}");
}

/// A modern server's `input_required` result reaches the client as it came, and the retry
/// that carries `inputResponses` is judged like any call.
#[test]
fn an_input_required_round_trip_passes_and_its_retry_is_checked() {
    let mut proxy = Core::new(Options::default());
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":"00-ab-cd-01"}"#;
    proxy.client_sent(
        format!(r#"{{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{{{meta}}}}}"#)
            .into_bytes(),
    );
    proxy.server_sent(br#"{"jsonrpc":"2.0","id":"l","result":{"resultType":"complete","ttlMs":60000,"cacheScope":"public","tools":[{"name":"v","inputSchema":{"type":"object","properties":{"paths":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]}}}}]}}"#.to_vec());
    let listed = take(&mut proxy).client;
    assert!(
        listed[0].contains(r#""ttlMs":60000,"cacheScope":"public""#),
        "{listed:?}"
    );
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"v","arguments":{{"paths":"a.png"}},{meta}}}}}"#
    );
    proxy.client_sent(call.clone().into_bytes());
    assert_eq!(
        take(&mut proxy).server,
        [format!("{call}\n")],
        "forwarded as it came, traceparent included"
    );
    let interim = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"ask":{"method":"elicitation/create","params":{"message":"which?"}}},"requestState":"s1"}}"#;
    proxy.server_sent(interim.as_bytes().to_vec());
    assert_eq!(take(&mut proxy).client, [format!("{interim}\n")]);
    proxy.client_sent(format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"v","arguments":{{"paths":"[\"a\"]"}},"inputResponses":{{"ask":{{"action":"accept"}}}},"requestState":"s1",{meta}}}}}"#).into_bytes());
    let sides = take(&mut proxy);
    assert!(sides.server.is_empty(), "{:?}", sides.server);
    let refusal: serde_json::Value = serde_json::from_str(&sides.client[0]).unwrap();
    assert_eq!(refusal["id"], 2);
    assert_eq!(refusal["result"]["resultType"], "complete");
}

/// The tools' schemas compile off the routing (`Action::Compile`): while they do, a call
/// waits for them and starts no listing of its own, and the server's lines do not wait.
#[test]
fn a_call_waits_for_its_schemas_to_compile_and_the_servers_lines_do_not() {
    let mut proxy = Core::new(Options::default());
    proxy.client_sent(br#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#.to_vec());
    proxy.server_sent(br#"{"jsonrpc":"2.0","id":"l","result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"x":{"type":"array"}}}}]}}"#.to_vec());
    let mut job = None;
    let mut lines = 0;
    for action in proxy.take_actions() {
        match action {
            Action::Compile(asked) => job = Some(asked),
            Action::ToServer(_) | Action::ToClient(_) => lines += 1,
            action => panic!("{action:?}"),
        }
    }
    let job = job.expect("the list is compiled");
    assert_eq!(lines, 2, "the list request and its answer went on");
    proxy.client_sent(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":"[1]"}}}"#.to_vec());
    proxy
        .server_sent(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#.to_vec());
    let meanwhile = proxy.take_actions();
    assert_eq!(
        meanwhile,
        [Action::ToClient(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n".to_vec()
        )],
        "the call waits and asks for no list; the server's notification goes on"
    );
    proxy.compiled(job.run());
    assert_eq!(
        take(&mut proxy).server,
        ["{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"x\":[1]}}}\n"]
    );
}

/// Compile results are put in place in the order they were asked for, whichever ends first.
#[test]
fn compile_results_are_put_in_place_in_the_order_asked_for() {
    let mut proxy = Core::new(Options::default());
    let mut jobs = Vec::new();
    for (id, kind) in [("a", "array"), ("b", "string")] {
        proxy.client_sent(
            format!(r#"{{"jsonrpc":"2.0","id":"{id}","method":"tools/list"}}"#).into_bytes(),
        );
        proxy.server_sent(format!(r#"{{"jsonrpc":"2.0","id":"{id}","result":{{"tools":[{{"name":"t","inputSchema":{{"type":"object","properties":{{"x":{{"type":"{kind}"}}}}}}}}]}}}}"#).into_bytes());
        for action in proxy.take_actions() {
            if let Action::Compile(job) = action {
                jobs.push(job);
            }
        }
    }
    let [first, second] = <[_; 2]>::try_from(jobs).unwrap();
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":"[1]"}}}"#;
    proxy.client_sent(call.as_bytes().to_vec());
    proxy.compiled(second.run());
    assert!(
        take(&mut proxy).server.is_empty(),
        "the second list waits for the first"
    );
    proxy.compiled(first.run());
    // The second list is the one in place: `x` is a string there, and the call goes as it came.
    assert_eq!(take(&mut proxy).server, [format!("{call}\n")]);
}
