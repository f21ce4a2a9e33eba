//! Accepting connections: a cap on how many are open at once and a time limit on every
//! request's head, so that no client (slow, stalled or idle) can hold the platform away from
//! the others. A request's body has its own limit where it is read (`http::admit`).

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
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

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

/// Serves `app` on `listener` until `stop` turns true, then lets requests in flight finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
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
            tokio::spawn(refuse(stream, peer));
            continue;
        };
        let _ = stream.set_nodelay(true);
        // Each request knows its client's address (the token endpoint slows failures by it).
        let router = app.clone();
        let service = service_fn(move |mut req: Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let mut router = router.clone();
            async move { tower_service::Service::call(&mut router, req).await }
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, %peer, "a connection ended with an error");
            }
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("requests still in flight after {DRAIN:?} were cut off");
    }
}

/// One connection too many: a short answer in the order group's envelope, then closed.
async fn refuse(mut stream: TcpStream, peer: SocketAddr) {
    const BODY: &str = r#"{"code":"503","message":"the platform has too many open connections; try again in a moment","cause":"connection limit reached"}"#;
    tracing::warn!(%peer, "refused a connection: too many open");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{BODY}",
        BODY.len()
    );
    let write = async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}
