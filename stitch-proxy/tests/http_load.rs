//! Issue #23's load: 1 000 calls through `--listen` and through `--upstream`, each answered
//! once with its own id, and 20 concurrent sessions, each with its own child — on loopback,
//! every wait bounded. (How fast is BENCHMARKS.md's; here only that nothing is lost or
//! doubled.)

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::support::http::{open, post, request, Listen};
use crate::support::{PROXY, WAIT};
use serde_json::Value;

const CALLS: usize = 1000;

fn call(id: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"tag","arguments":{{"tags":"[\"t{id}\"]"}}}}}}"#
    )
}

/// The answer to call `id`, as the fake server writes it (the repaired list).
fn answer(id: usize) -> String {
    format!(
        r#"{{"id":{id},"jsonrpc":"2.0","result":{{"content":[{{"text":"tag {{\"tags\":[\"t{id}\"]}}","type":"text"}}]}}}}"#
    )
}

#[test]
fn a_thousand_calls_through_listen_each_answered_once() {
    let listen = Arc::new(Listen::fake(&[]));
    let session = Arc::new(open(&listen.addr));
    let workers: Vec<_> = (0..4)
        .map(|worker| {
            let (listen, session) = (listen.clone(), session.clone());
            thread::spawn(move || {
                for id in (worker..CALLS).step_by(4) {
                    let reply = post(&listen.addr, Some(&session), &call(id));
                    assert_eq!(reply.status, 200);
                    // Exactly one event on the call's stream: its own answer.
                    assert_eq!(reply.events(), [answer(id)]);
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    let calls = listen
        .record()
        .iter()
        .filter(|line| line.contains("tools/call"))
        .count();
    assert_eq!(calls, CALLS);
}

#[test]
fn a_thousand_calls_through_upstream_each_answered_once() {
    let listen = Listen::fake(&[]);
    let mut up = Command::new(PROXY)
        .args(["--upstream", &listen.url()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = up.stdin.take().unwrap();
    let stdout = up.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let mut answers: HashMap<usize, Vec<String>> = HashMap::new();
        let mut lines = BufReader::new(stdout).lines();
        for _ in 0..=CALLS {
            let Some(Ok(line)) = lines.next() else { break };
            let message: Value = serde_json::from_str(&line).unwrap();
            let id = message["id"].as_u64().expect("an answer with an id") as usize;
            answers.entry(id).or_default().push(line);
        }
        answers
    });
    let init = r#"{"jsonrpc":"2.0","id":100000,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let mut input =
        format!("{init}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n");
    for id in 0..CALLS {
        input.push_str(&call(id));
        input.push('\n');
    }
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    // The reader ends after CALLS + 1 answers; a lost one leaves it waiting for the proxy's
    // end, which closing its input brings within a bounded time.
    let deadline = Instant::now() + 6 * WAIT;
    while !reader.is_finished() {
        assert!(Instant::now() < deadline, "the answers did not all come");
        thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    let answers = reader.join().unwrap();
    assert_eq!(answers.len(), CALLS + 1);
    for id in 0..CALLS {
        assert_eq!(answers[&id], [answer(id)], "call {id}");
    }
    let _ = up.wait();
}

#[test]
fn twenty_concurrent_sessions_each_with_its_own_child() {
    let listen = Arc::new(Listen::fake(&[]));
    let barrier = Arc::new(std::sync::Barrier::new(20));
    let sessions: Vec<_> = (0..20)
        .map(|n| {
            let (listen, barrier) = (listen.clone(), barrier.clone());
            thread::spawn(move || {
                let session = open(&listen.addr);
                barrier.wait();
                let children = listen.children().len();
                for id in 0..5 {
                    let id = n * 100 + id;
                    assert_eq!(
                        post(&listen.addr, Some(&session), &call(id)).events(),
                        [answer(id)]
                    );
                }
                barrier.wait();
                let deleted = request(&listen.addr, "DELETE", &[("Mcp-Session-Id", &session)], b"");
                assert_eq!(deleted.status, 200);
                (session, children)
            })
        })
        .collect();
    let mut ids = Vec::new();
    for session in sessions {
        let (id, children) = session.join().unwrap();
        // While all twenty were open, twenty children ran.
        assert_eq!(children, 20);
        ids.push(id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 20);
    let deadline = Instant::now() + WAIT;
    while !listen.children().is_empty() {
        assert!(
            Instant::now() < deadline,
            "children left: {:?}",
            listen.children()
        );
        thread::sleep(Duration::from_millis(20));
    }
}
