//! The proxy between a test (the client) and the fake MCP server (tests/support), over real
//! pipes: what reaches the server, what comes back, logs, exit codes and signals.

use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::support::*;
use serde_json::{json, Value};

#[test]
fn a_clean_call_reaches_the_server_byte_for_byte() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    // Odd spacing, key order and an escaped character: forwarded exactly as written.
    let line = r#"{ "params" : {"arguments":{"paths":"[preview].png"}, "name":"view", "_meta":{"progressToken":"p"}}, "id":2,"method":"tools/call","jsonrpc":"2.0" }"#;
    s.send(line);
    let answer = s.answer(&json!(2));
    assert_eq!(tool_text(&answer), r#"view {"paths":"[preview].png"}"#);
    for (id, paths) in [
        (3, json!("null")),
        (4, json!("123")),
        (5, json!(["a.png", "[b"])),
    ] {
        let answer = s.call(id, "view", json!({ "paths": paths }));
        assert_eq!(
            tool_text(&answer),
            format!("view {}", json!({ "paths": paths }))
        );
    }
    let record = s.record();
    assert!(record.iter().any(|l| l == line), "{record:#?}");
    // The client's own list was enough: the proxy asked nothing itself.
    assert!(
        !record.iter().any(|l| l.contains("stitch-proxy-")),
        "{record:#?}"
    );
    let (status, _) = s.finish();
    assert!(status.success());
}

#[test]
fn the_end_of_the_clients_input_waits_for_the_held_calls() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tag","arguments":{"tags":"[\"t\"]"}}}"#);
    drop(s.stdin.take());
    assert_eq!(tool_text(&s.answer(&json!(1))), r#"tag {"tags":["t"]}"#);
    let status = wait(&mut s.child);
    assert!(status.success());
}

#[test]
fn a_list_written_as_text_is_refused_by_name_and_never_reaches_the_server() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    let answer = s.call(7, "view", json!({"paths": "[\"a.png\", \"b.png\"]"}));
    assert_eq!(answer["id"], json!(7));
    assert!(is_error(&answer), "{answer}");
    assert_eq!(answer["result"]["content"].as_array().unwrap().len(), 1);
    assert_eq!(answer["result"]["content"][0]["type"], "text");
    assert_eq!(tool_text(&answer), format!("paths {TEXT_LIST}"));
    // A string id is echoed as written.
    s.send(r#"{"jsonrpc":"2.0","id":"a\u0062","method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"x\"]"}}}"#);
    let line = s.recv_line();
    assert!(
        line.starts_with(r#"{"jsonrpc":"2.0","id":"a\u0062","result":"#),
        "{line}"
    );
    s.call(8, "echo", json!({"text": "after"}));
    let calls = calls(&s.record());
    assert_eq!(calls.len(), 1, "{calls:#?}");
    assert_eq!(calls[0]["id"], json!(8));
}

#[test]
fn json_text_where_no_string_is_expected_is_repaired() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    s.send(r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"tag","arguments":{"tags":"[\"x\", \"y\"]"},"_meta":{"progressToken":9}}}"#);
    let answer = s.answer(&json!(9));
    assert_eq!(tool_text(&answer), r#"tag {"tags":["x","y"]}"#);
    assert!(!is_error(&answer));
    let record = s.record();
    // Only the repaired string changed: it is the list as the client wrote it in the string.
    assert!(
        record.iter().any(|l| l
            == r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"tag","arguments":{"tags":["x", "y"]},"_meta":{"progressToken":9}}}"#),
        "{record:#?}"
    );
}

