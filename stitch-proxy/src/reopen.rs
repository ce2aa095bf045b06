//! A session the upstream server has ended, opened again (MCP, Streamable HTTP: a client that
//! gets HTTP 404 for a request carrying `Mcp-Session-Id` must start a new session with a new
//! `InitializeRequest`). The client is not told: it had its `initialize` answered already.
//! The proxy sends the client's own `initialize` again, with an id of the proxy's own and
//! without a session id, keeps its answer from the client, sends the client's
//! `notifications/initialized` in the new session, then the message that got the 404 — once.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::HeaderValue;
use hyper::{Method, Response, StatusCode};
use tokio::sync::oneshot;

use super::{
    is_event_stream, lock, read_events, version_of, Answer, Opened, Upstream, ACCEPT_POST, SESSION,
};
use crate::log::log;
use crate::message::{self, Id, Message};
use crate::sse;
use crate::upstream_client::describe;

/// How long a new session may take to open.
const REOPEN_WAIT: Duration = Duration::from_secs(30);

impl Upstream {
    /// POSTs `body` and returns the server's answer. A 404 to a request that carried a session
    /// id means the server ended that session: a new one is opened and `body` POSTed again in
    /// it, once. `None` when no new session could be opened (`ids` are answered with the error
    /// then). `head` fires once there is an answer's head (the next line waits for it, at most
    /// `HEAD_WAIT`, so that it goes out in the new session).
    pub(super) async fn send(
        &self,
        body: Bytes,
        ids: &[Id],
        head: oneshot::Sender<()>,
        initialize: bool,
    ) -> Option<Answer> {
        let request = self.request(Method::POST, body.clone(), ACCEPT_POST);
        let lost = request.headers().get(SESSION).cloned();
        let answer = self.client.request(request).await;
        let ended = matches!(&answer, Ok(response) if response.status() == StatusCode::NOT_FOUND);
        let lost = match lost {
            Some(lost) if ended && !initialize => lost,
            _ => {
                let _ = head.send(());
                return Some(answer);
            }
        };
        drop(answer);
        let reopened = tokio::time::timeout(REOPEN_WAIT, self.reopen(&lost))
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {} s", REOPEN_WAIT.as_secs())));
        let answer = match reopened {
            Ok(()) => {
                let again = self.request(Method::POST, body, ACCEPT_POST);
                Some(self.client.request(again).await)
            }
            Err(why) => {
                log!(
                    Warn,
                    "the upstream server ended the session and a new one could not be opened: {why}"
                );
                self.fail(
                    ids,
                    &format!(
                        "the upstream server ended the session (HTTP 404) and a new one could not be opened: {why}"
                    ),
                );
                None
            }
        };
        let _ = head.send(());
        answer
    }

    /// Opens a new session in place of `lost`, unless another message has already: every
    /// message that got the 404 waits here, and the first opens the session for all.
    async fn reopen(&self, lost: &HeaderValue) -> Result<(), String> {
        let _one = self.reopening.lock().await;
        if lock(&self.session).id.as_ref() != Some(lost) {
            return Ok(());
        }
        let opening = lock(&self.opening).clone();
        let initialize = opening
            .initialize
            .ok_or("the client's initialize was not seen")?;
        log!(
            Info,
            "the upstream server ended the session (HTTP 404): opening a new one with the client's initialize"
        );
        let generation = *self.reopened.borrow() + 1;
        let id = self.proxy.own_id(&format!("initialize-{generation}"));
        let body = message::with_id(&initialize, &id).ok_or("the client's initialize has no id")?;
        let request = self.request_in(&Opened::default(), Method::POST, body.into(), ACCEPT_POST);
        let response = self
            .client
            .request(request)
            .await
            .map_err(|error| format!("the server cannot be reached ({})", describe(&error)))?;
        if !response.status().is_success() {
            return Err(format!("initialize answered HTTP {}", response.status()));
        }
        let session = response.headers().get(SESSION).cloned();
        let line = self.own_answer(response, &id).await?;
        if let Message::Response { error: true, .. } = message::parse(message::trim_end(&line)) {
            let text = String::from_utf8_lossy(message::trim_end(&line)).into_owned();
            return Err(format!("initialize answered {text}"));
        }
        let opened = Opened {
            id: session,
            version: version_of(&line).or_else(|| lock(&self.session).version.clone()),
        };
        if let Some(initialized) = opening.initialized {
            let request = self.request_in(&opened, Method::POST, initialized, ACCEPT_POST);
            let response =
                self.client.request(request).await.map_err(|error| {
                    format!("the server cannot be reached ({})", describe(&error))
                })?;
            if !response.status().is_success() {
                let status = response.status();
                return Err(format!("notifications/initialized answered HTTP {status}"));
            }
        }
        *lock(&self.session) = opened;
        self.reopened.send_replace(generation);
        log!(
            Info,
            "a new session with the upstream server is open: the message is sent again"
        );
        Ok(())
    }

    /// The answer to the proxy's own request `id` in `response` (JSON, or an SSE stream read
    /// until it comes); any other message on the way goes to the routing.
    async fn own_answer(&self, response: Response<Incoming>, id: &Id) -> Result<Vec<u8>, String> {
        let mut found = None;
        let mut each = |data: &[u8]| {
            let line = sse::one_line(data);
            match message::parse(message::trim_end(&line)) {
                Message::Response { id: answered, .. } if answered.key == id.key => {
                    found = Some(line);
                    false
                }
                _ => {
                    self.deliver(data, &mut Vec::new(), false);
                    true
                }
            }
        };
        if is_event_stream(&response) {
            let mut reader = sse::Reader::default();
            read_events(response.into_body(), &mut reader, &mut each).await;
        } else {
            let body = Limited::new(response.into_body(), crate::limits::max_message())
                .collect()
                .await
                .map_err(|error| format!("its answer could not be read ({error})"))?;
            each(&body.to_bytes());
        }
        found.ok_or_else(|| "initialize was not answered".to_owned())
    }
}
