//! The record of each decision about a `tools/call` (refused, repaired, what `--report-only`
//! would have done, forwarded unchecked), written on standard error as text or, with
//! `--log-format json`, as one JSON object a line; and the tally of every call, written as a
//! one-line summary when the proxy exits. A record names paths and rules, never a value.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;

use crate::log::{self, Level};

/// What became of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Answered by the proxy with stitch's messages; the server never saw it.
    Refused,
    /// Forwarded with the repaired strings replaced.
    Repaired,
    /// `--report-only`: it would have been refused; forwarded as it came.
    WouldRefuse,
    /// `--report-only`: it would have been repaired; forwarded as it came.
    WouldRepair,
    /// Forwarded without a check: the tool is left out (`--check`, `--skip`), has no schema
    /// the proxy can read, or is not listed (yet).
    Unchecked,
    /// Checked and forwarded as it came (logged at `--log debug` only).
    Forwarded,
}

impl Outcome {
    /// The action's name in a record.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Refused => "refused",
            Outcome::Repaired => "repaired",
            Outcome::WouldRefuse => "would-refuse",
            Outcome::WouldRepair => "would-repair",
            Outcome::Unchecked => "unchecked",
            Outcome::Forwarded => "forwarded",
        }
    }

    /// The level at which its record is written: a decision at `info`, a call forwarded as
    /// it came at `debug`.
    pub fn level(self) -> Level {
        match self {
            Outcome::Unchecked | Outcome::Forwarded => Level::Debug,
            _ => Level::Info,
        }
    }
}

/// One position of a call the rule spoke of, and which rule (`R1`: JSON text repaired, `R3`:
/// a list written as text, `R7`: too deep, `R8`: a `null` dropped, `invalid` / `schema`: what
/// `--refuse-invalid` refuses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    pub path: String,
    pub rule: &'static str,
}

/// The record of one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// `handshake`, or the modern era's protocol version.
    pub era: String,
    /// The `--listen` session (`Mcp-Session-Id`) the call came in.
    pub session: Option<String>,
    /// The request id's JSON text as the client wrote it.
    pub id: String,
    pub tool: String,
    pub outcome: Outcome,
    pub issues: Vec<Issue>,
}

impl Record {
    /// The record as one JSON object (no line end), stamped `time`.
    pub fn json(&self, time: &str) -> String {
        let mut out = String::with_capacity(160);
        let _ = write!(
            out,
            r#"{{"time":{},"level":"{}","event":"call","era":{}"#,
            quoted(time),
            self.outcome.level().name(),
            quoted(&self.era)
        );
        if let Some(session) = &self.session {
            let _ = write!(out, r#","session":{}"#, quoted(session));
        }
        // The id as JSON; one a client wrote over several lines, as a string.
        let id = if self.id.contains(['\n', '\r']) {
            quoted(&self.id)
        } else {
            self.id.clone()
        };
        let _ = write!(
            out,
            r#","id":{id},"tool":{},"action":"{}","issues":["#,
            quoted(&self.tool),
            self.outcome.name()
        );
        for (i, issue) in self.issues.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            let _ = write!(
                out,
                r#"{comma}{{"path":{},"rule":"{}"}}"#,
                quoted(&issue.path),
                issue.rule
            );
        }
        out.push_str("]}");
        out
    }

    /// The record as the text format's line (after `stitch-proxy: <level>: `).
    pub fn text(&self) -> String {
        let paths = || {
            let named: Vec<&str> = self
                .issues
                .iter()
                .map(|i| match i.path.as_str() {
                    "" => "the arguments",
                    path => path,
                })
                .collect();
            named.join(", ")
        };
        let what = match self.outcome {
            Outcome::Refused => format!("refused: {}", paths()),
            Outcome::Repaired => format!("repaired: {}", paths()),
            Outcome::WouldRefuse => {
                format!(
                    "would be refused (report only, forwarded as it came): {}",
                    paths()
                )
            }
            Outcome::WouldRepair => {
                format!(
                    "would be repaired (report only, forwarded as it came): {}",
                    paths()
                )
            }
            Outcome::Unchecked => "forwarded unchecked".to_owned(),
            Outcome::Forwarded => "forwarded as it came".to_owned(),
        };
        match &self.session {
            Some(session) => format!(
                "session {session}: call {} to {} {what}",
                self.id, self.tool
            ),
            None => format!("call {} to {} {what}", self.id, self.tool),
        }
    }

    /// Writes the record on standard error, in the format asked for.
    pub fn write(&self) {
        let level = self.outcome.level();
        if log::json() {
            log::line(&self.json(&now()));
        } else {
            log::write(level, format_args!("{}", self.text()));
        }
    }
}

