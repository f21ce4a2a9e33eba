//! Connection hygiene (issue 19): a request head that never completes, a body that stops
//! arriving, and more connections than the cap, none of which keeps other clients out.

use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{Platform, nonce};

const SHELLNUMS: &str = "/order/api/order/v1/shellnums";
const HEADER_TIMEOUT: Duration = Duration::from_millis(300);
const BODY_TIMEOUT: Duration = Duration::from_millis(300);
/// Longest any condition below is waited for before the test fails.
const PATIENCE: Duration = Duration::from_secs(20);

async fn platform(max_connections: usize) -> Platform {
    Platform::start_with(|c| {
        c.connections.max_connections = max_connections;
        c.connections.header_timeout = HEADER_TIMEOUT;
        c.connections.body_timeout = BODY_TIMEOUT;
    })
    .await
}

fn host(p: &Platform) -> String {
    p.base.trim_start_matches("http://").to_owned()
}

/// Reads until the server closes the connection; what it sent.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let read = tokio::time::timeout(PATIENCE, stream.read_to_end(&mut got)).await;
    assert!(read.is_ok(), "the server never closed the connection");
    String::from_utf8_lossy(&got).into_owned()
}

#[tokio::test]
async fn a_head_that_never_completes_is_closed() {
    let p = platform(64).await;
    let mut stream = TcpStream::connect(host(&p)).await.expect("connect");
    stream
        .write_all(b"POST /order/api/order/v1/shellnums HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let said = until_closed(&mut stream).await;
    // hyper closes without a word, or with 408.
    assert!(
        said.is_empty() || said.starts_with("HTTP/1.1 408"),
        "{said}"
    );
}

#[tokio::test]
async fn a_body_that_stops_arriving_is_refused_and_the_connection_closed() {
    let p = platform(64).await;
    let mut stream = TcpStream::connect(host(&p)).await.expect("connect");
    let head = format!(
        "POST {SHELLNUMS}?g_nonce={} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"size\":",
        nonce(),
        p.token
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    let said = until_closed(&mut stream).await;
    let (_, body) = said.split_once("\r\n\r\n").expect("an answer");
    let body: Value = serde_json::from_str(body).expect("json");
    assert_eq!(body["code"], "13004", "{said}");
    assert_eq!(
        body["message"],
        "body: did not arrive within 0.3 s; send it whole at once"
    );
    assert!(said.starts_with("HTTP/1.1 299"), "{said}");
}

/// More half-sent connections than the cap: the ones over it are told at once; a normal
/// client is answered as soon as the stalled ones time out, and no later than that.
#[tokio::test]
async fn half_sent_connections_over_the_cap_do_not_keep_a_client_out() {
    const CAP: usize = 8;
    let p = platform(CAP).await;
    let mut stalled = Vec::new();
    for _ in 0..CAP {
        let mut s = TcpStream::connect(host(&p)).await.expect("connect");
        s.write_all(b"GET / HTTP/1.1\r\n").await.expect("write");
        stalled.push(s);
    }
    // The cap is taken: one more is answered 503 straight away and closed.
    let mut over = TcpStream::connect(host(&p)).await.expect("connect");
    over.write_all(b"GET / HTTP/1.1\r\n").await.expect("write");
    let said = until_closed(&mut over).await;
    assert!(said.starts_with("HTTP/1.1 503"), "{said}");
    assert!(said.contains("too many open connections"), "{said}");

    let started = Instant::now();
    loop {
        let r = p
            .http
            .post(format!("{}{SHELLNUMS}", p.base))
            .bearer_auth(&p.token)
            .query(&[("g_nonce", nonce())])
            .json(&serde_json::json!({"size": 1}))
            .send()
            .await;
        if let Ok(r) = r
            && r.status() == 200
        {
            break;
        }
        assert!(started.elapsed() < PATIENCE, "never answered");
        tokio::task::yield_now().await;
    }
    // The stalled connections were closed by the server.
    for mut s in stalled {
        until_closed(&mut s).await;
    }
}
