//! Bounded work per call (issue 19): a batch over any of its limits is `13004` naming the limit,
//! and writes nothing.

use serde_json::{Value, json};

use crate::common::Platform;

fn products(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"productUri": format!("gms:{i}"), "limitConcurrent": 1}))
        .collect()
}

fn numbers(from: usize, n: usize) -> Vec<String> {
    (from..from + n).map(|i| format!("L-{i:06}")).collect()
}

fn batch(id: &str, assets: Vec<Value>) -> Value {
    let orders: Vec<Value> = assets
        .into_iter()
        .enumerate()
        .map(|(i, asset)| {
            json!({"sequence": i + 1, "channelCustomerId": "C-1", "customerName": "上海测试客户",
                   "licenseType": "softkey", "orderType": "new_buy", "assets": [asset]})
        })
        .collect();
    json!({"channelCode": "CRM", "channelOrderId": id, "syncMode": "sync", "orderList": orders})
}

#[track_caller]
fn assert_refused(reply: &crate::common::Reply, message: &str) {
    assert_eq!(reply.status, 299, "{}", reply.body);
    assert_eq!(reply.body["code"], "13004", "{}", reply.body);
    assert_eq!(reply.body["message"], message);
}

#[tokio::test]
async fn a_batch_over_a_limit_is_refused_naming_it_and_writes_nothing() {
    let p = Platform::start().await;
    let many = batch(
        "LIMIT-1",
        vec![json!({"assetNos": numbers(0, 20_001), "products": products(1)})],
    );
    assert_refused(
        &p.batch(many).await,
        "orderList: 20001 asset numbers in the batch; at most 20000 per batch: split it into several batches",
    );
    let heavy = batch(
        "LIMIT-2",
        vec![
            json!({"assetNos": numbers(0, 10_000), "products": products(6)}),
            json!({"assetNos": numbers(10_000, 10_000), "products": products(5)}),
        ],
    );
    assert_refused(
        &p.batch(heavy).await,
        "orderList: 110000 products granted or removed in all (asset numbers × products); at most 100000 per batch: split it into several batches",
    );
    let wide = batch(
        "LIMIT-3",
        vec![json!({"assetNos": ["L-1"], "products": products(201)})],
    );
    assert_refused(
        &p.batch(wide).await,
        "orderList[0].assets[0].products: 201 products on one asset entry, packages included; at most 200",
    );
    let package = |i: usize| json!({"merchandiseNum": format!("PKG-{i}"), "licenseOrderProductList": products(1)});
    let packages: Vec<Value> = (0..201)
        .map(|i| json!({"merchandiseNum": format!("PKG-{i}")}))
        .collect();
    let bushy = batch(
        "LIMIT-4",
        vec![json!({"assetNos": ["L-1"], "merchandises": packages})],
    );
    assert_refused(
        &p.batch(bushy).await,
        "orderList[0].assets[0].merchandises: 201 packages in one asset entry; at most 200",
    );
    assert_eq!(p.count("batches"), 0);
    assert_eq!(p.count("assets"), 0);

    // At the limits it is taken.
    let packages: Vec<Value> = (0..200).map(package).collect();
    let full = batch(
        "LIMIT-5",
        vec![json!({"assetNos": ["L-1"], "merchandises": packages})],
    );
    let reply = p.batch(full).await;
    assert_eq!(reply.body["code"], 0, "{}", reply.body);
    assert_eq!(p.count("merchandises"), 200);
}

/// Every file in the data directory is the user's alone (license passwords are in it), also a
/// database an older version left readable by others; the directory, which existed, keeps its
/// mode.
#[cfg(unix)]
#[tokio::test]
async fn the_data_directory_is_private_to_the_user() {
    if crate::common::sqlite_only("the SQLite files' modes; PostgreSQL keeps no files here") {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let mode =
        |p: &std::path::Path| std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777;
    let mut p = Platform::start().await;
    let before = mode(p.dir.path());
    let db = p.dir.path().join("platform.sqlite3");
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    p.restart().await;
    assert_eq!(mode(p.dir.path()), before);
    let files: Vec<_> = std::fs::read_dir(p.dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    assert!(files.len() >= 3, "{files:?}");
    for file in files {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
}

/// Identifiers: control characters refused, a path id held to the same length as in a body,
/// compressed bodies refused rather than misread; leading and trailing spaces are trimmed
/// (as documented).
#[tokio::test]
async fn identifiers_and_encodings_are_held_to_the_rules() {
    let p = Platform::start().await;
    let create = "/order/api/order/v1/enterprise/user/create";
    p.post(
        create,
        json!({"crmCustomerId": "CRM\u{0}1", "customerName": "控制字符\u{1b}[31m有限公司"}),
    )
    .await
    .assert_13004("crmCustomerId: must not contain control characters (such as NUL or ESC)");
    // Free text keeps its line breaks.
    let made = p
        .post(
            create,
            json!({"crmCustomerId": " CRM-TRIM ", "customerName": "换行\n有限公司",
                   "address": "北京市\n海淀区"}),
        )
        .await;
    let eg = made.data()["enterpriseGlobalId"]
        .as_str()
        .expect("id")
        .to_owned();

    let long = "E".repeat(10_000);
    p.get(&format!("/order/api/order/v1/asset/{long}/list"), &[])
        .await
        .assert_13004("enterpriseGlobalId: at most 128 characters");
    p.get(
        &format!("/order/api/order/v1/asset/{eg}/list"),
        &[("extendCode", "x\u{7}")],
    )
    .await
    .assert_13004("extendCode: must not contain control characters (such as NUL or ESC)");
    // Trimmed: the same enterprise with spaces around its id.
    let listed = p
        .get(&format!("/order/api/order/v1/asset/%20{eg}%20/list"), &[])
        .await;
    assert_eq!(listed.data(), &json!([]));

    let r = p
        .http
        .post(format!("{}/order/api/order/v1/shellnums", p.base))
        .bearer_auth(&p.token)
        .query(&[("g_nonce", crate::common::nonce())])
        .header("Content-Type", "application/json")
        .header("Content-Encoding", "gzip")
        .body(vec![0x1f, 0x8b, 0x08, 0x00])
        .send()
        .await
        .expect("request");
    let reply = crate::common::Reply {
        status: r.status().as_u16(),
        body: r.json().await.expect("json"),
    };
    reply.assert_13004("Content-Encoding: must be identity (an uncompressed body), not \"gzip\"");
}
