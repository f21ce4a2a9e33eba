//! Malformed requests: every one is HTTP 299 `13004` naming the field, and writes nothing
//! (DESIGN: "Validation"); unknown paths and methods; a failing database (DESIGN: "Storage
//! errors").

use serde_json::{Value, json};

use crate::common::{Platform, Reply, batch_of, new_buy, nonce};

const BATCH: &str = "/order/api/order/v1/licenseOrder/batchOrder";
const SHELLNUMS: &str = "/order/api/order/v1/shellnums";
const CREATE: &str = "/order/api/order/v1/enterprise/user/create";
const QUERY: &str = "/order/api/order/v1/enterprise/user/query";
const LOCK: &str = "/order/api/order/v1/asset/lock";

/// Tables a request may write to (nonces and tokens aside).
const TABLES: &[&str] = &[
    "enterprises",
    "members",
    "customers",
    "batches",
    "license_orders",
    "assets",
    "asset_extends",
    "merchandises",
    "products",
    "lock_events",
];

/// Row counts of every business table and the sum of the counters (ids, asset numbers).
fn written(p: &Platform) -> Vec<(String, i64)> {
    let mut all: Vec<(String, i64)> = TABLES
        .iter()
        .map(|t| ((*t).to_owned(), p.count(t)))
        .collect();
    let counters = p
        .row(
            "SELECT CAST(coalesce(sum(value), 0) AS bigint) FROM counters",
            &[],
        )
        .i64(0);
    all.push(("counters".to_owned(), counters));
    all
}

/// A POST with this platform's token and a fresh nonce, the body and Content-Type as given.
async fn post_raw(
    p: &Platform,
    path: &str,
    content_type: Option<&str>,
    body: impl Into<reqwest::Body>,
) -> Reply {
    let n = nonce();
    let key = p.app.app_key.clone();
    let mut query = vec![("g_nonce", n.as_str())];
    if path == BATCH {
        query.push(("appKey", key.as_str()));
    }
    let mut req = p
        .http
        .post(format!("{}{path}", p.base))
        .bearer_auth(&p.token)
        .query(&query)
        .body(body);
    if let Some(ct) = content_type {
        req = req.header("Content-Type", ct);
    }
    p.raw(req).await
}

async fn post_json_text(p: &Platform, path: &str, body: impl Into<String>) -> Reply {
    post_raw(p, path, Some("application/json"), body.into()).await
}

/// HTTP 299 `13004` whose message starts with `prefix`.
#[track_caller]
fn assert_13004_starting(r: &Reply, prefix: &str) -> String {
    assert_eq!(r.status, 299, "{}", r.body);
    assert_eq!(r.body["code"], json!("13004"), "{}", r.body);
    assert!(r.body["cause"].is_string(), "{}", r.body);
    assert!(r.body.get("data").is_none(), "{}", r.body);
    let message = r.body["message"].as_str().expect("message").to_owned();
    assert!(
        message.starts_with(prefix),
        "message {message:?} should start with {prefix:?}"
    );
    message
}

/// A valid one-order batch whose single product is `product`.
fn batch_with_product(id: &str, product: Value) -> Value {
    json!({
        "channelCode": "CRM",
        "channelOrderId": id,
        "syncMode": "sync",
        "orderList": [{
            "sequence": 1,
            "channelCustomerId": "C-1",
            "customerName": "上海测试客户",
            "licenseType": "softkey",
            "orderType": "new_buy",
            "assets": [{"assetNos": ["A-1"], "products": [product]}]
        }]
    })
}

fn valid_batch(id: &str) -> Value {
    batch_of(
        id,
        vec![new_buy(1, "C-1", "normal_recover_usbkey", "A-1", &["p1"])],
    )
}

