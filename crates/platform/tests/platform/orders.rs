//! Operation 5 (batch license orders), read back through the asset listing (operation 8) and
//! the platform's own database.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Platform, Reply, batch_of, new_buy};

const CREATE: &str = "/order/api/order/v1/enterprise/user/create";
const QUERY: &str = "/order/api/order/v1/enterprise/user/query";
const BATCH: &str = "/order/api/order/v1/licenseOrder/batchOrder";

/// Tables an order may write, and the id counters (rolled back with them).
const TABLES: [&str; 9] = [
    "enterprises",
    "customers",
    "batches",
    "license_orders",
    "assets",
    "asset_extends",
    "merchandises",
    "products",
    "lock_events",
];

/// Creates an enterprise master account (operation 2) and returns its global id.
pub async fn enterprise(p: &Platform, crm: &str) -> String {
    let created = p
        .post(
            CREATE,
            json!({"crmCustomerId": crm, "customerName": format!("企业 {crm}"), "branchName": "北京分公司", "address": "北京市"}),
        )
        .await;
    created.data()["enterpriseGlobalId"]
        .as_str()
        .expect("enterpriseGlobalId")
        .to_owned()
}

/// The customerId of the enterprise's default customer (channel CRM, the CRM id).
async fn default_customer(p: &Platform, crm: &str) -> String {
    let found = p
        .get(
            QUERY,
            &[
                ("channelCode", "CRM"),
                ("channelCustomerId", crm),
                ("defaultCustomer", "Y"),
            ],
        )
        .await;
    let found = found.data().as_array().expect("customers").clone();
    assert_eq!(found.len(), 1, "{found:?}");
    found[0]["customerId"].as_str().expect("id").to_owned()
}

fn list_path(egid: &str) -> String {
    format!("/order/api/order/v1/asset/{egid}/list")
}

/// The asset listing of an enterprise, optionally filtered by extendCode.
async fn listing(p: &Platform, egid: &str, extend_code: Option<&str>) -> Vec<Value> {
    let query: Vec<(&str, &str)> = extend_code.map(|c| ("extendCode", c)).into_iter().collect();
    let reply = p.get(&list_path(egid), &query).await;
    reply.data().as_array().expect("asset list").clone()
}

fn asset_nums(list: &[Value]) -> Vec<String> {
    list.iter()
        .map(|a| a["assetNum"].as_str().expect("assetNum").to_owned())
        .collect()
}

#[track_caller]
fn find<'a>(list: &'a [Value], num: &str) -> &'a Value {
    list.iter()
        .find(|a| a["assetNum"] == num)
        .unwrap_or_else(|| panic!("no asset {num} in {list:?}"))
}

/// A product entry with a validity window and node count.
fn product(uri: &str, start: Option<i64>, end: Option<i64>, concurrent: i32) -> Value {
    let mut p = json!({"productUri": uri, "productName": format!("产品 {uri}"), "limitConcurrent": concurrent});
    if let Some(s) = start {
        p["limitStartDate"] = json!(s);
    }
    if let Some(e) = end {
        p["limitEndDate"] = json!(e);
    }
    p
}

/// An order entry of the given customer (channelCustomerId) with the given asset entries.
fn order(
    sequence: i32,
    customer: &str,
    license_type: &str,
    order_type: &str,
    assets: Value,
) -> Value {
    json!({
        "sequence": sequence,
        "channelCustomerId": customer,
        "customerName": "测试客户",
        "licenseType": license_type,
        "orderType": order_type,
        "assets": assets
    })
}

/// The results of a successful batch.
#[track_caller]
fn results(reply: &Reply) -> Vec<Value> {
    reply.data().as_array().expect("results").clone()
}

#[track_caller]
fn lo_id(results: &[Value], i: usize) -> String {
    results[i]["licenseOrderId"]
        .as_str()
        .expect("licenseOrderId")
        .to_owned()
}

fn i64_of(p: &Platform, sql: &str) -> i64 {
    p.row(sql, &[]).i64(0)
}

fn strings_of(p: &Platform, sql: &str) -> Vec<String> {
    p.rows(sql, &[]).iter().map(|r| r.text(0)).collect()
}

/// Row counts of every table an order writes, and the id counters.
fn snapshot(p: &Platform) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = TABLES
        .iter()
        .map(|t| ((*t).to_owned(), p.count(t)))
        .collect();
    let counters = p.rows("SELECT name, value FROM counters ORDER BY name", &[]);
    out.extend(
        counters
            .iter()
            .map(|r| (format!("counter {}", r.text(0)), r.i64(1))),
    );
    out
}

