//! The tools the server lists: each one's schema compiled into a [`Check`], learnt from the
//! client's own `tools/list` answers or from the proxy's (`Proxy::own_response`).

use std::collections::HashMap;

use crate::check::Check;
use crate::headers::{self, Param};
use crate::log::log;
use crate::message::{Id, ListPage, ToolDef};

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
    /// `--refuse-invalid`: each check refuses what its schema rejects.
    pub refuse_invalid: bool,
}

impl Tools {
    /// Learns from a `tools/list` page the client asked for: a complete single-page list
    /// replaces what is known (`true`: the list is complete); any other page adds its tools.
    pub fn learn_client_page(&mut self, page: ListPage, later_page: bool) -> bool {
        if !later_page && page.next_cursor.is_none() {
            self.by_name = self.compile(page.tools);
            true
        } else {
            let more = self.compile(page.tools);
            self.by_name.extend(more);
            false
        }
    }

    /// Replaces what is known with `tools`.
    pub fn replace(&mut self, tools: Vec<ToolDef>) {
        self.by_name = self.compile(tools);
    }

    /// Compiles each tool's schema.
    fn compile(&self, tools: Vec<ToolDef>) -> HashMap<String, Tool> {
        tools
            .into_iter()
            .map(|tool| {
                let check = match &tool.input_schema {
                    None => {
                        log!(Warn, "tool {} has no inputSchema: its calls pass unchecked", tool.name);
                        None
                    }
                    Some(schema) => match Check::new(schema, self.refuse_invalid) {
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
            .collect()
    }
}
