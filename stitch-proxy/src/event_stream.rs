//! The events of one SSE answer of `--listen` (a POST's stream or the GET stream), queued for
//! its client and counted in bytes: a client that does not read its stream cannot make the
//! proxy hold more than [`LIMIT`] for it. Past that its stream is closed (`Full`): the other
//! clients of a shared session never wait for a slow one.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// The bytes a stream may hold unread: 8 MiB, as the proxy's own queues (one longer event
/// still goes to a stream that holds nothing).
pub const LIMIT: usize = 8 << 20;

/// Where the session sends a stream's events.
pub struct Sender {
    tx: UnboundedSender<Bytes>,
    queued: Arc<AtomicUsize>,
}

/// The stream's side: the body of the HTTP answer.
pub struct Events {
    rx: UnboundedReceiver<Bytes>,
    queued: Arc<AtomicUsize>,
}

/// Why an event was not sent.
#[derive(Debug, PartialEq)]
pub enum Unsent {
    /// The client has gone: the event is handed back.
    Gone(Bytes),
    /// The client has not read [`LIMIT`] bytes: it gets nothing more on this stream.
    Full,
}

/// A new stream.
pub fn channel() -> (Sender, Events) {
    let (tx, rx) = unbounded_channel();
    let queued = Arc::new(AtomicUsize::new(0));
    (
        Sender {
            tx,
            queued: queued.clone(),
        },
        Events { rx, queued },
    )
}

impl Sender {
    pub fn send(&self, event: Bytes) -> Result<(), Unsent> {
        let queued = self.queued.load(Ordering::SeqCst);
        if queued > 0 && queued + event.len() > LIMIT {
            return Err(Unsent::Full);
        }
        let len = event.len();
        self.queued.fetch_add(len, Ordering::SeqCst);
        self.tx.send(event).map_err(|error| {
            self.queued.fetch_sub(len, Ordering::SeqCst);
            Unsent::Gone(error.0)
        })
    }

    /// Whether the client has gone.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

impl Body for Events {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.rx.poll_recv(cx).map(|event| {
            event.map(|event| {
                // Handed to the connection, which writes it as the client reads.
                self.queued.fetch_sub(event.len(), Ordering::SeqCst);
                Ok(Frame::data(event))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::poll_fn;

    #[tokio::test]
    async fn a_stream_its_client_does_not_read_is_full_at_the_limit_and_reading_makes_room() {
        let (tx, mut events) = channel();
        let event = Bytes::from(vec![b'x'; LIMIT / 4]);
        for _ in 0..4 {
            tx.send(event.clone()).unwrap();
        }
        assert_eq!(tx.send(Bytes::from_static(b"more")), Err(Unsent::Full));
        let frame = poll_fn(|cx| Pin::new(&mut events).poll_frame(cx)).await;
        assert_eq!(
            frame.unwrap().unwrap().into_data().unwrap().len(),
            LIMIT / 4
        );
        tx.send(Bytes::from_static(b"more")).unwrap();
        // One event longer than the limit goes to an empty stream, alone.
        let (tx, events) = channel();
        tx.send(Bytes::from(vec![b'y'; LIMIT + 1])).unwrap();
        assert_eq!(tx.send(Bytes::from_static(b"z")), Err(Unsent::Full));
        drop(events);
        assert!(tx.is_closed());
    }
}