/// The state of a batch, polled until it leaves `pending` (at most about 5 s).
async fn settled_state(p: &Platform, channel_order_id: &str) -> (String, Option<String>) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let row = p.row(
            "SELECT state, failure FROM batches WHERE channel_code = 'CRM' AND channel_order_id = ?1",
            &[channel_order_id],
        );
        let (state, failure) = (row.text(0), row.opt_text(1));
        if state != "pending" {
            return (state, failure);
        }
        assert!(
            Instant::now() < deadline,
            "batch {channel_order_id} still pending after 5 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn new_buy_for_an_enterprise_lists_the_assets() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-100").await;
    let default_id = default_customer(&p, "CRM-100").await;

    let mut first = order(
        1,
        "SHOP-7",
        "normal_recover_usbkey",
        "new_buy",
        json!([{"assetNos": ["8000000101"], "assetExtendList": [{"extendCode": "gxxp", "extendValue": "1"}],
                "products": [product("P-A", None, None, 1), product("P-B", None, None, 2)]}]),
    );
    first["enterpriseGlobalId"] = json!(egid);
    let second = order(
        2,
        "CRM-100",
        "softkey",
        "new_buy",
        json!([{"assetNos": ["8000000102"], "limitStartDate": 1_700_000_000_000_i64, "limitEndDate": 1_800_000_000_000_i64,
                "products": [product("P-C", None, None, 1)]}]),
    );
    let third = order(
        3,
        "CRM-100",
        "cloud_account",
        "new_buy",
        json!([{"assetNos": ["CA-0001"], "assetExtendList": [{"extendCode": "hy", "extendValue": "2"}],
                "products": [product("P-D", Some(1_700_000_000_000), Some(1_800_000_000_000), 5)]}]),
    );
    let reply = p.batch(batch_of("B-100", vec![first, second, third])).await;
    let res = results(&reply);
    assert_eq!(res.len(), 3, "{res:?}");
    for (i, r) in res.iter().enumerate() {
        assert_eq!(r["sequence"], json!(i + 1), "{res:?}");
        assert!(
            r["licenseOrderId"]
                .as_str()
                .is_some_and(|s| s.starts_with("LO")),
            "{res:?}"
        );
    }
    assert_ne!(lo_id(&res, 0), lo_id(&res, 1));
    assert_ne!(lo_id(&res, 1), lo_id(&res, 2));
    let new_customer = res[0]["customerId"]
        .as_str()
        .expect("customerId")
        .to_owned();
    assert!(new_customer.starts_with("CU"), "{res:?}");
    assert_ne!(new_customer, default_id, "SHOP-7 is a new customer");
    assert_eq!(res[1]["customerId"], json!(default_id));
    assert_eq!(res[2]["customerId"], json!(default_id));

    // Stored: three license orders, four products, one new customer (bound to the enterprise).
    assert_eq!(p.count("license_orders"), 3);
    assert_eq!(p.count("products"), 4);
    assert_eq!(p.count("assets"), 3);
    let bound = p
        .row(
            "SELECT e.global_id FROM customers c JOIN enterprises e ON e.id = c.enterprise_id WHERE c.customer_id = ?1",
            &[&new_customer],
        )
        .text(0);
    assert_eq!(bound, egid);
    let uris = strings_of(
        &p,
        "SELECT p.product_uri FROM products p JOIN assets a ON a.id = p.asset_id \
         WHERE a.asset_num = '8000000101' ORDER BY p.product_uri",
    );
    assert_eq!(uris, ["P-A", "P-B"]);

    // The listing: every asset of the enterprise's customers, oldest first.
    let list = listing(&p, &egid, None).await;
    assert_eq!(
        asset_nums(&list),
        ["8000000101", "8000000102", "CA-0001"],
        "{list:?}"
    );
    let usbkey = find(&list, "8000000101");
    assert_eq!(usbkey["licenseType"], "normal_recover_usbkey");
    assert_eq!(usbkey["keyShellNumber"], "8000000101");
    assert_eq!(usbkey["keyChipType"], json!(2));
    assert_eq!(usbkey["customerId"], json!(new_customer));
    assert_eq!(usbkey["locked"], json!(false));
    assert_eq!(usbkey["freezing"], json!(false));
    assert_eq!(usbkey["grantable"], json!(true));
    assert_eq!(usbkey["borrowedUsbKey"], json!(false));
    assert_eq!(usbkey["limitStartTime"], Value::Null);
    assert_eq!(usbkey["limitEndTime"], Value::Null);
    assert!(
        usbkey.get("limitStartTime").is_some() && usbkey.get("limitEndTime").is_some(),
        "null, not absent: {usbkey}"
    );
    assert_eq!(usbkey["assetLimits"], Value::Null);
    assert_eq!(
        usbkey["assetExtends"],
        json!([{"extendCode": "gxxp", "extendValue": "1"}])
    );
    let id = usbkey["id"].as_str().expect("id");
    assert!(!id.is_empty());
    assert_eq!(usbkey["assignStatus"]["id"], json!(id));
    // Epoch milliseconds, around now.
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as i64;
    for field in ["createTime", "updateTime"] {
        let t = usbkey[field].as_i64().expect(field);
        assert!(
            (now_ms - t).abs() < 600_000,
            "{field} {t} is not near {now_ms}"
        );
    }

    let softkey = find(&list, "8000000102");
    assert_eq!(softkey["licenseType"], "softkey");
    assert_eq!(softkey["customerId"], json!(default_id));
    assert_eq!(softkey["limitStartTime"], json!(1_700_000_000_000_i64));
    assert_eq!(softkey["limitEndTime"], json!(1_800_000_000_000_i64));
    assert_eq!(softkey["assetExtends"], json!([]));
    assert_eq!(softkey["locked"], json!(false));

    let cloud = find(&list, "CA-0001");
    assert_eq!(cloud["licenseType"], "cloud_account");
    assert_eq!(cloud["keyShellNumber"], "0001", "the digit part");
    assert_eq!(
        cloud["limitStartTime"],
        Value::Null,
        "product windows are not the asset's"
    );

    // extendCode filters the listing.
    let gxxp = listing(&p, &egid, Some("gxxp")).await;
    assert_eq!(asset_nums(&gxxp), ["8000000101"]);
    assert_eq!(gxxp[0], *usbkey);
    assert_eq!(
        asset_nums(&listing(&p, &egid, Some("hy")).await),
        ["CA-0001"]
    );
    assert!(listing(&p, &egid, Some("none-such")).await.is_empty());

    // Another enterprise has nothing; an unknown one is refused.
    let other = enterprise(&p, "CRM-200").await;
    assert!(listing(&p, &other, None).await.is_empty());
    p.get(&list_path("EG9999999999"), &[])
        .await
        .assert_13004("enterpriseGlobalId: no enterprise master account EG9999999999");
}