#[test]
fn a_call_before_any_list_waits_for_the_proxys_own_list_of_every_page() {
    // Pages of two tools: the proxy follows nextCursor through all of them.
    let mut s = Session::start(&["--log", "debug"], &["--page-size", "2"]);
    s.initialize();
    // No tools/list from the client: the proxy asks, holding the calls and what follows.
    s.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tag","arguments":{"tags":"[\"t\"]"}}}"#);
    s.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#);
    s.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"a\"]"}}}"#);
    s.send(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
    let mut ids = Vec::new();
    for _ in 0..3 {
        let message = s.recv();
        ids.push(message["id"].clone());
        match message["id"].as_i64() {
            Some(1) => assert_eq!(tool_text(&message), r#"tag {"tags":["t"]}"#),
            Some(2) => assert!(is_error(&message) && tool_text(&message).contains(TEXT_LIST)),
            Some(3) => assert_eq!(message["result"], json!({})),
            _ => panic!("an answer to an id the client never sent: {message}"),
        }
    }
    ids.sort_by_key(|id| id.as_i64());
    assert_eq!(ids, [json!(1), json!(2), json!(3)]);
    let record = s.record();
    let lists: Vec<Value> = record[2..]
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .take_while(|m| m["method"] == "tools/list")
        .collect();
    // 15 tools in pages of 2: eight requests, the later ones with the cursor.
    assert_eq!(lists.len(), 8, "{record:#?}");
    assert!(lists
        .iter()
        .all(|m| m["id"].as_str().unwrap().starts_with("stitch-proxy-")));
    assert_eq!(lists[1]["params"]["cursor"], "2");
    // Then the held lines, in the client's order, the refused call left out.
    let rest: Vec<Value> = record[2 + lists.len()..]
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .collect();
    assert_eq!(rest.len(), 3, "{record:#?}");
    assert_eq!(rest[0]["id"], json!(1));
    assert_eq!(rest[0]["params"]["arguments"]["tags"], json!(["t"]));
    assert_eq!(rest[1]["method"], "notifications/roots/list_changed");
    assert_eq!(rest[2]["method"], "ping");
    // Nothing else reached the client.
    assert!(s.stdout.recv_timeout(Duration::from_millis(200)).is_err());
    let (status, stderr) = s.finish();
    assert!(status.success());
    assert!(
        stderr.contains("15 tools learnt from 8 page(s)"),
        "{stderr}"
    );
}

#[test]
fn the_schemas_are_refreshed_after_list_changed() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    let answer = s.call(2, "tag", json!({"tags": "[\"a\"]"}));
    assert_eq!(tool_text(&answer), r#"tag {"tags":["a"]}"#);
    // `swap` makes `tags` a plain string and adds `late`.
    let answer = s.call(3, "swap", json!({}));
    assert_eq!(tool_text(&answer), "swapped");
    assert!(s
        .seen
        .iter()
        .any(|m| m["method"] == "notifications/tools/list_changed"));
    let line = r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"tag","arguments":{"tags":"[\"a\"]"}}}"#;
    s.send(line);
    assert_eq!(tool_text(&s.answer(&json!(4))), r#"tag {"tags":"[\"a\"]"}"#);
    assert!(s.record().iter().any(|l| l == line));
    let answer = s.call(5, "late", json!({"items": "[\"x\"]"}));
    assert_eq!(tool_text(&answer), r#"late {"items":["x"]}"#);
}

#[test]
fn everything_else_passes_through_unchanged_and_in_order() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    // Progress notifications come before the result, as the server sent them.
    s.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"tok"}}}"#);
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push(s.recv());
    }
    assert_eq!(got[0]["method"], "notifications/progress");
    assert_eq!(got[0]["params"]["progressToken"], "tok");
    assert_eq!(got[1]["params"]["progress"], 2);
    assert_eq!(tool_text(&got[2]), "progress done");
    // A request from the server (sampling) reaches the client; its answer reaches the server.
    s.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"sample","arguments":{}}}"#);
    let sampling = s.recv();
    assert_eq!(sampling["method"], "sampling/createMessage");
    assert_eq!(sampling["id"], "server-1");
    let reply = r#"{"jsonrpc":"2.0","id":"server-1","result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}"#;
    s.send(reply);
    assert_eq!(tool_text(&s.answer(&json!(3))), r#"sampled "hi""#);
    // An unknown method's error, a cancellation, a batch.
    let answer = s.request(json!(4), "frobnicate", json!({}));
    assert_eq!(answer["error"]["code"], -32601);
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"late"}}"#;
    s.send(cancel);
    let batch = r#"[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":6,"method":"ping"}]"#;
    s.send(batch);
    let answers = s.recv();
    assert_eq!(
        answers,
        json!([{"jsonrpc":"2.0","id":5,"result":{}},{"jsonrpc":"2.0","id":6,"result":{}}])
    );
    let record = s.record();
    for line in [reply, cancel, batch] {
        assert!(
            record.iter().any(|l| l == line),
            "{line} not in {record:#?}"
        );
    }
    let (status, _) = s.finish();
    assert!(status.success());
}

