//! Step 2, connections never timed out: a server under `ulimit -n 256` facing request heads
//! and bodies that stop arriving, sent over raw TCP.

use std::path::Path;
use std::time::{Duration, Instant};

use reqwest::Method;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::runtime::Runtime;
use tokio::sync::mpsc;

use crate::client::{Client, ORDER, nonce};
use crate::report::{before, fmt_dur, heading, held, now};
use crate::server::{Server, mib};

/// The open-file limit of the measurement.
const NOFILE: u32 = 256;
/// The most connections `serve` allows under that limit (256 less 64 for its own files).
const CAP: usize = 192;
const TIMEOUT: Duration = Duration::from_secs(2);
const STALLED_HEADS: usize = 240;
const STALLED_BODIES: usize = 12;
/// The largest body the platform takes; each stalled body stops one byte short of it.
const BODY: usize = 16 * 1024 * 1024;
/// How long a stalled connection is watched before it is counted as never closed.
const PATIENCE: Duration = Duration::from_secs(20);
/// How much later than its timeout a connection may be closed and still count as on time.
const SLACK: Duration = Duration::from_millis(1500);

pub fn step(bin: &Path, rt: &Runtime) {
    heading(2, "Connections never timed out");
    before(
        "under ulimit -n 256, ~240 half-sent requests (no token needed) made every other client \
         time out; a stalled body pinned up to 16 MiB per connection with no read timeout (12 \
         connections: +133 MiB RSS)",
    );
    let timeout = TIMEOUT.as_secs().to_string();
    let timeouts = [
        "--header-timeout",
        timeout.as_str(),
        "--body-timeout",
        timeout.as_str(),
    ];
    let default_refused = default_cap_refused(bin, &timeouts);
    let cap = CAP.to_string();
    let mut flags = vec!["--max-connections", cap.as_str()];
    flags.extend(timeouts);
    let server = Server::start(bin, &flags, Some(NOFILE))
        .unwrap_or_else(|log| panic!("serve did not start: {log}"));
    now(
        false,
        &format!(
            "serve {} under `ulimit -n {NOFILE}` (the server's open-file limit: {})",
            flags.join(" "),
            server.open_file_limit()
        ),
    );
    let bodies_ok = stalled_bodies(&server, rt);
    let heads_ok = stalled_heads(&server, rt);
    held(
        default_refused && bodies_ok && heads_ok,
        &format!(
            "stalled heads and bodies closed at their timeouts (within {} more), another client \
             answered by then, a cap over the open-file limit refused",
            fmt_dur(SLACK)
        ),
    );
}

/// `serve` with the default cap (1024) under the low open-file limit: whether it is refused.
fn default_cap_refused(bin: &Path, flags: &[&str]) -> bool {
    match Server::start(bin, flags, Some(NOFILE)) {
        Ok(_) => {
            now(
                true,
                &format!(
                    "serve with the default --max-connections 1024 under `ulimit -n {NOFILE}`: started"
                ),
            );
            false
        }
        Err(log) => {
            let said = log.lines().last().unwrap_or("(nothing)").to_owned();
            now(
                true,
                &format!(
                    "serve with the default --max-connections 1024 under `ulimit -n {NOFILE}`: \
                     refused at start: {said}"
                ),
            );
            true
        }
    }
}

/// How a stalled connection ended: when (from its head, or its connect for a head that never
/// completes) and what the server sent before closing it (`None`: still open at the end).
struct Ended {
    after: Duration,
    said: Option<String>,
}

impl Ended {
    fn first_line(&self) -> &str {
        self.said
            .as_deref()
            .and_then(|s| s.lines().next())
            .unwrap_or("")
    }

    fn body(&self) -> &str {
        self.said
            .as_deref()
            .and_then(|s| s.split_once("\r\n\r\n"))
            .map_or("", |(_, body)| body)
    }
}

/// Reads until the server closes the connection; what it sent, or `None` if it is still open
/// after [`PATIENCE`]. A reset counts as closed.
async fn until_closed(stream: &mut TcpStream) -> Option<String> {
    let mut got = Vec::new();
    match tokio::time::timeout(PATIENCE, stream.read_to_end(&mut got)).await {
        Ok(_) => Some(String::from_utf8_lossy(&got).into_owned()),
        Err(_) => None,
    }
}

fn host(server: &Server) -> String {
    server.base.trim_start_matches("http://").to_owned()
}