#[tokio::test]
async fn merchandise_trees_are_stored_with_their_products() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-300").await;
    let tree = json!([
        {"merchandiseNum": "M-1", "merchandiseName": "套餐一",
         "licenseOrderProductList": [product("P-M1a", None, None, 1), product("P-M1b", None, None, 1)],
         "children": [
            {"merchandiseNum": "M-1-1", "parentMerchandiseNum": "M-1",
             "licenseOrderProductList": [product("P-M11", None, None, 1)],
             "children": [
                {"merchandiseNum": "M-1-1-1", "parentMerchandiseNum": "M-1-1",
                 "licenseOrderProductList": [product("P-M111", None, None, 1)], "children": null}
             ]},
            {"merchandiseNum": "M-1-2", "parentMerchandiseNum": "M-1",
             "licenseOrderProductList": [], "children": null}
         ]},
        {"merchandiseNum": "M-2", "licenseOrderProductList": [product("P-M2", None, None, 1)], "children": null}
    ]);
    let assets = json!([
        {"assetNos": ["8000000301"], "products": [product("P-D", None, None, 1)], "merchandises": tree},
        {"assetNos": ["8000000302"], "products": [],
         "merchandises": [{"merchandiseNum": "M-3", "licenseOrderProductList": [product("P-M3", None, None, 1)]}]}
    ]);
    let reply = p
        .batch(batch_of(
            "B-300",
            vec![order(
                1,
                "CRM-300",
                "normal_recover_usbkey",
                "new_buy",
                assets,
            )],
        ))
        .await;
    let res = results(&reply);
    assert_eq!(res.len(), 1);

    assert_eq!(p.count("merchandises"), 6);
    assert_eq!(p.count("products"), 7);
    // Each product with its merchandise (none for direct products) and its asset.
    let placed = strings_of(
        &p,
        "SELECT a.asset_num || ' ' || p.product_uri || ' ' || COALESCE(m.merchandise_num, '-') \
         FROM products p JOIN assets a ON a.id = p.asset_id LEFT JOIN merchandises m ON m.id = p.merchandise_id \
         ORDER BY p.id",
    );
    assert_eq!(
        placed,
        [
            "8000000301 P-D -",
            "8000000301 P-M1a M-1",
            "8000000301 P-M1b M-1",
            "8000000301 P-M11 M-1-1",
            "8000000301 P-M111 M-1-1-1",
            "8000000301 P-M2 M-2",
            "8000000302 P-M3 M-3",
        ]
    );
    // The tree's shape.
    let parents = strings_of(
        &p,
        "SELECT m.merchandise_num || ' <- ' || COALESCE(parent.merchandise_num, '-') \
         FROM merchandises m LEFT JOIN merchandises parent ON parent.id = m.parent_id ORDER BY m.merchandise_num",
    );
    assert_eq!(
        parents,
        [
            "M-1 <- -",
            "M-1-1 <- M-1",
            "M-1-1-1 <- M-1-1",
            "M-1-2 <- M-1",
            "M-2 <- -",
            "M-3 <- -",
        ]
    );
    // Every row belongs to the one license order.
    let lo = lo_id(&res, 0);
    assert_eq!(
        i64_of(
            &p,
            &format!(
                "SELECT count(*) FROM products p JOIN license_orders lo ON lo.id = p.license_order_id \
                 WHERE lo.license_order_id = '{lo}'"
            )
        ),
        7
    );
    assert_eq!(
        asset_nums(&listing(&p, &egid, None).await),
        ["8000000301", "8000000302"]
    );

    // A product inside a merchandise is removed like a direct one.
    let delete = order(
        1,
        "CRM-300",
        "normal_recover_usbkey",
        "delete_product",
        json!([{"assetNos": ["8000000301"], "products": [{"productUri": "P-M111"}]}]),
    );
    p.batch(batch_of("B-301", vec![delete])).await.data();
    assert_eq!(p.count("products"), 6);
    assert_eq!(
        i64_of(
            &p,
            "SELECT count(*) FROM products WHERE product_uri = 'P-M111'"
        ),
        0
    );

    // Deleting the asset removes its merchandises and products.
    let delete = order(
        1,
        "CRM-300",
        "normal_recover_usbkey",
        "delete_asset",
        json!([{"assetNos": ["8000000301"]}]),
    );
    p.batch(batch_of("B-302", vec![delete])).await.data();
    assert_eq!(p.count("merchandises"), 1);
    assert_eq!(p.count("products"), 1);
    assert_eq!(asset_nums(&listing(&p, &egid, None).await), ["8000000302"]);
}

#[tokio::test]
async fn the_same_batch_twice_creates_nothing_new() {
    let p = Platform::start().await;
    let batch = batch_of(
        "B-1",
        vec![
            new_buy(
                1,
                "C-1",
                "normal_recover_usbkey",
                "8000000401",
                &["P-1", "P-2"],
            ),
            new_buy(2, "C-2", "softkey", "8000000402", &["P-3"]),
        ],
    );
    let first = p.batch(batch.clone()).await;
    let first_data = first.data().clone();
    assert_eq!(first_data.as_array().expect("results").len(), 2);
    let before = snapshot(&p);

    let again = p.batch(batch.clone()).await;
    assert_eq!(again.body, first.body, "the first answer again");
    assert_eq!(snapshot(&p), before, "nothing new was written");

    // The same key with another body is refused, and changes nothing.
    let mut changed = batch.clone();
    changed["orderList"][1]["assets"][0]["products"][0]["productUri"] = json!("P-9");
    p.batch(changed).await.assert_13004(
        "channelOrderId: B-1 was already used by channel CRM for a different batch; a new batch needs a new channelOrderId",
    );
    let mut fewer = batch.clone();
    fewer["orderList"] = json!([batch["orderList"][0].clone()]);
    p.batch(fewer).await.assert_13004(
        "channelOrderId: B-1 was already used by channel CRM for a different batch; a new batch needs a new channelOrderId",
    );
    let mut now_async = batch.clone();
    now_async["syncMode"] = json!("async");
    p.batch(now_async).await.assert_13004(
        "channelOrderId: B-1 was already used by channel CRM for a different batch; a new batch needs a new channelOrderId",
    );
    assert_eq!(snapshot(&p), before);

    // Still answered identically after the refusals.
    assert_eq!(p.batch(batch.clone()).await.body, first.body);

    // The key is the pair (channelCode, channelOrderId): another channel may use B-1.
    let mut other_channel = batch_of(
        "B-1",
        vec![new_buy(
            1,
            "C-1",
            "normal_recover_usbkey",
            "8000000403",
            &["P-1"],
        )],
    );
    other_channel["channelCode"] = json!("SHOP");
    let other = p.batch(other_channel).await;
    let other = results(&other);
    assert_ne!(
        other[0]["licenseOrderId"], first_data[0]["licenseOrderId"],
        "a new license order"
    );
    assert_ne!(
        other[0]["customerId"], first_data[0]["customerId"],
        "SHOP/C-1 is not CRM/C-1"
    );
    assert_eq!(p.count("batches"), 2);
    assert_eq!(p.count("license_orders"), 3);
}

