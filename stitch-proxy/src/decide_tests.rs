//! The decision's own tests (src/decide.rs): `--report-only`, `--check`, `--skip` and the
//! records, lines in, actions out.

use super::super::{Action, Core, Options};
use super::Selection;
use crate::record::{Issue, Outcome, Record};

/// What the core asked for since the last look: lines to each side and records.
#[derive(Default, Debug)]
struct Out {
    server: Vec<String>,
    client: Vec<String>,
    records: Vec<Record>,
}

fn take(core: &mut Core) -> Out {
    let mut out = Out::default();
    for action in core.take_actions_compiled() {
        match action {
            Action::ToServer(line) => out.server.push(String::from_utf8(line).unwrap()),
            Action::ToClient(line) => out.client.push(String::from_utf8(line).unwrap()),
            Action::Record(record) => out.records.push(*record),
            _ => {}
        }
    }
    out
}

const TOOLS: &str = r#"{"jsonrpc":"2.0","id":"l","result":{"tools":[{"name":"view","inputSchema":{"type":"object","properties":{"paths":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]},"tags":{"type":"array","items":{"type":"string"}}}}},{"name":"tag","inputSchema":{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}}]}}"#;

/// A core whose server listed `view` and `tag` (the client's own `tools/list`).
fn listed(options: Options) -> Core {
    // Records at debug are asked for only when that level is logged.
    crate::log::set_level(crate::log::Level::Debug);
    let mut core = Core::new(options);
    core.client_sent(br#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#.to_vec());
    core.server_sent(TOOLS.as_bytes().to_vec());
    take(&mut core);
    core
}

fn call(id: u32, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
}

fn issue(path: &str, rule: &'static str) -> Issue {
    Issue {
        path: path.into(),
        rule,
    }
}

#[test]
fn report_only_forwards_every_call_as_it_came_and_records_what_would_have_happened() {
    let mut core = listed(Options {
        report_only: true,
        ..Options::default()
    });
    let refused = call(1, "view", r#"{"paths": "[\"a.png\"]"}"#);
    let repaired = call(2, "tag", r#"{"tags": "[\"x\"]"}"#);
    let clean = call(3, "view", r#"{"paths": ["a.png"]}"#);
    for line in [&refused, &repaired, &clean] {
        core.client_sent(line.clone().into_bytes());
    }
    let out = take(&mut core);
    assert_eq!(
        out.server,
        [
            format!("{refused}\n"),
            format!("{repaired}\n"),
            format!("{clean}\n")
        ],
        "every call reaches the server byte for byte"
    );
    assert!(out.client.is_empty(), "no refusal: {:?}", out.client);
    let actions: Vec<(&str, Outcome, &[Issue])> = out
        .records
        .iter()
        .map(|r| (r.id.as_str(), r.outcome, r.issues.as_slice()))
        .collect();
    assert_eq!(
        actions,
        [
            ("1", Outcome::WouldRefuse, &[issue("paths", "R3")][..]),
            ("2", Outcome::WouldRepair, &[issue("tags", "R1")][..]),
            ("3", Outcome::Forwarded, &[][..]),
        ]
    );
    assert_eq!(out.records[0].tool, "view");
    assert_eq!(out.records[0].era, "handshake");
    // The server's answers reach the client: the calls were pending.
    core.server_sent(br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#.to_vec());
    assert_eq!(take(&mut core).client.len(), 1);
}

#[test]
fn without_report_only_the_same_calls_are_refused_and_repaired() {
    let mut core = listed(Options::default());
    core.client_sent(call(1, "view", r#"{"paths": "[\"a.png\"]"}"#).into_bytes());
    core.client_sent(call(2, "tag", r#"{"tags": "[\"x\"]"}"#).into_bytes());
    let out = take(&mut core);
    assert_eq!(
        out.server,
        [format!("{}\n", call(2, "tag", r#"{"tags": ["x"]}"#))]
    );
    assert_eq!(out.client.len(), 1);
    assert!(out.client[0].contains(r#""isError":true"#));
    let outcomes: Vec<Outcome> = out.records.iter().map(|r| r.outcome).collect();
    assert_eq!(outcomes, [Outcome::Refused, Outcome::Repaired]);
}

fn selection(only: Option<&[&str]>, skip: &[&str]) -> Selection {
    Selection {
        only: only.map(|names| names.iter().map(|n| n.to_string()).collect()),
        skip: skip.iter().map(|n| n.to_string()).collect(),
    }
}

#[test]
fn check_and_skip_choose_the_tools_that_are_checked() {
    let refused_view = call(1, "view", r#"{"paths": "[\"a\"]"}"#);
    let repaired_tag = call(2, "tag", r#"{"tags": "[\"x\"]"}"#);
    for (tools, view_checked, tag_checked) in [
        (selection(None, &["view"]), false, true),
        (selection(Some(&["view"]), &[]), true, false),
        (selection(Some(&["view", "tag"]), &["tag"]), true, false),
        (selection(Some(&["nothing"]), &[]), false, false),
    ] {
        let mut core = listed(Options {
            tools: tools.clone(),
            ..Options::default()
        });
        core.client_sent(refused_view.clone().into_bytes());
        core.client_sent(repaired_tag.clone().into_bytes());
        let out = take(&mut core);
        let reached_view = out.server.iter().any(|l| l.contains(r#""[\"a\"]""#));
        let tag_as_sent = out.server.iter().any(|l| l.contains(r#""[\"x\"]""#));
        assert_eq!(reached_view, !view_checked, "{tools:?}");
        assert_eq!(tag_as_sent, !tag_checked, "{tools:?}");
        let unchecked = out
            .records
            .iter()
            .filter(|r| r.outcome == Outcome::Unchecked)
            .count();
        assert_eq!(
            unchecked,
            usize::from(!view_checked) + usize::from(!tag_checked),
            "{tools:?}"
        );
    }
}

#[test]
fn a_skipped_tool_does_not_wait_for_the_list_and_report_only_still_records() {
    let mut core = Core::new(Options {
        report_only: true,
        tools: selection(None, &["tag"]),
        ..Options::default()
    });
    crate::log::set_level(crate::log::Level::Debug);
    let skipped = call(1, "tag", r#"{"tags": "[\"x\"]"}"#);
    core.client_sent(skipped.clone().into_bytes());
    let out = take(&mut core);
    assert_eq!(out.server, [format!("{skipped}\n")], "no tools/list first");
    assert_eq!(out.records[0].outcome, Outcome::Unchecked);
    // A checked tool waits for the list as ever.
    core.client_sent(call(2, "view", r#"{"paths": "[\"a\"]"}"#).into_bytes());
    let out = take(&mut core);
    assert_eq!(out.server.len(), 1);
    assert!(out.server[0].contains(r#""method":"tools/list""#));
}

#[test]
fn unknown_names_are_found_against_the_list() {
    let tools = selection(Some(&["view", "veiw"]), &["tga"]);
    let unknown = tools.unknown(&|name| name == "view" || name == "tag");
    assert_eq!(unknown, [("--check", "veiw"), ("--skip", "tga")]);
}

#[test]
fn a_records_session_is_the_routings() {
    let mut core = listed(Options::default());
    core.set_session("abc".into());
    core.client_sent(call(1, "view", r#"{"paths": "[\"a\"]"}"#).into_bytes());
    let out = take(&mut core);
    assert_eq!(out.records[0].session.as_deref(), Some("abc"));
}
