//! A request body that must have arrived within a time from its head: past it, reading fails,
//! whatever handler reads it. A client that sends its body a byte at a time cannot hold a
//! connection (and a password check's queue) open for longer.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use tokio::time::Sleep;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The body did not arrive in time.
#[derive(Debug, thiserror::Error)]
#[error("the request's body did not arrive within {} s", .0.as_secs())]
pub struct TooSlow(pub Duration);

/// Whether reading a body failed because it did not arrive in time (anywhere in the chain of
/// sources: the reader may wrap it).
pub fn too_slow(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut at = Some(e);
    while let Some(e) = at {
        if e.is::<TooSlow>() {
            return true;
        }
        at = e.source();
    }
    false
}

pub struct Deadline {
    body: Incoming,
    limit: Duration,
    sleep: Pin<Box<Sleep>>,
}

impl Deadline {
    pub fn new(body: Incoming, limit: Duration) -> Self {
        Self {
            body,
            limit,
            sleep: Box::pin(tokio::time::sleep(limit)),
        }
    }
}

impl Body for Deadline {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if self.sleep.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(Box::new(TooSlow(self.limit)))));
        }
        Pin::new(&mut self.body)
            .poll_frame(cx)
            .map_err(|e| Box::new(e) as BoxError)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
