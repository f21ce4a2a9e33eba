//! Operation 8's answer, written to the socket as it is read from the database, so that a
//! listing's memory stays bounded whatever the enterprise's size.
//!
//! A blocking task holds one read transaction (a consistent snapshot on a pooled reader), walks
//! the assets in order (`rules::assets::walk`), writes each as JSON into a buffer and hands the
//! buffer on every ~64 KiB through a bounded channel that the response body drains. The bytes
//! are exactly those `Json(OrderEnvelope::success(assets))` would write. At most
//! `ListingLimits::max_streaming` listings stream at once; more wait for their turn.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use tokio::runtime::Handle;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::SendTimeoutError;

use crate::error::OpError;
use crate::pg::StoreFailure;
use crate::rules::assets;
use crate::shared::{AppState, Shared};
use crate::sql::StoreError;
use wire::Asset;

/// Bytes gathered before they are handed to the socket (one asset more at most).
const CHUNK: usize = 64 * 1024;
/// Chunks queued between the task and the socket, besides the one being filled.
const QUEUED: usize = 2;
/// A client that takes no chunk for this long is cut off: its listing holds a reader and a read
/// transaction, which keeps the WAL from being checkpointed past its snapshot.
const STALL: Duration = Duration::from_secs(30);

/// The success envelope around the listed assets (a test holds it to `OrderEnvelope`'s).
const HEAD: &[u8] = br#"{"code":0,"message":"success","data":["#;
const TAIL: &[u8] = b"]}";

/// Some bytes of the answer; `last` is set on the one that ends with [`TAIL`].
struct Piece {
    bytes: Bytes,
    last: bool,
}

/// An error instead of a piece only comes first: nothing has been sent, so it is answered as
/// any failure is.
type Message = Result<Piece, OpError>;

/// Streams the listing of the enterprise (its row id, found by the caller) once a turn is free.
pub async fn respond(
    s: &AppState,
    enterprise: i64,
    extend_code: Option<String>,
) -> Result<Response, OpError> {
    let turn = s.listings.turn().await?;
    let (sender, mut receiver) = mpsc::channel(QUEUED);
    let sink = Sink::new(sender, Handle::current());
    let shared = Arc::clone(s);
    tokio::task::spawn_blocking(move || {
        produce(&shared, enterprise, extend_code.as_deref(), sink);
        // Given back once the reader is back in the pool.
        drop(turn);
    });
    // The head waits for the first piece, so that a failure before it is a proper answer. A
    // listing that fits in one piece gets a Content-Length, as every answer had before.
    match receiver.recv().await {
        Some(Ok(first)) if first.last => Ok(json(Body::from(first.bytes))),
        Some(Ok(first)) => Ok(json(Body::from_stream(pieces(first, receiver)))),
        Some(Err(e)) => Err(e),
        None => Err(OpError::Internal(
            "the listing task ended without an answer".to_owned(),
        )),
    }
}

