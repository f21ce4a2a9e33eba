//! Accepting connections: a cap on how many are open at once and a time limit on every
//! request's head, so that no client (slow, stalled or idle) can hold the platform away from
//! the others. A request's body has its own limit where it is read (`http::admit`). Over TLS
//! the handshake has the head's time limit too, and holds its connection's place meanwhile.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::{GracefulShutdown, Watcher};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio_rustls::TlsAcceptor;

/// How the platform treats connections (`serve --max-connections`, `--header-timeout`,
/// `--body-timeout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// A request's head must be complete within this, counted from when the connection opens
    /// or answers its previous request: so it is also how long an idle connection is kept.
    pub header_timeout: Duration,
    /// A request's body must have arrived within this once its head has.
    pub body_timeout: Duration,
}

impl Default for ConnectionLimits {
    /// What a server strangers can reach would use: seconds, not minutes.
    fn default() -> Self {
        Self {
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
        }
    }
}

/// Requests in flight are given this long to finish when the platform stops.
const DRAIN: Duration = Duration::from_secs(30);

/// Serves `app` on `listener` (over TLS when given an acceptor) until `stop` turns true, then
/// lets requests in flight finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    tls: Option<TlsAcceptor>,
    mut stop: watch::Receiver<bool>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    // The guard `wait_for` answers is not Send: drop it inside the future.
    let stopping = async move {
        let _ = stop.wait_for(|s| *s).await;
    };
    tokio::pin!(stopping);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors, most likely: the next accept may succeed once
                    // connections close.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stopping => break,
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            tokio::spawn(refuse(stream, peer, tls.clone()));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let accepted = Accepted {
            app: app.clone(),
            builder: builder.clone(),
            watcher: graceful.watcher(),
            peer,
            permit,
        };
        accepted.spawn(stream, tls.as_ref(), limits.header_timeout);
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("requests still in flight after {DRAIN:?} were cut off");
    }
}

/// A connection given its place: what serving it needs. The watcher makes the platform's stop
/// wait for it, from its handshake on.
struct Accepted {
    app: Router,
    builder: http1::Builder,
    watcher: Watcher,
    peer: SocketAddr,
    permit: OwnedSemaphorePermit,
}

impl Accepted {
    /// Serves the connection on a task of its own, after a handshake within `limit` over TLS.
    fn spawn(self, stream: TcpStream, tls: Option<&TlsAcceptor>, limit: Duration) {
        let Some(acceptor) = tls else {
            tokio::spawn(self.serve(stream));
            return;
        };
        let handshake = acceptor.accept(stream);
        let peer = self.peer;
        tokio::spawn(async move {
            match tokio::time::timeout(limit, handshake).await {
                Ok(Ok(stream)) => self.serve(stream).await,
                Ok(Err(e)) => tracing::debug!(error = %e, %peer, "a TLS handshake failed"),
                Err(_) => tracing::debug!(%peer, "a TLS handshake took too long"),
            }
        });
    }

    async fn serve<S>(self, stream: S)
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let Self {
            app,
            builder,
            watcher,
            peer,
            permit,
        } = self;
        // Each request knows its client's address (the token endpoint slows failures by it).
        let service = service_fn(move |mut req: Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let mut router = app.clone();
            async move { tower_service::Service::call(&mut router, req).await }
        });
        let connection = watcher.watch(builder.serve_connection(TokioIo::new(stream), service));
        if let Err(e) = connection.await {
            tracing::debug!(error = %e, %peer, "a connection ended with an error");
        }
        drop(permit);
    }
}

/// One connection too many: a short answer in the order group's envelope (over TLS once the
/// handshake is done), then closed; all within a second.
async fn refuse(stream: TcpStream, peer: SocketAddr, tls: Option<TlsAcceptor>) {
    tracing::warn!(%peer, "refused a connection: too many open");
    let answer = async move {
        match tls {
            None => write_refusal(stream).await,
            Some(acceptor) => {
                let mut stream = acceptor.accept(stream).await?;
                // A client that has just finished its handshake is not yet waiting for an
                // answer: one sent before its request would be unexpected (hyper drops it).
                let mut head = [0u8; 4096];
                let _ = stream.read(&mut head).await?;
                write_refusal(stream).await
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), answer).await;
}

async fn write_refusal<S: AsyncWrite + Unpin>(mut stream: S) -> std::io::Result<()> {
    const BODY: &str = r#"{"code":"503","message":"the platform has too many open connections; try again in a moment","cause":"connection limit reached"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{BODY}",
        BODY.len()
    );
    stream.write_all(answer.as_bytes()).await?;
    stream.shutdown().await
}