/// A batch's key is recognised for the application that sent it: another application sending
/// the same body is refused, and never receives the first one's answer.
#[tokio::test]
async fn another_application_never_gets_a_batch_s_answer() {
    let p = Platform::start().await;
    let batch = batch_of(
        "B-APP",
        vec![new_buy(
            1,
            "C-1",
            "normal_recover_usbkey",
            "8000000451",
            &["P-1"],
        )],
    );
    let first = p.batch(batch.clone()).await;
    assert_eq!(results(&first).len(), 1);
    let before = snapshot(&p);
    let other = p.new_app(&["auth_order"]).await;
    let token = p.token_for(&other).await;
    let path = format!(
        "/order/api/order/v1/licenseOrder/batchOrder?appKey={}",
        other.app_key
    );
    let refused = p.post_as(&token, &path, batch).await;
    refused.assert_13004(
        "channelOrderId: B-APP was already used by channel CRM from another application; a new batch needs a new channelOrderId",
    );
    let text = refused.body.to_string();
    let first_order = first.data()[0]["licenseOrderId"].as_str().expect("id");
    assert!(!text.contains(first_order), "{text}");
    assert_eq!(snapshot(&p), before);
}

#[tokio::test]
async fn a_batch_is_atomic_and_transfer_moves_the_asset() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-500").await;
    let owner = p
        .batch(batch_of(
            "B-1",
            vec![new_buy(
                1,
                "C-OWNER",
                "normal_recover_usbkey",
                "8000000501",
                &["P-1"],
            )],
        ))
        .await;
    let owner_id = owner.data()[0]["customerId"].clone();
    let before = snapshot(&p);

    // The first order is fine, the second names another customer's asset.
    let mut taker = new_buy(
        2,
        "CRM-500",
        "normal_recover_usbkey",
        "8000000501",
        &["P-2"],
    );
    taker["enterpriseGlobalId"] = json!(egid);
    let orders = vec![
        new_buy(1, "C-NEW", "normal_recover_usbkey", "8000000502", &["P-3"]),
        taker.clone(),
    ];
    p.batch(batch_of("B-2", orders.clone())).await.assert_13004(
        "orderList[1].assets[0].assetNos[0]: asset 8000000501 belongs to another customer; set transferedAssetNum to move it",
    );
    assert_eq!(
        snapshot(&p),
        before,
        "nothing of the first order was written"
    );
    assert_eq!(
        i64_of(
            &p,
            "SELECT count(*) FROM customers WHERE channel_customer_id = 'C-NEW'"
        ),
        0
    );
    assert_eq!(
        i64_of(
            &p,
            "SELECT count(*) FROM assets WHERE asset_num = '8000000502'"
        ),
        0
    );
    assert!(
        listing(&p, &egid, None).await.is_empty(),
        "the enterprise holds nothing"
    );

    // A validation failure deep in the batch writes nothing either.
    let mut broken = orders.clone();
    broken[1]["assets"][0]["products"][0]
        .as_object_mut()
        .expect("product")
        .remove("productUri");
    p.batch(batch_of("B-2", broken))
        .await
        .assert_13004("orderList[1].assets[0].products[0].productUri: required for new_buy");
    assert_eq!(snapshot(&p), before);

    // The refused key was not used up: the corrected batch goes through and moves the asset.
    taker["assets"][0]["transferedAssetNum"] = json!(true);
    let moved = p
        .batch(batch_of("B-2", vec![orders[0].clone(), taker]))
        .await;
    let moved = results(&moved);
    let default_id = default_customer(&p, "CRM-500").await;
    assert_eq!(moved[1]["customerId"], json!(default_id));
    assert_ne!(moved[1]["customerId"], owner_id);
    let holder = p
        .row(
            "SELECT c.customer_id FROM assets a JOIN customers c ON c.id = a.customer_id WHERE a.asset_num = '8000000501'",
            &[],
        )
        .text(0);
    assert_eq!(holder, default_id);
    let list = listing(&p, &egid, None).await;
    assert_eq!(asset_nums(&list), ["8000000501"]);
    assert_eq!(find(&list, "8000000501")["customerId"], json!(default_id));
    // Its products from both orders are on it.
    let uris = strings_of(
        &p,
        "SELECT p.product_uri FROM products p JOIN assets a ON a.id = p.asset_id \
         WHERE a.asset_num = '8000000501' ORDER BY p.product_uri",
    );
    assert_eq!(uris, ["P-1", "P-2"]);
    assert_eq!(
        i64_of(
            &p,
            "SELECT count(*) FROM assets WHERE asset_num = '8000000502'"
        ),
        1
    );

    // The first owner can no longer buy onto it without a transfer.
    p.batch(batch_of(
        "B-3",
        vec![new_buy(1, "C-OWNER", "normal_recover_usbkey", "8000000501", &["P-4"])],
    ))
    .await
    .assert_13004(
        "orderList[0].assets[0].assetNos[0]: asset 8000000501 belongs to another customer; set transferedAssetNum to move it",
    );
}