/// Twelve authenticated requests, each sending all of a 16 MiB body but its last byte, then
/// nothing: the server's memory before, at its peak and after, and how each ended.
fn stalled_bodies(server: &Server, rt: &Runtime) -> bool {
    let client = rt.block_on(Client::new(server, &server.app("stalled", "auth_order")));
    std::thread::sleep(Duration::from_millis(500));
    let before = server.rss_kib();
    server.reset_peak();
    let ends: Vec<Ended> = rt.block_on(async {
        let tasks: Vec<_> = (0..STALLED_BODIES)
            .map(|_| tokio::spawn(stalled_body(host(server), client.token.clone())))
            .collect();
        let mut ends = Vec::new();
        for t in tasks {
            ends.push(t.await.expect("stalled body task"));
        }
        ends
    });
    let peak = server.status_kib("VmHWM");
    std::thread::sleep(Duration::from_millis(500));
    let after = server.rss_kib();
    let (first, last) = span(&ends);
    now(
        false,
        &format!(
            "{STALLED_BODIES} connections each sending a {} MiB body but its last byte: RSS {} \
             before, {} at the peak, {} 0.5 s after they were closed",
            BODY >> 20,
            mib(before),
            mib(peak),
            mib(after)
        ),
    );
    let refused = |e: &Ended| e.first_line().starts_with("HTTP/1.1 299");
    now(
        false,
        &format!(
            "  closed {}–{} after their heads; {} of {STALLED_BODIES} answered {} {}",
            fmt_dur(first),
            fmt_dur(last),
            ends.iter().filter(|e| refused(e)).count(),
            ends.first().map_or("", Ended::first_line),
            ends.first().map_or("", Ended::body)
        ),
    );
    ends.iter().all(|e| refused(e) && e.after < TIMEOUT + SLACK)
}

/// The earliest and latest end.
fn span<'a>(ends: impl IntoIterator<Item = &'a Ended>) -> (Duration, Duration) {
    ends.into_iter()
        .map(|e| (e.after, e.after))
        .reduce(|(lo, hi), (a, b)| (lo.min(a), hi.max(b)))
        .unwrap_or_default()
}

async fn stalled_body(host: String, token: String) -> Ended {
    let mut s = TcpStream::connect(&host).await.expect("connect");
    let head = format!(
        "POST {ORDER}/shellnums?g_nonce={} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer \
         {token}\r\nContent-Type: application/json\r\nContent-Length: {BODY}\r\n\r\n",
        nonce()
    );
    s.write_all(head.as_bytes()).await.expect("write the head");
    let sent = Instant::now();
    let chunk = vec![b' '; 1 << 20];
    let mut left = BODY - 1;
    while left > 0 {
        let n = left.min(chunk.len());
        // The server may close first (its body timeout); what it said is read below.
        if s.write_all(&chunk[..n]).await.is_err() {
            break;
        }
        left -= n;
    }
    let said = until_closed(&mut s).await;
    Ended {
        after: sent.elapsed(),
        said,
    }
}

/// More request heads that never complete than the cap, then another client calling on a
/// new connection every 200 ms until it is answered.
fn stalled_heads(server: &Server, rt: &Runtime) -> bool {
    let mut other = rt.block_on(Client::new(server, &server.app("other", "auth_order")));
    // A new connection for every attempt, as a client arriving meanwhile would open.
    other.http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(5))
        .build()
        .expect("http client");
    let (ends, attempts) = rt.block_on(async {
        let (ready, mut all_ready) = mpsc::channel::<()>(1);
        let tasks: Vec<_> = (0..STALLED_HEADS)
            .map(|_| tokio::spawn(stalled_head(host(server), ready.clone())))
            .collect();
        drop(ready);
        // Every head is sent (or its connection failed) once every sender is dropped.
        while all_ready.recv().await.is_some() {}
        let attempts = until_answered(&other).await;
        let mut ends = Vec::new();
        for t in tasks {
            ends.push(t.await.expect("stalled head task"));
        }
        (ends, attempts)
    });
    report_heads(&ends, &attempts)
}

