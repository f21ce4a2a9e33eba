//! A TCP proxy on loopback that delays what passes by a fixed time each way, as the network
//! between two hosts does (netem's delay, without its jitter): a platform 10 ms away, a
//! database 2 ms away. Bytes keep their order and are not held back by each other: each chunk
//! leaves its delay after it arrived, so a connection's throughput is not capped by it.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// A delaying proxy on the runtime that started it, listening until dropped.
pub struct DelayProxy {
    pub addr: SocketAddr,
    accepting: tokio::task::JoinHandle<()>,
}

impl DelayProxy {
    /// A proxy in front of `upstream`, delaying each way by `each_way`.
    pub async fn start(upstream: SocketAddr, each_way: Duration) -> DelayProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let accepting = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(relay(client, upstream, each_way));
            }
        });
        DelayProxy { addr, accepting }
    }

    /// `http://ADDR`, for an HTTP upstream.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for DelayProxy {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

async fn relay(client: TcpStream, upstream: SocketAddr, each_way: Duration) {
    let Ok(server) = TcpStream::connect(upstream).await else {
        return;
    };
    // Small writes (a PostgreSQL message, an HTTP head) leave at once, as on a real network.
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    tokio::join!(
        delayed(client_read, server_write, each_way),
        delayed(server_read, client_write, each_way)
    );
}

/// Copies `from` to `to`, each chunk `delay` after it was read; the end passes on as well.
async fn delayed(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, delay: Duration) {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let reading = async move {
        let mut buf = vec![0; 64 * 1024];
        while let Ok(n) = from.read(&mut buf).await {
            if n == 0
                || tx
                    .send((Instant::now() + delay, buf[..n].to_vec()))
                    .is_err()
            {
                break;
            }
        }
    };
    let writing = async move {
        while let Some((at, bytes)) = rx.recv().await {
            tokio::time::sleep_until(at).await;
            if to.write_all(&bytes).await.is_err() {
                return;
            }
        }
        let _ = to.shutdown().await;
    };
    tokio::join!(reading, writing);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round trip through the proxy takes the delay twice, and what is sent comes back whole.
    #[tokio::test]
    async fn a_round_trip_takes_the_delay_each_way() {
        let echo = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let upstream = echo.local_addr().expect("address");
        tokio::spawn(async move {
            let (mut s, _) = echo.accept().await.expect("accept");
            let mut buf = [0; 5];
            s.read_exact(&mut buf).await.expect("read");
            s.write_all(&buf).await.expect("write");
        });
        let proxy = DelayProxy::start(upstream, Duration::from_millis(15)).await;
        let mut s = TcpStream::connect(proxy.addr).await.expect("connect");
        let start = Instant::now();
        s.write_all(b"hello").await.expect("write");
        let mut back = [0; 5];
        s.read_exact(&mut back).await.expect("read");
        assert_eq!(&back, b"hello");
        assert!(
            start.elapsed() >= Duration::from_millis(30),
            "{:?}",
            start.elapsed()
        );
    }
}
