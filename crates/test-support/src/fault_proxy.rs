//! A fault-injecting HTTP/1.1 proxy on loopback, between a client and a real `serve`: each
//! call request (the token's pass untouched) meets the next fault queued, or none. Every
//! request goes to the platform on a connection of its own, closed after its answer, so a
//! fault is one request's fate and the proxy knows what reached the platform.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What happens to one call request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Forwarded, and its answer passed back.
    Pass,
    /// Read whole, then the connection is reset: it never reaches the platform.
    ResetBeforeForward,
    /// Forwarded and answered by the platform (committed), then the connection is closed
    /// without the answer.
    DropAnswer,
    /// Forwarded; the answer's status line, headers and half its body pass, then the
    /// connection closes.
    CutBody,
    /// Read whole and held: no answer ever, until the client gives up.
    Blackhole,
    /// Forwarded, then answered with a corporate proxy's HTML 502 page instead.
    Html502,
    /// Not forwarded: answered HTTP 200 with this body, as a broken endpoint might.
    Answer200(&'static str),
    /// Read whole and held until [`FaultProxy::release`], then forwarded: a client that waits
    /// as long as the test likes (as one paused in that request would).
    Hold,
}

pub struct FaultProxy {
    pub base: String,
    faults: Arc<Mutex<VecDeque<Fault>>>,
    /// Faults for the token endpoint's requests, apart.
    token_faults: Arc<Mutex<VecDeque<Fault>>>,
    /// Call requests that reached the platform.
    forwarded: Arc<AtomicUsize>,
    /// Call requests the proxy read from the client.
    received: Arc<AtomicUsize>,
    /// Requests held now.
    holding: Arc<AtomicUsize>,
    release: Arc<tokio::sync::watch::Sender<bool>>,
    /// The accepting task, while the proxy listens.
    accepting: Mutex<Option<tokio::task::JoinHandle<()>>>,
    shared: Shared,
    runtime: tokio::runtime::Runtime,
}

impl FaultProxy {
    /// A proxy in front of `upstream` (`http://127.0.0.1:PORT`).
    pub fn start(upstream: &str) -> FaultProxy {
        let upstream = upstream
            .strip_prefix("http://")
            .expect("an http:// upstream")
            .to_owned();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let listener = runtime
            .block_on(TcpListener::bind("127.0.0.1:0"))
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let faults = Arc::new(Mutex::new(VecDeque::new()));
        let token_faults = Arc::new(Mutex::new(VecDeque::new()));
        let forwarded = Arc::new(AtomicUsize::new(0));
        let received = Arc::new(AtomicUsize::new(0));
        let holding = Arc::new(AtomicUsize::new(0));
        let release = Arc::new(tokio::sync::watch::channel(false).0);
        let shared = Shared {
            holding: Arc::clone(&holding),
            release: Arc::clone(&release),
            upstream,
            faults: Arc::clone(&faults),
            token_faults: Arc::clone(&token_faults),
            forwarded: Arc::clone(&forwarded),
            received: Arc::clone(&received),
        };
        let accepting = runtime.spawn(accept(listener, shared.clone()));
        FaultProxy {
            accepting: Mutex::new(Some(accepting)),
            shared,
            base,
            faults,
            token_faults,
            forwarded,
            received,
            holding,
            release,
            runtime,
        }
    }

    /// Stops listening: connections to the proxy are refused, as to a platform that is down.
    pub fn go_away(&self) {
        let accepting = self
            .accepting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(task) = accepting {
            task.abort();
            let _ = self.runtime.block_on(task);
        }
    }

    /// Listens again on the same address.
    pub fn come_back(&self) {
        let addr = self.base.trim_start_matches("http://").to_owned();
        let listener = self
            .runtime
            .block_on(TcpListener::bind(addr))
            .expect("the same address again");
        let task = self.runtime.spawn(accept(listener, self.shared.clone()));
        *self
            .accepting
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(task);
    }

    /// Requests held now by [`Fault::Hold`].
    pub fn holding(&self) -> usize {
        self.holding.load(Ordering::SeqCst)
    }

    /// Lets every held request go on to the platform.
    pub fn release(&self) {
        self.release.send_replace(true);
    }

    /// Queues faults for the next call requests, in order.
    /// Stops the proxy from async code, off the async threads (where its runtime may not be
    /// dropped).
    pub async fn stop(self) {
        tokio::task::spawn_blocking(move || drop(self))
            .await
            .expect("the proxy stops");
    }

