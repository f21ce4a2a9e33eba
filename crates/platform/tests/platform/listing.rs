//! Operation 8 streamed (issue 19, "Listings stream"): the answer is written as it is read,
//! byte for byte what the whole listing was, and listings beyond `max_streaming` wait for a
//! turn; a client that leaves mid-listing gives its turn back.

use std::time::{Duration, Instant};

use platform::ListingCounts;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use wire::{Asset, AssetExtend, AssetProduct, AssignStatus, OrderEnvelope};

use crate::common::{Platform, batch_of, nonce};
use crate::orders::enterprise;

/// Longest any condition below is waited for before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);
/// Assets of the enterprise whose listing (about 5 MB) cannot fit in the socket buffers of a
/// client that stops reading: its listing stays in progress until the client reads on.
const BIG: usize = 8000;

fn list_url(p: &Platform, egid: &str) -> String {
    format!("{}/order/api/order/v1/asset/{egid}/list", p.base)
}

/// An order of `customer` (bound to the enterprise) for the asset numbers, with the products
/// (URIs) and extension attributes.
fn order(seq: usize, customer: &str, egid: &str, nums: &[String], products: &[&str]) -> Value {
    let products: Vec<Value> = products
        .iter()
        .map(|u| json!({"productUri": u, "productName": format!("产品 {u}"), "limitConcurrent": 1}))
        .collect();
    let extends = match seq % 4 {
        0 => {
            json!([{"extendCode": "zz", "extendValue": "9"}, {"extendCode": "gxxp", "extendValue": "1"}])
        }
        1 => json!([{"extendCode": "gxxp", "extendValue": "2"}]),
        _ => json!([]),
    };
    json!({
        "sequence": seq, "channelCustomerId": customer, "customerName": "测试客户",
        "enterpriseGlobalId": egid, "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
        "assets": [{"assetNos": nums, "assetExtendList": extends, "products": products}]
    })
}

fn numbers(order: usize, per_order: usize) -> Vec<String> {
    (0..per_order)
        .map(|j| format!("8{:09}", order * per_order + j))
        .collect()
}

/// The answer's status, headers and body bytes as sent.
async fn fetch(
    http: &reqwest::Client,
    url: &str,
    token: &str,
    extend_code: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut query = vec![("g_nonce", nonce())];
    query.extend(extend_code.map(|c| ("extendCode", c.to_owned())));
    let r = http
        .get(url)
        .bearer_auth(token)
        .query(&query)
        .send()
        .await
        .expect("request");
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let body = r.bytes().await.expect("whole body");
    (status, headers, body.to_vec())
}

/// The listing as it was built before it streamed (`rules::assets::list` at 4a1146b): every
/// asset gathered in memory with maps of its products and attributes, then the envelope written
/// at once; read here from the platform's store (either).
fn whole_listing(p: &Platform, egid: &str, extend_code: Option<&str>) -> Vec<u8> {
    let mut extends = whole_extends(p, egid);
    let mut products = whole_products(p, egid);
    let rows = p.rows(
        "SELECT a.id, a.asset_id, a.license_type, a.asset_num, a.grantable, c.customer_id, \
         a.key_shell_number, a.key_chip_type, a.locked, a.freezing, a.created_at, a.updated_at, \
         a.limit_start, a.limit_end, a.assign_status, a.assign_member_id, a.borrowed_usb_key, \
         lo.license_order_id \
         FROM assets a JOIN customers c ON c.id = a.customer_id \
         JOIN enterprises e ON e.id = c.enterprise_id \
         LEFT JOIN license_orders lo ON lo.id = a.license_order_id \
         WHERE e.global_id = ?1 ORDER BY a.id",
        &[egid],
    );
    let mut out = Vec::new();
    for r in rows {
        let asset_extends = extends.remove(&r.i64(0)).unwrap_or_default();
        if let Some(code) = extend_code
            && !asset_extends.iter().any(|e| e.extend_code == code)
        {
            continue;
        }
        let id = r.text(1);
        let created = r.i64(10);
        out.push(Asset {
            assign_status: AssignStatus {
                id: id.clone(),
                assign_status: r.text(14),
                assign_member_id: r.text(15),
                create_time: created.to_string(),
                update_time: None,
            },
            id,
            license_type: r.text(2),
            asset_num: r.text(3),
            grantable: r.flag(4),
            customer_id: r.text(5),
            key_shell_number: r.text(6),
            key_chip_type: i32::try_from(r.i64(7)).expect("chip type"),
            locked: r.flag(8),
            freezing: r.flag(9),
            create_time: created,
            update_time: r.i64(11),
            limit_start_time: r.opt_i64(12),
            limit_end_time: r.opt_i64(13),
            asset_limits: None,
            asset_extends,
            borrowed_usb_key: r.flag(16),
            license_order_id: r.opt_text(17),
            products: products.remove(&r.i64(0)).unwrap_or_default(),
        });
    }
    serde_json::to_vec(&OrderEnvelope::success(out)).expect("json")
}