#[test]
fn malformed_json_from_either_side_never_stops_the_proxy() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.send("this is not JSON {");
    assert_eq!(
        s.recv(),
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})
    );
    s.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\u{fffd}\"}");
    assert_eq!(s.answer(&json!(1))["result"], json!({}));
    // The server's garbage is forwarded as it came, and traffic goes on.
    s.request(json!(2), "tools/list", json!({}));
    s.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"garbage","arguments":{}}}"#);
    assert_eq!(s.recv_line(), "this is not JSON");
    assert_eq!(tool_text(&s.recv()), "garbage sent");
    // Valid JSON that is no message goes to the server, which answers it.
    s.send("42");
    assert_eq!(
        s.recv(),
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}})
    );
    assert!(!s.record().iter().any(|l| l.contains("this is not JSON")));
    assert_eq!(s.request(json!(4), "ping", json!({}))["result"], json!({}));
}

#[test]
fn stdout_carries_only_protocol_and_logs_go_to_stderr_by_level() {
    for (level, refusal_logged) in [
        ("debug", true),
        ("info", true),
        ("warn", false),
        ("error", false),
    ] {
        let mut s = Session::start(&["--log", level], &[]);
        s.initialize();
        s.request(json!(1), "tools/list", json!({}));
        s.call(2, "view", json!({"paths": "[\"a\"]"}));
        s.call(3, "tag", json!({"tags": "[\"a\"]"}));
        // Every line on stdout was JSON (`recv` checks), and nothing more is there.
        assert!(s.stdout.recv_timeout(Duration::from_millis(100)).is_err());
        let (status, stderr) = s.finish();
        assert!(status.success());
        assert_eq!(
            stderr.contains("stitch-proxy: info: call 2 to view refused: paths\n"),
            refusal_logged,
            "--log {level}: {stderr}"
        );
        assert_eq!(
            stderr.contains("stitch-proxy: info: call 3 to tag repaired: tags\n"),
            refusal_logged,
            "{stderr}"
        );
        // Paths, never values.
        assert!(
            !stderr.contains("[\\\"a\\\"]") && !stderr.contains("[\"a\"]"),
            "{stderr}"
        );
        assert_eq!(
            stderr.contains("stitch-proxy: debug: "),
            level == "debug",
            "{stderr}"
        );
        assert!(
            stderr.lines().all(|l| l.starts_with("stitch-proxy: ")),
            "{stderr}"
        );
    }
}

#[test]
fn the_servers_exit_code_is_passed_on() {
    let mut s = Session::start(&[], &["--exit-code", "7"]);
    s.initialize();
    let (status, _) = s.finish();
    assert_eq!(status.code(), Some(7));
}

#[test]
fn a_server_that_dies_mid_call_gives_each_pending_call_an_error() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    // The second request is already on its way when the server exits.
    s.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crash","arguments":{}}}"#);
    s.send(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
    for id in [2, 3] {
        let answer = s.answer(&json!(id));
        assert_eq!(answer["error"]["code"], -32000, "{answer}");
        assert!(answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("exited before answering"));
    }
    let status = wait(&mut s.child);
    assert_eq!(status.code(), Some(3));
}

#[cfg(unix)]
#[test]
fn a_server_killed_by_a_signal_kills_the_proxy_with_it() {
    use std::os::unix::process::ExitStatusExt;
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    s.send(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"kill","arguments":{}}}"#,
    );
    assert_eq!(s.answer(&json!(2))["error"]["code"], -32000);
    let status = wait(&mut s.child);
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status}");
}

#[cfg(unix)]
#[test]
fn sigterm_to_the_proxy_goes_to_the_server() {
    use std::os::unix::process::ExitStatusExt;
    let mut s = Session::start(&[], &[]);
    s.initialize();
    // SAFETY: a signal to the proxy this test started.
    unsafe {
        libc::kill(s.child.id() as i32, libc::SIGTERM);
    }
    // The fake server dies of it (default action), and the proxy passes that on.
    let status = wait(&mut s.child);
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status}");
}