#[tokio::test]
async fn delete_asset_removes_the_asset_and_its_products() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-600").await;
    let buy = order(
        1,
        "CRM-600",
        "normal_recover_usbkey",
        "new_buy",
        json!([
            {"assetNos": ["8000000601"], "assetExtendList": [{"extendCode": "gxxp", "extendValue": "1"}],
             "products": [product("P-1", None, None, 1), product("P-2", None, None, 1)],
             "merchandises": [{"merchandiseNum": "M-1", "licenseOrderProductList": [product("P-3", None, None, 1)]}]},
            {"assetNos": ["8000000602"], "products": [product("P-4", None, None, 1)]}
        ]),
    );
    p.batch(batch_of("B-1", vec![buy])).await.data();
    assert_eq!(p.count("products"), 4);

    let delete = order(
        1,
        "CRM-600",
        "normal_recover_usbkey",
        "delete_asset",
        json!([{"assetNos": ["8000000601"]}]),
    );
    let answer = p.batch(batch_of("B-2", vec![delete.clone()])).await;
    assert!(lo_id(&results(&answer), 0).starts_with("LO"));
    assert_eq!(asset_nums(&listing(&p, &egid, None).await), ["8000000602"]);
    assert_eq!(p.count("assets"), 1);
    assert_eq!(p.count("merchandises"), 0);
    assert_eq!(p.count("asset_extends"), 0);
    assert_eq!(strings_of(&p, "SELECT product_uri FROM products"), ["P-4"]);
    assert!(listing(&p, &egid, Some("gxxp")).await.is_empty());

    // Deleting it again (in a new batch) finds nothing.
    p.batch(batch_of("B-3", vec![delete]))
        .await
        .assert_13004("orderList[0].assets[0].assetNos[0]: no asset 8000000601");
    // delete_asset carries no products.
    let with_products = order(
        1,
        "CRM-600",
        "normal_recover_usbkey",
        "delete_asset",
        json!([{"assetNos": ["8000000602"], "products": [product("P-4", None, None, 1)]}]),
    );
    p.batch(batch_of("B-4", vec![with_products])).await.assert_13004(
        "orderList[0].assets[0].products: must be empty for delete_asset, which removes whole assets (use delete_product to remove products)",
    );
    // Another customer's asset cannot be deleted.
    let stranger = order(
        1,
        "C-STRANGER",
        "normal_recover_usbkey",
        "delete_asset",
        json!([{"assetNos": ["8000000602"]}]),
    );
    p.batch(batch_of("B-5", vec![stranger])).await.assert_13004(
        "orderList[0].assets[0].assetNos[0]: asset 8000000602 belongs to another customer",
    );
    assert_eq!(p.count("assets"), 1);
    assert_eq!(p.count("products"), 1);
}

#[tokio::test]
async fn delete_product_by_uri_and_strictly() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-700").await;
    let buy = order(
        1,
        "CRM-700",
        "normal_recover_usbkey",
        "new_buy",
        json!([{"assetNos": ["8000000701"], "products": [
            product("P-X", Some(1000), Some(2000), 1),
            product("P-X", Some(1000), Some(3000), 1),
            product("P-Y", Some(1000), Some(2000), 1),
            product("P-Z", None, None, 3),
            product("P-W", Some(1000), Some(2000), 2),
        ]}]),
    );
    p.batch(batch_of("B-1", vec![buy])).await.data();
    let remaining = |p: &Platform| {
        strings_of(
            p,
            "SELECT product_uri || ' ' || COALESCE(CAST(limit_start AS text), '-') || ' ' || COALESCE(CAST(limit_end AS text), '-') \
             || ' ' || COALESCE(CAST(limit_concurrent AS text), '-') FROM products ORDER BY id",
        )
    };

    // Strict: only the product whose window and node count match exactly.
    let strict = |seq: i32, uri: &str, start: Option<i64>, end: Option<i64>, concurrent: i32| {
        let mut entry = product(uri, start, end, concurrent);
        entry["strictMatchWhenDelete"] = json!(true);
        order(
            seq,
            "CRM-700",
            "normal_recover_usbkey",
            "delete_product",
            json!([{"assetNos": ["8000000701"], "products": [entry]}]),
        )
    };
    p.batch(batch_of(
        "B-2",
        vec![strict(1, "P-X", Some(1000), Some(3000), 1)],
    ))
    .await
    .data();
    assert_eq!(
        remaining(&p),
        [
            "P-X 1000 2000 1",
            "P-Y 1000 2000 1",
            "P-Z - - 3",
            "P-W 1000 2000 2"
        ]
    );

    // Strict with no exact match is refused and removes nothing.
    let before = snapshot(&p);
    p.batch(batch_of(
        "B-3",
        vec![strict(1, "P-X", Some(1000), Some(9999), 1)],
    ))
    .await
    .assert_13004(
        "orderList[0].assets[0].products[0]: asset 8000000701 holds no product P-X with limitStartDate 1000, limitEndDate 9999 and limitConcurrent 1",
    );
    p.batch(batch_of(
        "B-4",
        vec![strict(1, "P-W", Some(1000), Some(2000), 1)],
    ))
    .await
    .assert_13004(
        "orderList[0].assets[0].products[0]: asset 8000000701 holds no product P-W with limitStartDate 1000, limitEndDate 2000 and limitConcurrent 1",
    );
    let mut no_window = product("P-Z", None, None, 3);
    no_window["strictMatchWhenDelete"] = json!(true);
    no_window["limitStartDate"] = json!(5);
    p.batch(batch_of(
        "B-5",
        vec![order(
            1,
            "CRM-700",
            "normal_recover_usbkey",
            "delete_product",
            json!([{"assetNos": ["8000000701"], "products": [no_window]}]),
        )],
    ))
    .await
    .assert_13004(
        "orderList[0].assets[0].products[0]: asset 8000000701 holds no product P-Z with limitStartDate 5, limitEndDate empty and limitConcurrent 3",
    );
    assert_eq!(snapshot(&p), before);

    // A strict match on "no window" matches a product without one.
    p.batch(batch_of("B-6", vec![strict(1, "P-Z", None, None, 3)]))
        .await
        .data();
    assert_eq!(
        remaining(&p),
        ["P-X 1000 2000 1", "P-Y 1000 2000 1", "P-W 1000 2000 2"]
    );

    // Not strict: by productUri, whatever the window (here: a different one).
    let loose = order(
        1,
        "CRM-700",
        "normal_recover_usbkey",
        "delete_product",
        json!([{"assetNos": ["8000000701"], "products": [product("P-X", Some(1), Some(2), 9)]}]),
    );
    p.batch(batch_of("B-7", vec![loose])).await.data();
    assert_eq!(remaining(&p), ["P-Y 1000 2000 1", "P-W 1000 2000 2"]);
    let missing = order(
        1,
        "CRM-700",
        "normal_recover_usbkey",
        "delete_product",
        json!([{"assetNos": ["8000000701"], "products": [{"productUri": "P-X"}]}]),
    );
    p.batch(batch_of("B-8", vec![missing]))
        .await
        .assert_13004("orderList[0].assets[0].products[0]: asset 8000000701 holds no product P-X");

    // The asset stays, with what is left.
    let list = listing(&p, &egid, None).await;
    assert_eq!(asset_nums(&list), ["8000000701"]);
}