/// `text` as a JSON string.
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// How many calls of each outcome one tool had.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub calls: u64,
    pub refused: u64,
    pub repaired: u64,
    pub would_refuse: u64,
    pub would_repair: u64,
    pub unchecked: u64,
}

impl Counts {
    fn add(&mut self, outcome: Outcome) {
        self.calls += 1;
        match outcome {
            Outcome::Refused => self.refused += 1,
            Outcome::Repaired => self.repaired += 1,
            Outcome::WouldRefuse => self.would_refuse += 1,
            Outcome::WouldRepair => self.would_repair += 1,
            Outcome::Unchecked => self.unchecked += 1,
            Outcome::Forwarded => {}
        }
    }

    fn plus(&mut self, other: &Counts) {
        self.calls += other.calls;
        self.refused += other.refused;
        self.repaired += other.repaired;
        self.would_refuse += other.would_refuse;
        self.would_repair += other.would_repair;
        self.unchecked += other.unchecked;
    }

    /// `5 calls, 2 refused, …`: the counts that are not zero, calls always.
    fn text(&self) -> String {
        let mut out = format!("{} calls", self.calls);
        for (n, name) in self.named() {
            if n > 0 {
                let _ = write!(out, ", {n} {name}");
            }
        }
        out
    }

    fn json(&self) -> String {
        let mut out = format!(r#"{{"calls":{}"#, self.calls);
        for (n, name) in self.named() {
            let _ = write!(out, r#","{}":{n}"#, name.replace(' ', "_"));
        }
        out.push('}');
        out
    }

    fn named(&self) -> [(u64, &'static str); 5] {
        [
            (self.refused, "refused"),
            (self.repaired, "repaired"),
            (self.would_refuse, "would refuse"),
            (self.would_repair, "would repair"),
            (self.unchecked, "unchecked"),
        ]
    }
}

/// The most tool names the summary counts apart.
pub const MAX_TOOLS: usize = 1000;
/// The longest tool name the summary keeps (a message may be 64 MiB: a thousand names of that
/// size would be held for the whole run); a longer one is counted under [`OTHER_TOOLS`].
pub const MAX_TOOL_NAME: usize = 128;
/// The name the calls to every other tool are counted under.
pub const OTHER_TOOLS: &str = "(other tools)";

/// The calls of a run, by tool.
#[derive(Debug, Default)]
pub struct Tally {
    by_tool: BTreeMap<String, Counts>,
}

impl Tally {
    /// Counts one call to `tool`. Past [`MAX_TOOLS`] names (a client may name any tool, and
    /// a hostile one a new tool each call), and for a name longer than [`MAX_TOOL_NAME`], the
    /// calls are counted under [`OTHER_TOOLS`].
    pub fn add(&mut self, tool: &str, outcome: Outcome) {
        if let Some(counts) = self.by_tool.get_mut(tool) {
            counts.add(outcome);
            return;
        }
        let name = if self.by_tool.len() < MAX_TOOLS && tool.len() <= MAX_TOOL_NAME {
            tool
        } else {
            OTHER_TOOLS
        };
        self.by_tool
            .entry(name.to_owned())
            .or_default()
            .add(outcome);
    }

    /// Every tool's counts added up.
    pub fn total(&self) -> Counts {
        let mut total = Counts::default();
        for counts in self.by_tool.values() {
            total.plus(counts);
        }
        total
    }

    /// The counts of `tool`.
    pub fn of(&self, tool: &str) -> Counts {
        self.by_tool.get(tool).copied().unwrap_or_default()
    }

    /// The summary's text line: `summary: 7 calls, 1 refused; view: 4 calls, 1 refused; …`.
    pub fn text(&self) -> String {
        let mut out = format!("summary: {}", self.total().text());
        for (tool, counts) in &self.by_tool {
            let _ = write!(out, "; {tool}: {}", counts.text());
        }
        out
    }

    /// The summary as one JSON object, stamped `time`.
    pub fn json(&self, time: &str) -> String {
        let mut out = format!(
            r#"{{"time":{},"level":"info","event":"summary","total":{},"tools":{{"#,
            quoted(time),
            self.total().json()
        );
        for (i, (tool, counts)) in self.by_tool.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            let _ = write!(out, "{comma}{}:{}", quoted(tool), counts.json());
        }
        out.push_str("}}");
        out
    }
}

/// The tally of the whole run, every session's calls in it.
static TALLY: Mutex<Tally> = Mutex::new(Tally {
    by_tool: BTreeMap::new(),
});

/// Counts one call to `tool` in the run's tally; nothing below `info`, where no summary is
/// written (the level is set once, at start), so a clean call takes no lock then.
pub fn count(tool: &str, outcome: Outcome) {
    if !log::enabled(Level::Info) {
        return;
    }
    TALLY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .add(tool, outcome);
}

/// Writes the run's summary on standard error (at `info`), in the format asked for.
pub fn write_summary() {
    if !log::enabled(Level::Info) {
        return;
    }
    let tally = TALLY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if log::json() {
        log::line(&tally.json(&now()));
    } else {
        log::write(Level::Info, format_args!("{}", tally.text()));
    }
}

/// The time now, RFC 3339 in UTC with milliseconds: `2026-12-05T21:57:11.042Z`.
pub fn now() -> String {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    rfc3339(since.as_secs(), since.subsec_millis())
}

/// `seconds` since the Unix epoch and `millis` as RFC 3339 UTC.
pub fn rfc3339(seconds: u64, millis: u32) -> String {
    let days = (seconds / 86_400) as i64;
    let in_day = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        in_day / 3600,
        in_day / 60 % 60,
        in_day % 60
    )
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rfc3339_utc() {
        assert_eq!(rfc3339(0, 0), "1970-01-01T00:00:00.000Z");
        // 2000-02-29, a leap day of a century year divisible by 400.
        assert_eq!(rfc3339(951_782_400, 7), "2000-02-29T00:00:00.007Z");
        assert_eq!(rfc3339(1_709_251_199, 999), "2024-02-29T23:59:59.999Z");
        assert_eq!(rfc3339(4_107_542_400, 0), "2100-03-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_798_761_599, 0), "2026-12-31T23:59:59.000Z");
        let now = now();
        assert_eq!(now.len(), 24, "{now}");
        assert!(now.ends_with('Z') && now.as_bytes()[10] == b'T', "{now}");
    }

    #[test]
    fn a_record_names_paths_and_rules_as_json() {
        let record = Record {
            era: "2026-07-28".into(),
            session: Some("s1".into()),
            id: "\"a\\\"b\"".into(),
            tool: "view".into(),
            outcome: Outcome::WouldRefuse,
            issues: vec![Issue {
                path: "paths".into(),
                rule: "R3",
            }],
        };
        let line = record.json("2026-12-05T00:00:00.000Z");
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"time": "2026-12-05T00:00:00.000Z", "level": "info",
                "event": "call", "era": "2026-07-28", "session": "s1", "id": "a\"b",
                "tool": "view", "action": "would-refuse",
                "issues": [{"path": "paths", "rule": "R3"}]})
        );
        assert_eq!(
            record.text(),
            "session s1: call \"a\\\"b\" to view would be refused (report only, forwarded as it came): paths"
        );
        // An id written over several lines stays one line, as a string.
        let spread = Record {
            id: "{\n}".into(),
            session: None,
            outcome: Outcome::Unchecked,
            issues: Vec::new(),
            ..record
        };
        let value: serde_json::Value =
            serde_json::from_str(&spread.json("t")).expect("one JSON object");
        assert_eq!(value["id"], "{\n}");
        assert_eq!(value["level"], "debug");
        assert!(value.get("session").is_none());
    }

    #[test]
    fn the_tally_sums_by_tool() {
        let mut tally = Tally::default();
        tally.add("view", Outcome::Refused);
        tally.add("view", Outcome::Forwarded);
        tally.add("tag", Outcome::Repaired);
        tally.add("tag", Outcome::Unchecked);
        tally.add("tag", Outcome::WouldRefuse);
        assert_eq!(tally.of("view").calls, 2);
        assert_eq!(tally.total().calls, 5);
        assert_eq!(
            tally.text(),
            "summary: 5 calls, 1 refused, 1 repaired, 1 would refuse, 1 unchecked; tag: 3 calls, 1 repaired, 1 would refuse, 1 unchecked; view: 2 calls, 1 refused"
        );
        let value: serde_json::Value = serde_json::from_str(&tally.json("t")).unwrap();
        assert_eq!(value["event"], "summary");
        assert_eq!(value["total"]["calls"], 5);
        assert_eq!(value["total"]["would_refuse"], 1);
        assert_eq!(value["tools"]["view"]["refused"], 1);
        assert_eq!(value["tools"]["tag"]["unchecked"], 1);
        // Bounded, whatever names the calls give.
        for n in 0..MAX_TOOLS + 10 {
            tally.add(&format!("t{n}"), Outcome::Forwarded);
        }
        assert_eq!(tally.by_tool.len(), MAX_TOOLS + 1);
        assert_eq!(tally.of(OTHER_TOOLS).calls, 12);
        assert_eq!(
            tally.of("view").calls,
            2,
            "a name counted before still counts"
        );
        assert_eq!(tally.total().calls, 5 + MAX_TOOLS as u64 + 10);
        // A long name is not kept, however few names came before it.
        let mut fresh = Tally::default();
        fresh.add(&"x".repeat(MAX_TOOL_NAME + 1), Outcome::Refused);
        assert_eq!(fresh.of(OTHER_TOOLS).calls, 1);
        assert_eq!(fresh.by_tool.len(), 1);
    }
}