    pub fn then(&self, faults: &[Fault]) {
        self.faults
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(faults);
    }

    /// Queues faults for the next token requests, in order.
    pub fn then_token(&self, faults: &[Fault]) {
        self.token_faults
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(faults);
    }

    pub fn forwarded(&self) -> usize {
        self.forwarded.load(Ordering::SeqCst)
    }

    pub fn received(&self) -> usize {
        self.received.load(Ordering::SeqCst)
    }
}

async fn accept(listener: TcpListener, shared: Shared) {
    while let Ok((client, _)) = listener.accept().await {
        let shared = shared.clone();
        tokio::spawn(async move { shared.serve(client).await });
    }
}

#[derive(Clone)]
struct Shared {
    upstream: String,
    faults: Arc<Mutex<VecDeque<Fault>>>,
    token_faults: Arc<Mutex<VecDeque<Fault>>>,
    forwarded: Arc<AtomicUsize>,
    received: Arc<AtomicUsize>,
    holding: Arc<AtomicUsize>,
    release: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Shared {
    async fn serve(&self, mut client: TcpStream) {
        let Some((head, body)) = read_request(&mut client).await else {
            return;
        };
        let token = head
            .lines()
            .next()
            .is_some_and(|l| l.contains("/oauth2/token"));
        let queue = if token {
            &self.token_faults
        } else {
            self.received.fetch_add(1, Ordering::SeqCst);
            &self.faults
        };
        let fault = queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
            .unwrap_or(Fault::Pass);
        match fault {
            Fault::ResetBeforeForward => {
                let _ = client.set_zero_linger();
                return;
            }
            Fault::Answer200(body) => {
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\
                     Connection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = client.write_all(answer.as_bytes()).await;
                let _ = client.shutdown().await;
                return;
            }
            Fault::Hold => {
                let mut released = self.release.subscribe();
                self.holding.fetch_add(1, Ordering::SeqCst);
                let _ = released.wait_for(|r| *r).await;
                self.holding.fetch_sub(1, Ordering::SeqCst);
            }
            Fault::Blackhole => {
                // Held until the client closes it.
                let mut sink = [0u8; 1024];
                while matches!(client.read(&mut sink).await, Ok(n) if n > 0) {}
                return;
            }
            _ => {}
        }
        let Some(answer) = self.forward(&head, &body).await else {
            return;
        };
        if !token {
            self.forwarded.fetch_add(1, Ordering::SeqCst);
        }
        let out = match fault {
            Fault::DropAnswer => return,
            Fault::CutBody => {
                let split = find(&answer, b"\r\n\r\n").map_or(answer.len(), |i| i + 4);
                let half = split + (answer.len() - split) / 2;
                answer[..half].to_vec()
            }
            Fault::Html502 => html_502(),
            _ => answer,
        };
        let _ = client.write_all(&out).await;
        let _ = client.shutdown().await;
    }

    /// The request on a connection of its own, closed by the platform after its answer: the
    /// answer is everything until then.
    async fn forward(&self, head: &str, body: &[u8]) -> Option<Vec<u8>> {
        let mut upstream = TcpStream::connect(&self.upstream).await.ok()?;
        let mut request = close_after(head).into_bytes();
        request.extend_from_slice(body);
        upstream.write_all(&request).await.ok()?;
        let mut answer = Vec::new();
        upstream.read_to_end(&mut answer).await.ok()?;
        Some(answer)
    }
}

/// A request's head (up to its blank line) and its body (by Content-Length).
async fn read_request(client: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i + 4;
        }
        let n = client.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let length = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = buf[end..].to_vec();
    while body.len() < length {
        let n = client.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some((head, body))
}

/// The head with `Connection: close` in place of any connection header.
fn close_after(head: &str) -> String {
    let mut lines: Vec<&str> = head
        .trim_end_matches("\r\n")
        .split("\r\n")
        .filter(|l| {
            !l.split_once(':')
                .is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case("connection"))
        })
        .collect();
    lines.push("Connection: close");
    format!("{}\r\n\r\n", lines.join("\r\n"))
}

fn html_502() -> Vec<u8> {
    let page = "<html><head><title>502 Bad Gateway</title></head>\
                <body><h1>502 Bad Gateway</h1><p>The proxy server received an invalid response \
                from an upstream server.</p></body></html>";
    format!(
        "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{page}",
        page.len()
    )
    .into_bytes()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