fn whole_extends(p: &Platform, egid: &str) -> std::collections::HashMap<i64, Vec<AssetExtend>> {
    let mut extends: std::collections::HashMap<i64, Vec<AssetExtend>> = Default::default();
    let rows = p.rows(
        "SELECT x.asset_id, x.extend_code, x.extend_value FROM asset_extends x \
         JOIN assets a ON a.id = x.asset_id JOIN customers c ON c.id = a.customer_id \
         JOIN enterprises e ON e.id = c.enterprise_id WHERE e.global_id = ?1",
        &[egid],
    );
    for r in rows {
        extends.entry(r.i64(0)).or_default().push(AssetExtend {
            extend_code: r.text(1),
            extend_value: r.text(2),
        });
    }
    extends
}

fn whole_products(p: &Platform, egid: &str) -> std::collections::HashMap<i64, Vec<AssetProduct>> {
    let mut products: std::collections::HashMap<i64, Vec<AssetProduct>> = Default::default();
    let rows = p.rows(
        "SELECT p.asset_id, p.product_uri, p.product_name, p.limit_start, p.limit_end, \
         p.limit_concurrent, lo.license_order_id, cl.activity_id, cl.unit_id, p.awaiting_activation \
         FROM products p JOIN assets a ON a.id = p.asset_id JOIN customers c ON c.id = a.customer_id \
         JOIN enterprises e ON e.id = c.enterprise_id \
         LEFT JOIN license_orders lo ON lo.id = p.license_order_id \
         LEFT JOIN claims cl ON cl.id = p.claim_id \
         WHERE e.global_id = ?1 ORDER BY p.id",
        &[egid],
    );
    for r in rows {
        products.entry(r.i64(0)).or_default().push(AssetProduct {
            product_uri: r.text(1),
            product_name: r.opt_text(2),
            limit_start_date: r.opt_i64(3),
            limit_end_date: r.opt_i64(4),
            limit_concurrent: r.opt_i64(5).map(|n| i32::try_from(n).expect("concurrent")),
            license_order_id: r.opt_text(6),
            activity_id: r.opt_text(7),
            sub_activity_id: r.opt_text(8),
            awaiting_activation: r.flag(9),
        });
    }
    products
}

/// Three customers whose assets interleave by age, products granted out of URI order and
/// again later, and several attributes per asset: every ordering the merge must get right.
#[tokio::test]
async fn a_streamed_listing_is_byte_for_byte_the_whole_one() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-L").await;
    let customers = ["CRM-L", "SHOP-A", "SHOP-B"];
    let orders: Vec<Value> = (0..60)
        .map(|i| {
            let products: &[&str] = if i % 2 == 0 {
                &["P-Z", "P-A"]
            } else {
                &["P-M"]
            };
            order(i, customers[i % 3], &egid, &numbers(i, 4), products)
        })
        .collect();
    p.batch(batch_of("L-1", orders)).await.data();
    // Older assets of two customers gain a product: their products are no longer adjacent rows.
    let more = vec![
        order(1, "CRM-L", &egid, &numbers(0, 4)[..1], &["P-B"]),
        order(2, "SHOP-A", &egid, &numbers(1, 4)[1..3], &["P-0"]),
    ];
    p.batch(batch_of("L-2", more)).await.data();

    let url = list_url(&p, &egid);
    for code in [None, Some("gxxp"), Some("zz"), Some("absent")] {
        let (status, headers, body) = fetch(&p.http, &url, &p.token, code).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        assert_eq!(headers["content-type"], "application/json");
        let whole = whole_listing(&p, &egid, code);
        assert_eq!(
            String::from_utf8(body.clone()).expect("utf-8"),
            String::from_utf8(whole).expect("utf-8"),
            "extendCode {code:?}"
        );
        // Over a piece (64 KiB) the answer is chunked; within one it has a length, as before.
        let chunked = headers.get("transfer-encoding").map(|v| v.to_owned());
        if body.len() > 64 * 1024 {
            assert_eq!(
                chunked.as_ref().map(|v| v.as_bytes()),
                Some(&b"chunked"[..])
            );
        } else {
            assert_eq!(headers["content-length"], body.len().to_string().as_str());
        }
    }
    let (_, _, all) = fetch(&p.http, &url, &p.token, None).await;
    let all: Value = serde_json::from_slice(&all).expect("json");
    assert_eq!(all["data"].as_array().map(Vec::len), Some(240));
    assert!(all.to_string().len() > 64 * 1024, "more than one piece");
}

/// An enterprise of `n` assets, one product each, set up in one batch.
async fn big_enterprise(p: &Platform, crm: &str, n: usize) -> String {
    let egid = enterprise(p, crm).await;
    let per_order = 8;
    let orders: Vec<Value> = (0..n / per_order)
        .map(|i| order(i + 2, crm, &egid, &numbers(i, per_order), &["gms:1"]))
        .collect();
    p.batch(batch_of(&format!("{crm}-big"), orders))
        .await
        .data();
    egid
}

fn counts(p: &Platform) -> ListingCounts {
    p.server.as_ref().expect("server runs").listings()
}