#[tokio::test]
async fn src_license_order_id_limits_deletes_to_that_order() {
    let p = Platform::start().await;
    let first = p
        .batch(batch_of(
            "B-1",
            vec![new_buy(
                1,
                "C-1",
                "normal_recover_usbkey",
                "8000000801",
                &["P-1", "P-2"],
            )],
        ))
        .await;
    let lo1 = lo_id(&results(&first), 0);
    let second = p
        .batch(batch_of(
            "B-2",
            vec![new_buy(
                1,
                "C-1",
                "normal_recover_usbkey",
                "8000000801",
                &["P-1"],
            )],
        ))
        .await;
    let lo2 = lo_id(&results(&second), 0);
    assert_ne!(lo1, lo2);
    let from_orders = |p: &Platform| {
        strings_of(
            p,
            "SELECT p.product_uri || ' ' || lo.license_order_id FROM products p \
             JOIN license_orders lo ON lo.id = p.license_order_id ORDER BY p.id",
        )
    };
    assert_eq!(
        from_orders(&p),
        [
            format!("P-1 {lo1}"),
            format!("P-2 {lo1}"),
            format!("P-1 {lo2}")
        ]
    );

    let delete_from = |src: &str, uri: &str| {
        let mut o = order(
            1,
            "C-1",
            "normal_recover_usbkey",
            "delete_product",
            json!([{"assetNos": ["8000000801"], "products": [{"productUri": uri}]}]),
        );
        o["srcLicenseOrderId"] = json!(src);
        o
    };
    p.batch(batch_of("B-3", vec![delete_from(&lo1, "P-1")]))
        .await
        .data();
    assert_eq!(
        from_orders(&p),
        [format!("P-2 {lo1}"), format!("P-1 {lo2}")],
        "only the product of the source order"
    );
    p.batch(batch_of("B-4", vec![delete_from(&lo1, "P-1")]))
        .await
        .assert_13004(
            "orderList[0].assets[0].products[0]: asset 8000000801 holds no product P-1 from the source license order",
        );
    p.batch(batch_of("B-5", vec![delete_from("LO9999999999", "P-1")]))
        .await
        .assert_13004(
            "orderList[0].srcLicenseOrderId: no license order LO9999999999 of this customer",
        );
    // Another customer's order is not a source for this customer.
    let stranger = p
        .batch(batch_of(
            "B-6",
            vec![new_buy(
                1,
                "C-2",
                "normal_recover_usbkey",
                "8000000802",
                &["P-1"],
            )],
        ))
        .await;
    let lo_stranger = lo_id(&results(&stranger), 0);
    p.batch(batch_of("B-7", vec![delete_from(&lo_stranger, "P-1")]))
        .await
        .assert_13004(&format!(
            "orderList[0].srcLicenseOrderId: no license order {lo_stranger} of this customer"
        ));
    assert_eq!(
        from_orders(&p),
        [
            format!("P-2 {lo1}"),
            format!("P-1 {lo2}"),
            format!("P-1 {lo_stranger}")
        ]
    );

    // Without a source order: from all of the customer's orders.
    let mut all = delete_from("", "P-1");
    all.as_object_mut()
        .expect("order")
        .remove("srcLicenseOrderId");
    p.batch(batch_of("B-8", vec![all])).await.data();
    assert_eq!(
        from_orders(&p),
        [format!("P-2 {lo1}"), format!("P-1 {lo_stranger}")]
    );
}

#[tokio::test]
async fn cloud_deletes_need_a_source_order() {
    let p = Platform::start().await;
    let bought = p
        .batch(batch_of(
            "B-1",
            vec![new_buy(
                1,
                "C-1",
                "cloud_account",
                "CA-9001",
                &["P-1", "P-2"],
            )],
        ))
        .await;
    let lo = lo_id(&results(&bought), 0);
    let before = snapshot(&p);

    let delete = |order_type: &str, license_type: &str| {
        let products = if order_type == "delete_product" {
            json!([{"productUri": "P-1"}])
        } else {
            json!([])
        };
        order(
            1,
            "C-1",
            license_type,
            order_type,
            json!([{"assetNos": ["CA-9001"], "products": products}]),
        )
    };
    p.batch(batch_of("B-2", vec![delete("delete_product", "cloud_account")]))
        .await
        .assert_13004(
            "orderList[0].srcLicenseOrderId: required for delete_product orders of the cloud license type cloud_account",
        );
    let mut blank = delete("delete_product", "cloud_account");
    blank["srcLicenseOrderId"] = json!("  ");
    p.batch(batch_of("B-2", vec![blank])).await.assert_13004(
        "orderList[0].srcLicenseOrderId: required for delete_product orders of the cloud license type cloud_account",
    );
    p.batch(batch_of("B-2", vec![delete("delete_asset", "cloud_customer")]))
        .await
        .assert_13004(
            "orderList[0].srcLicenseOrderId: required for delete_asset orders of the cloud license type cloud_customer",
        );
    p.batch(batch_of("B-2", vec![delete("delete_asset", "cloud_personal")]))
        .await
        .assert_13004(
            "orderList[0].srcLicenseOrderId: required for delete_asset orders of the cloud license type cloud_personal",
        );
    assert_eq!(snapshot(&p), before);

    // With the source order it is carried out.
    let mut with_src = delete("delete_product", "cloud_account");
    with_src["srcLicenseOrderId"] = json!(lo);
    p.batch(batch_of("B-2", vec![with_src])).await.data();
    assert_eq!(strings_of(&p, "SELECT product_uri FROM products"), ["P-2"]);
    let mut whole = delete("delete_asset", "cloud_account");
    whole["srcLicenseOrderId"] = json!(lo);
    p.batch(batch_of("B-3", vec![whole])).await.data();
    assert_eq!(p.count("assets"), 0, "nothing else was on it");
    assert_eq!(p.count("products"), 0);
}

