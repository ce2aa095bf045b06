//! The modern era's requests from many HTTP clients served by one child (`--listen`): each
//! client picks its own ids and progress tokens, so two clients may both send id `1`. On the
//! way in each request's id (and its `params._meta.progressToken`) is replaced by one of the
//! proxy's own, unique in the child; on the way out the client's own is put back. Every other
//! byte is as it came.

use std::collections::HashMap;

use crate::message::Id;
use crate::raw::{self, Kind, Node};

/// The value at `path` (object keys, the last member where a key is sent twice) of the JSON
/// `line` replaced by the JSON text `raw`; `None` when the line has no value there.
pub fn with_member(line: &[u8], path: &[&str], raw: &str) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(line).ok()?;
    let root = raw::parse(text)?;
    let mut at: &Node = &root;
    for key in path {
        let Kind::Object(members) = &at.kind else {
            return None;
        };
        at = &members.iter().rev().find(|m| m.key.value == *key)?.value;
    }
    let span = at.span.clone();
    let mut out = Vec::with_capacity(line.len() + raw.len());
    out.extend_from_slice(&line[..span.start]);
    out.extend_from_slice(raw.as_bytes());
    out.extend_from_slice(&line[span.end..]);
    Some(out)
}

const TOKEN: [&str; 3] = ["params", "_meta", "progressToken"];
const SUBSCRIPTION: [&str; 3] = ["params", "_meta", "io.modelcontextprotocol/subscriptionId"];
const PROGRESS: [&str; 2] = ["params", "progressToken"];

/// The ids and tokens given out and not answered yet.
#[derive(Default)]
pub struct Remap {
    next: u64,
    /// By the proxy's id key: the client's id, and the proxy's token given with it.
    ids: HashMap<String, (Id, Option<String>)>,
    /// By the proxy's token key: the client's token (JSON text).
    tokens: HashMap<String, String>,
}

impl Remap {
    /// A client request going to the shared child: the line with ids of the proxy's own, the
    /// new id, and the new token's key (when the request asked for progress).
    pub fn request(
        &mut self,
        line: &[u8],
        id: &Id,
        token: Option<&str>,
    ) -> Option<(Vec<u8>, Id, Option<String>)> {
        self.next += 1;
        let own = Id::own(&format!("stitch-proxy-c{}", self.next));
        let mut line = with_member(line, &["id"], &own.raw)?;
        let mut own_token = None;
        if let Some(token) = token {
            let new = Id::own(&format!("stitch-proxy-t{}", self.next));
            if let Some(changed) = with_member(&line, &TOKEN, &new.raw) {
                line = changed;
                self.tokens.insert(new.key.clone(), token.to_owned());
                own_token = Some(new.key);
            }
        }
        self.ids
            .insert(own.key.clone(), (id.clone(), own_token.clone()));
        Some((line, own, own_token))
    }

    /// A response from the child: its line with the client's id back, once.
    pub fn response(&mut self, line: &[u8], id: &Id) -> Option<Vec<u8>> {
        let (client, token) = self.ids.remove(&id.key)?;
        if let Some(token) = token {
            self.tokens.remove(&token);
        }
        with_member(line, &["id"], &client.raw)
    }

    /// A notification of a `subscriptions/listen` stream (its `_meta` names the listen
    /// request's id): the proxy's id of that request, and the line with the client's id back.
    pub fn subscription(&self, line: &[u8]) -> Option<(Id, Vec<u8>)> {
        let text = std::str::from_utf8(line).ok()?;
        let root = raw::parse(text)?;
        let mut at = &root;
        for key in SUBSCRIPTION {
            at = at.get(key)?;
        }
        let own = Id::of_text(&text[at.span.clone()]);
        let (client, _) = self.ids.get(&own.key)?;
        Some((own.clone(), with_member(line, &SUBSCRIPTION, &client.raw)?))
    }

    /// A progress notification from the child: its line with the client's token back.
    pub fn progress(&self, line: &[u8], token: &str) -> Option<Vec<u8>> {
        let client = self.tokens.get(token)?;
        with_member(line, &PROGRESS, client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_clients_with_one_id_get_their_own_answers() {
        let mut remap = Remap::default();
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"c","_meta":{"progressToken":1, "x":2}}}"#;
        let one = Id::of_text("1");
        let (a, a_id, a_token) = remap.request(line, &one, Some("1")).unwrap();
        let (b, b_id, _) = remap.request(line, &one, Some("1")).unwrap();
        assert_ne!(a_id, b_id);
        assert_eq!(
            a,
            br#"{"jsonrpc":"2.0","id":"stitch-proxy-c1","method":"tools/call","params":{"name":"c","_meta":{"progressToken":"stitch-proxy-t1", "x":2}}}"#
        );
        assert_ne!(a, b);
        let progress = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"stitch-proxy-t1","progress":1}}"#;
        assert_eq!(
            remap.progress(progress, &a_token.unwrap()).unwrap(),
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#
        );
        let answer = br#"{"jsonrpc":"2.0","id":"stitch-proxy-c2","result":{}}"#;
        assert_eq!(
            remap.response(answer, &b_id).unwrap(),
            br#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        // A subscription's notification names the listen request: the client's id comes back.
        let note = br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"stitch-proxy-c1"}}}"#;
        let (own, back) = remap.subscription(note).unwrap();
        assert_eq!(own, a_id);
        assert_eq!(
            back,
            br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1}}}"#
        );
        // Answered once: a second answer with that id is no one's.
        assert!(remap.response(answer, &b_id).is_none());
    }
}