/// Connects and sends part of a request head, then only listens.
async fn stalled_head(host: String, ready: mpsc::Sender<()>) -> Ended {
    let Ok(mut s) = TcpStream::connect(&host).await else {
        return Ended {
            after: Duration::ZERO,
            said: Some("(connect failed)".to_owned()),
        };
    };
    // Counted from the connection's opening, as the server counts its header timeout (a
    // connect may wait a second for a SYN resent when 240 arrive at once).
    let opened = Instant::now();
    let head = format!("POST {ORDER}/shellnums HTTP/1.1\r\nHost: {host}\r\n");
    let _ = s.write_all(head.as_bytes()).await;
    drop(ready);
    let said = until_closed(&mut s).await;
    Ended {
        after: opened.elapsed(),
        said,
    }
}

/// Another client's call every 200 ms until one is answered 200 (at most [`PATIENCE`]): when
/// each attempt ended, from the first, and its status.
async fn until_answered(other: &Client) -> Vec<(Duration, String)> {
    let started = Instant::now();
    let mut attempts = Vec::new();
    let query = [
        ("channelCode", "CRM"),
        ("channelCustomerId", "ABUSE-NOBODY"),
    ];
    while started.elapsed() < PATIENCE {
        let r = other
            .http
            .request(
                Method::GET,
                format!("{}{ORDER}/enterprise/user/query", other.base),
            )
            .bearer_auth(&other.token)
            .query(&[("g_nonce", nonce().as_str())])
            .query(&query)
            .send()
            .await;
        let status = match r {
            Ok(r) => r.status().as_u16().to_string(),
            Err(e) if e.is_timeout() => "timed out".to_owned(),
            Err(e) => format!("failed ({})", innermost(&e)),
        };
        attempts.push((started.elapsed(), status.clone()));
        if status == "200" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    attempts
}

/// The innermost cause of an error (reqwest's own message only says the request failed).
fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// `503 ×9, failed (connection reset by peer) ×1`: how often each answer came, in order of first appearance.
fn tally<'a>(answers: impl Iterator<Item = &'a str>) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for a in answers {
        match counts.iter_mut().find(|(s, _)| *s == a) {
            Some((_, n)) => *n += 1,
            None => counts.push((a, 1)),
        }
    }
    if counts.is_empty() {
        return "none".to_owned();
    }
    let parts: Vec<String> = counts.iter().map(|(s, n)| format!("{s} ×{n}")).collect();
    parts.join(", ")
}

fn report_heads(ends: &[Ended], attempts: &[(Duration, String)]) -> bool {
    let is_503 = |e: &&Ended| e.first_line().starts_with("HTTP/1.1 503");
    let (over, rest): (Vec<&Ended>, Vec<&Ended>) = ends.iter().partition(is_503);
    let closed: Vec<&Ended> = rest.iter().copied().filter(|e| e.said.is_some()).collect();
    let silent = closed.iter().filter(|e| e.first_line().is_empty()).count();
    let open = rest.len() - closed.len();
    let (first, last) = span(closed.iter().copied());
    let slowest_503 = over.iter().map(|e| e.after).max().unwrap_or_default();
    now(
        false,
        &format!(
            "{STALLED_HEADS} request heads that never complete (no token): {} answered at once \
             (within {}) {} {}",
            over.len(),
            fmt_dur(slowest_503),
            over.first().map_or("", |e| e.first_line()),
            over.first().map_or("", |e| e.body())
        ),
    );
    now(
        false,
        &format!(
            "  {} closed by the server {}–{} after they opened ({silent} without a word{}); \
             {open} still open after {} s",
            closed.len(),
            fmt_dur(first),
            fmt_dur(last),
            if silent == closed.len() {
                String::new()
            } else {
                let said = closed.iter().map(|e| e.first_line());
                format!(", the others: {}", tally(said.filter(|l| !l.is_empty())))
            },
            PATIENCE.as_secs()
        ),
    );
    let answered = attempts.last().filter(|(_, s)| s == "200").map(|(t, _)| *t);
    now(
        false,
        &format!(
            "  another client meanwhile (a new connection every 200 ms): {}, then {}",
            tally(
                attempts
                    .iter()
                    .map(|(_, s)| s.as_str())
                    .filter(|s| *s != "200")
            ),
            match answered {
                Some(t) => format!("200 after {}", fmt_dur(t)),
                None => format!("no answer within {} s", PATIENCE.as_secs()),
            }
        ),
    );
    open == 0 && last < TIMEOUT + SLACK && answered.is_some_and(|t| t < TIMEOUT + SLACK)
}