#[tokio::test]
async fn malformed_bodies_name_the_field_and_write_nothing() {
    let p = Platform::start().await;
    let before = written(&p);

    // Not JSON at all, or with something after the value.
    for text in ["not json", "", "nul", "\u{feff}{}"] {
        let r = post_json_text(&p, BATCH, text).await;
        let m = assert_13004_starting(&r, "body: ");
        assert!(m.contains("line 1 column"), "{m}");
    }
    let r = post_json_text(&p, BATCH, "[1, 2]").await;
    assert_13004_starting(&r, "body: ");
    let r = post_json_text(&p, SHELLNUMS, "{\"size\": 1} trailing").await;
    let m = assert_13004_starting(&r, "body: trailing characters");
    assert!(m.contains("line 1 column"), "{m}");
    let r = post_json_text(&p, SHELLNUMS, "{\"size\": 1}{\"size\": 2}").await;
    assert_13004_starting(&r, "body: trailing characters");
    let r = post_json_text(&p, SHELLNUMS, "{\n  \"size\":\n  oops\n}").await;
    let m = assert_13004_starting(&r, "size: ");
    assert!(m.contains("line 3 column"), "{m}");

    // A wrong type deep in a batch.
    let deep = batch_with_product(
        "B-1",
        json!({"productUri": "p1", "productName": "n", "limitConcurrent": "x"}),
    );
    assert_13004_starting(
        &p.batch(deep).await,
        "orderList[0].assets[0].products[0].limitConcurrent: must be a whole number",
    );
    let mut list_not_array = valid_batch("B-2");
    list_not_array["orderList"][0]["assets"][0]["assetNos"] = json!("A-1");
    assert_13004_starting(
        &p.batch(list_not_array).await,
        "orderList[0].assets[0].assetNos: must be a list",
    );
    let mut flag_not_bool = valid_batch("B-3");
    flag_not_bool["orderList"][0]["assets"][0]["transferedAssetNum"] = json!("yes");
    assert_13004_starting(
        &p.batch(flag_not_bool).await,
        "orderList[0].assets[0].transferedAssetNum: must be true or false",
    );

    // Unknown enum values.
    let mut license = valid_batch("B-4");
    license["orderList"][0]["licenseType"] = json!("foo");
    assert_13004_starting(
        &p.batch(license).await,
        "orderList[0].licenseType: foo is not a value the interface lists",
    );
    let mut order_type = valid_batch("B-5");
    order_type["orderList"][0]["orderType"] = json!("renew");
    assert_13004_starting(
        &p.batch(order_type).await,
        "orderList[0].orderType: renew is not a value the interface lists",
    );
    let mut mode = valid_batch("B-6");
    mode["syncMode"] = json!("later");
    assert_13004_starting(
        &p.batch(mode).await,
        "syncMode: later is not a value the interface lists",
    );

    // Numbers out of range.
    let mut big = valid_batch("B-7");
    big["orderList"][0]["sequence"] = json!(3_000_000_000_u64);
    assert_13004_starting(
        &p.batch(big).await,
        "orderList[0].sequence: must be between -2147483648 and 2147483647",
    );
    let mut negative = valid_batch("B-8");
    negative["orderList"][0]["sequence"] = json!(-1);
    p.batch(negative)
        .await
        .assert_13004("orderList[0].sequence: must not be negative");
    let fraction = batch_with_product("B-9", json!({"productUri": "p1", "limitConcurrent": 1.5}));
    assert_13004_starting(
        &p.batch(fraction).await,
        "orderList[0].assets[0].products[0].limitConcurrent: must be a whole number",
    );
    for size in [0, 1001, -1] {
        p.post(SHELLNUMS, json!({ "size": size }))
            .await
            .assert_13004("size: must be between 1 and 1000");
    }
    assert_13004_starting(
        &p.post(SHELLNUMS, json!({"size": 10_000_000_000_i64})).await,
        "size: invalid value",
    );
    assert_13004_starting(
        &p.post(SHELLNUMS, json!({"size": "1"})).await,
        "size: invalid type",
    );

    // Missing required fields.
    p.post(SHELLNUMS, json!({}))
        .await
        .assert_13004("size: required");
    let mut no_sequence = valid_batch("B-10");
    no_sequence["orderList"][0]
        .as_object_mut()
        .expect("order")
        .remove("sequence");
    p.batch(no_sequence)
        .await
        .assert_13004("orderList[0].sequence: required");
    let no_uri = batch_with_product("B-11", json!({"productName": "无 URI"}));
    p.batch(no_uri)
        .await
        .assert_13004("orderList[0].assets[0].products[0].productUri: required for new_buy");
    let mut no_channel_order = valid_batch("B-12");
    no_channel_order
        .as_object_mut()
        .expect("batch")
        .remove("channelOrderId");
    p.batch(no_channel_order)
        .await
        .assert_13004("channelOrderId: required");
    p.batch(json!({"channelCode": "CRM", "channelOrderId": "B-13", "orderList": []}))
        .await
        .assert_13004("orderList: at least one order required");
    let mut no_license = valid_batch("B-14");
    no_license["orderList"][0]
        .as_object_mut()
        .expect("order")
        .remove("licenseType");
    p.batch(no_license)
        .await
        .assert_13004("orderList[0].licenseType: required");
    p.post(CREATE, json!({}))
        .await
        .assert_13004("crmCustomerId: required");
    p.post(LOCK, json!({"operatorIdentity": "admin"}))
        .await
        .assert_13004("assetNums: at least one asset number required");

    // The second order of a batch is wrong: the first is not written either.
    let mut second_bad = batch_of(
        "B-15",
        vec![
            new_buy(1, "C-1", "normal_recover_usbkey", "A-1", &["p1"]),
            new_buy(2, "C-2", "normal_recover_usbkey", "A-2", &["p2"]),
        ],
    );
    second_bad["orderList"][1]["assets"][0]["products"][0]["limitConcurrent"] = json!(-3);
    p.batch(second_bad)
        .await
        .assert_13004("orderList[1].assets[0].products[0].limitConcurrent: must not be negative");

    assert_eq!(written(&p), before, "no refused request wrote anything");

    // The platform still answers, and a valid batch goes through.
    let ok = p.batch(valid_batch("B-OK")).await;
    assert_eq!(ok.data().as_array().expect("results").len(), 1);
    assert_eq!(p.count("batches"), 1);
    assert_eq!(p.count("assets"), 1);
}

