//! The decision about one `tools/call` once the schemas are known: which tools are checked
//! (`--check`, `--skip`), the rule's verdict, and what it comes to — refused, repaired,
//! forwarded as it came, or, with `--report-only`, forwarded as it came whatever the verdict —
//! with its record. Part of [`Core`] (its fields are the routing's).

use std::collections::BTreeSet;

use super::Core;
use crate::check::Verdict;
use crate::era::{self, Era};
use crate::log::{self, log};
use crate::message::{self, Call, Id};
use crate::record::{self, Issue, Outcome, Record};
use crate::tools::Tool;

/// The tools whose calls are checked: `--check` names the only ones (when given), `--skip`
/// names tools forwarded unchecked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// `--check`: `None` checks every tool.
    pub only: Option<BTreeSet<String>>,
    /// `--skip`.
    pub skip: BTreeSet<String>,
}

impl Selection {
    /// Whether calls to `tool` are checked.
    pub fn checks(&self, tool: &str) -> bool {
        if self.only.is_none() && self.skip.is_empty() {
            return true;
        }
        self.only.as_ref().is_none_or(|only| only.contains(tool)) && !self.skip.contains(tool)
    }

    /// The names given that are not in `listed`, `--check`'s then `--skip`'s.
    pub fn unknown<'a>(&'a self, listed: &dyn Fn(&str) -> bool) -> Vec<(&'static str, &'a str)> {
        let only = self.only.iter().flatten().map(|name| ("--check", name));
        let skip = self.skip.iter().map(|name| ("--skip", name));
        only.chain(skip)
            .filter(|(_, name)| !listed(name))
            .map(|(flag, name)| (flag, name.as_str()))
            .collect()
    }
}

impl Core {
    /// A `tools/call` while the schemas are known (or for a tool that is not checked):
    /// refused, repaired or forwarded as it came.
    pub(super) fn call(&mut self, line: Vec<u8>, id: Id, call: Call) {
        let body = message::trim_end(&line);
        let check = match self.tools.by_name.get(&call.name) {
            Some(Tool {
                check: Some(check), ..
            }) if self.options.tools.checks(&call.name) => Some(check),
            _ => None,
        };
        let checked = check.is_some();
        let verdict = match (check, &call.arguments, std::str::from_utf8(body)) {
            // Absent or null `arguments` (no arguments) and unknown tools are the server's
            // to judge.
            (Some(check), Some(arguments), Ok(text))
                if !matches!(arguments.kind, crate::raw::Kind::Null) =>
            {
                check.run(text, arguments)
            }
            _ => Verdict::Clean,
        };
        let report_only = self.options.report_only;
        // What the call comes to, and the line that goes to the server (none: refused).
        let (outcome, issues, forward) = match verdict {
            Verdict::Clean if checked => (Outcome::Forwarded, Vec::new(), Some(line)),
            Verdict::Clean => (Outcome::Unchecked, Vec::new(), Some(line)),
            Verdict::Repaired { issues, .. } if report_only => {
                (Outcome::WouldRepair, issues, Some(line))
            }
            Verdict::Refused { issues, .. } if report_only => {
                (Outcome::WouldRefuse, issues, Some(line))
            }
            Verdict::Repaired { arguments, issues } => {
                let range = call.arguments.as_ref().map(|node| node.span.clone());
                let line = message::splice(body, range.unwrap_or_default(), &arguments);
                (Outcome::Repaired, issues, Some(line))
            }
            Verdict::Refused { messages, issues } => {
                self.send_client(era::refusal_line(&id, &messages, &self.era));
                (Outcome::Refused, issues, None)
            }
        };
        record::count(&call.name, outcome);
        // The id is copied only for a record that is written.
        let logged = log::enabled(outcome.level()).then(|| id.raw.clone());
        if let Some(line) = forward {
            self.add_pending(id, None);
            self.send_server(line);
        }
        if let Some(id) = logged {
            self.record(id, call.name, outcome, issues);
        }
    }

    /// Asks for the record of a call to be written.
    fn record(&mut self, id: String, tool: String, outcome: Outcome, issues: Vec<Issue>) {
        let era = match &self.era {
            Era::Legacy => "handshake".to_owned(),
            Era::Modern(version) => version.clone(),
        };
        self.out.push(super::Action::Record(Box::new(Record {
            era,
            session: self.session.clone(),
            id,
            tool,
            outcome,
            issues,
        })));
    }

    /// Once a complete list is known, warns of each `--check` and `--skip` name it does not
    /// hold: once per run (every `--listen` session has the same server).
    pub(super) fn warn_unknown_names(&mut self) {
        static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if self.names_checked {
            return;
        }
        self.names_checked = true;
        if WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let tools = &self.tools.by_name;
        for (flag, name) in self.options.tools.unknown(&|name| tools.contains_key(name)) {
            log!(Warn, "{flag} {name}: the server lists no tool of that name");
        }
    }
}

#[cfg(test)]
#[path = "decide_tests.rs"]
mod tests;
