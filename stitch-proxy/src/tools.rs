//! The tools the server lists: each one's schema compiled into a [`Check`] (a [`Job`], run
//! off the routing), learnt from the client's own `tools/list` answers or from the proxy's.

use std::collections::HashMap;

use crate::check::Check;
use crate::headers::{self, Param};
use crate::log::log;
use crate::message::{Id, ToolDef};

/// The proxy's own `tools/list`, page by page.
pub struct Listing {
    /// The id of the page asked for last.
    pub id: Id,
    pub tools: Vec<ToolDef>,
    pub pages: usize,
    /// Which listing this is, for its timer.
    pub generation: u64,
    /// The era its requests are shaped for: that of the request that started it.
    pub era: crate::era::Era,
}

/// One tool the server lists: its compiled schema, or `None` when it has none the coercer
/// can read (its calls are forwarded unchecked).
pub struct Tool {
    pub check: Option<Check>,
    /// Its `x-mcp-header` parameters, mirrored into `Mcp-Param-*` headers over HTTP.
    pub params: Vec<Param>,
}

/// The tools known, by name.
#[derive(Default)]
pub struct Tools {
    pub by_name: HashMap<String, Tool>,
}

impl Tools {
    /// Puts a compiled page or list in place: `replace` drops what was known before.
    pub fn apply(&mut self, tools: HashMap<String, Tool>, replace: bool) {
        if replace {
            self.by_name = tools;
        } else {
            self.by_name.extend(tools);
        }
    }
}

/// Tool schemas to compile, away from the routing (`Action::Compile`): a schema takes time to
/// compile, bounded (`stitch_runtime`'s cost check) but not small, and no other message waits
/// for it. `ticket` orders the results: they are put in place in the order asked for.
pub struct Job {
    pub ticket: u64,
    tools: Vec<ToolDef>,
    refuse_invalid: bool,
}

/// A [`Job`] done.
pub struct Compiled {
    pub ticket: u64,
    pub tools: HashMap<String, Tool>,
}

impl Job {
    pub fn new(ticket: u64, tools: Vec<ToolDef>, refuse_invalid: bool) -> Job {
        Job {
            ticket,
            tools,
            refuse_invalid,
        }
    }

    /// Compiles each tool's schema.
    pub fn run(self) -> Compiled {
        let refuse_invalid = self.refuse_invalid;
        let tools = self
            .tools
            .into_iter()
            .map(|tool| {
                let check = match &tool.input_schema {
                    None => {
                        log!(Warn, "tool {} has no inputSchema: its calls pass unchecked", tool.name);
                        None
                    }
                    Some(schema) => match Check::new(schema, refuse_invalid) {
                        Ok(check) => Some(check),
                        Err(error) => {
                            log!(
                                Warn,
                                "the inputSchema of tool {} cannot be read ({error}): its calls pass unchecked",
                                tool.name
                            );
                            None
                        }
                    },
                };
                let params = match tool.input_schema.as_ref().map(headers::params_of) {
                    Some(Ok(params)) => params,
                    Some(Err(why)) => {
                        log!(Warn, "tool {}: {why}: no Mcp-Param headers for it", tool.name);
                        Vec::new()
                    }
                    None => Vec::new(),
                };
                (tool.name, Tool { check, params })
            })
            .collect();
        Compiled {
            ticket: self.ticket,
            tools,
        }
    }
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Job {} ({} tools)", self.ticket, self.tools.len())
    }
}

impl PartialEq for Job {
    fn eq(&self, other: &Job) -> bool {
        self.ticket == other.ticket
    }
}