/// Bodies that break JSON syntax inside an object: the message names the body (or a real
/// field), never serde_path_to_error's `?` placeholder for a key not yet read.
#[tokio::test]
async fn broken_json_inside_an_object_names_the_body() {
    let p = Platform::start().await;
    let before = written(&p);
    for text in [
        "{'a': 1}",
        "{\"a\" 1}",
        "{\"channelCode\": \"CRM\",",
        "{\"channelCode\": \"CRM\"",
        "{\"channelCode\": \"CRM\" \"channelOrderId\": \"1\"}",
        "{\"channelCode\": \"CRM\",}",
        "{\"orderList\": [{\"sequence\": 1,",
        "{\"orderList\": [{\"sequence\": 1 \"x\": 2}]}",
    ] {
        let r = post_json_text(&p, BATCH, text).await;
        let m = assert_13004_starting(&r, "");
        assert!(m.contains("line 1 column"), "{text}: {m}");
        let (path, _) = m.split_once(": ").expect("path: rule");
        assert!(
            !path.split(['.', '[']).any(|segment| segment == "?"),
            "{text}: the message should name the body or a field, not {path:?}: {m}"
        );
    }
    // Wholly unreadable from the first key on: the body as a whole is named.
    for text in ["{'a': 1}", "{\"channelCode\": \"CRM\","] {
        let r = post_json_text(&p, BATCH, text).await;
        assert_13004_starting(&r, "body: ");
    }
    assert_eq!(written(&p), before);
}

#[tokio::test]
async fn content_type_must_be_json() {
    let p = Platform::start().await;
    let before = written(&p);
    let body = json!({"size": 1}).to_string();

    post_raw(&p, SHELLNUMS, None, body.clone())
        .await
        .assert_13004("Content-Type: must be application/json, not \"\"");
    post_raw(&p, SHELLNUMS, Some("text/plain"), body.clone())
        .await
        .assert_13004("Content-Type: must be application/json, not \"text/plain\"");
    post_raw(
        &p,
        SHELLNUMS,
        Some("application/x-www-form-urlencoded"),
        body.clone(),
    )
    .await
    .assert_13004(
        "Content-Type: must be application/json, not \"application/x-www-form-urlencoded\"",
    );
    post_raw(
        &p,
        BATCH,
        Some("text/plain; charset=utf-8"),
        valid_batch("CT-1").to_string(),
    )
    .await
    .assert_13004("Content-Type: must be application/json, not \"text/plain; charset=utf-8\"");
    assert_eq!(written(&p), before);

    // Parameters and letter case do not matter.
    for ct in ["application/json; charset=utf-8", "Application/JSON"] {
        let r = post_raw(&p, SHELLNUMS, Some(ct), body.clone()).await;
        assert_eq!(r.data().as_array().expect("numbers").len(), 1, "{ct}");
    }
}

#[tokio::test]
async fn body_over_16_mib_is_refused() {
    let p = Platform::start().await;
    let before = written(&p);
    // A valid JSON document just over the limit: a long unknown field.
    let limit = 16 * 1024 * 1024;
    let mut body = String::with_capacity(limit + 64);
    body.push_str("{\"size\": 1, \"padding\": \"");
    while body.len() < limit {
        body.push_str("xxxxxxxxxxxxxxxx");
    }
    body.push_str("\"}");
    assert!(body.len() > limit);
    post_json_text(&p, SHELLNUMS, body)
        .await
        .assert_13004("body: larger than the limit of 16 MiB");
    assert_eq!(written(&p), before);

    // Just under the limit is read.
    let mut under = String::with_capacity(limit);
    under.push_str("{\"size\": 1, \"padding\": \"");
    while under.len() < limit - 1024 {
        under.push_str("xxxxxxxxxxxxxxxx");
    }
    under.push_str("\"}");
    let r = post_json_text(&p, SHELLNUMS, under).await;
    assert_eq!(r.data().as_array().expect("numbers").len(), 1);
}

