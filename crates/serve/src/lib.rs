//! How License Desk's servers (the embedded platform and the team server) take connections:
//! limits on connections and on slow clients (`listen`), TLS from PEM files (`tls`), attempts
//! slowed down past an allowance (`throttle`), and the one reader of PEM files (`pem`), which
//! the client's trust and the PostgreSQL store's TLS use too.

pub mod listen;
pub mod pem;
pub mod throttle;
pub mod tls;

pub use listen::{ConnectionLimits, bind};
pub use tls::{TlsError, TlsFiles, acceptor};

use std::net::SocketAddr;

/// Why a server could not start taking connections: the same for the platform and the team
/// server, each of which wraps it beside its own reasons.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Tls(#[from] TlsError),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
}
