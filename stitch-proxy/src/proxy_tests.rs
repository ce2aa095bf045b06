//! The routing's own tests (src/proxy.rs), in process.

use super::*;
use std::sync::mpsc::{self, Receiver};

fn lines(queue: &Receiver<Out>) -> Vec<String> {
    queue
        .try_iter()
        .map(|out| match out {
            Out::Line(line) => String::from_utf8(line).unwrap(),
            Out::End => "END".into(),
        })
        .collect()
}

#[test]
fn answers_to_the_servers_requests_never_wait_behind_a_held_call() {
    let (to_server, server) = mpsc::channel();
    let (to_client, client) = mpsc::channel();
    let proxy = Proxy::new(to_server, to_client, Options::default(), None);
    proxy.client_sent(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":"[1]"}}}"#.to_vec());
    proxy.client_sent(br#"{"jsonrpc":"2.0","method":"notifications/x"}"#.to_vec());
    proxy.client_sent(br#"{"jsonrpc":"2.0","id":"s1","result":{}}"#.to_vec());
    proxy.client_closed();
    // The proxy's own list request, then the answer to the server's request; the call
    // and the notification wait.
    let sent = lines(&server);
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
    // Released in order: the repaired call, the notification, then the end of input.
    assert_eq!(
        lines(&server),
        [
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"x\":[1]}}}\n",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}\n",
            "END",
        ]
    );
    // The answer to the proxy's own request never reached the client.
    assert!(lines(&client).is_empty());
}