#[tokio::test]
async fn unknown_extra_fields_are_accepted() {
    let p = Platform::start().await;
    let mut batch = valid_batch("X-1");
    batch["futureField"] = json!({"nested": [1, 2, {"x": null}]});
    batch["orderList"][0]["notInTheInterface"] = json!("ignored");
    batch["orderList"][0]["assets"][0]["extra"] = json!(42);
    batch["orderList"][0]["assets"][0]["products"][0]["colour"] = json!("blue");
    let r = p.batch(batch).await;
    let results = r.data().as_array().expect("results");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["sequence"], json!(1));
    assert_eq!(p.count("products"), 1);

    let r = p.post(SHELLNUMS, json!({"size": 2, "note": "extra"})).await;
    assert_eq!(r.data().as_array().expect("numbers").len(), 2);
}

/// A merchandise tree `levels` deep (levels of `children`), as JSON text.
fn merchandise_tree(levels: usize) -> String {
    let leaf = r#"{"merchandiseNum": "M", "licenseOrderProductList": [{"productUri": "p"}]}"#;
    let mut tree = String::new();
    for _ in 0..levels {
        tree.push_str(r#"{"merchandiseNum": "M", "children": ["#);
    }
    tree.push_str(leaf);
    for _ in 0..levels {
        tree.push_str("]}");
    }
    let mut batch = valid_batch("DEEP").to_string();
    let products = r#""products":[{"#;
    let at = batch.find(products).expect("products in the batch");
    batch.insert_str(at, &format!(r#""merchandises": [{tree}], "#));
    batch
}

#[tokio::test]
async fn deeply_nested_json_is_refused_without_a_crash() {
    let p = Platform::start().await;
    let before = written(&p);

    // Merchandise trees 200 and 5,000 levels deep: past serde_json's recursion limit.
    for levels in [200, 5_000] {
        let r = post_json_text(&p, BATCH, merchandise_tree(levels)).await;
        let m = assert_13004_starting(&r, "orderList[0].assets[0].merchandises[0].children[0]");
        assert!(m.contains("recursion limit exceeded"), "{m}");
    }
    // 20 levels parse, and the platform's own limit of 16 levels names the field.
    let r = post_json_text(&p, BATCH, merchandise_tree(20)).await;
    let m = assert_13004_starting(&r, "orderList[0].assets[0].merchandises[0].children[0]");
    assert!(
        m.ends_with("children: merchandise trees are at most 16 levels deep"),
        "{m}"
    );

    // 200 levels of arrays where a list of strings is expected.
    let mut batch = valid_batch("DEEP-2").to_string();
    batch = batch.replacen(
        r#"["A-1"]"#,
        &format!("{}\"A-1\"{}", "[".repeat(200), "]".repeat(200)),
        1,
    );
    assert_13004_starting(
        &post_json_text(&p, BATCH, batch).await,
        "orderList[0].assets[0].assetNos[0]: invalid type",
    );

    // Unbalanced: 100,000 opening brackets inside an object.
    let body = format!("{{\"orderList\": {}", "[".repeat(100_000));
    assert_13004_starting(&post_json_text(&p, BATCH, body).await, "orderList");
    let body = "{\"a\":".repeat(100_000);
    assert_13004_starting(&post_json_text(&p, SHELLNUMS, body).await, "");
    assert_eq!(written(&p), before);

    // Deep nesting inside an unknown field is skipped without recursion: accepted like any
    // other extra field, and it crashes nothing.
    for depth in [200, 100_000] {
        let body = format!(
            "{{\"size\": 1, \"extra\": {}{}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let r = post_json_text(&p, SHELLNUMS, body).await;
        assert_eq!(r.data().as_array().expect("numbers").len(), 1);
    }

    // Still serving.
    let r = p.batch(valid_batch("DEEP-OK")).await;
    assert_eq!(r.data().as_array().expect("results").len(), 1);
}

#[tokio::test]
async fn unknown_paths_and_methods_are_404_and_405() {
    let p = Platform::start().await;
    let q = |n: &str| vec![("g_nonce".to_owned(), n.to_owned())];

    for path in [
        "/nope",
        "/order/api/order/v1/nothing",
        "/order/api/order/v2/shellnums",
    ] {
        let r = p
            .raw(
                p.http
                    .post(format!("{}{path}", p.base))
                    .bearer_auth(&p.token)
                    .query(&q(&nonce()))
                    .json(&json!({})),
            )
            .await;
        assert_eq!(r.status, 404, "{path}: {}", r.body);
        assert_eq!(r.body["code"], json!("404"), "{}", r.body);
        assert!(r.body["message"].is_string(), "{}", r.body);
        assert!(r.body["cause"].is_string(), "{}", r.body);
        assert!(r.body.get("data").is_none(), "{}", r.body);
    }
    let r = p
        .raw(p.http.get(format!("{}/", p.base)).query(&q(&nonce())))
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.body["code"], json!("404"));

    for (method, path) in [
        (reqwest::Method::GET, SHELLNUMS),
        (reqwest::Method::GET, CREATE),
        (reqwest::Method::GET, BATCH),
        (reqwest::Method::POST, QUERY),
        (reqwest::Method::DELETE, LOCK),
    ] {
        let r = p
            .raw(
                p.http
                    .request(method.clone(), format!("{}{path}", p.base))
                    .bearer_auth(&p.token)
                    .query(&q(&nonce())),
            )
            .await;
        assert_eq!(r.status, 405, "{method} {path}: {}", r.body);
        assert_eq!(r.body["code"], json!("405"), "{}", r.body);
        assert!(r.body["message"].is_string(), "{}", r.body);
        assert!(r.body["cause"].is_string(), "{}", r.body);
        assert!(r.body.get("data").is_none(), "{}", r.body);
    }
}

#[tokio::test]
async fn storage_failure_is_500_and_writes_nothing() {
    let p = Platform::start().await;
    p.execute_batch(
        "CREATE TRIGGER fail BEFORE INSERT ON products \
         BEGIN SELECT RAISE(ABORT, 'injected fault'); END;",
        "CREATE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql \
         AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$; \
         CREATE TRIGGER fail BEFORE INSERT ON products FOR EACH ROW EXECUTE FUNCTION fail();",
    );
    let batch = valid_batch("FAULT-1");

    let r = p.batch(batch.clone()).await;
    assert_eq!(r.status, 299, "{}", r.body);
    assert_eq!(r.body["code"], json!("500"), "{}", r.body);
    assert!(r.body["message"].is_string(), "{}", r.body);
    assert!(
        r.body["cause"]
            .as_str()
            .is_some_and(|c| c.contains("injected fault")),
        "{}",
        r.body
    );
    assert!(r.body.get("data").is_none(), "{}", r.body);
    for table in [
        "batches",
        "license_orders",
        "customers",
        "enterprises",
        "assets",
        "products",
    ] {
        assert_eq!(p.count(table), 0, "no partial write in {table}");
    }

    p.execute_batch("DROP TRIGGER fail;", "DROP TRIGGER fail ON products;");
    let r = p.batch(batch).await;
    let results = r.data().as_array().expect("results");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["sequence"], json!(1));
    assert_eq!(p.count("batches"), 1);
    assert_eq!(p.count("license_orders"), 1);
    assert_eq!(p.count("assets"), 1);
    assert_eq!(p.count("products"), 1);
}

/// A batch of 130 orders, each with a license type the interface does not list: the message
/// names the first, the cause counts all 130, lists the first 100 in order, and counts the rest.
#[tokio::test]
async fn a_batch_with_more_than_a_hundred_problems_lists_a_hundred_and_counts_the_rest() {
    let p = Platform::start().await;
    let before = written(&p);
    let orders = (0..130)
        .map(|i| {
            let asset = format!("A-{i}");
            new_buy(i + 1, "C-1", &format!("kind_{i}"), &asset, &["p1"])
        })
        .collect();
    let r = p.batch(batch_of("too-many-problems", orders)).await;
    let problem = |i: usize| {
        format!(
            "orderList[{i}].licenseType: kind_{i} is not a value the interface lists for this field"
        )
    };
    r.assert_13004(&problem(0));
    let cause = r.body["cause"].as_str().expect("cause");
    let listed: Vec<String> = (0..100).map(problem).collect();
    let expected = format!(
        "parameter validation failed, 130 problems: {}; and 30 more",
        listed.join("; ")
    );
    assert_eq!(cause, expected);
    assert!(!cause.contains(&problem(100)), "{cause}");
    assert_eq!(written(&p), before);
}
