//! Accepting connections: a cap on how many are open at once, in all and from one address, a
//! time limit on every request's head and one on its body, so that no client (slow, stalled,
//! idle or many-handed) can hold the server away from the others. Over TLS the handshake has
//! the head's time limit too, and holds its connection's place meanwhile.

mod deadline;

pub use deadline::{TooSlow, too_slow};

use crate::StartError;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
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

/// Listens on `addr`; the address it listens on (`addr` with port 0 is given one).
pub async fn bind(addr: SocketAddr) -> Result<(TcpListener, SocketAddr), StartError> {
    let failed = |source| StartError::Listen { addr, source };
    let listener = TcpListener::bind(addr).await.map_err(failed)?;
    let local = listener.local_addr().map_err(failed)?;
    Ok((listener, local))
}

/// How a server treats connections (`serve`'s and `team serve`'s `--max-connections`,
/// `--header-timeout`, `--body-timeout`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// Connections one address may hold open at once; one more is answered 503 and closed.
    pub per_address: usize,
    /// Addresses not capped per address: reverse proxies that carry many clients.
    pub uncapped: Vec<ipnet::IpNet>,
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
            // A branch's consoles behind one NAT keep a few connections each.
            per_address: 256,
            uncapped: Vec::new(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
        }
    }
}

/// Requests in flight are given this long to finish when the server stops.
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
    let per_address = PerAddress::new(&limits);
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    // The guard `wait_for` answers is not Send: drop it inside the future.
    let stopping = async move {
        // Its sender gone is a stop too.
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
        let (Ok(permit), Some(place)) = (
            Arc::clone(&permits).try_acquire_owned(),
            per_address.take(peer.ip()),
        ) else {
            tokio::spawn(refuse(stream, peer, tls.clone()));
            continue;
        };
        // Without it the connection still works, only slower for small answers.
        let _ = stream.set_nodelay(true);
        let accepted = Accepted {
            app: app.clone(),
            builder: builder.clone(),
            watcher: graceful.watcher(),
            peer,
            permit: (permit, place),
            body_timeout: limits.body_timeout,
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

/// A connection given its place: what serving it needs. The watcher makes the server's stop
/// wait for it, from its handshake on.
struct Accepted {
    app: Router,
    builder: http1::Builder,
    watcher: Watcher,
    peer: SocketAddr,
    /// Its place among all connections and among its address's, given back when it ends.
    permit: (OwnedSemaphorePermit, Place),
    body_timeout: Duration,
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
            body_timeout,
        } = self;
        // Each request knows its client's address (the token endpoint slows failures by it).
        let service = service_fn(move |req: Request<Incoming>| {
            let mut req = req.map(|body| Body::new(deadline::Deadline::new(body, body_timeout)));
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
                // Whatever it sent is refused alike; only the wait matters.
                let _ = stream.read(&mut head).await?;
                write_refusal(stream).await
            }
        }
    };
    // A client that does not take the refusal within a second is dropped unanswered.
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

/// Connections open per address, and the cap on them.
#[derive(Clone)]
struct PerAddress {
    most: usize,
    uncapped: Arc<[ipnet::IpNet]>,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// A connection's place among its address's; given back when dropped.
struct Place {
    of: Option<(PerAddress, IpAddr)>,
}

impl PerAddress {
    fn new(limits: &ConnectionLimits) -> Self {
        Self {
            most: limits.per_address,
            uncapped: limits.uncapped.clone().into(),
            open: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// A place for one more connection from `ip`, if it has one left.
    fn take(&self, ip: IpAddr) -> Option<Place> {
        if self.uncapped.iter().any(|net| net.contains(&ip)) {
            return Some(Place { of: None });
        }
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(ip).or_insert(0);
        if *count >= self.most {
            return None;
        }
        *count += 1;
        Some(Place {
            of: Some((self.clone(), ip)),
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let Some((per, ip)) = self.of.take() else {
            return;
        };
        let mut open = per.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&ip);
            }
        }
    }
}