#[test]
fn a_server_that_cannot_list_its_tools_gets_the_calls_unchecked() {
    let mut s = Session::start(&[], &["--list-error"]);
    s.initialize();
    let answer = s.call(1, "view", json!({"paths": "[\"a\"]"}));
    assert_eq!(tool_text(&answer), r#"view {"paths":"[\"a\"]"}"#);
    let (_, stderr) = s.finish();
    assert!(
        stderr.contains("the server did not list its tools"),
        "{stderr}"
    );
}

#[test]
fn a_tool_whose_schema_cannot_be_read_is_forwarded_unchecked() {
    let mut s = Session::start(&[], &[]);
    s.initialize();
    s.request(json!(1), "tools/list", json!({}));
    let answer = s.call(2, "odd", json!({"paths": "[\"a\"]"}));
    assert_eq!(tool_text(&answer), r#"odd {"paths":"[\"a\"]"}"#);
    let (_, stderr) = s.finish();
    assert!(
        stderr.contains("stitch-proxy: warn: the inputSchema of tool odd cannot be read (")
            && stderr.contains("its calls pass unchecked"),
        "{stderr}"
    );
}

#[test]
fn a_server_that_cannot_start_is_a_clear_error() {
    let out = Command::new(PROXY)
        .args(["--", "/nonexistent/stitch-proxy-test-server"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("cannot start \"/nonexistent/stitch-proxy-test-server\""),
        "{stderr}"
    );
    let out = Command::new(PROXY).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("usage: stitch-proxy"));
}

/// Thousands of calls pipelined without waiting, refused, repaired and plain mixed with
/// notifications: each gets exactly one answer with its own id, and the server sees exactly
/// the calls that were not refused, in order, with the notifications where they were sent.
#[test]
fn under_load_nothing_is_lost_or_reordered() {
    const CALLS: i64 = 3000;
    let mut s = Session::start(&[], &[]);
    s.initialize();
    let mut stdin = s.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        // The first call comes before any list: the proxy holds it and what follows.
        let mut text = String::new();
        for id in 1..=CALLS {
            let line = match id % 3 {
                0 => json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
                    "params":{"name":"view","arguments":{"paths":format!("[\"{id}.png\"]")}}}),
                1 => json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
                    "params":{"name":"tag","arguments":{"tags":format!("[\"{id}\"]")}}}),
                _ => json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
                    "params":{"name":"view","arguments":{"paths":format!("{id}.png")}}}),
            };
            text.push_str(&line.to_string());
            text.push('\n');
            if id % 10 == 0 {
                text.push_str(&format!(
                    "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":{id},\"progress\":1}}}}\n"
                ));
            }
            if text.len() > 1 << 14 {
                stdin.write_all(text.as_bytes()).unwrap();
                text.clear();
            }
        }
        stdin.write_all(text.as_bytes()).unwrap();
        stdin
    });
    let start = Instant::now();
    let mut answered = vec![0u32; CALLS as usize + 1];
    for _ in 0..CALLS {
        let remaining = Duration::from_secs(60).saturating_sub(start.elapsed());
        let line = s
            .stdout
            .recv_timeout(remaining)
            .expect("every call is answered in time");
        let answer: Value = serde_json::from_str(&line).unwrap();
        let id = answer["id"].as_i64().unwrap_or_else(|| panic!("{answer}"));
        answered[id as usize] += 1;
        match id % 3 {
            0 => assert!(
                is_error(&answer) && tool_text(&answer).contains(TEXT_LIST),
                "{answer}"
            ),
            1 => assert_eq!(
                tool_text(&answer),
                format!("tag {}", json!({"tags": [id.to_string()]}))
            ),
            _ => assert_eq!(
                tool_text(&answer),
                format!("view {}", json!({"paths": format!("{id}.png")}))
            ),
        }
    }
    assert!(answered[1..].iter().all(|&n| n == 1));
    assert!(
        s.stdout.recv_timeout(Duration::from_millis(200)).is_err(),
        "an extra answer"
    );
    s.stdin = Some(writer.join().unwrap());
    let record = s.record();
    let seen: Vec<Value> = record
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|m| m["method"] == "tools/call" || m["method"] == "notifications/progress")
        .collect();
    let expected: Vec<(String, i64)> = (1..=CALLS)
        .flat_map(|id| {
            let call = (id % 3 != 0).then(|| ("tools/call".to_owned(), id));
            let note = (id % 10 == 0).then(|| ("notifications/progress".to_owned(), id));
            call.into_iter().chain(note)
        })
        .collect();
    let got: Vec<(String, i64)> = seen
        .iter()
        .map(|m| {
            let id = m["id"]
                .as_i64()
                .or(m["params"]["progressToken"].as_i64())
                .unwrap();
            (m["method"].as_str().unwrap().to_owned(), id)
        })
        .collect();
    assert_eq!(got, expected);
    let (status, _) = s.finish();
    assert!(status.success());
}