#[tokio::test]
async fn app_key_must_be_the_callers() {
    let p = Platform::start().await;
    let body = batch_of(
        "B-1",
        vec![new_buy(
            1,
            "C-1",
            "normal_recover_usbkey",
            "8000000901",
            &["P-1"],
        )],
    );
    p.call(Method::POST, BATCH, &[], Some(body.clone()))
        .await
        .assert_13004("appKey: required");
    p.call(Method::POST, BATCH, &[("appKey", "")], Some(body.clone()))
        .await
        .assert_13004("appKey: required");
    let other = p.new_app(&["auth_order"]).await;
    p.call(
        Method::POST,
        BATCH,
        &[("appKey", other.app_key.as_str())],
        Some(body.clone()),
    )
    .await
    .assert_13004("appKey: is not the key of the application the token was issued to");
    p.call(
        Method::POST,
        BATCH,
        &[("appKey", "no-such-app")],
        Some(body.clone()),
    )
    .await
    .assert_13004("appKey: is not the key of the application the token was issued to");
    for table in TABLES {
        assert_eq!(p.count(table), 0, "{table}");
    }

    // The same body with the right key goes through.
    p.batch(body).await.data();
    assert_eq!(p.count("assets"), 1);
    let app_key = p.row("SELECT app_key FROM batches", &[]).text(0);
    assert_eq!(app_key, p.app.app_key);
}

#[tokio::test]
async fn async_batches_are_answered_at_once_and_applied_soon() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-1000").await;
    let mut body = batch_of(
        "A-1",
        vec![
            new_buy(
                1,
                "CRM-1000",
                "normal_recover_usbkey",
                "8000001001",
                &["P-1"],
            ),
            new_buy(2, "CRM-1000", "softkey", "8000001002", &["P-2", "P-3"]),
        ],
    );
    body["syncMode"] = json!("async");
    let answer = p.batch(body.clone()).await;
    let res = results(&answer);
    assert_eq!(res.len(), 2);
    let default_id = default_customer(&p, "CRM-1000").await;
    for (i, r) in res.iter().enumerate() {
        assert_eq!(r["sequence"], json!(i + 1));
        assert!(
            r["licenseOrderId"]
                .as_str()
                .is_some_and(|s| s.starts_with("LO"))
        );
        assert_eq!(r["customerId"], json!(default_id));
    }

    let (state, failure) = settled_state(&p, "A-1").await;
    assert_eq!(state, "applied");
    assert_eq!(failure, None);
    assert_eq!(
        asset_nums(&listing(&p, &egid, None).await),
        ["8000001001", "8000001002"]
    );
    assert_eq!(p.count("products"), 3);
    // The assets came from the answered license orders.
    let from = strings_of(
        &p,
        "SELECT lo.license_order_id FROM assets a JOIN license_orders lo ON lo.id = a.license_order_id ORDER BY a.id",
    );
    assert_eq!(from, [lo_id(&res, 0), lo_id(&res, 1)]);

    // Re-sending it answers the same ids and creates nothing.
    let before = snapshot(&p);
    assert_eq!(p.batch(body).await.body, answer.body);
    assert_eq!(snapshot(&p), before);
}

#[tokio::test]
async fn an_async_batch_that_cannot_be_applied_fails_whole() {
    let p = Platform::start().await;
    p.batch(batch_of(
        "B-1",
        vec![new_buy(
            1,
            "C-1",
            "normal_recover_usbkey",
            "8000001101",
            &["P-1"],
        )],
    ))
    .await
    .data();

    // Valid in form; the second order names a product the asset does not hold.
    let mut body = batch_of(
        "A-2",
        vec![
            new_buy(1, "C-1", "normal_recover_usbkey", "8000001102", &["P-2"]),
            order(
                2,
                "C-1",
                "normal_recover_usbkey",
                "delete_product",
                json!([{"assetNos": ["8000001101"], "products": [{"productUri": "P-NOPE"}]}]),
            ),
        ],
    );
    body["syncMode"] = json!("async");
    let answer = p.batch(body.clone()).await;
    let res = results(&answer);
    assert_eq!(res.len(), 2);
    assert!(lo_id(&res, 1).starts_with("LO"));

    let (state, failure) = settled_state(&p, "A-2").await;
    assert_eq!(state, "failed");
    let why = "orderList[1].assets[0].products[0]: asset 8000001101 holds no product P-NOPE";
    assert_eq!(failure.as_deref(), Some(why));
    // Nothing of it was granted: not even the first order's asset.
    assert_eq!(
        i64_of(
            &p,
            "SELECT count(*) FROM assets WHERE asset_num = '8000001102'"
        ),
        0
    );
    assert_eq!(strings_of(&p, "SELECT product_uri FROM products"), ["P-1"]);

    p.batch(body).await.assert_13004(&format!(
        "channelOrderId: this batch was accepted but could not be applied: {why}"
    ));
}

#[tokio::test]
async fn orders_and_assets_survive_a_restart() {
    let mut p = Platform::start().await;
    let egid = enterprise(&p, "CRM-1200").await;
    let sync_body = batch_of(
        "B-1",
        vec![new_buy(
            1,
            "CRM-1200",
            "normal_recover_usbkey",
            "8000001201",
            &["P-1"],
        )],
    );
    let sync_answer = p.batch(sync_body.clone()).await;
    sync_answer.data();
    let mut async_body = batch_of(
        "A-1",
        vec![new_buy(1, "CRM-1200", "softkey", "8000001202", &["P-2"])],
    );
    async_body["syncMode"] = json!("async");
    let async_answer = p.batch(async_body.clone()).await;
    async_answer.data();
    assert_eq!(settled_state(&p, "A-1").await.0, "applied");
    let list_before = listing(&p, &egid, None).await;
    assert_eq!(asset_nums(&list_before), ["8000001201", "8000001202"]);
    let before = snapshot(&p);

    p.restart().await;

    assert_eq!(snapshot(&p), before);
    assert_eq!(listing(&p, &egid, None).await, list_before);
    assert_eq!(p.count("license_orders"), 2);
    // Replays are still recognised after the restart.
    assert_eq!(p.batch(sync_body).await.body, sync_answer.body);
    assert_eq!(p.batch(async_body).await.body, async_answer.body);
    assert_eq!(snapshot(&p), before);

    // New license orders get new ids.
    let next = p
        .batch(batch_of(
            "B-2",
            vec![new_buy(1, "CRM-1200", "softkey", "8000001203", &["P-3"])],
        ))
        .await;
    let next = lo_id(&results(&next), 0);
    let old: Vec<String> = strings_of(&p, "SELECT license_order_id FROM license_orders");
    assert_eq!(old.len(), 3);
    assert_eq!(old.iter().filter(|id| **id == next).count(), 1);
}