fn json(body: Body) -> Response {
    let content_type = HeaderValue::from_static("application/json");
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// The body: `first`, then what the task sends. When the task stops before the last piece,
/// the body ends in an error, so hyper cuts the connection instead of ending the chunked body
/// cleanly: a client must never take a truncated listing for a whole one.
fn pieces(
    first: Piece,
    receiver: mpsc::Receiver<Message>,
) -> impl Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static {
    stream::unfold(
        (Some(first), receiver, false),
        |(ahead, mut receiver, ended)| async move {
            if ended {
                return None;
            }
            let next = match ahead {
                Some(piece) => Some(Ok(piece)),
                None => receiver.recv().await,
            };
            match next {
                Some(Ok(piece)) => {
                    let last = piece.last;
                    Some((Ok(piece.bytes), (None, receiver, last)))
                }
                Some(Err(_)) | None => {
                    let cut = std::io::Error::other("the asset listing was cut off");
                    Some((Err(cut), (None, receiver, true)))
                }
            }
        },
    )
}

/// Why a listing stopped before its end.
enum Stop {
    /// The client went away (the body was dropped).
    Gone,
    /// The client took nothing for [`STALL`].
    Stalled,
    Failed(OpError),
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Self {
        Self::Failed(OpError::from(e))
    }
}

impl StoreFailure for Stop {
    fn store_error(&self) -> Option<&StoreError> {
        match self {
            Self::Failed(e) => e.store_error(),
            Self::Gone | Self::Stalled => None,
        }
    }
}

/// Runs on a blocking thread: the whole listing in one read transaction.
fn produce(shared: &Shared, enterprise: i64, extend_code: Option<&str>, mut sink: Sink) {
    let walked = shared.stores.read_large_here(|tx| {
        assets::walk(tx, enterprise, extend_code, |asset| sink.asset(&asset))
    });
    let outcome = walked.and_then(|()| sink.finish());
    shared.listings.ended(outcome.is_ok());
    let assets = sink.assets;
    match outcome {
        Ok(()) => {}
        Err(Stop::Gone) => tracing::debug!(assets, "the client left during an asset listing"),
        Err(Stop::Stalled) => tracing::warn!(
            assets,
            "a client took no part of an asset listing for {STALL:?}; cut off"
        ),
        Err(Stop::Failed(e)) if !sink.sent => {
            // Nothing sent yet: `respond` answers it as a 500. Gone or stalled, nobody hears it.
            let _ = sink.deliver(Err(e));
        }
        // The head (HTTP 200 and the start of the envelope) is out: the only way left to say
        // so is to cut the body off (`pieces`), which the client sees as a broken answer.
        Err(Stop::Failed(e)) => tracing::error!(
            error = %e,
            assets,
            "an asset listing failed after its head was sent; its body was cut off"
        ),
    }
}

/// The answer's bytes as they are written, handed on in pieces of about [`CHUNK`].
struct Sink {
    sender: mpsc::Sender<Message>,
    runtime: Handle,
    buf: Vec<u8>,
    assets: u64,
    sent: bool,
}

impl Sink {
    fn new(sender: mpsc::Sender<Message>, runtime: Handle) -> Self {
        let mut buf = Vec::with_capacity(CHUNK + CHUNK / 4);
        buf.extend_from_slice(HEAD);
        Self {
            sender,
            runtime,
            buf,
            assets: 0,
            sent: false,
        }
    }

    fn asset(&mut self, asset: &Asset) -> Result<(), Stop> {
        if self.assets > 0 {
            self.buf.push(b',');
        }
        serde_json::to_writer(&mut self.buf, asset).map_err(|e| {
            Stop::Failed(OpError::Internal(format!(
                "cannot write an asset as JSON: {e}"
            )))
        })?;
        self.assets += 1;
        if self.buf.len() >= CHUNK {
            self.send(false)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), Stop> {
        self.buf.extend_from_slice(TAIL);
        self.send(true)
    }

    fn send(&mut self, last: bool) -> Result<(), Stop> {
        let next = Vec::with_capacity(if last { 0 } else { CHUNK + CHUNK / 4 });
        let bytes = Bytes::from(std::mem::replace(&mut self.buf, next));
        self.deliver(Ok(Piece { bytes, last }))?;
        self.sent = true;
        Ok(())
    }

    /// Waits for room in the channel: the pace of the client's reading. A blocking thread is
    /// no runtime thread, so it may block on the runtime (whose timer the timeout needs).
    fn deliver(&self, message: Message) -> Result<(), Stop> {
        self.runtime
            .block_on(self.sender.send_timeout(message, STALL))
            .map_err(|e| match e {
                SendTimeoutError::Timeout(_) => Stop::Stalled,
                SendTimeoutError::Closed(_) => Stop::Gone,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::OrderEnvelope;

    fn asset(n: u32) -> Asset {
        Asset {
            id: format!("AS{n:010}"),
            asset_num: format!("80000000{n:02}"),
            ..Asset::default()
        }
    }

    /// The head and tail around the assets, joined by commas, are what the envelope writes.
    #[test]
    fn the_pieces_make_the_envelope_the_answer_always_had() {
        for n in 0..3 {
            let assets: Vec<Asset> = (0..n).map(asset).collect();
            let mut written = HEAD.to_vec();
            for (i, a) in assets.iter().enumerate() {
                if i > 0 {
                    written.push(b',');
                }
                serde_json::to_writer(&mut written, a).expect("json");
            }
            written.extend_from_slice(TAIL);
            let whole = serde_json::to_vec(&OrderEnvelope::success(assets)).expect("json");
            assert_eq!(
                String::from_utf8(written).expect("utf-8"),
                String::from_utf8(whole).expect("utf-8")
            );
        }
    }
}
