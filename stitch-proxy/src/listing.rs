//! The routing's own `tools/list`: a listing asked for page by page in the era of the request
//! that needed it, bounded in time (`--list-timeout`) and in pages, and the client lines held
//! until it ends. Part of [`Core`] (its fields are the routing's).

use std::time::Instant;

use super::{Action, Core, Held, MAX_PAGES};
use crate::era;
use crate::log::log;
use crate::message::{self, Id};
use crate::tools::Listing;

impl Core {
    /// Asks the server for a page of its tools, with an id of the proxy's own.
    pub(super) fn start_listing(&mut self, cursor: Option<&str>) {
        self.next_own += 1;
        let id = Id::own(&format!("{}{}", self.own_prefix, self.next_own));
        self.own.insert(id.key.clone());
        let era = match &self.listing {
            Some(listing) => listing.era.clone(),
            None => self.era.clone(),
        };
        log!(
            Debug,
            "asking the server for its tools ({}, {})",
            id.raw,
            era.name()
        );
        self.send_server(era::list_request(&id, cursor, &era));
        match &mut self.listing {
            Some(listing) => listing.id = id,
            None => {
                self.listings += 1;
                let generation = self.listings;
                self.listing = Some(Listing {
                    id,
                    tools: Vec::new(),
                    pages: 0,
                    generation,
                    era,
                });
                let deadline = Instant::now() + self.options.list_timeout;
                self.out.push(Action::Timer(deadline, generation));
            }
        }
    }

    /// The listing `generation`'s time is up: if it is still the one calls wait for, the held
    /// calls go on unchecked (the server answers them), and so do later calls until a list
    /// comes. A list that comes later is still learnt.
    pub fn list_timed_out(&mut self, generation: u64) {
        let waiting = self
            .listing
            .as_ref()
            .is_some_and(|listing| listing.generation == generation);
        if !waiting || self.known || self.server_gone {
            return;
        }
        log!(
            Warn,
            "the server did not list its tools within {} s: {} held line(s) and later calls go on unchecked until it does",
            self.options.list_timeout.as_secs_f64(),
            self.held.len()
        );
        self.known = true;
        self.release();
    }

    /// The answer to one of the proxy's own `tools/list` requests (never forwarded).
    pub(super) fn own_response(&mut self, id: &Id, error: bool, body: &[u8]) {
        let current = self
            .listing
            .as_ref()
            .is_some_and(|listing| listing.id.key == id.key);
        if !current {
            log!(Debug, "stale tool list {} ignored", id.raw);
            return;
        }
        let page = if error {
            None
        } else {
            message::list_page(body)
        };
        let Some(page) = page else {
            log!(
                Warn,
                "the server did not list its tools ({}): calls pass unchecked until the next list",
                String::from_utf8_lossy(body)
            );
            self.listing = None;
            self.known = true;
            self.release();
            return;
        };
        let listing = self.listing.as_mut().expect("checked above");
        listing.tools.extend(page.tools);
        listing.pages += 1;
        match page.next_cursor {
            Some(cursor) if !cursor.is_empty() && listing.pages < MAX_PAGES => {
                self.start_listing(Some(&cursor));
            }
            _ => {
                let listing = self.listing.take().expect("checked above");
                log!(
                    Info,
                    "{} tools learnt from {} page(s)",
                    listing.tools.len(),
                    listing.pages
                );
                // Known once compiled: calls wait for it (`Core::compiled`).
                self.compile(listing.tools, true, Some(listing.generation));
            }
        }
    }

    /// Runs the held client lines now that the schemas are known (or cannot be).
    pub(super) fn release(&mut self) {
        let held = std::mem::take(&mut self.held);
        for item in held {
            match item {
                Held::Line(line) => self.client_line(line),
                Held::TooLong => self.client_sent_too_long(),
                Held::End => {
                    self.out.push(Action::EndServer);
                }
            }
        }
    }

    /// Learns from a `tools/list` page the client asked for: a complete single-page list
    /// replaces what is known, and makes the tools known if no listing of the proxy's is
    /// under way; any other page adds its tools.
    pub(super) fn learn_client_page(&mut self, page: message::ListPage, later_page: bool) {
        let complete = !later_page && page.next_cursor.is_none();
        let completes = complete.then_some(self.listings);
        self.compile(page.tools, complete, completes);
    }
}