#[tokio::test]
async fn order_customers_are_resolved_or_refused() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-1300").await;
    let other = enterprise(&p, "CRM-1301").await;
    let default_id = default_customer(&p, "CRM-1300").await;
    let before = snapshot(&p);

    let mut unknown_enterprise = new_buy(1, "C-1", "softkey", "8000001301", &["P-1"]);
    unknown_enterprise["enterpriseGlobalId"] = json!("EG0000009999");
    p.batch(batch_of("B-1", vec![unknown_enterprise]))
        .await
        .assert_13004("orderList[0].enterpriseGlobalId: no enterprise master account EG0000009999");
    let mut unknown_customer = new_buy(1, "C-1", "softkey", "8000001301", &["P-1"]);
    unknown_customer["customerId"] = json!("CU0000009999");
    p.batch(batch_of("B-1", vec![unknown_customer]))
        .await
        .assert_13004("orderList[0].customerId: no customer CU0000009999");
    let mut elsewhere = new_buy(1, "CRM-1300", "softkey", "8000001301", &["P-1"]);
    elsewhere["enterpriseGlobalId"] = json!(other);
    p.batch(batch_of("B-1", vec![elsewhere])).await.assert_13004(
        "orderList[0].enterpriseGlobalId: the customer is bound to another enterprise master account",
    );
    let mut nobody = new_buy(1, "C-1", "softkey", "8000001301", &["P-1"]);
    nobody
        .as_object_mut()
        .expect("order")
        .remove("channelCustomerId");
    p.batch(batch_of("B-1", vec![nobody]))
        .await
        .assert_13004("orderList[0].customerId: required when channelCustomerId is empty");
    assert_eq!(snapshot(&p), before);

    // By customerId (the platform's id wins over any channel id).
    let mut by_id = new_buy(1, "ignored", "softkey", "8000001301", &["P-1"]);
    by_id["customerId"] = json!(default_id);
    let res = p.batch(batch_of("B-1", vec![by_id])).await;
    assert_eq!(results(&res)[0]["customerId"], json!(default_id));
    assert_eq!(asset_nums(&listing(&p, &egid, None).await), ["8000001301"]);
    assert_eq!(
        i64_of(
            &p,
            "SELECT count(*) FROM customers WHERE channel_customer_id = 'ignored'"
        ),
        0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_batches_are_applied_once_each() {
    let p = Platform::start().await;
    let same = batch_of(
        "B-SAME",
        vec![new_buy(
            1,
            "C-1",
            "normal_recover_usbkey",
            "8000001401",
            &["P-1"],
        )],
    );
    let (a, b, c, d) = tokio::join!(
        p.batch(same.clone()),
        p.batch(same.clone()),
        p.batch(same.clone()),
        p.batch(same.clone())
    );
    let first = a.data().clone();
    for other in [&b, &c, &d] {
        assert_eq!(other.data(), &first, "every caller gets the one answer");
    }
    assert_eq!(p.count("batches"), 1);
    assert_eq!(p.count("license_orders"), 1);
    assert_eq!(p.count("products"), 1);

    // Distinct batches at once: all applied, with distinct license order ids.
    let distinct = |i: i32| {
        batch_of(
            &format!("B-{i}"),
            vec![new_buy(
                1,
                &format!("C-{i}"),
                "softkey",
                &format!("80000015{i:02}"),
                &["P-1"],
            )],
        )
    };
    let (a, b, c, d) = tokio::join!(
        p.batch(distinct(1)),
        p.batch(distinct(2)),
        p.batch(distinct(3)),
        p.batch(distinct(4))
    );
    let mut ids: Vec<String> = [a, b, c, d].iter().map(|r| lo_id(&results(r), 0)).collect();
    ids.push(first[0]["licenseOrderId"].as_str().expect("id").to_owned());
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 5, "{ids:?}");
    assert_eq!(p.count("batches"), 5);
    assert_eq!(p.count("assets"), 5);
}

/// One batch that buys an asset, buys onto it again, removes one of its products and buys
/// another asset: each order sees what the orders before it made (on PostgreSQL the rows of a
/// batch are written together, and a later order reads them first).
#[tokio::test]
async fn later_orders_of_a_batch_see_what_earlier_ones_made() {
    let p = Platform::start().await;
    let egid = enterprise(&p, "CRM-900").await;
    let buy = |seq: i32, asset: &str, uri: &str| {
        order(
            seq,
            "CRM-900",
            "normal_recover_usbkey",
            "new_buy",
            json!([{"assetNos": [asset], "products": [product(uri, Some(1000), Some(2000), 1)]}]),
        )
    };
    let remove = order(
        3,
        "CRM-900",
        "normal_recover_usbkey",
        "delete_product",
        json!([{"assetNos": ["8000000901"], "products": [product("P-1", None, None, 1)]}]),
    );
    let orders = vec![
        buy(1, "8000000901", "P-1"),
        buy(2, "8000000901", "P-2"),
        remove,
        buy(4, "8000000902", "P-3"),
    ];
    p.batch(batch_of("B-SEE", orders)).await.data();
    let list = listing(&p, &egid, None).await;
    assert_eq!(asset_nums(&list), ["8000000901", "8000000902"]);
    let uris = |asset: &str| -> Vec<Value> {
        find(&list, asset)["products"]
            .as_array()
            .expect("products")
            .iter()
            .map(|p| p["productUri"].clone())
            .collect()
    };
    assert_eq!(uris("8000000901"), [json!("P-2")]);
    assert_eq!(uris("8000000902"), [json!("P-3")]);
    assert_eq!(i64_of(&p, "SELECT count(*) FROM license_orders"), 4);
}
