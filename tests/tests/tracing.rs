//! The `tracing` feature: one event per refused issue (`WARN`) and per repair (`DEBUG`) under
//! the target `stitch`, none for a clean call, and argument values only once switched on.
//!
//! A small capturing subscriber, set for the running thread only; the tests of this binary
//! take one lock, since the values switch is the process's. A binary of its own: tracing
//! caches whether a callsite is wanted, and a test of another binary reaching stitch's events
//! on a thread with no subscriber could make this one's subscriber miss them.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Deserialize;
use serde_json::{json, Value};
use stitch_runtime::{Args, OneOrMany, Reported, ToolArgs};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// One captured event: its level, target and fields (as text).
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    level: Level,
    target: String,
    fields: BTreeMap<String, String>,
}

impl Seen {
    fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
}

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<Seen>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        self.0.lock().unwrap().push(Seen {
            level: *event.metadata().level(),
            target: event.metadata().target().to_owned(),
            fields,
        });
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// The events `f` emits on this thread.
fn events(f: impl FnOnce()) -> Vec<Seen> {
    let capture = Capture::default();
    tracing::subscriber::with_default(capture.clone(), f);
    let seen = capture.0.lock().unwrap().clone();
    seen
}

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Row {
    line: u32,
    names: OneOrMany<String>,
}

/// Mark names on lines.
#[derive(Debug, Deserialize, ToolArgs)]
struct Edit {
    file: String,
    rows: Vec<Row>,
    #[serde(default)]
    tags: Vec<String>,
}

const TOOL: &str = "tracing::Edit";

/// `(path, kind, outcome)` of each event, after checking what every stitch event has.
fn described(seen: &[Seen], level: Level) -> Vec<(String, String, String)> {
    seen.iter()
        .map(|e| {
            assert_eq!(e.target, "stitch");
            assert_eq!(e.level, level);
            assert_eq!(e.field("tool"), Some(TOOL));
            let get = |name: &str| e.field(name).unwrap().to_owned();
            (get("path"), get("kind"), get("outcome"))
        })
        .collect()
}

fn triple(path: &str, kind: &str, outcome: &str) -> (String, String, String) {
    (path.to_owned(), kind.to_owned(), outcome.to_owned())
}

/// Every surface, each given `args` (as a value or as its text).
fn on_every_surface(args: &Value) -> Vec<Vec<Seen>> {
    let text = args.to_string();
    vec![
        events(|| drop(Edit::from_value(args.clone()))),
        events(|| drop(Edit::from_json(&text))),
        events(|| drop(Edit::coerce_value(&mut args.clone()))),
        events(|| drop(serde_json::from_str::<Args<Edit>>(&text))),
        events(|| drop(Edit::from_value_reported(args.clone()))),
        events(|| drop(Edit::from_json_reported(&text))),
        events(|| drop(Edit::coerce_value_reported(&mut args.clone()))),
        events(|| drop(serde_json::from_str::<Reported<Edit>>(&text))),
    ]
}

#[test]
fn a_refused_call_emits_one_warning_per_issue() {
    let _serial = serial();
    let args = json!({"rows": [{"line": "x", "names": "a"}, {"line": 2, "names": "[\"a\"]"}]});
    for seen in on_every_surface(&args) {
        assert_eq!(
            described(&seen, Level::WARN),
            [
                triple("file", "invalid", "refused"),
                triple("rows.0.line", "invalid", "refused"),
                triple("rows.1.names", "text_list", "refused"),
            ]
        );
        // No values: the reason (serde's words quote the value) is left out.
        assert!(seen.iter().all(|e| e.field("reason").is_none()));
    }
}

#[test]
fn arguments_that_are_not_json_are_one_refusal() {
    let _serial = serial();
    let seen = events(|| drop(Edit::from_json("{file: \"a\"}")));
    assert_eq!(
        described(&seen, Level::WARN),
        [triple("", "invalid", "refused")]
    );
}

#[test]
fn a_repaired_call_emits_one_debug_event_per_repair() {
    let _serial = serial();
    let args = json!({"file": "f", "rows": "[{\"line\": 1, \"names\": \"a\"}]", "tags": "[\"x\"]"});
    for seen in on_every_surface(&args) {
        assert_eq!(
            described(&seen, Level::DEBUG),
            [
                triple("rows", "json_text", "repaired"),
                triple("tags", "json_text", "repaired"),
            ]
        );
        assert!(seen.iter().all(|e| e.field("sent").is_none()));
    }
}

#[test]
fn null_at_a_defaulted_field_emits_a_repair() {
    let _serial = serial();
    let args = json!({"file": "f", "rows": [], "tags": null});
    for seen in on_every_surface(&args) {
        assert_eq!(
            described(&seen, Level::DEBUG),
            [triple("tags", "null_left_out", "repaired")]
        );
    }
    stitch_runtime::trace_values(true);
    let on = events(|| drop(Edit::from_value(args.clone())));
    stitch_runtime::trace_values(false);
    assert_eq!(on[0].field("sent"), Some("null"));
}

#[test]
fn a_clean_call_emits_nothing() {
    let _serial = serial();
    let args = json!({"file": "f", "rows": [{"line": 1, "names": "[b].png"}], "tags": ["x"]});
    for seen in on_every_surface(&args) {
        assert_eq!(seen, []);
    }
}

#[test]
fn values_are_traced_only_once_switched_on() {
    let _serial = serial();
    let refused = json!({"file": "f", "rows": [{"line": "x", "names": "a"}]});
    let repaired = json!({"file": "f", "rows": [], "tags": "[\"secret\"]"});
    stitch_runtime::trace_values(true);
    let on = (
        events(|| drop(Edit::from_value(refused.clone()))),
        events(|| drop(Edit::from_value(repaired.clone()))),
    );
    stitch_runtime::trace_values(false);
    let off = (
        events(|| drop(Edit::from_value(refused.clone()))),
        events(|| drop(Edit::from_value(repaired.clone()))),
    );
    assert_eq!(
        on.0[0].field("reason"),
        Some("rows.0.line: invalid type: string \"x\", expected u32")
    );
    assert_eq!(on.1[0].field("sent"), Some("[\"secret\"]"));
    assert_eq!(off.0[0].field("reason"), None);
    assert_eq!(off.1[0].field("sent"), None);
    assert_eq!(on.0.len(), off.0.len());
}