/// Waits until the platform's listing counts meet `what`.
async fn until(p: &Platform, what: &str, ok: impl Fn(&ListingCounts) -> bool) -> ListingCounts {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let now = counts(p);
        if ok(&now) {
            return now;
        }
        assert!(Instant::now() < deadline, "never {what}: {now:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A listing whose client reads the head and then stops reading (a small receive buffer, so
/// the platform soon cannot write more). The head and what came with it.
async fn stalled_listing(p: &Platform, egid: &str) -> (TcpStream, Vec<u8>) {
    let socket = TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("small buffer");
    let addr = p.base.trim_start_matches("http://").parse().expect("addr");
    let mut stream = socket.connect(addr).await.expect("connect");
    let head = format!(
        "GET /order/api/order/v1/asset/{egid}/list?g_nonce={} HTTP/1.1\r\nHost: x\r\n\
         Authorization: Bearer {}\r\nConnection: close\r\n\r\n",
        nonce(),
        p.token
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    let mut got = Vec::new();
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        let mut buf = [0u8; 1024];
        let n = stream.read(&mut buf).await.expect("read head");
        assert!(n > 0, "closed before the head");
        got.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("transfer-encoding: chunked"), "{text}");
    (stream, got)
}

/// The body of a chunked answer (head included in `raw`).
fn dechunk(raw: &[u8]) -> Vec<u8> {
    let at = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("head") + 4;
    let mut rest = &raw[at..];
    let mut body = Vec::new();
    loop {
        let eol = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("size line");
        let size = std::str::from_utf8(&rest[..eol]).expect("hex");
        let size = usize::from_str_radix(size.trim(), 16).expect("chunk size");
        rest = &rest[eol + 2..];
        if size == 0 {
            assert_eq!(rest, b"\r\n", "the body ends cleanly");
            return body;
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

#[tokio::test]
async fn a_listing_over_the_cap_waits_for_a_turn_and_a_client_that_leaves_gives_its_turn_back() {
    let p = Platform::start_with(|c| {
        c.listings.max_streaming = 1;
        c.listings.wait = PATIENCE;
    })
    .await;
    let egid = big_enterprise(&p, "CRM-BIG", BIG).await;
    let url = list_url(&p, &egid);
    let whole = whole_listing(&p, &egid, None);

    // The first listing takes the only turn and keeps it while its client does not read.
    let (mut first, mut raw) = stalled_listing(&p, &egid).await;
    until(&p, "one listing streaming", |c| c.streaming == 1).await;
    let (http, token, url2) = (p.http.clone(), p.token.clone(), url.clone());
    let second = tokio::spawn(async move { fetch(&http, &url2, &token, None).await });
    until(&p, "a second listing waiting", |c| {
        c.streaming == 1 && c.waiting == 1
    })
    .await;
    assert!(!second.is_finished());

    // Read on: the first ends whole, and the second gets its turn.
    let read = tokio::time::timeout(PATIENCE, first.read_to_end(&mut raw)).await;
    read.expect("the first listing ends").expect("read");
    assert_eq!(dechunk(&raw), whole);
    let (status, _, body) = second.await.expect("second listing");
    assert_eq!(status, 200);
    assert_eq!(body, whole);
    let c = until(&p, "both listings done", |c| c.completed == 2).await;
    assert_eq!((c.streaming, c.waiting, c.cut_off), (0, 0, 0));

    // A client that leaves mid-listing: its task stops and gives the turn back.
    let (third, _) = stalled_listing(&p, &egid).await;
    until(&p, "the third streaming", |c| c.streaming == 1).await;
    drop(third);
    let c = until(&p, "the third cut off", |c| c.streaming == 0).await;
    assert_eq!((c.completed, c.cut_off), (2, 1));
    let (status, _, body) = fetch(&p.http, &url, &p.token, None).await;
    assert_eq!(status, 200);
    assert_eq!(body, whole);
}

#[tokio::test]
async fn a_listing_that_waits_too_long_for_a_turn_is_refused_as_busy() {
    let p = Platform::start_with(|c| {
        c.listings.max_streaming = 1;
        c.listings.wait = Duration::from_millis(300);
    })
    .await;
    let egid = big_enterprise(&p, "CRM-BUSY", BIG).await;
    let (first, _) = stalled_listing(&p, &egid).await;
    until(&p, "one listing streaming", |c| c.streaming == 1).await;

    let busy = p
        .get(&format!("/order/api/order/v1/asset/{egid}/list"), &[])
        .await;
    assert_eq!(busy.status, 299, "{}", busy.body);
    assert_eq!(
        busy.body,
        json!({"code": "500",
               "message": "the platform is busy with 1 asset listing and this one waited 0.3 s for its turn; retry in a moment",
               "cause": "too much of this work in hand; nothing was read or written"})
    );
    // Refusals that need no turn are not held up by the busy ones.
    p.get("/order/api/order/v1/asset/EG9999999999/list", &[])
        .await
        .assert_13004("enterpriseGlobalId: no enterprise master account EG9999999999");
    drop(first);
    until(&p, "the first cut off", |c| {
        c.streaming == 0 && c.cut_off == 1
    })
    .await;
}
